//! The engine: a compiled diagram plus its run state, seen by the solver as one [`System`].
//!
//! Each minor step evaluates every block's outputs in schedule order into the flat signal buffer
//! (fused linear blocks as sparse sums, constant outputs not at all), then the state derivatives.
//! The solver's state is copied into the run state's `x` first only when a called block owns
//! states; otherwise fused sums read the solver's vector directly and `run.x` is current only at
//! initialization and events. Nothing here allocates after [`Engine::new`] (the block to blame
//! for a non-finite value is stored as indices; its message is formatted after the run).

use super::animation::FrameSampler;
use super::events::EventLog;
use super::linear::{LinearPlan, Mode};
use super::recorder::Recorder;
use super::sparsity::StateDependencies;
use super::steps::Step;
use crate::block::{kernel, same_bits, Block, Ctx};
use crate::diagram::parameters::ParameterSet;
use crate::diagram::schedule::feeding_blocks;
use crate::diagram::Diagram;
use crate::solver::{Direction, EventOutcome, Method, RecordKind, System};
use std::any::Any;

/// Which steps an evaluation runs (see [`Engine::eval_scheduled`]).
#[derive(Clone, Copy)]
enum Steps {
    /// Every block's.
    All,
    /// All but the constant blocks' (a minor step).
    Minor,
    /// Those a zero-crossing evaluation needs (`Engine::crossing_steps`).
    Crossing,
}

/// How many rounds of [`crate::block::Block::settle`] may pass before the modes count as inconsistent.
const MAX_SETTLE_ROUNDS: usize = 100;

/// What went non-finite in a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NonFiniteValue {
    /// The block's output with this index.
    Output(usize),
    /// The derivative of the block's state with this index (within the block).
    Derivative(usize),
}

/// The first block found producing a non-finite value, and when. Stored as indices (nothing is
/// formatted during a run: the solver may recover from the stage); [`NonFiniteSource::describe`]
/// names them for a message.
#[derive(Clone, Debug, PartialEq)]
pub struct NonFiniteSource {
    /// Index of the block in the diagram.
    pub block: usize,
    /// Which of its values.
    pub value: NonFiniteValue,
    /// s.
    pub t: f64,
}

impl NonFiniteSource {
    /// The block's name and what went bad: `"output 'out'"` or `"derivative of x[0]"`.
    pub fn describe(&self, diagram: &Diagram) -> (String, String) {
        let blk = &diagram.blocks[self.block];
        let what = match self.value {
            NonFiniteValue::Output(o) => format!("output '{}'", blk.block.outputs()[o].name),
            NonFiniteValue::Derivative(k) => format!("derivative of {}", blk.block.state_name(k)),
        };
        (blk.name.clone(), what)
    }
}

/// Everything that changes during a run (MuJoCo's mjData): states, signals, modes, the recorder.
pub struct RunState {
    /// Every block output, at the slots of the diagram's layout.
    pub signals: Vec<f64>,
    /// The continuous states.
    pub x: Vec<f64>,
    /// The blocks' work slots (discrete states and modes).
    pub work: Vec<f64>,
    scratch: Vec<Box<dyn Any + Send>>,
    fired: Vec<bool>,
    /// Each block's next time event (∞ when none).
    next_time_event: Vec<f64>,
    /// The earliest of them.
    next_time_event_min: f64,
    /// What the run records, and where the rows go.
    pub recorder: Recorder,
    /// Set when a derivative went non-finite: the block to blame.
    pub non_finite: Option<NonFiniteSource>,
    /// Derivatives re-evaluated to find the block to blame (sized once, used only then).
    blame_dxdt: Vec<f64>,
    /// Set when modes did not settle at an event: (block, time).
    pub unsettled: Option<(String, f64)>,
    /// Called at each recorded point with the time and, under `method = "auto"`, the method in
    /// use (progress reporting).
    pub progress: Option<super::ProgressFn>,
    /// Under `method = "auto"`: the method in use (see [`System::method_changed`]).
    pub method: Option<Method>,
    /// Takes animation frames at its times (from the solver's dense output), when asked for.
    pub(crate) frames: Option<FrameSampler>,
    /// End the run at its next located zero crossing, after the handlers ran (see
    /// [`Engine::checkpoint`]).
    pub stop_at_crossing: bool,
    /// The located zero crossings of this run, in order (see [`EventLog`]).
    pub events: EventLog,
}

/// The engine's side of a checkpoint: everything of the run state that the rest of a run reads
/// (states, work slots, outputs, the blocks' scratch, pending time events); the recording is not
/// part of it. See [`Engine::checkpoint`].
pub struct EngineCheckpoint {
    t: f64,
    x: Vec<f64>,
    work: Vec<f64>,
    signals: Vec<f64>,
    /// Behind a lock only so that a checkpoint can be shared between threads (a scratch is
    /// `Send`, not `Sync`); it is only ever read, to copy from.
    scratch: std::sync::Mutex<Vec<Box<dyn Any + Send>>>,
    next_time_event: Vec<f64>,
    next_time_event_min: f64,
}

impl EngineCheckpoint {
    /// The time it was taken at, s.
    pub fn time(&self) -> f64 {
        self.t
    }
}

/// A diagram and its run state.
pub struct Engine<'d> {
    /// The diagram it runs (shared, never changed).
    pub diagram: &'d Diagram,
    /// What changes during the run.
    pub run: RunState,
    /// The block instance each block index dispatches to: the diagram's own, or the run's
    /// [`ParameterSet`]'s where it overrides the block's parameters.
    blocks: Vec<&'d dyn Block>,
    stateful: Vec<usize>,
    crossing: Vec<usize>,
    /// Per block of `crossing`: whether it gives its zero-crossing functions from its inputs
    /// ([`Block::crossings_from_inputs`]).
    crossing_from_inputs: Vec<bool>,
    /// What a zero-crossing evaluation at a point whose outputs are not current evaluates when
    /// a block of `crossing` gives its functions from its inputs (`None` otherwise): the minor
    /// steps of the blocks upstream of those blocks' inputs and of the other crossing blocks
    /// with their own upstream ([`crate::diagram::schedule::feeding_blocks`]). A contact
    /// group's separations then cost its members' kinematics, not its forces and what they
    /// feed.
    crossing_steps: Option<Vec<Step<'d>>>,
    /// How each block is evaluated (called, or fused into sparse sums).
    plan: LinearPlan,
    /// The diagram's schedule without the blocks the plan skips, as steps (initialization and
    /// events).
    steps: Vec<Step<'d>>,
    /// The same without blocks whose outputs are constant (every minor step); `None` when no
    /// step's block has constant outputs, so that the list would be `steps` again (read with
    /// `Engine::minor_steps`): a 20,000-joint chain's two lists were 3.8 MB each.
    minor_steps: Option<Vec<Step<'d>>>,
    /// The blocks that are called (not fused), in index order: only they can have modes,
    /// events and time events.
    called: Vec<usize>,
    /// Whether a called block owns states. Only then do minor steps copy the solver's state
    /// into `run.x` (fused rows and sums read the solver's slice directly), and only then is
    /// there a copy to compare against for the output cache below.
    copy_states: bool,
    /// The time at which `run.signals` holds the outputs of `run.x`, if they are current: the
    /// solver often asks for zero crossings and a record at the point its last stage evaluated.
    evaluated_at: Option<f64>,
    /// Set while outputs are evaluated only to be recorded inside a step (refined rows,
    /// samples): passed to the blocks as [`Ctx::interior`].
    interior: bool,
    /// The run's signals and `run.x` saved across an interior evaluation (sized once): see
    /// [`Engine::enter_interior`].
    saved_signals: Vec<f64>,
    saved_x: Vec<f64>,
    /// Where a fused block evaluated as a sum ([`Mode::Sum`]) is written before it is copied to
    /// its output.
    sum_scratch: Vec<f64>,
    /// Which states each derivative reads, worked out with the engine when the model asks for
    /// an implicit method (whose difference Jacobian groups its columns by it), so that the run
    /// does not allocate for it; otherwise worked out when a solver asks.
    dependencies: Option<StateDependencies>,
    /// The island integration's restricted evaluations (`sim::islands`): per block, which
    /// island's evaluations call it (`EVERY_ISLAND`, `NO_ISLAND` or a body whose island does:
    /// see `sim::islands`); empty until [`Engine::set_island_blocks`].
    island_blocks: Vec<u32>,
    /// The bodies of the island the evaluations serve (sized by [`Engine::set_island_blocks`]).
    island_mask: Vec<bool>,
    /// Whether evaluations are restricted to `island_mask`'s island.
    restricted: bool,
}

/// Which blocks feed the zero-crossing functions computed from the inputs (`crossing[i]` with
/// `from_inputs[i]`; the others read their block's outputs, so the block itself runs too):
/// `None` when no function is computed from the inputs (the crossing evaluations are whole).
fn crossing_feeders(
    diagram: &Diagram,
    crossing: &[usize],
    from_inputs: &[bool],
) -> Option<Vec<bool>> {
    if !from_inputs.contains(&true) {
        return None;
    }
    let targets: Vec<(usize, bool)> = crossing
        .iter()
        .zip(from_inputs)
        .map(|(&b, &from_inputs)| (b, !from_inputs))
        .collect();
    Some(feeding_blocks(&diagram.blocks, diagram.lines(), &targets))
}

/// Whether evaluating block `b`'s outputs can read or change nothing: it has no input or output
/// slots, states, work slots or zero crossings, and the default scratch (`()`), so the
/// [`Ctx`] its `outputs_eval` would get is empty but for the time. The frame network's blocks
/// once the mechanism is lowered (RigidTransform, Solid, WorldFrame, …): 100,001 of a
/// 20,000-joint URDF chain's 120,005 blocks, whose two steps each (the full and the minor list,
/// 48 bytes a step) were 12.6 MB of each engine. Such a block stays among the called blocks
/// (initialization, events and time events still see it).
fn evaluates_nothing(diagram: &Diagram, b: usize, scratch: &(dyn Any + Send)) -> bool {
    let c = &diagram.blocks[b];
    c.input_slots.is_empty()
        && c.output_slots.is_empty()
        && c.states.is_empty()
        && c.work.is_empty()
        && c.zero_crossings.is_empty()
        && scratch.is::<()>()
}

impl RunState {
    /// The run state of a fresh engine over `diagram` with `blocks`: zeroed signals
    /// (`extra_signals` more after the diagram's), states and work, each block's scratch, no
    /// time event or crossing pending.
    fn new(
        diagram: &Diagram,
        recorder: Recorder,
        blocks: &[&dyn Block],
        extra_signals: usize,
    ) -> RunState {
        RunState {
            signals: vec![0.0; diagram.signal_len + extra_signals],
            x: vec![0.0; diagram.num_states],
            work: vec![0.0; diagram.num_work],
            scratch: blocks.iter().map(|b| b.create_scratch()).collect(),
            fired: vec![false; diagram.zero_crossing_directions.len()],
            next_time_event: vec![f64::INFINITY; diagram.blocks.len()],
            next_time_event_min: f64::INFINITY,
            recorder,
            non_finite: None,
            blame_dxdt: vec![0.0; diagram.num_states],
            unsettled: None,
            progress: None,
            method: None,
            frames: None,
            stop_at_crossing: false,
            events: EventLog::new(),
        }
    }
}

impl<'d> Engine<'d> {
    /// Sizes every buffer for `diagram` (the only allocation of a run besides the recording),
    /// with linear blocks fused (see [`super::linear`]).
    pub fn new(diagram: &'d Diagram, recorder: Recorder) -> Self {
        Self::with_fusion(diagram, recorder, true)
    }

    /// Like [`Engine::new`], choosing whether linear blocks are fused or called one by one.
    pub fn with_fusion(diagram: &'d Diagram, recorder: Recorder, fuse: bool) -> Self {
        Self::with_parameters(diagram, recorder, fuse, None)
    }

    /// Like [`Engine::with_fusion`], with the blocks that `parameters` overrides dispatched to its
    /// instances (see [`crate::diagram::parameters`]). The set must fit the diagram
    /// ([`ParameterSet::fits`]).
    pub fn with_parameters(
        diagram: &'d Diagram,
        recorder: Recorder,
        fuse: bool,
        parameters: Option<&'d ParameterSet>,
    ) -> Self {
        let blocks: Vec<&'d dyn Block> = (0..diagram.blocks.len())
            .map(|b| {
                parameters
                    .and_then(|p| p.block(b))
                    .unwrap_or(&*diagram.blocks[b].block)
            })
            .collect();
        Self::with_blocks(diagram, recorder, fuse, blocks, 0)
    }

    /// The engine dispatching block `b` to `blocks[b]` (an instance of the diagram's block, or a
    /// wrapper around it), with `extra_signals` values after the diagram's signals in the signal
    /// buffer (`run.signals[diagram.signal_len..]`), which no block of the diagram reads or
    /// writes: the linearization's input perturbations live there (see
    /// [`crate::sim::linearize`]).
    pub(crate) fn with_blocks(
        diagram: &'d Diagram,
        recorder: Recorder,
        fuse: bool,
        blocks: Vec<&'d dyn Block>,
        extra_signals: usize,
    ) -> Self {
        let run = RunState::new(diagram, recorder, &blocks, extra_signals);
        let stateful: Vec<usize> = (0..diagram.blocks.len())
            .filter(|&b| !diagram.blocks[b].states.is_empty())
            .collect();
        let crossing: Vec<usize> = (0..diagram.blocks.len())
            .filter(|&b| !diagram.blocks[b].zero_crossings.is_empty())
            .collect();
        let crossing_from_inputs: Vec<bool> = crossing
            .iter()
            .map(|&b| blocks[b].crossings_from_inputs())
            .collect();
        let plan = if fuse {
            LinearPlan::build_with(diagram, &blocks)
        } else {
            LinearPlan::none(diagram)
        };
        // Only what must run: skipped (fused, unread) blocks and blocks whose evaluation has
        // nothing to read or write leave the schedule, and fused integrators leave the list of
        // blocks whose derivatives are called.
        let steps_where = |keep: &dyn Fn(usize) -> bool| -> Vec<Step<'d>> {
            let mut steps: Vec<Step<'d>> = diagram
                .schedule
                .iter()
                .filter(|&&b| keep(b) && !evaluates_nothing(diagram, b, &*run.scratch[b]))
                .filter_map(|&b| Step::of(diagram, &plan, b, blocks[b], fuse))
                .collect();
            // Kept for the run: without the doubling's slack.
            steps.shrink_to_fit();
            steps
        };
        let steps = steps_where(&|_| true);
        let some_constant = diagram.schedule.iter().any(|&b| {
            blocks[b].outputs_are_constant() && !evaluates_nothing(diagram, b, &*run.scratch[b])
        });
        let minor_steps =
            some_constant.then(|| steps_where(&|b| !blocks[b].outputs_are_constant()));
        let crossing_steps = crossing_feeders(diagram, &crossing, &crossing_from_inputs)
            .map(|feeding| steps_where(&|b| feeding[b] && !blocks[b].outputs_are_constant()));
        let called: Vec<usize> = (0..diagram.blocks.len())
            .filter(|&b| plan.mode[b] == Mode::Dispatch)
            .collect();
        let copy_states = called.iter().any(|&b| !diagram.blocks[b].states.is_empty());
        let stateful: Vec<usize> = stateful
            .into_iter()
            .filter(|&b| !plan.fused_integrator[b])
            .collect();
        let (signal_len, state_len) = (run.signals.len(), run.x.len());
        Engine {
            diagram,
            run,
            blocks,
            stateful,
            crossing,
            crossing_from_inputs,
            crossing_steps,
            steps,
            minor_steps,
            called,
            copy_states,
            evaluated_at: None,
            interior: false,
            saved_signals: vec![0.0; signal_len],
            saved_x: vec![0.0; state_len],
            sum_scratch: vec![0.0; plan.sum_scratch_len],
            plan,
            dependencies: super::solver_options(diagram)
                .method
                .may_use_jacobian()
                .then(|| StateDependencies::of(diagram)),
            island_blocks: Vec::new(),
            island_mask: Vec::new(),
            restricted: false,
        }
    }

    /// Prepares restricted evaluations for the island integration: `blocks[b]` says which
    /// island's evaluations call block b (see `sim::islands`), over a mechanism of `bodies`
    /// bodies. Allocates (once, at the run's set-up).
    pub(crate) fn set_island_blocks(&mut self, blocks: Vec<u32>, bodies: usize) {
        self.island_blocks = blocks;
        self.island_mask = vec![false; bodies];
    }

    /// Restricts the evaluations of outputs, derivatives and zero crossings that follow to
    /// the island whose bodies `bodies` marks (`None`: whole evaluations again). A restricted
    /// evaluation calls only the blocks that island needs ([`Engine::set_island_blocks`]) and
    /// passes the mask to them ([`Ctx::island`]): the mechanism evaluates the island's trees,
    /// a contact group its members' pairs; every other output keeps its value. Event handling
    /// is always whole. Copies the mask into a buffer sized once; forgets the output cache.
    pub(crate) fn restrict_to_island(&mut self, bodies: Option<&[bool]>) {
        match bodies {
            Some(mask) => {
                self.island_mask.copy_from_slice(mask);
                self.restricted = true;
            }
            None => self.restricted = false,
        }
        self.evaluated_at = None;
    }

    /// Forgets that the outputs are current, so that the next evaluation recomputes them even
    /// at the same time and state (after something outside the state changed what the blocks
    /// read: a linearization's input perturbation).
    pub(crate) fn forget_outputs(&mut self) {
        self.evaluated_at = None;
    }

    /// Why block `b`'s last evaluation failed, if it says (see
    /// [`crate::block::ConstrainedStates::failure`]).
    pub fn block_failure(&self, b: usize) -> Option<String> {
        (self.blocks[b].constrained_states()?).failure(&*self.run.scratch[b])
    }

    /// What block `b` has to tell the user once the run ends (see
    /// [`crate::block::ConstrainedStates::run_note`]).
    pub fn block_note(&self, b: usize) -> Option<String> {
        (self.blocks[b].constrained_states()?).run_note(&*self.run.scratch[b])
    }

    /// What makes block `b` stiff at its last evaluation (see
    /// [`crate::block::Advice::stiffness`]).
    pub fn block_stiffness(&self, b: usize) -> Option<crate::block::StiffnessNote> {
        (self.blocks[b].advice()?).stiffness(&*self.run.scratch[b])
    }

    /// Number of blocks evaluated by fusion instead of being called.
    pub fn fused_blocks(&self) -> usize {
        self.plan.fused
    }

    /// Number of blocks evaluated in place as scalar kernels instead of being called (see
    /// [`crate::block::ScalarKernel`]).
    pub fn kernel_blocks(&self) -> usize {
        self.steps.iter().filter(|s| s.is_kernel()).count()
    }

    /// The block instance block `b` dispatches to (the diagram's or the parameter set's) and
    /// its scratch, as the last evaluation or event left it.
    pub(crate) fn block_with_scratch(&self, b: usize) -> (&'d dyn Block, &(dyn Any + Send)) {
        (self.blocks[b], &*self.run.scratch[b])
    }

    /// Block `b`'s work slots, as the last evaluation or event left them.
    pub(crate) fn block_work(&self, b: usize) -> &[f64] {
        &self.run.work[self.diagram.blocks[b].work.clone()]
    }

    /// The fused evaluation plan (which blocks are fused, inlined or materialized).
    pub fn linear_plan(&self) -> &LinearPlan {
        &self.plan
    }

    /// Initializes states and modes at `t0`: `initialize`, first outputs, start-time samples, settle.
    /// Starts a new recording (the previous run's rows are dropped, its memory kept) and clears
    /// the previous run's diagnostics. Returns the initial state vector.
    pub fn initialize(&mut self, t0: f64) -> Vec<f64> {
        self.initialize_from(t0, None)
    }

    /// The blocks a time event at `t` is due for: those whose next time event is at `t` or
    /// before (within the 1e-12·max(1, |t|) s that [`System::handle_events`] allows).
    pub(crate) fn time_events_due(&self, t: f64) -> impl Iterator<Item = usize> + '_ {
        let tolerance = 1e-12 * t.abs().max(1.0);
        (0..self.run.next_time_event.len())
            .filter(move |&b| self.run.next_time_event[b] <= t + tolerance)
    }

    /// [`Engine::initialize`] from a state of the caller's choosing: the blocks initialize with
    /// their own initial conditions, then `x0` replaces the states before the first outputs, the
    /// start-time samples (a ZeroOrderHold holds x0's value) and the settling of the modes. Work
    /// a block derives from its states inside its `initialize` (not in `settle`) keeps the value
    /// of its own initial conditions. `x0` must have [`Diagram::num_states`] values.
    pub fn initialize_from(&mut self, t0: f64, x0: Option<&[f64]>) -> Vec<f64> {
        let d = self.diagram;
        self.start_run_at(t0);
        self.keep_crossing_steps_if_history_free();
        for (b, blk) in d.blocks.iter().enumerate() {
            if blk.states.is_empty() && blk.work.is_empty() {
                continue; // nothing to initialize
            }
            let block = self.blocks[b];
            let mut ctx = self.ctx(b, t0);
            block.initialize(&mut ctx);
        }
        if let Some(x0) = x0 {
            self.run.x.copy_from_slice(x0);
        }
        self.eval_outputs(t0);
        for i in 0..self.called.len() {
            let (b, block) = (self.called[i], self.blocks[self.called[i]]);
            if block.samples_at_start() {
                let mut ctx = self.ctx(b, t0);
                if block.handle_event(&mut ctx, &[], true) {
                    // The blocks after it (in schedule order) sample what it now outputs: a
                    // joint's motion filter started at q_ref(0) before the mechanism reads it.
                    self.eval_outputs(t0);
                }
            }
        }
        self.settle(t0, false);
        self.evaluated_at = None;
        self.refresh_time_events(t0);
        self.run.x.clone()
    }

    /// Drops the crossing steps (so every zero-crossing evaluation is a whole one, and events
    /// evaluate as they always did) when some block declares rigid constraints
    /// ([`crate::block::PhysicalBlock::has_rigid_constraints`]: a RigidContact, a rigid group, a
    /// joint's limits). The mechanism that solves them warm-starts each solve from the last and
    /// reads the force inputs the previous evaluation left, so its outputs at a point depend
    /// on the evaluations before it (see [`Engine::enter_interior`]): a g from the inputs,
    /// which leaves the force blocks' signals from the last whole evaluation, or an event
    /// that reads outputs instead of evaluating again, would change its warm start and the
    /// run's bits. Once per run (the scan may allocate: a RigidContact builds its constraint).
    fn keep_crossing_steps_if_history_free(&mut self) {
        if self.crossing_steps.is_some() && self.declares_rigid_constraints() {
            self.crossing_steps = None;
        }
    }

    /// Whether some block declares rigid constraints (see
    /// [`Engine::keep_crossing_steps_if_history_free`]).
    pub(crate) fn declares_rigid_constraints(&self) -> bool {
        self.blocks
            .iter()
            .any(|b| b.physical().is_some_and(|p| p.has_rigid_constraints()))
    }

    /// A new run from time `t` (an initialization or a checkpoint): a new recording whose rows
    /// and animation frames start at `t`, and no diagnostics of the previous run.
    fn start_run_at(&mut self, t: f64) {
        self.run.recorder.restart_at(t);
        if let Some(frames) = self.run.frames.as_mut() {
            frames.skip_before(t);
        }
        self.run.non_finite = None;
        self.run.unsettled = None;
        self.run.events.clear();
        self.evaluated_at = None;
    }

    /// The run state at `t` right after an event's handlers ran (where the run state's `x` is
    /// current), to continue from with [`Engine::restore`]. The blocks' scratch is copied through
    /// [`crate::block::Block::clone_scratch`].
    pub fn checkpoint(&self, t: f64) -> EngineCheckpoint {
        EngineCheckpoint {
            t,
            x: self.run.x.clone(),
            work: self.run.work.clone(),
            signals: self.run.signals.clone(),
            scratch: std::sync::Mutex::new(
                self.blocks
                    .iter()
                    .zip(&self.run.scratch)
                    .map(|(block, s)| block.clone_scratch(&**s))
                    .collect(),
            ),
            next_time_event: self.run.next_time_event.clone(),
            next_time_event_min: self.run.next_time_event_min,
        }
    }

    /// Puts the run state back to `checkpoint` and starts a new recording there: the
    /// counterpart of [`Engine::initialize`] for a run that continues from a checkpoint. Returns
    /// the state vector, or [`super::RunOptionsError::ForeignCheckpoint`] when the checkpoint was taken on another diagram (its
    /// buffers do not fit this one's; the run state is then untouched).
    pub fn restore(
        &mut self,
        checkpoint: &EngineCheckpoint,
    ) -> Result<Vec<f64>, super::RunOptionsError> {
        let fits = checkpoint.x.len() == self.run.x.len()
            && checkpoint.work.len() == self.run.work.len()
            && checkpoint.signals.len() == self.run.signals.len()
            && checkpoint.next_time_event.len() == self.run.next_time_event.len();
        if !fits {
            return Err(super::RunOptionsError::ForeignCheckpoint {
                checkpoint_states: checkpoint.x.len(),
                checkpoint_signals: checkpoint.signals.len(),
                states: self.run.x.len(),
                signals: self.run.signals.len(),
            });
        }
        self.start_run_at(checkpoint.t);
        self.keep_crossing_steps_if_history_free();
        self.run.x.copy_from_slice(&checkpoint.x);
        self.run.work.copy_from_slice(&checkpoint.work);
        self.run.signals.copy_from_slice(&checkpoint.signals);
        // Never poisoned: nothing panics while it is held.
        let saved = checkpoint
            .scratch
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (b, block) in self.blocks.iter().enumerate() {
            self.run.scratch[b] = block.clone_scratch(&*saved[b]);
        }
        self.run
            .next_time_event
            .copy_from_slice(&checkpoint.next_time_event);
        self.run.next_time_event_min = checkpoint.next_time_event_min;
        Ok(self.run.x.clone())
    }

    #[inline(always)]
    fn ctx(&mut self, b: usize, t: f64) -> Ctx<'_> {
        let blk = &self.diagram.blocks[b];
        let r = &mut self.run;
        let mut ctx = Ctx::new(
            t,
            &mut r.signals,
            &blk.input_slots,
            &blk.output_slots,
            &mut r.x[blk.states.clone()],
            &mut r.work[blk.work.clone()],
            &mut *r.scratch[b],
        );
        ctx.island = self.restricted.then_some(&self.island_mask[..]);
        ctx
    }

    /// The steps of a minor evaluation: the schedule's without the blocks whose outputs are
    /// constant.
    fn minor_steps(&self) -> &[Step<'d>] {
        self.minor_steps.as_deref().unwrap_or(&self.steps)
    }

    /// Evaluates the outputs at a point inside a step only to record them ([`Ctx::interior`]),
    /// first saving what the run's next evaluation reads: the signals (the blocks evaluated
    /// first in the schedule read inputs left by the previous evaluation: a rigid mechanism
    /// solves once with them before the blocks that apply forces have run, and that solve moves
    /// its warm start) and `run.x`. [`Engine::leave_interior`] restores them, so that the run
    /// goes on as if nothing had been recorded: with `refine = 1` and `8`,
    /// models/turntable.toml under trbdf2 took 4,103 and 7,267 steps before. Copies into
    /// buffers sized once; does not allocate.
    fn enter_interior(&mut self, t: f64, x: &[f64]) {
        self.saved_signals.copy_from_slice(&self.run.signals);
        self.saved_x.copy_from_slice(&self.run.x);
        self.interior = true;
        self.outputs_at(t, x);
        self.interior = false;
    }

    /// Restores the signals and `run.x` that [`Engine::enter_interior`] saved, and forgets the
    /// output cache: the blocks' scratch now holds the interior point's work (a mechanism
    /// without rigid contacts keeps its forward kinematics there for `derivatives`), so the
    /// run's next request evaluates again, from the run's own signals. Serving the cache here
    /// doubled box_on_incline's steps (its derivatives read the recorded row's kinematics).
    fn leave_interior(&mut self) {
        self.run.signals.copy_from_slice(&self.saved_signals);
        self.run.x.copy_from_slice(&self.saved_x);
        self.evaluated_at = None;
    }

    /// Whether the outputs are current for `(t, x)`: evaluated at `t` from the same state
    /// bits, with no work changed since (only when called blocks own states: otherwise the
    /// engine keeps no copy of the state to compare with).
    #[inline]
    fn outputs_current_at(&self, t: f64, x: &[f64]) -> bool {
        self.copy_states && self.evaluated_at == Some(t) && same_bits(&self.run.x, x)
    }

    /// Makes the outputs current for `(t, x)`, skipping the evaluation when they already are.
    #[inline]
    fn outputs_at(&mut self, t: f64, x: &[f64]) {
        if !self.copy_states {
            if !self.minor_steps().is_empty() {
                self.eval_scheduled(t, Steps::Minor, Some(x));
            }
            return;
        }
        if self.outputs_current_at(t, x) {
            return;
        }
        self.run.x.copy_from_slice(x);
        self.eval_scheduled(t, Steps::Minor, None);
        self.evaluated_at = Some(t);
    }

    /// Makes the inputs of the blocks that give their zero-crossing functions from their inputs
    /// current for `(t, x)` (and the other crossing blocks' outputs): evaluates
    /// `crossing_steps` only. The outputs are then not current ([`Engine::outputs_at`]
    /// evaluates again at any point).
    fn crossing_inputs_at(&mut self, t: f64, x: &[f64]) {
        if self.copy_states {
            self.run.x.copy_from_slice(x);
            self.eval_scheduled(t, Steps::Crossing, None);
        } else {
            self.eval_scheduled(t, Steps::Crossing, Some(x));
        }
    }

    /// Evaluates all outputs at `t` from the run state's `x` (`run.x`), which is current after
    /// [`Engine::initialize`] and events; to evaluate at another state, write it to `run.x` first.
    pub fn eval_outputs(&mut self, t: f64) {
        self.eval_scheduled(t, Steps::All, None);
    }

    /// Evaluates the outputs at `t`: every block's ([`Steps::All`]), or all but the constant
    /// ones, which keep the values of the last full evaluation (a minor step), or those a
    /// zero-crossing evaluation needs ([`Steps::Crossing`]). Fused rows read the states from
    /// `x`, or from the run state's when `None`; called blocks always read the run state's.
    #[inline]
    fn eval_scheduled(&mut self, t: f64, which: Steps, x: Option<&[f64]>) {
        self.evaluated_at = None;
        let interior = self.interior;
        let steps = match which {
            Steps::All => &self.steps,
            Steps::Minor => self.minor_steps.as_ref().unwrap_or(&self.steps),
            Steps::Crossing => self.crossing_steps.as_deref().unwrap_or(&[]),
        };
        let (run, plan, sum_scratch) = (&mut self.run, &self.plan, &mut self.sum_scratch);
        let island = self.restricted.then_some(&self.island_mask[..]);
        for step in steps {
            match step {
                Step::Call(call) => {
                    if let Some(mask) = island {
                        match self.island_blocks[call.index] {
                            super::islands::EVERY_ISLAND => {}
                            super::islands::NO_ISLAND => continue,
                            body if !mask[body as usize] => continue,
                            _ => {}
                        }
                    }
                    let mut ctx = Ctx::new(
                        t,
                        &mut run.signals,
                        call.inputs,
                        call.outputs,
                        &mut run.x[call.states.clone()],
                        &mut run.work[call.work.clone()],
                        &mut *run.scratch[call.index],
                    );
                    ctx.interior = interior;
                    ctx.island = island;
                    call.block.outputs_eval(&mut ctx);
                }
                Step::Rows(rows) => {
                    let states = x.unwrap_or(&run.x);
                    for row in &plan.rows[rows.start as usize..rows.end as usize] {
                        run.signals[row.target as usize] = plan.eval(row, &run.signals, states);
                    }
                }
                Step::Sum { sum, output } => {
                    let states = x.unwrap_or(&run.x);
                    let scratch = &mut sum_scratch[..output.len()];
                    plan.sums[*sum as usize].evaluate(&run.signals, states, scratch);
                    run.signals[output.clone()].copy_from_slice(scratch);
                }
                &Step::Clamp {
                    input,
                    output,
                    lower,
                    upper,
                } => run.signals[output] = kernel::clamp(run.signals[input], lower, upper),
                &Step::Product2 {
                    inputs: [a, b],
                    divide,
                    output,
                } => {
                    let first = kernel::factor(1.0, divide[0], run.signals[a]);
                    run.signals[output] = kernel::factor(first, divide[1], run.signals[b]);
                }
                &Step::Function {
                    function,
                    input,
                    output,
                } => run.signals[output] = function.eval(run.signals[input], t),
                Step::CopyState { output, state } => {
                    run.signals[*output] = x.unwrap_or(&run.x)[*state];
                }
                Step::CopyStates { output, states } => {
                    let x = x.unwrap_or(&run.x);
                    run.signals[output.clone()].copy_from_slice(&x[states.clone()]);
                }
            }
        }
    }

    /// Re-evaluates and lets blocks update modes until none changes; returns whether any did.
    /// Modes that still flip after [`MAX_SETTLE_ROUNDS`] rounds are recorded in `run.unsettled`.
    /// A change of a block whose events keep the dynamics ([`Block::events_keep_dynamics`]:
    /// bookkeeping that no output reads) neither counts nor asks for another round.
    ///
    /// With `outputs_current`, the outputs already are those of a whole evaluation at
    /// (t, `run.x`) with the blocks' work as it is: the first round does not evaluate again.
    /// Afterwards [`Engine::evaluated_at`] is `Some(t)` when the outputs are still current: no
    /// block's `settle` reported a change in the last round (a change that keeps the dynamics
    /// may still change what the block's zero-crossing functions read, or the signed zeros of
    /// its outputs: the watch slots of a contact group).
    fn settle(&mut self, t: f64, outputs_current: bool) -> bool {
        let d = self.diagram;
        let mut any = false;
        let mut last = 0;
        let mut current = outputs_current;
        for _ in 0..MAX_SETTLE_ROUNDS {
            if !current {
                self.eval_outputs(t);
            }
            current = true;
            let mut changed = false;
            for i in 0..self.called.len() {
                let (b, block) = (self.called[i], self.blocks[self.called[i]]);
                let mut ctx = self.ctx(b, t);
                if block.settle(&mut ctx) {
                    current = false;
                    if !block.events_keep_dynamics() {
                        changed = true;
                        last = b;
                    }
                }
            }
            if !changed {
                self.evaluated_at = (current && self.copy_states).then_some(t);
                return any;
            }
            any = true;
        }
        self.evaluated_at = None;
        self.run.unsettled = Some((d.blocks[last].name.clone(), t));
        any
    }

    fn refresh_time_events(&mut self, t: f64) {
        for &b in &self.called {
            let w = &self.run.work[self.diagram.blocks[b].work.clone()];
            self.run.next_time_event[b] = self.blocks[b]
                .next_time_event(t, w)
                .filter(|te| *te > t)
                .unwrap_or(f64::INFINITY);
        }
        self.run.next_time_event_min = self
            .run
            .next_time_event
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
    }

    /// Outputs at `(t, x)`, then every stateful block's derivatives into `dxdt`.
    #[inline]
    fn evaluate_derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.outputs_at(t, x);
        let d = self.diagram;
        for i in 0..self.stateful.len() {
            let b = self.stateful[i];
            let (range, block) = (d.blocks[b].states.clone(), self.blocks[b]);
            let mut ctx = self.ctx(b, t);
            block.derivatives(&mut ctx, &mut dxdt[range]);
        }
        self.plan.derivatives(&self.run.signals, x, dxdt);
    }

    /// [`System::handle_events`] with whole evaluations. `outputs_current`: the outputs are
    /// those of a whole evaluation at `(t, x)` (the solver recorded the point just before,
    /// `RecordKind::EventBefore`). Every output of a whole evaluation is a function of (t, x)
    /// and the blocks' work slots, which change only in handlers (which then say so) and
    /// `settle`, so they are read, not evaluated again (the constant blocks' outputs too: they
    /// were evaluated at the start and after every event's handlers). Leaves
    /// [`Engine::evaluated_at`] at `Some(t)` when the outputs after the event are current (no
    /// handler and no `settle` changed anything: see [`Engine::settle`]), so that the record
    /// after the event reads them.
    fn handle_events_whole(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
        outputs_current: bool,
    ) -> EventOutcome {
        self.run.x.copy_from_slice(x);
        if !outputs_current {
            self.eval_outputs(t);
        }
        self.run.fired.iter_mut().for_each(|f| *f = false);
        for &k in crossed {
            self.run.fired[k] = true;
        }
        let d = self.diagram;
        let tolerance = 1e-12 * t.abs().max(1.0);
        let (mut changed, mut handlers_changed) = (false, false);
        // Whether a block is due whose time event may change the dynamics (or whether none is
        // due at all: then the instant counts as a change, as it always did).
        let (mut any_due, mut dynamic_due) = (false, false);
        for i in 0..self.called.len() {
            let (b, blk) = (self.called[i], &d.blocks[self.called[i]]);
            let due = time_event && self.run.next_time_event[b] <= t + tolerance;
            let keeps = self.blocks[b].events_keep_dynamics();
            any_due |= due;
            dynamic_due |= due && !keeps;
            let any_fired = self.run.fired[blk.zero_crossings.clone()]
                .iter()
                .any(|f| *f);
            if !due && !any_fired {
                continue;
            }
            if any_fired {
                self.run.events.push(t, b);
            }
            let zc = blk.zero_crossings.clone();
            // The fired flags are read while the context borrows the rest of the run state.
            let fired = std::mem::take(&mut self.run.fired);
            let block = self.blocks[b];
            let mut ctx = self.ctx(b, t);
            let handled = block.handle_event(&mut ctx, &fired[zc], due);
            // States or work changed: the outputs are evaluated again before `settle`.
            handlers_changed |= handled;
            changed |= handled && !keeps;
            self.run.fired = fired;
        }
        changed |= self.settle(t, outputs_current && !handlers_changed);
        self.refresh_time_events(t);
        x.copy_from_slice(&self.run.x);
        EventOutcome {
            state_changed: changed || (time_event && (dynamic_due || !any_due)),
            stop: self.run.unsettled.is_some()
                || (self.run.stop_at_crossing && !crossed.is_empty()),
        }
    }

    /// Finds the block whose output or derivative first went non-finite (schedule order).
    fn blame_non_finite(&mut self, t: f64, dxdt: &[f64]) {
        let d = self.diagram;
        for &b in &d.schedule {
            let blk = &d.blocks[b];
            for (o, slot) in blk.output_slots.iter().enumerate() {
                if self.run.signals[slot.range()]
                    .iter()
                    .any(|v| !v.is_finite())
                {
                    self.run.non_finite = Some(NonFiniteSource {
                        block: b,
                        value: NonFiniteValue::Output(o),
                        t,
                    });
                    return;
                }
            }
        }
        if let Some(k) = dxdt.iter().position(|v| !v.is_finite()) {
            if let Some(b) = d.block_index_of_state(k) {
                self.run.non_finite = Some(NonFiniteSource {
                    block: b,
                    value: NonFiniteValue::Derivative(k - d.blocks[b].states.start),
                    t,
                });
            }
        }
    }
}

impl System for Engine<'_> {
    fn state_dim(&self) -> usize {
        self.diagram.num_states
    }

    fn zero_crossing_dim(&self) -> usize {
        self.diagram.zero_crossing_directions.len()
    }

    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.diagram.zero_crossing_directions[index]
    }

    /// The owning block's [`Block::events_keep_dynamics`] (a scan of the blocks with
    /// crossings; asked only for the functions that fired on a straddling step).
    fn crossing_keeps_dynamics(&self, index: usize) -> bool {
        let d = self.diagram;
        self.crossing
            .iter()
            .find(|&&b| d.blocks[b].zero_crossings.contains(&index))
            .is_some_and(|&b| self.blocks[b].events_keep_dynamics())
    }

    /// The solver checks what this returns for non-finite values and reports the bad ones to
    /// [`System::non_finite_derivative`], which finds the block to blame.
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.evaluate_derivatives(t, x, dxdt);
    }

    /// Re-evaluates `f(t, x)` and blames the first block (schedule order) whose output or
    /// derivative is non-finite. The latest blame wins: the solver recovers from non-finite
    /// trial stages, so an earlier one need not be the one that stopped the run.
    fn non_finite_derivative(&mut self, t: f64, x: &[f64]) {
        let mut dxdt = std::mem::take(&mut self.run.blame_dxdt);
        // A whole evaluation: under an island's restriction the other islands' blocks keep
        // outputs from earlier trial evaluations, and the blame scans every block's outputs.
        let restricted = std::mem::replace(&mut self.restricted, false);
        self.evaluated_at = None;
        self.evaluate_derivatives(t, x, &mut dxdt);
        if dxdt.iter().any(|v| !v.is_finite()) {
            self.blame_non_finite(t, &dxdt);
        }
        self.restricted = restricted;
        self.evaluated_at = None;
        self.run.blame_dxdt = dxdt;
    }

    /// From the outputs when they are current at `(t, x)`; otherwise, when blocks give their
    /// functions from their inputs, from the blocks upstream of them only (`crossing_steps`).
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        let current = self.outputs_current_at(t, x);
        let from_inputs = self.crossing_steps.is_some() && !current;
        if from_inputs {
            self.crossing_inputs_at(t, x);
        } else {
            self.outputs_at(t, x);
        }
        let d = self.diagram;
        for i in 0..self.crossing.len() {
            let b = self.crossing[i];
            let (range, block) = (d.blocks[b].zero_crossings.clone(), self.blocks[b]);
            let cheap = from_inputs && self.crossing_from_inputs[i];
            let mut ctx = self.ctx(b, t);
            if cheap {
                block.zero_crossings_from_inputs(&mut ctx, &mut g[range]);
            } else {
                block.zero_crossings(&mut ctx, &mut g[range]);
            }
        }
    }

    /// From the wiring: see [`super::sparsity`].
    fn jacobian_sparsity(&self, pattern: &mut crate::solver::SparsityPattern) -> bool {
        let (d, work) = (self.diagram, &self.run.work);
        match &self.dependencies {
            Some(dependencies) => dependencies.fill_pattern(d, work, pattern),
            None => StateDependencies::of(d).fill_pattern(d, work, pattern),
        }
        true
    }

    fn jacobian_sparsity_varies(&self) -> bool {
        match &self.dependencies {
            Some(dependencies) => dependencies.varies(),
            None => StateDependencies::of(self.diagram).varies(),
        }
    }

    fn next_time_event(&self, t: f64) -> Option<f64> {
        // The cached minimum is exact unless it has already passed (then scan for the next one).
        let min = self.run.next_time_event_min;
        let next = if min > t {
            min
        } else {
            self.run
                .next_time_event
                .iter()
                .copied()
                .filter(|te| *te > t)
                .fold(f64::INFINITY, f64::min)
        };
        next.is_finite().then_some(next)
    }

    /// Always with whole evaluations (an island's event included: see
    /// `Engine::restrict_to_island`); the restriction is back in force afterwards.
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        let restricted = std::mem::replace(&mut self.restricted, false);
        // A restricted evaluation's outputs are not whole: evaluated again. Only where the
        // crossing steps are kept: the diagram was checked for rigid constraints, whose
        // mechanism's outputs depend on the evaluations before
        // (`Engine::keep_crossing_steps_if_history_free`).
        let reuse = !restricted && self.crossing_steps.is_some();
        let current = reuse && self.outputs_current_at(t, x);
        let outcome = self.handle_events_whole(t, x, crossed, time_event, current);
        self.restricted = restricted;
        if !reuse {
            self.evaluated_at = None;
        }
        outcome
    }

    fn project(&mut self, t: f64, x: &mut [f64]) -> bool {
        let d = self.diagram;
        let mut changed = false;
        if self
            .stateful
            .iter()
            .filter_map(|&b| self.blocks[b].constrained_states())
            .any(|c| c.projects_at_inputs())
        {
            // Such a block projects with what it saw at the accepted point.
            self.outputs_at(t, x);
        }
        for &b in &self.stateful {
            let Some(constrained) = self.blocks[b].constrained_states() else {
                continue;
            };
            let states = d.blocks[b].states.clone();
            changed |= constrained.project_states(&mut x[states], &mut *self.run.scratch[b]);
        }
        changed
    }

    fn next_sample_time(&self) -> Option<f64> {
        let frame = self.run.frames.as_ref().and_then(FrameSampler::next_time);
        match (frame, self.run.recorder.next_sample_time()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn sample(&mut self, t: f64, x: &[f64]) {
        let frame_due = self.run.frames.as_ref().and_then(FrameSampler::next_time) == Some(t);
        let row_due = self.run.recorder.next_sample_time() == Some(t);
        if !(frame_due || row_due) {
            return;
        }
        // A sample lies inside a step: its evaluation must leave the run as it was.
        self.enter_interior(t, x);
        if let Some(frames) = self.run.frames.as_mut().filter(|_| frame_due) {
            frames.capture(t, x, &self.run.signals);
        }
        if row_due {
            self.run.recorder.sample(t, &self.run.signals);
        }
        self.leave_interior();
    }

    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        // A refined row lies inside an accepted step: recording it must not change the run
        // (issue 27, review: a rigid run differed between `refine = 1` and `refine = 8`).
        let inside = kind == RecordKind::Refined;
        if inside {
            self.enter_interior(t, x);
        } else {
            self.outputs_at(t, x);
        }
        self.run.recorder.record(t, kind, &self.run.signals);
        if inside {
            self.leave_interior();
        }
        if let Some(p) = self.run.progress.as_mut() {
            p(t, self.run.method);
        }
    }

    fn rows_per_step(&self, h: f64) -> usize {
        self.run.recorder.rows_per_step(h)
    }

    fn method_changed(&mut self, _t: f64, method: Method) {
        self.run.method = Some(method);
    }

    fn interrupted(&self) -> bool {
        self.run.recorder.interrupted()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    /// Running the same engine twice gives the same recording, not the two runs appended.
    #[test]
    fn initialize_starts_a_new_recording() {
        let text = r#"
connect = ["x.out -> scope.in1", "x.out -> k.in", "k.out -> x.in"]
[model]
stop_time = 1.0
[blocks.x]
type = "Integrator"
initial = 1.0
[blocks.k]
type = "Gain"
gain = -2.0
[blocks.scope]
type = "Scope"
"#;
        let d = crate::load_model_str("decay.toml", text, &[]).unwrap();
        let mut engine = Engine::new(&d, Recorder::new(&d));
        let options = crate::sim::solver_options(&d);
        let mut solver = Solver::new(d.num_states, 0, options).unwrap();
        let mut runs = Vec::new();
        for _ in 0..2 {
            let x0 = engine.initialize(0.0);
            solver.integrate(&mut engine, 0.0, &x0, 1.0).unwrap();
            runs.push(engine.run.recorder.recording.clone());
        }
        assert!(runs[0].len() > 2);
        assert_eq!(runs[0].times, runs[1].times);
        assert_eq!(runs[0].values, runs[1].values);
        // x = e^{-2t}: the last recorded value at t = 1 (dopri5, default tolerances).
        let last = runs[0].values.last().copied().unwrap();
        assert!((last - (-2.0f64).exp()).abs() < 1e-5, "{last}");
    }

    /// The frame network's blocks (no ports, states or work once the mechanism is lowered) get
    /// no evaluation step, but stay among the called blocks; the joint, the mechanism and the
    /// signal blocks keep theirs.
    #[test]
    fn blocks_with_nothing_to_evaluate_get_no_step() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/pendulum.toml");
        let d = crate::load_model(&path, &[]).unwrap();
        let engine = Engine::new(&d, Recorder::new(&d));
        let stepped: Vec<&str> = (engine.steps.iter())
            .filter_map(|s| match s {
                Step::Call(call) => Some(d.blocks[call.index].name.as_str()),
                _ => None,
            })
            .collect();
        for frame_block in ["world", "gravity", "rod", "bob"] {
            assert!(
                !stepped.contains(&frame_block),
                "{frame_block}: {stepped:?}"
            );
            let b = d.blocks.iter().position(|c| c.name == frame_block).unwrap();
            assert!(engine.called.contains(&b), "{frame_block} is still called");
        }
        for signal_block in ["hinge", "mechanism", "turning"] {
            assert!(
                stepped.contains(&signal_block),
                "{signal_block}: {stepped:?}"
            );
        }
    }
}

#[cfg(test)]
#[path = "crossing_tests.rs"]
mod crossing_tests;

#[cfg(test)]
#[path = "event_reuse_tests.rs"]
mod event_reuse_tests;
