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

use super::crossing_forecast::{worth_cutting, FORECAST_MARGIN};
use super::error::{SolverError, SolverStats};
use super::finite::first_non_finite;
use super::rk_step::{end_slot, prepare_dense, DenseStep};
use super::step_control::error_norm;
use super::{RecordKind, System};
use delivery::{deliver_refined, deliver_samples};
use redo::{Redo, REDO_MARGIN};
use state::{AfterEvent, ChatterGuard, LoopState, StopPoint};
use step::TrialFailure;

mod crossing;
mod delivery;
mod redo;
mod resume;
mod setup;
mod state;
mod step;
mod switching;

pub use resume::SolverCheckpoint;
pub use state::Solver;

pub use super::newton_matrix::MAX_IMPLICIT_STATES;

/// Smallest admissible step at time t: 16·ε·max(1, |t|).
fn min_step(t: f64) -> f64 {
    16.0 * f64::EPSILON * t.abs().max(1.0)
}

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

    /// Steps from `state` to t_end (or to an event that stops the run).
    fn run_loop<S: System>(
        &mut self,
        system: &mut S,
        state: LoopState,
        t_end: f64,
        mut stats: SolverStats,
    ) -> Result<SolverStats, SolverError> {
        let n = self.x.len();
        let mut tab = self.tableau;
        let adaptive = tab.e.is_some();
        let mut k_end = end_slot(tab) * n;
        let LoopState {
            mut t,
            mut h,
            h_max,
            mut guard,
        } = state;
        let mut last_rejected = false;
        // Redoing a step that straddled a crossing (see below).
        let mut redo = Redo::None;
        // The far side of the crossing a redone step ends before, on the straddling step's
        // dense output (see `crossing_ahead`).
        let mut redo_far = f64::NAN;
        // Fixed-step grid: t_grid0 + grid_count·fixed_step since the last restart.
        let (mut t_grid0, mut grid_count) = (t, 0u64);

        while t < t_end {
            if system.interrupted() {
                return Err(SolverError::Interrupted { t });
            }
            if self.auto.as_ref().is_some_and(|a| a.pending) {
                h = self.switch_method(system, t, h, &mut stats)?;
                // A crossing foreseen by the last explicit step: the cut is for that method's
                // step only (the forecast is allowed only for explicit steps).
                if redo == Redo::Foreseen {
                    redo = Redo::None;
                    redo_far = f64::NAN;
                }
                tab = self.tableau;
                k_end = end_slot(tab) * n;
                last_rejected = false;
            }
            let time_event = system
                .next_time_event(t)
                .filter(|&te| te > t && te <= t_end);
            let target = time_event.unwrap_or(t_end);
            let (h_try, t_new, lands) = if adaptive {
                h = h.min(h_max).min(self.stable_step_limit());
                let remaining = target - t;
                if t + 1.01 * h >= target && remaining <= h_max {
                    (remaining, target, true)
                } else if t + 1.01 * h >= target {
                    // Stretching onto the target would exceed max_step: two equal steps instead.
                    (0.5 * remaining, t + 0.5 * remaining, false)
                } else {
                    (h, t + h, false)
                }
            } else {
                let step = self.options.fixed_step;
                let t_next = t_grid0 + (grid_count + 1) as f64 * step;
                if t_next >= target - 1e-9 * step {
                    (target - t, target, true)
                } else {
                    (t_next - t, t_next, false)
                }
            };

            // Every step must move the time (a step below t's resolution would repeat forever).
            let advances = t_new > t;
            if !advances {
                return Err(SolverError::TimeDoesNotAdvance { t, step: h_try });
            }
            self.stall.attempt(t)?;
            match self.trial_step(system, t, h_try, t_new, &mut stats) {
                Ok(()) => {}
                Err(TrialFailure::NonFinite(t_bad, index)) => {
                    stats.rejected_steps += 1;
                    self.method_rejected();
                    // A rejected redone step ends short of its crossing: no continuation.
                    redo_far = f64::NAN;
                    redo = redo.after_rejection();
                    h = 0.25 * h_try;
                    if !adaptive || h < min_step(t) {
                        return Err(SolverError::NonFinite { t: t_bad, index });
                    }
                    last_rejected = true;
                    continue;
                }
                Err(TrialFailure::DenseRefused(t_jac)) => {
                    return Err(self.dense_refused(t_jac));
                }
                Err(TrialFailure::Newton) => {
                    stats.rejected_steps += 1;
                    // ros34pw2's singular M: a stale W is replaced as after any rejection.
                    self.method_rejected();
                    redo_far = f64::NAN;
                    redo = redo.after_rejection();
                    h = 0.5 * h_try;
                    if h < min_step(t) {
                        return Err(SolverError::StepSizeUnderflow {
                            t,
                            step: h,
                            index: None,
                        });
                    }
                    last_rejected = true;
                    continue;
                }
            }
            let mut err_norm = 0.0;
            // Auto's h·ρ of an accepted dopri5 step (NaN otherwise).
            let mut stiffness = f64::NAN;
            if adaptive {
                let (norm, worst) = error_norm(
                    &self.err,
                    &self.x,
                    &self.x_new,
                    self.options.rel_tol,
                    self.options.abs_tol,
                );
                self.stall.note_worst(worst);
                if norm.is_nan() || norm > 1.0 {
                    stats.rejected_steps += 1;
                    self.method_rejected();
                    redo_far = f64::NAN;
                    redo = redo.after_rejection();
                    h = self.controller.reject(h_try, norm);
                    h = self.shorten_to_crossing(system, t_new, h_try, h, &mut stats);
                    last_rejected = true;
                    if h < min_step(t) {
                        return Err(SolverError::StepSizeUnderflow {
                            t,
                            step: h,
                            index: Some(worst),
                        });
                    }
                    continue;
                }
                err_norm = norm;
                stiffness = self.dopri5_stiffness(h_try);
            } else {
                // No FSAL: f(t_new, x_new) is the next step's k₁ and the Hermite end slope.
                let k_new = &mut self.k[k_end..k_end + n];
                system.derivatives(t_new, &self.x_new, k_new);
                stats.function_evaluations += 1;
                if let Some(index) = first_non_finite(&self.k[k_end..k_end + n]) {
                    system.non_finite_derivative(t_new, &self.x_new);
                    return Err(SolverError::NonFinite { t: t_new, index });
                }
            }
            stats.steps += 1;
            let implicit_active = self.implicit_active();
            if implicit_active {
                stats.implicit_steps += 1;
            } else {
                stats.explicit_steps += 1;
            }
            let h_next = match (adaptive, self.implicit.as_deref_mut()) {
                (false, _) => h,
                (true, Some(implicit)) if implicit_active => {
                    implicit.accepted();
                    implicit.keep_step(
                        h_try,
                        self.controller.accept(h_try, err_norm, last_rejected),
                    )
                }
                (true, _) => {
                    self.method_accepted(err_norm);
                    self.controller.accept(h_try, err_norm, last_rejected)
                }
            };
            last_rejected = false;
            grid_count += 1;

            // Zero crossings over the accepted step.
            let crossing = self.zc.len() > 0 && {
                system.zero_crossings(t_new, &self.x_new, &mut self.zc.g_end);
                stats.crossing_evaluations += 1;
                self.zc.detect()
            };
            if crossing {
                // A straddling step whose crossings all keep the dynamics (a contact group's
                // onsets, `System::crossing_keeps_dynamics`) is located coarsely first and its
                // crossing found past the redone step's end (`crossing_ahead`); every other
                // crossing is located to the event tolerance and stepped onto, as it always was.
                // Only when every function of the system keeps the dynamics: the look past the
                // end evaluates g there, and a block that keeps memory of its last g (a rigid
                // pair's mode indicators) would keep that of a time the run never reaches.
                // (Every function, so those that fired too.)
                let coarse = adaptive
                    && redo.may_redo()
                    && (0..self.zc.len()).all(|i| system.crossing_keeps_dynamics(i));
                prepare_dense(tab, h_try, &self.k, &mut self.dense);
                let t_start = t;
                let Self {
                    x,
                    x_new,
                    k,
                    dense,
                    x_interp,
                    zc,
                    ..
                } = self;
                let step = DenseStep {
                    tab,
                    h: h_try,
                    x,
                    x_new,
                    k,
                    d: dense,
                };
                let mut evaluations = 0;
                let mut g_at = |tt: f64, g: &mut [f64]| {
                    step.interpolate((tt - t_start) / h_try, x_interp);
                    system.zero_crossings(tt, x_interp, g);
                    evaluations += 1;
                };
                // A coarse step that is redone (below) needs only the near side of the
                // crossing, to a fraction REDO_MARGIN of the step: the redone step ends before
                // it, and the crossing is located to the event tolerance past its end.
                let width = if coarse { REDO_MARGIN * h_try } else { 0.0 };
                let mut t_event = zc.locate_within(t_start, t_new, width, &mut g_at);
                let redo_now =
                    adaptive && redo.may_redo() && zc.near_side > t_start && !zc.rearmed_fired();
                if coarse && !redo_now {
                    // Not redone after all: locate to the event tolerance, from the start.
                    zc.detect();
                    t_event = zc.locate(t_start, t_new, &mut g_at);
                }
                stats.crossing_evaluations += evaluations;
                if redo_now {
                    // The step straddled the crossing, often a kink or a jump of f, past which
                    // its stages and dense output are polluted: redo it to end just before the
                    // crossing, so that no stage sees the far side and the state there is an
                    // error-controlled step end. The next step then crosses right after its
                    // start, where its interpolant deviates from the truth by a fraction of that
                    // distance only. Not for a re-armed function coming back across its level:
                    // that is a function grazing zero (a contact force that touches zero and
                    // rises again), and steps cut ever closer to it would let the noise of the
                    // integration fire it again and again.
                    h = (zc.near_side - t_start) * (1.0 - REDO_MARGIN);
                    zc.clear_crossed();
                    if let Some(rkc) = self.rkc.as_deref_mut() {
                        rkc.discarded();
                    }
                    stats.steps -= 1;
                    if implicit_active {
                        stats.implicit_steps -= 1;
                    } else {
                        stats.explicit_steps -= 1;
                    }
                    stats.redone_steps += 1;
                    redo = Redo::Stepping;
                    // Only a coarse redo looks for its crossing past the redone step's end.
                    redo_far = if coarse { t_event } else { f64::NAN };
                    continue;
                }
                deliver_refined(system, &step, t_start, t_event, x_interp);
                deliver_samples(system, &step, t_start, t_event, x_interp);
                // The state at the event: the step end itself, or the dense output.
                if t_event == t_new {
                    x_interp.copy_from_slice(x_new);
                } else {
                    step.interpolate((t_event - t_start) / h_try, x_interp);
                }
                self.x.copy_from_slice(&self.x_interp);
                t = t_event;
                let at_time_event = lands && time_event.is_some() && t_event == t_new;
                redo = Redo::None;
                let after = (at_time_event, implicit_active, h_next, h_max);
                match self.after_crossing(system, t, after, &mut stats, &mut guard)? {
                    Some(h_after) => h = h_after,
                    None => break,
                }
                (t_grid0, grid_count) = (t, 0);
                continue;
            }

            // Ordinary step end.
            let refined = system.rows_per_step(h_try) > 1;
            if refined || system.next_sample_time().is_some_and(|ts| ts <= t_new) {
                prepare_dense(tab, h_try, &self.k, &mut self.dense);
                let step = DenseStep {
                    tab,
                    h: h_try,
                    x: &self.x,
                    x_new: &self.x_new,
                    k: &self.k,
                    d: &self.dense,
                };
                deliver_refined(system, &step, t, t_new, &mut self.x_interp);
                deliver_samples(system, &step, t, t_new, &mut self.x_interp);
            }
            // A step cut to end just before its crossing (redone after straddling it, or cut
            // at a foreseen one): the crossing is looked for on its dense output continued a
            // little past its end, and found there it needs no further step.
            let cut = matches!(redo, Redo::Stepping | Redo::Foreseen);
            let foreseen_cut = redo == Redo::Foreseen;
            redo = if redo == Redo::Stepping {
                Redo::BeforeCrossing
            } else {
                Redo::None
            };
            let restarts = self.zc.restarts();
            if cut && !(lands && time_event.is_some()) {
                let span = (t, t_new, h_try);
                if let Some(t_event) =
                    self.crossing_ahead(system, span, (redo_far, target), tab, &mut stats)
                {
                    stats.crossings_ahead += 1;
                    if foreseen_cut {
                        // Found where it was foreseen: not a miss after all (see below).
                        stats.forecast_misses -= 1;
                    }
                    t = t_event;
                    redo = Redo::None;
                    let after = (false, implicit_active, h_next, h_max);
                    match self.after_crossing(system, t, after, &mut stats, &mut guard)? {
                        Some(h_after) => h = h_after,
                        None => break,
                    }
                    (t_grid0, grid_count) = (t, 0);
                    continue;
                }
            }
            if !cut {
                let evals = stats.function_evaluations;
                self.judge_stiffness(
                    implicit_active,
                    stiffness,
                    (t_new, h_next.min(h_max)),
                    evals,
                );
            }
            // The crossing functions one step ahead: only on an ordinary explicit step (the
            // tracker's start values its own: not restored after a look past the end).
            let usable = self.zc.restarts() == restarts;
            let allowed = adaptive && usable && !implicit_active && redo == Redo::None && !lands;
            let foreseen =
                self.foresee_crossing(system, (h_try, h_next.min(h_max)), allowed, usable);
            std::mem::swap(&mut self.x, &mut self.x_new);
            system.project(t_new, &mut self.x);
            self.k.copy_within(k_end..k_end + n, 0);
            self.zc.accept_step();
            t = t_new;
            h = h_next;
            let h_full = h.min(h_max);
            if let Some(phi) = foreseen.filter(|&phi| worth_cutting(phi, h_full, min_step(t))) {
                // Cut the next step to end just before the foreseen crossing; `crossing_ahead`
                // looks for it as far past the crossing as the cut ends before it, i.e. up to
                // (1 + FORECAST_MARGIN)·φ of the full step (`crossing_forecast`).
                redo_far = t + phi * h_full;
                h = phi * h_full * (1.0 - FORECAST_MARGIN);
                redo = Redo::Foreseen;
                // Counted as a miss until its crossing is found past the cut step's end: every
                // other way out of `Redo::Foreseen` (a rejection, a switch of method, the
                // crossing inside the cut step, nothing found past it) is one.
                stats.foreseen_steps += 1;
                stats.forecast_misses += 1;
            }
            if lands && time_event.is_some() {
                self.zc.clear_crossed();
                let outcome = self.run_event(system, t, true, &mut stats, &mut guard)?;
                if outcome.stop {
                    self.stopped = Some(StopPoint {
                        t,
                        after: AfterEvent::Time,
                        state_changed: outcome.state_changed,
                        h_next: h,
                        h_max,
                        guard,
                    });
                    break;
                }
                if outcome.state_changed {
                    self.eval_start(system, t, &mut stats)?;
                    self.restart_crossings(system, t, true, &mut stats);
                    self.controller.reset();
                    self.restart_method();
                    h = self.starting_step(system, t, h_max, &mut stats);
                } else {
                    // f is unchanged (FSAL holds), but the handler may have redefined
                    // zero-crossing functions (a broad phase's watch list): read them again.
                    self.restart_crossings(system, t, false, &mut stats);
                }
                (t_grid0, grid_count) = (t, 0);
            } else if t < t_end {
                system.record(t, &self.x, RecordKind::Step);
            }
        }
        system.record(t, &self.x, RecordKind::Final);
        stats.final_time = t;
        Ok(stats)
    }
}
