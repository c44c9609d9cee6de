//! A Urdf block as an instance, expanded by the subsystem machinery
//! ([`crate::model::subsystem`]) like a Subsystem: its blocks are named `INSTANCE/LINK`,
//! `INSTANCE/JOINT`, … (and the root attachment `INSTANCE` itself, so that `INSTANCE.B` and
//! `INSTANCE.F` are its frame ports), the URDF file's text is included in the model's
//! [`SourceFile`] so that a message about a block it made points at the URDF element's line and
//! names the instance (`in Urdf 'robot' (model.toml:12:1)`), `graph` draws the instance as one
//! node, and a Urdf block may be an array (`count = N`) or written inside a subsystem file.

use super::expand::{self, SkippedPart};
use super::{read_file, read_options};
use crate::model::connection::{parse_connection, Connection};
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, SourceFile, Span, TableReader};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One Urdf instance expanded: blocks (full names, values located in the URDF file) and the
/// physical connections between them.
pub(crate) struct Instance {
    /// The blocks, parent before child, the root attachment (named as the instance) first.
    pub(crate) blocks: Vec<Entry>,
    /// `a.F -- b.B` between the blocks, located at the Urdf block's `file`.
    pub(crate) connections: Vec<Connection>,
    /// `block 'robot': robot.urdf:12:5: …`: what was not simulated, and why.
    pub(crate) warnings: Vec<String>,
    /// The URDF file and the mesh files read.
    pub(crate) files: Vec<PathBuf>,
    /// The collision blocks not made (an unreadable mesh).
    pub(crate) skipped: Vec<SkippedPart>,
}

/// What reading the Urdf block's own table gives: the URDF path, where `file` is written, and
/// the robot expanded (with the URDF text, to include).
struct Read {
    path: PathBuf,
    file_span: Span,
    expansion: expand::Expansion,
    urdf: SourceFile,
}

/// Expands the Urdf block `table` (its expressions evaluated, its `file` relative to
/// `model_dir`) named `full`, whose table is written at `value_span` and name at `key_span`.
pub(crate) fn expand_instance(
    source: &mut SourceFile,
    full: &str,
    table: &Table,
    value_span: &Span,
    key_span: &Span,
    model_dir: &Path,
) -> Result<Instance, Diagnostic> {
    let mut read = read_block(source, full, table, value_span, key_span, model_dir)?;
    let base = source.include_as(Arc::new(read.urdf), full, key_span.clone(), "Urdf");
    let urdf_span = |at: usize| Some(base + at..base + at);
    let mut blocks = std::mem::take(&mut read.expansion.blocks);
    for b in &mut blocks {
        if let Some(at) = b.at {
            let span = urdf_span(at);
            for (_, v) in &mut b.params {
                respan(v, &span);
            }
        }
    }
    set_joints(source, full, table, &read.expansion, &mut blocks)?;
    let entries = blocks
        .iter()
        .map(|b| {
            let (key_span, span) = match b.at {
                Some(at) => (urdf_span(at), urdf_span(at)),
                None => (key_span.clone(), read.file_span.clone()),
            };
            Entry {
                key: b.name.clone(),
                key_span,
                value: Value {
                    kind: ValueKind::Table(b.table(&span)),
                    span,
                },
            }
        })
        .collect();
    let connections = read
        .expansion
        .connections
        .iter()
        .map(|c| {
            parse_connection(c, read.file_span.clone()).map_err(|e| {
                Diagnostic::at(source, &read.file_span, e.message)
                    .block(full)
                    .hint(e.hint)
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let warnings = read
        .expansion
        .warnings
        .into_iter()
        .map(|w| format!("block '{full}': {w}"))
        .collect();
    let mut files = vec![read.path];
    files.extend(read.expansion.files);
    Ok(Instance {
        blocks: entries,
        connections,
        warnings,
        files,
        skipped: read.expansion.skipped,
    })
}

/// Reads the Urdf block's parameters and expands its URDF file; an error inside the URDF file
/// names the instance and where its block is written.
fn read_block(
    source: &SourceFile,
    full: &str,
    table: &Table,
    value_span: &Span,
    key_span: &Span,
    model_dir: &Path,
) -> Result<Read, Diagnostic> {
    let p = TableReader::new(source, Some(full), table, value_span.clone());
    p.value("type");
    let file = p.string("file")?.ok_or_else(|| {
        p.table_error("a Urdf block needs the URDF file")
            .hint("add file = \"robot.urdf\" (relative to the model file)")
    })?;
    let file_span = p.value("file").and_then(|v| v.span.clone());
    let options = read_options(&p, full)?;
    p.table("joints")?;
    p.finish()?;
    let path = model_dir.join(file);
    let expanded = read_file(&path).and_then(|(robot, tree)| {
        let dir = path.parent().unwrap_or(Path::new(""));
        let expansion = expand::expand(&robot, &tree, &options, &file_span, dir)?;
        Ok((expansion, robot.source))
    });
    let (expansion, urdf) = expanded.map_err(|d| {
        if d.file.is_none() {
            // Cannot read the file: say so at `file = ...`.
            let mut located = p.error("file", d.message.clone());
            located.hint = d.hint.clone();
            return located.block(full);
        }
        // A place in the URDF file: name the instance that reads it.
        let l = source.locate(key_span.as_ref().map_or(0, |r| r.start));
        let place = l
            .line_column
            .map_or(String::new(), |(a, b)| format!(" ({}:{a}:{b})", l.path));
        d.block(full)
            .include_in(std::iter::once(format!("in Urdf '{full}'{place}")).chain(l.included_from))
    })?;
    Ok(Read {
        path,
        file_span,
        expansion,
        urdf,
    })
}

/// Sets every span of `value` (a parameter the expansion made) to `span`.
fn respan(value: &mut Value, span: &Span) {
    value.span = span.clone();
    match &mut value.kind {
        ValueKind::Array(items) => items.iter_mut().for_each(|v| respan(v, span)),
        ValueKind::Table(t) => {
            for e in &mut t.entries {
                e.key_span = span.clone();
                respan(&mut e.value, span);
            }
        }
        _ => {}
    }
}

/// The Urdf block's `joints = { knee = { q0 = -0.6 } }`: each URDF joint's parameters set on
/// its joint block as written (located in the model file).
fn set_joints(
    source: &SourceFile,
    full: &str,
    table: &Table,
    expansion: &expand::Expansion,
    blocks: &mut [expand::ExpandedBlock],
) -> Result<(), Diagnostic> {
    let joint_table = table.get("joints").and_then(|e| e.value.as_table());
    for e in joint_table
        .map(|t| t.entries.as_slice())
        .unwrap_or_default()
    {
        let Some(&k) = expansion.joints.get(&e.key) else {
            let d = Diagnostic::at(
                source,
                &e.key_span,
                format!(
                    "'joints.{}': the URDF file has no movable joint '{}'",
                    e.key, e.key
                ),
            )
            .block(full);
            return Err(if expansion.fixed_joints.contains(&e.key) {
                d.hint("a fixed joint is a rigid transform: it has no parameters to set")
            } else {
                let mut names: Vec<&str> = expansion.joints.keys().map(String::as_str).collect();
                names.sort_unstable();
                match crate::model::diagnostic::closest(&e.key, names.iter().copied()) {
                    Some(near) => d.hint(format!("did you mean '{near}'?")),
                    None => d.hint(format!("the movable joints are: {}", names.join(", "))),
                }
            });
        };
        let Some(settings) = e.value.as_table() else {
            return Err(Diagnostic::at(
                source,
                &e.value.span,
                format!(
                    "'joints.{}' must be a table of the joint's parameters",
                    e.key
                ),
            )
            .block(full)
            .hint(format!("write {} = {{ q0 = 0.3 }}", e.key)));
        };
        for s in &settings.entries {
            blocks[k].set(&s.key, s.value.clone());
        }
    }
    Ok(())
}

/// A connection to a collision block its Urdf block did not make (its mesh is missing or
/// unreadable) is refused at the connection's line, saying why the block is not there and where
/// in the URDF: the build would only find "no block 'robot/link/collision_1' — did you mean
/// collision_0".
pub(crate) fn refuse_connections_to_skipped(
    source: &SourceFile,
    connections: &[Connection],
    skipped: &[SkippedPart],
) -> Result<(), Diagnostic> {
    for c in connections {
        for block in [&c.from.block, &c.to.block] {
            if let Some(part) = skipped.iter().find(|p| p.block == *block) {
                return Err(Diagnostic::at(source, &c.span, skipped_reason(block, part))
                .hint("put the mesh file where the URDF says (relative to the URDF file), fix its filename in the URDF, or remove this connection"));
            }
        }
    }
    Ok(())
}

/// What a reference to the skipped collision `part` is told: the block is missing because its
/// mesh could not be read, where in the URDF, and why.
fn skipped_reason(block: &str, part: &SkippedPart) -> String {
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
    overrides: &[&String],
    skipped: &[SkippedPart],
) -> Result<(), Diagnostic> {
    if skipped.is_empty() {
        return Ok(());
    }
    let find = |block: &str| skipped.iter().find(|p| p.block == block);
    let fix = "put the mesh file where the URDF says (relative to the URDF file), or fix its filename in the URDF";
    for o in overrides {
        let path = o.split_once('=').map_or(o.as_str(), |(p, _)| p).trim();
        let block = path.split('.').next().unwrap_or_default();
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

/// Why the collision block `block` (`robot/link/collision_1`) is not there, read from the
/// Urdf instances' warnings (`block 'robot': robot.urdf:17:5: link 'link': <collision> … skipped
/// (…): …`), for a reference made after the build (a parameter set, `--vary`), when the
/// expansion's list of skipped parts is gone: "the Urdf block did not make it, because at
/// robot.urdf:17:5: …". `None` when no warning of the instance skipped a collision of that link.
/// When the link skipped several collisions, each is said.
pub(crate) fn skipped_from_warnings(block: &str, warnings: &[String]) -> Option<String> {
    let (link_path, part) = block.rsplit_once('/')?;
    // A link's only collision is `collision`, several are `collision_0`, `collision_1`, ….
    if part != "collision" && !part.starts_with("collision_") {
        return None;
    }
    let (instance, link) = link_path.rsplit_once('/')?;
    let prefix = format!("block '{instance}': ");
    let of_link = format!(": link '{link}': <collision>");
    let found: Vec<&str> = warnings
        .iter()
        .filter_map(|w| w.strip_prefix(&prefix))
        .filter(|w| w.contains(&of_link) && w.contains("> skipped ("))
        .collect();
    (!found.is_empty()).then(|| {
        format!(
            "there is no block '{block}': the Urdf block did not make it, because at {}",
            found.join("; at ")
        )
    })
}

/// Two blocks of the same name where a Urdf instance made one are refused, at the block written
/// in a file when there is one. `made` holds, for each name a Urdf instance made, the key spans
/// of the blocks it made under that name (a block is made when its key span is among them).
pub(crate) fn refuse_duplicates(
    source: &SourceFile,
    blocks: &[Entry],
    made: &HashMap<String, Vec<Span>>,
) -> Result<(), Diagnostic> {
    if made.is_empty() {
        return Ok(());
    }
    let is_made = |e: &Entry| made.get(&e.key).is_some_and(|s| s.contains(&e.key_span));
    let mut first: HashMap<&str, &Entry> = HashMap::new();
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

#[cfg(test)]
mod tests {
    use super::skipped_from_warnings;

    /// A link's only collision is named `collision` (no index), and it is found as the indexed
    /// ones are; another link's warning, or a block that is not a collision, is not.
    #[test]
    fn a_link_s_only_collision_is_found_in_the_warnings() {
        let warnings = vec![
            "block 'arm': arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"fore.stl\"> skipped (no contact geometry): the mesh file is missing".to_string(),
        ];
        let said = skipped_from_warnings("arm/fore/collision", &warnings).unwrap();
        assert_eq!(
            said,
            "there is no block 'arm/fore/collision': the Urdf block did not make it, because at arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"fore.stl\"> skipped (no contact geometry): the mesh file is missing"
        );
        assert!(skipped_from_warnings("arm/fore/collision_1", &warnings).is_some());
        assert!(skipped_from_warnings("arm/upper/collision", &warnings).is_none());
        assert!(skipped_from_warnings("arm/fore/visual", &warnings).is_none());
    }
}
