//! URDF import: a `type = "Urdf"` block of a model stands for a robot described in a URDF file,
//! and is replaced, when the model file is read, by the blocks and physical connections the
//! robot is made of (frames, solids, collision geometries, joints), named after the Urdf block
//! (`robot/base_link`, `robot/hip_joint`). `blockdyn import robot.urdf` prints the same blocks
//! as TOML. See docs/urdf.md.
//!
//! One concept per file: [`entities`] (the XML entity expansion budget), [`read`] (the XML,
//! checked element by element with positions), [`tree`] (the kinematic tree), [`mesh`] (STL
//! meshes as convex hulls), [`expand`] (the robot as model blocks). This module reads the Urdf
//! block itself and splices the expansion into a document.

pub mod entities;
pub mod expand;
pub mod mesh;
pub mod read;
pub mod tree;

use crate::block::{Block, BlockType, Param, ParamDoc, PortDoc};
use crate::builder::{BlockHandle, BlockSpec, ModelBuilder, ParamValue};
use crate::model::input_file::{read_regular, InputFileError, MAX_TEXT_FILE_BYTES};
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, Document, SourceFile, Span, TableReader};
use expand::{Base, Expansion, Options};
use std::collections::HashMap;
use std::path::Path;

/// The block type name.
pub const TYPE_NAME: &str = "Urdf";

/// Reads and checks a URDF file (its path as messages show it).
pub fn read_file(path: &Path) -> Result<(read::Robot, tree::KinematicTree), Diagnostic> {
    let bytes = read_regular(path, "URDF file", MAX_TEXT_FILE_BYTES).map_err(|e| {
        let hint = match e {
            InputFileError::Io { .. } => {
                "check the path (a Urdf block's file is relative to the model file)"
            }
            _ => e.hint(),
        };
        Diagnostic::new(e.to_string()).hint(hint)
    })?;
    let label = path.display().to_string();
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
        read::error_at(
            &SourceFile::new(&label, valid),
            at,
            "the URDF file is not UTF-8 text",
        )
        .hint("save the file as UTF-8")
    })?;
    let robot = read::read_robot(SourceFile::new(label, text))?;
    let tree = tree::KinematicTree::new(&robot)?;
    Ok((robot, tree))
}

/// Expands the URDF at `path` with `options` (the building block of both the document pass
/// and `blockdyn import`).
pub fn expand_file(path: &Path, options: &Options, span: &Span) -> Result<Expansion, Diagnostic> {
    let (robot, tree) = read_file(path)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    expand::expand(&robot, &tree, options, span, dir)
}

/// Replaces every `type = "Urdf"` block of `document` by its expansion (blocks in its place,
/// connections appended to `connect`). Returns the expansions' warnings.
pub fn expand_document(document: &mut Document) -> Result<Vec<String>, Diagnostic> {
    let Some(blocks) = document.root.get("blocks").and_then(|e| e.value.as_table()) else {
        return Ok(Vec::new());
    };
    let is_urdf = |e: &Entry| {
        e.value
            .as_table()
            .and_then(|t| t.get("type"))
            .and_then(|t| t.value.as_str())
            == Some(TYPE_NAME)
    };
    if !blocks.entries.iter().any(is_urdf) {
        return Ok(Vec::new());
    }
    let model_dir = Path::new(&document.source.path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let mut new_entries: Vec<Entry> = Vec::new();
    // Whether each entry was made by an expansion.
    let mut expanded: Vec<bool> = Vec::new();
    let mut connections: Vec<Value> = Vec::new();
    let mut warnings = Vec::new();
    let mut problems = Vec::new();
    let mut skipped: Vec<expand::SkippedPart> = Vec::new();
    for entry in &blocks.entries {
        if !is_urdf(entry) {
            new_entries.push(entry.clone());
            expanded.push(false);
            continue;
        }
        match expand_block(&document.source, entry, &model_dir) {
            Ok((entries, conns, w, files, lost)) => {
                skipped.extend(lost);
                document.inputs.extend(files);
                expanded.extend(entries.iter().map(|_| true));
                new_entries.extend(entries);
                connections.extend(conns);
                warnings.extend(w);
            }
            Err(d) => problems.push(d),
        }
    }
    if let Some(d) = Diagnostic::combine(problems) {
        return Err(d);
    }
    refuse_connections_to_skipped(document, &skipped)?;
    // A name an expansion made that the file, or another expansion, also has: located at the
    // block written in the file when there is one.
    let mut first: HashMap<&str, (&Entry, bool)> = HashMap::new();
    for (e, made) in new_entries.iter().zip(&expanded) {
        if let Some((other, other_made)) = first.insert(&e.key, (e, *made)) {
            let at = if *made { other } else { e };
            let by = if *made && other_made {
                "two Urdf blocks make"
            } else {
                "a Urdf block makes"
            };
            return Err(Diagnostic::at(
                &document.source,
                &at.key_span,
                format!("two blocks are named '{}': {by} it (a Urdf block NAME names its blocks NAME/LINK, NAME/JOINT, …)", e.key),
            )
            .block(&e.key)
            .hint("rename the block, or the Urdf block"));
        }
    }
    let Some(blocks) = document
        .root
        .get_mut("blocks")
        .and_then(|e| match &mut e.value.kind {
            ValueKind::Table(t) => Some(t),
            _ => None,
        })
    else {
        return Ok(warnings);
    };
    blocks.entries = new_entries;
    match document.root.get_mut("connect") {
        // Not an array: reading the document says so, at its line.
        Some(e) => {
            if let ValueKind::Array(items) = &mut e.value.kind {
                items.extend(connections);
            }
        }
        None => document.root.entries.insert(
            0,
            Entry {
                key: "connect".into(),
                key_span: None,
                value: Value {
                    kind: ValueKind::Array(connections),
                    span: None,
                },
            },
        ),
    }
    Ok(warnings)
}

type Expanded = (
    Vec<Entry>,
    Vec<Value>,
    Vec<String>,
    Vec<std::path::PathBuf>,
    Vec<expand::SkippedPart>,
);

/// A connection the model file writes to a collision block its Urdf block did not make (its
/// mesh is missing or unreadable) is refused at the connection's line, saying why the block is
/// not there and where in the URDF: the build would only find "no block 'robot/link/collision_1'
/// — did you mean collision_0".
fn refuse_connections_to_skipped(
    document: &Document,
    skipped: &[expand::SkippedPart],
) -> Result<(), Diagnostic> {
    if skipped.is_empty() {
        return Ok(());
    }
    let Some(items) = document
        .root
        .get("connect")
        .and_then(|e| e.value.as_array())
    else {
        return Ok(());
    };
    for item in items {
        let Some(text) = item.as_str() else { continue };
        // Each end is `block.port` (block names have no '.'); the arrow tokens have no '.'.
        let ends = text
            .split_whitespace()
            .filter_map(|end| end.split_once('.').map(|(block, _)| block));
        for block in ends {
            if let Some(part) = skipped.iter().find(|p| p.block == block) {
                return Err(Diagnostic::at(
                    &document.source,
                    &item.span,
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

/// One Urdf block's expansion as document entries and connection values.
fn expand_block(
    source: &SourceFile,
    entry: &Entry,
    model_dir: &Path,
) -> Result<Expanded, Diagnostic> {
    let name = entry.key.as_str();
    let table = entry.value.as_table().unwrap_or(
        const {
            &Table {
                entries: Vec::new(),
            }
        },
    );
    let p = TableReader::new(source, Some(name), table, entry.value.span.clone());
    p.value("type");
    let file = p.string("file")?.ok_or_else(|| {
        p.table_error("a Urdf block needs the URDF file")
            .hint("add file = \"robot.urdf\" (relative to the model file)")
    })?;
    let file_span = p.value("file").and_then(|v| v.span.clone());
    let options = read_options(&p, name)?;
    let joints = p.table("joints")?;
    p.finish()?;
    let path = model_dir.join(file);
    let span: Span = file_span.clone();
    let expansion = expand_file(&path, &options, &span).map_err(|d| {
        let d = if d.file.is_none() {
            // Cannot read the file: say so at `file = ...`.
            let mut located = p.error("file", d.message.clone());
            located.hint = d.hint.clone();
            located
        } else {
            d
        };
        d.block(name)
    })?;
    let mut blocks = expansion.blocks;
    // Per-joint parameters, by URDF joint name: set on the joint's block as written.
    if joints.is_some() {
        let joint_table = table.get("joints").and_then(|e| e.value.as_table());
        for e in joint_table
            .map(|t| t.entries.as_slice())
            .unwrap_or_default()
        {
            let Some(&k) = expansion.joints.get(&e.key) else {
                let mut d = Diagnostic::at(
                    source,
                    &e.key_span,
                    format!(
                        "'joints.{}': the URDF file has no movable joint '{}'",
                        e.key, e.key
                    ),
                )
                .block(name);
                d = if expansion.fixed_joints.contains(&e.key) {
                    d.hint("a fixed joint is a rigid transform: it has no parameters to set")
                } else {
                    let mut names: Vec<&str> =
                        expansion.joints.keys().map(String::as_str).collect();
                    names.sort_unstable();
                    match crate::model::diagnostic::closest(&e.key, names.iter().copied()) {
                        Some(near) => d.hint(format!("did you mean '{near}'?")),
                        None => d.hint(format!("the movable joints are: {}", names.join(", "))),
                    }
                };
                return Err(d);
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
                .block(name)
                .hint(format!("write {} = {{ q0 = 0.3 }}", e.key)));
            };
            for s in &settings.entries {
                blocks[k].set(&s.key, s.value.clone());
            }
        }
    }
    let entries = blocks
        .iter()
        .map(|b| Entry {
            key: b.name.clone(),
            key_span: entry.key_span.clone(),
            value: Value {
                kind: ValueKind::Table(b.table(&span)),
                span: span.clone(),
            },
        })
        .collect();
    let connections = expansion
        .connections
        .into_iter()
        .map(|c| Value {
            kind: ValueKind::String(c),
            span: span.clone(),
        })
        .collect();
    let warnings = expansion
        .warnings
        .into_iter()
        .map(|w| format!("block '{name}': {w}"))
        .collect();
    let mut files = vec![path];
    files.extend(expansion.files);
    Ok((entries, connections, warnings, files, expansion.skipped))
}

/// The Urdf block's parameters with defaults, each written once (see [`Param`]).
const BASE: Param<&str> = crate::param!("base", "", "fixed", "\"fixed\": the root link welded to B (a RigidTransform NAME) | \"floating\": free (a SixDofJoint NAME, outputs p, Q, v, w)");
const POSITION: Param<[f64; 3]> = crate::param!(
    "position",
    "m",
    [0, 0, 0],
    "the root link's origin in B (initial, for a floating base)"
);
const ORIENTATION: Param<[f64; 4]> = crate::param!(
    "orientation",
    "",
    [1, 0, 0, 0],
    "quaternion [w, x, y, z] of the root link in B (initial, for a floating base)"
);
const VELOCITY: Param<[f64; 3]> = crate::param!(
    "velocity",
    "m/s",
    [0, 0, 0],
    "floating base: initial velocity of the root link's origin, in B"
);
const ANGULAR_VELOCITY: Param<[f64; 3]> = crate::param!(
    "angular_velocity",
    "rad/s",
    [0, 0, 0],
    "floating base: initial angular velocity of the root link, in its frame"
);
const ACTUATION: Param<&str> = crate::param!("actuation", "", "none", "\"input\": every revolute, continuous and prismatic joint takes its torque/force at input NAME/JOINT.t");

/// The base a `base` value names.
fn base_named(text: &str) -> Base {
    match text {
        "floating" => Base::Floating,
        _ => Base::Fixed,
    }
}

/// The Urdf block's options other than `file` and `joints`.
fn read_options(p: &TableReader, name: &str) -> Result<Options, Diagnostic> {
    let base = base_named(BASE.choice(p, &["fixed", "floating"])?);
    let vec3 = |param: &Param<[f64; 3]>| -> Result<[f64; 3], Diagnostic> {
        let v = param.read(p)?;
        Ok([v[0], v[1], v[2]])
    };
    let position = vec3(&POSITION)?;
    let orientation = match p.fixed_vector(ORIENTATION.name(), 4)? {
        None => ORIENTATION.default,
        Some(q) => {
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            p.ensure(
                n > 1e-9 && n.is_finite(),
                "orientation",
                "must be a non-zero quaternion [w, x, y, z]",
                "write e.g. orientation = [1, 0, 0, 0]",
            )?;
            [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
        }
    };
    let velocity = vec3(&VELOCITY)?;
    let angular_velocity = vec3(&ANGULAR_VELOCITY)?;
    if base == Base::Fixed {
        for (key, given) in [
            ("velocity", velocity),
            ("angular_velocity", angular_velocity),
        ] {
            if given != [0.0; 3] {
                return Err(p
                    .error(key, format!("'{key}' is for a floating base"))
                    .hint(
                        "write base = \"floating\", or remove the line: a fixed base does not move",
                    ));
            }
        }
    }
    let actuation = ACTUATION.choice(p, &["none", "input"])? == "input";
    Ok(Options {
        name: name.to_string(),
        base,
        position,
        orientation,
        velocity,
        angular_velocity,
        actuation,
    })
}

/// What `blockdyn import` prints: a model with a World frame `world` and the robot's blocks
/// (named `name/...`, the root attached to `world.W` as `options` says), equivalent to a model
/// with the Urdf block `name`; and the expansion's warnings.
pub fn import(path: &Path, options: &Options) -> Result<(String, Vec<String>), Diagnostic> {
    let expansion = expand_file(path, options, &None).map_err(|d| d.block(&options.name))?;
    let robot_name = expansion.robot_name.clone();
    let mut m = ModelBuilder::new(&robot_name, 1.0);
    let mut handles: HashMap<String, BlockHandle> = HashMap::new();
    let world = m.add("world", BlockSpec::world_frame());
    for b in &expansion.blocks {
        let mut spec = BlockSpec::of_type(b.type_name);
        for (k, v) in &b.params {
            spec = spec.param(k, param_value(v));
        }
        handles.insert(b.name.clone(), m.add(&b.name, spec));
    }
    m.attach(world.port("W"), handles[&options.name].port("B"));
    for c in &expansion.connections {
        let ends = c.split_once(" -- ").and_then(|(a, b)| {
            let (ab, ap) = a.rsplit_once('.')?;
            let (bb, bp) = b.rsplit_once('.')?;
            Some((handles.get(ab)?.port(ap), handles.get(bb)?.port(bp)))
        });
        if let Some((a, b)) = ends {
            m.attach(a, b);
        }
    }
    let base = match options.base {
        Base::Fixed => "",
        Base::Floating => " --base floating",
    };
    let actuation = if options.actuation {
        " --actuation input"
    } else {
        ""
    };
    let header = format!(
        "# The robot '{robot_name}' of {}, as blockdyn blocks: written by\n#   blockdyn import {} --name {}{base}{actuation}\n# Equivalent to a model with\n#   [blocks.{}]\n#   type = \"Urdf\"\n#   file = \"{}\"\n# and \"world.W -- {}.B\". See docs/urdf.md.\n",
        path.display(),
        path.display(),
        options.name,
        options.name,
        path.display(),
        options.name
    );
    Ok((header + &m.to_toml(), expansion.warnings))
}

fn param_value(v: &Value) -> ParamValue {
    match &v.kind {
        ValueKind::Float(x) => ParamValue::Number(*x),
        ValueKind::Integer(i) => ParamValue::Integer(*i),
        ValueKind::Bool(b) => ParamValue::Bool(*b),
        ValueKind::String(s) => ParamValue::Text(s.clone()),
        ValueKind::Array(items) => ParamValue::Array(items.iter().map(param_value).collect()),
        ValueKind::Table(t) => ParamValue::Table(
            t.entries
                .iter()
                .map(|e| (e.key.clone(), param_value(&e.value)))
                .collect(),
        ),
    }
}

/// The options of a Urdf block named `name` with every default (what `import` starts from).
pub fn default_options(name: &str) -> Options {
    Options {
        name: name.to_string(),
        base: base_named(BASE.default),
        position: POSITION.default,
        orientation: ORIENTATION.default,
        velocity: VELOCITY.default,
        angular_velocity: ANGULAR_VELOCITY.default,
        actuation: ACTUATION.default == "input",
    }
}

fn build_unexpanded(p: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    Err(p
        .table_error("a Urdf block is replaced by its robot's blocks when the model file is read; this diagram was built from a document that was not expanded")
        .hint("load the model with blockdyn::load_model (or build_model), which expand Urdf blocks"))
}

/// The Urdf block's documentation (what `blockdyn blocks Urdf` prints). It is expanded when
/// the model is read, so it is never built as a block itself.
pub static URDF: BlockType = BlockType {
    name: TYPE_NAME,
    category: "Import",
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
    build: build_unexpanded,
};

#[cfg(test)]
mod tests {
    use super::expand::{clean_name, z_to};
    use nalgebra::{UnitQuaternion, Vector3};

    #[test]
    fn names_are_cleaned_to_block_names() {
        assert_eq!(clean_name("hip_joint"), "hip_joint");
        assert_eq!(clean_name("left-leg"), "left-leg");
        assert_eq!(clean_name("a.b/c d"), "a_b_c_d");
        assert_eq!(clean_name("a--b"), "a-_b");
        assert_eq!(clean_name(""), "_");
    }

    #[test]
    fn z_is_turned_onto_the_axis() {
        for a in [
            Vector3::x(),
            Vector3::y(),
            -Vector3::z(),
            Vector3::new(1.0, 2.0, -3.0).normalize(),
        ] {
            let (axis, angle) = z_to(&a).unwrap();
            let q = UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle);
            assert!((q * Vector3::z() - a).norm() < 1e-12, "{a}");
        }
        assert!(z_to(&Vector3::z()).is_none());
    }
}
