//! Solver errors and run statistics.

/// Why an integration failed. Indices are what the engine maps back to the owning block: `index`
/// in [`NonFinite`](SolverError::NonFinite) and [`StepSizeUnderflow`](SolverError::StepSizeUnderflow)
/// is a state component, in [`Chattering`](SolverError::Chattering) a zero-crossing function.
#[derive(thiserror::Error, Debug, Clone, PartialEq)]
pub enum SolverError {
    /// State or derivative component `index` became NaN or infinite at time `t`, and shrinking the
    /// step down to the underflow limit did not cure it.
    #[error("state/derivative component {index} is not finite at t = {t}")]
    NonFinite {
        /// Time of the failing evaluation.
        t: f64,
        /// Index of the first non-finite component.
        index: usize,
    },
    /// The step size fell below 16·ε·max(1, |t|) while the local error was still too large.
    #[error("step size underflow at t = {t} (step {step:e}); worst state component: {index:?}")]
    StepSizeUnderflow {
        /// Time at the start of the failing step.
        t: f64,
        /// The step that was too small.
        step: f64,
        /// Component with the largest scaled error in the last rejected step.
        index: Option<usize>,
    },
    /// More than `count − 1` = `max_consecutive_events` consecutive events, each within the
    /// chattering window of the previous one (a Zeno system or a handler that never resolves).
    #[error(
        "chattering: zero-crossing function {index} fired {count} times in a row near t = {t}"
    )]
    Chattering {
        /// Time of the last event.
        t: f64,
        /// The (lowest) zero-crossing function index that fired at the last event.
        index: usize,
        /// Number of consecutive events counted.
        count: usize,
    },
    /// A step would not move the time: t + h rounds to t (a step below the resolution of t, from a
    /// `max_step` or `fixed_step` too small for the run's times, or a step size driven to zero).
    #[error("time does not advance at t = {t}: a step of {step:e} is below the resolution of t")]
    TimeDoesNotAdvance {
        /// The time that did not move.
        t: f64,
        /// The step tried.
        step: f64,
    },
    /// More than `max_consecutive_events` time events followed each other within the chattering
    /// window (a sample time or period far below the run's time resolution).
    #[error("time events flood: {count} in a row near t = {t}")]
    TimeEventFlood {
        /// Time of the last event.
        t: f64,
        /// Number of consecutive events counted.
        count: usize,
    },
    /// The run would not end within its budget: at the pace of its recent steps it would need
    /// more than `max_steps` steps (or more than `max_wall_time` seconds) to reach the stop time.
    /// Stiff or fast dynamics that an explicit method creeps through with tiny steps, each one
    /// meeting the tolerances, so that the step size never underflows.
    #[error("stalled at t = {t}: {reason} (steps of about {step:e} lately; stiffest state component: {index:?})")]
    Stalled {
        /// Time reached.
        t: f64,
        /// The mean step over the recent window of steps (s), accepted and rejected attempts.
        step: f64,
        /// Which budget the projection passed.
        reason: StallReason,
        /// The state component that was most often the worst one in the error norm over the
        /// recent steps (the one that limits the step size); `None` without error control.
        index: Option<usize>,
    },
    /// [`System::interrupted`](super::System::interrupted) asked the run to stop (e.g. Ctrl-C); `t`
    /// is the last accepted time, already recorded.
    #[error("interrupted at t = {t}")]
    Interrupted {
        /// The last accepted time.
        t: f64,
    },
    /// A run with islands (`[solver] islands = true`) could not go on: at `t` an island's event
    /// left one of a contact group's watched pairs across two islands (a cut at the start of a
    /// stretch), and the synchronisation there did not join the two islands, so the stretch
    /// would be cut at its start again and again.
    #[error("islands: at t = {t} s an island's event left a contact group's watched pair across two islands, and the synchronisation there did not join them (the run cannot advance); run with [solver] islands = false")]
    IslandsNotJoined {
        /// The time of the cut (s).
        t: f64,
    },
    /// The options, the initial state or the time span are unusable.
    #[error("invalid solver input: {0}")]
    InvalidOptions(String),
}

/// Which budget a stalled run passed (see [`SolverError::Stalled`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StallReason {
    /// The steps taken, plus those the recent pace needs to reach the stop time, pass `max_steps`.
    Steps {
        /// Trial steps taken so far (accepted and rejected).
        taken: u64,
        /// Projected total at the recent pace (∞ when time stood still).
        projected: f64,
        /// The budget.
        max_steps: u64,
    },
    /// The elapsed wall-clock time, or its projection to the stop time, passes `max_wall_time`.
    WallTime {
        /// Seconds elapsed.
        elapsed: f64,
        /// Projected total seconds at the recent pace.
        projected: f64,
        /// The budget (s).
        max_wall_time: f64,
    },
}

impl std::fmt::Display for StallReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            StallReason::Steps {
                taken,
                projected,
                max_steps,
            } => write!(
                f,
                "{taken} steps taken, {projected:.1e} projected to the stop time, more than max_steps = {max_steps}"
            ),
            StallReason::WallTime {
                elapsed,
                projected,
                max_wall_time,
            } => write!(
                f,
                "{elapsed:.1e} s elapsed, {projected:.1e} s projected to the stop time, more than max_wall_time = {max_wall_time:?} s"
            ),
        }
    }
}

/// Counters of one [`Solver::integrate`](super::Solver::integrate) run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverStats {
    /// Accepted steps (a step cut short at a zero crossing counts as one).
    pub steps: usize,
    /// Steps rejected by the error test or because a stage derivative was not finite.
    pub rejected_steps: usize,
    /// Accepted steps that were redone to end at the zero crossing they straddled (not counted in
    /// `steps`): the state at an event comes from a step end, not from the dense output.
    pub redone_steps: usize,
    /// Calls of `System::derivatives` (stages, starting-step heuristic, restarts after events).
    pub function_evaluations: usize,
    /// Located zero-crossing events (instants; several functions crossing together count once).
    pub zero_crossings: usize,
    /// Of those, the crossings found past a redone step's end, or past the end of a step cut
    /// short where the crossing was foreseen, on its dense output continued a little (crossings
    /// that keep the dynamics only: a contact group's onsets, see
    /// [`System::crossing_keeps_dynamics`](super::System::crossing_keeps_dynamics)); each saves
    /// the step that would otherwise have been taken onto it.
    pub crossings_ahead: usize,
    /// Steps cut short to end just before a crossing foreseen by extrapolating the crossing
    /// functions from the last step ends (explicit methods, crossings that keep the dynamics
    /// only; see `crossing_forecast`), counted when the cut is made.
    pub foreseen_steps: usize,
    /// Of those, the forecasts whose crossing was not found just past the cut step's end (and
    /// so not counted in `crossings_ahead`): the crossing came inside the cut step, or not
    /// within the look past its end, or the cut step was rejected or the method switched before
    /// it was taken. `foreseen_steps − forecast_misses` crossings were found where foreseen.
    pub forecast_misses: usize,
    /// Calls of `System::zero_crossings`: at every accepted step's end, in the location of each
    /// crossing on the dense output, after each event (and its slope probe), and after a
    /// rejected step (its secant estimate). For a diagram each asks for the outputs at a point (a
    /// step-end call is served from the output cache when the last stage evaluated there).
    pub crossing_evaluations: usize,
    /// Time events handled.
    pub time_events: usize,
    /// Time reached: t_end, or the instant a handler asked to stop.
    pub final_time: f64,
    /// Jacobians formed by finite differences (implicit methods; their evaluations of f are
    /// counted in `function_evaluations`).
    pub jacobian_evaluations: usize,
    /// LU factorizations of the Newton matrix I − h·d·J (implicit methods).
    pub lu_factorizations: usize,
    /// Of those, the ones made by the sparse LU (see [`SolverOptions::sparse_lu`](super::SolverOptions::sparse_lu)).
    pub sparse_lu_factorizations: usize,
    /// Symbolic analyses of the sparse LU: one per new Jacobian pattern taken on the sparse path
    /// (a contact group's watched pairs changed).
    pub sparse_analyses: usize,
    /// Switches between the explicit and the implicit method (`method = "auto"`; 0 otherwise).
    pub method_switches: usize,
    /// Accepted steps of an explicit method (dopri5 under `auto`), and of ros34pw2 (linearly
    /// implicit: no Newton iteration); with `implicit_steps`, they add up to `steps`.
    pub explicit_steps: usize,
    /// Accepted steps of an implicit method (`auto`'s stiff phases: trbdf2 or esdirk43, see
    /// [`SolverOptions::stiff_method`](super::SolverOptions::stiff_method)).
    pub implicit_steps: usize,
    /// `method = "rkc"`: the most stages a trial step took (0 for the other methods).
    pub rkc_max_stages: usize,
    /// `method = "rkc"`: evaluations of f spent estimating the spectral radius (power
    /// iteration); counted in `function_evaluations` too.
    pub radius_evaluations: usize,
}
