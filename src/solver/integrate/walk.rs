//! The integration loop, one stage per method: a trial step planned ([`Solver::plan_trial`]),
//! tried and, when it failed, retried shorter ([`Solver::after_failed_trial`]), judged by its
//! error ([`Solver::judge_trial`]), counted ([`Solver::count_accepted`]), then ended at a located
//! crossing ([`Solver::end_at_crossing`]) or as an ordinary step ([`Solver::end_ordinary`]; both in
//! `step_end`). The
//! order of calls is the module documentation's (`integrate`); what one stage hands the next
//! is a [`Walk`] (carried over the steps), a [`Trial`] and an [`Accepted`] (`walk_state`).

use super::redo::Redo;
use super::state::{LoopState, Solver};
use super::step::TrialFailure;
use super::walk_state::{min_step, Accepted, Flow, Trial, Walk};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::finite::first_non_finite;
use crate::solver::rk_step::end_slot;
use crate::solver::step_control::error_norm;
use crate::solver::{RecordKind, System};

impl Solver {
    /// Steps from `state` to t_end (or to an event that stops the run).
    pub(super) fn run_loop<S: System>(
        &mut self,
        system: &mut S,
        state: LoopState,
        t_end: f64,
        mut stats: SolverStats,
    ) -> Result<SolverStats, SolverError> {
        let n = self.x.len();
        let adaptive = self.tableau.e.is_some();
        let mut w = Walk {
            t: state.t,
            h: state.h,
            h_max: state.h_max,
            guard: state.guard,
            tab: self.tableau,
            k_end: end_slot(self.tableau) * n,
            last_rejected: false,
            redo: Redo::None,
            redo_far: f64::NAN,
            t_grid0: state.t,
            grid_count: 0,
        };
        while w.t < t_end {
            if system.interrupted() {
                return Err(SolverError::Interrupted { t: w.t });
            }
            if self.auto.as_ref().is_some_and(|a| a.pending) {
                self.switch_walk(system, &mut w, n, &mut stats)?;
            }
            let trial = self.plan_trial(system, &mut w, adaptive, t_end)?;
            if let Err(failure) = self.trial_step(system, w.t, trial.h_try, trial.t_new, &mut stats)
            {
                self.after_failed_trial(failure, &mut w, trial.h_try, adaptive, &mut stats)?;
                continue;
            }
            let Some((err_norm, stiffness)) =
                self.judge_trial(system, &mut w, &trial, (adaptive, n), &mut stats)?
            else {
                continue;
            };
            let accepted = self.count_accepted(
                &mut w,
                trial.h_try,
                (err_norm, stiffness),
                adaptive,
                &mut stats,
            );
            let flow = if self.crossing_over(system, trial.t_new, &mut stats) {
                self.end_at_crossing(system, &mut w, &trial, accepted, adaptive, &mut stats)?
            } else {
                self.end_ordinary(
                    system,
                    &mut w,
                    &trial,
                    accepted,
                    (adaptive, n, t_end),
                    &mut stats,
                )?
            };
            if let Flow::Stop = flow {
                break;
            }
        }
        system.record(w.t, &self.x, RecordKind::Final);
        stats.final_time = w.t;
        Ok(stats)
    }

    /// Auto switched its method: the step it starts with, the tableau and its end slot.
    fn switch_walk<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        n: usize,
        stats: &mut SolverStats,
    ) -> Result<(), SolverError> {
        w.h = self.switch_method(system, w.t, w.h, stats)?;
        // A crossing foreseen by the last explicit step: the cut is for that method's
        // step only (the forecast is allowed only for explicit steps).
        if w.redo == Redo::Foreseen {
            w.redo = Redo::None;
            w.redo_far = f64::NAN;
        }
        w.tab = self.tableau;
        w.k_end = end_slot(w.tab) * n;
        w.last_rejected = false;
        Ok(())
    }

    /// The next trial step: aimed at the next time event or the run's end, landing on it when
    /// within reach, bounded by max_step (and the stability limit); fixed steps on their grid.
    fn plan_trial<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        adaptive: bool,
        t_end: f64,
    ) -> Result<Trial, SolverError> {
        let time_event = system
            .next_time_event(w.t)
            .filter(|&te| te > w.t && te <= t_end);
        let target = time_event.unwrap_or(t_end);
        let (h_try, t_new, lands) = if adaptive {
            w.h = w.h.min(w.h_max).min(self.stable_step_limit());
            let remaining = target - w.t;
            if w.t + 1.01 * w.h >= target && remaining <= w.h_max {
                (remaining, target, true)
            } else if w.t + 1.01 * w.h >= target {
                // Stretching onto the target would exceed max_step: two equal steps instead.
                (0.5 * remaining, w.t + 0.5 * remaining, false)
            } else {
                (w.h, w.t + w.h, false)
            }
        } else {
            let step = self.options.fixed_step;
            let t_next = w.t_grid0 + (w.grid_count + 1) as f64 * step;
            if t_next >= target - 1e-9 * step {
                (target - w.t, target, true)
            } else {
                (t_next - w.t, t_next, false)
            }
        };

        // Every step must move the time (a step below t's resolution would repeat forever).
        let advances = t_new > w.t;
        if !advances {
            return Err(SolverError::TimeDoesNotAdvance {
                t: w.t,
                step: h_try,
            });
        }
        self.stall.attempt(w.t)?;
        Ok(Trial {
            h_try,
            t_new,
            lands,
            time_event,
            target,
        })
    }

    /// A trial step that failed (a non-finite stage, a refused dense Jacobian, a Newton
    /// failure): rejected and retried shorter, or the run's error.
    fn after_failed_trial(
        &mut self,
        failure: TrialFailure,
        w: &mut Walk,
        h_try: f64,
        adaptive: bool,
        stats: &mut SolverStats,
    ) -> Result<(), SolverError> {
        match failure {
            TrialFailure::NonFinite(t_bad, index) => {
                stats.rejected_steps += 1;
                self.method_rejected();
                // A rejected redone step ends short of its crossing: no continuation.
                w.redo_far = f64::NAN;
                w.redo = w.redo.after_rejection();
                w.h = 0.25 * h_try;
                if !adaptive || w.h < min_step(w.t) {
                    return Err(SolverError::NonFinite { t: t_bad, index });
                }
                w.last_rejected = true;
                Ok(())
            }
            TrialFailure::DenseRefused(t_jac) => Err(self.dense_refused(t_jac)),
            TrialFailure::Newton => {
                stats.rejected_steps += 1;
                // ros34pw2's singular M: a stale W is replaced as after any rejection.
                self.method_rejected();
                w.redo_far = f64::NAN;
                w.redo = w.redo.after_rejection();
                w.h = 0.5 * h_try;
                if w.h < min_step(w.t) {
                    return Err(SolverError::StepSizeUnderflow {
                        t: w.t,
                        step: w.h,
                        index: None,
                    });
                }
                w.last_rejected = true;
                Ok(())
            }
        }
    }

    /// The error test of a trial step that ran: `None` when it is rejected (the next trial is
    /// shorter), else its error norm and auto's h·ρ; a fixed step's end slope evaluated.
    fn judge_trial<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        trial: &Trial,
        (adaptive, n): (bool, usize),
        stats: &mut SolverStats,
    ) -> Result<Option<(f64, f64)>, SolverError> {
        let Trial { h_try, t_new, .. } = *trial;
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
                w.redo_far = f64::NAN;
                w.redo = w.redo.after_rejection();
                w.h = self.controller.reject(h_try, norm);
                w.h = self.shorten_to_crossing(system, t_new, h_try, w.h, stats);
                w.last_rejected = true;
                if w.h < min_step(w.t) {
                    return Err(SolverError::StepSizeUnderflow {
                        t: w.t,
                        step: w.h,
                        index: Some(worst),
                    });
                }
                return Ok(None);
            }
            err_norm = norm;
            stiffness = self.dopri5_stiffness(h_try);
        } else {
            // No FSAL: f(t_new, x_new) is the next step's k₁ and the Hermite end slope.
            let k_new = &mut self.k[w.k_end..w.k_end + n];
            system.derivatives(t_new, &self.x_new, k_new);
            stats.function_evaluations += 1;
            if let Some(index) = first_non_finite(&self.k[w.k_end..w.k_end + n]) {
                system.non_finite_derivative(t_new, &self.x_new);
                return Err(SolverError::NonFinite { t: t_new, index });
            }
        }
        Ok(Some((err_norm, stiffness)))
    }

    /// Counts an accepted step and gives the next step's size.
    fn count_accepted(
        &mut self,
        w: &mut Walk,
        h_try: f64,
        (err_norm, stiffness): (f64, f64),
        adaptive: bool,
        stats: &mut SolverStats,
    ) -> Accepted {
        stats.steps += 1;
        let implicit_active = self.implicit_active();
        if implicit_active {
            stats.implicit_steps += 1;
        } else {
            stats.explicit_steps += 1;
        }
        let h_next = match (adaptive, self.implicit.as_deref_mut()) {
            (false, _) => w.h,
            (true, Some(implicit)) if implicit_active => {
                implicit.accepted();
                implicit.keep_step(
                    h_try,
                    self.controller.accept(h_try, err_norm, w.last_rejected),
                )
            }
            (true, _) => {
                self.method_accepted(err_norm);
                self.controller.accept(h_try, err_norm, w.last_rejected)
            }
        };
        w.last_rejected = false;
        w.grid_count += 1;

        Accepted {
            h_next,
            implicit_active,
            stiffness,
        }
    }

    /// Whether a zero-crossing function changed sign over the accepted step ending at `t_new`.
    fn crossing_over<S: System>(
        &mut self,
        system: &mut S,
        t_new: f64,
        stats: &mut SolverStats,
    ) -> bool {
        // Zero crossings over the accepted step.
        self.zc.len() > 0 && {
            system.zero_crossings(t_new, &self.x_new, &mut self.zc.g_end);
            stats.crossing_evaluations += 1;
            self.zc.detect()
        }
    }
}
