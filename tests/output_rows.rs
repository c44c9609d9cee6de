//! `[output] refine = N` and `[output] sample_time = dt` (issue 12, part 3): which rows a run
//! records, at which times, with which values.
//!
//! The ball_drop model (a 1 kg sphere of radius 0.1 m released at rest with its centre at 1 m,
//! g = 9.81 m/s²) has closed forms: free fall z(t) = 1 − g·t²/2 until the contact onset at
//! sqrt(2·0.9/g) = 0.4283529369 s, and the first rebound apex of the centre at 0.4599056 m (from
//! the model file's header, the peers' reference value).

mod common;

use blockdyn::output::Recording;
use common::{column, event_rows};

const G: f64 = 9.81;
const ONSET: f64 = 0.428_352_936_9;
const APEX: f64 = 0.459_905_6;
const Z: &str = "free.p[2]";

fn ball_drop(overrides: &[&str]) -> blockdyn::RunResult {
    common::run("models/ball_drop.toml", overrides)
}

/// The rows strictly before the contact onset.
fn free_fall_rows(rec: &Recording) -> impl Iterator<Item = (f64, f64)> + '_ {
    let z = column(rec, Z);
    rec.times
        .iter()
        .copied()
        .zip(z)
        .filter(|&(t, _)| t < ONSET - 1e-9)
}

#[test]
fn refine_adds_n_minus_1_rows_per_step_from_the_dense_output() {
    let steps_only = ball_drop(&["output.refine=1"]);
    let refined = ball_drop(&["output.refine=8"]);
    // Refining adds rows, never steps: the same steps, and 7 more rows for each of them (the
    // initial row and the event rows are not steps).
    assert_eq!(steps_only.stats, refined.stats);
    assert_eq!(
        refined.recording.len() - steps_only.recording.len(),
        7 * steps_only.stats.steps
    );
    // In free fall the dense output of dopri5 (4th order) reproduces the parabola up to the
    // tolerances (rel_tol 1e-6 on z ≈ 1, abs_tol 1e-9): 1e-8 m.
    let mut checked = 0;
    for (t, z) in free_fall_rows(&refined.recording) {
        let exact = 1.0 - 0.5 * G * t * t;
        assert!((z - exact).abs() < 1e-8, "z({t}) = {z}, exact {exact}");
        checked += 1;
    }
    assert!(checked > 8 * 2, "only {checked} free-fall rows");
}

#[test]
fn refined_rows_show_the_first_apex() {
    // The first rebound apex is between the end of the first contact (about 0.45 s) and the
    // second onset. Rows are at most max_step / N apart there (max_step = stop_time / 50 = 0.06 s
    // by default), so the highest row is below the apex by at most g·(0.06/(2N))²/2 plus the
    // dense output's error (~1e-6): 1.8e-5 m for N = 16.
    let refined = ball_drop(&["output.refine=16"]);
    let rec = &refined.recording;
    let z = column(rec, Z);
    let first_flight = rec
        .times
        .iter()
        .zip(&z)
        .filter(|&(&t, _)| (0.5..1.0).contains(&t))
        .map(|(_, &z)| z)
        .fold(f64::NEG_INFINITY, f64::max);
    let bound = G * (0.06f64 / 32.0).powi(2) / 2.0 + 2e-6;
    assert!(
        (first_flight - APEX).abs() < bound,
        "highest row {first_flight}, apex {APEX}, bound {bound:e}"
    );
}

#[test]
fn sample_time_records_at_multiples_plus_events() {
    let dt = 0.01;
    let sampled = ball_drop(&["output.sample_time=0.01"]);
    let rec = &sampled.recording;
    let events: Vec<usize> = event_rows(rec);
    assert!(!events.is_empty(), "ball_drop has contact events");
    for (i, &t) in rec.times.iter().enumerate() {
        let is_event_row = events.contains(&i) || events.contains(&(i + 1));
        let is_last = i + 1 == rec.len();
        if is_event_row || is_last {
            continue;
        }
        let k = (t / dt).round();
        assert_eq!(t, k * dt, "row {i} at {t} is not k·dt");
    }
    // Every multiple below the stop time is there, once (k = 0 .. 299), and the final row is at
    // the stop time.
    let multiples = rec
        .times
        .iter()
        .filter(|&&t| t == (t / dt).round() * dt)
        .count();
    assert!(multiples >= 300, "{multiples} rows at multiples of dt");
    assert_eq!(*rec.times.last().unwrap(), 3.0);
    // The first event pair is the located contact onset (zero crossing located to ~1e-12 s; the
    // closed form is given to 10 digits).
    let onset = rec.times[events[0]];
    assert!((onset - ONSET).abs() < 1e-9, "onset at {onset}");
    // Values at the fixed times come from the dense output: the parabola within 1e-8 m.
    for (t, z) in free_fall_rows(rec) {
        assert!((z - (1.0 - 0.5 * G * t * t)).abs() < 1e-8, "z({t}) = {z}");
    }
}

#[test]
fn the_default_rows_are_at_most_a_thousandth_of_the_run_apart() {
    // Without refine or sample_time, each step is split so that rows are at most stop_time/1000
    // apart, up to 32 rows per step (20 suffice for the default max_step, stop_time/50).
    let run = common::run("models/mass_spring_damper.toml", &[]);
    let times = &run.recording.times;
    let widest = times.windows(2).map(|w| w[1] - w[0]).fold(0.0f64, f64::max);
    // 5 s / 1000, with the rounding of t0 + k·h/N.
    assert!(widest <= 5e-3 * (1.0 + 1e-12), "widest gap {widest}");
    assert!(times.len() > 1000, "{} rows", times.len());
    // And never fewer rows than the steps give.
    let steps_only = common::run("models/mass_spring_damper.toml", &["output.refine=1"]);
    assert_eq!(steps_only.stats, run.stats);
    assert!(steps_only.recording.len() < times.len());
}

#[test]
fn bad_output_rows_are_located_errors() {
    let base = "connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n[output]\n";
    for (extra, needle, line) in [
        (
            "refine = 0\n",
            "'refine' must be from 1 to 1000 (got 0)",
            10,
        ),
        ("sample_time = -0.1\n", "'sample_time' must be positive", 10),
        (
            "refine = 4\nsample_time = 0.1\n",
            "'sample_time' and 'refine' exclude each other",
            11,
        ),
    ] {
        let message = common::build_error(&format!("{base}{extra}"));
        assert!(message.contains(needle), "{extra}: {message}");
        // Located: the message names the line of the offending key.
        assert!(
            message.contains(&format!("bad.toml:{line}:")),
            "{extra}: {message}"
        );
    }
}
