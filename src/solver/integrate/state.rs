//! The solver's state: its buffers and settings ([`Solver`]), what the loop carries from step
//! to step, and where a stopped run stands. Below the loop (`mod.rs`) and its helpers
//! (`resume`, `step`, `switching`, `crossing`), which all read it.

use crate::solver::auto::AutoSwitch;
use crate::solver::crossing_forecast::CrossingForecast;
use crate::solver::events::ZeroCrossings;
use crate::solver::options::{Method, SolverOptions};
use crate::solver::rkc::Rkc;
use crate::solver::rosenbrock::Rosenbrock;
use crate::solver::stall::StallWatch;
use crate::solver::step_control::PiController;
use crate::solver::tableau::{Tableau, DOPRI5};
use crate::solver::trbdf2::Trbdf2;

/// Consecutive-event counter of the chattering guard.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChatterGuard {
    pub(super) count: usize,
    pub(super) last_t: f64,
}

/// An ODE solver with its work buffers, for systems of fixed dimensions.
pub struct Solver {
    pub(super) options: SolverOptions,
    pub(super) tableau: &'static Tableau,
    pub(super) controller: PiController,
    /// The current state (the final state after a run).
    pub(super) x: Vec<f64>,
    pub(super) x_new: Vec<f64>,
    pub(super) x_stage: Vec<f64>,
    pub(super) err: Vec<f64>,
    /// Stage derivatives, (stages + 1)·n.
    pub(super) k: Vec<f64>,
    /// Stage slot 0 holds f evaluated at exactly the current (t, x): true after `eval_start`
    /// and after a step end whose projection left x as the evaluation saw it; false when the
    /// projection moved x or a time event's handlers ran (f is unchanged by contract, but not
    /// evaluated there). ros34pw2 forms its Jacobian from slot 0 only when it is true.
    pub(super) k_first_exact: bool,
    /// Per-step dense-output coefficients.
    pub(super) dense: Vec<f64>,
    pub(super) x_interp: Vec<f64>,
    pub(super) zc: ZeroCrossings,
    /// The crossings foreseen one step ahead (`crossing_forecast`).
    pub(super) forecast: CrossingForecast,
    /// The implicit method's Newton state and buffers (`None` for explicit methods).
    pub(super) implicit: Option<Box<Trbdf2>>,
    /// RKC's spectral radius and stage buffers (`None` for the other methods).
    pub(super) rkc: Option<Box<Rkc>>,
    /// ROS34PW2's Jacobian, LU and stage buffers (`None` for the other methods).
    pub(super) rosenbrock: Option<Box<Rosenbrock>>,
    /// `Method::Auto`'s stiffness detection and the spare controller (`None` for the others).
    pub(super) auto: Option<AutoSwitch>,
    /// The step budget and the stiffest-component tally.
    pub(super) stall: StallWatch,
    /// Where the last run stopped because an event handler asked it to (see
    /// [`Solver::checkpoint`]); `None` when it ran to its end or failed.
    pub(super) stopped: Option<StopPoint>,
}

/// What the integration loop carries from step to step.
pub(super) struct LoopState {
    pub(super) t: f64,
    /// The step size to try next.
    pub(super) h: f64,
    pub(super) h_max: f64,
    pub(super) guard: ChatterGuard,
}

/// Which kind of event the run stopped at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterEvent {
    /// A located zero crossing: the restart re-evaluates f and the crossing functions.
    Crossing,
    /// A time event at a step's end: f and the crossings carry on unless the state changed.
    Time,
}

/// Where the loop stopped, and what its restart needs besides the solver's buffers.
#[derive(Clone, Copy, Debug)]
pub(super) struct StopPoint {
    /// The time the run stopped at, s.
    pub(super) t: f64,
    pub(super) after: AfterEvent,
    /// The handlers changed the state or the modes.
    pub(super) state_changed: bool,
    /// The step the controller chose before the event, kept when the state did not change.
    pub(super) h_next: f64,
    pub(super) h_max: f64,
    pub(super) guard: ChatterGuard,
}

/// The phase queries: which method takes the steps now (the solver's state, read by the step,
/// the switching and the event handling alike).
impl Solver {
    /// Whether the implicit method takes the steps: always for trbdf2 and esdirk43, in the stiff
    /// phases for auto, never for the explicit methods.
    pub(super) fn implicit_active(&self) -> bool {
        self.implicit.is_some() && self.auto.as_ref().is_none_or(|a| a.stiff)
    }

    /// The tableau of the phase in use: the implicit method's while it is active, else dopri5's
    /// (auto's explicit phase; only called under auto).
    pub(super) fn phase_tableau(&self) -> &'static Tableau {
        match self.implicit.as_deref().filter(|_| self.implicit_active()) {
            Some(implicit) => implicit.tableau(),
            None => &DOPRI5,
        }
    }

    /// The method taking the steps.
    pub(super) fn current_method(&self) -> Method {
        match &self.auto {
            Some(a) if a.stiff => self.options.stiff_method(),
            Some(_) => Method::Dopri5,
            None => self.options.method,
        }
    }
}
