//! The bound geometry of one side of a SpatialContactForce's pair: below the block and the
//! helpers (start check, stiffness note) that read it.

use crate::geometry::Shape as Geometry;
use crate::multibody::SpatialInertia;
use nalgebra::Isometry3;

/// The bound geometry of one side.
#[derive(Clone)]
pub(super) struct Side {
    /// The geometry, in its own frame R (m).
    pub(super) shape: Geometry,
    /// The pose of R in the frame of the body it is fixed to (body ← R).
    pub(super) placement: Isometry3<f64>,
    /// The name used in messages (the geometry block's).
    pub(super) label: String,
    /// The mass properties of the body the geometry is fixed to, in the body's frame (zero for
    /// World): for the stall message's modes (`stiffness.rs`), not for the dynamics.
    pub(super) inertia: SpatialInertia,
}
