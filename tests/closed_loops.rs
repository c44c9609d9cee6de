//! Closed kinematic loops: a parallelogram four-bar against the 1-DOF closed form, its closure
//! error, and the messages for loops that cannot be closed.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, column, run};

const G: f64 = 9.80665;

/// The complete elliptic integral of the first kind K(k), by the arithmetic-geometric mean.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}

/// Times where `values` falls through zero, by linear interpolation between recorded rows.
fn falling_zeros(times: &[f64], values: &[f64]) -> Vec<f64> {
    (1..times.len())
        .filter(|&i| values[i - 1] > 0.0 && values[i] <= 0.0)
        .map(|i| {
            let s = values[i - 1] / (values[i - 1] - values[i]);
            times[i - 1] + s * (times[i] - times[i - 1])
        })
        .collect()
}

/// models/four_bar.toml: the parallelogram moves as a compound pendulum, T = 4·√(I/(M g a))·
/// K(sin(θ0/2)). The period between falling zero crossings of the crank angle agrees to 1e-6
/// relative (the crossings are interpolated linearly between steps: about 4e-8 here). The loop
/// stays closed: the coupler's end C, computed from the crank and coupler angles, meets the
/// rocker's tip, computed from the rocker angle, within 1e-9 m at every recorded step; crank and
/// rocker turn together (a parallelogram), and the cut joint `close` reports its true angle (the
/// rocker's orientation relative to the coupler's: q_rocker − (q_crank + q_coupler)).
#[test]
fn a_parallelogram_four_bar_swings_with_the_pendulum_period_and_stays_closed() {
    let r = run("models/four_bar.toml", &[]);
    let rec = &r.recording;
    let (a, l, r_ball, m, total) = (0.5, 1.0, 0.05, 1.0, 3.0);
    let inertia = total * a * a + 2.0 * 0.4 * m * r_ball * r_ball;
    let period = 4.0 * (inertia / (total * G * a)).sqrt() * elliptic_k((0.5f64).sin());
    let crank = column(rec, "crank_joint.q");
    let zeros = falling_zeros(&rec.times, &crank);
    assert!(zeros.len() >= 2, "{zeros:?}");
    let measured = zeros[1] - zeros[0];
    assert!(
        (measured - period).abs() < 1e-6 * period,
        "{measured} vs {period}"
    );
    for i in 0..rec.len() {
        let (q1, q2, q3) = (
            at(rec, "crank_joint.q", i),
            at(rec, "coupler_joint.q", i),
            at(rec, "rocker_joint.q", i),
        );
        let c_coupler = [
            a * q1.sin() + l * (q1 + q2).cos(),
            -a * q1.cos() + l * (q1 + q2).sin(),
        ];
        let c_rocker = [l + a * q3.sin(), -a * q3.cos()];
        let gap = (c_coupler[0] - c_rocker[0]).hypot(c_coupler[1] - c_rocker[1]);
        assert!(gap < 1e-9, "t = {}: closure error {gap} m", rec.times[i]);
        assert!((q1 - q3).abs() < 1e-8, "crank {q1} rocker {q3}");
        let close = at(rec, "close.q", i);
        assert!((close - (q3 - (q1 + q2))).abs() < 1e-8, "close.q {close}");
    }
}

/// A loop of prismatic joints only (no joint can close it), or closed by an actuated revolute
/// joint, is refused with a message that names the joint and says what to do.
#[test]
fn loops_that_cannot_be_closed_say_which_joint_and_why() {
    // j1 and j3 hang from the World; j2 joins them and is reached last: it closes the loop.
    let triangle = |kind: &str, closing_extra: &str| {
        format!(
            r#"connect = ["world.W -- j1.B", "j1.F -- arm.B", "arm.F -- ball.R", "arm.F -- j2.B",
  "j2.F -- bar.R", "world.W -- ground.B", "ground.F -- j3.B", "j3.F -- bar.R"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.j1]
type = "{kind}"
[blocks.arm]
type = "RigidTransform"
translation = [0.0, -0.5, 0.0]
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
[blocks.j2]
type = "{kind}"
{closing_extra}
[blocks.bar]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
[blocks.ground]
type = "RigidTransform"
translation = [0.0, -0.5, 0.0]
[blocks.j3]
type = "{kind}"
"#
        )
    };
    let prismatic = build_error(&triangle("PrismaticJoint", ""));
    assert!(
        prismatic.contains("'j2' closes a kinematic loop"),
        "{prismatic}"
    );
    assert!(
        prismatic.contains("RevoluteJoint or SphericalJoint"),
        "{prismatic}"
    );
    let actuated = build_error(&triangle("RevoluteJoint", "actuation = \"input\""));
    assert!(actuated.contains("cannot be actuated"), "{actuated}");
}
