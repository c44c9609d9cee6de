//! The multibody example models against closed forms and conservation laws.

mod common;
use blockdyn::multibody::analytic::pendulum_period;
use common::{at, build_error, column, event_rows, run};
use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};

#[test]
fn pendulum_period_matches_the_exact_large_amplitude_formula() {
    let r = run("models/pendulum.toml", &[]);
    let rec = &r.recording;
    // Turning points (w = 0) are located events of the HitCrossing: two per period.
    let turns: Vec<f64> = event_rows(rec).iter().map(|&i| rec.times[i]).collect();
    assert!(turns.len() >= 6, "{turns:?}");
    let (m, l, radius, g) = (1.0, 1.0, 0.05, 9.81);
    let inertia = m * l * l + 0.4 * m * radius * radius;
    let exact = pendulum_period(m * g * l / inertia, std::f64::consts::FRAC_PI_2);
    for w in turns.windows(3) {
        let period = w[2] - w[0];
        // rel_tol 1e-10 and event location to 1e-12 s: the period is good to well below 1e-5.
        assert!(
            ((period - exact) / exact).abs() < 1e-5,
            "period {period} vs exact {exact}"
        );
    }
}

#[test]
fn pendulum_energy_drift_is_below_1e_8() {
    let r = run("models/pendulum.toml", &[]);
    let rec = &r.recording;
    let (q, w) = (column(rec, "hinge.q"), column(rec, "hinge.w"));
    let (m, l, radius, g) = (1.0, 1.0, 0.05, 9.81);
    let inertia = m * l * l + 0.4 * m * radius * radius;
    // q = 0 hangs straight down (bob at y = −L): E = ½ I w² − m g L cos q; E(0) = 0 at q0 = π/2.
    let scale = m * g * l;
    for i in 0..rec.len() {
        let e = 0.5 * inertia * w[i] * w[i] - m * g * l * q[i].cos();
        assert!(
            e.abs() / scale < 1e-8,
            "t = {}: energy drift {}",
            rec.times[i],
            e / scale
        );
    }
}

#[test]
fn double_pendulum_conserves_energy() {
    let r = run(
        "models/double_pendulum.toml",
        &[
            "solver.rel_tol=1e-11",
            "solver.abs_tol=1e-13",
            "output.log=[\"shoulder.w\", \"elbow.w\"]",
        ],
    );
    let rec = &r.recording;
    let (q1, q2) = (column(rec, "shoulder.q"), column(rec, "elbow.q"));
    let (w1, w2) = (column(rec, "shoulder.w"), column(rec, "elbow.w"));
    assert!(q2.iter().any(|x| x.abs() > 0.5), "the elbow swings");
    // Two uniform 1 kg links of length 1 m (0.05 m square section) hung from their ends; q = 0
    // hangs along −y. Direction of a link at absolute angle a: d(a) = (sin a, −cos a).
    let (m, g, inertia) = (1.0, 9.81, (0.05f64 * 0.05 + 1.0) / 12.0);
    let d = |a: f64| Vector3::new(a.sin(), -a.cos(), 0.0);
    let dd = |a: f64| Vector3::new(a.cos(), a.sin(), 0.0);
    for i in 0..rec.len() {
        let (a1, a2) = (q1[i], q1[i] + q2[i]);
        let (c1, c2) = (d(a1) * 0.5, d(a1) + d(a2) * 0.5);
        let (v1, v2) = (
            dd(a1) * (0.5 * w1[i]),
            dd(a1) * w1[i] + dd(a2) * (0.5 * (w1[i] + w2[i])),
        );
        let kinetic = 0.5 * m * (v1.norm_squared() + v2.norm_squared())
            + 0.5 * inertia * (w1[i].powi(2) + (w1[i] + w2[i]).powi(2));
        let energy = kinetic + m * g * (c1.y + c2.y);
        // Released at rest with both centres at y = 0: E = 0. Scale: m·g·L = 9.81 J.
        assert!(
            energy.abs() / (m * g) < 1e-8,
            "t = {}: energy {energy}",
            rec.times[i]
        );
    }
}

fn brick_inertia() -> Matrix3<f64> {
    let (a, b, c, m) = (0.3, 0.2, 0.1, 1.0);
    Matrix3::from_diagonal(&Vector3::new(
        m * (b * b + c * c) / 12.0,
        m * (a * a + c * c) / 12.0,
        m * (a * a + b * b) / 12.0,
    ))
}

#[test]
fn torque_free_brick_conserves_energy_and_momentum_and_flips() {
    let r = run("models/tumbling_brick.toml", &[]);
    let rec = &r.recording;
    let inertia = brick_inertia();
    let mut first: Option<(f64, Vector3<f64>)> = None;
    let mut wy_signs = (false, false);
    for i in 0..rec.len() {
        let w = Vector3::new(
            at(rec, "free.w[0]", i),
            at(rec, "free.w[1]", i),
            at(rec, "free.w[2]", i),
        );
        let q = UnitQuaternion::from_quaternion(Quaternion::new(
            at(rec, "free.Q[0]", i),
            at(rec, "free.Q[1]", i),
            at(rec, "free.Q[2]", i),
            at(rec, "free.Q[3]", i),
        ));
        let energy = 0.5 * w.dot(&(inertia * w));
        let momentum = q * (inertia * w);
        match first {
            None => first = Some((energy, momentum)),
            Some((e0, l0)) => {
                assert!(
                    ((energy - e0) / e0).abs() < 1e-8,
                    "t = {}: energy {energy} vs {e0}",
                    rec.times[i]
                );
                assert!(
                    (momentum - l0).norm() / l0.norm() < 1e-8,
                    "t = {}: momentum drift {}",
                    rec.times[i],
                    (momentum - l0).norm() / l0.norm()
                );
            }
        }
        if w.y > 1.0 {
            wy_signs.0 = true;
        }
        if w.y < -1.0 {
            wy_signs.1 = true;
        }
    }
    assert!(
        wy_signs.0 && wy_signs.1,
        "spin about the intermediate axis must flip"
    );
}

#[test]
fn free_flight_under_gravity_is_a_parabola() {
    let r = run(
        "models/tumbling_brick.toml",
        &[
            "gravity.gravity=[0.0, 0.0, -9.81]",
            "free.velocity=[1.0, -2.0, 3.0]",
            "model.stop_time=2.0",
        ],
    );
    let rec = &r.recording;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let exact = [t, -2.0 * t, 3.0 * t - 0.5 * 9.81 * t * t];
        for (k, e) in exact.iter().enumerate() {
            let p = at(rec, &format!("free.p[{k}]"), i);
            assert!((p - e).abs() < 1e-9, "t = {t}: p[{k}] = {p} vs {e}");
        }
    }
}

#[test]
fn pushed_cart_integrates_the_force_profile() {
    let r = run("models/pushed_cart.toml", &[]);
    let rec = &r.recording;
    let last = rec.len() - 1;
    // ∫F dt / m: 0.5·10 + 10 + 0.5·10 = 20 N·s over 2 kg → 10 m/s; x(4) = 25 m (piecewise cubic).
    assert!((at(rec, "rail.w", last) - 10.0).abs() < 1e-8);
    assert!(
        (at(rec, "rail.q", last) - 25.0).abs() < 1e-8,
        "{}",
        at(rec, "rail.q", last)
    );
    // x(1) = (5/6)·1³: the force ramps as 10 t, a = 5 t.
    let i = rec
        .times
        .iter()
        .position(|&t| t == 1.0)
        .expect("the table breakpoint is a time event");
    assert!((at(rec, "rail.q", i) - 5.0 / 6.0).abs() < 1e-9);
}

const WORLD: &str = "[blocks.world]\ntype = \"WorldFrame\"\n";
const BOB: &str =
    "[blocks.bob]\ntype = \"Solid\"\ngeometry = { shape = \"sphere\", radius = 0.1 }\nmass = 1.0\n";

#[test]
fn two_coaxial_hinges_make_a_loop_that_turns_as_one() {
    // Two revolute joints from the World to the same bob, about the same axis: a closed loop. The
    // joint reached last closes it (no coordinates of its own) and reports the same angle.
    let text = format!(
        "connect = [\"world.W -- a.B\", \"a.F -- bob.R\", \"world.W -- b.B\", \"b.F -- bob.R\"]\n[model]\nstop_time = 1\n[output]\nlog = [\"a.q\", \"b.q\"]\n{WORLD}{BOB}[blocks.a]\ntype = \"RevoluteJoint\"\nw0 = 1.0\n[blocks.b]\ntype = \"RevoluteJoint\"\n"
    );
    let d = blockdyn::load_model_str("loop.toml", &text, &[]).unwrap();
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let rec = &r.recording;
    let (a, b) = (
        rec.column_index("a.q").unwrap(),
        rec.column_index("b.q").unwrap(),
    );
    let last = rec.row(rec.len() - 1);
    assert!((last[a] - 1.0).abs() < 1e-9, "a.q = {}", last[a]);
    assert!((last[b] - last[a]).abs() < 1e-9, "b.q = {}", last[b]);
}

#[test]
fn frames_not_reaching_the_world_are_reported() {
    let e = build_error(&format!("connect = [\"j.F -- bob.R\"]\n[model]\nstop_time = 1\n{WORLD}{BOB}[blocks.j]\ntype = \"RevoluteJoint\"\n"));
    assert!(e.contains("not connected to the World frame"), "{e}");
}

#[test]
fn a_massless_body_moved_by_a_joint_is_reported() {
    let e = build_error("connect = [\"world.W -- j.B\", \"j.F -- p.R\"]\n[model]\nstop_time = 1\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.j]\ntype = \"PrismaticJoint\"\n[blocks.p]\ntype = \"Point\"\n");
    assert!(e.contains("no mass"), "{e}");
}

#[test]
fn two_world_frames_are_reported() {
    let e = build_error(&format!(
        "connect = [\"world.W -- j.B\", \"j.F -- bob.R\", \"w2.W -- bob.R\"]\n[model]\nstop_time = 1\n{WORLD}{BOB}[blocks.w2]\ntype = \"WorldFrame\"\n[blocks.j]\ntype = \"RevoluteJoint\"\n"
    ));
    assert!(e.contains("two World frames"), "{e}");
}

#[test]
fn bad_joint_and_solid_parameters_are_located() {
    let e = build_error(&format!("connect = [\"world.W -- j.B\", \"j.F -- bob.R\"]\n[model]\nstop_time = 1\n{WORLD}{BOB}[blocks.j]\ntype = \"RevoluteJoint\"\ndamping = -1.0\n"));
    assert!(
        e.contains("block 'j'") && e.contains("damping") && e.contains("negative"),
        "{e}"
    );
    let e = build_error("[model]\nstop_time = 1\n[blocks.s]\ntype = \"Solid\"\ngeometry = { shape = \"sphere\", radius = -0.1 }\n");
    assert!(e.contains("block 's'") && e.contains("radius"), "{e}");
    let e = build_error(
        "[model]\nstop_time = 1\n[blocks.s]\ntype = \"Solid\"\ngeometry = { shape = \"cone\" }\n",
    );
    assert!(
        e.contains("did you mean") || e.contains("write one of"),
        "{e}"
    );
}

/// A rotation angle beyond a full turn is accepted (radians) but warned about as likely degrees,
/// with the value in radians to write instead.
#[test]
fn an_angle_that_looks_like_degrees_is_warned_about() {
    let text = format!(
        "connect = [\"world.W -- tilt.B\", \"tilt.F -- j.B\", \"j.F -- bob.R\"]\n[model]\nstop_time = 1\n{WORLD}{BOB}[blocks.tilt]\ntype = \"RigidTransform\"\nrotation = {{ axis = [1.0, 0.0, 0.0], angle = 90 }}\n[blocks.j]\ntype = \"RevoluteJoint\"\n"
    );
    let d = blockdyn::load_model_str("deg.toml", &text, &[]).unwrap();
    assert!(
        d.warnings()
            .iter()
            .any(|w| w.contains("block 'tilt'") && w.contains("write 1.5707963268")),
        "{:?}",
        d.warnings()
    );
    let plain = text.replace("angle = 90", "angle = 1.5707963268");
    let d = blockdyn::load_model_str("rad.toml", &plain, &[]).unwrap();
    // (The bob sits on the hinge's axis: the only warning left is that nothing will move.)
    assert!(
        d.warnings().iter().all(|w| w.contains("nothing will move")),
        "{:?}",
        d.warnings()
    );
}
