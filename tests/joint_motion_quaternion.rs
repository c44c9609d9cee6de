//! Motion inputs on the quaternion joints (issue 31, part 1): a spherical joint driven along a
//! coning rotation, a six-dof joint carrying a free body along a path, a six-dof joint driven on
//! its translations only, a filtered step of a spherical joint, and the bad input.
//!
//! The references are written as Fcn blocks of the time, from the closed forms below. Every run is
//! in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, run_text};
use nalgebra::{UnitQuaternion, Vector3};

/// The coning rotation `R_BF(t) = Rz(φ(t))·Rx(β)`, `φ = W·t + ½·A·t²`: its quaternion is
/// `[cos h cos b, cos h sin b, sin h sin b, sin h cos b]` (h = φ/2, b = β/2), whose rotation vector
/// is `2·acos(w)/√(1 − w²)·[x, y, z]`. Its angular velocity in F is `Rᵀ·φ̇·ẑ = φ̇·(0, sin β, cos β)`
/// and ω̇ = A·(0, sin β, cos β). Constants of the Fcn blocks.
const CONING: &str =
    "constants = { b = 0.3, W = 2.0, A = 0.5, sb = 0.5646424733950354, cb = 0.8253356149096783 }";
const BETA: f64 = 0.6;
const W0: f64 = 2.0;
const ALPHA: f64 = 0.5;
/// Principal moments of the driven body (kg·m², about its centre of mass at F's origin, in F).
const INERTIA: [f64; 3] = [0.1, 0.2, 0.25];
const MASS: f64 = 2.0;
const G: f64 = 9.80665;

/// The rotation vector of the coning rotation (three Fcn expressions of t).
fn coning_rotation_vector() -> [String; 3] {
    let h = "(W*t + 0.5*A*t^2)/2";
    let w = format!("cos({h})*cos(b)");
    let f = format!("2*acos({w})/sqrt(1 - ({w})^2)");
    [
        format!("{f}*cos({h})*sin(b)"),
        format!("{f}*sin({h})*sin(b)"),
        format!("{f}*sin({h})*cos(b)"),
    ]
}

/// The torque (N·m, in F) that drives a body of principal moments [`INERTIA`] along the coning
/// rotation at time t: `I·ω̇ + ω × I·ω = A·(0, I₂ sin β, I₃ cos β) + φ̇² sin β cos β (I₃ − I₂)·x̂`.
fn coning_torque(t: f64) -> [f64; 3] {
    let (s, c) = BETA.sin_cos();
    let rate = W0 + ALPHA * t;
    let [_, i2, i3] = INERTIA;
    [
        rate * rate * s * c * (i3 - i2),
        ALPHA * i2 * s,
        ALPHA * i3 * c,
    ]
}

/// The quaternion [w, x, y, z] of the coning rotation at t.
fn coning_quaternion(t: f64) -> [f64; 4] {
    let h = 0.5 * (W0 * t + 0.5 * ALPHA * t * t);
    let b = 0.5 * BETA;
    let (sh, ch) = h.sin_cos();
    let (sb, cb) = b.sin_cos();
    [ch * cb, ch * sb, sh * sb, sh * cb]
}

fn fcn(name: &str, exprs: &[String]) -> String {
    let list: Vec<String> = exprs.iter().map(|e| format!("\"{e}\"")).collect();
    format!(
        "[blocks.{name}]\ntype = \"Fcn\"\nexpression = [{}]\n{CONING}\n",
        list.join(", ")
    )
}

/// A joint `j` of `joint_type` carrying a sphere of mass [`MASS`] and moments [`INERTIA`] at F,
/// driven by the Fcn blocks qr, wr, ar of the clock; `joint` is appended to j's table.
fn driven_body(joint_type: &str, joint: &str, refs: [&[String]; 3], log: &str) -> String {
    format!(
        "connect = [\"world.W -- j.B\", \"j.F -- s.R\", \"clock.out -> qr.in\", \"clock.out -> wr.in\", \"clock.out -> ar.in\", \
         \"qr.out -> j.q_ref\", \"wr.out -> j.w_ref\", \"ar.out -> j.a_ref\"]\n\
         [model]\nstop_time = 2.0\n[output]\nlog = [{log}]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n\
         [blocks.j]\ntype = \"{joint_type}\"\nmotion = \"input\"\nreaction_frame = \"world\"\n{joint}\n\
         [blocks.s]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.1 }}\nmass = {MASS}\ninertia = {INERTIA:?}\n\
         [blocks.clock]\ntype = \"Clock\"\n{}{}{}",
        fcn("qr", refs[0]),
        fcn("wr", refs[1]),
        fcn("ar", refs[2]),
    )
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A spherical joint driven along the coning rotation: its quaternion is the closed form to
/// 1e-12 (the rotation vector goes through acos and back: a few round-offs of O(1) values), its
/// angular velocity is the input to round-off (1e-13 rad/s), its actuator torque is
/// I·ω̇ + ω × I·ω to 1e-9 N·m (the hybrid ABA and RNEA in floating point on torques of 0.1 N·m),
/// and the pivot carries the weight: reaction force (0, 0, m·g) in the World (1e-9 N).
#[test]
fn a_spherical_joint_follows_a_coning_rotation_with_the_euler_torque() {
    let rv = coning_rotation_vector();
    let w = strings(&["0", "(W + A*t)*sb", "(W + A*t)*cb"]);
    let a = strings(&["0", "A*sb", "A*cb"]);
    let text = driven_body(
        "SphericalJoint",
        "",
        [&rv, &w, &a],
        "\"j.Q\", \"j.w\", \"j.actuator_force\", \"j.reaction\"",
    );
    let r = run_text("coning", &text);
    let rec = &r.recording;
    assert!(rec.len() > 20, "{} rows", rec.len());
    let (s, c) = BETA.sin_cos();
    for i in 0..rec.len() {
        let t = rec.times[i];
        let q = coning_quaternion(t);
        for (k, qk) in q.iter().enumerate() {
            let got = at(rec, &format!("j.Q[{k}]"), i);
            assert!(
                (got - qk).abs() < 1e-12,
                "t = {t}: Q[{k}] = {got}, closed form {qk}"
            );
        }
        let rate = W0 + ALPHA * t;
        for (k, wk) in [0.0, rate * s, rate * c].iter().enumerate() {
            let got = at(rec, &format!("j.w[{k}]"), i);
            assert!(
                (got - wk).abs() < 1e-13,
                "t = {t}: w[{k}] = {got}, expected {wk}"
            );
        }
        for (k, tk) in coning_torque(t).iter().enumerate() {
            let got = at(rec, &format!("j.actuator_force[{k}]"), i);
            assert!(
                (got - tk).abs() < 1e-9,
                "t = {t}: torque[{k}] = {got}, closed form {tk}"
            );
        }
        for (k, fk) in [0.0, 0.0, MASS * G].iter().enumerate() {
            let got = at(rec, &format!("j.reaction[{k}]"), i);
            assert!(
                (got - fk).abs() < 1e-9,
                "t = {t}: reaction[{k}] = {got}, expected {fk}"
            );
        }
    }
}

/// The path of the six-dof test: p(t) = (0.3 sin 2t, 0.2 t², 0.1 cos 3t) m and its rates.
fn path() -> [Vec<String>; 3] {
    [
        strings(&["0.3*sin(2*t)", "0.2*t^2", "0.1*cos(3*t)"]),
        strings(&["0.6*cos(2*t)", "0.4*t", "-0.3*sin(3*t)"]),
        strings(&["-1.2*sin(2*t)", "0.4", "-0.9*cos(3*t)"]),
    ]
}

fn path_acceleration(t: f64) -> [f64; 3] {
    [-1.2 * (2.0 * t).sin(), 0.4, -0.9 * (3.0 * t).cos()]
}

/// A six-dof joint carrying a free body along the path while it cones: its position is the path to
/// round-off (1e-14 m), and its actuator force is m·p̈ − m·g in B (1e-9 N) and its torque the
/// coning torque in F (1e-9 N·m): the centre of mass is at F's origin, so the two decouple.
#[test]
fn a_six_dof_joint_carries_a_free_body_along_a_path() {
    let [pq, pw, pa] = path();
    let rv = coning_rotation_vector();
    let q: Vec<String> = pq.iter().chain(&rv).cloned().collect();
    let w: Vec<String> = pw
        .iter()
        .cloned()
        .chain(strings(&["0", "(W + A*t)*sb", "(W + A*t)*cb"]))
        .collect();
    let a: Vec<String> = pa
        .iter()
        .cloned()
        .chain(strings(&["0", "A*sb", "A*cb"]))
        .collect();
    let text = driven_body(
        "SixDofJoint",
        "",
        [&q, &w, &a],
        "\"j.p\", \"j.actuator_force\"",
    );
    let r = run_text("path", &text);
    let rec = &r.recording;
    assert!(rec.len() > 20, "{} rows", rec.len());
    for i in 0..rec.len() {
        let t = rec.times[i];
        let p = [0.3 * (2.0 * t).sin(), 0.2 * t * t, 0.1 * (3.0 * t).cos()];
        for (k, pk) in p.iter().enumerate() {
            let got = at(rec, &format!("j.p[{k}]"), i);
            assert!(
                (got - pk).abs() < 1e-14,
                "t = {t}: p[{k}] = {got}, path {pk}"
            );
        }
        let acc = path_acceleration(t);
        let force = [MASS * acc[0], MASS * acc[1], MASS * (acc[2] + G)];
        let torque = coning_torque(t);
        for (k, e) in force.iter().chain(&torque).enumerate() {
            let got = at(rec, &format!("j.actuator_force[{k}]"), i);
            assert!(
                (got - e).abs() < 1e-9,
                "t = {t}: actuator_force[{k}] = {got}, closed form {e}"
            );
        }
    }
}

/// A six-dof joint driven on its translations only (motion_axes = [true ×3, false ×3]), its body
/// spinning freely about its principal z axis at 3 rad/s: the translation follows the path with
/// the force m·p̈ − m·g (1e-9 N), the free rotation is undisturbed (ω stays (0, 0, 3) to 1e-9
/// rad/s: torque-free about a principal axis, the ω × Iω term zero) and its actuator torque is
/// zero (no actuation on the free axes).
#[test]
fn a_six_dof_joint_driven_on_its_translations_leaves_its_rotation_free() {
    let [pq, pw, pa] = path();
    let pad = |v: &[String]| -> Vec<String> {
        v.iter().cloned().chain(strings(&["0", "0", "0"])).collect()
    };
    let text = driven_body(
        "SixDofJoint",
        "motion_axes = [true, true, true, false, false, false]\nangular_velocity = [0.0, 0.0, 3.0]",
        [&pad(&pq), &pad(&pw), &pad(&pa)],
        "\"j.p\", \"j.w\", \"j.actuator_force\"",
    );
    let r = run_text("translations", &text);
    let rec = &r.recording;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let acc = path_acceleration(t);
        let force = [
            MASS * acc[0],
            MASS * acc[1],
            MASS * (acc[2] + G),
            0.0,
            0.0,
            0.0,
        ];
        for (k, e) in force.iter().enumerate() {
            let got = at(rec, &format!("j.actuator_force[{k}]"), i);
            assert!(
                (got - e).abs() < 1e-9,
                "t = {t}: actuator_force[{k}] = {got}, expected {e}"
            );
        }
        for (k, e) in [0.0, 0.0, 3.0].iter().enumerate() {
            let got = at(rec, &format!("j.w[{k}]"), i);
            assert!(
                (got - e).abs() < 1e-9,
                "t = {t}: w[{k}] = {got}, expected {e}"
            );
        }
    }
}

/// A filtered step of a spherical joint's rotation vector, from φ₀ = (0.5, 0, 0) to
/// φ₁ = (0.5, 0.4, −0.2) rad at t = 0.2 s (τ = 0.05 s): φ(t) = φ₀ + (φ₁ − φ₀)·(1 − (1 + σ/τ)e^(−σ/τ)),
/// σ = t − 0.2. The joint's quaternion is exp(φ(t)) (nalgebra's, 1e-8: the filter is integrated
/// at rel_tol 1e-10), and its angular velocity in F is 2·vec(Q* ⊗ Q̇) of that closed form, Q̇ by
/// central differences of step 1e-6 s (error ~1e-10), to 1e-6 rad/s (the integration error of
/// φ̇, 1e-8/τ, and the differences). The step moves φ off its own direction, so ω ≠ φ̇: this
/// checks SO(3)'s right Jacobian.
#[test]
fn a_filtered_spherical_step_turns_along_the_critically_damped_rotation_vector() {
    let tau = 0.05;
    let text = format!(
        "connect = [\"world.W -- j.B\", \"j.F -- s.R\", \"step.out -> qr.in\", \"qr.out -> j.q_ref\"]\n\
         [model]\nstop_time = 0.8\n[solver]\nrel_tol = 1e-10\nabs_tol = 1e-12\n\
         [output]\nlog = [\"j.Q\", \"j.w\"]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n\
         [blocks.j]\ntype = \"SphericalJoint\"\nmotion = \"input_filtered\"\nmotion_filter = {tau}\n\
         [blocks.s]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.1 }}\nmass = {MASS}\ninertia = {INERTIA:?}\n\
         [blocks.step]\ntype = \"Step\"\ntime = 0.2\n\
         [blocks.qr]\ntype = \"Fcn\"\nexpression = [\"0.5 + 0*u\", \"0.4*u\", \"-0.2*u\"]\n"
    );
    let r = run_text("filtered_spherical", &text);
    let rec = &r.recording;
    let phi = |t: f64| {
        let s = t - 0.2;
        let f = if s <= 0.0 {
            0.0
        } else {
            1.0 - (1.0 + s / tau) * (-s / tau).exp()
        };
        Vector3::new(0.5, 0.4 * f, -0.2 * f)
    };
    let quat = |t: f64| UnitQuaternion::from_scaled_axis(phi(t));
    let mut moving = 0;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let q = quat(t);
        let e = [q.w, q.i, q.j, q.k];
        for (k, ek) in e.iter().enumerate() {
            let got = at(rec, &format!("j.Q[{k}]"), i);
            assert!(
                (got - ek).abs() < 1e-8,
                "t = {t}: Q[{k}] = {got}, closed form {ek}"
            );
        }
        if t < 0.2 + 1e-6 {
            continue;
        }
        let h = 1e-6;
        let (qp, qm) = (quat(t + h), quat(t - h));
        let qd = (qp.into_inner().coords - qm.into_inner().coords) / (2.0 * h);
        let qd = nalgebra::Quaternion::new(qd[3], qd[0], qd[1], qd[2]);
        let w = (q.into_inner().conjugate() * qd).imag() * 2.0;
        for k in 0..3 {
            let got = at(rec, &format!("j.w[{k}]"), i);
            assert!(
                (got - w[k]).abs() < 1e-6,
                "t = {t}: w[{k}] = {got}, expected {}",
                w[k]
            );
        }
        moving += 1;
    }
    assert!(moving > 10, "{moving} rows after the step");
}

/// A spherical joint's rotation axes driven in part are refused at `motion_axes`, saying they
/// go together and what to write; an orientation written on a driven spherical joint is refused.
#[test]
fn a_quaternion_joints_rotation_axes_are_driven_together() {
    let zeros = strings(&["0", "0", "0"]);
    let text = driven_body(
        "SphericalJoint",
        "motion_axes = [true, false, true]",
        [&zeros, &zeros, &zeros],
        "\"j.Q\"",
    );
    let e = build_error(&text);
    assert!(e.contains("three rotation axes"), "{e}");
    assert!(e.contains("motion_axes = [true, true, true]"), "{e}");
    let six = strings(&["0", "0", "0", "0", "0", "0"]);
    let text = driven_body(
        "SixDofJoint",
        "motion_axes = [false, true, false, false, true, false]",
        [&six, &six, &six],
        "\"j.Q\"",
    );
    let e = build_error(&text);
    assert!(
        e.contains("motion_axes = [false, true, false, true, true, true]"),
        "{e}"
    );
    let text = driven_body(
        "SphericalJoint",
        "orientation = [0.0, 1.0, 0.0, 0.0]",
        [&zeros, &zeros, &zeros],
        "\"j.Q\"",
    );
    let e = build_error(&text);
    assert!(
        e.contains("'orientation' is given by the motion input"),
        "{e}"
    );
}
