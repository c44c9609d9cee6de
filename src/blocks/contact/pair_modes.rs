//! What makes a contact stiff at its last evaluation: the fastest of its normal, sliding and
//! twisting modes, for the stall message ([`Advice::stiffness`](crate::block::Advice::stiffness)).
//!
//! Each mode is the contact's slope against the motion it resists, linearised at the points'
//! depths, rates and slip speeds of the last evaluation, on the mass properties of the bodies
//! alone. These are estimates, not bounds: a body in a chain is moved by more mass than its own
//! (its rate is lower), and a point off the centre of mass also turns the body (its effective mass
//! is lower: a free sphere's contact point slides with 2m/7, 3.5 times the sliding rate here; a
//! brick rocking on its corners has √3 times the normal rate here). The stall message names the
//! block only when its rate explains the step to within that (see `sim::stiffest_contact`):
//!
//! - **normal**: K = Σ ∂f_n,i/∂d (N/m) and B = Σ ∂f_n,i/∂ḋ (N·s/m) on the reduced mass
//!   m = 1/(1/m_F + 1/m_B) (1/m_B = 0 for World): |λ|max = (B + sqrt(B² − 4Km))/(2m) when
//!   overdamped, sqrt(K/m) otherwise;
//! - **sliding**: C = Σ c_i (N·s/m), c_i the friction's slope at point i's slip speed v_i,
//!   f_n,i·max(μ'(v_i), μ(v_i)/v_i) (along the slip and across it), on the same mass: C/m;
//! - **twisting**: Σ c_i·r_i² over each body's polar inertia about the normal through its centre
//!   of mass (r_i the point's distance from that axis), summed over the bodies that move.
//!
//! An explicit method's step must stay below about 3/|λ| (Dormand–Prince reaches 3.3 along the
//! negative real axis).
//!
//! Shared by SpatialContactForce (`spatial_contact/stiffness.rs`) and ContactGroup
//! (`group/stiffness.rs`), which gather their points in contact each their own way.

use crate::block::StiffnessNote;
use crate::blocks::contact::advice_text::sig;
use crate::blocks::multibody::FrameMotion;
use crate::contact::friction::FrictionLaw;
use crate::contact::manifold_force::point_normal_force;
use crate::contact::normal_force::NormalForceLaw;
use crate::geometry::query::manifold::ContactManifold;
use crate::multibody::SpatialInertia;
use nalgebra::{Isometry3, Vector3};

/// The sums over the points in contact.
#[derive(Default)]
pub(in crate::blocks::contact) struct ModeSums {
    points: usize,
    /// Σ ∂f_n/∂d (N/m) and Σ ∂f_n/∂ḋ (N·s/m).
    stiffness: f64,
    damping: f64,
    /// Σ c_i (N·s/m).
    friction_slope: f64,
    /// Σ c_i·r_i² about each body's axis (N·m·s), follower and base.
    twist_follower: f64,
    twist_base: f64,
    /// The largest speed at which a point in contact travels over the follower (m/s): the
    /// bodies' relative rotation rate times the point's distance from the follower's frame
    /// origin.
    surface_speed: f64,
}

/// The laws and the pair's bodies, as the mode sums and the note read them.
pub(in crate::blocks::contact) struct PairModes<'a> {
    /// The pair's laws.
    pub normal: &'a NormalForceLaw,
    pub friction: &'a FrictionLaw,
    /// The contact normal (World, unit), from base to follower.
    pub n: Vector3<f64>,
    /// The bodies' motions (World): base, follower.
    pub motions: (&'a FrameMotion, &'a FrameMotion),
    /// The bodies' mass properties about the normal: base, follower (`None`: World or massless).
    pub bodies: (Option<BodyAt>, Option<BodyAt>),
}

/// One body's mass (kg), centre of mass (World, m) and polar inertia about the normal (kg·m²),
/// or `None` for World or a massless body.
pub(in crate::blocks::contact) struct BodyAt {
    pub(in crate::blocks::contact) mass: f64,
    pub(in crate::blocks::contact) centre: Vector3<f64>,
    pub(in crate::blocks::contact) polar: f64,
}

impl BodyAt {
    /// From the body's mass properties `inertia` (body frame), the geometry's `placement` on
    /// the body (body ← geometry frame) and its pose (World ← geometry frame), about the World
    /// normal `n`.
    pub(in crate::blocks::contact) fn from_inertia(
        inertia: &SpatialInertia,
        placement: &Isometry3<f64>,
        pose_geometry: &Isometry3<f64>,
        n: &Vector3<f64>,
    ) -> Option<Self> {
        if inertia.mass.is_nan() || inertia.mass <= 0.0 {
            return None;
        }
        let pose_body = pose_geometry * placement.inverse();
        let centre = pose_body * nalgebra::Point3::from(inertia.com());
        let n_body = pose_body.rotation.inverse() * n;
        Some(Self {
            mass: inertia.mass,
            centre: centre.coords,
            polar: n_body.dot(&(inertia.inertia_about_com() * n_body)),
        })
    }

    /// r² of World point `p` from the axis along `n` through the centre of mass (m²).
    pub(in crate::blocks::contact) fn arm_squared(
        &self,
        p: &Vector3<f64>,
        n: &Vector3<f64>,
    ) -> f64 {
        let r = p - self.centre;
        (r - n * n.dot(&r)).norm_squared()
    }
}
impl PairModes<'_> {
    /// Adds one point in contact at World `p` with the normal law's slopes (k, b) and its
    /// normal force and slip speed (N, m/s).
    pub(in crate::blocks::contact) fn add(
        &self,
        sums: &mut ModeSums,
        p: &Vector3<f64>,
        (k, b): (f64, f64),
        (f_n, slip): (f64, f64),
    ) {
        let (mb, mf) = self.motions;
        let spin = (mf.angular_velocity - mb.angular_velocity).norm();
        let c = friction_slope(self.friction, f_n, slip);
        let n = &self.n;
        sums.surface_speed = sums.surface_speed.max(spin * (p - mf.position).norm());
        sums.points += 1;
        sums.stiffness += k;
        sums.damping += b;
        sums.friction_slope += c;
        sums.twist_follower += self
            .bodies
            .1
            .as_ref()
            .map_or(0.0, |body| c * body.arm_squared(p, n));
        sums.twist_base += self
            .bodies
            .0
            .as_ref()
            .map_or(0.0, |body| c * body.arm_squared(p, n));
    }

    /// The sums over a manifold's points, with each point's normal velocity (m/s, positive
    /// separating) and slip speed (m/s).
    pub(in crate::blocks::contact) fn manifold_sums(
        &self,
        manifold: &ContactManifold,
        normal_velocity: &[f64],
        slip_speed: &[f64],
    ) -> ModeSums {
        let mut sums = ModeSums::default();
        let points = manifold.points();
        for (i, p) in points.iter().enumerate().take(normal_velocity.len()) {
            let rate = -normal_velocity[i];
            let f_n = point_normal_force(self.normal, p, rate);
            let law = |d: f64, r: f64| p.share * self.normal.magnitude(d, r);
            let (k, b) = law_slopes(self.normal, law, p.effective_depth, rate);
            self.add(&mut sums, &p.point.coords, (k, b), (f_n, slip_speed[i]));
        }
        sums
    }

    /// The fastest mode (see the module documentation) of the sums over a pair's points, the
    /// pair named by `pair`; `None` when no point is in contact or the bodies have no mass.
    pub(in crate::blocks::contact) fn note(
        &self,
        pair: &str,
        sums: &ModeSums,
    ) -> Option<StiffnessNote> {
        let (body_b, body_f) = (self.bodies.0.as_ref(), self.bodies.1.as_ref());
        let inverse_mass =
            body_f.map_or(0.0, |b| 1.0 / b.mass) + body_b.map_or(0.0, |b| 1.0 / b.mass);
        if inverse_mass.is_nan() || inverse_mass <= 0.0 || sums.points == 0 {
            return None;
        }
        let mass = 1.0 / inverse_mass;
        let (k, b) = (sums.stiffness, sums.damping);
        let normal_rate = if b * b >= 4.0 * k * mass {
            (b + (b * b - 4.0 * k * mass).sqrt()) / (2.0 * mass)
        } else {
            (k / mass).sqrt()
        };
        let sliding_rate = sums.friction_slope / mass;
        let twist = |sum: f64, body: Option<&BodyAt>| {
            body.filter(|b| b.polar > 0.0)
                .map_or(0.0, |b| sum / b.polar)
        };
        let (twist_f, twist_b) = (
            twist(sums.twist_follower, body_f),
            twist(sums.twist_base, body_b),
        );
        let twisting_rate = twist_f + twist_b;
        // The body whose twisting sets most of the rate, for the message.
        let (twist_sum, polar) = if twist_f >= twist_b {
            (sums.twist_follower, body_f.map_or(0.0, |b| b.polar))
        } else {
            (sums.twist_base, body_b.map_or(0.0, |b| b.polar))
        };
        let points = match sums.points {
            1 => "1 point".to_string(),
            n => format!("{n} points"),
        };
        let (rate, what, help) = if normal_rate >= sliding_rate.max(twisting_rate) {
            (
                normal_rate,
                format!(
                    "{pair}, normal mode: K = {} N/m, B = {} N·s/m over {points} on {} kg",
                    sig(k),
                    sig(b),
                    sig(mass)
                ),
                "lower the normal law's stiffness or damping".to_string(),
            )
        } else if sliding_rate >= twisting_rate {
            (
                sliding_rate,
                format!(
                    "{pair}, sliding mode: the friction's slope, {} N·s/m over {points}, on {} kg",
                    sig(sums.friction_slope),
                    sig(mass)
                ),
                friction_help(self.friction),
            )
        } else {
            (
                twisting_rate,
                format!(
                    "{pair}, twisting mode: the friction's slope, {} N·s/m over {points}, Σc·r² = {} N·m·s about the normal through the centre of mass (polar inertia {} kg·m²)",
                    sig(sums.friction_slope),
                    sig(twist_sum),
                    sig(polar)
                ),
                friction_help(self.friction),
            )
        };
        (rate.is_finite() && rate > 0.0).then_some(StiffnessNote {
            rate,
            what,
            help,
            surface_speed: sums.surface_speed,
            free_members: 0,
        })
    }
}

/// What to change to soften the friction's slope.
pub(in crate::blocks::contact) fn friction_help(friction: &FrictionLaw) -> String {
    match *friction {
        FrictionLaw::SmoothStickSlip {
            critical_velocity, ..
        } => format!(
            "raise the friction's critical_velocity (now {} m/s; the slope falls as 1/v_c)",
            sig(critical_velocity)
        ),
        FrictionLaw::Stribeck {
            stiction_velocity, ..
        } => format!(
            "raise the friction's stiction_velocity (now {} m/s; the slope falls as 1/v_s)",
            sig(stiction_velocity)
        ),
        FrictionLaw::None | FrictionLaw::Input => "soften the friction".to_string(),
    }
}

/// ∂f/∂d and ∂f/∂ḋ of a point's law `f(d, ḋ)` at (d, ḋ) by central differences (steps of 1e-6
/// of the depth and of the rate, which stay inside contact since d > 0); 0 for a law given by
/// input.
pub(in crate::blocks::contact) fn law_slopes(
    law: &NormalForceLaw,
    f: impl Fn(f64, f64) -> f64,
    depth: f64,
    rate: f64,
) -> (f64, f64) {
    if matches!(law, NormalForceLaw::Input) || depth.is_nan() || depth <= 0.0 {
        return (0.0, 0.0);
    }
    let dd = 1e-6 * depth;
    let k = (f(depth + dd, rate) - f(depth - dd, rate)) / (2.0 * dd);
    let dr = 1e-6 * rate.abs().max(1e-6);
    let b = (f(depth, rate + dr) - f(depth, rate - dr)) / (2.0 * dr);
    (k.max(0.0), b.max(0.0))
}

/// The friction force's slope against the slip velocity at slip speed `v` (N·s/m): the larger
/// of its derivative along the slip, f_n·μ'(v), and its secant across it, f_n·μ(v)/v.
pub(in crate::blocks::contact) fn friction_slope(
    law: &FrictionLaw,
    normal_force: f64,
    v: f64,
) -> f64 {
    let scale = match *law {
        FrictionLaw::SmoothStickSlip {
            critical_velocity, ..
        } => critical_velocity,
        FrictionLaw::Stribeck {
            stiction_velocity, ..
        } => stiction_velocity,
        FrictionLaw::None | FrictionLaw::Input => return 0.0,
    };
    let h = 1e-4 * scale;
    let v = v.abs();
    let derivative = if v > h {
        (law.coefficient(v + h) - law.coefficient(v - h)) / (2.0 * h)
    } else {
        (law.coefficient(v + h) - law.coefficient(v)) / h
    };
    let secant = if v > h {
        law.coefficient(v) / v
    } else {
        law.coefficient(h) / h
    };
    normal_force.abs() * derivative.max(secant)
}
