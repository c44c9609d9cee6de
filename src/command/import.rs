//! `blockdyn import`: a URDF robot written out as the model blocks a Urdf block expands to.

use crate::builder::{blocks, BlockHandle, BlockSpec, ModelBuilder, ParamValue, PortRef};
use crate::model::{Connection, ConnectionKind, Diagnostic};
use crate::urdf::expand::{Base, Expansion, Options};
use crate::urdf::expand_file;
use std::collections::HashMap;
use std::path::Path;

/// The World frame block every imported model starts with; the robot's root attaches to its `W`.
pub const WORLD: &str = "world";

/// Why `blockdyn import` wrote no model.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The URDF file could not be read or expanded (located in the file).
    #[error("{0}")]
    Expansion(#[from] Diagnostic),
    /// The robot's name is the World frame block's, so two blocks would share it.
    #[error(
        "--name '{name}' is the name of the imported model's World frame block: choose another"
    )]
    NameIsWorld {
        /// The name given (`world`).
        name: String,
    },
    /// The expansion made no block named as the robot, so nothing attaches it to the world.
    #[error("the expansion of '{name}' has no root block '{name}' to attach to {WORLD}.W")]
    MissingRoot {
        /// The robot's (the Urdf block's) name.
        name: String,
    },
}

/// What `blockdyn import` prints: a model with a World frame `world` and the robot's blocks
/// (named `name/...`, the root attached to `world.W` as `options` says), equivalent to a model
/// with the Urdf block `name`; and the warnings (the expansion's, then those of
/// [`expansion_model`]).
pub fn import_urdf(path: &Path, options: &Options) -> Result<(String, Vec<String>), ImportError> {
    let expansion = expand_file(path, options, &crate::model::Span::NONE)
        .map_err(|d| d.block(&options.name))?;
    let (model, mut written) = expansion_model(&expansion, &options.name)?;
    let mut warnings = expansion.warnings;
    warnings.append(&mut written);
    Ok((
        header(path, &expansion.robot_name, options) + &model,
        warnings,
    ))
}

/// The model file text of `expansion` (the robot `root`): the World frame block [`WORLD`],
/// every expanded block, `world.W -- root.B`, and the expansion's connections. A connection
/// that names a block neither expanded nor [`WORLD`] is not written: it is returned as a
/// warning naming it (the expansion makes none; a warning, not a silent skip, if one ever
/// does).
pub fn expansion_model(
    expansion: &Expansion,
    root: &str,
) -> Result<(String, Vec<String>), ImportError> {
    if root == WORLD {
        return Err(ImportError::NameIsWorld { name: root.into() });
    }
    let mut m = ModelBuilder::new(&expansion.robot_name, 1.0);
    let mut handles: HashMap<&str, BlockHandle> = HashMap::new();
    handles.insert(WORLD, m.add(WORLD, blocks::WorldFrame::new()));
    for b in &expansion.blocks {
        let mut spec = BlockSpec::of_type(b.type_name);
        for (k, v) in &b.params {
            spec = spec.param(k, ParamValue::from(v));
        }
        handles.insert(&b.name, m.add(&b.name, spec));
    }
    let Some(root_block) = handles.get(root) else {
        return Err(ImportError::MissingRoot { name: root.into() });
    };
    m.attach(handles[WORLD].port("W"), root_block.port("B"));
    let mut warnings = Vec::new();
    for c in &expansion.connections {
        let ends = (
            handles.get(c.from.block.as_str()),
            handles.get(c.to.block.as_str()),
        );
        let (Some(from), Some(to)) = ends else {
            warnings.push(not_written(c, ends.0.is_none()));
            continue;
        };
        let (from, to) = (port_of(from, &c.from), port_of(to, &c.to));
        match c.kind {
            ConnectionKind::Physical => m.attach(from, to),
            ConnectionKind::Signal => m.connect(from, to),
        };
    }
    Ok((m.to_toml(), warnings))
}

/// The port `end` names, on its block's handle (an element as `port[i]`).
fn port_of(block: &BlockHandle, end: &crate::model::PortRef) -> PortRef {
    match end.index {
        Some(i) => block.port(&format!("{}[{i}]", end.port)),
        None => block.port(&end.port),
    }
}

/// The warning for connection `c` left out because a block it names was not made (its `from`
/// end's block when `from_missing`, else its `to` end's).
fn not_written(c: &Connection, from_missing: bool) -> String {
    let missing = if from_missing { &c.from } else { &c.to };
    format!(
        "connection \"{}\" not written: the robot has no block '{}'",
        c.text(),
        missing.block
    )
}

/// `text` with its control characters escaped (`\n` as the two characters `\` `n`): a robot
/// name read from a URDF (`name="a&#10;b"`) or a path may hold a line break, which would end the
/// header's comment line and put the rest into the printed model as TOML.
fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped = c.is_control().then(|| c.escape_default());
            escaped
                .into_iter()
                .flatten()
                .chain((!c.is_control()).then_some(c))
        })
        .collect()
}

/// The comment the printed model starts with: where it comes from and its Urdf block twin.
fn header(path: &Path, robot_name: &str, options: &Options) -> String {
    let robot_name = one_line(robot_name);
    let path = one_line(&path.display().to_string());
    let name = one_line(&options.name);
    let base = match options.base {
        Base::Fixed => "",
        Base::Floating => " --base floating",
    };
    let actuation = if options.actuation {
        " --actuation input"
    } else {
        ""
    };
    format!(
        "# The robot '{robot_name}' of {path}, as blockdyn blocks: written by\n#   blockdyn import {path} --name {name}{base}{actuation}\n# Equivalent to a model with\n#   [blocks.{name}]\n#   type = \"Urdf\"\n#   file = \"{path}\"\n# and \"world.W -- {name}.B\". See docs/urdf.md.\n"
    )
}
