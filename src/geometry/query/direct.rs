//! Direct paths for the commonest pairs of a pile: sphere–sphere and sphere–plane (either order).
//!
//! [`closest`] gives the single-point contact of such a pair with the same floating-point
//! operations, in the same order, as the generic path ([`super::query_with`]: the pair check,
//! the convex views, the posed shapes and `convex::convex_convex` or `surface::plane_convex`),
//! so the results are bit for bit those of the generic path; it only skips the dispatch, and for
//! two spheres the rotation matrices the generic path builds and never reads (except for two
//! concentric spheres).
//!
//! Sphere–sphere (radii r_a, r_b, centres c_a, c_b, World): d = c_b − c_a, n = d/|d|,
//! separation `|d| − r_a − r_b` (m), witnesses `c_a + r_a·n` and `c_b − r_b·n`, the point midway.
//! When |d| ≤ 10⁻¹² m (concentric), n is the base frame's z axis and the separation −r_a − r_b.
//!
//! Plane (base; origin o, unit normal n = R_P·e_z, World) – sphere (follower, pose (R, c)): the
//! sphere's point deepest below the plane `p = R·s(Rᵀ·(−n)) + c` with `s(d) = r·d/|d|`, the
//! separation `n·(p − o)` (m), the plane's witness `p − separation·n`.
//!
//! Sphere–box has no such path: the generic path answers it with GJK (an iteration that stops
//! within 10⁻¹² m), and a closed form (the centre clamped into the box) differs from it in the
//! last bits, so the results would no longer equal the generic path's bit for bit.

use nalgebra::{Isometry3, Vector3};

use super::contact_geometry::ContactGeometry;
use super::gjk::ABS_TOLERANCE;
use super::support::{Convex, Posed};
use super::surface::plane_convex;
use crate::geometry::shape::Shape;

/// The single-point contact of `base` at `pose_base` and `follower` at `pose_follower` (World;
/// normal from the base into the follower) when the pair has a direct path (two spheres, a
/// plane and a sphere); `None` for every other pair. Bit for bit the generic path's result.
#[inline]
pub(crate) fn closest(
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
) -> Option<ContactGeometry> {
    match (base, follower) {
        (Shape::Sphere(a), Shape::Sphere(b)) => Some(sphere_sphere(
            a.radius(),
            pose_base,
            b.radius(),
            pose_follower,
        )),
        (Shape::InfinitePlane, Shape::Sphere(s)) => Some(plane_convex(
            pose_base,
            &Posed::new(Convex::Sphere(s), pose_follower),
        )),
        (Shape::Sphere(s), Shape::InfinitePlane) => {
            Some(plane_convex(pose_follower, &Posed::new(Convex::Sphere(s), pose_base)).swapped())
        }
        _ => None,
    }
}

/// Two spheres of radii `ra` (base) and `rb` (follower, m) whose centres are their frames'
/// origins (see the module documentation).
#[inline]
fn sphere_sphere(
    ra: f64,
    pose_a: &Isometry3<f64>,
    rb: f64,
    pose_b: &Isometry3<f64>,
) -> ContactGeometry {
    let (ta, tb) = (pose_a.translation.vector, pose_b.translation.vector);
    let d = tb - ta;
    let distance = d.norm();
    if distance > ABS_TOLERANCE {
        let n = d / distance;
        return ContactGeometry::from_witnesses(ta + n * ra, tb - n * rb, n, distance - ra - rb);
    }
    // Concentric: the base frame's z axis, from the rotation matrix as the generic path has it.
    let n: Vector3<f64> = pose_a
        .rotation
        .to_rotation_matrix()
        .into_inner()
        .column(2)
        .into_owned();
    ContactGeometry::from_witnesses(ta + n * ra, tb - n * rb, n, -ra - rb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::query::QueryWorkspace;
    use nalgebra::{Translation3, UnitQuaternion};

    /// A reproducible spread of poses: positions within ±0.2 m, any orientation.
    fn poses(count: usize) -> Vec<Isometry3<f64>> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        (0..count)
            .map(|_| {
                let t = Translation3::new(0.2 * next(), 0.2 * next(), 0.2 * next());
                let axis = Vector3::new(next(), next(), next());
                let q = UnitQuaternion::from_scaled_axis(axis * 3.0);
                Isometry3::from_parts(t, q)
            })
            .collect()
    }

    /// The generic path's answer, as `query_with` computes it after its pair check (the
    /// dispatch the direct path skips; `query_with` itself now takes the direct path).
    fn generic(a: &Shape, pa: &Isometry3<f64>, b: &Shape, pb: &Isometry3<f64>) -> ContactGeometry {
        let mut ws = QueryWorkspace::new();
        match (Convex::of(a), Convex::of(b)) {
            (Some(ca), Some(cb)) => super::super::convex::convex_convex(
                &mut ws.epa,
                &Posed::new(ca, pa),
                &Posed::new(cb, pb),
            ),
            (None, Some(cb)) => super::super::single_against(a, pa, &Posed::new(cb, pb)),
            (Some(ca), None) => super::super::single_against(b, pb, &Posed::new(ca, pa)).swapped(),
            (None, None) => unreachable!("no test pair has two unbounded shapes"),
        }
    }

    fn same_bits(x: &ContactGeometry, y: &ContactGeometry) -> bool {
        let bits = |c: &ContactGeometry| {
            let mut v = vec![c.separation.to_bits()];
            v.extend(c.point.coords.iter().map(|e| e.to_bits()));
            v.extend(c.normal.iter().map(|e| e.to_bits()));
            v
        };
        bits(x) == bits(y)
    }

    /// Spheres overlapping, touching and apart, planes tilted every way, both orders, and the
    /// concentric case: the direct path equals the generic one bit for bit (separation, point,
    /// normal), which only an identical sequence of operations achieves.
    #[test]
    fn direct_paths_equal_the_generic_path_bit_for_bit() {
        let small = Shape::sphere(0.05).unwrap();
        let large = Shape::sphere(0.13).unwrap();
        let plane = Shape::InfinitePlane;
        let ps = poses(400);
        let mut checked = 0;
        for w in ps.windows(2) {
            for (a, b) in [
                (&small, &large),
                (&large, &small),
                (&plane, &small),
                (&small, &plane),
            ] {
                let direct = closest(a, &w[0], b, &w[1]).unwrap();
                let want = generic(a, &w[0], b, &w[1]);
                assert!(same_bits(&direct, &want), "{direct:?} != {want:?}");
                checked += 1;
            }
        }
        // Some pairs overlap, some do not: both branches were compared.
        let overlapping = ps
            .windows(2)
            .filter(|w| closest(&small, &w[0], &large, &w[1]).unwrap().separation < 0.0)
            .count();
        assert!(
            overlapping > 10 && overlapping < 390,
            "{overlapping} of 399"
        );
        let concentric = closest(&small, &ps[3], &large, &ps[3].translation.into()).unwrap();
        let want = generic(&small, &ps[3], &large, &ps[3].translation.into());
        assert!(same_bits(&concentric, &want));
        // −r_a − r_b, to the round-off of one subtraction.
        assert!((concentric.separation + 0.18).abs() < 1e-15);
        assert_eq!(checked, 1596);
    }

    /// Other pairs take the generic path.
    #[test]
    fn other_pairs_have_no_direct_path() {
        let ball = Shape::sphere(0.05).unwrap();
        let brick = Shape::brick([0.1, 0.2, 0.3]).unwrap();
        let id = Isometry3::identity();
        assert!(closest(&ball, &id, &brick, &id).is_none());
        assert!(closest(&Shape::InfinitePlane, &id, &brick, &id).is_none());
    }
}
