//! The penalty force of a pair spread over its contact manifold.
//!
//! A pair of bodies in contact has one normal law (stiffness k, damping b, …), given for the pair
//! as a whole, and a manifold of points i with depths d_i > 0 and boundary shares s_i (see
//! [`crate::geometry::query::manifold`]). The law is applied to the pair as one spring, and the
//! force it gives is spread over the points:
//!
//! ```text
//! weights            w_i = s_i·d_i / Σ_j s_j·d_j            (Σ w_i = 1)
//! effective depth    d   = max_i d_i                         (the deepest point)
//! effective rate     ḋ   = Σ_i w_i·ḋ_i                       (ḋ_i = −n·v_rel at point i)
//! total normal force F   = law(d, ḋ)
//! point i            f_i = w_i·F  along the shared normal n,  friction from f_i and v_t,i
//! ```
//!
//! Why this model:
//! - **The law keeps its meaning for the pair.** The total is exactly the single-point law at the
//!   deepest point, whatever the number of points: a face resting flat under a load W sinks by the
//!   depth a single point would (W/k for the linear law), and so do an edge, a vertex, a cylinder
//!   on its side and a disk on its rim.
//! - **Continuity.** A point enters or leaves the manifold at zero depth, where its weight is zero;
//!   points made by clipping split off with their share (see the manifold's shares). The deepest
//!   depth is a maximum of continuous functions, and the rate is weighted, so the force and its
//!   moment are continuous in the pose and velocity while a box tilts from face to edge to vertex.
//! - **Righting moment.** Deeper points carry more of the force: a tilted box resting on a face
//!   feels a moment that levels it. For a box of half-width a tilted by a small θ on a linear law,
//!   the centre of pressure moves a²θ/(d − aθ) towards the low side, a rocking stiffness of about
//!   k·a² (what four corner springs of k/4 would give).
//! - **Friction acts per point**, with each point's own slip velocity and normal force, so a box
//!   resting on a face resists twisting (a torsional moment up to μ·F times the points' mean lever
//!   arm).
//!
//! What it is not: the spring part is not the gradient of a potential when the points' depths
//! differ (the weights depend on the pose), so an undamped box rocking on a face does not conserve
//! energy exactly; a box dropped flat does. With any damping the difference is far below it.

use nalgebra::Vector3;

use super::friction::FrictionLaw;
use super::normal_force::NormalForceLaw;
use crate::geometry::query::manifold::ManifoldPoint;

/// The weights `w_i = s_i·d_i / Σ s_j·d_j` of the manifold's points, written to `weights` (one per
/// point); returns the deepest depth (m). When every `s_i·d_i` is zero (no point, or points of zero
/// share) the weights are equal.
pub fn manifold_weights(points: &[ManifoldPoint], weights: &mut [f64]) -> f64 {
    let n = points.len().min(weights.len());
    let mut total = 0.0;
    let mut deepest: f64 = 0.0;
    for (w, p) in weights[..n].iter_mut().zip(points) {
        let depth = p.depth.max(0.0);
        *w = p.share * depth;
        total += *w;
        deepest = deepest.max(depth);
    }
    if total > 0.0 && total.is_finite() {
        // A division (not a multiplication by 1/total): one point gets exactly 1, so a
        // single-point manifold gives the single-point law bit for bit.
        weights[..n].iter_mut().for_each(|w| *w /= total);
    } else if n > 0 {
        weights[..n].fill(1.0 / n as f64);
    }
    deepest
}

/// The total normal force (N) of `law` over a manifold whose deepest depth is `max_depth` (m), with
/// the weighted penetration rate `Σ w_i·ḋ_i` (m/s).
#[inline]
pub fn total_normal_force(law: &NormalForceLaw, max_depth: f64, weighted_rate: f64) -> f64 {
    law.magnitude(max_depth, weighted_rate)
}

/// The wrench (force, moment about the world origin; N, N·m; world) that the manifold's forces
/// apply to the follower, with the follower's material velocity relative to the base at a point
/// given by `relative_velocity(p)` (m/s, world). The base gets the opposite wrench.
///
/// A reference implementation for tests and tools; the contact block computes the same sums with
/// its outputs.
pub fn manifold_wrench(
    law: &NormalForceLaw,
    friction: &FrictionLaw,
    normal: &Vector3<f64>,
    points: &[ManifoldPoint],
    relative_velocity: impl Fn(&Vector3<f64>) -> Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    const MAX: usize = 64;
    let mut weights = [0.0; MAX];
    let n = points.len().min(MAX);
    let points = &points[..n];
    let max_depth = manifold_weights(points, &mut weights[..n]);
    let rate: f64 = points
        .iter()
        .zip(&weights[..n])
        .map(|(p, w)| -w * normal.dot(&relative_velocity(&p.point.coords)))
        .sum();
    let total = total_normal_force(law, max_depth, rate);
    let (mut force, mut moment) = (Vector3::zeros(), Vector3::zeros());
    for (p, w) in points.iter().zip(&weights[..n]) {
        let f_n = w * total;
        let v = relative_velocity(&p.point.coords);
        let v_t = v - normal * normal.dot(&v);
        let f = normal * f_n + friction.force(f_n, &v_t);
        force += f;
        moment += p.point.coords.cross(&f);
    }
    (force, moment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::query::manifold::{contact_manifold, ContactManifold};
    use crate::geometry::Shape;
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};

    const K: f64 = 1e5;

    fn linear() -> NormalForceLaw {
        NormalForceLaw::LinearSpringDamper {
            stiffness: K,
            damping: 0.0,
        }
    }

    /// Wrench on a 0.2 m cube over a plane, centre at height `h`, tilted by `tilt` about y.
    fn cube_wrench(h: f64, tilt: f64) -> (Vector3<f64>, Vector3<f64>) {
        let cube = Shape::brick([0.2, 0.2, 0.2]).unwrap();
        let plane = Shape::InfinitePlane;
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, h),
            UnitQuaternion::from_axis_angle(&Vector3::y_axis(), tilt),
        );
        let mut m = ContactManifold::for_pair(&plane, &cube);
        contact_manifold(&plane, &Isometry3::identity(), &cube, &pose, &mut m).unwrap();
        let n = m.normal().into_inner();
        let (f, moment) = manifold_wrench(&linear(), &FrictionLaw::None, &n, m.points(), |_| {
            Vector3::zeros()
        });
        // Moment about the cube's centre.
        (f, moment - Vector3::new(0.0, 0.0, h).cross(&f))
    }

    #[test]
    fn a_face_resting_flat_sinks_by_w_over_k() {
        let depth = 9.81 / K;
        let (f, m) = cube_wrench(0.1 - depth, 0.0);
        assert!((f.z - 9.81).abs() < 1e-9, "{f:?}");
        assert!(m.norm() < 1e-12);
    }

    #[test]
    fn force_and_moment_are_continuous_as_a_box_tilts_from_face_to_edge() {
        // The deepest corner is held at a depth of 1e-4 m while the tilt goes from 0 to 5° in
        // 20,000 steps; the two far corners leave the plane at tilt = asin(1e-4/0.2) ≈ 0.029°.
        // Between neighbouring tilts the force changes smoothly: every step's change is within a
        // small multiple of the neighbouring steps' (no jump where the manifold loses points).
        let depth = 1e-4;
        let steps = 20_000;
        let max_tilt = 5f64.to_radians();
        let mut samples = Vec::with_capacity(steps + 1);
        for i in 0..=steps {
            let tilt = max_tilt * i as f64 / steps as f64;
            // Lowest corner at z = −depth: centre height = 0.1·(cos + sin) − depth.
            let h = 0.1 * (tilt.cos() + tilt.sin()) - depth;
            samples.push(cube_wrench(h, tilt));
        }
        let step_change = |i: usize| {
            let (f0, m0) = samples[i];
            let (f1, m1) = samples[i + 1];
            ((f1 - f0).norm(), (m1 - m0).norm())
        };
        let mut worst_force: f64 = 0.0;
        let mut worst_moment: f64 = 0.0;
        for i in 0..steps {
            let (df, dm) = step_change(i);
            worst_force = worst_force.max(df);
            worst_moment = worst_moment.max(dm);
        }
        // The total force is k·depth = 10 N throughout; the moment goes from 0 to 10 N·0.1 m·… and
        // changes by at most its slope times the step: no jump of the size of a corner's share.
        for (f, _) in &samples {
            assert!((f.z - K * depth).abs() < 1e-8, "{f:?}");
        }
        let tilt_step = max_tilt / steps as f64;
        // |dM/dθ| ≤ k·a²·(a/d)... bounded by the rocking stiffness k·a²·(a/(d − aθ)) near the
        // lift-off; a jump would be ≥ 0.1·10/4 = 0.25 N·m.
        assert!(
            worst_moment < 0.05,
            "moment changed by {worst_moment} N·m in one step of {tilt_step} rad"
        );
        assert!(
            worst_force < 1e-8,
            "force changed by {worst_force} N in one step"
        );
    }

    #[test]
    fn a_tilted_box_is_pushed_back_to_level() {
        let depth = 1e-4;
        for tilt in [1e-6, 1e-4, 2f64.to_radians()] {
            let h = 0.1 * (tilt.cos() + tilt.sin()) - depth;
            let (_, m) = cube_wrench(h, tilt);
            // Positive tilt about +y lowers the +x side; the righting moment is about −y.
            assert!(m.y < 0.0, "tilt {tilt}: moment {m:?}");
            let (_, m) = cube_wrench(h, -tilt);
            assert!(m.y > 0.0, "tilt {}: moment {m:?}", -tilt);
        }
    }

    #[test]
    fn weights_sum_to_one_and_favour_depth() {
        let p = |depth: f64, share: f64| ManifoldPoint {
            point: nalgebra::Point3::origin(),
            depth,
            share,
        };
        let mut w = [0.0; 3];
        let d = manifold_weights(&[p(1e-4, 1.0), p(3e-4, 1.0), p(0.0, 1.0)], &mut w);
        assert_eq!(d, 3e-4);
        assert!((w[0] - 0.25).abs() < 1e-15 && (w[1] - 0.75).abs() < 1e-15 && w[2] == 0.0);
        let d = manifold_weights(&[p(0.0, 0.0), p(0.0, 0.0), p(0.0, 0.0)], &mut w);
        assert_eq!(d, 0.0);
        assert_eq!(w, [1.0 / 3.0; 3]);
    }
}
