//! The engine: a compiled diagram plus its run state, seen by the solver as one [`System`].
//!
//! Each minor step copies the solver's state into the run state, evaluates every block's outputs
//! in schedule order into the flat signal buffer, then asks each stateful block for its
//! derivatives. Nothing here allocates after [`Engine::new`].

use super::linear::{LinearPlan, Mode};
use super::recorder::Recorder;
use crate::block::Ctx;
use crate::diagram::Diagram;
use crate::solver::{Direction, EventOutcome, RecordKind, System};
use std::any::Any;

/// How many rounds of [`crate::block::Block::settle`] may pass before the modes count as inconsistent.
const MAX_SETTLE_ROUNDS: usize = 100;

/// The first block found producing a non-finite value, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct NonFiniteSource {
    pub block: String,
    /// "output 'out'" or "derivative of x[0]".
    pub what: String,
    pub t: f64,
}

/// Everything that changes during a run (MuJoCo's mjData): states, signals, modes, the recorder.
pub struct RunState {
    pub signals: Vec<f64>,
    pub x: Vec<f64>,
    pub work: Vec<f64>,
    scratch: Vec<Box<dyn Any + Send>>,
    fired: Vec<bool>,
    /// Each block's next time event (∞ when none).
    next_time_event: Vec<f64>,
    /// The earliest of them.
    next_time_event_min: f64,
    pub recorder: Recorder,
    /// Set when a derivative went non-finite: the block to blame.
    pub non_finite: Option<NonFiniteSource>,
    /// Set when modes did not settle at an event: (block, time).
    pub unsettled: Option<(String, f64)>,
    /// Called at each recorded point with the time (progress reporting).
    pub progress: Option<Box<dyn FnMut(f64) + Send>>,
}

/// A diagram and its run state.
pub struct Engine<'d> {
    pub diagram: &'d Diagram,
    pub run: RunState,
    stateful: Vec<usize>,
    crossing: Vec<usize>,
    /// How each block is evaluated (called, or fused into sparse sums).
    plan: LinearPlan,
    /// The diagram's schedule without the blocks the plan skips.
    schedule: Vec<usize>,
    /// The time at which `run.signals` holds the outputs of `run.x`, if they are current: the
    /// solver often asks for zero crossings and a record at the point its last stage evaluated.
    evaluated_at: Option<f64>,
}

impl<'d> Engine<'d> {
    /// Sizes every buffer for `diagram` (the only allocation of a run besides the recording),
    /// with linear blocks fused (see [`super::linear`]).
    pub fn new(diagram: &'d Diagram, recorder: Recorder) -> Self {
        Self::with_fusion(diagram, recorder, true)
    }

    /// Like [`Engine::new`], choosing whether linear blocks are fused or called one by one.
    pub fn with_fusion(diagram: &'d Diagram, recorder: Recorder, fuse: bool) -> Self {
        let run = RunState {
            signals: vec![0.0; diagram.signal_len],
            x: vec![0.0; diagram.num_states],
            work: vec![0.0; diagram.num_work],
            scratch: diagram
                .blocks
                .iter()
                .map(|b| b.block.create_scratch())
                .collect(),
            fired: vec![false; diagram.zero_crossing_directions.len()],
            next_time_event: vec![f64::INFINITY; diagram.blocks.len()],
            next_time_event_min: f64::INFINITY,
            recorder,
            non_finite: None,
            unsettled: None,
            progress: None,
        };
        let stateful: Vec<usize> = (0..diagram.blocks.len())
            .filter(|&b| !diagram.blocks[b].states.is_empty())
            .collect();
        let crossing = (0..diagram.blocks.len())
            .filter(|&b| !diagram.blocks[b].zero_crossings.is_empty())
            .collect();
        let plan = if fuse {
            LinearPlan::build(diagram)
        } else {
            LinearPlan::none(diagram)
        };
        // Only what must run: skipped (fused, unread) blocks leave the schedule, and fused
        // integrators leave the list of blocks whose derivatives are called.
        let schedule = diagram
            .schedule
            .iter()
            .copied()
            .filter(|&b| plan.mode[b] != Mode::Skip)
            .collect();
        let stateful: Vec<usize> = stateful
            .into_iter()
            .filter(|&b| plan.derivative_rows[b].is_empty())
            .collect();
        Engine {
            diagram,
            run,
            stateful,
            crossing,
            plan,
            schedule,
            evaluated_at: None,
        }
    }

    /// Number of blocks evaluated by fusion instead of being called.
    pub fn fused_blocks(&self) -> usize {
        self.plan.fused
    }

    /// Initializes states and modes at `t0`: `initialize`, first outputs, start-time samples, settle.
    /// Returns the initial state vector.
    pub fn initialize(&mut self, t0: f64) -> Vec<f64> {
        let d = self.diagram;
        for (b, blk) in d.blocks.iter().enumerate() {
            let mut ctx = self.ctx(b, t0);
            blk.block.initialize(&mut ctx);
        }
        self.eval_outputs(t0);
        for (b, blk) in d.blocks.iter().enumerate() {
            if blk.block.samples_at_start() {
                let mut ctx = self.ctx(b, t0);
                blk.block.handle_event(&mut ctx, &[], true);
            }
        }
        self.settle(t0);
        self.refresh_time_events(t0);
        self.run.x.clone()
    }

    #[inline(always)]
    fn ctx(&mut self, b: usize, t: f64) -> Ctx<'_> {
        let blk = &self.diagram.blocks[b];
        let r = &mut self.run;
        Ctx::new(
            t,
            &mut r.signals,
            &blk.input_slots,
            &blk.output_slots,
            &mut r.x[blk.states.clone()],
            &mut r.work[blk.work.clone()],
            &mut *r.scratch[b],
        )
    }

    /// Makes the outputs current for `(t, x)`, skipping the evaluation when they already are.
    #[inline]
    fn outputs_at(&mut self, t: f64, x: &[f64]) {
        if self.evaluated_at == Some(t) && self.run.x.as_slice() == x {
            return;
        }
        self.run.x.copy_from_slice(x);
        self.eval_outputs(t);
        self.evaluated_at = Some(t);
    }

    /// Evaluates all outputs at `t` from the run state's `x`.
    #[inline]
    pub fn eval_outputs(&mut self, t: f64) {
        self.evaluated_at = None;
        let d = self.diagram;
        for i in 0..self.schedule.len() {
            let b = self.schedule[i];
            match &self.plan.mode[b] {
                Mode::Dispatch => {
                    let mut ctx = self.ctx(b, t);
                    d.blocks[b].block.outputs_eval(&mut ctx);
                }
                Mode::Skip => {}
                Mode::Rows(rows) => {
                    for r in rows.start as usize..rows.end as usize {
                        let row = &self.plan.rows[r];
                        let value = self.plan.eval(row, &self.run.signals, &self.run.x);
                        self.run.signals[row.target as usize] = value;
                    }
                }
                Mode::CopyStates => {
                    let blk = &d.blocks[b];
                    let out = blk.output_slots[0].range();
                    self.run.signals[out].copy_from_slice(&self.run.x[blk.states.clone()]);
                }
            }
        }
    }

    /// Re-evaluates and lets blocks update modes until none changes; returns whether any did.
    /// Modes that still flip after [`MAX_SETTLE_ROUNDS`] rounds are recorded in `run.unsettled`.
    fn settle(&mut self, t: f64) -> bool {
        let d = self.diagram;
        let mut any = false;
        let mut last = 0;
        for _ in 0..MAX_SETTLE_ROUNDS {
            self.eval_outputs(t);
            let mut changed = false;
            for (b, blk) in d.blocks.iter().enumerate() {
                let mut ctx = self.ctx(b, t);
                if blk.block.settle(&mut ctx) {
                    changed = true;
                    last = b;
                }
            }
            if !changed {
                return any;
            }
            any = true;
        }
        self.run.unsettled = Some((d.blocks[last].name.clone(), t));
        any
    }

    fn refresh_time_events(&mut self, t: f64) {
        for (b, blk) in self.diagram.blocks.iter().enumerate() {
            let w = &self.run.work[blk.work.clone()];
            self.run.next_time_event[b] = blk
                .block
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

    /// Finds the block whose output or derivative first went non-finite (schedule order).
    /// The latest blame wins: the solver recovers from non-finite trial stages, so an earlier one
    /// need not be the one that stopped the run.
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
                        block: blk.name.clone(),
                        what: format!("output '{}'", blk.block.outputs()[o].name),
                        t,
                    });
                    return;
                }
            }
        }
        if let Some(k) = dxdt.iter().position(|v| !v.is_finite()) {
            if let Some(blk) = d.block_of_state(k) {
                let name = blk.block.state_name(k - blk.states.start);
                self.run.non_finite = Some(NonFiniteSource {
                    block: blk.name.clone(),
                    what: format!("derivative of {name}"),
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

    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.outputs_at(t, x);
        let d = self.diagram;
        for i in 0..self.stateful.len() {
            let b = self.stateful[i];
            let range = d.blocks[b].states.clone();
            let mut ctx = self.ctx(b, t);
            d.blocks[b].block.derivatives(&mut ctx, &mut dxdt[range]);
        }
        self.plan.derivatives(&self.run.signals, &self.run.x, dxdt);
        if dxdt.iter().any(|v| !v.is_finite()) {
            self.blame_non_finite(t, dxdt);
        }
    }

    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.outputs_at(t, x);
        let d = self.diagram;
        for i in 0..self.crossing.len() {
            let b = self.crossing[i];
            let range = d.blocks[b].zero_crossings.clone();
            let mut ctx = self.ctx(b, t);
            d.blocks[b].block.zero_crossings(&mut ctx, &mut g[range]);
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

    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.run.x.copy_from_slice(x);
        self.eval_outputs(t);
        self.run.fired.iter_mut().for_each(|f| *f = false);
        for &k in crossed {
            self.run.fired[k] = true;
        }
        let d = self.diagram;
        let tolerance = 1e-12 * t.abs().max(1.0);
        let mut changed = false;
        for (b, blk) in d.blocks.iter().enumerate() {
            let due = time_event && self.run.next_time_event[b] <= t + tolerance;
            let any_fired = self.run.fired[blk.zero_crossings.clone()]
                .iter()
                .any(|f| *f);
            if !due && !any_fired {
                continue;
            }
            let zc = blk.zero_crossings.clone();
            // The fired flags are read while the context borrows the rest of the run state.
            let fired = std::mem::take(&mut self.run.fired);
            let mut ctx = self.ctx(b, t);
            changed |= blk.block.handle_event(&mut ctx, &fired[zc], due);
            self.run.fired = fired;
        }
        changed |= self.settle(t);
        self.refresh_time_events(t);
        x.copy_from_slice(&self.run.x);
        EventOutcome {
            state_changed: changed || time_event,
            stop: self.run.unsettled.is_some(),
        }
    }

    fn project(&mut self, _t: f64, x: &mut [f64]) -> bool {
        let d = self.diagram;
        let mut changed = false;
        for &b in &self.stateful {
            let blk = &d.blocks[b];
            changed |= blk.block.project_states(&mut x[blk.states.clone()]);
        }
        changed
    }

    fn record(&mut self, t: f64, x: &[f64], _kind: RecordKind) {
        self.outputs_at(t, x);
        self.run.recorder.push(t, &self.run.signals);
        if let Some(p) = self.run.progress.as_mut() {
            p(t);
        }
    }
}
