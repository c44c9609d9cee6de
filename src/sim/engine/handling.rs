//! Events: the handlers of the blocks whose crossings fired or whose time events are due, the
//! modes settled after them, and the next time events.

use super::Engine;
use crate::solver::EventOutcome;

/// How many rounds of [`crate::block::Block::settle`] may pass before the modes count as inconsistent.
const MAX_SETTLE_ROUNDS: usize = 100;

impl<'d> Engine<'d> {
    /// Re-evaluates and lets blocks update modes until none changes; returns whether any did.
    /// Modes that still flip after [`MAX_SETTLE_ROUNDS`] rounds are recorded in `run.unsettled`.
    /// A change of a block whose events keep the dynamics ([`Block::events_keep_dynamics`](crate::block::Block::events_keep_dynamics):
    /// bookkeeping that no output reads) neither counts nor asks for another round.
    ///
    /// With `outputs_current`, the outputs already are those of a whole evaluation at
    /// (t, `run.x`) with the blocks' work as it is: the first round does not evaluate again.
    /// Afterwards [`Engine::evaluated_at`] is `Some(t)` when the outputs are still current: no
    /// block's `settle` reported a change in the last round (a change that keeps the dynamics
    /// may still change what the block's zero-crossing functions read, or the signed zeros of
    /// its outputs: the watch slots of a contact group).
    pub(super) fn settle(&mut self, t: f64, outputs_current: bool) -> bool {
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

    pub(super) fn refresh_time_events(&mut self, t: f64) {
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

    /// [`System::handle_events`] with whole evaluations. `outputs_current`: the outputs are
    /// those of a whole evaluation at `(t, x)` (the solver recorded the point just before,
    /// `RecordKind::EventBefore`). Every output of a whole evaluation is a function of (t, x)
    /// and the blocks' work slots, which change only in handlers (which then say so) and
    /// `settle`, so they are read, not evaluated again (the constant blocks' outputs too: they
    /// were evaluated at the start and after every event's handlers). Leaves
    /// [`Engine::evaluated_at`] at `Some(t)` when the outputs after the event are current (no
    /// handler and no `settle` changed anything: see [`Engine::settle`]), so that the record
    /// after the event reads them.
    pub(super) fn handle_events_whole(
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
}
