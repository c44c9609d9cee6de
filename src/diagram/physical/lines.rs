//! What the elaboration's stages share, below them (`mod.rs` assembles, `network.rs` builds the
//! frame network, `binding.rs` binds the blocks to the mechanism): the physical (`--`) lines as
//! written, and the diagnostics located at a block.

use crate::block::{PhysicalRole, PortDecl};
use crate::diagram::instance::Instance;
use crate::model::{Diagnostic, PortRef, SourceFile, Span};
use std::collections::HashMap;

/// One end of a physical line: a block and one of its physical ports, by index. The build has
/// found both when it resolves the line; as two `PortRef`s (block and port names, cloned) the
/// 120,000 lines of a 20,000-joint URDF chain were ~21 MB, as indices ~2 MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicalEnd {
    /// The block's index among the instances.
    pub block: u32,
    /// The port's index in the block's `physical_ports()`.
    pub port: u32,
}

impl PhysicalEnd {
    /// Port `port` of block `block`. Panics past 2^32 blocks or ports.
    pub fn new(block: usize, port: usize) -> Self {
        let index = |k: usize| u32::try_from(k).expect("fewer than 2^32 blocks and ports");
        PhysicalEnd {
            block: index(block),
            port: index(port),
        }
    }

    /// The block's index.
    pub fn block(self) -> usize {
        self.block as usize
    }

    /// The port's declaration, in `instances` (those the end was resolved in, their physical
    /// port lists unchanged since).
    pub(crate) fn decl(self, instances: &[Instance]) -> &PortDecl {
        &instances[self.block()].block.physical_ports()[self.port as usize]
    }

    /// The end as written: `block.port`.
    pub(crate) fn written(self, instances: &[Instance]) -> String {
        let name = &instances[self.block()].name;
        format!("{name}.{}", self.decl(instances).name)
    }

    /// The end `r` names among `instances` (`by_name`: each block's index by name), if the block
    /// and its physical port exist.
    pub(crate) fn find(
        instances: &[Instance],
        by_name: &HashMap<&str, usize>,
        r: &PortRef,
    ) -> Option<Self> {
        let b = *by_name.get(r.block.as_str())?;
        let ports = instances[b].block.physical_ports();
        let p = ports.iter().position(|p| p.name == r.port)?;
        Some(PhysicalEnd::new(b, p))
    }
}

/// One physical (`--`) connection, its two ends resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicalLine {
    /// One end.
    pub a: PhysicalEnd,
    /// The other end.
    pub b: PhysicalEnd,
    /// Where it was written.
    pub span: Span,
}

/// "The mechanism has no World frame", located at the first block of the frame network (in the
/// file's order), with the two lines to add.
pub(super) fn no_world_frame(source: &SourceFile, instances: &[Instance]) -> Diagnostic {
    let first = instances.iter().enumerate().find_map(|(b, inst)| {
        let port = match inst.block.role()? {
            PhysicalRole::Joint { .. } | PhysicalRole::RigidTransform { .. } => "B",
            PhysicalRole::Solid { .. } | PhysicalRole::Geometry { .. } => "R",
            _ => return None,
        };
        Some((b, port))
    });
    let message = "the mechanism has no World frame: nothing roots its frames in space";
    match first {
        Some((b, port)) => locate(source, instances, b, message.into()).hint(format!(
            "add [blocks.world] with type = \"WorldFrame\", and \"world.W -- {}.{port}\" to connect = [...]",
            instances[b].name
        )),
        None => Diagnostic::at(source, &Span::NONE, message).hint(
            "add [blocks.world] with type = \"WorldFrame\" and connect its W port to the frame network",
        ),
    }
}

/// A diagnostic at block `b`: `message` at the block's place in the file, naming it.
pub(super) fn locate(
    source: &SourceFile,
    instances: &[Instance],
    b: usize,
    message: String,
) -> Diagnostic {
    Diagnostic::at(source, &instances[b].span, message).block(&instances[b].name)
}
