//! URDF import: a `type = "Urdf"` block of a model stands for a robot described in a URDF file,
//! and is replaced, when the model file is read, by the blocks and physical connections the
//! robot is made of (frames, solids, collision geometries, joints), named after the Urdf block
//! (`robot/base_link`, `robot/hip_joint`): an instance, expanded with the subsystems
//! (`instance.rs`). `blockdyn import robot.urdf` prints the same blocks as TOML. See docs/urdf.md.
//!
//! One concept per file: [`entities`] (the XML entity expansion budget), [`read`] (the XML,
//! checked element by element with positions), [`tree`] (the kinematic tree), [`mesh`] (STL
//! meshes as convex hulls), [`expand`] (the robot as model blocks), `instance.rs` (a Urdf block
//! as an instance of the model). This module reads the Urdf block's options and prints
//! `blockdyn import`.

pub mod entities;
pub mod expand;
pub(crate) mod instance;
pub mod mesh;
pub mod read;
pub mod tree;

use crate::block::{Block, BlockType, Param, ParamDoc, PortDoc};
use crate::builder::{BlockHandle, BlockSpec, ModelBuilder, ParamValue};
use crate::model::input_file::{read_regular, InputFileError, MAX_TEXT_FILE_BYTES};
use crate::model::value::{Value, ValueKind};
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

/// Replaces every `type = "Urdf"` block of `document` by its expansion (as the model's
/// subsystems and arrays are: [`crate::model::subsystem::expand_document`], which this calls
/// with no overrides). Returns the expansions' warnings.
pub fn expand_document(document: &mut Document) -> Result<Vec<String>, Diagnostic> {
    let expansion = crate::model::subsystem::expand_document(document, &mut Vec::new())?;
    Ok(expansion.warnings)
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
pub(super) fn read_options(p: &TableReader, name: &str) -> Result<Options, Diagnostic> {
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
