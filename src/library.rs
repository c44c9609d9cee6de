//! The whole block library: the signal blocks, the multibody blocks and the contact blocks.

use crate::block::BlockType;

/// Every block type, in documentation order.
pub fn all() -> impl Iterator<Item = &'static BlockType> {
    crate::blocks::LIBRARY
        .iter()
        .chain(crate::multibody::blocks::LIBRARY.iter())
        .chain(crate::contact::blocks::LIBRARY.iter())
        .copied()
}

/// The block type called `name`.
pub fn find(name: &str) -> Option<&'static BlockType> {
    all().find(|t| t.name == name)
}
