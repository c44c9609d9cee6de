//! The classic bouncing ball built from library blocks and driven through the `Block` calling
//! conventions by a minimal fixed-step engine (RK4 + bisection on the zero crossing):
//!
//! gravity (Constant −g) → vel (Integrator, reset "falling" on the height, x0 = −e·v⁻ from a Gain)
//! → pos (Integrator, initial h0) → vel.reset.
//!
//! Between impacts the motion is a parabola, which RK4 integrates exactly (up to rounding), so the
//! closed forms apply: first impact at t1 = √(2·h0/g) with speed v1 = √(2·g·h0); the rebound speed
//! is e·v1 and the next apex is e²·h0, reached Δt = e·v1/g after the impact.

mod blocks_support;

use blocks_support::{node, Model};

const G: f64 = 9.81;
const H0: f64 = 1.0;
const E: f64 = 0.8;

#[test]
fn bouncing_ball_rebounds_with_the_restitution_coefficient() {
    // Signals: 0 gravity.out, 1 vel.out, 2 pos.out, 3 gain.out. States: x[0] = v, x[1] = height.
    let mut m = Model {
        nodes: vec![
            node("Constant", &format!("value = {}", -G), &[], &[0], 0),
            node(
                "Integrator",
                "initial = 0.0\nreset = \"falling\"\ninitial_source = \"external\"",
                &[0, 2, 3],
                &[1],
                0,
            ),
            node("Integrator", &format!("initial = {H0}"), &[1], &[2], 1),
            node("Gain", &format!("gain = {}", -E), &[1], &[3], 2),
        ],
        signals: vec![0.0; 4],
    };
    let mut x = m.start(2);
    assert_eq!(x, vec![0.0, H0]);

    let mut apex_after_first = f64::NEG_INFINITY;
    let mut impacts = 0;
    let events = m.run(&mut x, 1e-3, 1.5, |_, x| {
        if impacts == 1 {
            apex_after_first = apex_after_first.max(x[1]);
        }
        if x[0] > 0.0 && impacts == 0 {
            impacts = 1;
        }
    });
    for e in &events {
        // x0 = −e·v⁻, read at the event before the reset: bit-exact.
        assert_eq!(e.after[0], -E * e.before[0]);
    }
    let (t1, v1) = (events[0].t, events[0].before[0]);
    let t1_exact = (2.0 * H0 / G).sqrt();
    let v1_exact = -(2.0 * G * H0).sqrt();
    // Bisection to 60 halvings of 1 ms leaves ~1e-15 s; RK4 is exact on the parabola.
    assert!(
        (t1 - t1_exact).abs() < 1e-12,
        "t1 = {t1}, expected {t1_exact}"
    );
    assert!(
        (v1 - v1_exact).abs() < 1e-9,
        "v1 = {v1}, expected {v1_exact}"
    );
    // The sampled apex (1 ms grid) is within ½·g·(0.5 ms)² ≈ 1.3e-6 m of e²·h0.
    assert!(
        (apex_after_first - E * E * H0).abs() < 2e-6,
        "apex {apex_after_first}"
    );
    // Second impact: after a flight of 2·e·|v1|/g.
    let t2_exact = t1_exact + 2.0 * E * (2.0 * G * H0).sqrt() / G;
    assert!(
        (events[1].t - t2_exact).abs() < 1e-9,
        "t2 = {}, expected {t2_exact}",
        events[1].t
    );
}
