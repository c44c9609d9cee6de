//! What the solver method tests share (tests/solver_rkc.rs, tests/solver_ros34pw2.rs): options
//! for one method at given tolerances, and a run from x0 to t_end.

use blockdyn::solver::{Method, Solver, SolverOptions, SolverStats, System};

/// The default options with `method` at `rel_tol` and `abs_tol`.
pub fn options(method: Method, rel_tol: f64, abs_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        abs_tol,
        ..Default::default()
    }
}

/// Runs `system` from x0 over [0, t_end]; the final state and the statistics.
pub fn run<S: System>(
    system: &mut S,
    options: SolverOptions,
    x0: &[f64],
    t_end: f64,
) -> (Vec<f64>, SolverStats) {
    let mut solver = Solver::new(x0.len(), system.zero_crossing_dim(), options).unwrap();
    let stats = solver.integrate(system, 0.0, x0, t_end).unwrap();
    (solver.state().to_vec(), stats)
}
