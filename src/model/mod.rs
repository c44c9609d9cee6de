//! The TOML model format: documents with source spans, connection strings, `--set` overrides,
//! located diagnostics, and the typed parameter reader every block uses.

pub(crate) mod animation;
pub mod arrays;
mod assign;
pub(crate) mod connection;
pub mod diagnostic;
pub mod document;
mod expander;
#[cfg(test)]
mod handed_connections_tests;
mod import_expansion;
pub mod importer;
pub mod input_file;
mod instance_file;
pub(crate) mod output_path;
mod overrides;
pub(crate) mod param_value;
pub(crate) mod reader;
pub(crate) mod resolve;
pub(crate) mod solver_section;
pub(crate) mod source;
mod splice;
pub mod subsystem;
pub(crate) mod value;
pub mod variables;

/// The run settings the model reads, defined in [`crate::output`] (re-exported so that
/// `model::OutputRows` etc. keep working).
pub use crate::output::{
    AnimationSettings, DrawFrames, OutputRows, DEFAULT_MAX_OUTPUT_BYTES, MAX_REFINE,
    SMOOTH_MAX_REFINE, SMOOTH_ROWS,
};
pub use connection::{Connection, ConnectionKind, PortRef};
pub use diagnostic::Diagnostic;
pub use document::{BlockEntry, Document, ModelSpec, OutputSettings};
pub use overrides::{Override, OverrideError};
pub use reader::TableReader;
pub use solver_section::MAX_MAX_STEPS;
pub use source::{Location, SourceFile, Span, TooMuchText};
pub use value::{Entry, Table, Value, ValueKind};
