//! The contact blocks: SpatialContactForce, GroundContact, RigidContact and ContactGroup.

pub mod advice_text;
pub mod contact_advice;
pub mod friction_advice;
pub mod ground_contact;
pub mod group;
pub mod laws_params;
mod pair_modes;
pub mod rates;
mod rest_state;
pub mod rigid_contact;
pub(crate) mod rigid_params;
pub mod spatial_contact;

use crate::block::BlockType;

/// The contact block types, in documentation order.
pub static LIBRARY: &[&BlockType] = &[
    &spatial_contact::SPATIAL_CONTACT_FORCE,
    &ground_contact::GROUND_CONTACT,
    &rigid_contact::RIGID_CONTACT,
    &group::CONTACT_GROUP,
];
