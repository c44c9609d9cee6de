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

/// Hangs of issue 12 (H1, H2), each ending at once. H1: a state of 1e150, or abs_tol = 1e-300
/// with a zero state: the starting-step norm squared terms beyond 1e154 and overflowed, the first
/// step became 0, and zero-length steps repeated forever. The norm is now scaled before squaring:
/// x' = 1 from 1e150 runs to t = 1 (x(1) = 1e150 + 1 = 1e150 in floating point).
#[test]
fn huge_states_and_tiny_tolerances_still_step() {
    let mut system = FnSystem::new(1, |_t, _x: &[f64], d: &mut [f64]| d[0] = 1.0);
    for (x0, abs_tol) in [(1e150, 1e-6), (0.0, 1e-300)] {
        let mut solver = Solver::new(
            1,
            0,
            SolverOptions {
                abs_tol,
                ..Default::default()
            },
        )
        .unwrap();
        let stats = solver.integrate(&mut system, 0.0, &[x0], 1.0).unwrap();
        assert_eq!(stats.final_time, 1.0);
        // x(1) = x0 + 1 to the tolerance (exact for 0; 1e150 + 1 rounds to 1e150).
        assert!((solver.state()[0] - (x0 + 1.0)).abs() <= 1e-6 * (x0 + 1.0));
        assert!(stats.steps < 1000, "{stats:?}");
    }
}

/// H2: max_step = 5e-324 or fixed_step = 1e-17 moved t by denormal or sub-resolution amounts, so
/// time stopped advancing (or took 2^52 steps to): refused before the run starts, with the
/// setting named. A setting that forces more steps than the step budget (max_steps) is refused too.
#[test]
fn steps_below_the_time_resolution_are_refused() {
    let mut system = FnSystem::new(1, |_t, _x: &[f64], d: &mut [f64]| d[0] = 1.0);
    for (method, max_step, fixed_step, name) in [
        (Method::Dopri5, 5e-324, 1e-3, "max_step"),
        (Method::Rk4, 0.0, 1e-17, "fixed_step"),
        (Method::Dopri5, 1e-10, 1e-3, "max_step"),
    ] {
        let mut solver = Solver::new(
            1,
            0,
            SolverOptions {
                method,
                max_step,
                fixed_step,
                ..Default::default()
            },
        )
        .unwrap();
        match solver.integrate(&mut system, 0.0, &[0.0], 1.0) {
            Err(SolverError::InvalidOptions(m)) => assert!(m.contains(name), "{m}"),
            other => panic!("{name}: expected InvalidOptions, got {other:?}"),
        }
    }
}

/// The ZeroOrderHold model of H3 with sample time `sample_time` and `max_steps`.
fn sampled(sample_time: &str, max_steps: &str) -> String {
    format!(
        r#"connect = ["c.out -> z.in", "z.out -> s.in1"]
[model]
stop_time = 1.0
[solver]
max_steps = {max_steps}
[blocks.c]
type = "Sine"
[blocks.z]
type = "ZeroOrderHold"
sample_time = {sample_time}
[blocks.s]
type = "Scope"
"#
    )
}

/// H3: a time event every 1e-300 s (a ZeroOrderHold's sample time, a PulseGenerator's period)
/// flooded the run without end. Such a period is refused at its line when the model is built; one
/// that t resolves but whose events still come faster than the guard's window (1e-14 s, with a
/// budget raised to allow them) is stopped by the chattering guard, which counts time events too.
#[test]
fn a_flood_of_time_events_is_an_error() {
    let e = match blockdyn::load_model_str("flood.toml", &sampled("1e-300", "1e7"), &[]) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a 1e-300 s sample time was accepted"),
    };
    assert!(
        e.contains("flood.toml:10:15")
            && e.contains("'sample_time' gives time events 1e-300 s apart")
            && e.contains("help: write sample_time = 7e-15 or more (s)"),
        "{e}"
    );
    let d = blockdyn::load_model_str("flood.toml", &sampled("1e-14", "1e18"), &[]).unwrap();
    match blockdyn::simulate(&d, blockdyn::RunOptions::default()) {
        Err(e) => assert!(e.to_string().contains("time events"), "{e}"),
        Ok(_) => panic!("a 1e-14 s sample time ran to the end"),
    }
}

/// A recording of very many columns reserves at most RESERVED_BYTES up front, not 4096 rows of
/// them (a 1,000,000-element Constant on a Scope used to abort reserving 32 GB).
#[test]
fn a_wide_recording_reserves_bounded_memory() {
    use blockdyn::sim::recorder::{RESERVED_BYTES, RESERVED_ROWS};
    let n = 200_000;
    let values = vec!["1.0"; n].join(",");
    let text = format!(
        "connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 0.001\n[blocks.c]\ntype = \"Constant\"\nvalue = [{values}]\n[blocks.s]\ntype = \"Scope\"\ninputs = 1\n"
    );
    let d = blockdyn::load_model_str("wide.toml", &text, &[]).unwrap();
    let recorder = blockdyn::sim::Recorder::new(&d);
    let reserved = recorder.recording.values.capacity() * std::mem::size_of::<f64>();
    assert!(reserved <= RESERVED_BYTES, "{reserved} bytes reserved");
    assert!(recorder.recording.times.capacity() < RESERVED_ROWS);
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    assert_eq!(r.recording.columns.len(), n);
}
