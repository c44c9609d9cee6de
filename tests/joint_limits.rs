//! Joint limits (RevoluteJoint `limits`) against closed forms: a rigid stop with restitution
//! (ω⁺ = −e·ω⁻, resting against the stop with the torque of the weight) and a penalty stop
//! (the static deflection of its spring), and the errors of bad limits.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, column, event_rows, run};

const G: f64 = 9.80665;

/// models/pendulum_stop.toml: every hit leaves with −e times its angular velocity (1e-9
/// relative: the impulse is exact), or 0 when slower than rest_velocity; q never passes the stop
/// by more than 1e-9 rad (the contract); the pendulum ends resting against it with
/// limit_force = m·g·L·sin(0.2) (1e-9 relative), and limit_force is 0 away from the stop.
#[test]
fn a_rigid_stop_rebounds_with_restitution_and_then_holds_the_weight() {
    let (e, lower, rest_velocity): (f64, f64, f64) = (0.5, 0.2, 1e-3);
    let r = run("models/pendulum_stop.toml", &[]);
    let rec = &r.recording;
    let events = event_rows(rec);
    assert!(events.len() >= 5, "{} impacts", events.len());
    for &i in &events {
        let (before, after) = (at(rec, "hinge.w", i - 1), at(rec, "hinge.w", i));
        assert!(before < 0.0);
        let expected = if -before > rest_velocity {
            -e * before
        } else {
            0.0
        };
        assert!(
            (after - expected).abs() < 1e-9 * before.abs().max(1.0),
            "{before} → {after}"
        );
    }
    let q = column(rec, "hinge.q");
    assert!(q.iter().all(|x| *x >= lower - 1e-9), "passed the stop");
    let torque = column(rec, "hinge.limit_force");
    for (x, f) in q.iter().zip(&torque) {
        if *x > lower + 1e-6 {
            assert_eq!(*f, 0.0, "a force away from the stop at q = {x}");
        }
    }
    let last = rec.len() - 1;
    let holding = G * lower.sin();
    assert!(
        (torque[last] - holding).abs() < 1e-9 * holding,
        "{}",
        torque[last]
    );
    assert!((q[last] - lower).abs() < 1e-9);
}

/// The same pendulum with a penalty stop (k = 1e4 N·m/rad, c = 50 N·m·s/rad) comes to rest where
/// the spring balances the weight, k·(0.2 − q) = m·g·L·sin q (solved by Newton's method; 1e-7
/// rad: the run's tolerance after 6 s of a damped oscillation), and its limit_force is the law's
/// value (1e-9 relative).
#[test]
fn a_penalty_stop_deflects_by_the_weight_over_its_stiffness() {
    let (k, c, lower): (f64, f64, f64) = (1e4, 50.0, 0.2);
    let set = format!(
        "hinge.limits={{ lower = {lower}, upper = 1.5, method = \"spring_damper\", stiffness = {k}, damping = {c} }}"
    );
    let r = run("models/pendulum_stop.toml", &[&set]);
    let rec = &r.recording;
    let mut q_rest = lower;
    for _ in 0..20 {
        let f = k * (lower - q_rest) - G * q_rest.sin();
        let df = -k - G * q_rest.cos();
        q_rest -= f / df;
    }
    let last = rec.len() - 1;
    let q = at(rec, "hinge.q", last);
    assert!((q - q_rest).abs() < 1e-7, "rests at {q}, expected {q_rest}");
    for i in 0..rec.len() {
        let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
        let law = if q < lower {
            k * (lower - q) - c * w
        } else {
            0.0
        };
        let f = at(rec, "hinge.limit_force", i);
        assert!(
            (f - law).abs() <= 1e-9 * law.abs().max(1.0),
            "t = {}: {f} vs {law}",
            rec.times[i]
        );
    }
    // The bound is a located zero crossing: an event row sits exactly at q = lower.
    assert!(event_rows(rec)
        .iter()
        .any(|&i| (at(rec, "hinge.q", i) - lower).abs() < 1e-9));
}

fn pendulum_with(limits: &str, q0: f64) -> String {
    format!(
        r#"connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.hinge]
type = "RevoluteJoint"
q0 = {q0:?}
limits = {limits}
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -1.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 1.0
"#
    )
}

#[test]
fn bad_limits_are_located_errors_with_a_fix() {
    let none = build_error(&pendulum_with("{ method = \"rigid\" }", 0.0));
    assert!(none.contains("needs a lower or an upper bound"), "{none}");
    assert!(none.contains("bad.toml:9"), "{none}");
    let swapped = build_error(&pendulum_with("{ lower = 0.5, upper = -0.5 }", 0.0));
    assert!(swapped.contains("upper bound must be above"), "{swapped}");
    let outside = build_error(&pendulum_with("{ lower = 0.5, upper = 1.0 }", 0.0));
    assert!(outside.contains("outside the joint's limits"), "{outside}");
    let method = build_error(&pendulum_with("{ lower = 0.5, method = \"stiff\" }", 1.0));
    assert!(
        method.contains("did you mean") || method.contains("write one of"),
        "{method}"
    );
    let spring = build_error(&pendulum_with(
        "{ lower = 0.5, method = \"spring_damper\" }",
        1.0,
    ));
    assert!(spring.contains("stiffness"), "{spring}");
}
