//! The engine: a compiled diagram plus its run state, seen by the solver as one [`System`](crate::solver::System).
//!
//! Each minor step evaluates every block's outputs in schedule order into the flat signal buffer
//! (fused linear blocks as sparse sums, constant outputs not at all), then the state derivatives.
//! The solver's state is copied into the run state's `x` first only when a called block owns
//! states; otherwise fused sums read the solver's vector directly and `run.x` is current only at
//! initialization and events. Nothing here allocates after [`Engine::new`] (the block to blame
//! for a non-finite value is stored as indices; its message is formatted after the run).
//!
//! One stage per file: construction and the block dispatch here; `start` (a run's
//! initialization), `evaluate` (outputs and derivatives at a point), `handling` (events,
//! modes settling, time events), `checkpoint`, `non_finite` (the block to blame) and
//! `system` (the engine as the solver's [`System`](crate::solver::System)).

mod checkpoint;
mod evaluate;
mod handling;
mod non_finite;
mod start;
mod system;

pub use checkpoint::EngineCheckpoint;
pub use non_finite::{NonFiniteSource, NonFiniteValue};

use crate::block::{Block, Ctx};
use crate::diagram::parameters::ParameterSet;
use crate::diagram::schedule::feeding_blocks;
use crate::diagram::Diagram;
use crate::sim::animation::FrameSampler;
use crate::sim::events::EventLog;
use crate::sim::linear::{LinearPlan, Mode};
use crate::sim::recorder::Recorder;
use crate::sim::sparsity::StateDependencies;
use crate::sim::steps::Step;
use crate::solver::Method;
use std::any::Any;

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
    pub progress: Option<crate::sim::ProgressFn>,
    /// Under `method = "auto"`: the method in use (see [`System::method_changed`](crate::solver::System::method_changed)).
    pub method: Option<Method>,
    /// Takes animation frames at its times (from the solver's dense output), when asked for.
    pub(crate) frames: Option<FrameSampler>,
    /// End the run at its next located zero crossing, after the handlers ran (see
    /// [`Engine::checkpoint`]).
    pub stop_at_crossing: bool,
    /// The located zero crossings of this run, in order (see [`EventLog`]).
    pub events: EventLog,
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
    /// The run's signals and `run.x` saved across an interior evaluation: see
    /// [`Engine::enter_interior`]. Empty until a run that may evaluate inside its steps starts
    /// (`Engine::size_interior_buffers`): a 20,000-joint chain's signals are 5.6 MB, and
    /// `check`'s probe, which records no row, never needs them.
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
    /// with linear blocks fused (see [`crate::sim::linear`]).
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
            saved_signals: Vec::new(),
            saved_x: Vec::new(),
            sum_scratch: vec![0.0; plan.sum_scratch_len],
            plan,
            dependencies: crate::sim::solver_options(diagram)
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

    /// A run that records only step ends and has no zero crossing sizes no interior buffers
    /// (`check`'s probe of a 20,000-joint chain: 5.6 MB of signals); a refined row asked for all
    /// the same is recorded, from buffers sized then, and leaves the run's signals as they were.
    #[test]
    fn interior_buffers_only_for_runs_that_evaluate_inside_steps() {
        use crate::solver::{RecordKind, System};
        let text = r#"
connect = ["x.out -> k.in", "k.out -> x.in"]
[model]
stop_time = 1.0
[blocks.x]
type = "Integrator"
initial = 1.0
[blocks.k]
type = "Gain"
gain = -2.0
"#;
        let d = crate::load_model_str("decay.toml", text, &[]).unwrap();
        let mut engine = Engine::new(&d, Recorder::new(&d));
        let x0 = engine.initialize(0.0);
        assert!(engine.saved_signals.is_empty() && engine.saved_x.is_empty());
        let mut dxdt = vec![0.0; x0.len()];
        engine.derivatives(0.0, &x0, &mut dxdt);
        let signals = engine.run.signals.clone();
        let rows = engine.run.recorder.rows();
        engine.record(0.5, &[0.25], RecordKind::Refined);
        assert_eq!(
            engine.run.recorder.rows(),
            rows + 1,
            "the refined row is recorded"
        );
        assert_eq!(engine.saved_signals.len(), engine.run.signals.len());
        assert_eq!(
            engine.run.signals, signals,
            "the run's signals are restored"
        );
        // With a scope the default (smooth) rows lie inside steps: sized at the start.
        let scoped = text.replace("connect = [", "connect = [\"x.out -> scope.in1\", ")
            + "[blocks.scope]\ntype = \"Scope\"\n";
        let d = crate::load_model_str("decay.toml", &scoped, &[]).unwrap();
        let mut engine = Engine::new(&d, Recorder::new(&d));
        engine.initialize(0.0);
        assert_eq!(engine.saved_signals.len(), engine.run.signals.len());
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
mod crossing_tests;

#[cfg(test)]
mod event_reuse_tests;
