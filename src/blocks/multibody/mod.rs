//! The mechanism as diagram blocks: frames, solids, joints, the compiled mechanism, sensors,
//! external forces and spring-dampers.

pub mod frame_signal;
pub mod frames;
pub mod joint_effort;
pub mod joint_friction;
pub mod joint_limits;
mod joint_motion;
pub mod joints;
pub mod kinds;
pub mod lowered;
pub mod mechanism_block;
mod mechanism_drive;
mod port_lists;
pub mod sensors;
pub mod spring_damper;

pub use frame_signal::{write_wrench, FrameMotion};
pub use mechanism_block::MechanismBlock;

use crate::block::{BlockType, MechanismLowering};
use crate::multibody::Mechanism;

/// The physical network's lowering hook ([`crate::block::LowerFn`]): the block that integrates
/// `mechanism`, a [`MechanismBlock`]. The standard registry hands it to the diagram builder.
pub fn lower_mechanism(mechanism: Mechanism) -> Box<dyn MechanismLowering> {
    Box::new(MechanismBlock::new(mechanism))
}

/// The multibody block types, in documentation order.
pub static LIBRARY: &[&BlockType] = &[
    &frames::WORLD_FRAME,
    &frames::MECHANISM_CONFIGURATION,
    &frames::RIGID_TRANSFORM,
    &frames::SOLID,
    &joints::REVOLUTE,
    &joints::PRISMATIC,
    &joints::CYLINDRICAL,
    &joints::UNIVERSAL,
    &joints::SPHERICAL,
    &joints::PLANAR,
    &joints::SIX_DOF,
    &joints::WELD,
    &sensors::TRANSFORM_SENSOR,
    &sensors::EXTERNAL_FORCE_TORQUE,
    &spring_damper::SPRING_DAMPER,
    &frames::INFINITE_PLANE,
    &frames::DISK,
    &frames::GRID_SURFACE,
    &frames::POINT,
    &frames::COLLISION_GEOMETRY,
    &frames::POINT_CLOUD,
];
