//! Contact modes as located events (RigidContact): lift-off, slip onset and the end of sliding
//! each end a step exactly, at the time a closed form gives.
//!
//! A 1 kg box rests on the floor with Coulomb friction; a horizontal force F = k·t (k = 10 N/s)
//! pushes its centre of mass along World x. Every run is in memory; nothing is written to disk.

mod common;
use common::{at, column, event_rows, run_text};

/// Standard gravity, the default of a mechanism without a MechanismConfiguration block.
const G: f64 = 9.80665;
/// The push's rate (N/s).
const K: f64 = 10.0;
/// Where sliding friction takes over from static friction (m/s), `rigid::SLIDING_VELOCITY`.
const SLIDING_VELOCITY: f64 = 1e-6;

/// A 1 kg box `size` (m) on the floor, pushed at its centre by `slope`·t N along x, starting
/// with velocity `v0` (m/s) along x, friction coefficient `mu`.
fn pushed_box(size: [f64; 3], mu: f64, slope: f64, v0: f64, stop_time: f64) -> String {
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- box.R", "free.F -- push.R",
  "ramp.out -> fv.in1", "zero.out -> fv.in2", "zero.out -> fv.in3", "fv.out -> push.force",
  "floor.G -- c.B", "box.G -- c.F"]
[model]
stop_time = {stop_time:?}
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["free.p", "free.v", "free.w", "c.normal_force", "c.friction_force"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.box]
type = "Solid"
geometry = {{ shape = "brick", size = [{sx:?}, {sy:?}, {sz:?}] }}
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, {half:?}]
velocity = [{v0:?}, 0.0, 0.0]
[blocks.push]
type = "ExternalForceTorque"
[blocks.ramp]
type = "Ramp"
slope = {slope:?}
[blocks.zero]
type = "Constant"
value = 0.0
[blocks.fv]
type = "Mux"
inputs = 3
[blocks.c]
type = "RigidContact"
restitution = 0.0
friction = {{ method = "coulomb", coefficient = {mu:?} }}
"#,
        sx = size[0],
        sy = size[1],
        sz = size[2],
        half = 0.5 * size[2],
    )
}

/// The times of the located events.
fn event_times(rec: &blockdyn::output::Recording) -> Vec<f64> {
    event_rows(rec).iter().map(|&i| rec.times[i]).collect()
}

/// A low box (0.4 × 0.4 × 0.1 m, μ = 0.3) starts to slide when the push reaches μ·m·g, at
/// t_s = μ m g / k, and sliding friction takes over when its speed reaches V = 1e-6 m/s: with
/// a = (k t − μ m g)/m the speed is k (t − t_s)²/(2m), so at t_s + √(2 m V / k). Tolerances:
/// 1e-8 relative on t_s (the location tolerance and the state's error at rel_tol 1e-8) and 1e-4
/// relative on the 0.45 ms to the sliding switch (the friction is μ·m·g throughout, exactly: the
/// push is along a direction of the friction polygon).
#[test]
fn slip_onset_and_the_switch_to_sliding_are_located() {
    let mu = 0.3;
    let r = run_text("slip", &pushed_box([0.4, 0.4, 0.1], mu, K, 0.0, 0.35));
    let events = event_times(&r.recording);
    assert_eq!(events.len(), 2, "slip onset and sliding: {events:?}");
    let onset = mu * G / K;
    assert!(
        (events[0] - onset).abs() < 1e-8 * onset,
        "slip at {}, expected {onset}",
        events[0]
    );
    let to_sliding = (2.0 * SLIDING_VELOCITY / K).sqrt();
    assert!(
        ((events[1] - onset) - to_sliding).abs() < 1e-4 * to_sliding,
        "sliding after {} s, expected {to_sliding}",
        events[1] - onset
    );
    // The friction force is μ·m·g from the onset on (1e-9 relative: round-off of the solve).
    let rec = &r.recording;
    let last = rec.len() - 1;
    let friction = at(rec, "c.friction_force", last);
    assert!(
        (friction - mu * G).abs() < 1e-9 * mu * G,
        "friction {friction}"
    );
}

/// A box launched at v0 = 1 m/s (μ = 0.3, no push) decelerates at μ g and sticks where its speed
/// falls to V = 1e-6 m/s: at t = (v0 − V)/(μ g), after x = v0²/(2 μ g). Tolerances: 1e-8
/// relative on the time (location and integration), 1e-9 m on the distance (the last 1e-6 m/s
/// covers V²/(2μg) ≈ 1.7e-13 m), and then the box stays: the stick event takes the last 1e-6 m/s
/// away (an impulse standing for the last 0.3 µs of sliding friction), so it does not creep
/// (speed below 1e-12 m/s: round-off), and its friction is zero.
#[test]
fn a_sliding_box_sticks_where_its_speed_reaches_the_switch() {
    let (mu, v0) = (0.3, 1.0);
    let r = run_text("stop", &pushed_box([0.4, 0.4, 0.1], mu, 0.0, v0, 0.5));
    let rec = &r.recording;
    let events = event_times(rec);
    assert_eq!(events.len(), 1, "the stop: {events:?}");
    let stop = (v0 - SLIDING_VELOCITY) / (mu * G);
    assert!(
        (events[0] - stop).abs() < 1e-8 * stop,
        "stopped at {}, expected {stop}",
        events[0]
    );
    let x = column(rec, "free.p[0]");
    let distance = v0 * v0 / (2.0 * mu * G);
    let last = rec.len() - 1;
    assert!((x[last] - distance).abs() < 1e-9, "slid {} m", x[last]);
    assert!(at(rec, "free.v[0]", last).abs() < 1e-12, "it creeps");
    assert!(at(rec, "c.friction_force", last).abs() < 1e-9);
}

/// A tall box (0.2 × 0.2 × 0.4 m, μ = 1: no slip) tips about its front edge when the push's
/// moment about that edge, F·h/2, reaches the weight's, m g w/2: at t = m g w / (h k). Both back
/// corners lift off together, one located event (1e-8 relative). The run then goes on with the box
/// pivoting on its front edge (the lifted corners carry no friction rows: with them, Lemke's
/// method failed on this scene at most tolerances), turning forward.
#[test]
fn a_pushed_tall_box_lifts_off_its_back_edge_where_the_moments_balance() {
    let r = run_text("tip", &pushed_box([0.2, 0.2, 0.4], 1.0, K, 0.0, 0.6));
    let rec = &r.recording;
    let events = event_times(rec);
    let tip = G * 0.2 / (0.4 * K);
    assert!(!events.is_empty(), "no lift-off event");
    assert!(
        (events[0] - tip).abs() < 1e-8 * tip,
        "lifted off at {}, expected {tip}",
        events[0]
    );
    let last = rec.len() - 1;
    assert_eq!(rec.times[last], 0.6, "the run ends");
    assert!(at(rec, "free.w[1]", last) > 0.0, "it turns forward about y");
    assert!(
        at(rec, "free.p[2]", last) > 0.2,
        "its centre rises as it pivots"
    );
}
