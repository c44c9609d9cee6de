//! A run's start: the blocks' initialization, first outputs, start-time samples and settled
//! modes, and what every new run (an initialization or a restored checkpoint) resets.

use super::Engine;

impl<'d> Engine<'d> {
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
    /// of its own initial conditions. `x0` must have [`Diagram::num_states`](crate::diagram::Diagram::num_states) values.
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
    pub(super) fn keep_crossing_steps_if_history_free(&mut self) {
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
    pub(super) fn start_run_at(&mut self, t: f64) {
        self.run.recorder.restart_at(t);
        if let Some(frames) = self.run.frames.as_mut() {
            frames.skip_before(t);
        }
        self.run.non_finite = None;
        self.run.unsettled = None;
        self.run.events.clear();
        self.evaluated_at = None;
        if self.may_evaluate_inside_steps() {
            self.size_interior_buffers();
        }
    }

    /// Whether the run may evaluate the outputs inside a step ([`Engine::enter_interior`]):
    /// rows between step ends (`[output] refine`, the default smooth rows of a run that records
    /// columns), fixed-time rows, animation frames, or a zero crossing found past a step's end
    /// (recorded as a refined row).
    fn may_evaluate_inside_steps(&self) -> bool {
        self.run.recorder.records_inside_steps()
            || self.run.frames.is_some()
            || !self.diagram.zero_crossing_directions.is_empty()
    }
}
