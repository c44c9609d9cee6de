//! The integration loop: step, error control, time events, zero crossings, restarts.
//!
//! One run of [`Solver::integrate`] proceeds as follows (all buffers were sized by
//! [`Solver::new`]; the loop allocates nothing):
//!
//! 1. `record(t0, x0, Initial)`; k₁ = f(t0, x0); g(t0, x0); starting step.
//! 2. Each step aims at the next target: the earliest of t_end and the next time event. A step
//!    that would reach past 99 % of the remaining distance lands exactly on the target (t is
//!    *assigned* the target) unless that exceeds `max_step` (then the remainder is split in two
//!    equal steps). Adaptive steps never exceed `max_step`.
//! 3. Trial step (explicit: `rk_step`; TR-BDF2: `trbdf2`). A non-finite stage derivative or
//!    state rejects it and divides h by 4; a Newton failure of the implicit method (with a fresh
//!    Jacobian) halves h; an error norm > 1 rejects it and the PI controller shrinks h. Below
//!    16·ε·max(1, |t|) the run fails with [`SolverError::NonFinite`] or
//!    [`SolverError::StepSizeUnderflow`].
//! 4. Accepted: g at the step end is compared with g at the step start (see `events`). A crossing
//!    is located on the dense output and the step is cut there; otherwise the step end is
//!    recorded (`Step`), or, at a time event, the event is handled. An adaptive step that
//!    straddled a crossing is redone to end just before it; the next step locates it. When
//!    every function that fired keeps the dynamics ([`System::crossing_keeps_dynamics`]: a
//!    contact group's onsets), the straddling step locates only the near side (to 1e-3 of the
//!    step), and the crossing is located on the redone step's dense output continued a little
//!    past its end (`crossing`), or, when it is not there, on the next step's. Under the same
//!    condition an explicit step ends early where the crossing functions, extrapolated from the
//!    last step ends, are foreseen to fire (`crossing_forecast`), and the crossing is looked for
//!    past its end as after a redo: no straddling step to throw away.
//! 5. Events: `record(EventBefore)`, `handle_events`, `record(EventAfter)`; stop if asked
//!    (then `record(Final)` at that instant). A state-changing event restarts the method:
//!    f is re-evaluated, the controller history is cleared, the starting step is recomputed and
//!    TR-BDF2 forms its Jacobian again. An event that changes nothing but the zero-crossing
//!    functions' definitions (a broad phase's watch list) keeps the controller history and the
//!    step: only g is read again at the event.
//!    Fixed-step RK4 restarts its grid t_restart + k·h at the event.
//! 6. Sample times ([`System::next_sample_time`]) inside an accepted step, up to its end or its
//!    located event, are handed to [`System::sample`] from the step's dense output; they never
//!    change the steps taken. Before them, the N − 1 rows of [`System::rows_per_step`] inside
//!    the step are recorded from the same dense output (`RecordKind::Refined`).
//! 7. Every trial step counts against the step budget (`max_steps`, and `max_wall_time` when set);
//!    a run whose recent pace projects past it ends with [`SolverError::Stalled`] (see `stall`).
//!    Before every trial step, [`System::interrupted`] may stop the run
//!    (`SolverError::Interrupted`).
//! 8. At t_end: `record(t_end, x, Final)`. The point that ends the run is recorded once, as
//!    `Final` (not also as `Step`); an event instant is recorded as the pair
//!    `EventBefore`/`EventAfter` (not also as `Step`).
//!
//! On an error the run returns at once (no `Final` record); [`Solver::state`] then holds the last
//! accepted state (or the state after the last handler).

use super::error::{SolverError, SolverStats};
use super::System;
use state::{ChatterGuard, LoopState};

mod crossing;
mod delivery;
mod redo;
mod resume;
mod setup;
mod state;
mod step;
mod step_end;
mod switching;
mod walk;
mod walk_state;

pub use resume::SolverCheckpoint;
pub use state::Solver;

pub use super::newton_matrix::MAX_IMPLICIT_STATES;

impl Solver {
    /// Integrates `system` from (t0, x0) to t_end. See the module documentation for the call
    /// order of `record` and `handle_events`. Allocates nothing (error messages aside).
    pub fn integrate<S: System>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &[f64],
        t_end: f64,
    ) -> Result<SolverStats, SolverError> {
        self.check_inputs(system, t0, x0, t_end)?;
        self.stopped = None;
        let mut stats = SolverStats {
            final_time: t0,
            ..Default::default()
        };
        self.x.copy_from_slice(x0);
        self.forecast.forget();
        self.start_auto(system, t0);
        self.record_start(system, t0);
        let h_max = if self.options.max_step > 0.0 {
            self.options.max_step
        } else {
            (t_end - t0) / 50.0
        };
        self.stall.start(t0, t_end);
        let mut h = 0.0;
        if t_end > t0 {
            self.eval_start(system, t0, &mut stats)?;
            if self.zc.len() > 0 {
                system.zero_crossings(t0, &self.x, &mut self.zc.g_end);
                stats.crossing_evaluations += 1;
                // A fresh start: nothing tracked before it, so no earlier redefinition counts.
                system.redefined_crossings(&mut |_| {});
                self.zc.start(|i| system.zero_crossing_direction(i));
            }
            self.controller.reset();
            if let Some(implicit) = self.implicit.as_deref_mut() {
                implicit.start_run();
            }
            if let Some(rkc) = self.rkc.as_deref_mut() {
                rkc.restart();
            }
            if let Some(rosenbrock) = self.rosenbrock.as_deref_mut() {
                rosenbrock.start_run();
            }
            h = self.starting_step(system, t0, h_max, &mut stats);
        }
        let guard = ChatterGuard {
            count: 0,
            last_t: f64::NEG_INFINITY,
        };
        self.run_loop(
            system,
            LoopState {
                t: t0,
                h,
                h_max,
                guard,
            },
            t_end,
            stats,
        )
    }
}
