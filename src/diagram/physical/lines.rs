//! What the elaboration's stages share, below them (`mod.rs` assembles, `network.rs` builds the
//! frame network, `binding.rs` binds the blocks to the mechanism): the physical (`--`) lines as
//! written, and the diagnostics located at a block.

use crate::block::PhysicalRole;
use crate::diagram::instance::Instance;
use crate::model::{Diagnostic, PortRef, SourceFile, Span};

/// One physical (`--`) connection as written.
pub struct PhysicalLine {
    /// One end.
    pub a: PortRef,
    /// The other end.
    pub b: PortRef,
    /// Where it was written.
    pub span: Span,
}

impl PhysicalLine {
    /// The physical line a (`--`) connection of the model writes.
    pub fn of(c: &crate::model::Connection) -> Self {
        PhysicalLine {
            a: c.from.clone(),
            b: c.to.clone(),
            span: c.span.clone(),
        }
    }
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
