//! Failure modes: non-finite derivatives, step-size underflow, invalid input.

use blockdyn::solver::{FnSystem, Method, Solver, SolverError, SolverOptions};

/// x₀' = 1, x₁' = NaN once x₀ > 0.5: the steps shrink onto t = 0.5 and the run fails there
/// naming component 1.
#[test]
fn persistent_nan_reports_the_component() {
    let mut system = FnSystem::new(2, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = 1.0;
        d[1] = if x[0] > 0.5 { f64::NAN } else { 0.0 };
    });
    let mut solver = Solver::new(2, 0, SolverOptions::default()).unwrap();
    match solver.integrate(&mut system, 0.0, &[0.0, 0.0], 1.0) {
        Err(SolverError::NonFinite { t, index }) => {
            assert_eq!(index, 1);
            // Shrinking by 4 per rejection until h < 16·ε: the failing stage is within a few ε of 0.5.
            assert!((t - 0.5).abs() < 1e-12, "t = {t}");
        }
        other => panic!("expected NonFinite, got {other:?}"),
    }
    // Fixed-step RK4 does not shrink: it fails at the first non-finite stage.
    let mut solver = Solver::new(
        2,
        0,
        SolverOptions {
            method: Method::Rk4,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(matches!(
        solver.integrate(&mut system, 0.0, &[0.0, 0.0], 1.0),
        Err(SolverError::NonFinite { index: 1, .. })
    ));
}

/// A transient NaN region that steps can avoid (f is NaN only for trial states far from the
/// solution) is survived by rejecting and shrinking.
#[test]
fn transient_nan_is_survived() {
    // x' = −x from 1; f is NaN whenever a stage state is below 0.2 — a too-long trial step from
    // the exact decay overshoots there, the true solution (e^(−t) ≥ e^(−1)) never does.
    let mut system = FnSystem::new(1, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = if x[0] < 0.2 { f64::NAN } else { -x[0] };
    });
    let options = SolverOptions {
        initial_step: 1.0,
        max_step: 1.0,
        rel_tol: 0.5,
        ..Default::default()
    };
    let mut solver = Solver::new(1, 0, options).unwrap();
    let stats = solver.integrate(&mut system, 0.0, &[1.0], 1.0).unwrap();
    assert!((solver.state()[0] - (-1.0f64).exp()).abs() < 0.05);
    eprintln!("{stats:?}");
}

/// Blow-up: x₁' = x₁², x₁(0) = 1 has the solution 1/(1 − t), singular at t = 1. The step size
/// shrinks with the distance to the singularity until it underflows; component 1 is the worst.
/// The *numerical* solution blows up slightly earlier (a global phase error of the order of
/// rel_tol·1e-2 here: 0.999992), hence the 1e-4 tolerance on the failure time.
#[test]
fn blow_up_reports_step_underflow() {
    let mut system = FnSystem::new(2, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = -x[0];
        d[1] = x[1] * x[1];
    });
    let mut solver = Solver::new(2, 0, SolverOptions::default()).unwrap();
    match solver.integrate(&mut system, 0.0, &[1.0, 1.0], 2.0) {
        Err(SolverError::StepSizeUnderflow { t, step, index }) => {
            assert_eq!(index, Some(1));
            assert!((t - 1.0).abs() < 1e-4, "t = {t}");
            assert!(step < 16.0 * f64::EPSILON * 1.0);
        }
        Err(SolverError::NonFinite { t, index }) => {
            // Also acceptable: x₁ overflowed before the step underflowed.
            assert_eq!(index, 1);
            assert!((t - 1.0).abs() < 1e-4, "t = {t}");
        }
        other => panic!("expected StepSizeUnderflow, got {other:?}"),
    }
}

#[test]
fn invalid_inputs_are_errors_not_panics() {
    let mut system = FnSystem::new(1, |_t, x: &[f64], d: &mut [f64]| d[0] = -x[0]);
    let mut solver = Solver::new(1, 0, SolverOptions::default()).unwrap();
    for (t0, x0, t_end) in [
        (0.0, vec![1.0, 2.0], 1.0),
        (1.0, vec![1.0], 0.0),
        (0.0, vec![1.0], f64::NAN),
    ] {
        assert!(matches!(
            solver.integrate(&mut system, t0, &x0, t_end),
            Err(SolverError::InvalidOptions(_))
        ));
    }
    assert!(matches!(
        solver.integrate(&mut system, 0.0, &[f64::INFINITY], 1.0),
        Err(SolverError::NonFinite { index: 0, .. })
    ));
    let mut wrong = Solver::new(3, 0, SolverOptions::default()).unwrap();
    assert!(matches!(
        wrong.integrate(&mut system, 0.0, &[1.0, 1.0, 1.0], 1.0),
        Err(SolverError::InvalidOptions(_))
    ));
    assert!(Solver::new(
        1,
        0,
        SolverOptions {
            rel_tol: -1.0,
            ..Default::default()
        }
    )
    .is_err());
    // An empty span records Initial and Final and returns.
    let stats = solver.integrate(&mut system, 2.0, &[1.0], 2.0).unwrap();
    assert_eq!((stats.steps, stats.final_time), (0, 2.0));
    assert_eq!(solver.state(), &[1.0]);
}
