//! Contact queries between two posed geometries: pure functions of the two poses.
//!
//! Every supported pair of the seed's table (see [`supported_partners`]) is answered, in either
//! order of base and follower:
//!
//! | pair | method |
//! |---|---|
//! | convex – convex | GJK distance, EPA penetration; spheres exactly as centre + radius |
//! | convex – disk, convex – point | the same (disk and point are support-mapped convex sets) |
//! | convex / disk / point – plane | exact: support point in −n |
//! | point – grid surface | bilinear height and normal at the point's x-y, +z side |
//! | point cloud – convex / plane / grid | each point as a point |
//!
//! Poses are `Isometry3` of each geometry's reference frame R in the world; every result is in
//! the world frame (see [`ContactGeometry`] for the sign and frame conventions). Separated
//! geometries still report their (positive) separation and witness points, so that callers can
//! watch the separation cross zero.
//!
//! No query allocates: GJK uses a fixed-size simplex on the stack, EPA the fixed-size store of a
//! [`QueryWorkspace`] the caller owns ([`query_with`], [`query_point_cloud_with`]; a contact block
//! keeps one in its scratch space), and the per-point form writes into a slice given by the
//! caller. [`query`] and [`query_point_cloud`] make a workspace for the one call (one 10 kB
//! allocation): for one-off queries, not for loops.

mod contact_geometry;
mod convex;
mod direct;
mod epa;
mod gjk;
pub mod manifold;
mod support;
mod surface;

pub use super::kind::{pair_supported, supported_partners};
pub use contact_geometry::ContactGeometry;

use nalgebra::{Isometry3, Matrix3, Vector3};

use super::shape::{PointCloud, Shape};
use super::GeometryError;
use epa::EpaStore;
use support::{Convex, Posed};

/// The memory a query works in: EPA's polytope store (~10 kB, on the heap), made once by its
/// owner and reused by every query given it. Each thread (each run) needs its own: a query
/// writes into it. Cloning makes a new, independent store.
#[derive(Clone, Debug)]
pub struct QueryWorkspace {
    epa: Box<EpaStore>,
}

impl QueryWorkspace {
    /// A workspace (one allocation).
    pub fn new() -> Self {
        QueryWorkspace {
            epa: EpaStore::boxed(),
        }
    }
}

impl Default for QueryWorkspace {
    fn default() -> Self {
        Self::new()
    }
}

/// Contact geometry between `base` at `pose_base` and `follower` at `pose_follower`.
///
/// The normal points from the base into the follower; exchanging the arguments reverses the normal
/// and leaves the separation and point unchanged.
///
/// With a point cloud on either side the result is that of the cloud point with the smallest
/// separation (the first such point on ties); use [`query_point_cloud`] for every point.
///
/// Errors: [`GeometryError::UnsupportedPair`] for a pair the seed's table does not support.
///
/// Makes a [`QueryWorkspace`] for the call; in a loop, keep one and use [`query_with`].
pub fn query(
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
) -> Result<ContactGeometry, GeometryError> {
    query_with(
        &mut QueryWorkspace::new(),
        base,
        pose_base,
        follower,
        pose_follower,
    )
}

/// [`query`] in the caller's `workspace` (no allocation).
pub fn query_with(
    workspace: &mut QueryWorkspace,
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
) -> Result<ContactGeometry, GeometryError> {
    if let Some(contact) = direct::closest(base, pose_base, follower, pose_follower) {
        // Two spheres, a plane and a sphere: supported pairs, bit for bit the path below.
        return Ok(contact);
    }
    check_pair(base, follower)?;
    let store = &mut *workspace.epa;
    if let Shape::PointCloud(cloud) = follower {
        return Ok(deepest(store, base, pose_base, cloud, pose_follower, true));
    }
    if let Shape::PointCloud(cloud) = base {
        return Ok(deepest(
            store,
            follower,
            pose_follower,
            cloud,
            pose_base,
            false,
        ));
    }
    Ok(match (Convex::of(base), Convex::of(follower)) {
        (Some(a), Some(b)) => convex::convex_convex(
            store,
            &Posed::new(a, pose_base),
            &Posed::new(b, pose_follower),
        ),
        (None, Some(b)) => single_against(base, pose_base, &Posed::new(b, pose_follower)),
        (Some(a), None) => {
            single_against(follower, pose_follower, &Posed::new(a, pose_base)).swapped()
        }
        (None, None) => unreachable_pair(base, follower),
    })
}

/// Contact geometry of every point of a point cloud (on either side) with the other geometry,
/// written to `out[i]` for cloud point i (the cloud's order). `out.len()` must equal the number of
/// points. Each entry follows [`ContactGeometry`]'s conventions with the cloud point as the base or
/// follower, as passed. No allocation.
///
/// Errors: [`GeometryError::UnsupportedPair`], [`GeometryError::NotAPointCloudPair`] if neither
/// side is a point cloud, [`GeometryError::OutputLength`] if `out` has the wrong length.
///
/// Makes a [`QueryWorkspace`] for the call; in a loop, keep one and use
/// [`query_point_cloud_with`].
pub fn query_point_cloud(
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
    out: &mut [ContactGeometry],
) -> Result<(), GeometryError> {
    query_point_cloud_with(
        &mut QueryWorkspace::new(),
        base,
        pose_base,
        follower,
        pose_follower,
        out,
    )
}

/// [`query_point_cloud`] in the caller's `workspace` (no allocation).
pub fn query_point_cloud_with(
    workspace: &mut QueryWorkspace,
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
    out: &mut [ContactGeometry],
) -> Result<(), GeometryError> {
    check_pair(base, follower)?;
    let (other, pose_other, cloud, pose_cloud, other_is_base) = match (base, follower) {
        (_, Shape::PointCloud(c)) => (base, pose_base, c, pose_follower, true),
        (Shape::PointCloud(c), _) => (follower, pose_follower, c, pose_base, false),
        _ => {
            return Err(GeometryError::NotAPointCloudPair {
                base: base.kind(),
                follower: follower.kind(),
            })
        }
    };
    if out.len() != cloud.len() {
        return Err(GeometryError::OutputLength {
            expected: cloud.len(),
            got: out.len(),
        });
    }
    for_each_cloud_point(
        &mut workspace.epa,
        other,
        pose_other,
        cloud,
        pose_cloud,
        other_is_base,
        |i, c| out[i] = c,
    );
    Ok(())
}

fn check_pair(base: &Shape, follower: &Shape) -> Result<(), GeometryError> {
    if pair_supported(base.kind(), follower.kind()) {
        Ok(())
    } else {
        Err(GeometryError::UnsupportedPair {
            base: base.kind(),
            follower: follower.kind(),
        })
    }
}

/// A supported pair always has a convex side or a point cloud side; this is never reached after
/// `check_pair`, and answers "far apart" rather than panicking.
#[cold]
fn unreachable_pair(_: &Shape, _: &Shape) -> ContactGeometry {
    ContactGeometry {
        separation: f64::INFINITY,
        point: nalgebra::Point3::origin(),
        normal: Vector3::z_axis(),
    }
}

/// Unbounded `surface` (plane or grid; base) against bounded convex `c` (follower).
fn single_against(surface: &Shape, pose_surface: &Isometry3<f64>, c: &Posed) -> ContactGeometry {
    match surface {
        Shape::InfinitePlane => surface::plane_convex(pose_surface, c),
        Shape::GridSurface(g) => surface::grid_point_world(g, pose_surface, c.translation),
        _ => unreachable_pair(surface, surface),
    }
}

/// The cloud point with the smallest separation.
fn deepest(
    store: &mut EpaStore,
    other: &Shape,
    pose_other: &Isometry3<f64>,
    cloud: &PointCloud,
    pose_cloud: &Isometry3<f64>,
    other_is_base: bool,
) -> ContactGeometry {
    let mut best: Option<ContactGeometry> = None;
    for_each_cloud_point(
        store,
        other,
        pose_other,
        cloud,
        pose_cloud,
        other_is_base,
        |_, c| {
            if best.is_none_or(|b| c.separation < b.separation) {
                best = Some(c);
            }
        },
    );
    best.unwrap_or_else(|| unreachable_pair(other, other))
}

/// Calls `sink(i, contact_i)` for every cloud point i, in order.
#[inline]
fn for_each_cloud_point(
    store: &mut EpaStore,
    other: &Shape,
    pose_other: &Isometry3<f64>,
    cloud: &PointCloud,
    pose_cloud: &Isometry3<f64>,
    other_is_base: bool,
    mut sink: impl FnMut(usize, ContactGeometry),
) {
    let rotation: Matrix3<f64> = pose_cloud.rotation.to_rotation_matrix().into_inner();
    let translation = pose_cloud.translation.vector;
    let orient = |c: ContactGeometry| if other_is_base { c } else { c.swapped() };
    let world = |i: usize| rotation * cloud.points()[i].coords + translation;
    match other {
        Shape::InfinitePlane => {
            let n = pose_other.rotation * Vector3::z();
            let o = pose_other.translation.vector;
            for i in 0..cloud.len() {
                sink(i, orient(surface::plane_point_world(&n, &o, world(i))));
            }
        }
        Shape::GridSurface(g) => {
            for i in 0..cloud.len() {
                sink(
                    i,
                    orient(surface::grid_point_world(g, pose_other, world(i))),
                );
            }
        }
        _ => {
            let Some(convex) = Convex::of(other) else {
                return;
            };
            let posed = Posed::new(convex, pose_other);
            for i in 0..cloud.len() {
                let point = Posed {
                    shape: Convex::Point,
                    rotation,
                    translation: world(i),
                };
                sink(i, orient(convex::convex_convex(store, &posed, &point)));
            }
        }
    }
}
