//! The registry of block types a model may use: the standard library (signal, multibody and
//! contact blocks) and any block types a program adds of its own.
//!
//! A [`Registry`] is a value. The loader is given one ([`crate::load_model_with`]); the plain
//! loaders use [`Registry::standard`]. Every type is declared once, as a [`BlockType`]: its name,
//! documentation (what `blockdyn blocks` and docs/blocks.md print) and constructor. Every type
//! in a registry builds; the file formats a model may name as a block's type (`type = "Urdf"`)
//! are importers ([`IMPORTERS`]), expanded when the model is read and documented in their own
//! section.

use crate::block::{BlockType, LowerFn};
use crate::model::importer::Importer;
use std::sync::OnceLock;

/// The importers every loader knows, in documentation order: URDF.
pub static IMPORTERS: &[&Importer] = &[&crate::urdf::IMPORTER];

/// Why a block type could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// A type of that name is already registered.
    #[error("a block type named \"{name}\" is already registered")]
    DuplicateName {
        /// The type name.
        name: String,
    },
    /// The name cannot be written as `type = "..."` in a model.
    #[error("block type name \"{name}\" must be a letter followed by letters, digits or '_'")]
    InvalidName {
        /// The type name.
        name: String,
    },
}

/// The block types a loader accepts, in documentation order, and the hook that lowers the
/// physical network to one block.
#[derive(Clone, Debug)]
pub struct Registry {
    types: Vec<BlockType>,
    lowering: LowerFn,
}

impl std::fmt::Debug for BlockType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockType({})", self.name)
    }
}

impl Registry {
    /// The standard library, built once per process.
    pub fn standard() -> &'static Registry {
        static STANDARD: OnceLock<Registry> = OnceLock::new();
        STANDARD.get_or_init(|| Registry {
            types: crate::blocks::LIBRARY
                .iter()
                .chain(crate::blocks::multibody::LIBRARY.iter())
                .chain(crate::blocks::contact::LIBRARY.iter())
                .map(|t| **t)
                .collect(),
            lowering: crate::blocks::multibody::lower_mechanism,
        })
    }

    /// A registry with no types (e.g. a sandbox of custom blocks only); its physical network
    /// still lowers to the library's mechanism block.
    pub fn empty() -> Registry {
        Registry {
            types: Vec::new(),
            lowering: crate::blocks::multibody::lower_mechanism,
        }
    }

    /// The hook that lowers the physical network to the block integrating the mechanism (see
    /// [`crate::block::lowering`]): the diagram builder calls it, and keeps it in the
    /// [`crate::diagram::physical::PhysicalScene`] for a parameter set that elaborates again.
    pub fn mechanism_lowering(&self) -> LowerFn {
        self.lowering
    }

    /// Adds a block type. Its name must be new and usable as `type = "..."`.
    pub fn register(&mut self, block_type: BlockType) -> Result<(), RegistryError> {
        let name = block_type.name;
        let mut chars = name.chars();
        let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(RegistryError::InvalidName { name: name.into() });
        }
        // An importer's name is taken too: the reader expands it before any block is built.
        if self.find(name).is_some() || self.find_importer(name).is_some() {
            return Err(RegistryError::DuplicateName { name: name.into() });
        }
        self.types.push(block_type);
        Ok(())
    }

    /// The block type called `name`.
    pub fn find(&self, name: &str) -> Option<&BlockType> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The importers a model read with this registry may name (every registry knows
    /// [`IMPORTERS`]), in documentation order.
    pub fn importers(&self) -> impl Iterator<Item = &'static Importer> {
        IMPORTERS.iter().copied()
    }

    /// The importer called `name`.
    pub fn find_importer(&self, name: &str) -> Option<&'static Importer> {
        self.importers().find(|i| i.name == name)
    }

    /// Every block type, in documentation order (the standard library's categories first, then
    /// the types registered after it, in the order they were added).
    pub fn all(&self) -> impl Iterator<Item = &BlockType> {
        self.types.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_new_and_writable() {
        let mut r = Registry::standard().clone();
        let gain = *r.find("Gain").unwrap();
        assert_eq!(
            r.register(gain),
            Err(RegistryError::DuplicateName {
                name: "Gain".into()
            })
        );
        let mut odd = gain;
        odd.name = "my block";
        assert!(matches!(
            r.register(odd),
            Err(RegistryError::InvalidName { .. })
        ));
        let mut mine = gain;
        mine.name = "MyGain2";
        r.register(mine).unwrap();
        assert_eq!(r.all().last().unwrap().name, "MyGain2");
        assert!(Registry::standard().find("MyGain2").is_none());
    }
}
