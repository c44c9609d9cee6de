//! Convex–convex contact: GJK for the distance, EPA for the penetration, with spheres (and points)
//! treated exactly as a centre point plus a radius.
//!
//! Sphere handling: a sphere of radius r about c is the point c "inflated" by r. If the cores
//! (points for spheres, the full shape otherwise) are apart by `d` with witnesses `p_A`, `p_B` and
//! unit normal `n = (p_B − p_A)/d`, the shapes are apart by `d − r_A − r_B` with witnesses
//! `p_A + r_A n` and `p_B − r_B n`. This is exact, makes sphere–sphere a closed form, and keeps the
//! normal continuous while a sphere rolls over any convex shape (as long as its centre stays
//! outside the other shape; deeper, the full shapes go through EPA).

use nalgebra::Vector3;

use super::contact_geometry::ContactGeometry;
use super::epa::{epa, EpaStore};
use super::gjk::{gjk, Gjk, ABS_TOLERANCE};
use super::support::Posed;

/// Contact between convex `a` (base) and `b` (follower); normal from a into b. EPA, when the
/// shapes intersect, works in `store`.
pub(crate) fn convex_convex(store: &mut EpaStore, a: &Posed, b: &Posed) -> ContactGeometry {
    let ra = a.shape.sphere_radius();
    let rb = b.shape.sphere_radius();
    if ra.is_some() || rb.is_some() {
        let core_a = if ra.is_some() { a.core() } else { *a };
        let core_b = if rb.is_some() { b.core() } else { *b };
        let both_points = ra.is_some() && rb.is_some();
        let (ra, rb) = (ra.unwrap_or(0.0), rb.unwrap_or(0.0));
        let apart = if both_points {
            // Both cores are points: closed form.
            let d = core_b.translation - core_a.translation;
            let distance = d.norm();
            Some((
                distance,
                core_a.translation,
                core_b.translation,
                d / distance,
            ))
        } else {
            match gjk(&core_a, &core_b, &(core_a.translation - core_b.translation)) {
                Gjk::Separated {
                    distance,
                    a,
                    b,
                    normal,
                } => Some((distance, a, b, normal)),
                Gjk::Intersecting(_) => None,
            }
        };
        if let Some((distance, pa, pb, n)) = apart {
            if distance > ABS_TOLERANCE {
                return ContactGeometry::from_witnesses(
                    pa + n * ra,
                    pb - n * rb,
                    n,
                    distance - ra - rb,
                );
            }
            if both_points {
                // Concentric spheres (or coincident points): any direction is a normal; take the
                // base frame's z axis so the result is deterministic.
                let n = a.rotation.column(2).into_owned();
                return ContactGeometry::from_witnesses(pa + n * ra, pb - n * rb, n, -ra - rb);
            }
        }
    }
    full_shapes(store, a, b)
}

/// GJK, then EPA if the shapes intersect.
fn full_shapes(store: &mut EpaStore, a: &Posed, b: &Posed) -> ContactGeometry {
    match gjk(a, b, &(a.translation - b.translation)) {
        Gjk::Separated {
            distance,
            a: pa,
            b: pb,
            normal,
        } => ContactGeometry::from_witnesses(pa, pb, normal, distance),
        Gjk::Intersecting(simplex) => match epa(store, a, b, &simplex) {
            Some(p) => ContactGeometry::from_witnesses(p.a, p.b, p.normal, -p.depth),
            None => {
                // Flat Minkowski difference (not reachable for supported pairs): report touching.
                let (pa, pb) = simplex.witnesses();
                let n: Vector3<f64> = a.rotation.column(2).into_owned();
                ContactGeometry::from_witnesses(pa, pb, n, 0.0)
            }
        },
    }
}
