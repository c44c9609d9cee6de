//! What the engine takes from a run's setup, below both the run (`sim/mod.rs`) and the engine:
//! the solver options a diagram was built with, and the progress callback's type.

use crate::diagram::Diagram;
use crate::solver::{Method, SolverOptions};

/// A run's progress callback: the simulated time at each recorded point and, under
/// `method = "auto"`, the method in use (`None` for the other methods).
pub type ProgressFn = Box<dyn FnMut(f64, Option<Method>) + Send>;

/// Solver options from the model's `[solver]` section.
pub fn solver_options(d: &Diagram) -> SolverOptions {
    d.run.solver.clone()
}
