//! The state of one model's expansion ([`super::subsystem`]): what it made so far, the bound on
//! it, and the overrides still to apply. Below both the subsystem expansion and the importer
//! expansion ([`super::import_expansion`]), which add to it.

use super::assign::set_in_block;
use super::connection::Connection;
use super::diagnostic::Diagnostic;
use super::importer::{Importer, SkippedPart};
use super::overrides::Override;
use super::source::{SourceFile, Span};
use super::splice::Port;
use super::value::{Entry, Table};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The most blocks the subsystems and arrays of one model may make.
pub const MAX_BLOCKS: usize = 200_000;

/// What expanding the model made besides blocks: the top-level instances' names (for the graph)
/// and the subsystem files read.
#[derive(Debug, Default)]
pub struct Expansion {
    /// The instances written in the model file (`leg1`, `leg[0]`, `robot`), in order.
    pub instances: Vec<ExpandedInstance>,
    /// The subsystem files read, and each importer block's files (a URDF and its meshes).
    pub files: Vec<PathBuf>,
    /// The Urdf instances' warnings (`block 'robot': robot.urdf:12:5: <visual> ignored: …`).
    pub warnings: Vec<String>,
    /// The blocks importers did not make (a collision whose mesh file is missing).
    pub skipped: Vec<SkippedPart>,
    /// The model's connections as the expansion wrote them into the document's `connect`,
    /// parsed (`None` when nothing was expanded: `connect` is then as written). For
    /// [`super::Document::take_spec_with`], while nothing has touched `connect` since.
    pub connections: Option<Vec<Connection>>,
}

/// An instance written in a model file, which `blockdyn graph` draws as one node: its full
/// name (`leg[0]`, `robot`; its blocks are `NAME/…`, and an importer's root attachment is `NAME`
/// itself) and the type it instantiates: `"Subsystem"`, or an importer's type name (`"Urdf"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpandedInstance {
    /// The instance's full name.
    pub name: String,
    /// `"Subsystem"` or the importer's `type` name, as written in the model.
    pub type_name: &'static str,
}

/// One file expanded: flat blocks and connections, and (for a subsystem file) its ports.
#[derive(Default)]
pub(super) struct Flat {
    pub(super) blocks: Vec<Entry>,
    pub(super) connections: Vec<Connection>,
    pub(super) ports: Vec<Port>,
    /// The instances written in this file (full names, and what each instantiates).
    pub(super) instances: Vec<ExpandedInstance>,
}

/// One model being expanded: its text (each subsystem file added once per instance), the files
/// read, the files being expanded, the overrides left and the count of what was made.
pub(super) struct Expander<'a, 'o> {
    pub(super) source: &'a mut SourceFile,
    pub(super) model_dir: PathBuf,
    /// Each subsystem file read, by its canonical path: its text and tree (spans its own).
    pub(super) files: HashMap<PathBuf, (Arc<SourceFile>, Table)>,
    /// The files being expanded, outermost first (to find cycles).
    pub(super) stack: Vec<PathBuf>,
    pub(super) overrides: &'a mut Vec<&'o Override>,
    pub(super) made: usize,
    pub(super) expansion: Expansion,
    /// The importers the model may name (`type = "Urdf"`).
    pub(super) importers: &'a [&'a Importer],
    /// The names of the blocks importers made, each with the key spans of those blocks
    /// (keyed SipHash: see [`super::importer::refuse_duplicates`]).
    pub(super) imported_made: HashMap<String, Vec<Span>>,
    /// The blocks importers did not make (an unreadable mesh).
    pub(super) skipped: Vec<SkippedPart>,
    /// The importer blocks' connections (inside each robot), in the order of the blocks.
    pub(super) imported_connections: Vec<Connection>,
}

impl Expander<'_, '_> {
    /// Counts one more block (or instance) made, refusing more than [`MAX_BLOCKS`].
    pub(super) fn count_block(&mut self, at: &Span) -> Result<(), Diagnostic> {
        self.count_items(1, at)
    }

    /// Counts `n` more blocks, instances or connections made, refusing more than [`MAX_BLOCKS`].
    pub(super) fn count_items(&mut self, n: usize, at: &Span) -> Result<(), Diagnostic> {
        self.made += n;
        if self.made > MAX_BLOCKS {
            return Err(Diagnostic::at(
                self.source,
                at,
                format!("the model's subsystems and arrays make more than {MAX_BLOCKS} blocks, instances and connections"),
            )
            .hint("check the counts of nested arrays: they multiply"));
        }
        Ok(())
    }

    /// Applies (and removes) the overrides that address the block `full`.
    pub(super) fn apply_overrides(
        &mut self,
        full: &str,
        table: &mut Table,
    ) -> Result<(), Diagnostic> {
        let mut k = 0;
        while k < self.overrides.len() {
            let o = self.overrides[k];
            let keys = o.keys();
            if keys.len() >= 2 && keys[0] == full {
                set_in_block(table, &keys[1..], o.tree_value(), o)?;
                self.overrides.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}
