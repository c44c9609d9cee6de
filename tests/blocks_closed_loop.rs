//! Closed-loop checks of mode-switching blocks against closed forms, through the minimal engine.

mod blocks_support;

use blocks_support::{node, Model};
use std::f64::consts::PI;

/// Sine(1 rad/s) → Integrator limited to [−0.5, 0.5], x(0) = 0.
///
/// Free: x = 1 − cos t reaches 0.5 at t = π/3; held while sin t > 0, released at t = π; then
/// x = −0.5 − cos t reaches −0.5 at t = 3π/2; held until sin t turns positive at t = 2π.
#[test]
fn limited_integrator_holds_exactly_between_located_events() {
    let mut m = Model {
        nodes: vec![
            node("Sine", "", &[], &[0], 0),
            node(
                "Integrator",
                "lower_limit = -0.5\nupper_limit = 0.5",
                &[0],
                &[1],
                0,
            ),
        ],
        signals: vec![0.0; 2],
    };
    let mut x = m.start(1);
    let mut held_values = Vec::new();
    let events = m.run(&mut x, 1e-3, 7.0, |t, x| {
        if (PI / 3.0 + 0.01..PI - 0.01).contains(&t)
            || (1.5 * PI + 0.01..2.0 * PI - 0.01).contains(&t)
        {
            held_values.push(x[0]);
        }
    });
    let times: Vec<f64> = events.iter().map(|e| e.t).collect();
    let expected = [PI / 3.0, PI, 1.5 * PI, 2.0 * PI];
    assert_eq!(times.len(), 4, "{times:?}");
    // RK4 with h = 1 ms on sin/cos: local error ~h⁵/120 ≈ 1e-17 per step; 1e-9 s is generous.
    for (t, e) in times.iter().zip(expected) {
        assert!((t - e).abs() < 1e-9, "event at {t}, expected {e}");
    }
    // Reaching a limit sets the state to it bit-exactly; while held it does not drift at all.
    assert_eq!(events[0].after, vec![0.5]);
    assert_eq!(events[2].after, vec![-0.5]);
    assert!(
        held_values.iter().all(|&v| v == 0.5 || v == -0.5),
        "{held_values:?}"
    );
    assert!(held_values.len() > 1000);
}

/// Integrator → Relay (on at 1, off at −1, outputs ±1, initially on) → Gain(−1) → Integrator:
/// ẋ = −relay. From x(0) = 0 the state falls with slope −1 to −1 (t = 1, relay off), rises to +1
/// (t = 3, on), falls to −1 (t = 5, off): a triangle wave between the hysteresis points.
#[test]
fn relay_hysteresis_loop_is_a_triangle_wave() {
    // Signals: 0 integrator.out, 1 relay.out, 2 gain.out.
    let mut m = Model {
        nodes: vec![
            node("Integrator", "", &[2], &[0], 0),
            node(
                "Relay",
                "on_point = 1.0\noff_point = -1.0\non_value = 1.0\noff_value = -1.0\ninitial_state = \"on\"",
                &[0],
                &[1],
                1,
            ),
            node("Gain", "gain = -1.0", &[1], &[2], 1),
        ],
        signals: vec![0.0; 3],
    };
    let mut x = m.start(1);
    let events = m.run(&mut x, 1e-3, 6.5, |_, _| {});
    let times: Vec<f64> = events.iter().map(|e| e.t).collect();
    // Linear motion: RK4 is exact, so the switch times are exact up to the bisection.
    let expected = [1.0, 3.0, 5.0];
    assert_eq!(times.len(), expected.len(), "{times:?}");
    for (t, e) in times.iter().zip(expected) {
        assert!((t - e).abs() < 1e-12, "switch at {t}, expected {e}");
    }
}
