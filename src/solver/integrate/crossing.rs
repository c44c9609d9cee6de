//! The loop's handling of a located crossing: the event, then the restart.

use super::{ChatterGuard, Solver};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::System;

impl Solver {
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
            self.stopped = Some(super::resume::StopPoint {
                t,
                after: super::resume::AfterEvent::Crossing,
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
