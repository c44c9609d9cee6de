//! Issue 27's turntable (`tests/data/rigid/turntable.toml`): a 20 kg disk on a revolute joint
//! spun up by a constant 20 N·m torque, a 1 kg brick resting on it 0.2 m from the axis,
//! RigidContact with Coulomb μ = 0.5, rel_tol 1e-8. Before the lexicographic Lemke solver with
//! its fallbacks, the run aborted while the brick was still stuck (at t ≈ 0.378 s under trbdf2,
//! 0.375 s under esdirk43, 0.009 s with the brick 5 cm off the x axis) with "constraint solver
//! gave up after 402 pivots (cycling on a degenerate problem)".
//!
//! Checked while the brick sticks (until 0.58 s; slip starts where μ·g = r·√(α² + ω⁴), at about
//! 0.61 s — what happens after slip is the part 2), under the default method and trbdf2,
//! against closed forms anyone can compute: the table turns at the constant rate α = ω(t)/t, the
//! brick turns with it, the normal force is m·g and the friction force is the brick's mass times
//! its centre's acceleration, m·r·√(α² + ω⁴).
//!
//! In memory only (`blockdyn::simulate`); nothing is written.

mod common;
use common::{column, run};

const MODEL: &str = "tests/data/rigid/turntable.toml";
/// Standard gravity (the model has no MechanismConfiguration).
const G: f64 = 9.80665;
/// The brick's mass (kg) and its centre's distance from the axis (m).
const MASS: f64 = 1.0;
const RADIUS: f64 = 0.2;

fn check_sticking_run(method: Option<&str>) {
    let set_method = method.map(|m| format!("solver.method=\"{m}\""));
    let mut overrides = vec!["model.stop_time=0.58"];
    if let Some(s) = &set_method {
        overrides.push(s);
    }
    let rec = run(MODEL, &overrides).recording;
    let t = rec.times.clone();
    let table = column(&rec, "spin.w");
    let brick = column(&rec, "free.w[2]");
    let normal = column(&rec, "contact.normal_force");
    let friction = column(&rec, "contact.friction_force");
    let last = t.len() - 1;
    assert!(
        (t[last] - 0.58).abs() < 1e-12,
        "{method:?}: ended at {}",
        t[last]
    );
    let alpha = table[last] / t[last];
    for i in 0..t.len() {
        let omega = alpha * t[i];
        // rel_tol 1e-8 on a run of a few hundred steps: 1e-6 relative is well clear of the
        // integration error and far below the 2 % a slipping brick would show.
        let tol = 1e-6 * table[last];
        assert!(
            (table[i] - omega).abs() <= tol,
            "{method:?} t = {}: ω = {}",
            t[i],
            table[i]
        );
        assert!(
            (brick[i] - table[i]).abs() <= tol,
            "{method:?} t = {}: brick {} vs table {}",
            t[i],
            brick[i],
            table[i]
        );
        assert!(
            (normal[i] - MASS * G).abs() <= 1e-9 * MASS * G,
            "{method:?} t = {}: N = {}",
            t[i],
            normal[i]
        );
        let expected = MASS * RADIUS * (alpha * alpha + omega.powi(4)).sqrt();
        assert!(
            (friction[i] - expected).abs() <= 1e-6 * expected,
            "{method:?} t = {}: friction {} vs m·r·√(α² + ω⁴) = {expected}",
            t[i],
            friction[i]
        );
    }
}

#[test]
fn the_turntable_runs_through_sticking_under_the_default_method() {
    check_sticking_run(None);
}

#[test]
fn the_turntable_runs_through_sticking_under_trbdf2() {
    check_sticking_run(Some("trbdf2"));
}

#[test]
fn the_offset_brick_no_longer_cycles() {
    // The brick 5 cm off the x axis aborted at t = 0.009 s; now it runs to 0.3 s (well before
    // slip, which needs r·√(α² + ω⁴) = μ·g) under esdirk43, the method that also aborted.
    let rec = run(
        MODEL,
        &[
            "model.stop_time=0.3",
            "free.position=[0.2, 0.05, 0.025]",
            "solver.method=\"esdirk43\"",
        ],
    )
    .recording;
    let t = rec.times.clone();
    assert!((t[t.len() - 1] - 0.3).abs() < 1e-12);
    let (table, brick) = (column(&rec, "spin.w"), column(&rec, "free.w[2]"));
    assert!(table
        .iter()
        .zip(&brick)
        .all(|(a, b)| (a - b).abs() <= 1e-6 * table[table.len() - 1]));
}
