//! Stall detection (issue 12, H4): runs that creep forward with tiny steps end with a message that
//! names the block whose states set the step size, and suggest the stiff solver. The reproducers
//! are checked in under tests/data/hangs/; each ran for hours before. A small step budget
//! (`--set solver.max_steps=20000`) keeps the tests deterministic and fast: the detection counts
//! steps, never seconds.

use blockdyn::solver::{FnSystem, Method, Solver, SolverError, SolverOptions, StallReason};

const HANGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hangs");

/// The reproducers stall under an explicit method: the tests name dopri5 (under the default,
/// `auto`, most of them run to their end; see `the_default_method_runs_the_stiff_reproducers`).
const DOPRI5: &str = "solver.method=\"dopri5\"";

/// Loads a reproducer with a budget of 20,000 steps under dopri5 and returns the error of its run.
fn stall_message(file: &str) -> String {
    let path = std::path::Path::new(HANGS).join(file);
    let d = blockdyn::load_model(
        &path,
        &[
            "solver.max_steps=20000".parse().unwrap(),
            DOPRI5.parse().unwrap(),
        ],
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    match blockdyn::simulate(&d, blockdyn::RunOptions::default()) {
        Ok(r) => panic!("{file}: ran to t = {}", r.stats.final_time),
        Err(e) => e.to_string(),
    }
}

/// The budget of 20,000 steps is looked at in windows of 200; a stall is confirmed by two windows.
fn assert_stalled(file: &str, stiffest: &str) {
    let msg = stall_message(file);
    for part in [
        "the run stalled at t = ",
        "400 steps taken",
        "more than max_steps = 20000",
        &format!("stiffest block (its states set the step size most often): {stiffest}"),
        "write method = \"trbdf2\" under [solver]",
        "shorten stop_time or raise the budget named above",
    ] {
        assert!(msg.contains(part), "{file}: message lacks '{part}':\n{msg}");
    }
}

#[test]
fn ground_stiffness_1e15_stalls_naming_the_ground() {
    assert_stalled(
        "ground_stiffness_1e15.toml",
        "'ground' (deflection u[0] of point 0)",
    );
}

#[test]
fn ground_damping_1e13_stalls_naming_the_particle() {
    assert_stalled(
        "ground_damping_1e13.toml",
        "'mechanism' (velocity 2 of joint 'free')",
    );
}

#[test]
fn a_sine_of_omega_1e9_stalls_naming_its_integrator() {
    assert_stalled("fast_sine_omega_1e9.toml", "'x' (x[0])");
}

#[test]
fn a_pole_at_5e7_stalls_and_trbdf2_runs_it() {
    assert_stalled("poles_5e7.toml", "'lag' (z[0])");
    // The suggestion works: the stiff solver takes the whole second in a few hundred steps.
    let path = std::path::Path::new(HANGS).join("poles_5e7.toml");
    let overrides = [
        "solver.max_steps=20000".to_string(),
        "solver.method=\"trbdf2\"".to_string(),
    ];
    let d =
        blockdyn::load_model(&path, &blockdyn::Override::parse_all(&overrides).unwrap()).unwrap();
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    assert_eq!(r.stats.final_time, 1.0);
    assert!(r.stats.steps < 2000, "{:?}", r.stats);
    // The lag follows sin t within the tolerance: y(1) ≈ sin(1) − cos(1)/5e7.
    let y = r.final_state[0] * 5e7;
    assert!((y - 1f64.sin()).abs() < 1e-3, "y(1) = {y}");
}

#[test]
fn a_body_deep_in_the_floor_stalls_naming_the_ground() {
    assert_stalled(
        "body_deep_in_floor.toml",
        "'ground' (deflection u[0] of point 0)",
    );
}

/// The contact's twisting mode explains the step, so the message names it and its parameter: four
/// corners at 14.1 cm from the axis resist twisting with 2μ_s·f_i/v_c each against the brick's
/// polar inertia (issue 26).
#[test]
fn a_brick_with_sharp_friction_on_a_slope_stalls() {
    assert_stalled(
        "brick_friction_slope.toml",
        "'mechanism' (velocity 5 of joint 'free')",
    );
    let msg = stall_message("brick_friction_slope.toml");
    for part in [
        "stiffest contact: 'contact' (floor.G against brick.G), twisting mode",
        "over 4 points",
        "help: raise the friction's critical_velocity (now 1.000e-6 m/s",
    ] {
        assert!(msg.contains(part), "message lacks '{part}':\n{msg}");
    }
}

/// The solver alone: x' = −5e7·(x − 1) under dopri5 with a budget of 10,000 steps stops after two
/// windows of 100 trial steps, at the stability-limited step (3.3/5e7 ≈ 6.6e-8 s), naming x[0].
#[test]
fn the_solver_reports_the_pace_and_the_stiff_component() {
    let mut system = FnSystem::new(2, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = -5e7 * (x[0] - 1.0);
        d[1] = -x[1];
    });
    let options = SolverOptions {
        max_steps: 10_000,
        method: Method::Dopri5,
        ..Default::default()
    };
    let mut solver = Solver::new(2, 0, options).unwrap();
    match solver.integrate(&mut system, 0.0, &[0.0, 1.0], 1.0) {
        Err(SolverError::Stalled {
            step,
            reason: StallReason::Steps {
                taken, max_steps, ..
            },
            index,
            ..
        }) => {
            assert_eq!((taken, max_steps, index), (200, 10_000, Some(0)));
            assert!(step > 2e-8 && step < 1.2e-7, "step {step:e}");
        }
        other => panic!("expected a stall, got {other:?}"),
    }
    // The stiff method runs the same system to the end within the same budget.
    let options = SolverOptions {
        method: Method::Trbdf2,
        max_steps: 10_000,
        ..Default::default()
    };
    let mut solver = Solver::new(2, 0, options).unwrap();
    let stats = solver
        .integrate(&mut system, 0.0, &[0.0, 1.0], 1.0)
        .unwrap();
    assert_eq!(stats.final_time, 1.0);
    assert!((solver.state()[1] - (-1f64).exp()).abs() < 1e-2);
}

/// A `max_step` that alone forces more steps than the budget is refused before the run.
#[test]
fn a_max_step_beyond_the_budget_is_refused_up_front() {
    let mut system = FnSystem::new(1, |_t, _x: &[f64], d: &mut [f64]| d[0] = 1.0);
    let options = SolverOptions {
        max_step: 1e-4,
        max_steps: 1000,
        ..Default::default()
    };
    let mut solver = Solver::new(1, 0, options).unwrap();
    match solver.integrate(&mut system, 0.0, &[0.0], 1.0) {
        Err(SolverError::InvalidOptions(m)) => assert_eq!(
            m,
            "max_step = 1e-4 s over 1 s forces 1.00e4 steps, more than max_steps = 1000; raise max_step, shorten the run or raise max_steps"
        ),
        other => panic!("{other:?}"),
    }
}

/// `[solver] max_steps` takes an integer or a whole float (1e8), and a bad one is located.
#[test]
fn max_steps_is_read_and_checked_where_it_is_written() {
    let text = |v: &str| {
        format!("[model]\nstop_time = 1.0\n[solver]\nmax_steps = {v}\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n")
    };
    for (v, steps) in [("1e8", 100_000_000u64), ("5000", 5000)] {
        let d = blockdyn::load_model_str("m.toml", &text(v), &[]).unwrap();
        assert_eq!(d.run().solver.max_steps, steps);
    }
    let d = blockdyn::load_model_str("m.toml", &text("1"), &[]).unwrap();
    assert_eq!(
        blockdyn::sim::solver_options(&d).max_steps,
        1,
        "the setting reaches the solver"
    );
    for v in ["0", "2.5", "-3", "\"many\""] {
        let e = blockdyn::load_model_str("m.toml", &text(v), &[])
            .expect_err(v)
            .to_string();
        assert!(
            e.starts_with("m.toml:4:")
                && e.contains("'max_steps' must be a whole number of steps, at least 1")
                && e.contains("help: write e.g. max_steps = 1e8 (the default is 1e7)"),
            "{v}: {e}"
        );
    }
}

/// Every file of the corpus (issue 12's hangs H1–H4) ends under a budget of 20,000 steps: the
/// H1 cases run to the end, the H2 settings and H3 periods are refused at their line, and
/// the H4 stalls end with their messages. A reproducer added without an expectation fails here.
#[test]
fn every_reproducer_of_the_corpus_ends() {
    // (file, what ends it, the step budget): H1–H3 end long before the default budget.
    let default = blockdyn::solver::DEFAULT_MAX_STEPS;
    let expected: &[(&str, &str, u64)] = &[
        ("abs_tol_1e-300.toml", "ran", default),
        ("integrator_initial_1e150.toml", "ran", default),
        (
            "max_step_5e-324.toml",
            "'max_step' is 5e-324 s, below the resolution of t near the stop time",
            default,
        ),
        (
            "fixed_step_1e-17.toml",
            "'fixed_step' is 1e-17 s, below the resolution of t near the stop time",
            default,
        ),
        (
            "zoh_sample_time_1e-300.toml",
            "'sample_time' gives time events 1e-300 s apart, below the resolution of t near the stop time",
            default,
        ),
        (
            "pulse_period_1e-300.toml",
            "'period' gives time events 5e-301 s apart, below the resolution of t near the stop time",
            default,
        ),
        (
            "mass_spring_damper_1e9.toml",
            "more than max_steps = 20000",
            20000,
        ),
        (
            "ground_stiffness_1e15.toml",
            "more than max_steps = 20000",
            20000,
        ),
        (
            "ground_damping_1e13.toml",
            "more than max_steps = 20000",
            20000,
        ),
        (
            "fast_sine_omega_1e9.toml",
            "more than max_steps = 20000",
            20000,
        ),
        ("poles_5e7.toml", "more than max_steps = 20000", 20000),
        (
            "body_deep_in_floor.toml",
            "more than max_steps = 20000",
            20000,
        ),
        (
            "brick_friction_slope.toml",
            "more than max_steps = 20000",
            20000,
        ),
    ];
    let mut files: Vec<String> = std::fs::read_dir(HANGS)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = expected.iter().map(|(f, ..)| f.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every reproducer needs an expectation");
    for (file, outcome, budget) in expected {
        let path = std::path::Path::new(HANGS).join(file);
        // dopri5 unless the reproducer names its method (rk4's fixed step).
        let names_method = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .any(|l| l.starts_with("method ="));
        let mut overrides = vec![format!("solver.max_steps={budget}")];
        if !names_method {
            overrides.push(DOPRI5.to_string());
        }
        let d = match blockdyn::load_model(
            &path,
            &blockdyn::Override::parse_all(&overrides).unwrap(),
        ) {
            Ok(d) => d,
            Err(e) => {
                // Settings refused where they are written.
                let e = e.to_string();
                assert!(e.contains(outcome) && e.contains(".toml:"), "{file}: {e}");
                continue;
            }
        };
        match (
            blockdyn::simulate(&d, blockdyn::RunOptions::default()),
            *outcome,
        ) {
            (Ok(r), "ran") => assert_eq!(r.stats.final_time, d.run().stop_time, "{file}"),
            (Ok(r), _) => panic!("{file}: ran to t = {}", r.stats.final_time),
            (Err(e), _) => assert!(e.to_string().contains(outcome), "{file}: {e}"),
        }
    }
}

/// `[solver] max_wall_time`: a budget of a nanosecond is passed by any run of more than 1024 trial
/// steps (the elapsed time is read every 1024), so this needs no clock limit of its own.
#[test]
fn a_wall_clock_budget_ends_the_run_when_passed() {
    let path = std::path::Path::new(HANGS).join("poles_5e7.toml");
    let overrides = ["solver.max_wall_time=1e-9".to_string(), DOPRI5.to_string()];
    let d =
        blockdyn::load_model(&path, &blockdyn::Override::parse_all(&overrides).unwrap()).unwrap();
    assert_eq!(blockdyn::sim::solver_options(&d).max_wall_time, 1e-9);
    let e = match blockdyn::simulate(&d, blockdyn::RunOptions::default()) {
        Ok(r) => panic!("ran to t = {}", r.stats.final_time),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains(" s elapsed, ")
            && e.contains("more than max_wall_time = 1e-9 s")
            && e.contains("stiffest block (its states set the step size most often): 'lag' (z[0])"),
        "{e}"
    );
}

/// Under the default method (`auto`, issue 26) the stiff reproducers run to their end: each
/// switches from dopri5 to an implicit method once, within a few hundred steps (dopri5 would need
/// 1e7 to 1e10). The others stay stalls: a sine of ω = 1e9 needs its steps for accuracy, and a
/// ground damping of 1e13 still stalls after the particle lands.
#[test]
fn the_default_method_runs_the_stiff_reproducers() {
    for file in [
        "poles_5e7.toml",
        "brick_friction_slope.toml",
        "ground_stiffness_1e15.toml",
        "body_deep_in_floor.toml",
    ] {
        let path = std::path::Path::new(HANGS).join(file);
        let d = blockdyn::load_model(&path, &["solver.max_steps=20000".parse().unwrap()]).unwrap();
        let r = blockdyn::simulate(&d, blockdyn::RunOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(r.stats.final_time, d.run().stop_time, "{file}");
        assert!(r.stats.steps < 1000, "{file}: {:?}", r.stats);
        assert_eq!(r.stats.method_switches, 1, "{file}: {:?}", r.stats);
    }
}
