//! The compiled diagram: blocks with their buffer slots, the schedule, and the graph behind it.
//!
//! What is built here is immutable during a run; the engine (`sim`) keeps everything that changes.

pub(crate) mod assemble;
pub mod blueprint;
pub(crate) mod build;
pub mod connections;

mod compiled;
mod digest;
pub mod dot;
mod groups;
mod instance;
mod layout;
pub mod parameters;
pub mod physical;
mod places;
pub(crate) mod recipe;
pub(crate) mod recorded;
pub mod run_spec;
pub(crate) mod schedule;
mod thin_slice;
pub(crate) mod units;
mod used_outputs;
pub(crate) mod warnings;

pub use blueprint::Blueprint;
pub use connections::PhysicalConnections;

pub use compiled::{CompiledBlock, SignalLine};
pub use parameters::{ParameterSet, ParameterVector};
pub use run_spec::{DrawnFrames, FrameChoice, RecordedSignals, RunOutput, RunSpec};
pub use thin_slice::ThinSlice;

use crate::model::subsystem::ExpandedInstance;
use crate::solver::Direction;

/// A built diagram: what a run reads, and nothing of the model it was built from (that is the
/// [`Blueprint`] the `*_parts` loaders return beside it). Read through its accessors; nothing in
/// it changes after the build.
pub struct Diagram {
    /// What a run reads: name, stop time, solver options, outputs with the recorded signals
    /// resolved.
    pub(crate) run: RunSpec,
    /// Every block, the model's in order, then those the build adds (the mechanism).
    pub(crate) blocks: Vec<CompiledBlock>,
    /// Every signal line.
    pub(crate) lines: Vec<SignalLine>,
    /// Physical connections as written, `(block.port, block.port)`.
    pub(crate) physical: PhysicalConnections,
    /// Block evaluation order for outputs (a block may appear more than once when per-port
    /// feedthrough requires it; see `diagram/schedule.rs`).
    pub(crate) schedule: Vec<usize>,
    /// Length of the flat signal buffer.
    pub(crate) signal_len: usize,
    /// Continuous states of all blocks.
    pub(crate) num_states: usize,
    /// Work slots of all blocks.
    pub(crate) num_work: usize,
    /// The direction each zero-crossing function fires in, all blocks' in block order.
    pub(crate) zero_crossing_directions: Vec<Direction>,
    /// Non-fatal findings to show the user: the model expansion's (URDF, an Inport nothing
    /// drives), then the blocks'.
    pub(crate) warnings: Vec<String>,
    /// How many of `warnings` the expansion gave (the blocks' follow; a parameter set works
    /// those out again with its values).
    pub(crate) expansion_warnings: usize,
    /// The files read to build it: the model file, each URDF and mesh (empty for a model built
    /// from text or in code). A run's outputs never replace them.
    pub(crate) input_files: Vec<std::path::PathBuf>,
    /// The subsystem and importer (Urdf) instances written in the model file (`leg1`, `leg[0]`,
    /// `robot`) and the type each instantiates: their blocks are named `INSTANCE/NAME` (and an
    /// importer instance's root attachment `INSTANCE`); the graph draws each instance as one node.
    pub(crate) subsystems: Vec<ExpandedInstance>,
    /// The mechanism and the geometries on its bodies (`None` without physical blocks).
    pub(crate) scene: Option<physical::PhysicalScene>,
    /// The digest of each model entry's table, by entry (see `digest.rs`): what a
    /// parameter set checks, at a run, that it was made from.
    pub(crate) table_digests: Vec<Option<u64>>,
    /// Where each block was written, located at the build (for messages after it).
    pub(crate) places: places::Places,
    /// The build it came from, shared with its [`Blueprint`] (see [`blueprint::next_build_id`]).
    pub(crate) build_id: u64,
    /// For a model with `[variables]`, how it was read (see `recipe.rs`): a
    /// parameter vector that moves a variable fits only a diagram read the same way.
    pub(crate) reading: Option<recipe::Reading>,
}

/// What the API reads of a built diagram.
impl Diagram {
    /// What a run reads: the model's name, stop time, solver options and outputs, with the
    /// recorded signals resolved to signal-buffer offsets at the build.
    pub fn run(&self) -> &RunSpec {
        &self.run
    }

    /// Every block, the model's in order, then those the build adds (the mechanism).
    pub fn blocks(&self) -> &[CompiledBlock] {
        &self.blocks
    }

    /// Every signal line.
    pub fn lines(&self) -> &[SignalLine] {
        &self.lines
    }

    /// Physical connections as written, `(block.port, block.port)`.
    pub fn physical(&self) -> &PhysicalConnections {
        &self.physical
    }

    /// Block evaluation order for outputs (a block may appear more than once when per-port
    /// feedthrough requires it).
    pub fn schedule(&self) -> &[usize] {
        &self.schedule
    }

    /// Length of the flat signal buffer, in f64 elements.
    pub fn signal_len(&self) -> usize {
        self.signal_len
    }

    /// Number of continuous states of all blocks.
    pub fn num_states(&self) -> usize {
        self.num_states
    }

    /// Number of work slots of all blocks.
    pub fn num_work(&self) -> usize {
        self.num_work
    }

    /// The direction each zero-crossing function fires in, all blocks' in block order.
    pub fn zero_crossing_directions(&self) -> &[Direction] {
        &self.zero_crossing_directions
    }

    /// Non-fatal findings to show the user (what the CLI prints as `warning: …`): the model
    /// expansion's (URDF, an Inport nothing drives), then the blocks'.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The files read to build it: the model file, each URDF and mesh (empty for a model built
    /// from text or in code).
    pub fn input_files(&self) -> &[std::path::PathBuf] {
        &self.input_files
    }

    /// The subsystem and importer instances written in the model file (`leg1`, `leg[0]`,
    /// `robot`), each with the type it instantiates.
    pub fn subsystems(&self) -> &[ExpandedInstance] {
        &self.subsystems
    }

    /// The mechanism and the geometries on its bodies (`None` without physical blocks).
    pub fn scene(&self) -> Option<&physical::PhysicalScene> {
        self.scene.as_ref()
    }
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

    /// A problem at the place where block `b` was written (file, line, column, located when the
    /// diagram was built), as [`crate::model::Diagnostic::at`] gives it at the block's span.
    pub fn block_diagnostic(
        &self,
        b: usize,
        message: impl Into<String>,
    ) -> crate::model::Diagnostic {
        self.places.diagnostic(b, message)
    }

    /// The block owning zero-crossing function `k`.
    pub fn block_of_zero_crossing(&self, k: usize) -> Option<&CompiledBlock> {
        self.blocks.iter().find(|b| b.zero_crossings.contains(&k))
    }
}

impl std::fmt::Debug for Diagram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Diagram")
            .field("name", &self.run.name)
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
