//! What stands for a RigidTransform in the built diagram once the mechanism holds its pose.
//!
//! A RigidTransform evaluates nothing: its one value, the pose of F in B, is compiled into the
//! mechanism when the physical network is lowered, and nothing reads it from the block again (a
//! parameter set that changes it makes the block again from its table, as the build does). The
//! build then replaces the block by a [`LoweredTransform`] (see
//! [`Block::lowered`]): the same ports, the same
//! kind in the physical network, no state, and no allocation (a unit struct's box is not
//! allocated). A 20,000-joint URDF chain has 80,000 RigidTransforms: 9.6 MB of poses and roles
//! (120 bytes a block) and as many heap blocks that its diagram no longer holds (issue 28,
//! part 3).

use crate::block::{Block, BlockError, Ctx, PhysicalRole, PortDecl, Setup, Shape};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};
use std::sync::LazyLock;

/// A RigidTransform's ports, the base frame `B` and the follower `F`: shared by every
/// RigidTransform block (`frames.rs`) and its stand-in.
pub(super) static TRANSFORM_PORTS: LazyLock<[PortDecl; 2]> =
    LazyLock::new(|| [PortDecl::frame("B"), PortDecl::frame("F")]);

/// A RigidTransform after lowering: its ports `B` and `F`, and a RigidTransform's role without
/// its pose (the pose it answers is NaN).
pub struct LoweredTransform;

/// The role a [`LoweredTransform`] answers: a RigidTransform whose pose is NaN. What is read of
/// a frame block's role after the build is its kind (whether a parameter set's block is in the
/// mechanism, the mechanism's mass from the Solids); a pose read by mistake would show as NaN
/// rather than as a plausible identity.
static LOWERED_ROLE: LazyLock<PhysicalRole> = LazyLock::new(|| PhysicalRole::RigidTransform {
    follower_in_base: Isometry3::from_parts(
        Translation3::new(f64::NAN, f64::NAN, f64::NAN),
        UnitQuaternion::new_unchecked(Quaternion::new(f64::NAN, f64::NAN, f64::NAN, f64::NAN)),
    ),
});

impl LoweredTransform {
    /// The stand-in, boxed as a block (a unit struct: no allocation).
    pub fn boxed() -> Box<dyn Block> {
        Box::new(LoweredTransform)
    }
}

impl Block for LoweredTransform {
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs_eval(&self, _ctx: &mut Ctx) {}
    fn physical_ports(&self) -> &[PortDecl] {
        &*TRANSFORM_PORTS
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for LoweredTransform {
    fn role(&self) -> &PhysicalRole {
        &LOWERED_ROLE
    }
}
