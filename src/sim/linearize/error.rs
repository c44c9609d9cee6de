//! Why a diagram could not be linearized: below the name resolution, the evaluation and the
//! entry point, which all raise it.

use crate::model::Diagnostic;
use crate::sim::SimError;

/// Why a diagram could not be linearized.
#[derive(Debug, thiserror::Error)]
pub enum LinearizeError {
    /// An input or output name that is not a port of the diagram.
    #[error("{0}")]
    Name(Box<Diagnostic>),
    /// An output that nothing in the model reads (no line, not logged): blocks need not compute
    /// such outputs. `blockdyn linearize` and [`crate::command::linearize::linearize_model`] add
    /// the outputs to `[output] log` and build the model again.
    #[error("--outputs '{name}': nothing in the model reads this output (no line leaves it and it is not logged), so its block need not compute it\n  help: add it to the model's [output] log = [\"{name}\"] (blockdyn linearize does so itself)")]
    UnusedOutput {
        /// The output's name, `BLOCK.PORT`.
        name: String,
    },
    /// An input named twice in `--inputs` (each input is perturbed once: a second perturbation
    /// of the same port would leave its column silently zero).
    #[error("--inputs names '{name}' twice: each input is perturbed once\n  help: remove the repeated '{name}'")]
    DuplicateInput {
        /// The repeated name.
        name: String,
    },
    /// The operating time is not in [0, stop time].
    #[error("--at {at}: the operating time must be a time of the run, from 0 to the stop time {stop_time} s")]
    Time {
        /// The requested time, s.
        at: f64,
        /// The model's stop time, s.
        stop_time: f64,
    },
    /// The model could not start (its recording).
    #[error("{0}")]
    Model(Box<Diagnostic>),
    /// The run to the operating time failed.
    #[error("the run to the operating time t = {at} s failed: {source}")]
    Run {
        /// The operating time, s.
        at: f64,
        /// Why the run failed.
        source: Box<SimError>,
    },
    /// A derivative or output is not finite at the operating point or a perturbation of it.
    #[error("at the operating point (t = {t} s) {what} is not finite (NaN or infinity): there is no linearization there")]
    NonFinite {
        /// The operating time, s.
        t: f64,
        /// Which value (`the derivative of STATE`, `output NAME`), and under which perturbation.
        what: String,
    },
}

impl From<Diagnostic> for LinearizeError {
    fn from(d: Diagnostic) -> Self {
        LinearizeError::Model(Box::new(d))
    }
}
