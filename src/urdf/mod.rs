//! URDF import: a `type = "Urdf"` block of a model stands for a robot described in a URDF file,
//! and is replaced, when the model file is read, by the blocks and physical connections the
//! robot is made of (frames, solids, collision geometries, joints), named after the Urdf block
//! (`robot/base_link`, `robot/hip_joint`): an instance, expanded with the subsystems
//! (`instance.rs`). `blockdyn import robot.urdf` prints the same blocks as TOML. See docs/urdf.md.
//!
//! One concept per file: [`position`] (a place in the file and its message), [`entities`] (the
//! XML entity expansion budget), [`read`] (the XML, checked element by element with positions),
//! [`tree`] (the kinematic tree), [`mesh`] (STL meshes as convex hulls), [`expand`] (the robot
//! as model blocks), `instance.rs` (a Urdf block as an instance of the model, and a document's
//! Urdf blocks expanded). This module reads the Urdf block's options and declares the
//! [`IMPORTER`] the model reader calls (`crate::library::IMPORTERS`); `blockdyn import` is
//! `crate::command::import`.

pub mod entities;
pub mod expand;
pub(crate) mod instance;
pub use instance::{expand_document, IMPORTER};
pub mod mesh;
pub mod position;
pub mod read;
pub mod tree;
mod values;

use crate::block::Param;
use crate::model::input_file::{read_regular, InputFileError, MAX_TEXT_FILE_BYTES};
use crate::model::{Diagnostic, SourceFile, Span, TableReader};
use crate::params::{ParamError, Params};
use expand::{Base, Expansion, Options};
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
        position::error_at(
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

/// The Urdf block's parameters with defaults, each written once (see [`Param`]).
pub(super) const BASE: Param<&str> = crate::param!("base", "", "fixed", "\"fixed\": the root link welded to B (a RigidTransform NAME) | \"floating\": free (a SixDofJoint NAME, outputs p, Q, v, w)"; one_of["fixed", "floating"]);
pub(super) const POSITION: Param<[f64; 3]> = crate::param!(
    "position",
    "m",
    [0, 0, 0],
    "the root link's origin in B (initial, for a floating base)"
);
pub(super) const ORIENTATION: Param<[f64; 4]> = crate::param!(
    "orientation",
    "",
    [1, 0, 0, 0],
    "quaternion [w, x, y, z] of the root link in B (initial, for a floating base)"
);
pub(super) const VELOCITY: Param<[f64; 3]> = crate::param!(
    "velocity",
    "m/s",
    [0, 0, 0],
    "floating base: initial velocity of the root link's origin, in B"
);
pub(super) const ANGULAR_VELOCITY: Param<[f64; 3]> = crate::param!(
    "angular_velocity",
    "rad/s",
    [0, 0, 0],
    "floating base: initial angular velocity of the root link, in its frame"
);
pub(super) const ACTUATION: Param<&str> = crate::param!("actuation", "", "none", "\"input\": every revolute, continuous and prismatic joint takes its torque/force at input NAME/JOINT.t"; one_of["none", "input"]);

/// The base a `base` value names.
fn base_named(text: &str) -> Base {
    match text {
        "floating" => Base::Floating,
        _ => Base::Fixed,
    }
}

/// The Urdf block's options other than `file` and `joints`.
pub(super) fn read_options(p: &TableReader, name: &str) -> Result<Options, Diagnostic> {
    read_typed_options(&p.params(), name).map_err(|e| p.locate(e))
}

/// [`read_options`] through the typed parameter front (its errors name the key).
fn read_typed_options(p: &Params, name: &str) -> Result<Options, ParamError> {
    let base = base_named(BASE.read(p)?);
    let vec3 = |param: &Param<[f64; 3]>| -> Result<[f64; 3], ParamError> {
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
    let actuation = ACTUATION.read(p)? == "input";
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

#[cfg(test)]
mod tests {
    use super::expand::{clean_name, z_to, Base};
    use nalgebra::{UnitQuaternion, Vector3};

    #[test]
    fn the_connections_made_are_those_their_text_reads() {
        // The expansion builds its connections without the parser (`Values::joined`); each
        // must be what the parser reads from its text, or the model would differ from the
        // one `blockdyn import` prints.
        use crate::model::connection::parse_connection;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let files = [
            "models/urdf/pendulum.urdf",
            "models/urdf/two_link_arm.urdf",
            "models/urdf/quadruped.urdf",
            "tests/data/robot_with_mesh/robot.urdf",
        ];
        for (file, base) in files
            .iter()
            .zip([Base::Fixed, Base::Floating].iter().cycle())
        {
            let mut options = super::default_options("sub/arm[2]");
            options.base = *base;
            let span = crate::model::Span::new(3..9);
            let expansion = super::expand_file(&root.join(file), &options, &span).unwrap();
            assert!(expansion.connections.len() >= 2, "{file}");
            for c in &expansion.connections {
                let read = parse_connection(&c.text(), span.clone());
                assert_eq!(read.as_ref(), Ok(c), "{file}: {}", c.text());
            }
        }
    }

    #[test]
    fn names_are_cleaned_to_block_names() {
        assert_eq!(clean_name("hip_joint"), "hip_joint");
        assert_eq!(clean_name("left-leg"), "left-leg");
        assert_eq!(clean_name("a.b/c d"), "a_b_c_d");
        assert_eq!(clean_name("a--b"), "a-_b");
        assert_eq!(clean_name(""), "_");
        assert_eq!(clean_name("a---b"), "a-_-b");
        assert_eq!(clean_name("ü-x"), "_-x");
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
