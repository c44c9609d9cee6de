//! blockdyn: block-diagram simulation of rigid-body mechanisms in contact.
//!
//! A model is a TOML diagram of blocks (see `docs/model-format.md`). The flow of one run:
//! parse ([`model`]) → build the diagram ([`diagram`]) → schedule → simulate ([`sim`], driving a
//! [`solver`]) → record → write CSV and PNG ([`output`], [`plot`]).

pub mod block;
pub mod blocks;
pub mod contact;
pub mod diagram;
pub mod geometry;
pub mod model;
pub mod multibody;
pub mod output;
pub mod plot;
pub mod sim;
pub mod solver;
