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

/// models/four_bar_parallelogram.toml: the parallelogram moves as a compound pendulum, T = 4·√(I/(M g a))·
/// K(sin(θ0/2)). The period between falling zero crossings of the crank angle agrees to 1e-6
/// relative (the crossings are interpolated linearly between steps: about 4e-8 here). The loop
/// stays closed: the coupler's end C, computed from the crank and coupler angles, meets the
/// rocker's tip, computed from the rocker angle, within 1e-9 m at every recorded step; crank and
/// rocker turn together (a parallelogram), and the cut joint `close` reports its true angle (the
/// rocker's orientation relative to the coupler's: q_rocker − (q_crank + q_coupler)).
#[test]
fn a_parallelogram_four_bar_swings_with_the_pendulum_period_and_stays_closed() {
    let r = run("models/four_bar_parallelogram.toml", &[]);
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

/// models/slider_crank.toml with its damper removed: the closure keeps the slider where the
/// slider-crank's kinematics put it, x = r·cos θ + √(l² − r²·sin² θ), and the rod's end on the
/// x axis, within 1e-9 m at every recorded step; the crank turns round and round; and the total
/// energy (crank, rod, slider, spring) stays constant to 1e-7 relative (integration at rel_tol
/// 1e-9 over 3 s, plus the projections' O(1e-10) corrections).
#[test]
fn a_slider_crank_follows_its_kinematics_and_keeps_its_energy() {
    let r = run("models/slider_crank.toml", &["spring.damping=0.0"]);
    let rec = &r.recording;
    let (r_crank, l) = (0.1f64, 0.3f64);
    let (m_crank, ball, m_rod, m_slider, k, free) = (0.5, 0.02, 0.3, 1.0, 20.0, 0.35);
    let i_crank = m_crank * r_crank * r_crank + 0.4 * m_crank * ball * ball;
    let i_rod = m_rod * (l * l + 0.02 * 0.02) / 12.0;
    let energy = |i: usize| -> f64 {
        let (th, w) = (at(rec, "crank_joint.q", i), at(rec, "crank_joint.w", i));
        let phi = th + at(rec, "rod_joint.q", i);
        let phi_dot = w + at(rec, "rod_joint.w", i);
        let v_rod = [
            -r_crank * w * th.sin() - 0.5 * l * phi_dot * phi.sin(),
            r_crank * w * th.cos() + 0.5 * l * phi_dot * phi.cos(),
        ];
        let x_dot = at(rec, "slide.w", i);
        let stretch = at(rec, "spring.length", i) - free;
        0.5 * i_crank * w * w
            + 0.5 * m_rod * (v_rod[0] * v_rod[0] + v_rod[1] * v_rod[1])
            + 0.5 * i_rod * phi_dot * phi_dot
            + 0.5 * m_slider * x_dot * x_dot
            + 0.5 * k * stretch * stretch
    };
    let e0 = energy(0);
    for i in 0..rec.len() {
        let th = at(rec, "crank_joint.q", i);
        let phi = th + at(rec, "rod_joint.q", i);
        let x = at(rec, "slide.q", i);
        let expected = r_crank * th.cos() + (l * l - (r_crank * th.sin()).powi(2)).sqrt();
        assert!(
            (x - expected).abs() < 1e-9,
            "t = {}: slider at {x}, kinematics {expected}",
            rec.times[i]
        );
        let rod_end_y = r_crank * th.sin() + l * phi.sin();
        assert!(
            rod_end_y.abs() < 1e-9,
            "rod end off the axis by {rod_end_y}"
        );
        let e = energy(i);
        assert!(
            (e - e0).abs() < 1e-7 * e0,
            "t = {}: energy {e} vs {e0}",
            rec.times[i]
        );
    }
    let turns = at(rec, "crank_joint.q", rec.len() - 1) / std::f64::consts::TAU;
    assert!(turns > 5.0, "the crank made {turns} turns");
}

/// Initial positions that open a loop are projected onto it at the start, with a warning naming
/// the cut joint when the error exceeds 1e-6; after the projection the loop is closed (1e-9 m).
#[test]
fn an_open_initial_loop_is_projected_with_a_warning() {
    let overrides = vec!["rocker_joint.q0=1.05".to_string()];
    let d = blockdyn::load_model(
        std::path::Path::new("models/four_bar_parallelogram.toml"),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap();
    assert!(
        d.warnings()
            .iter()
            .any(|w| w.contains("loop closed by joint 'close'")),
        "{:?}",
        d.warnings()
    );
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let rec = &r.recording;
    let (a, l) = (0.5, 1.0);
    let (q1, q2, q3) = (
        at(rec, "crank_joint.q", 0),
        at(rec, "coupler_joint.q", 0),
        at(rec, "rocker_joint.q", 0),
    );
    let c_coupler = [
        a * q1.sin() + l * (q1 + q2).cos(),
        -a * q1.cos() + l * (q1 + q2).sin(),
    ];
    let c_rocker = [l + a * q3.sin(), -a * q3.cos()];
    let gap = (c_coupler[0] - c_rocker[0]).hypot(c_coupler[1] - c_rocker[1]);
    assert!(gap < 1e-9, "closure error after the start: {gap}");
    let quiet = blockdyn::load_model(
        std::path::Path::new("models/four_bar_parallelogram.toml"),
        &[],
    )
    .unwrap();
    assert!(quiet.warnings().is_empty(), "{:?}", quiet.warnings());
}

/// A loop whose links cannot reach each other (crank 0.3 m, coupler 0.3 m, rocker 0.05 m between
/// pivots 1 m apart) stops the run at the start with an error naming the cut joint, instead of
/// integrating an open loop.
#[test]
fn a_loop_that_cannot_close_stops_the_run_naming_the_joint() {
    let overrides: Vec<String> = [
        "crank_arm.translation=[0.0, -0.3, 0.0]",
        "coupler_end.translation=[0.3, 0.0, 0.0]",
        "coupler_mid.translation=[0.15, 0.0, 0.0]",
        "rocker_arm.translation=[0.0, -0.05, 0.0]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let d = blockdyn::load_model(
        std::path::Path::new("models/four_bar_parallelogram.toml"),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap();
    let e = blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .err()
        .expect("the run must fail")
        .to_string();
    assert!(
        e.contains("the loop closed by joint 'close' cannot be closed"),
        "{e}"
    );
}

/// models/four_bar.toml, a crank-rocker: the crank makes full turns while the rocker swings
/// within its range; the loop stays closed (1e-9 m: C from the crank and coupler angles against
/// the rocker's tip) and, without friction, the energy (balls as points plus their own
/// inertia, the coupler as a uniform bar) stays constant to 1e-7 relative (rel_tol 1e-9 over
/// 4 s, plus the projections' O(1e-10) corrections).
#[test]
fn a_crank_rocker_turns_its_crank_and_keeps_its_energy() {
    let r = run("models/four_bar.toml", &[]);
    let rec = &r.recording;
    let (crank, coupler, rocker, ground) = (0.3, 0.9, 0.8, 1.0);
    let (m, ball) = (1.0, 0.05);
    let i_ball = 0.4 * m * ball * ball;
    let i_bar = m * (coupler * coupler + 0.05 * 0.05) / 12.0;
    let energy = |i: usize| -> f64 {
        let (q1, w1) = (at(rec, "crank_joint.q", i), at(rec, "crank_joint.w", i));
        let (q2, w2) = (at(rec, "coupler_joint.q", i), at(rec, "coupler_joint.w", i));
        let (q3, w3) = (at(rec, "rocker_joint.q", i), at(rec, "rocker_joint.w", i));
        let (phi, phi_dot) = (q1 + q2, w1 + w2);
        let b = [crank * q1.cos(), crank * q1.sin()];
        let vb = [-crank * w1 * q1.sin(), crank * w1 * q1.cos()];
        let mid = [
            b[0] + 0.5 * coupler * phi.cos(),
            b[1] + 0.5 * coupler * phi.sin(),
        ];
        let vmid = [
            vb[0] - 0.5 * coupler * phi_dot * phi.sin(),
            vb[1] + 0.5 * coupler * phi_dot * phi.cos(),
        ];
        let tip_y = rocker * q3.sin();
        let kinetic = 0.5 * (m * crank * crank + i_ball) * w1 * w1
            + 0.5 * m * (vmid[0] * vmid[0] + vmid[1] * vmid[1])
            + 0.5 * i_bar * phi_dot * phi_dot
            + 0.5 * (m * rocker * rocker + i_ball) * w3 * w3;
        kinetic + m * G * (b[1] + mid[1] + tip_y)
    };
    let e0 = energy(0);
    let scale = e0.abs().max(1.0);
    for i in 0..rec.len() {
        let (q1, q2, q3) = (
            at(rec, "crank_joint.q", i),
            at(rec, "coupler_joint.q", i),
            at(rec, "rocker_joint.q", i),
        );
        let c_coupler = [
            crank * q1.cos() + coupler * (q1 + q2).cos(),
            crank * q1.sin() + coupler * (q1 + q2).sin(),
        ];
        let c_rocker = [ground + rocker * q3.cos(), rocker * q3.sin()];
        let gap = (c_coupler[0] - c_rocker[0]).hypot(c_coupler[1] - c_rocker[1]);
        assert!(gap < 1e-9, "t = {}: closure error {gap} m", rec.times[i]);
        let e = energy(i);
        assert!(
            (e - e0).abs() < 1e-7 * scale,
            "t = {}: energy {e} vs {e0}",
            rec.times[i]
        );
    }
    let last = rec.len() - 1;
    assert!(
        at(rec, "crank_joint.q", last) > 4.0 * std::f64::consts::TAU,
        "the crank turns"
    );
    let rocker_angles = column(rec, "rocker_joint.q");
    let (lo, hi) = rocker_angles
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(*x), h.max(*x))
        });
    assert!(
        hi - lo < std::f64::consts::PI,
        "the rocker swings within [{lo}, {hi}]"
    );
}

/// The parallelogram driven through full turns (and its collinear, singular positions): the run
/// completes, the loop stays closed, and the cut joint's angle counts full turns like a tree
/// joint's (no jump of 2π between recorded rows: every change below 1 rad at these steps).
#[test]
fn a_cut_joint_counts_full_turns() {
    let sets = [
        "crank_joint.w0=12.0",
        "coupler_joint.w0=-12.0",
        "rocker_joint.w0=12.0",
    ];
    let r = run("models/four_bar_parallelogram.toml", &sets);
    let rec = &r.recording;
    let close = column(rec, "close.q");
    let biggest = close
        .windows(2)
        .fold(0.0f64, |m, w| m.max((w[1] - w[0]).abs()));
    assert!(biggest < 1.0, "close.q jumped by {biggest}");
    assert!(
        close.last().unwrap().abs() > std::f64::consts::TAU,
        "it turned"
    );
}
