//! Contacts with the infinite plane and the grid surface (both in contact on their +z side).
//!
//! Plane (frame P: origin o, unit normal n = P's z axis, world): for a bounded convex shape C the
//! point of C deepest below the plane is its support point in `−n`, `p = s_C(−n)`; the signed
//! distance is `n·(p − o)` and the plane's witness is the foot `p − (n·(p − o)) n`. This is exact
//! for every shape (no iteration), and continuous for smooth shapes.
//!
//! Grid surface (frame G): the point q (in G) is over the cell holding (q_x, q_y); with the
//! bilinear height h and slopes h_x, h_y there, the surface normal in G is
//! `n = (−h_x, −h_y, 1)/√(1 + h_x² + h_y²)` and the separation is `(q_z − h)·n_z`, the distance
//! from q to the surface's tangent plane at (q_x, q_y) (exact on a planar cell; on a curved cell
//! correct to first order in the slope change). The grid's witness is `q − separation·n`.
//!
//! Outside the grid's x-y extent there is no contact and no meaningful distance. The result there
//! is: separation = the horizontal distance from (q_x, q_y) to the extent (finite, ≥ 0, so that a
//! sign change is located exactly where a penetrating point leaves the extent), normal = the grid's
//! +z axis, point = the point itself.

use nalgebra::{Isometry3, Vector3};

use super::contact_geometry::ContactGeometry;
use super::support::Posed;
use crate::geometry::shape::GridSurface;

/// Contact of plane (base) with convex `c` (follower): normal = plane's +z.
#[inline]
pub(crate) fn plane_convex(plane: &Isometry3<f64>, c: &Posed) -> ContactGeometry {
    let n = plane.rotation * Vector3::z();
    let p = c.support(&-n);
    plane_point_world(&n, &plane.translation.vector, p)
}

/// Contact of a plane (unit normal `n`, origin `o`, world) with the world point `p`.
#[inline]
pub(crate) fn plane_point_world(
    n: &Vector3<f64>,
    o: &Vector3<f64>,
    p: Vector3<f64>,
) -> ContactGeometry {
    let separation = n.dot(&(p - o));
    ContactGeometry::from_witnesses(p - n * separation, p, *n, separation)
}

/// Contact of grid surface (base, at `pose`) with the world point `p`: normal = surface normal.
#[inline]
pub(crate) fn grid_point_world(
    grid: &GridSurface,
    pose: &Isometry3<f64>,
    p: Vector3<f64>,
) -> ContactGeometry {
    let q = pose.inverse_transform_vector(&(p - pose.translation.vector));
    match grid.sample(q.x, q.y) {
        Some(s) => {
            let n_local = Vector3::new(-s.dh_dx, -s.dh_dy, 1.0).normalize();
            let separation = (q.z - s.height) * n_local.z;
            let n = pose.rotation * n_local;
            ContactGeometry::from_witnesses(p - n * separation, p, n, separation)
        }
        None => {
            let n = pose.rotation * Vector3::z();
            let separation = grid.distance_to_extent(q.x, q.y);
            ContactGeometry {
                separation,
                point: p.into(),
                normal: nalgebra::Unit::new_unchecked(n),
            }
        }
    }
}
