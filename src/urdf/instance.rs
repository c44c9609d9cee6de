//! A Urdf block as an instance, expanded by the subsystem machinery
//! ([`crate::model::subsystem`]) like a Subsystem: its blocks are named `INSTANCE/LINK`,
//! `INSTANCE/JOINT`, … (and the root attachment `INSTANCE` itself, so that `INSTANCE.B` and
//! `INSTANCE.F` are its frame ports), the URDF file's text is included in the model's
//! [`SourceFile`] so that a message about a block it made points at the URDF element's line and
//! names the instance (`in Urdf 'robot' (model.toml:12:1)`), `graph` draws the instance as one
//! node, and a Urdf block may be an array (`count = N`) or written inside a subsystem file.

use super::expand;
use super::{read_file, read_options, TYPE_NAME};
use super::{ACTUATION, ANGULAR_VELOCITY, BASE, ORIENTATION, POSITION, VELOCITY};
use crate::block::{ParamDoc, PortDoc};
use crate::model::connection::{parse_connection, Connection};
use crate::model::importer::{Imported, Importer};
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, Document, SourceFile, Span, TableReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The URDF importer: a `type = "Urdf"` block's documentation (what `blockdyn blocks Urdf`
/// prints) and its expansion when the model is read (`expand_instance`, below). It is an
/// importer, not a block type: nothing builds a Urdf block.
pub static IMPORTER: Importer = Importer {
    name: TYPE_NAME,
    summary: "A robot described in a URDF file, expanded when the model is read into the blocks it is made of, named after this block: `NAME/LINK` (a RigidTransform whose F is the link's frame), `NAME/LINK/inertial` (a Solid: the link's mass and inertia), `NAME/LINK/collision` (a CollisionGeometry with port G; `collision_0`, `collision_1`, … when the link has several), `NAME/JOINT` (a RevoluteJoint, PrismaticJoint, SixDofJoint or PlanarJoint with ports q, w, t, limit_force; a RigidTransform for a fixed joint), and `NAME` itself, which attaches the root link to frame B. `blockdyn import FILE.urdf` prints the same blocks as TOML; docs/urdf.md has the mapping.",
    params: &[
        ParamDoc { name: "file", unit: "", default: "required", doc: "the URDF file, relative to the model file" },
        BASE.doc,
        POSITION.doc,
        ORIENTATION.doc,
        VELOCITY.doc,
        ANGULAR_VELOCITY.doc,
        ACTUATION.doc,
        ParamDoc { name: "joints", unit: "", default: "none", doc: "parameters of the joint blocks by URDF joint name, e.g. { knee = { q0 = -0.6, damping = 0.1 } } (replace what the file says)" },
    ],
    ports: &[
        PortDoc { name: "B", kind: "frame", shape: "", unit: "", doc: "where the root link is attached (connect e.g. world.W)" },
        PortDoc { name: "F", kind: "frame", shape: "", unit: "", doc: "the root link's frame" },
        PortDoc { name: "p, Q, v, w", kind: "output", shape: "", unit: "", doc: "floating base: the SixDofJoint's outputs (position, quaternion, velocity of the root link in B)" },
    ],
    expand: expand_instance,
};

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
) -> Result<Imported, Diagnostic> {
    let mut read = read_block(source, full, table, value_span, key_span, model_dir)?;
    let base = source
        .include_as(Arc::new(read.urdf), full, key_span.clone(), TYPE_NAME)
        .map_err(|e| Diagnostic::of_inclusion(source, key_span, full, e))?;
    let urdf_span = |at: usize| Span::new(base + at..base + at);
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
    // The expansion's blocks moved into the model's tables (the vector's exact size: one entry
    // a block).
    let entries = blocks
        .into_iter()
        .map(|mut b| {
            let (key_span, span) = match b.at {
                Some(at) => (urdf_span(at), urdf_span(at)),
                None => (key_span.clone(), read.file_span.clone()),
            };
            Entry {
                key: std::mem::take(&mut b.name),
                key_span,
                value: Value {
                    kind: ValueKind::Table(b.into_table(&span)),
                    span,
                },
            }
        })
        .collect();
    let connections =
        checked_connections(source, full, &read.file_span, read.expansion.connections)?;
    let warnings = read
        .expansion
        .warnings
        .into_iter()
        .map(|w| format!("block '{full}': {w}"))
        .collect();
    let mut files = vec![read.path];
    files.extend(read.expansion.files);
    Ok(Imported {
        blocks: entries,
        connections,
        warnings,
        files,
        skipped: read.expansion.skipped,
    })
}

/// The expansion's connections, made without the model's parser (`Values::joined`), as the
/// parser reads them: the links' and joints' names are cleaned and the parts' names fixed, so
/// each reads back as written exactly when the Urdf block's name `full` does. That is checked on
/// the first connection (the root attachment's, `FULL.F -- ROOT.B`), which the parser reads
/// as written or refuses, at `file`, as a connection the expansion wrote as text was refused; a
/// name it reads otherwise (spaces around it) has every connection read through the parser.
fn checked_connections(
    source: &SourceFile,
    full: &str,
    file_span: &Span,
    connections: Vec<Connection>,
) -> Result<Vec<Connection>, Diagnostic> {
    let parse = |c: &Connection| {
        parse_connection(&c.to_string(), file_span.clone()).map_err(|e| {
            Diagnostic::at(source, file_span, e.message)
                .block(full)
                .hint(e.hint)
        })
    };
    match connections.first() {
        Some(first) if parse(first)? != *first => connections.iter().map(parse).collect(),
        _ => Ok(connections),
    }
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
    let file_span = p.value("file").map_or(Span::NONE, |v| v.span.clone());
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
        let l = source.locate(key_span.start().unwrap_or(0));
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

/// Replaces every `type = "Urdf"` block of `document` by its expansion (as the model's
/// subsystems and arrays are: [`crate::model::subsystem::expand_document`], which this calls
/// with no overrides and this importer). Returns the expansions' warnings.
pub fn expand_document(document: &mut Document) -> Result<Vec<String>, Diagnostic> {
    let expansion =
        crate::model::subsystem::expand_document(document, &mut Vec::new(), &[&IMPORTER])?;
    Ok(expansion.warnings)
}

#[cfg(test)]
mod tests {
    use super::checked_connections;
    use crate::model::connection::{Connection, ConnectionKind, PortRef};
    use crate::model::{SourceFile, Span};

    fn joined(a: &str, b: &str) -> Connection {
        let end = |block: &str, port: &str| PortRef {
            block: block.into(),
            port: port.into(),
            index: None,
        };
        Connection {
            kind: ConnectionKind::Physical,
            from: end(a, "F"),
            to: end(b, "B"),
            span: Span::new(0..4),
        }
    }

    #[test]
    fn a_name_the_parser_reads_otherwise_is_read_by_the_parser() {
        let source = SourceFile::new("m.toml", "file = \"r.urdf\"");
        let at = Span::new(0..4);
        // As written: kept as made.
        let made = vec![joined("arm", "arm/l0"), joined("arm/l0", "arm/j")];
        let kept = checked_connections(&source, "arm", &at, made.clone()).unwrap();
        assert_eq!(kept, made);
        // Spaces around a quoted name: the parser trims them, as it did when the expansion
        // wrote its connections as text.
        let spaced = vec![joined(" arm", " arm/l0"), joined(" arm/l0", " arm/j")];
        let read = checked_connections(&source, " arm", &at, spaced).unwrap();
        assert_eq!(read[0].from.block, "arm");
        assert_eq!(read[1].to.block, "arm/j");
        // A name the parser refuses: refused at `file`, naming the instance.
        let dotted = vec![joined("a.b", "a.b/l0")];
        let refused = checked_connections(&source, "a.b", &at, dotted).unwrap_err();
        assert!(
            refused.to_string().contains("a.b.F -- a.b/l0.B"),
            "{refused}"
        );
    }
}
