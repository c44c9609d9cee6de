//! Why a run stopped early, and why its options could not start it: below the engine, the
//! recorder, the output budget and the run loop, which all raise them.

use super::budget;
use crate::output::OutputError;

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A block produced NaN or an infinity.
    #[error("at t = {t} s, block '{block}' produced a non-finite {what} (NaN or infinity)\n  help: check the block's parameters and inputs near that time; a stiff contact may need a smaller max_step or tighter tolerances", t = readable_time(.t))]
    NonFinite {
        /// The block whose output or state derivative it was.
        block: String,
        /// Which value: `output 'out'`, `derivative of x[0]`, `state <name>`.
        what: String,
        /// s.
        t: f64,
    },
    /// A block reported a failure of its own (a mechanism that cannot close a loop, a rigid
    /// contact problem without a solution, …).
    #[error("at t = {t} s, block '{block}' failed: {message}", t = readable_time(.t))]
    BlockFailed {
        /// The block.
        block: String,
        /// Its own words.
        message: String,
        /// s.
        t: f64,
    },
    /// The adaptive step fell below the smallest the solver takes without meeting the
    /// tolerances.
    #[error("at t = {t} s, the step size fell to {step:e} s without meeting the tolerances (hardest state: {state})\n  help: loosen rel_tol/abs_tol, soften stiff parameters, or enable zero crossings for contacts", t = readable_time(.t))]
    StepSizeUnderflow {
        /// s.
        t: f64,
        /// The last step tried, s.
        step: f64,
        /// The state with the largest error, as `'block' (state)`.
        state: String,
    },
    /// A zero crossing fired again and again without time advancing.
    #[error("chattering at t = {t} s: zero crossing {crossing} of block '{block}' fired {count} times in a row within a tiny time window\n  help: the model switches back and forth without advancing time (e.g. a bouncing ball that comes to rest); stop it earlier, add a rest condition, or damp the motion", t = readable_time(.t))]
    Chattering {
        /// The block whose crossing fired.
        block: String,
        /// The crossing's index in the block.
        crossing: usize,
        /// s.
        t: f64,
        /// How many times in a row it fired.
        count: usize,
    },
    /// A block's modes kept switching at one instant.
    #[error("at t = {t} s, the modes of block '{block}' did not settle: they kept switching after {rounds} re-evaluations\n  help: check switching thresholds (hysteresis) of the blocks feeding it", rounds = 100, t = readable_time(.t))]
    Unsettled {
        /// The block whose modes kept switching.
        block: String,
        /// s.
        t: f64,
    },
    /// The step is below the resolution of t.
    #[error("at t = {t} s, time does not advance: a step of {step:e} s is below the resolution of t (about {resolution:e} s there)\n  help: raise [solver] max_step or fixed_step above {resolution:e} s, or loosen abs_tol if states are tiny", t = readable_time(.t))]
    TimeDoesNotAdvance {
        /// s.
        t: f64,
        /// The step, s.
        step: f64,
        /// The spacing of f64 values near t, s.
        resolution: f64,
    },
    /// Time events closer together than the run can take.
    #[error("at t = {t:e} s, {count} time events followed each other, each within 1e-10·max(1, t) s of the last: a sample time or period (ZeroOrderHold sample_time, PulseGenerator period, a discrete block's sample time) is far below the run's time scale\n  help: raise it; a run cannot take that many events")]
    TimeEventFlood {
        /// s.
        t: f64,
        /// How many time events followed each other.
        count: usize,
    },
    /// A step, evaluation or time budget ran out (`[solver] max_steps`, …).
    #[error("the run stalled at t = {} s: {reason}; its steps were about {step:.1e} s lately\n  stiffest block (its states set the step size most often): {stiffest}{contact}\n  help: {help}; if the run is merely long, shorten stop_time or raise the budget named above", readable_time(.t))]
    Stalled {
        /// s.
        t: f64,
        /// The recent step size, s.
        step: f64,
        /// Which budget was passed, with the numbers.
        reason: String,
        /// The block and state that limit the step size, as `'block' (state)`.
        stiffest: String,
        /// When a contact's mode explains the step: a line naming the contact, the mode and the
        /// rate (starting with a newline); else empty.
        contact: String,
        /// What to change: the contact's parameter when one is named, else the stiff solver or
        /// gentler parameters of the stiffest block.
        help: String,
    },
    /// Solver settings that cannot be used (given in code, past the model's checks).
    #[error("invalid solver settings: {0}")]
    InvalidOptions(String),
    /// A run with islands could not go on at `t`: an island's event left a watched pair across
    /// two islands that the synchronisation did not join
    /// ([`crate::solver::SolverError::IslandsNotJoined`]; the message names the way out).
    #[error("{}", crate::solver::SolverError::IslandsNotJoined { t: *t })]
    Islands {
        /// The time of the cut (s).
        t: f64,
    },
    /// [`RunOptions`](super::RunOptions) that do not fit each other or the model.
    #[error("invalid run options: {0}")]
    Options(#[from] RunOptionsError),
    /// The run's interrupt flag was set (by a signal: Ctrl-C or SIGTERM on the command line).
    #[error("interrupted at t = {t} s (by a signal: Ctrl-C or SIGTERM)")]
    Interrupted {
        /// s.
        t: f64,
    },
    /// A streamed output file could not be written.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// The run's projected output passes the output budget (`[output] max_bytes`); refused
    /// before it starts. See [`budget`].
    #[error("the run's output would be at least {} GB ({:.3e} rows from {} × {} columns), more than the output budget of {} GB\n  help: record fewer rows (a larger [output] sample_time or [solver] max_step), shorten stop_time or log fewer signals; or raise the budget: [output] max_bytes = {:.1e} (or --set output.max_bytes={:.1e})", budget::gb(&.projection.bytes), .projection.rows, .projection.from, .projection.columns, budget::gb(.budget), budget::suggest(&.projection.bytes), budget::suggest(&.projection.bytes))]
    OutputBudget {
        /// The least output the run would write.
        projection: budget::Projection,
        /// The budget, bytes.
        budget: f64,
    },
}

/// Why [`RunOptions`](super::RunOptions) cannot start a run on a diagram.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunOptionsError {
    /// `resume_from` with `start_time` or `initial_state`.
    #[error("resume_from takes its time and state from the checkpoint: leave start_time and initial_state unset")]
    ResumeWithStart,
    /// A negative or non-finite `start_time`.
    #[error("start_time must be 0 or later, got {start_time}")]
    BadStartTime {
        /// s.
        start_time: f64,
    },
    /// An `initial_state` of the wrong length.
    #[error("initial_state has {given} values; the model has {states} states")]
    StateLength {
        /// Values given.
        given: usize,
        /// The model's continuous states.
        states: usize,
    },
    /// A checkpoint of another diagram.
    #[error("the checkpoint was taken on another model ({checkpoint_states} states, {checkpoint_signals} signal values; this one has {states} and {signals})")]
    ForeignCheckpoint {
        /// The checkpoint's continuous states.
        checkpoint_states: usize,
        /// The checkpoint's signal values.
        checkpoint_signals: usize,
        /// This diagram's continuous states.
        states: usize,
        /// This diagram's signal values.
        signals: usize,
    },
    /// A parameter set compiled against another diagram.
    #[error("the parameter set was compiled on another model: compile it with Blueprint::parameters for this diagram")]
    ForeignParameters,
    /// `resume_from` with `parameters`.
    #[error("a resumed run keeps the parameters of the run that took its checkpoint: leave parameters unset")]
    ResumeWithOtherParameters,
}

impl From<budget::OverBudget> for SimError {
    fn from(over: budget::OverBudget) -> Self {
        SimError::OutputBudget {
            projection: over.projection,
            budget: over.budget,
        }
    }
}

/// A time for a message: plain decimals where they read well, else scientific notation (not
/// 1e-300 written out with 300 zeros).
pub fn readable_time(t: &f64) -> String {
    if *t == 0.0 || (1e-4..1e7).contains(&t.abs()) {
        format!("{t}")
    } else {
        format!("{t:e}")
    }
}
