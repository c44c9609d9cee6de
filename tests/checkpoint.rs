//! Checkpoints: a run stopped at an event and resumed takes the same steps, bit for bit, as the
//! run that never stopped (the "restart from an event" of the architecture).
//!
//! The comparison is exact (equal bits, not a tolerance): a resumed run restores the engine's run
//! state and the solver's memory (step size, controller history, crossing arming, Jacobian and
//! LU), and every evaluation is a deterministic function of them. Any difference would show that
//! something a run carries across an event was left out of the checkpoint.

use blockdyn::{load_model, simulate, Diagram, RunOptions, RunResult};
use std::path::Path;
use std::sync::Arc;

fn model(path: &str, sets: &[&str]) -> Diagram {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load_model(
        Path::new(path),
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(
    d: &Diagram,
    stop_at_crossing: bool,
    resume_from: Option<Arc<blockdyn::sim::Checkpoint>>,
) -> RunResult {
    simulate(
        d,
        RunOptions {
            stop_at_crossing,
            resume_from,
            ..Default::default()
        },
    )
    .expect("run")
}

/// The rows of `r` strictly after time `t`: (time, values) with their bits.
fn rows_after(r: &RunResult, t: f64) -> Vec<(u64, Vec<u64>)> {
    let rec = &r.recording;
    (0..rec.len())
        .filter(|&i| rec.times[i] > t)
        .map(|i| {
            (
                rec.times[i].to_bits(),
                rec.row(i).iter().map(|v| v.to_bits()).collect(),
            )
        })
        .collect()
}

/// Stops at the first crossing, resumes, and compares with the uninterrupted run; then walks the
/// whole run event by event (each resumed run stopping at its next crossing) and checks that the
/// pieces add up to the same steps and evaluations. Returns the number of pieces.
fn check_resume_is_exact(path: &str, sets: &[&str]) -> usize {
    let d = model(path, sets);
    let full = run(&d, false, None);
    assert!(
        full.checkpoint.is_none(),
        "{path}: a run to its end leaves no checkpoint"
    );
    let first = run(&d, true, None);
    let checkpoint = Arc::new(first.checkpoint.expect("stopped at a crossing"));
    let t1 = checkpoint.time();
    assert!(t1 > 0.0 && t1 < d.run().stop_time, "{path}: t1 = {t1}");
    assert_eq!(first.stats.final_time, t1);
    let resumed = run(&d, false, Some(checkpoint.clone()));
    assert_eq!(
        rows_after(&resumed, t1),
        rows_after(&full, t1),
        "{path}: the resumed run's rows after t = {t1} differ from the uninterrupted run's"
    );
    assert_eq!(resumed.final_state, full.final_state, "{path}");
    assert_eq!(
        first.stats.steps + resumed.stats.steps,
        full.stats.steps,
        "{path}"
    );
    assert_eq!(
        first.stats.function_evaluations + resumed.stats.function_evaluations,
        full.stats.function_evaluations,
        "{path}"
    );
    // One checkpoint starts any number of runs: again, the same.
    let again = run(&d, false, Some(checkpoint));
    assert_eq!(rows_after(&again, t1), rows_after(&resumed, t1), "{path}");

    // Event by event to the end.
    let (mut steps, mut evaluations, mut pieces) = (0, 0, 0);
    let mut switches = 0;
    let mut from = None;
    let last = loop {
        let piece = run(&d, true, from.take());
        steps += piece.stats.steps;
        evaluations += piece.stats.function_evaluations;
        switches += piece.stats.method_switches;
        pieces += 1;
        match piece.checkpoint {
            Some(c) if pieces < 200 => from = Some(Arc::new(c)),
            _ => break piece,
        }
    };
    assert_eq!(last.final_state, full.final_state, "{path}: event by event");
    assert_eq!(
        (steps, evaluations, switches),
        (
            full.stats.steps,
            full.stats.function_evaluations,
            full.stats.method_switches
        ),
        "{path}"
    );
    pieces
}

/// The bouncing ball: each bounce resets the velocity (a state-changing event, after which the
/// method restarts with a new starting step).
#[test]
fn bouncing_ball_resumes_exactly() {
    // Dropped from 10 m with e = 0.8: bounces at √(2·10/9.81) = 1.428 s and 1.428·(1 + 2·0.8)
    // = 3.713 s inside the 5 s run (the third would be at 5.54 s), so three pieces.
    let pieces = check_resume_is_exact("models/bouncing_ball.toml", &[]);
    assert_eq!(pieces, 3);
}

/// The peers' ball drop: the contact onset is located but changes nothing, so the run that never
/// stopped carries its step size and controller history across it; the checkpoint must too.
#[test]
fn ball_drop_resumes_exactly_across_a_located_onset() {
    check_resume_is_exact("models/ball_drop.toml", &["model.stop_time=1.2"]);
}

/// The same under TR-BDF2, whose Jacobian and LU carry across events that change nothing.
#[test]
fn ball_drop_resumes_exactly_under_trbdf2() {
    check_resume_is_exact(
        "models/ball_drop.toml",
        &["model.stop_time=1.2", "solver.method=\"trbdf2\""],
    );
}

/// The same under RKC, whose spectral radius, power-iteration direction and their age carry
/// across events (the bouncing ball's state-changing bounces, the ball drop's located onsets).
#[test]
fn resumes_exactly_under_rkc() {
    let pieces = check_resume_is_exact("models/bouncing_ball.toml", &["solver.method=\"rkc\""]);
    assert_eq!(pieces, 3);
    check_resume_is_exact(
        "models/ball_drop.toml",
        &["model.stop_time=1.2", "solver.method=\"rkc\""],
    );
}

/// Under `method = "auto"`, across its switches: the method in use, its counts, the other
/// method's controller and a switch due are in the checkpoint. ball_drop comes to rest in contact
/// and switches to esdirk43 at about 2.2 s, between two of its 25 crossings; box_on_table
/// switches 7 times among its 6.
#[test]
fn resumes_exactly_under_auto() {
    for path in ["models/ball_drop.toml", "models/box_on_table.toml"] {
        let d = model(path, &["solver.method=\"auto\""]);
        assert!(run(&d, false, None).stats.method_switches >= 1, "{path}");
        check_resume_is_exact(path, &["solver.method=\"auto\""]);
    }
}

/// Rigid impacts: the mechanism keeps its contact modes in its scratch from event to event;
/// the checkpoint copies them.
#[test]
fn rigid_impacts_resume_exactly() {
    check_resume_is_exact("models/ball_to_rest.toml", &["model.stop_time=0.6"]);
}

/// A run resumed with `sample_time` records the fixed-time rows after the checkpoint only, at
/// the same times as the run that never stopped.
#[test]
fn sample_time_rows_resume_on_their_grid() {
    let d = model("models/bouncing_ball.toml", &["output.sample_time=0.01"]);
    let full = run(&d, false, None);
    let first = run(&d, true, None);
    let checkpoint = Arc::new(first.checkpoint.expect("stopped"));
    let resumed = run(&d, false, Some(checkpoint.clone()));
    let t1 = checkpoint.time();
    assert_eq!(rows_after(&resumed, t1), rows_after(&full, t1));
    assert_eq!(
        resumed.recording.times[0], t1,
        "the first row is the checkpoint's"
    );
}

/// A run from a start time and state of the caller's choosing: x' = −2x + u, u a unit Step at
/// t = 0.75 (the blocks read the run's own clock), from x(0.5) = 3: x(0.75) = 3·e^(−0.5), then
/// x(1) = 0.5 + (x(0.75) − 0.5)·e^(−0.5). Tolerance 1e-7: dopri5 at rel_tol 1e-9 over half a
/// second, with the step's time a located time event.
#[test]
fn a_run_starts_at_any_time_and_state() {
    let text = r#"
connect = ["x.out -> k.in", "k.out -> sum.in1", "step.out -> sum.in2", "sum.out -> x.in", "x.out -> scope.in1"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-9
abs_tol = 1e-12
[blocks.x]
type = "Integrator"
initial = 1.0
[blocks.k]
type = "Gain"
gain = -2.0
[blocks.step]
type = "Step"
time = 0.75
before = 0.0
after = 1.0
[blocks.sum]
type = "Sum"
signs = "++"
[blocks.scope]
type = "Scope"
"#;
    let d = blockdyn::load_model_str("decay.toml", text, &[]).unwrap();
    let r = simulate(
        &d,
        RunOptions {
            start_time: Some(0.5),
            initial_state: Some(vec![3.0]),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r.recording.times[0], 0.5);
    assert_eq!(r.recording.row(0)[0], 3.0);
    let at_step = 3.0 * (-0.5f64).exp();
    let expected = 0.5 + (at_step - 0.5) * (-0.5f64).exp();
    assert!(
        (r.final_state[0] - expected).abs() <= 1e-7,
        "{:?}",
        r.final_state
    );
    // A state of the wrong length is refused before the run.
    let e = simulate(
        &d,
        RunOptions {
            initial_state: Some(vec![1.0, 2.0]),
            ..Default::default()
        },
    )
    .err()
    .expect("refused");
    assert!(
        e.to_string()
            .contains("initial_state has 2 values; the model has 1 states"),
        "{e}"
    );
}

/// A given initial state replaces the blocks' own before the start-time samples: a
/// ZeroOrderHold of an integrator started at 5 holds 5 (not the integrator's own initial 1) until
/// its next sample.
#[test]
fn an_initial_state_is_what_the_start_time_samples_see() {
    let text = r#"
connect = ["zero.out -> x.in", "x.out -> hold.in", "hold.out -> scope.in1"]
[model]
stop_time = 0.5
[blocks.zero]
type = "Constant"
value = 0.0
[blocks.x]
type = "Integrator"
initial = 1.0
[blocks.hold]
type = "ZeroOrderHold"
sample_time = 1.0
[blocks.scope]
type = "Scope"
"#;
    let d = blockdyn::load_model_str("hold.toml", text, &[]).unwrap();
    let r = simulate(
        &d,
        RunOptions {
            initial_state: Some(vec![5.0]),
            ..Default::default()
        },
    )
    .unwrap();
    let held = r.recording.column_index("hold.out").unwrap();
    assert!(r.recording.column_values(held).all(|v| v == 5.0));
}

/// Options that cannot go together, and a checkpoint of another model, are refused with a
/// message before the run, never a panic.
#[test]
fn bad_start_options_are_refused() {
    let ball = model("models/bouncing_ball.toml", &[]);
    let stopped = run(&ball, true, None);
    let checkpoint = Arc::new(stopped.checkpoint.expect("stopped"));
    let other = model("models/ball_drop.toml", &[]);
    let refused = |d: &Diagram, options: RunOptions| -> String {
        let error = simulate(d, options).err().expect("refused");
        // Typed: a program can tell which option was wrong without reading the text.
        assert!(matches!(error, blockdyn::SimError::Options(_)), "{error:?}");
        error.to_string()
    };
    let foreign = simulate(
        &other,
        RunOptions {
            resume_from: Some(checkpoint.clone()),
            ..Default::default()
        },
    );
    assert!(matches!(
        foreign.err(),
        Some(blockdyn::SimError::Options(
            blockdyn::RunOptionsError::ForeignCheckpoint { .. }
        ))
    ));
    let e = refused(
        &other,
        RunOptions {
            resume_from: Some(checkpoint.clone()),
            ..Default::default()
        },
    );
    assert!(
        e.contains("the checkpoint was taken on another model"),
        "{e}"
    );
    let e = refused(
        &ball,
        RunOptions {
            resume_from: Some(checkpoint),
            start_time: Some(1.0),
            ..Default::default()
        },
    );
    assert!(
        e.contains("leave start_time and initial_state unset"),
        "{e}"
    );
    let e = refused(
        &ball,
        RunOptions {
            start_time: Some(-0.5),
            ..Default::default()
        },
    );
    assert!(e.contains("start_time must be 0 or later"), "{e}");
}
