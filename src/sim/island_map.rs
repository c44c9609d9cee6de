//! The marks of the islands' block map (`Partition::block_islands`, see [`super::islands`]):
//! per block, the island whose evaluations call it, or one of the two marks below. Below both
//! the islands, which build the map, and the engine, which reads it when an evaluation is
//! restricted to one island.

/// A block every island's evaluations call (the mechanism, the contact groups, blocks they read
/// that belong to no body's class).
pub(crate) const EVERY_ISLAND: u32 = u32::MAX;
/// A block no island's evaluation calls (its outputs reach neither the mechanism nor a group:
/// sensors, scopes' sources, joints' readouts); evaluated at synchronisations and events.
pub(crate) const NO_ISLAND: u32 = u32::MAX - 1;
