//! The penalty force of a pair spread over its contact manifold.
//!
//! A pair of bodies in contact has one normal law (stiffness k, damping b, …), given for the pair
//! as a whole, and a manifold of points i with depths d_i, effective depths d̂_i and boundary shares
//! s_i (see [`crate::geometry::query::manifold`]; the shares of the whole contact feature add up
//! to 1). Each point carries the law, scaled by its share:
//!
//! ```text
//! f_i = s_i · law(d̂_i, ḋ_i)      along the shared normal n    (ḋ_i = −n·v_rel at the point's
//!                                 velocity point: itself, or a short rim arc's deepest point)
//! friction at point i: from f_i and the slip velocity at the point itself
//! ```
//!
//! An elastic foundation (Winkler's) sampled at the contact feature's boundary:
//! - **The law keeps its meaning for the pair.** A face lying flat under a load W has every point
//!   at one depth and shares summing to 1: the total is law(d), so it sinks by the depth a single
//!   point would (W/k for the linear law), whatever the number of points. A cylinder lying on its
//!   side and a disk on its rim press with the depth of their deepest line or point (d̂, the rim's
//!   curvature is not a tilt), so they too carry law(d) as a single point would.
//! - **Edges and corners of a face carry their share.** A box tilted onto an edge presses with the
//!   two corners of that edge, half the face's share, so its edge is half as stiff as its face; on
//!   a corner, a quarter. (A real foundation behaves so: a narrower contact is softer.)
//! - **Continuity.** A point enters or leaves the manifold at zero depth, where its force is zero,
//!   and points made by clipping split off with their share: force and moment are continuous in
//!   the pose while a box tilts from face to edge to corner.
//! - **Righting moment, energy.** Each corner of a tilted face is its own spring: the deeper side
//!   pushes harder (a rocking stiffness of k·Σ s_i·x_i² about the centre) and the elastic part is the
//!   gradient of the potential Σ s_i·∫law, so an undamped box rocking on a face keeps its energy
//!   (up to the change of shares where a reference face's side cuts the incident face).
//! - **Friction acts per point**, with each point's own normal force and slip velocity, so a box
//!   resting on a face resists twisting.

#[cfg(test)]
use super::friction::FrictionLaw;
#[cfg(test)]
use nalgebra::Vector3;

use super::normal_force::NormalForceLaw;
use crate::geometry::query::manifold::ManifoldPoint;

/// The normal force magnitude (N) of manifold point `point` under `law`, with the point's
/// penetration rate `penetration_rate` (m/s, > 0 approaching): `share · law(d̂, ḋ)`.
#[inline]
pub fn point_normal_force(
    law: &NormalForceLaw,
    point: &ManifoldPoint,
    penetration_rate: f64,
) -> f64 {
    point.share * law.magnitude(point.effective_depth, penetration_rate)
}

/// The wrench (force, moment about the world origin; N, N·m; world) that the manifold's forces
/// apply to the follower, with the follower's material velocity relative to the base at a point
/// given by `relative_velocity(p)` (m/s, world). The base gets the opposite wrench.
///
/// A reference implementation for the tests; the contact block computes the same sums with its
/// outputs.
#[cfg(test)]
pub fn manifold_wrench(
    law: &NormalForceLaw,
    friction: &FrictionLaw,
    normal: &Vector3<f64>,
    points: &[ManifoldPoint],
    relative_velocity: impl Fn(&Vector3<f64>) -> Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let (mut force, mut moment) = (Vector3::zeros(), Vector3::zeros());
    for p in points {
        let v_n = normal.dot(&relative_velocity(&p.velocity_point.coords));
        let f_n = point_normal_force(law, p, -v_n);
        let v = relative_velocity(&p.point.coords);
        let f = normal * f_n + friction.force(f_n, &(v - normal * normal.dot(&v)));
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
        // The deepest edge is held at a depth of 1e-4 m while the tilt θ about y goes from 0 to
        // 5° in 20,000 steps; the far corners leave the plane at sin θ = 1e-4/0.2 (θ ≈ 0.029°),
        // where the manifold goes from 4 points to 2. Closed form: each corner carries k/4 times
        // its depth; the near edge is at depth 1e-4 and x = 0.1(cos θ − sin θ) from the centre,
        // the far edge at depth max(0, 1e-4 − 0.2 sin θ) and x = −0.1(cos θ + sin θ). The
        // moment about the centre is M_y = −Σ x·F. Checking every step against it shows there is
        // no jump where the corners leave (a jump would be ≥ k/4·2e-4·0.1 = 0.5 N·m at once).
        let depth = 1e-4;
        let steps = 20_000;
        let max_tilt = 5f64.to_radians();
        let (mut worst_force, mut worst_moment): (f64, f64) = (0.0, 0.0);
        for i in 0..=steps {
            let tilt = max_tilt * i as f64 / steps as f64;
            let (s, c) = tilt.sin_cos();
            // Lowest edge at z = −depth: centre height = 0.1·(cos + sin) − depth.
            let (f, m) = cube_wrench(0.1 * (c + s) - depth, tilt);
            let near = K / 4.0 * 2.0 * depth;
            let far = K / 4.0 * 2.0 * (depth - 0.2 * s).max(0.0);
            let moment = -(0.1 * (c - s) * near - 0.1 * (c + s) * far);
            worst_force = worst_force.max((f.z - (near + far)).abs());
            worst_moment = worst_moment.max((m.y - moment).abs());
        }
        // Round-off of sums of 1e-4-scale depths times 1e5 N/m and 0.1 m lever arms.
        assert!(
            worst_force < 1e-9,
            "force off the closed form by {worst_force} N"
        );
        assert!(
            worst_moment < 1e-9,
            "moment off the closed form by {worst_moment} N·m"
        );
    }

    #[test]
    fn a_tilted_box_is_pushed_back_to_level() {
        let depth = 1e-4;
        for tilt in [1e-6, 1e-5, 2f64.to_radians()] {
            let h = 0.1 * (tilt.cos() + tilt.sin()) - depth;
            let (_, m) = cube_wrench(h, tilt);
            // Positive tilt about +y lowers the +x side; the righting moment is about −y.
            assert!(m.y < 0.0, "tilt {tilt}: moment {m:?}");
            let (_, m) = cube_wrench(h, -tilt);
            assert!(m.y > 0.0, "tilt {}: moment {m:?}", -tilt);
        }
    }

    #[test]
    fn an_edge_carries_half_and_a_corner_a_quarter_of_the_face() {
        let depth = 1e-4;
        let theta = std::f64::consts::FRAC_PI_4;
        let (f, _) = cube_wrench(0.1 * 2f64.sqrt() - depth, theta);
        assert!((f.z - 0.5 * K * depth).abs() < 1e-9, "{f:?}");
    }
}

#[cfg(test)]
mod face_switch_tests {
    use super::*;
    use crate::geometry::query::manifold::{contact_manifold, ContactManifold};
    use crate::geometry::Shape;
    use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion};

    /// Normal force on a hull over a plane, turned by `tilt` about `axis`, lowered so that its
    /// lowest vertex is 1e-4 m deep.
    fn hull_force(points: &[[f64; 3]], axis: &Unit<Vector3<f64>>, tilt: f64) -> f64 {
        let hull = Shape::convex_hull(points).unwrap();
        let rotation = UnitQuaternion::from_axis_angle(axis, tilt);
        let lowest = points
            .iter()
            .map(|p| (rotation * Point3::new(p[0], p[1], p[2])).z)
            .fold(f64::INFINITY, f64::min);
        let pose = Isometry3::from_parts(Translation3::new(0.0, 0.0, -lowest - 1e-4), rotation);
        let plane = Shape::InfinitePlane;
        let mut m = ContactManifold::for_pair(&plane, &hull);
        contact_manifold(&plane, &Isometry3::identity(), &hull, &pose, &mut m).unwrap();
        let law = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e5,
            damping: 0.0,
        };
        let n = m.normal().into_inner();
        manifold_wrench(&law, &FrictionLaw::None, &n, m.points(), |_| {
            Vector3::zeros()
        })
        .0
        .z
    }

    #[test]
    fn a_hexagonal_prism_tipping_from_cap_to_side_changes_face_without_a_jump() {
        // A hexagonal prism (circumradius 0.05, height 0.1) turned about one cap edge: at 45°
        // the cap (6 corners, 1/6 each) and the side (4 corners, 1/4 each) are equally turned
        // towards the plane, and the edge's two corners carry 2/6 of k·d on the cap, 2/4 on the
        // side: 3.33 N against 5 N. Without blending the force jumped by 1.67 N there; blended
        // over 0.02 rad it changes by at most ~2e-3 N per 1.75e-5 rad step (the blend's slope
        // 1.67 N/0.02 rad times the smoothstep's peak 1.5), and never by more than 0.01 N.
        let mut points = Vec::new();
        for k in 0..6 {
            let a = std::f64::consts::TAU * k as f64 / 6.0;
            for z in [-0.05, 0.05] {
                points.push([0.05 * a.cos(), 0.05 * a.sin(), z]);
            }
        }
        // The edge between the corners at 0° and 60° of the bottom cap runs along (−sin 30°,
        // cos 30°, 0): tipping about it lowers the side face whose normal is at 30°.
        let axis = Unit::new_normalize(Vector3::new(-0.5, 3f64.sqrt() / 2.0, 0.0));
        let (from, to, steps) = (44f64.to_radians(), 46f64.to_radians(), 2000);
        let mut previous = hull_force(&points, &axis, from);
        let mut worst: f64 = 0.0;
        for i in 1..=steps {
            let tilt = from + (to - from) * i as f64 / steps as f64;
            let f = hull_force(&points, &axis, tilt);
            worst = worst.max((f - previous).abs());
            previous = f;
        }
        assert!(worst < 0.01, "the force jumped by {worst} N");
        // Away from the band each face alone: the cap's edge (3.33 N), the side's edge (5 N).
        assert!((hull_force(&points, &axis, 40f64.to_radians()) - 10.0 / 3.0).abs() < 1e-9);
        assert!((hull_force(&points, &axis, 50f64.to_radians()) - 5.0).abs() < 1e-9);
    }
}
