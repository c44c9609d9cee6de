//! A compiled block placed in the run-state buffers, where it came from, and the resolved
//! signal lines: below the build (which makes them), the schedule and the unit propagation (which
//! read them) and the [`Diagram`](super::Diagram) (which holds them).

use crate::block::{Block, Setup, Shape, Slot, Units};
use crate::model::Span;
use std::ops::Range;

/// One block, placed in the run-state buffers.
pub struct CompiledBlock {
    /// The block's name in the model.
    pub name: String,
    /// Its type name.
    pub type_name: &'static str,
    /// The block, as built (a run's parameter set may dispatch to another instance of it).
    pub(crate) block: Box<dyn Block>,
    /// Where each input reads from (its source output's slot, an element of it, or zeros).
    pub input_slots: Vec<Slot>,
    /// Where each output is written.
    pub output_slots: Vec<Slot>,
    /// Each input's shape, as shape propagation settled it.
    pub input_shapes: Vec<Shape>,
    /// Each output's shape.
    pub output_shapes: Vec<Shape>,
    /// Each output's units, element by element, as unit propagation settled them (see
    /// [`Block::output_units`]).
    pub output_units: Vec<Units>,
    /// Range of its continuous states in the state vector.
    pub states: Range<usize>,
    /// Range of its work slots.
    pub work: Range<usize>,
    /// Range of its zero-crossing functions.
    pub zero_crossings: Range<usize>,
    /// What its setup declared (states, work slots, crossings and their directions, …).
    pub setup: Setup,
    /// Where the block was written.
    pub span: Span,
    /// Its constructor and model entry (`None` for blocks the build adds: the mechanism).
    pub(crate) origin: Option<Origin>,
    /// The mechanism binding it was given, if it is a joint or consumer of the frame network.
    /// Boxed: a `Binding` is 112 bytes and most blocks have none (at 20,000 joints, 120,001
    /// blocks, of which the 20,000 joints are bound), so inline it would cost every block.
    pub binding: Option<Box<crate::block::Binding>>,
    /// Which of its outputs are read (by a line, the animation or the log), as given to
    /// [`Block::set_used_outputs`].
    pub used_outputs: Vec<bool>,
}

impl CompiledBlock {
    /// The block, as built (a run's parameter set may dispatch to another instance of it).
    pub fn block(&self) -> &dyn Block {
        &*self.block
    }

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
    /// The source block's index.
    pub from: usize,
    /// The source output's index in that block.
    pub from_port: usize,
    /// The element selected (`block.port[i]`), if any.
    pub index: Option<usize>,
    /// The destination block's index.
    pub to: usize,
    /// The destination input's index in that block.
    pub to_port: usize,
}

/// Where a compiled block came from, so that a run can make it again with other parameters
/// (see [`super::parameters`]).
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    /// Its type's constructor.
    pub build: crate::block::registry::BuildFn,
    /// Its index in `ModelSpec::blocks`.
    pub entry: usize,
    /// Its type's parameters, with their documented defaults (a parameter vector starts a slot
    /// the model does not write from its default).
    pub params: &'static [crate::block::ParamDoc],
}
