//! The compiled diagram: blocks with their buffer slots, the schedule, and the graph behind it.
//!
//! What is built here is immutable during a run; the engine (`sim`) keeps everything that changes.

pub mod assemble;
pub mod build;
pub mod dot;
pub mod parameters;
pub mod physical;
pub mod schedule;

pub use build::{build_diagram, build_diagram_with};

use crate::block::{Block, Setup, Shape, Slot};
use crate::model::{ModelSpec, SourceFile, Span};
use crate::solver::Direction;
use std::ops::Range;

/// One block, placed in the run-state buffers.
pub struct CompiledBlock {
    /// The block's name in the model.
    pub name: String,
    /// Its type name.
    pub type_name: &'static str,
    pub block: Box<dyn Block>,
    /// Where each input reads from (its source output's slot, an element of it, or zeros).
    pub input_slots: Vec<Slot>,
    /// Where each output is written.
    pub output_slots: Vec<Slot>,
    pub input_shapes: Vec<Shape>,
    pub output_shapes: Vec<Shape>,
    /// Range of its continuous states in the state vector.
    pub states: Range<usize>,
    /// Range of its work slots.
    pub work: Range<usize>,
    /// Range of its zero-crossing functions.
    pub zero_crossings: Range<usize>,
    pub setup: Setup,
    /// Where the block was written.
    pub span: Span,
    /// Its constructor and model entry (`None` for blocks the build adds: the mechanism).
    pub origin: Option<build::Origin>,
    /// The mechanism binding it was given, if it is a joint or consumer of the frame network.
    pub binding: Option<crate::block::Binding>,
    /// Which of its outputs are read (by a line, the animation or the log), as given to
    /// [`Block::set_used_outputs`].
    pub used_outputs: Vec<bool>,
}

impl CompiledBlock {
    /// Index of the output port called `name`.
    pub fn output_index(&self, name: &str) -> Option<usize> {
        self.block.outputs().iter().position(|p| p.name == name)
    }

    /// Index of the input port called `name`.
    pub fn input_index(&self, name: &str) -> Option<usize> {
        self.block.inputs().iter().position(|p| p.name == name)
    }
}

/// A signal line after resolution: output `from_port` of block `from` (element `index` if selected)
/// feeds input `to_port` of block `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalLine {
    pub from: usize,
    pub from_port: usize,
    pub index: Option<usize>,
    pub to: usize,
    pub to_port: usize,
}

/// A built diagram.
pub struct Diagram {
    pub source: SourceFile,
    pub spec: ModelSpec,
    pub blocks: Vec<CompiledBlock>,
    pub lines: Vec<SignalLine>,
    /// Physical connections as written, `(block.port, block.port)`.
    pub physical: Vec<(String, String)>,
    /// Block evaluation order for outputs (a block may appear more than once when per-port
    /// feedthrough requires it; see [`schedule`]).
    pub schedule: Vec<usize>,
    /// Length of the flat signal buffer.
    pub signal_len: usize,
    pub num_states: usize,
    pub num_work: usize,
    pub zero_crossing_directions: Vec<Direction>,
    /// Non-fatal findings to show the user.
    pub warnings: Vec<String>,
    /// The mechanism and the geometries on its bodies (`None` without physical blocks).
    pub scene: Option<physical::PhysicalScene>,
}

impl Diagram {
    /// The block called `name`.
    pub fn block_index(&self, name: &str) -> Option<usize> {
        self.blocks.iter().position(|b| b.name == name)
    }

    /// The block owning state `k`.
    pub fn block_of_state(&self, k: usize) -> Option<&CompiledBlock> {
        self.block_index_of_state(k).map(|b| &self.blocks[b])
    }

    /// The index of the block owning continuous state `k`.
    pub fn block_index_of_state(&self, k: usize) -> Option<usize> {
        self.blocks.iter().position(|b| b.states.contains(&k))
    }

    /// The block owning zero-crossing function `k`.
    pub fn block_of_zero_crossing(&self, k: usize) -> Option<&CompiledBlock> {
        self.blocks.iter().find(|b| b.zero_crossings.contains(&k))
    }
}

impl std::fmt::Debug for Diagram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Diagram")
            .field("name", &self.spec.name)
            .field(
                "blocks",
                &self
                    .blocks
                    .iter()
                    .map(|b| (&b.name, b.type_name))
                    .collect::<Vec<_>>(),
            )
            .field("schedule", &self.schedule)
            .field("num_states", &self.num_states)
            .finish()
    }
}
