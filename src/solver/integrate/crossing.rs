//! The loop's handling of a located crossing, and the crossing found past a redone step's end.
//!
//! # Past the end, for crossings that keep the dynamics only
//!
//! A step that straddled a crossing is redone to end just before it (see the loop). When every
//! function that fired on the straddling step keeps the dynamics
//! ([`System::crossing_keeps_dynamics`]: a contact group's onset, where the penalty force
//! rises from 0, and the event only re-chooses the group's watched pairs), the straddling step
//! locates it coarsely (to `REDO_MARGIN` of the
//! step), and the crossing then lies within a few thousandths of the redone step past its end:
//! at most `REDO_MARGIN`·(near side − step start) plus the coarse bracket's width
//! (`REDO_MARGIN` times the straddling step) beyond it, where the straddling step's dense
//! output had it, give or take that output's error. Rather than a further step across it (six
//! evaluations of f, cut at its first thousandth, and often rejected first for the kink it
//! carries), the redone step's own dense output is continued past its end to twice the
//! straddling step's far side: a polynomial in θ = (t − t_start)/h evaluated at θ slightly
//! above 1, whose deviation from the solution there is that of the step end (the solution is
//! smooth up to the crossing, and the continuation is as long as the margin, ~2e-3·h), so the
//! state at the crossing is as accurate as the step end's. If no function crosses within the
//! continuation, or one does whose events do not keep the dynamics, nothing changed and the
//! next step proceeds as before (it locates that crossing to the event tolerance).
//!
//! The accepted step then ends at the event: its computed end t_new lies inside the continued
//! output and is recorded as a `Refined` row, the event as `EventBefore`, as for any crossing
//! located inside a step. Each accepted step therefore ends in exactly one `Step`,
//! `EventBefore` (or `Final`) record, which `check`'s probe counts steps by.
//!
//! A step cut short where a crossing was foreseen (`crossing_forecast`) ends the same way: the
//! crossing is looked for past its end up to the forecast's margin beyond it.
//!
//! Every other crossing (pair blocks, rigid modes, friction modes, time events) is located to
//! the event tolerance on the straddling step, and the redone step is followed by a step that
//! locates it, exactly as before this shortcut (docs/design-notes.md, "pile6").

use super::state::{AfterEvent, ChatterGuard, Solver, StopPoint};
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::events::chattering_window;
use crate::solver::finite::first_non_finite;
use crate::solver::rk_step::{prepare_dense, DenseStep};
use crate::solver::tableau::Tableau;
use crate::solver::EventOutcome;
use crate::solver::{RecordKind, System};

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
            self.restart_method();
            self.starting_step(system, t, h_max, stats)
        } else {
            // A contact opened or closed: ρ(J), RKC's ρ, must describe the new mode.
            self.restart_after_crossing(implicit_active);
            h_next
        }))
    }

    /// After the redone step (t, x) → (t_new, x_new) of size h (`span`), accepted with g at its
    /// end in the tracker's `g_end` and its refined rows and samples delivered: looks for the
    /// crossing it was redone for on its dense output continued past t_new, up to
    /// 2·far − t_new (`far`: the crossing's far side on the straddling step's coarse output;
    /// NaN when the straddling step was located exactly, then nothing is looked for) and at
    /// most halfway to the next `target` (a time event or the stop time, which the loop lands
    /// on). Found, and every function crossing there keeps the dynamics, the crossing is
    /// located there to the event tolerance as on any step's output; the step end is recorded
    /// as a `Refined` row, the sample times up to the crossing are delivered from the continued
    /// output, and the state at the crossing is put in `self.x`: returns its time. Otherwise
    /// `None`, with the tracker as it was (g at t_new in `g_end`, no candidate).
    pub(super) fn crossing_ahead<S: System>(
        &mut self,
        system: &mut S,
        (t, t_new, h): (f64, f64, f64),
        (far, target): (f64, f64),
        tab: &'static Tableau,
        stats: &mut SolverStats,
    ) -> Option<f64> {
        if self.zc.len() == 0 || far.is_nan() || far <= t_new {
            return None;
        }
        let t_ext = (2.0 * far - t_new).min(t_new + 0.5 * (target - t_new));
        if t_ext <= t_new {
            return None;
        }
        prepare_dense(tab, h, &self.k, &mut self.dense);
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
            h,
            x,
            x_new,
            k,
            d: dense,
        };
        zc.accept_step();
        step.interpolate((t_ext - t) / h, x_interp);
        system.zero_crossings(t_ext, x_interp, &mut zc.g_end);
        stats.crossing_evaluations += 1;
        // Only a coarse redo or a step cut at a foreseen crossing gets here, and only when every
        // function keeps the dynamics (the loop's `coarse`, the forecast's `allowed`): whatever
        // crosses in the continuation is such a crossing.
        if !zc.detect() {
            zc.restore_end();
            return None;
        }
        // The step now ends at the event (see the module documentation).
        system.record(t_new, x_new, RecordKind::Refined);
        let mut evaluations = 0;
        let t_event = zc.locate(t_new, t_ext, |tt, g| {
            step.interpolate((tt - t) / h, x_interp);
            system.zero_crossings(tt, x_interp, g);
            evaluations += 1;
        });
        stats.crossing_evaluations += evaluations;
        let mut last = t_new;
        while let Some(ts) = system
            .next_sample_time()
            .filter(|&ts| ts <= t_event && ts > last)
        {
            last = ts;
            step.interpolate((ts - t) / h, x_interp);
            system.sample(ts, x_interp);
        }
        step.interpolate((t_event - t) / h, x_interp);
        self.x.copy_from_slice(&self.x_interp);
        // Slot 0 still holds f at the step's start: not f(t_event, x).
        self.k_first_exact = false;
        Some(t_event)
    }
}

impl Solver {
    /// After an accepted step of size `h_last` with g at its end in the tracker's `g_end`
    /// (before the tracker accepts it): the fraction of the next step, of size `h_next`, at
    /// which a crossing is foreseen (`crossing_forecast`), when `allowed` and every function of
    /// the system keeps the dynamics (as for the coarse redo: the step is then cut before it and
    /// the crossing looked for past its end). `usable`: the tracker's start values are the
    /// step's own.
    pub(super) fn foresee_crossing<S: System>(
        &mut self,
        system: &S,
        steps: (f64, f64),
        allowed: bool,
        usable: bool,
    ) -> Option<f64> {
        if self.zc.len() == 0 {
            return None;
        }
        self.forecast
            .foresee(&self.zc, steps, allowed, usable)
            .filter(|_| (0..self.zc.len()).all(|i| system.crossing_keeps_dynamics(i)))
    }
}

/// The event itself, once located: recorded, handled, and the chatter guard told.
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
}
