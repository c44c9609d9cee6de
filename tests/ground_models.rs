//! The GroundContact examples: stopping, sticking, static compression, frictionless momentum,
//! the rolling disc and the planar hopper.

mod common;
use common::{at, column, run};

const G: f64 = 9.81;
const K: f64 = 1e6;

#[test]
fn a_sliding_particle_stops_after_v0_over_mu_g_then_sticks() {
    let r = run("models/particle_on_ground.toml", &[]);
    let rec = &r.recording;
    let (vx, status) = (column(rec, "free.v[0]"), column(rec, "ground.status"));
    let stop = rec.times[vx.iter().position(|v| *v < 1e-3).expect("it stops")];
    let exact = 2.0 / (0.5 * G);
    // Within the compliance transient: the tangential spring takes a few ms to load.
    assert!(
        (stop - exact).abs() < 0.01 * exact,
        "stopped at {stop} s, expected {exact} s"
    );
    let sliding = rec.times.iter().position(|&t| t > 0.2).unwrap();
    assert_eq!(status[sliding], 2.0, "slipping while sliding");
    let last = rec.len() - 1;
    assert_eq!(status[last], 1.0, "sticking once stopped");
    assert!(vx[last].abs() < 1e-4, "at rest: {}", vx[last]);
}

#[test]
fn a_resting_point_sinks_to_the_static_compression() {
    let r = run(
        "models/particle_on_ground.toml",
        &[
            "free.velocity=[0.0, 0.0, 0.0]",
            "free.position=[0.0, 0.0, 0.0]",
            "model.stop_time=2.0",
        ],
    );
    let rec = &r.recording;
    let last = rec.len() - 1;
    let depth = -at(rec, "free.p[2]", last);
    let exact = (1.0 * G / K).powf(2.0 / 3.0);
    assert!(
        ((depth - exact) / exact).abs() < 1e-6,
        "depth {depth} vs (mg/K)^(2/3) = {exact}"
    );
}

#[test]
fn a_frictionless_ground_conserves_horizontal_momentum() {
    let r = run(
        "models/particle_on_ground.toml",
        &[
            "ground.friction=0.0",
            "free.position=[0.0, 0.0, 0.01]",
            "free.velocity=[2.0, -1.0, 0.0]",
            "output.log=[\"free.v\", \"ground.status\"]",
        ],
    );
    let rec = &r.recording;
    let (vx, vy) = (column(rec, "free.v[0]"), column(rec, "free.v[1]"));
    let touched = column(rec, "ground.status").iter().any(|s| *s != 0.0);
    assert!(touched, "the particle lands");
    for i in 0..rec.len() {
        assert_eq!(vx[i], 2.0, "t = {}", rec.times[i]);
        assert_eq!(vy[i], -1.0, "t = {}", rec.times[i]);
    }
}

#[test]
fn the_rolling_disc_rolls_without_slipping_and_turns() {
    let r = run(
        "models/rolling_disc.toml",
        &["output.log=[\"ground.status\", \"ground.force\", \"free.Q\", \"free.p[2]\"]"],
    );
    let rec = &r.recording;
    let n = 32;
    // The most loaded rim point carries the rolling contact: it must be sticking (rolling without
    // slipping); lightly loaded points entering and leaving the patch may slip.
    let (mut sticking, mut total) = (0usize, 0usize);
    let settled = rec.times.iter().position(|&t| t > 0.2).unwrap();
    for i in settled..rec.len() {
        let loaded = (0..n)
            .map(|k| (k, at(rec, &format!("ground.force[2,{k}]"), i)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, f)| *f > 1.0);
        if let Some((k, _)) = loaded {
            total += 1;
            if at(rec, &format!("ground.status[{k}]"), i) == 1.0 {
                sticking += 1;
            }
        }
    }
    assert!(
        total > 100 && sticking as f64 > 0.95 * total as f64,
        "the loaded point sticks in {sticking} of {total} rows"
    );
    // Heading: the centre's velocity direction turns (the lean steers the disc).
    let (vx, vy) = (column(rec, "free.v[0]"), column(rec, "free.v[1]"));
    let heading = |i: usize| vy[i].atan2(vx[i]);
    let last = rec.len() - 1;
    assert!(
        (heading(last) - heading(0)).abs() > 0.3,
        "heading changed by {}",
        heading(last) - heading(0)
    );
    // Still rolling upright-ish: the centre stays near the radius above ground.
    let z = column(rec, "free.p[2]");
    assert!(z[last] > 0.09, "the disc did not fall: z = {}", z[last]);
}

#[test]
fn the_planar_hopper_stays_in_its_plane() {
    let r = run("models/planar_hopper.toml", &[]);
    let rec = &r.recording;
    let status = column(rec, "ground.status");
    assert!(status.iter().any(|s| *s != 0.0), "the foot lands");
    // Forces of the 2-D ground have no z part, and the planar joint keeps the motion in x-y.
    for i in 0..rec.len() {
        assert_eq!(at(rec, "ground.force[2]", i), 0.0);
    }
    let y = column(rec, "plane.q[1]");
    assert!(y.iter().all(|v| *v > 0.2), "the body stays up");
    // It hops: the foot lands, leaves and lands again several times.
    let landings = status
        .windows(2)
        .filter(|w| w[0] == 0.0 && w[1] != 0.0)
        .count();
    assert!(landings >= 3, "{landings} landings");
}

#[test]
fn check_reports_ground_contact_advice() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_blockdyn"))
        .args(["check", "models/particle_on_ground.toml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        s.contains("static compression")
            && s.contains("time constant")
            && s.contains("steps of about"),
        "{s}"
    );
    // 1 kg on one point: (9.80665/1e6)^(2/3) = 4.58e-4 m.
    assert!(s.contains("4.58"), "{s}");
}

/// Force on the point and u̇ of the GroundContact block at the particle model's initial state.
fn ground_at(dimension: &str, position: &str, velocity: &str) -> ([f64; 3], Vec<f64>, f64) {
    use blockdyn::sim::{Engine, Recorder};
    use blockdyn::solver::System;
    let d = blockdyn::load_model(
        std::path::Path::new("models/particle_on_ground.toml"),
        &[
            format!("ground.dimension={dimension}").parse().unwrap(),
            format!("free.position={position}").parse().unwrap(),
            format!("free.velocity={velocity}").parse().unwrap(),
        ],
    )
    .unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x = engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    engine.derivatives(0.0, &x, &mut dx);
    let g = &d.blocks()[d.block_index("ground").unwrap()];
    let f = &engine.run.signals[g.output_slots[g.output_index("force").unwrap()].range()];
    let status = engine.run.signals[g.output_slots[g.output_index("status").unwrap()].range()][0];
    ([f[0], f[1], f[2]], dx[g.states.clone()].to_vec(), status)
}

#[test]
fn the_block_applies_the_gcontact_equations_in_every_regime() {
    let (k, d, mu) = (1e6, 1e3, 0.5);
    let r = 1e-3f64.sqrt();
    let f_n = r * (k * 1e-3 - d * -0.05);
    // 3-D, sticking: f_t = −K r u − D r v_t with u = 0; u̇ = v_t.
    let (f, rate, status) = ground_at("3", "[0.0, 0.0, -1e-3]", "[0.1, 0.0, -0.05]");
    assert_eq!(status, 1.0);
    assert!((f[2] - f_n).abs() < 1e-9 * f_n, "{f:?}");
    assert!((f[0] - (-d * r * 0.1)).abs() < 1e-9, "{f:?}");
    assert!(
        (rate[0] - 0.1).abs() < 1e-15 && rate[1].abs() < 1e-15,
        "{rate:?}"
    );
    // 3-D, slipping at the cone's edge: |f_t| = μ f_n; u̇ = −(f_t + K r u)/(D r).
    let (f, rate, status) = ground_at("3", "[0.0, 0.0, -1e-3]", "[2.0, 0.0, -0.05]");
    assert_eq!(status, 2.0);
    assert!((f[0] + mu * f_n).abs() < 1e-9 * f_n, "{f:?}");
    assert!((rate[0] - mu * f_n / (d * r)).abs() < 1e-9, "{rate:?}");
    // Below ground but rising faster than the ground recovers (ż > −K z / D = 1 m/s): no contact.
    let (f, rate, status) = ground_at("3", "[0.0, 0.0, -1e-3]", "[0.3, 0.0, 2.0]");
    assert_eq!(status, 0.0);
    assert_eq!(f, [0.0, 0.0, 0.0]);
    assert_eq!(rate, vec![0.0, 0.0], "u = 0 relaxes at rate −(K/D)·u = 0");
    // Above ground: nothing.
    let (f, _, status) = ground_at("3", "[0.0, 0.0, 1e-3]", "[0.3, 0.0, -2.0]");
    assert_eq!((f, status), ([0.0, 0.0, 0.0], 0.0));
    // 2-D: the ground is the x axis, y up; z is ignored and the force has no z part.
    let (f, rate, status) = ground_at("2", "[0.0, -1e-3, 0.7]", "[0.1, -0.05, 3.0]");
    assert_eq!(status, 1.0);
    assert!(
        (f[1] - f_n).abs() < 1e-9 * f_n && (f[0] + d * r * 0.1).abs() < 1e-9 && f[2] == 0.0,
        "{f:?}"
    );
    assert_eq!(rate.len(), 1);
    assert!((rate[0] - 0.1).abs() < 1e-15);
}
