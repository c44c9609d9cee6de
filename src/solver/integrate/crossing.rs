//! The loop's events: an event run (recorded, handled, checked for chattering), and the
//! handling of a located crossing: the event, then the restart.

use super::state::{AfterEvent, ChatterGuard, Solver, StopPoint};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::events::chattering_window;
use crate::solver::finite::first_non_finite;
use crate::solver::{EventOutcome, RecordKind, System};

impl Solver {
    /// Records and handles an event at (t, self.x). Returns the handler's outcome.
    pub(super) fn run_event<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        time_event: bool,
        stats: &mut SolverStats,
        guard: &mut ChatterGuard,
    ) -> Result<EventOutcome, SolverError> {
        system.record(t, &self.x, RecordKind::EventBefore);
        let outcome = system.handle_events(t, &mut self.x, &self.zc.crossed, time_event);
        system.record(t, &self.x, RecordKind::EventAfter);
        if time_event {
            stats.time_events += 1;
        }
        if !self.zc.crossed.is_empty() {
            stats.zero_crossings += 1;
        }
        guard.count = if t - guard.last_t <= chattering_window(t) {
            guard.count + 1
        } else {
            1
        };
        guard.last_t = t;
        if guard.count > self.options.max_consecutive_events {
            if let Some(&index) = self.zc.crossed.first() {
                return Err(SolverError::Chattering {
                    t,
                    index,
                    count: guard.count,
                });
            }
            if time_event {
                return Err(SolverError::TimeEventFlood {
                    t,
                    count: guard.count,
                });
            }
        }
        if let Some(index) = first_non_finite(&self.x) {
            return Err(SolverError::NonFinite { t, index });
        }
        Ok(outcome)
    }

    /// After the crossing located at `t` with the state there in `self.x`: records and handles
    /// the event, then restarts (f at the event, the crossing functions; after a change of the
    /// state the controller's history, the implicit method's Jacobian and a starting step).
    /// `after` is (whether the instant is also a time event, whether the implicit method took
    /// the step, the step the controller chose, the largest step). Returns the next step size,
    /// or `None` when a handler asked to stop (then `self.stopped` says where).
    pub(super) fn after_crossing<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        (at_time_event, implicit_active, h_next, h_max): (bool, bool, f64, f64),
        stats: &mut SolverStats,
        guard: &mut ChatterGuard,
    ) -> Result<Option<f64>, SolverError> {
        let outcome = self.run_event(system, t, at_time_event, stats, guard)?;
        if outcome.stop {
            self.stopped = Some(StopPoint {
                t,
                after: AfterEvent::Crossing,
                state_changed: outcome.state_changed,
                h_next,
                h_max,
                guard: *guard,
            });
            return Ok(None);
        }
        self.eval_start(system, t, stats)?;
        self.restart_crossings(system, t, outcome.state_changed, stats);
        Ok(Some(if outcome.state_changed {
            self.controller.reset();
            self.restart_implicit();
            self.starting_step(system, t, h_max, stats)
        } else {
            if self.auto.is_some() && implicit_active {
                // A contact opened or closed: ρ(J) must describe the new mode.
                self.restart_implicit();
            }
            h_next
        }))
    }
}
