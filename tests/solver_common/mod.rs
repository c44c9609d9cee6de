//! What the solver method tests share (tests/solver_rkc.rs, tests/solver_ros34pw2.rs): options
//! for one method at given tolerances, and a run from x0 to t_end.

use blockdyn::solver::problems::{BouncingBall, HeatEquation};
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

/// The bouncing ball (problems.rs; drop from 10 m, e = 0.8) under `method` at rel_tol 1e-6,
/// abs_tol 1e-9: its first 6 impacts are at the closed-form times and at dopri5's to 1e-9 s (the
/// location tolerance is 1e-12·max(1, t); the flight is a parabola, which dopri5, rkc and
/// ros34pw2 integrate exactly up to rounding, so the gap is the bracketing's and the time sum's
/// rounding).
pub fn assert_impacts_as_dopri5(method: Method) {
    let located = |method: Method| {
        let mut ball = BouncingBall::new(0.8, 16);
        run(&mut ball, options(method, 1e-6, 1e-9), &[10.0, 0.0], 10.0);
        ball.impact_times
    };
    let exact = BouncingBall::new(0.8, 16).exact_impact_times(10.0, 6);
    let (tried, dopri5) = (located(method), located(Method::Dopri5));
    assert!(tried.len() >= 6 && dopri5.len() >= 6);
    for (i, t) in tried.iter().take(6).enumerate() {
        let gaps = [(t - exact[i]).abs(), (t - dopri5[i]).abs()];
        assert!(
            gaps.iter().all(|&gap| gap < 1e-9),
            "{method:?}: impact {i} at {t}: {gaps:?}"
        );
    }
}
