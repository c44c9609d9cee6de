//! The block library (placeholder until the signal library lands).
use crate::block::BlockType;

/// Every block type, in documentation order.
pub static LIBRARY: &[&BlockType] = &[];

/// The block type called `name`.
pub fn find(name: &str) -> Option<&'static BlockType> {
    LIBRARY.iter().copied().find(|t| t.name == name)
}
