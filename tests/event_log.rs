//! `RunResult::events`: each located zero crossing's time and block, against closed forms.

use blockdyn::{load_model, simulate, RunOptions};
use std::path::Path;

/// The bouncing ball (h0 = 10 m, g = 9.81 m/s², e = 0.8): impact k (k = 0, 1, ...) at
/// t_k = t_0 + Σ_{j=1..k} 2·e^j·v_0/g, with t_0 = √(2·h0/g) and v_0 = g·t_0. Located times are
/// checked to 1e-6 s: the located crossing is accurate to the solver's tolerance (rel_tol 1e-6
/// on a 10 m height gives ≲1e-6 m, ≲1e-7 s at 14 m/s), and the closed form accumulates the
/// error of earlier impacts' velocities (each within rel_tol).
#[test]
fn the_bouncing_balls_impacts_are_listed_with_their_times_and_block() {
    let d = load_model(Path::new("models/bouncing_ball.toml"), &[]).unwrap();
    let run = simulate(&d, RunOptions::default()).unwrap();
    let (g, h0, e) = (9.81_f64, 10.0_f64, 0.8_f64);
    let t0 = (2.0 * h0 / g).sqrt();
    let v0 = g * t0;
    let mut expected = vec![t0];
    while expected.len() < 20 {
        let k = expected.len() as i32;
        let next = expected.last().unwrap() + 2.0 * e.powi(k) * v0 / g;
        if next > d.run().stop_time {
            break;
        }
        expected.push(next);
    }
    assert_eq!(run.events.len(), expected.len(), "{:?}", run.events);
    for (event, t) in run.events.iter().zip(&expected) {
        assert_eq!(event.block, "velocity", "the reset integrator's crossing");
        assert!((event.time - t).abs() < 1e-6, "{} vs {t}", event.time);
    }
    assert_eq!(run.events_dropped, 0);
}

/// A run resumed from a checkpoint lists only its own events, and the two halves together list
/// the uninterrupted run's events.
#[test]
fn a_resumed_run_lists_the_events_after_its_checkpoint() {
    let d = load_model(Path::new("models/bouncing_ball.toml"), &[]).unwrap();
    let whole = simulate(&d, RunOptions::default()).unwrap();
    let first = simulate(
        &d,
        RunOptions {
            stop_at_crossing: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(first.events, whole.events[..1]);
    let rest = simulate(
        &d,
        RunOptions {
            resume_from: first.checkpoint.map(std::sync::Arc::new),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(rest.events, whole.events[1..]);
}
