//! The stiff method against the explicit default on stiff problems: same answer, far fewer steps.

use blockdyn::solver::problems::{Robertson, VanDerPol};
use blockdyn::solver::{Method, Solver, SolverOptions, SolverStats};

fn options(method: Method, rel_tol: f64, abs_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        abs_tol,
        ..Default::default()
    }
}

/// Robertson on [0, 40] (dopri5 cannot reach 1e5 in reasonable time: about 3e8 steps): both
/// methods within 1e-3 relative of Hairer & Wanner's y(40) at rel_tol 1e-6, abs_tol 1e-12; dopri5
/// pays its stability limit (h ≤ 3.3e-4 once the fast eigenvalue ≈ −1e4 appears: ≥ 1e5 steps),
/// trbdf2 only accuracy.
#[test]
fn robertson_step_counts() {
    let mut stats = Vec::new();
    for method in [Method::Dopri5, Method::Trbdf2] {
        let mut solver = Solver::new(3, 0, options(method, 1e-6, 1e-12)).unwrap();
        let s = solver
            .integrate(&mut Robertson, 0.0, &Robertson::INITIAL, 40.0)
            .unwrap();
        for (y, r) in solver.state().iter().zip(Robertson::AT_40) {
            assert!(((y - r) / r).abs() <= 1e-3, "{method:?}: {y} vs {r}");
        }
        eprintln!("Robertson [0, 40], {method:?}: {s:?}");
        stats.push(s);
    }
    assert!(stats[0].steps > 30 * stats[1].steps, "{stats:?}");
}

fn van_der_pol(method: Method) -> (f64, f64, SolverStats) {
    let mut system = VanDerPol::new(1000.0);
    let mut solver = Solver::new(2, 1, options(method, 1e-6, 1e-8)).unwrap();
    let stats = solver
        .integrate(&mut system, 0.0, &[2.0, 0.0], 2000.0)
        .unwrap();
    (system.first_maximum, solver.state()[0], stats)
}

/// Van der Pol at μ = 1000 over one period (ended by the located maximum of x): both methods find
/// the period and x(T) within 1e-3 of scipy's; dopri5's steps are bounded by stability on the
/// slow branches (|λ| ≈ μ·(x² − 1) ≈ 1000–3000), trbdf2's by accuracy.
#[test]
fn van_der_pol_step_counts() {
    let period = VanDerPol::PERIOD_MU_1000;
    let mut stats = Vec::new();
    for method in [Method::Dopri5, Method::Trbdf2] {
        let (t, x, s) = van_der_pol(method);
        assert!(((t - period) / period).abs() <= 1e-3, "{method:?}: T = {t}");
        assert!(
            (x - VanDerPol::X_MAX_MU_1000).abs() <= 1e-3,
            "{method:?}: x = {x}"
        );
        eprintln!("Van der Pol μ = 1000, one period, {method:?}: {s:?}");
        stats.push(s);
    }
    assert!(stats[0].steps > 30 * stats[1].steps, "{stats:?}");
}

/// Failure modes under trbdf2 are errors, not panics: a persistent NaN is reported with its
/// component near where it starts (the Jacobian's difference quotients probe states up to
/// sqrt(ε·|x|) ≈ 1e-8 ahead, hence 1e-6 instead of dopri5's 1e-12), and a blow-up ends in a step
/// underflow or a non-finite state near the singularity.
#[test]
fn failures_are_reported() {
    use blockdyn::solver::{FnSystem, SolverError};
    let mut nan = FnSystem::new(2, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = 1.0;
        d[1] = if x[0] > 0.5 { f64::NAN } else { 0.0 };
    });
    let mut solver = Solver::new(2, 0, options(Method::Trbdf2, 1e-3, 1e-6)).unwrap();
    match solver.integrate(&mut nan, 0.0, &[0.0, 0.0], 1.0) {
        Err(SolverError::NonFinite { t, index: 1 }) => assert!((t - 0.5).abs() < 1e-6, "{t}"),
        other => panic!("expected NonFinite, got {other:?}"),
    }
    // x₁' = x₁², x₁(0) = 1: x₁ = 1/(1 − t).
    let mut blow_up = FnSystem::new(1, |_t, x: &[f64], d: &mut [f64]| d[0] = x[0] * x[0]);
    let mut solver = Solver::new(1, 0, options(Method::Trbdf2, 1e-3, 1e-6)).unwrap();
    match solver.integrate(&mut blow_up, 0.0, &[1.0], 2.0) {
        Err(SolverError::StepSizeUnderflow { t, .. } | SolverError::NonFinite { t, .. }) => {
            assert!((t - 1.0).abs() < 1e-2, "t = {t}")
        }
        other => panic!("expected a failure near t = 1, got {other:?}"),
    }
}
