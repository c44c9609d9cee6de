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
    /// [`System::interrupted`](super::System::interrupted) asked the run to stop (e.g. Ctrl-C); `t`
    /// is the last accepted time, already recorded.
    #[error("interrupted at t = {t}")]
    Interrupted {
        /// The last accepted time.
        t: f64,
    },
    /// The options, the initial state or the time span are unusable.
    #[error("invalid solver input: {0}")]
    InvalidOptions(String),
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
    /// Time events handled.
    pub time_events: usize,
    /// Time reached: t_end, or the instant a handler asked to stop.
    pub final_time: f64,
    /// Jacobians formed by finite differences (implicit methods; their evaluations of f are
    /// counted in `function_evaluations`).
    pub jacobian_evaluations: usize,
    /// LU factorizations of the Newton matrix I − h·d·J (implicit methods).
    pub lu_factorizations: usize,
}
