//! A SpatialContactForce's stiffness note: its points in contact from the last evaluation, summed
//! by the shared mode code ([`pair_modes`](crate::blocks::contact::pair_modes), which states the
//! math) into the fastest of its normal, sliding and twisting modes.

use super::force::{Scratch, SpatialContactForce};
use super::side::Side;
use crate::block::StiffnessNote;
use crate::blocks::contact::pair_modes::{law_slopes, BodyAt, ModeSums, PairModes};
use nalgebra::{Isometry3, Vector3};

impl BodyAt {
    fn of(side: &Side, pose_geometry: &Isometry3<f64>, n: &Vector3<f64>) -> Option<Self> {
        Self::from_inertia(&side.inertia, &side.placement, pose_geometry, n)
    }
}

impl SpatialContactForce {
    /// The fastest mode of the last evaluation (see the module documentation), or `None` when
    /// the pair is apart, its bodies have no mass, or its forces come by input.
    pub(super) fn stiffness_note(&self, s: &Scratch) -> Option<StiffnessNote> {
        let (base, follower) = (self.base.as_ref()?, self.follower.as_ref()?);
        let n = self.last_normal(s)?;
        let modes = PairModes {
            normal: &self.normal,
            friction: &self.friction,
            n,
            motions: (&s.motion_base, &s.motion_follower),
            bodies: (
                BodyAt::of(base, &s.pose_base, &n),
                BodyAt::of(follower, &s.pose_follower, &n),
            ),
        };
        let sums = self.mode_sums(s, &modes);
        let pair = format!("({} against {})", base.label, follower.label);
        modes.note(&pair, &sums)
    }

    /// The contact normal of the last evaluation (World), if any point was in contact.
    fn last_normal(&self, s: &Scratch) -> Option<Vector3<f64>> {
        if self.use_manifold {
            (s.manifold.separation() < 0.0 && !s.manifold.points().is_empty())
                .then(|| s.manifold.normal().into_inner())
        } else {
            s.geometry[..self.points]
                .iter()
                .find(|g| g.separation < 0.0)
                .map(|g| g.normal.into_inner())
        }
    }

    fn mode_sums(&self, s: &Scratch, modes: &PairModes) -> ModeSums {
        if self.use_manifold {
            let m = s.manifold.points().len().min(s.normal_velocity.len());
            return modes.manifold_sums(&s.manifold, &s.normal_velocity[..m], &s.slip_speed[..m]);
        }
        let mut sums = ModeSums::default();
        for (i, g) in s.geometry[..self.points].iter().enumerate() {
            if g.separation.is_nan() || g.separation >= 0.0 {
                continue;
            }
            let rate = -s.normal_velocity[i];
            let law = |d: f64, r: f64| self.normal.magnitude(d, r);
            let (k, b) = law_slopes(&self.normal, law, -g.separation, rate);
            modes.add(
                &mut sums,
                &g.point.coords,
                (k, b),
                (s.normal_force[i], s.slip_speed[i]),
            );
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::contact::pair_modes::friction_slope;
    use crate::contact::friction::FrictionLaw;
    use crate::contact::normal_force::NormalForceLaw;

    #[test]
    fn smooth_stick_slip_slope_at_rest_is_twice_mu_over_vc() {
        let law = FrictionLaw::SmoothStickSlip {
            static_coefficient: 0.5,
            dynamic_coefficient: 0.4,
            critical_velocity: 1e-3,
        };
        // μ = μ_s·x·(2 − x), slope 2μ_s/v_c at rest: 2·0.5/1e-3·10 N = 1e4 N·s/m.
        let c = friction_slope(&law, 10.0, 0.0);
        assert!((c / 1e4 - 1.0).abs() < 1e-3, "{c}");
        // Sliding fast: the secant μ_d·f_n/v.
        let c = friction_slope(&law, 10.0, 10.0);
        assert!((c - 0.4 * 10.0 / 10.0).abs() < 1e-3, "{c}");
    }

    #[test]
    fn stribeck_slope_peaks_near_half_the_stiction_velocity() {
        let law = FrictionLaw::Stribeck {
            static_coefficient: 0.3,
            dynamic_coefficient: 0.3,
            stiction_velocity: 1e-4,
        };
        // step5's steepest slope is 15/8 at x = 1/2: 1.875·μ_s·f_n/v_s.
        let c = friction_slope(&law, 1.0, 0.5e-4);
        assert!((c / (1.875 * 0.3 / 1e-4) - 1.0).abs() < 1e-3, "{c}");
    }

    /// A body whose geometry frame is offset and turned on it, posed turned: the centre of mass
    /// and the polar inertia come out in World. By hand: the geometry frame sits at (0, 0.2, 0) of
    /// the body, turned 90° about z; the geometry is posed at (1, 0, 0), turned 90° about x. The
    /// centre of mass (0.1, 0, 0) of the body is (0.1, −0.2, 0) from the geometry frame's origin,
    /// (−0.2, −0.1, 0) in the geometry frame, (−0.2, 0, −0.1) turned into World: (0.8, 0, −0.1).
    /// World z is the geometry frame's y, the body's −x: the polar inertia is I_xx = 1 kg·m².
    #[test]
    fn body_mass_properties_are_carried_into_world() {
        use crate::multibody::SpatialInertia;
        use nalgebra::{Matrix3, Translation3, UnitQuaternion};
        use std::f64::consts::FRAC_PI_2;
        let side = Side {
            shape: crate::geometry::Shape::sphere(0.1).unwrap(),
            placement: Isometry3::from_parts(
                Translation3::new(0.0, 0.2, 0.0),
                UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2),
            ),
            label: "ball.G".into(),
            inertia: SpatialInertia::from_mass_com_inertia(
                2.0,
                Vector3::new(0.1, 0.0, 0.0),
                Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
            ),
        };
        let pose = Isometry3::from_parts(
            Translation3::new(1.0, 0.0, 0.0),
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), FRAC_PI_2),
        );
        let body = BodyAt::of(&side, &pose, &Vector3::z()).unwrap();
        assert!(
            (body.centre - Vector3::new(0.8, 0.0, -0.1)).norm() < 1e-12,
            "{:?}",
            body.centre
        );
        assert!((body.polar - 1.0).abs() < 1e-12, "{}", body.polar);
        assert_eq!(body.mass, 2.0);
        // A point 0.3 m above the centre and 0.4 m beside it is 0.4 m from the vertical axis.
        let p = body.centre + Vector3::new(0.0, 0.4, 0.3);
        assert!((body.arm_squared(&p, &Vector3::z()) - 0.16).abs() < 1e-12);
    }

    #[test]
    fn linear_law_slopes_are_k_and_b() {
        let law = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e5,
            damping: 30.0,
        };
        let (k, b) = law_slopes(&law, |d, r| law.magnitude(d, r), 1e-4, 0.01);
        assert!(
            (k / 1e5 - 1.0).abs() < 1e-6 && (b / 30.0 - 1.0).abs() < 1e-6,
            "{k} {b}"
        );
    }
}
