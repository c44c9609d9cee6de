//! Checkpoints: a run stopped by an event handler, resumed later exactly where it stopped.
//!
//! When [`System::handle_events`] asks to stop, the loop ends right after the handlers ran, before
//! the restart that would follow the event (re-evaluating f, the crossing functions, and, when
//! the event changed the state, the controller's history, the implicit method's Jacobian and the
//! step size). A [`SolverCheckpoint`] keeps everything that restart reads: the state, the
//! first-same-as-last derivative, the step-size controller, the crossing functions' arming, the
//! implicit method's Jacobian and LU, the step size the controller chose and the chattering
//! guard. [`Solver::resume`] performs that restart and continues the loop, so a run resumed from
//! a checkpoint takes the same steps, bit for bit, as one that never stopped, provided the system
//! is restored to the same point too (its own state: modes, discrete states).

use super::state::{AfterEvent, LoopState, Solver, StopPoint};
use crate::solver::auto::AutoSwitch;
use crate::solver::error::{SolverError, SolverStats};
use crate::solver::events::ZeroCrossings;
use crate::solver::rkc::Rkc;
use crate::solver::rosenbrock::Rosenbrock;
use crate::solver::step_control::PiController;
use crate::solver::trbdf2::Trbdf2;
use crate::solver::System;

/// A stopped run's solver state, to resume from (see the module documentation). Resuming does
/// not consume it: one checkpoint can start any number of runs.
#[derive(Clone, Debug)]
pub struct SolverCheckpoint {
    x: Vec<f64>,
    /// k₁: f at (t, x) as the step before the event left it.
    k_first: Vec<f64>,
    /// `Solver::k_first_exact` with it.
    k_first_exact: bool,
    controller: PiController,
    zero_crossings: ZeroCrossings,
    implicit: Option<Box<Trbdf2>>,
    /// `Method::Rkc`: ρ, its direction and its age (when the next estimate falls due).
    rkc: Option<Box<Rkc>>,
    /// `Method::Ros34pw2`: its Jacobian, LU and their ages.
    rosenbrock: Option<Box<Rosenbrock>>,
    /// `Method::Auto`: the method in use, the counts, the spare controller, a switch due.
    auto: Option<AutoSwitch>,
    stop: StopPoint,
}

impl SolverCheckpoint {
    /// The time the run stopped at, s.
    pub fn time(&self) -> f64 {
        self.stop.t
    }

    /// The state the run stopped with (after the event's handlers).
    pub fn state(&self) -> &[f64] {
        &self.x
    }
}

impl Solver {
    /// The checkpoint of the last run, if an event handler stopped it (`None` when it ran to its
    /// end or failed).
    pub fn checkpoint(&self) -> Option<SolverCheckpoint> {
        let stop = self.stopped?;
        let n = self.x.len();
        Some(SolverCheckpoint {
            x: self.x.clone(),
            k_first: self.k[..n].to_vec(),
            k_first_exact: self.k_first_exact,
            controller: self.controller.clone(),
            zero_crossings: self.zc.clone(),
            implicit: self.implicit.clone(),
            rkc: self.rkc.clone(),
            rosenbrock: self.rosenbrock.clone(),
            auto: self.auto.clone(),
            stop,
        })
    }

    /// Continues a run from `checkpoint` to `t_end`, taking the steps the run would have taken
    /// had it not stopped (with the same options and a system restored to the same point). The
    /// first row recorded is the checkpoint's point (`RecordKind::Initial`).
    pub fn resume<S: System>(
        &mut self,
        system: &mut S,
        checkpoint: &SolverCheckpoint,
        t_end: f64,
    ) -> Result<SolverStats, SolverError> {
        let t = checkpoint.time();
        self.check_inputs(system, t, &checkpoint.x, t_end)?;
        let n = self.x.len();
        if self.implicit.is_some() != checkpoint.implicit.is_some()
            || self.auto.is_some() != checkpoint.auto.is_some()
            || self.rkc.is_some() != checkpoint.rkc.is_some()
            || self.rosenbrock.is_some() != checkpoint.rosenbrock.is_some()
        {
            return Err(SolverError::InvalidOptions(
                "the checkpoint was taken with another integration method".into(),
            ));
        }
        self.stopped = None;
        self.x.copy_from_slice(&checkpoint.x);
        self.k[..n].copy_from_slice(&checkpoint.k_first);
        self.k_first_exact = checkpoint.k_first_exact;
        self.controller.clone_from(&checkpoint.controller);
        self.zc.clone_from(&checkpoint.zero_crossings);
        self.forecast.forget();
        self.implicit.clone_from(&checkpoint.implicit);
        self.rkc.clone_from(&checkpoint.rkc);
        self.rosenbrock.clone_from(&checkpoint.rosenbrock);
        self.auto.clone_from(&checkpoint.auto);
        self.restart_from_stop(system, checkpoint.stop, t_end)
    }

    /// Continues the last run, which an event handler stopped, from where it stopped to
    /// `t_end`: what [`Solver::resume`] does with the run's own [`Solver::checkpoint`], without
    /// copying one (nothing is allocated). The system must be at that point too; it may have
    /// redefined its zero-crossing functions meanwhile (they are read again), but not changed
    /// the state. [`SolverError::InvalidOptions`] when the last run did not stop at an event.
    pub fn continue_run<S: System>(
        &mut self,
        system: &mut S,
        t_end: f64,
    ) -> Result<SolverStats, SolverError> {
        let Some(stop) = self.stopped else {
            return Err(SolverError::InvalidOptions(
                "continue_run: the last run did not stop at an event".into(),
            ));
        };
        self.check_inputs(system, stop.t, &self.x, t_end)?;
        self.stopped = None;
        self.restart_from_stop(system, stop, t_end)
    }

    /// The restart after the event a run stopped at, then the loop to `t_end` (the solver's
    /// buffers hold the stopped run's state).
    fn restart_from_stop<S: System>(
        &mut self,
        system: &mut S,
        stop: StopPoint,
        t_end: f64,
    ) -> Result<SolverStats, SolverError> {
        let t = stop.t;
        if let Some(auto) = self.auto.as_mut() {
            auto.resumed();
            self.tableau = self.phase_tableau();
            system.method_changed(t, self.current_method());
        }
        let mut stats = SolverStats {
            final_time: t,
            ..Default::default()
        };
        self.record_start(system, t);
        self.stall.start(t, t_end);
        let restart = stop.after == AfterEvent::Crossing || stop.state_changed;
        let mut h = stop.h_next;
        if restart && t_end > t {
            self.eval_start(system, t, &mut stats)?;
            self.restart_crossings(system, t, stop.state_changed, &mut stats);
            if stop.state_changed {
                self.controller.reset();
                self.restart_method();
                h = self.starting_step(system, t, stop.h_max, &mut stats);
            } else if stop.after == AfterEvent::Crossing {
                // As the loop does after a crossing (auto's implicit phase, RKC).
                self.restart_after_crossing(self.implicit_active());
            }
        } else if stop.after == AfterEvent::Time && t_end > t {
            // As the loop does after a time event that changed no state: f is unchanged, but the
            // handler may have redefined zero-crossing functions (a broad phase's watch list).
            self.restart_crossings(system, t, false, &mut stats);
        }
        let state = LoopState {
            t,
            h,
            h_max: stop.h_max,
            guard: stop.guard,
        };
        self.run_loop(system, state, t_end, stats)
    }
}
