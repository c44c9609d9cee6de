//! `blockdyn import`: a URDF robot written out as the model blocks a Urdf block expands to.

use crate::builder::{blocks, BlockHandle, BlockSpec, ModelBuilder, ParamValue};
use crate::model::Diagnostic;
use crate::urdf::expand::{Base, Options};
use crate::urdf::expand_file;
use std::collections::HashMap;
use std::path::Path;

/// What `blockdyn import` prints: a model with a World frame `world` and the robot's blocks
/// (named `name/...`, the root attached to `world.W` as `options` says), equivalent to a model
/// with the Urdf block `name`; and the expansion's warnings.
pub fn import_urdf(path: &Path, options: &Options) -> Result<(String, Vec<String>), Diagnostic> {
    let expansion = expand_file(path, options, &crate::model::Span::NONE)
        .map_err(|d| d.block(&options.name))?;
    let robot_name = expansion.robot_name.clone();
    let mut m = ModelBuilder::new(&robot_name, 1.0);
    let mut handles: HashMap<String, BlockHandle> = HashMap::new();
    let world = m.add("world", blocks::WorldFrame::new());
    for b in &expansion.blocks {
        let mut spec = BlockSpec::of_type(b.type_name);
        for (k, v) in &b.params {
            spec = spec.param(k, ParamValue::from(v));
        }
        handles.insert(b.name.clone(), m.add(&b.name, spec));
    }
    m.attach(world.port("W"), handles[&options.name].port("B"));
    for c in &expansion.connections {
        let (a, b) = (&c.from, &c.to);
        if let (Some(ha), Some(hb)) = (handles.get(&a.block), handles.get(&b.block)) {
            m.attach(ha.port(&a.port), hb.port(&b.port));
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
