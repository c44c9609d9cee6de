//! A compiled block placed in the run-state buffers, where it came from, and the resolved
//! signal lines: below the build (which makes them), the schedule and the unit propagation (which
//! read them) and the [`Diagram`](super::Diagram) (which holds them).

use super::thin_slice::ThinSlice;
use crate::block::{Block, Setup, Shape, Slot, Units};
use crate::model::Span;
use std::ops::Range;

/// One block, placed in the run-state buffers.
///
/// Its per-port lists are [`ThinSlice`]s (8 bytes, not a `Vec`'s 24 or a boxed slice's 16: they
/// never grow after the build, and an empty one allocates nothing) and its setup is boxed only
/// when it declares something: a 20,000-joint URDF chain has 120,005 blocks, 100,001 of them
/// frame blocks with nothing to declare, and at 360 bytes a block the compiled blocks were the
/// largest part of its diagram (issue 28, part 3; 208 bytes now).
pub struct CompiledBlock {
    /// The block's name in the model.
    pub name: String,
    /// Its type name.
    pub type_name: &'static str,
    /// The block, as built (a run's parameter set may dispatch to another instance of it).
    pub(crate) block: Box<dyn Block>,
    /// Where each input reads from (its source output's slot, an element of it, or zeros).
    pub input_slots: ThinSlice<Slot>,
    /// Where each output is written.
    pub output_slots: ThinSlice<Slot>,
    /// Each input's shape, as shape propagation settled it.
    pub input_shapes: ThinSlice<Shape>,
    /// Each output's shape.
    pub output_shapes: ThinSlice<Shape>,
    /// Each output's units, element by element, as unit propagation settled them (see
    /// [`Block::output_units`]).
    pub output_units: ThinSlice<Units>,
    /// Range of its continuous states in the state vector.
    pub states: Range<usize>,
    /// Range of its work slots.
    pub work: Range<usize>,
    /// Range of its zero-crossing functions.
    pub zero_crossings: Range<usize>,
    /// What its setup declared (states, work slots, crossings and their directions, …), `None`
    /// when that is nothing ([`Setup::default`]); read with [`CompiledBlock::setup`].
    pub(crate) setup: Option<Box<Setup>>,
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
    pub used_outputs: ThinSlice<bool>,
}

/// What a block that declares nothing declared: [`Setup::default`], for
/// [`CompiledBlock::setup`] to lend.
static DECLARES_NOTHING: Setup = Setup {
    num_states: 0,
    num_work: 0,
    zero_crossings: Vec::new(),
    feedthrough: Vec::new(),
};

impl CompiledBlock {
    /// What its setup declared (states, work slots, crossings and their directions, …).
    pub fn setup(&self) -> &Setup {
        self.setup.as_deref().unwrap_or(&DECLARES_NOTHING)
    }

    /// `setup` as [`CompiledBlock`] keeps it: boxed, or `None` when it declares nothing.
    pub(crate) fn kept_setup(setup: Setup) -> Option<Box<Setup>> {
        (setup != Setup::default()).then(|| Box::new(setup))
    }

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
