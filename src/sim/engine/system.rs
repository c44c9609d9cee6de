//! The engine as the solver's [`System`]: each request served by the stage that owns it.

use super::{Engine, NonFiniteSource};
use crate::sim::animation::FrameSampler;
use crate::sim::sparsity::StateDependencies;
use crate::solver::{Direction, EventOutcome, Method, RecordKind, System};

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

    /// The owning block's [`Block::events_keep_dynamics`](crate::block::Block::events_keep_dynamics) (a scan of the blocks with
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
            // The latest blame wins; none found keeps the earlier one.
            if let Some(source) =
                NonFiniteSource::first_in(self.diagram, &self.run.signals, &dxdt, t)
            {
                self.run.non_finite = Some(source);
            }
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

    /// From the wiring: see [`crate::sim::sparsity`].
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
