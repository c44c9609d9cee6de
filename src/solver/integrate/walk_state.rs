//! What the integration loop's stages hand each other (`walk`, `step_end`): the [`Walk`] carried
//! over the steps, a planned [`Trial`], an [`Accepted`] step and the [`Flow`] after a step's end.

use super::redo::Redo;
use super::state::ChatterGuard;
use crate::solver::tableau::Tableau;

/// Smallest admissible step at time t: 16·ε·max(1, |t|).
pub(super) fn min_step(t: f64) -> f64 {
    16.0 * f64::EPSILON * t.abs().max(1.0)
}

/// What the loop carries from one trial step to the next.
pub(super) struct Walk {
    /// The time reached, s.
    pub(super) t: f64,
    /// The step to try next, s.
    pub(super) h: f64,
    /// The largest step, s.
    pub(super) h_max: f64,
    pub(super) guard: ChatterGuard,
    /// The method's tableau (auto's switches change it) and the slot of its end slope in `k`.
    pub(super) tab: &'static Tableau,
    pub(super) k_end: usize,
    /// Whether the last trial step was rejected (the controller's history).
    pub(super) last_rejected: bool,
    /// Redoing a step that straddled a crossing (see [`Solver::end_at_crossing`]).
    pub(super) redo: Redo,
    /// The far side of the crossing a redone step ends before, on the straddling step's
    /// dense output (see `crossing_ahead`).
    pub(super) redo_far: f64,
    /// Fixed-step grid: t_grid0 + grid_count·fixed_step since the last restart.
    pub(super) t_grid0: f64,
    pub(super) grid_count: u64,
}

/// A trial step as planned.
#[derive(Clone, Copy)]
pub(super) struct Trial {
    /// Its size and end, s.
    pub(super) h_try: f64,
    pub(super) t_new: f64,
    /// Whether it ends exactly on its target.
    pub(super) lands: bool,
    /// The time event it aims at, if any, s.
    pub(super) time_event: Option<f64>,
    /// The time event or the run's end, s.
    pub(super) target: f64,
}

/// An accepted step.
#[derive(Clone, Copy)]
pub(super) struct Accepted {
    /// The next step's size, s.
    pub(super) h_next: f64,
    /// Whether the implicit method took it.
    pub(super) implicit_active: bool,
    /// Auto's h·ρ of an accepted dopri5 step (NaN otherwise).
    pub(super) stiffness: f64,
}

/// What the loop does after a step ended.
pub(super) enum Flow {
    /// The next trial step.
    Next,
    /// The run stops here (an event asked, or the run's end).
    Stop,
}
