//! Importers: a block table of a model whose `type` names a file format (`type = "Urdf"`) is
//! not a block type but an instance of a file in that format, replaced when the model is read by
//! the blocks and connections the file describes (like a Subsystem's, [`super::subsystem`]).
//!
//! An [`Importer`] is the interface the model reader calls: its `type` name, its documentation
//! (printed by `blockdyn blocks` in its own section, [`SECTION`]) and [`ExpandFn`], which makes
//! the blocks. The reader is given the importers to know ([`super::subsystem::expand_document`]);
//! the standard list is `crate::library::IMPORTERS` (URDF today). The registry of block types
//! holds only blocks that build.

use super::connection::Connection;
use super::overrides::Override;
use super::value::{Entry, Table};
use super::{Diagnostic, SourceFile, Span};
use crate::block::{type_markdown, ParamDoc, PortDoc};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The documentation section importers are listed in (after every block type's).
pub const SECTION: &str = "Import";

/// Expands one importer block: `(source, name, table, value_span, key_span, model_dir)` are the
/// model's source (the file read may be included in it, so that its messages are located), the
/// block's full name (`leg[1]/robot`), its table (expressions evaluated, `file` relative to
/// `model_dir`), where the table and the name are written, and the model file's directory.
pub type ExpandFn =
    fn(&mut SourceFile, &str, &Table, &Span, &Span, &Path) -> Result<Imported, Diagnostic>;

/// A file format a model may name as a block's `type`, expanded when the model is read.
#[derive(Clone, Copy)]
pub struct Importer {
    /// The `type = "..."` name.
    pub name: &'static str,
    /// One paragraph: what the block stands for and the blocks it makes.
    pub summary: &'static str,
    /// Its parameters, in documentation order.
    pub params: &'static [ParamDoc],
    /// The ports of what it makes, in documentation order.
    pub ports: &'static [PortDoc],
    /// Makes the blocks.
    pub expand: ExpandFn,
}

impl std::fmt::Debug for Importer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Importer({})", self.name)
    }
}

impl Importer {
    /// The importer's documentation as Markdown, in the form of a block type's (what
    /// `blockdyn blocks NAME` prints).
    pub fn markdown(&self) -> String {
        type_markdown(self.name, SECTION, self.summary, self.params, self.ports)
    }
}

/// One importer block expanded: blocks (full names, values located in the imported file) and
/// the connections between them.
pub struct Imported {
    /// The blocks, parent before child, the one named as the importer block first.
    pub blocks: Vec<Entry>,
    /// The connections between the blocks, located at the block's `file`.
    pub connections: Vec<Connection>,
    /// `block 'robot': robot.urdf:12:5: …`: what was not simulated, and why.
    pub warnings: Vec<String>,
    /// The files read (the imported file, then the files it names).
    pub files: Vec<PathBuf>,
    /// The blocks not made (an unreadable mesh).
    pub skipped: Vec<SkippedPart>,
}

/// A part whose block (`robot/link/collision_1`) was not made.
#[derive(Clone, Debug, PartialEq)]
pub struct SkippedPart {
    /// The block it would have been.
    pub block: String,
    /// Where in the imported file: `robot.urdf:17:5`.
    pub at: String,
    /// Why: `link 'fore': <collision> <mesh filename="…"> skipped (…): cannot read …`.
    pub why: String,
}

/// A connection to a block an importer did not make (its mesh is missing or unreadable) is
/// refused at the connection's line, saying why the block is not there and where in the file:
/// the build would only find "no block 'robot/link/collision_1' — did you mean collision_0".
pub(crate) fn refuse_connections_to_skipped(
    source: &SourceFile,
    connections: &[Connection],
    skipped: &[SkippedPart],
) -> Result<(), Diagnostic> {
    for c in connections {
        for block in [&c.from.block, &c.to.block] {
            if let Some(part) = skipped.iter().find(|p| p.block == *block) {
                return Err(Diagnostic::at(
                    source,
                    &c.span,
                    format!(
                        "there is no block '{block}': the Urdf block did not make it, because at {}: {}",
                        part.at, part.why
                    ),
                )
                .hint("put the mesh file where the URDF says (relative to the URDF file), fix its filename in the URDF, or remove this connection"));
            }
        }
    }
    Ok(())
}

/// What a reference to the skipped part `part` is told: the block is missing because its file
/// could not be read, where in the imported file, and why.
pub(crate) fn skipped_reason(block: &str, part: &SkippedPart) -> String {
    format!(
        "there is no block '{block}': the Urdf block did not make it, because at {}: {}",
        part.at, part.why
    )
}

/// The other references to a skipped collision block than connections are refused the same way,
/// each where it is written: an override (`--set robot/link/collision_1.mass=2`, among
/// `overrides`, those no expanded block took) and an `[output] log` entry
/// (`log = ["robot/link/collision_1.G"]`, in `root`). Without this the build said "no block …,
/// did you mean collision_0" and the user looked for a typo.
pub(crate) fn refuse_references_to_skipped(
    source: &SourceFile,
    root: &Table,
    overrides: &[&Override],
    skipped: &[SkippedPart],
) -> Result<(), Diagnostic> {
    if skipped.is_empty() {
        return Ok(());
    }
    let find = |block: &str| skipped.iter().find(|p| p.block == block);
    let fix = "put the mesh file where the URDF says (relative to the URDF file), or fix its filename in the URDF";
    for o in overrides {
        let block = o.path().split('.').next().unwrap_or_default();
        if let Some(part) = find(block) {
            return Err(
                Diagnostic::new(format!("--set '{o}': {}", skipped_reason(block, part)))
                    .hint(format!("{fix}, or remove this override")),
            );
        }
    }
    let log = root
        .get("output")
        .and_then(|e| e.value.as_table())
        .and_then(|t| t.get("log"))
        .and_then(|e| e.value.as_array())
        .unwrap_or_default();
    for v in log {
        let Some(name) = v.as_str() else { continue };
        let block = name.rsplit_once('.').map_or(name, |(b, _)| b);
        if let Some(part) = find(block) {
            return Err(Diagnostic::at(
                source,
                &v.span,
                format!(
                    "[output] log names '{name}', but {}",
                    skipped_reason(block, part)
                ),
            )
            .hint(format!("{fix}, or remove '{name}' from the log")));
        }
    }
    Ok(())
}

/// Two blocks of the same name where an importer made one are refused, at the block written in
/// a file when there is one. `made` holds, for each name an importer made, the key spans of the
/// blocks it made under that name (a block is made when its key span is among them).
///
/// The maps hash with std's keyed SipHash: their keys are block names read from the model's files
/// and the URDF files it names, which may come from a third party (a robot description
/// downloaded with its meshes), so names crafted to collide under an unkeyed hash could make
/// the read quadratic. (FxHash saved ~80 M instructions, ~1.4 % of a 20,000-joint chain's
/// `check`; not worth that exposure.)
pub(crate) fn refuse_duplicates(
    source: &SourceFile,
    blocks: &[Entry],
    made: &HashMap<String, Vec<Span>>,
) -> Result<(), Diagnostic> {
    if made.is_empty() {
        return Ok(());
    }
    let is_made = |e: &Entry| made.get(&e.key).is_some_and(|s| s.contains(&e.key_span));
    let mut first: HashMap<&str, &Entry> = HashMap::with_capacity(blocks.len());
    for e in blocks {
        let Some(other) = first.insert(&e.key, e) else {
            continue;
        };
        let (this_made, other_made) = (is_made(e), is_made(other));
        if !this_made && !other_made {
            continue;
        }
        let (at, by) = match (this_made, other_made) {
            (true, true) => (&other.key_span, "two Urdf blocks make"),
            (true, false) => (&other.key_span, "a Urdf block makes"),
            _ => (&e.key_span, "a Urdf block makes"),
        };
        return Err(Diagnostic::at(
            source,
            at,
            format!("two blocks are named '{}': {by} it (a Urdf block NAME names its blocks NAME/LINK, NAME/JOINT, …)", e.key),
        )
        .block(&e.key)
        .hint("rename the block, or the Urdf block"));
    }
    Ok(())
}
