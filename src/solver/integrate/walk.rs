//! The integration loop, one stage per method: a trial step planned ([`Solver::plan_trial`]),
//! tried and, when it failed, retried shorter ([`Solver::after_failed_trial`]), judged by its
//! error ([`Solver::judge_trial`]), counted ([`Solver::count_accepted`]), then ended at a located
//! crossing ([`Solver::end_at_crossing`]) or as an ordinary step ([`Solver::end_ordinary`]). The
//! order of calls is the module documentation's (`integrate`); what one stage hands the next
//! is a [`Walk`] (carried over the steps), a [`Trial`] and an [`Accepted`].

use super::delivery::{deliver_refined, deliver_samples};
use super::redo::{Redo, REDO_MARGIN};
use super::state::{AfterEvent, ChatterGuard, LoopState, Solver, StopPoint};
use super::step::TrialFailure;
use crate::solver::crossing_forecast::{worth_cutting, FORECAST_MARGIN};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::finite::first_non_finite;
use crate::solver::rk_step::{end_slot, prepare_dense, DenseStep};
use crate::solver::step_control::error_norm;
use crate::solver::tableau::Tableau;
use crate::solver::{RecordKind, System};

/// Smallest admissible step at time t: 16·ε·max(1, |t|).
fn min_step(t: f64) -> f64 {
    16.0 * f64::EPSILON * t.abs().max(1.0)
}

/// What the loop carries from one trial step to the next.
struct Walk {
    /// The time reached, s.
    t: f64,
    /// The step to try next, s.
    h: f64,
    /// The largest step, s.
    h_max: f64,
    guard: ChatterGuard,
    /// The method's tableau (auto's switches change it) and the slot of its end slope in `k`.
    tab: &'static Tableau,
    k_end: usize,
    /// Whether the last trial step was rejected (the controller's history).
    last_rejected: bool,
    /// Redoing a step that straddled a crossing (see [`Solver::end_at_crossing`]).
    redo: Redo,
    /// The far side of the crossing a redone step ends before, on the straddling step's
    /// dense output (see `crossing_ahead`).
    redo_far: f64,
    /// Fixed-step grid: t_grid0 + grid_count·fixed_step since the last restart.
    t_grid0: f64,
    grid_count: u64,
}

/// A trial step as planned.
#[derive(Clone, Copy)]
struct Trial {
    /// Its size and end, s.
    h_try: f64,
    t_new: f64,
    /// Whether it ends exactly on its target.
    lands: bool,
    /// The time event it aims at, if any, s.
    time_event: Option<f64>,
    /// The time event or the run's end, s.
    target: f64,
}

/// An accepted step.
#[derive(Clone, Copy)]
struct Accepted {
    /// The next step's size, s.
    h_next: f64,
    /// Whether the implicit method took it.
    implicit_active: bool,
    /// Auto's h·ρ of an accepted dopri5 step (NaN otherwise).
    stiffness: f64,
}

/// What the loop does after a step ended.
enum Flow {
    /// The next trial step.
    Next,
    /// The run stops here (an event asked, or the run's end).
    Stop,
}

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

    /// An accepted step over which a crossing function fired: redone to end before the
    /// crossing, or cut at the located crossing, whose events then run.
    fn end_at_crossing<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        trial: &Trial,
        accepted: Accepted,
        adaptive: bool,
        stats: &mut SolverStats,
    ) -> Result<Flow, SolverError> {
        let Trial {
            h_try,
            t_new,
            lands,
            time_event,
            ..
        } = *trial;
        let Accepted {
            h_next,
            implicit_active,
            ..
        } = accepted;
        // A straddling step whose crossings all keep the dynamics (a contact group's
        // onsets, `System::crossing_keeps_dynamics`) is located coarsely first and its
        // crossing found past the redone step's end (`crossing_ahead`); every other
        // crossing is located to the event tolerance and stepped onto, as it always was.
        // Only when every function of the system keeps the dynamics: the look past the
        // end evaluates g there, and a block that keeps memory of its last g (a rigid
        // pair's mode indicators) would keep that of a time the run never reaches.
        // (Every function, so those that fired too.)
        let coarse = adaptive
            && w.redo.may_redo()
            && (0..self.zc.len()).all(|i| system.crossing_keeps_dynamics(i));
        prepare_dense(w.tab, h_try, &self.k, &mut self.dense);
        let (t_event, redo_now) =
            self.locate_crossing(system, (w, h_try, t_new), (adaptive, coarse), stats);
        if redo_now {
            self.redo_before_crossing(w, t_event, (coarse, implicit_active), stats);
            return Ok(Flow::Next);
        }
        self.step_to_crossing(system, (w.t, h_try, t_new), w.tab, t_event);
        w.t = t_event;
        let at_time_event = lands && time_event.is_some() && t_event == t_new;
        w.redo = Redo::None;
        let after = (at_time_event, implicit_active, h_next, w.h_max);
        match self.after_crossing(system, w.t, after, stats, &mut w.guard)? {
            Some(h_after) => w.h = h_after,
            None => return Ok(Flow::Stop),
        }
        (w.t_grid0, w.grid_count) = (w.t, 0);
        Ok(Flow::Next)
    }

    /// The crossing on the accepted step (w.t, h_try, t_new)'s dense output (prepared): its
    /// time, and whether the step is to be redone to end before it. A `coarse` location (the
    /// step may be redone and every crossing keeps the dynamics) finds only the near side, to a
    /// fraction of the step; not redone after all, the crossing is located again to the event
    /// tolerance, from the start.
    fn locate_crossing<S: System>(
        &mut self,
        system: &mut S,
        (w, h_try, t_new): (&Walk, f64, f64),
        (adaptive, coarse): (bool, bool),
        stats: &mut SolverStats,
    ) -> (f64, bool) {
        let t_start = w.t;
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
            tab: w.tab,
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
            adaptive && w.redo.may_redo() && zc.near_side > t_start && !zc.rearmed_fired();
        if coarse && !redo_now {
            // Not redone after all: locate to the event tolerance, from the start.
            zc.detect();
            t_event = zc.locate(t_start, t_new, &mut g_at);
        }
        stats.crossing_evaluations += evaluations;
        (t_event, redo_now)
    }

    /// The step straddled the crossing, often a kink or a jump of f, past which its stages and
    /// dense output are polluted: it is redone to end just before the crossing (the near side
    /// found by [`Solver::locate_crossing`], located at `t_event`), so that no stage sees the
    /// far side and the state there is an error-controlled step end. The next step then
    /// crosses right after its start, where its interpolant deviates from the truth by a
    /// fraction of that distance only. Not for a re-armed function coming back across its
    /// level: that is a function grazing zero (a contact force that touches zero and rises
    /// again), and steps cut ever closer to it would let the noise of the integration fire it
    /// again and again. The step is uncounted; only a `coarse` redo looks for its crossing past
    /// the redone step's end.
    fn redo_before_crossing(
        &mut self,
        w: &mut Walk,
        t_event: f64,
        (coarse, implicit_active): (bool, bool),
        stats: &mut SolverStats,
    ) {
        w.h = (self.zc.near_side - w.t) * (1.0 - REDO_MARGIN);
        self.zc.clear_crossed();
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
        w.redo = Redo::Stepping;
        w.redo_far = if coarse { t_event } else { f64::NAN };
    }

    /// The accepted step (t_start, h_try, t_new) cut at its located crossing `t_event`: the
    /// refined rows and samples up to it from the dense output (prepared), and the state there
    /// (the step end itself, or the dense output) into `self.x`.
    fn step_to_crossing<S: System>(
        &mut self,
        system: &mut S,
        (t_start, h_try, t_new): (f64, f64, f64),
        tab: &'static Tableau,
        t_event: f64,
    ) {
        let Self {
            x,
            x_new,
            k,
            dense,
            x_interp,
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
        deliver_refined(system, &step, t_start, t_event, x_interp);
        deliver_samples(system, &step, t_start, t_event, x_interp);
        if t_event == t_new {
            x_interp.copy_from_slice(x_new);
        } else {
            step.interpolate((t_event - t_start) / h_try, x_interp);
        }
        self.x.copy_from_slice(&self.x_interp);
    }

    /// An accepted step without a crossing: its rows and samples, a crossing looked for past a
    /// cut step's end, the next step's forecast, then the step end recorded or its time event.
    fn end_ordinary<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        trial: &Trial,
        accepted: Accepted,
        (adaptive, n, t_end): (bool, usize, f64),
        stats: &mut SolverStats,
    ) -> Result<Flow, SolverError> {
        let Trial {
            h_try,
            t_new,
            lands,
            time_event,
            ..
        } = *trial;
        let Accepted {
            h_next,
            implicit_active,
            stiffness,
        } = accepted;
        self.deliver_step_rows(system, w, h_try, t_new);
        // A step cut to end just before its crossing (redone after straddling it, or cut
        // at a foreseen one): the crossing is looked for on its dense output continued a
        // little past its end, and found there it needs no further step.
        let cut = matches!(w.redo, Redo::Stepping | Redo::Foreseen);
        let foreseen_cut = w.redo == Redo::Foreseen;
        w.redo = if w.redo == Redo::Stepping {
            Redo::BeforeCrossing
        } else {
            Redo::None
        };
        let restarts = self.zc.restarts();
        if cut && !(lands && time_event.is_some()) {
            let found = self.crossing_past_cut(system, w, trial, accepted, foreseen_cut, stats);
            if let Some(flow) = found? {
                return Ok(flow);
            }
        }
        if !cut {
            let evals = stats.function_evaluations;
            self.judge_stiffness(
                implicit_active,
                stiffness,
                (t_new, h_next.min(w.h_max)),
                evals,
            );
        }
        // The crossing functions one step ahead: only on an ordinary explicit step (the
        // tracker's start values its own: not restored after a look past the end).
        let usable = self.zc.restarts() == restarts;
        let allowed = adaptive && usable && !implicit_active && w.redo == Redo::None && !lands;
        let foreseen = self.foresee_crossing(system, (h_try, h_next.min(w.h_max)), allowed, usable);
        self.accept_step_end(system, w, (t_new, h_next, n), foreseen, stats);
        if lands && time_event.is_some() {
            self.time_event_at_step_end(system, w, stats)
        } else {
            if w.t < t_end {
                system.record(w.t, &self.x, RecordKind::Step);
            }
            Ok(Flow::Next)
        }
    }

    /// The refined rows and samples of the ordinary step (w.t, h_try, t_new), from its dense
    /// output (prepared only when it has any).
    fn deliver_step_rows<S: System>(&mut self, system: &mut S, w: &Walk, h_try: f64, t_new: f64) {
        let refined = system.rows_per_step(h_try) > 1;
        if refined || system.next_sample_time().is_some_and(|ts| ts <= t_new) {
            prepare_dense(w.tab, h_try, &self.k, &mut self.dense);
            let step = DenseStep {
                tab: w.tab,
                h: h_try,
                x: &self.x,
                x_new: &self.x_new,
                k: &self.k,
                d: &self.dense,
            };
            deliver_refined(system, &step, w.t, t_new, &mut self.x_interp);
            deliver_samples(system, &step, w.t, t_new, &mut self.x_interp);
        }
    }

    /// A step cut to end before its crossing (`foreseen_cut`: cut at a foreseen one, else
    /// redone after straddling it): the crossing looked for on its dense output continued past
    /// its end (`crossing_ahead`). Found, its events run there: the flow on, or `None` when
    /// nothing was found (the step ends as an ordinary one).
    fn crossing_past_cut<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        trial: &Trial,
        accepted: Accepted,
        foreseen_cut: bool,
        stats: &mut SolverStats,
    ) -> Result<Option<Flow>, SolverError> {
        let span = (w.t, trial.t_new, trial.h_try);
        let far = (w.redo_far, trial.target);
        let Some(t_event) = self.crossing_ahead(system, span, far, w.tab, stats) else {
            return Ok(None);
        };
        stats.crossings_ahead += 1;
        if foreseen_cut {
            // Found where it was foreseen: not a miss after all (see `accept_step_end`).
            stats.forecast_misses -= 1;
        }
        w.t = t_event;
        w.redo = Redo::None;
        let after = (false, accepted.implicit_active, accepted.h_next, w.h_max);
        match self.after_crossing(system, w.t, after, stats, &mut w.guard)? {
            Some(h_after) => w.h = h_after,
            None => return Ok(Some(Flow::Stop)),
        }
        (w.t_grid0, w.grid_count) = (w.t, 0);
        Ok(Some(Flow::Next))
    }

    /// The ordinary step's end becomes the state (projected; its end slope the next step's
    /// first), the time t_new and the next step h_next, cut to end just before a `foreseen`
    /// crossing (a fraction φ of the full step) when that is worth it.
    fn accept_step_end<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        (t_new, h_next, n): (f64, f64, usize),
        foreseen: Option<f64>,
        stats: &mut SolverStats,
    ) {
        std::mem::swap(&mut self.x, &mut self.x_new);
        let projected = system.project(t_new, &mut self.x);
        self.k.copy_within(w.k_end..w.k_end + n, 0);
        self.k_first_exact = !projected;
        self.zc.accept_step();
        w.t = t_new;
        w.h = h_next;
        let h_full = w.h.min(w.h_max);
        if let Some(phi) = foreseen.filter(|&phi| worth_cutting(phi, h_full, min_step(w.t))) {
            // Cut the next step to end just before the foreseen crossing; `crossing_ahead`
            // looks for it as far past the crossing as the cut ends before it, i.e. up to
            // (1 + FORECAST_MARGIN)·φ of the full step (`crossing_forecast`).
            w.redo_far = w.t + phi * h_full;
            w.h = phi * h_full * (1.0 - FORECAST_MARGIN);
            w.redo = Redo::Foreseen;
            // Counted as a miss until its crossing is found past the cut step's end: every
            // other way out of `Redo::Foreseen` (a rejection, a switch of method, the
            // crossing inside the cut step, nothing found past it) is one.
            stats.foreseen_steps += 1;
            stats.forecast_misses += 1;
        }
    }

    /// The ordinary step landed on its time event (at w.t): its handlers run; the run stops
    /// there if they ask, restarts after a change of the state, else carries on with f as it
    /// was (FSAL) and the crossing functions read again.
    fn time_event_at_step_end<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        stats: &mut SolverStats,
    ) -> Result<Flow, SolverError> {
        self.zc.clear_crossed();
        self.k_first_exact = false;
        let outcome = self.run_event(system, w.t, true, stats, &mut w.guard)?;
        if outcome.stop {
            self.stopped = Some(StopPoint {
                t: w.t,
                after: AfterEvent::Time,
                state_changed: outcome.state_changed,
                h_next: w.h,
                h_max: w.h_max,
                guard: w.guard,
            });
            return Ok(Flow::Stop);
        }
        if outcome.state_changed {
            self.eval_start(system, w.t, stats)?;
            self.restart_crossings(system, w.t, true, stats);
            self.controller.reset();
            self.restart_method();
            w.h = self.starting_step(system, w.t, w.h_max, stats);
        } else {
            // f is unchanged (FSAL holds), but the handler may have redefined
            // zero-crossing functions (a broad phase's watch list): read them again.
            self.restart_crossings(system, w.t, false, stats);
        }
        (w.t_grid0, w.grid_count) = (w.t, 0);
        Ok(Flow::Next)
    }
}
