//! The integration loop's last stage (`walk`): an accepted step ended at a located crossing
//! ([`Solver::end_at_crossing`]: redone to end before it, or cut there and its events run) or
//! as an ordinary step ([`Solver::end_ordinary`]: its rows, a crossing past a cut step's end,
//! the next step's forecast, the step end recorded or its time event).

use super::delivery::{deliver_refined, deliver_samples};
use super::redo::{Redo, REDO_MARGIN};
use super::state::{AfterEvent, Solver, StopPoint};
use super::walk_state::{min_step, Accepted, Flow, Trial, Walk};
use crate::solver::crossing_forecast::{worth_cutting, FORECAST_MARGIN};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::rk_step::{prepare_dense, DenseStep};
use crate::solver::tableau::Tableau;
use crate::solver::{RecordKind, System};

impl Solver {
    /// An accepted step over which a crossing function fired: redone to end before the
    /// crossing, or cut at the located crossing, whose events then run.
    pub(super) fn end_at_crossing<S: System>(
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
        // Slot 0 holds f at a step's start or end, not at the crossing: not f(t_event, x).
        self.k_first_exact = false;
    }

    /// An accepted step without a crossing: its rows and samples, a crossing looked for past a
    /// cut step's end, the next step's forecast, then the step end recorded or its time event.
    pub(super) fn end_ordinary<S: System>(
        &mut self,
        system: &mut S,
        w: &mut Walk,
        trial: &Trial,
        accepted: Accepted,
        (adaptive, n, t_end): (bool, usize, f64),
        stats: &mut SolverStats,
    ) -> Result<Flow, SolverError> {
        let (h_try, t_new, lands) = (trial.h_try, trial.t_new, trial.lands);
        let on_time_event = lands && trial.time_event.is_some();
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
        if cut && !on_time_event {
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
        if on_time_event {
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
