//! What the solver method tests share (tests/solver_rkc.rs, tests/solver_ros34pw2.rs): options
//! for one method at given tolerances, and a run from x0 to t_end.

use blockdyn::solver::problems::HeatEquation;
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

/// The heat equation on 50 interior points from its hat to t = 0.05 under `options`: the
/// max-norm error against the eigen-decomposition's exact u, max|u| there (the tolerance's
/// scale), and the run's statistics.
pub fn heat_error(options: SolverOptions) -> (f64, f64, SolverStats) {
    let heat = HeatEquation { points: 50 };
    let (u0, exact) = (heat.hat(), heat.exact(0.05));
    let scale = exact.iter().fold(0.0f64, |m, u| m.max(u.abs()));
    let (u, stats) = run(&mut HeatEquation { points: 50 }, options, &u0, 0.05);
    let error = u
        .iter()
        .zip(&exact)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    (error, scale, stats)
}
