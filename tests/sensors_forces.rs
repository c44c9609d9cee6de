//! TransformSensor and ExternalForceTorque: the user's window into a mechanism and the way to wire
//! custom forces into it.

mod common;
use common::{at, build_error};

const PENDULUM: &str = r#"
connect = [
  "world.W -- hinge.B",
  "hinge.F -- rod.B",
  "rod.F -- bob.R",
  "world.W -- in_world.B",
  "bob.R -- in_world.F",
  "hinge.F -- in_arm.B",
  "bob.R -- in_arm.F",
  "bob.R -- push.R",
  "thrust.out -> push.force",
]
[model]
stop_time = 2.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["hinge.q", "hinge.w", "in_world.p", "in_world.v", "in_world.R", "in_world.w", "in_world.Q", "in_arm.p", "in_arm.v", "in_arm.w"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
q0 = 0.5
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -1.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.05 }
mass = 1.0
[blocks.in_world]
type = "TransformSensor"
[blocks.in_arm]
type = "TransformSensor"
[blocks.push]
type = "ExternalForceTorque"
resolved_in = "R"
[blocks.thrust]
type = "Constant"
value = [0.0, 0.0, 0.0]
"#;

fn run(overrides: &[&str]) -> blockdyn::RunResult {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let d = blockdyn::load_model_str(
        "pendulum_sensors.toml",
        PENDULUM,
        &blockdyn::Override::parse_all(&o).unwrap(),
    )
    .expect("builds");
    blockdyn::simulate(&d, blockdyn::RunOptions::default()).expect("runs")
}

#[test]
fn transform_sensor_reads_the_bob_in_world_and_in_the_arm() {
    let r = run(&[]);
    let rec = &r.recording;
    for i in (0..rec.len()).step_by(7) {
        let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
        // The bob hangs 1 m from the hinge: p = (sin q, −cos q, 0), v = w·(cos q, sin q, 0).
        let p = [q.sin(), -q.cos(), 0.0];
        let v = [w * q.cos(), w * q.sin(), 0.0];
        for k in 0..3 {
            assert!((at(rec, &format!("in_world.p[{k}]"), i) - p[k]).abs() < 1e-12);
            assert!((at(rec, &format!("in_world.v[{k}]"), i) - v[k]).abs() < 1e-12);
        }
        assert!((at(rec, "in_world.w[2]", i) - w).abs() < 1e-12);
        // R = Rz(q), column-major: R[0,0] = cos q, R[1,0] = sin q.
        assert!((at(rec, "in_world.R[0,0]", i) - q.cos()).abs() < 1e-12);
        assert!((at(rec, "in_world.R[1,0]", i) - q.sin()).abs() < 1e-12);
        // Quaternion of a rotation q about z: [cos q/2, 0, 0, sin q/2].
        assert!((at(rec, "in_world.Q[0]", i) - (q / 2.0).cos()).abs() < 1e-12);
        assert!((at(rec, "in_world.Q[3]", i) - (q / 2.0).sin()).abs() < 1e-12);
        // Seen from the rotating arm frame the bob does not move.
        assert!((at(rec, "in_arm.p[1]", i) + 1.0).abs() < 1e-12);
        for k in 0..3 {
            assert!(at(rec, &format!("in_arm.v[{k}]"), i).abs() < 1e-12);
            assert!(at(rec, &format!("in_arm.w[{k}]"), i).abs() < 1e-12);
        }
    }
}

#[test]
fn a_force_resolved_in_the_moving_frame_turns_with_it() {
    // No gravity; 2 N along the bob frame's x (always tangent to the swing): torque 2 N·m about z.
    let r = run(&[
        "gravity.gravity=[0.0, 0.0, 0.0]",
        "thrust.value=[2.0, 0.0, 0.0]",
        "hinge.q0=0.0",
    ]);
    let rec = &r.recording;
    let inertia = 1.0 + 0.4 * 0.05 * 0.05;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let exact = 0.5 * (2.0 / inertia) * t * t;
        assert!((at(rec, "hinge.q", i) - exact).abs() < 1e-9, "t = {t}");
    }
}

#[test]
fn sensors_and_forces_need_their_frames_connected() {
    let e = build_error("[model]\nstop_time = 1\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.s]\ntype = \"TransformSensor\"\n");
    assert!(
        e.contains("not connected to the World frame") && e.contains("s.B"),
        "{e}"
    );
    let e = build_error("[model]\nstop_time = 1\n[blocks.f]\ntype = \"ExternalForceTorque\"\nresolved_in = \"body\"\n");
    assert!(e.contains("block 'f'") && e.contains("\"world\""), "{e}");
}

#[test]
fn joint_actuation_by_input_drives_the_joint() {
    // A 1 kg bob on a 1 m massless arm, no gravity, 3 N·m from a Constant into the joint's input t.
    let text = r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "motor.out -> hinge.t", "hinge.q -> k.in", "k.out -> sink.in"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["hinge.q"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
actuation = "input"
[blocks.rod]
type = "RigidTransform"
translation = [1.0, 0.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.05 }
mass = 1.0
[blocks.motor]
type = "Constant"
value = 3.0
[blocks.k]
type = "Gain"
gain = 1.0
[blocks.sink]
type = "Terminator"
"#;
    let d = blockdyn::load_model_str("motor.toml", text, &[]).expect("builds");
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).expect("runs");
    let rec = &r.recording;
    let inertia = 1.0 + 0.4 * 0.05 * 0.05;
    for i in 0..rec.len() {
        let t = rec.times[i];
        assert!(
            (at(rec, "hinge.q", i) - 1.5 * t * t / inertia).abs() < 1e-9,
            "t = {t}"
        );
    }
}

#[test]
fn a_feedback_loop_from_a_joint_sensor_to_its_actuation_is_not_an_algebraic_loop() {
    // PD control of the hinge: t = −k q − c w. q and w depend on the state only.
    let text = r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "hinge.q -> kp.in", "hinge.w -> kd.in", "kp.out -> sum.in1", "kd.out -> sum.in2", "sum.out -> hinge.t"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.hinge]
type = "RevoluteJoint"
actuation = "input"
q0 = 0.5
[blocks.rod]
type = "RigidTransform"
translation = [1.0, 0.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.05 }
mass = 1.0
[blocks.kp]
type = "Gain"
gain = -100.0
[blocks.kd]
type = "Gain"
gain = -20.0
[blocks.sum]
type = "Sum"
signs = "++"
"#;
    let d = blockdyn::load_model_str("pd.toml", text, &[]).expect("no algebraic loop");
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).expect("runs");
    assert!(
        r.final_state[0].abs() < 0.01,
        "the controller brings q to 0: {}",
        r.final_state[0]
    );
}

#[test]
fn a_non_finite_output_is_blamed_on_its_block() {
    let text = r#"
connect = ["clock.out -> f.in", "f.out -> x.in"]
[model]
stop_time = 1.0
[blocks.clock]
type = "Clock"
[blocks.f]
type = "Fcn"
expression = "sqrt(0.5 - u)"
[blocks.x]
type = "Integrator"
"#;
    let d = blockdyn::load_model_str("nan.toml", text, &[]).expect("builds");
    let e = blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .err()
        .expect("must fail")
        .to_string();
    // sqrt of a negative number past t = 0.5: the Fcn's output is the first non-finite value.
    assert!(
        e.contains("block 'f' produced a non-finite output 'out'"),
        "{e}"
    );
    assert!(e.contains("at t = 0.5"), "{e}");
}

/// A derivative that overflows while the block's output stays finite is blamed on the block's
/// state: x' = 1e308·x from x = 10 is +∞ at the start (output y = 0·x = 0); from x = 1e-300 the
/// state grows through the range until a trial stage overflows, and the solver's recovery from
/// earlier bad stages does not confuse the blame.
#[test]
fn a_non_finite_derivative_is_blamed_on_the_state_of_its_block() {
    for (initial, at_start) in [(10.0, true), (1e-300, false)] {
        let text = format!(
            r#"
connect = ["c.out -> ss.in"]
[model]
stop_time = 1.0
[blocks.c]
type = "Constant"
value = 0.0
[blocks.ss]
type = "StateSpace"
A = [[1e308]]
B = [[0.0]]
C = [[0.0]]
initial = [{initial:e}]
"#
        );
        let d = blockdyn::load_model_str("overflow.toml", &text, &[]).expect("builds");
        let e = blockdyn::simulate(&d, blockdyn::RunOptions::default())
            .err()
            .expect("must fail")
            .to_string();
        assert!(
            e.contains("block 'ss' produced a non-finite derivative of x[0]"),
            "{e}"
        );
        assert_eq!(e.contains("at t = 0 s"), at_start, "{e}");
    }
}

#[test]
fn a_block_wired_back_to_its_own_input_sees_the_current_value() {
    // τ = q through a direct self-wire (q depends on the state only, t feeds τ directly): the
    // schedule must evaluate the joint again after q is known. No gravity: I·q̈ = q, so
    // q = q0·cosh(t/√I).
    let text = r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "hinge.q -> hinge.t"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["hinge.q"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
actuation = "input"
q0 = 0.1
[blocks.rod]
type = "RigidTransform"
translation = [1.0, 0.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.05 }
mass = 1.0
"#;
    let d = blockdyn::load_model_str("self.toml", text, &[])
        .expect("a self-wire through a non-feedthrough port is legal");
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).expect("runs");
    let rec = &r.recording;
    let inertia: f64 = 1.0 + 0.4 * 0.05 * 0.05;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let exact = 0.1 * (t / inertia.sqrt()).cosh();
        assert!((at(rec, "hinge.q", i) - exact).abs() < 1e-9, "t = {t}");
    }
}

#[test]
fn ragged_inertia_rows_are_an_error_not_a_panic() {
    for inertia in [
        "[[1.0, 0.0, 0.0], [0.0, 1.0], [0.0, 0.0, 1.0]]",
        "[[0.1], [], [0.2]]",
        "[[1.0, 2.0]]",
    ] {
        let text = format!("[model]\nstop_time = 1\n[blocks.s]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.1 }}\ninertia = {inertia}\n");
        let e = build_error(&text);
        assert!(e.contains("inertia"), "{e}");
    }
}
