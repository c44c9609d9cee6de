//! URDF import (issue 15, part 3): the two-link arm's masses, inertias, joint axes and limits
//! against the file; the URDF pendulum against the hand-written one and the exact period; bad
//! files located at the element's line; meshes as convex hulls; `blockdyn import`; the quadruped
//! standing on its feet.

mod cli_common;
mod common;

use blockdyn::multibody::analytic::pendulum_period;
use cli_common::{blockdyn, temp_dir, text};
use common::{column, run};
use nalgebra::{Isometry3, Matrix3, Rotation3, Translation3, UnitQuaternion, Vector3};
use std::path::Path;

/// Loads a model given as text, as if it were the file `models/<name>` (so that a Urdf block's
/// `file = "urdf/..."` is found in models/urdf/).
fn load(name: &str, model: &str, overrides: &[&str]) -> blockdyn::Diagram {
    load_parts(name, model, overrides).1
}

/// Like [`load`], with the model it was built from (which parameter sets are made with).
fn load_parts(
    name: &str,
    model: &str,
    overrides: &[&str],
) -> (blockdyn::Blueprint, blockdyn::Diagram) {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    blockdyn::load_model_str_parts(
        &format!("models/{name}"),
        model,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}\n{model}"))
}

fn load_error(name: &str, model: &str) -> String {
    match blockdyn::load_model_str(name, model, &[]) {
        Ok(_) => panic!("{name} was accepted:\n{model}"),
        Err(e) => e.to_string(),
    }
}

fn simulate(d: &blockdyn::Diagram) -> blockdyn::RunResult {
    blockdyn::simulate(d, blockdyn::RunOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// URDF's fixed-axis roll-pitch-yaw, written out: R = Rz(yaw)·Ry(pitch)·Rx(roll).
fn rpy(roll: f64, pitch: f64, yaw: f64) -> Rotation3<f64> {
    Rotation3::from_axis_angle(&Vector3::z_axis(), yaw)
        * Rotation3::from_axis_angle(&Vector3::y_axis(), pitch)
        * Rotation3::from_axis_angle(&Vector3::x_axis(), roll)
}

fn pose(xyz: [f64; 3], roll_pitch_yaw: [f64; 3]) -> Isometry3<f64> {
    let [r, p, y] = roll_pitch_yaw;
    Isometry3::from_parts(
        Translation3::from(Vector3::from(xyz)),
        UnitQuaternion::from_rotation_matrix(&rpy(r, p, y)),
    )
}

fn turn(axis: [f64; 3], angle: f64) -> Isometry3<f64> {
    let axis = nalgebra::Unit::new_normalize(Vector3::from(axis));
    Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&axis, angle),
    )
}

const ARM: &str = r#"connect = [
  "world.W -- arm.B",
  "arm/base_link.F -- upper.B", "arm/upper_arm.F -- upper.F",
  "arm/upper_arm.F -- fore.B", "arm/forearm.F -- fore.F",
  "tau_s.out -> arm/shoulder.t", "tau_e.out -> arm/elbow.t",
]
[model]
stop_time = 0.001
[output]
log = ["upper.p", "upper.R", "fore.p", "fore.R", "arm/shoulder.q", "arm/elbow.q"]
[solver]
rel_tol = 1e-9
abs_tol = 1e-12
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.arm]
type = "Urdf"
file = "urdf/two_link_arm.urdf"
actuation = "input"
joints = { shoulder = { q0 = 0.4 }, elbow = { q0 = -0.7 } }
[blocks.upper]
type = "TransformSensor"
[blocks.fore]
type = "TransformSensor"
[blocks.tau_s]
type = "Constant"
value = 0.0
[blocks.tau_e]
type = "Constant"
value = 0.0
"#;

/// The pose a TransformSensor measured at the first row.
fn sensed(rec: &blockdyn::output::Recording, sensor: &str) -> Isometry3<f64> {
    let p = Vector3::from_fn(|i, _| column(rec, &format!("{sensor}.p[{i}]"))[0]);
    let r = Matrix3::from_fn(|i, j| column(rec, &format!("{sensor}.R[{i},{j}]"))[0]);
    Isometry3::from_parts(
        Translation3::from(p),
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r)),
    )
}

fn assert_pose_near(got: &Isometry3<f64>, want: &Isometry3<f64>, what: &str) {
    let dp = (got.translation.vector - want.translation.vector).norm();
    let dr = got.rotation.angle_to(&want.rotation);
    assert!(dp < 1e-12 && dr < 1e-12, "{what}: got {got}, want {want}");
}

/// The joints' axes and origins, as URDF defines them: the child link's frame is
/// origin · rotation(axis, q) in the parent link's frame. Measured in the built diagram by
/// TransformSensors between the links' frames, at q = 0.4 and −0.7 (not zero, so that an axis
/// mapped wrongly shows).
#[test]
fn two_link_arm_joint_axes_and_origins_match_the_file() {
    let d = load("arm.toml", ARM, &[]);
    let r = simulate(&d);
    let want_upper = pose([0.0, 0.0, 0.1], [0.0, 0.0, 0.3]) * turn([0.0, 1.0, 0.0], 0.4);
    let want_fore = pose([0.3, 0.0, 0.0], [0.0, 0.5, 0.0]) * turn([0.0, 0.6, 0.8], -0.7);
    assert_pose_near(
        &sensed(&r.recording, "upper"),
        &want_upper,
        "upper_arm in base_link",
    );
    assert_pose_near(
        &sensed(&r.recording, "fore"),
        &want_fore,
        "forearm in upper_arm",
    );
}

/// Masses and inertias: each moving body's spatial inertia in the built mechanism equals the
/// file's inertial moved into the body's frame (mass, first moment, rotational inertia about the
/// body's origin, products of inertia included), to rounding. The links' frames in their bodies
/// are found from their collision elements written without an origin (they sit at the link
/// frame). The hand is welded to the forearm by a fixed joint: one body of 0.8 + 0.3 kg.
#[test]
fn two_link_arm_masses_and_inertias_match_the_file() {
    let d = load("arm.toml", ARM, &[]);
    let scene = d.scene().expect("a mechanism");
    let m = &scene.mechanism;
    let placed = |block: &str| {
        scene
            .geometries
            .iter()
            .find(|g| g.block == block)
            .unwrap_or_else(|| panic!("no geometry {block}"))
    };
    // Expected spatial inertia of point masses with inertias, about the body origin.
    let about_origin = |parts: &[(f64, Isometry3<f64>, Matrix3<f64>)]| {
        let mut mass = 0.0;
        let mut h = Vector3::zeros();
        let mut inertia = Matrix3::zeros();
        for (mk, frame, ic) in parts {
            let c = frame.translation.vector;
            let r = frame.rotation.to_rotation_matrix().into_inner();
            mass += mk;
            h += *mk * c;
            inertia += r * ic * r.transpose()
                + *mk * (c.norm_squared() * Matrix3::identity() - c * c.transpose());
        }
        (mass, h, inertia)
    };
    // upper_arm: <inertial> at xyz 0.15 0.01 -0.02, rpy 0.1 -0.2 0.3, with products of inertia.
    let upper = placed("arm/upper_arm/collision_0");
    let i_upper = Matrix3::new(
        0.0012, 0.0002, -0.0001, 0.0002, 0.0095, 0.00015, -0.0001, 0.00015, 0.0098,
    );
    let inertial = upper.r_in_body * pose([0.15, 0.01, -0.02], [0.1, -0.2, 0.3]);
    let want = about_origin(&[(1.2, inertial, i_upper)]);
    // forearm + hand (fixed joint at 0.25 along x).
    let fore = placed("arm/forearm/collision");
    let i_fore = Matrix3::from_diagonal(&Vector3::new(0.0004, 0.004, 0.004));
    let i_hand = Matrix3::from_diagonal(&Vector3::new(0.0001, 0.0001, 0.0001));
    let want_fore = about_origin(&[
        (
            0.8,
            fore.r_in_body * pose([0.12, 0.0, 0.0], [0.0; 3]),
            i_fore,
        ),
        (
            0.3,
            fore.r_in_body * pose([0.25, 0.0, 0.0], [0.0; 3]),
            i_hand,
        ),
    ]);
    assert_ne!(upper.body, fore.body);
    for (body, (mass, h, inertia), name) in [
        (upper.body, want, "upper_arm"),
        (fore.body, want_fore, "forearm + hand"),
    ] {
        let got = m.body_inertia(body);
        assert!(
            (got.mass - mass).abs() < 1e-14,
            "{name}: mass {} vs {mass}",
            got.mass
        );
        assert!((got.h - h).norm() < 1e-14, "{name}: h {} vs {h}", got.h);
        assert!(
            (got.i_origin - inertia).norm() < 1e-14,
            "{name}: inertia {} vs {inertia}",
            got.i_origin
        );
    }
    // The Solid carries the file's numbers as written: mass and the full tensor.
    let solid = d
        .blocks()
        .iter()
        .find(|b| b.name == "arm/upper_arm/inertial")
        .expect("the inertial Solid");
    match solid.block().role() {
        Some(blockdyn::block::PhysicalRole::Solid { inertia, .. }) => {
            assert_eq!(inertia.mass, 1.2);
            assert_eq!(inertia.inertia_about_com, i_upper);
            assert_eq!(inertia.com, Vector3::zeros());
        }
        _ => panic!("arm/upper_arm/inertial is not a Solid"),
    }
    // The base link is welded to the World: its mass is not in a moving body.
    let total: f64 = (1..m.num_bodies()).map(|b| m.body_inertia(b).mass).sum();
    assert!((total - 2.3).abs() < 1e-14, "moving mass {total}");
}

/// Limits: a constant torque drives each joint onto the bound the file gives, where the rigid
/// limit holds it (blockdyn keeps q within 1e-9 of a rigid bound); the other way, the other
/// bound. The limits and damping written into the joint blocks are the file's numbers.
#[test]
fn two_link_arm_limits_match_the_file() {
    for (joint, torque_block, lower, upper) in [
        ("shoulder", "tau_s", -1.2, 0.8),
        ("elbow", "tau_e", -2.0, 0.5),
    ] {
        for (torque, bound) in [(3.0, upper), (-3.0, lower)] {
            let set = format!("{torque_block}.value={torque}");
            let d = load("arm.toml", ARM, &["model.stop_time=3", &set]);
            let r = simulate(&d);
            let q = column(&r.recording, &format!("arm/{joint}.q"));
            let last = *q.last().unwrap();
            assert!(
                (last - bound).abs() < 1e-6,
                "{joint} pushed by {torque} N·m rests at {last}, the file's bound is {bound}"
            );
            let beyond = q
                .iter()
                .map(|x| (x - upper).max(lower - x))
                .fold(f64::MIN, f64::max);
            assert!(beyond < 1e-9, "{joint} passed its bound by {beyond}");
        }
    }
    // As written into the expanded document.
    let mut doc = blockdyn::model::Document::parse("models/arm.toml", ARM).unwrap();
    blockdyn::urdf::expand_document(&mut doc).unwrap();
    let spec = doc.spec().unwrap();
    let shoulder = spec
        .blocks
        .iter()
        .find(|b| b.name == "arm/shoulder")
        .unwrap();
    assert_eq!(shoulder.type_name, "RevoluteJoint");
    let limits = shoulder
        .params
        .get("limits")
        .unwrap()
        .value
        .as_table()
        .unwrap();
    assert_eq!(limits.get("lower").unwrap().value.as_f64(), Some(-1.2));
    assert_eq!(limits.get("upper").unwrap().value.as_f64(), Some(0.8));
    assert_eq!(limits.get("method").unwrap().value.as_str(), Some("rigid"));
    assert_eq!(
        shoulder.params.get("damping").unwrap().value.as_f64(),
        Some(0.05)
    );
    // The model's joints table replaced q0 and added nothing else.
    assert_eq!(shoulder.params.get("q0").unwrap().value.as_f64(), Some(0.4));
}

/// Visual elements, materials and transmissions are warned about, each kind once, with the
/// URDF file's line; nothing else is.
#[test]
fn elements_that_are_not_simulated_are_warned_about_by_name_and_line() {
    let (blueprint, d) = load_parts("arm.toml", ARM, &[]);
    let urdf: Vec<&String> = d
        .warnings()
        .iter()
        .filter(|w| w.contains(".urdf:"))
        .collect();
    assert_eq!(urdf.len(), 4, "{urdf:#?}");
    for (element, line) in [
        ("<material>", "two_link_arm.urdf:8:3"),
        ("2 <visual> elements", "two_link_arm.urdf:17:5"),
        (
            "2 <joint/limit velocity> elements",
            "two_link_arm.urdf:32:5",
        ),
        ("<transmission>", "two_link_arm.urdf:90:3"),
    ] {
        assert!(
            urdf.iter()
                .any(|w| w.contains(element) && w.contains(line) && w.contains("block 'arm'")),
            "{element} at {line}: {urdf:#?}"
        );
    }
    // A parameter set keeps the expansion's warnings (its blocks' are worked out again), whether
    // it touches a signal block or the mechanism.
    for assignment in ["tau_s.value=1.0", "gravity.gravity=[0, 0, -1.62]"] {
        let set = blueprint
            .parameters(&d, &[assignment.parse().unwrap()])
            .unwrap();
        assert_eq!(set.warnings(), d.warnings(), "{assignment}");
    }
}

/// Overrides reach both the Urdf block (before it is expanded) and the blocks it expands to.
#[test]
fn overrides_reach_the_urdf_block_and_its_blocks() {
    let d = load(
        "arm.toml",
        ARM,
        &["arm/elbow.q0=0.25", "arm.position=[0, 0, 1]"],
    );
    let r = simulate(&d);
    assert_eq!(column(&r.recording, "arm/elbow.q")[0], 0.25);
    let e = blockdyn::load_model_str("models/arm.toml", ARM, &["arm/elbo.q0=1".parse().unwrap()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no block 'arm/elbo'") && e.contains("arm/elbow"),
        "{e}"
    );
}

const PENDULUM_URDF: &str = r#"connect = [
  "world.W -- pendulum.B",
  "pendulum/hinge.q -> scope.in1",
]
[model]
stop_time = 10.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
refine = 64
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
[blocks.pendulum]
type = "Urdf"
file = "urdf/pendulum.urdf"
joints = { hinge = { q0 = 1.5707963267948966 } }
[blocks.scope]
type = "Scope"
"#;

/// The instants the angle crosses zero, by linear interpolation between rows.
fn zero_crossings(times: &[f64], q: &[f64]) -> Vec<f64> {
    (1..q.len())
        .filter(|&i| q[i - 1] != 0.0 && q[i - 1].signum() != q[i].signum())
        .map(|i| times[i - 1] + (times[i] - times[i - 1]) * q[i - 1] / (q[i - 1] - q[i]))
        .collect()
}

/// The pendulum of models/urdf/pendulum.urdf (the parameters of models/pendulum.toml: 1 kg,
/// r = 0.05 m, L = 1 m, released at 90°) swings with the hand-written model's period.
///
/// Both runs use rel_tol 1e-10 and 64 rows per step from the dense output, so the zero
/// crossings of the angle, interpolated linearly where the angle is nearly linear in time
/// (q̈ = 0 at q = 0: the interpolation error is O(h³·q⃛/q̇), below 1e-10 s with 64 rows per step),
/// are good to the solver's accuracy, about 1e-10 s. The two models are the same mechanism
/// written two ways, solved with the same steps: their crossings agree to 1e-9 s (measured:
/// ~2e-12 s). Against the exact large-amplitude period T = 4·√(I/(m g L))·K(sin 45°) (the
/// small-angle 2π√(I/(m g L)), I = mL² + 2/5·m·r², corrected for the 90° amplitude by the
/// complete elliptic integral K): relative 1e-8 (measured: ~1e-10), far below the 18 % amplitude
/// correction, so a wrong inertia or length (1e-3 relative) would show.
#[test]
fn urdf_pendulum_swings_with_the_period_of_the_hand_written_one() {
    let urdf = simulate(&load("pendulum_urdf.toml", PENDULUM_URDF, &[]));
    let toml = run("models/pendulum.toml", &["output.refine=64"]);
    let crossings = |r: &blockdyn::RunResult, q: &str| {
        zero_crossings(&r.recording.times, &column(&r.recording, q))
    };
    let a = crossings(&urdf, "pendulum/hinge.q");
    let b = crossings(&toml, "hinge.q");
    assert!(a.len() >= 8 && a.len() == b.len(), "{a:?} vs {b:?}");
    let mut worst: f64 = 0.0;
    for (x, y) in a.iter().zip(&b) {
        worst = worst.max((x - y).abs());
        assert!(
            (x - y).abs() < 1e-9,
            "zero crossing at {x} (URDF) vs {y} (TOML)"
        );
    }
    let (m, l, r, g) = (1.0, 1.0, 0.05, 9.81);
    let inertia = m * l * l + 0.4 * m * r * r;
    let exact = pendulum_period(m * g * l / inertia, std::f64::consts::FRAC_PI_2);
    let small_angle = 2.0 * std::f64::consts::PI * (inertia / (m * g * l)).sqrt();
    assert!(
        exact / small_angle > 1.17,
        "the amplitude correction matters"
    );
    let mut worst_period: f64 = 0.0;
    for w in a.windows(3) {
        let period = w[2] - w[0];
        worst_period = worst_period.max(((period - exact) / exact).abs());
        assert!(
            ((period - exact) / exact).abs() < 1e-8,
            "period {period} vs exact {exact}"
        );
    }
    eprintln!(
        "{} zero crossings: URDF vs TOML within {worst:.1e} s; periods vs exact {exact:.9} s within {worst_period:.1e} (relative)",
        a.len()
    );
}

/// Writes `urdf` to a file and loads a model with a Urdf block on it; the error's text.
fn bad_urdf(dir: &Path, name: &str, urdf: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, urdf).unwrap();
    let model = format!(
        "connect = [\"world.W -- robot.B\"]\n[model]\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.robot]\ntype = \"Urdf\"\nfile = \"{name}\"\n"
    );
    load_error(&dir.join("model.toml").display().to_string(), &model)
}

const LINK: &str = r#"<link name="a"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>"#;

/// Bad files are refused with the URDF file's line and column of the element that is wrong,
/// what is wrong, and a hint.
#[test]
fn bad_files_name_the_elements_line() {
    let dir = temp_dir("bad_urdf");
    let link_b = LINK.replace("\"a\"", "\"b\"");
    let joint = |attrs: &str, body: &str| format!("<joint {attrs}>{body}</joint>");
    let cases: Vec<(&str, String, &str, &[&str])> = vec![
        (
            "unclosed",
            format!("<robot name=\"r\">\n  {LINK}\n  <link name=\"b\">\n</robot>\n"),
            ":4:1:",
            &["invalid XML: expected 'link' tag, not 'robot'", "help:"],
        ),
        (
            "no_type",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n  {}\n</robot>", joint("name=\"j\"", "<parent link=\"a\"/><child link=\"b\"/>")),
            ":4:3:",
            &["<joint> has no 'type' attribute", "help: write <joint type="],
        ),
        (
            "unknown_link",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n<joint name=\"j\" type=\"fixed\">\n    <parent link=\"aa\"/>\n  <child link=\"b\"/></joint>\n</robot>"),
            ":5:5:",
            &["joint 'j': its parent link 'aa' is not a <link>", "did you mean 'a'?"],
        ),
        (
            "cycle",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n{}\n{}\n</robot>",
                joint("name=\"j1\" type=\"fixed\"", "<parent link=\"a\"/><child link=\"b\"/>"),
                joint("name=\"j2\" type=\"fixed\"", "<parent link=\"b\"/><child link=\"a\"/>")),
            ":5:1:",
            &["the joints form a cycle", "joint 'j2' is on the cycle", "help:"],
        ),
        (
            "two_roots",
            format!("<robot name=\"r\">\n{LINK}\n  {link_b}\n</robot>"),
            ":3:3:",
            &["two root links: 'a' (line 2) and 'b'", "type=\"fixed\""],
        ),
        (
            "two_parents",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n{}\n{}\n{}\n</robot>",
                LINK.replace("\"a\"", "\"c\""),
                joint("name=\"j1\" type=\"fixed\"", "<parent link=\"a\"/><child link=\"b\"/>"),
                joint("name=\"j2\" type=\"fixed\"", "<parent link=\"c\"/><child link=\"b\"/>")),
            ":6:",
            &["link 'b' is the child of two joints, 'j1' (line 5) and 'j2'"],
        ),
        (
            "inertia",
            "<robot name=\"r\">\n<link name=\"a\"><inertial><mass value=\"1\"/>\n  <inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.03\"/></inertial></link>\n</robot>".to_string(),
            ":3:3:",
            &["<inertia> is not a physical inertia", "help:"],
        ),
        (
            "negative_mass",
            "<robot name=\"r\">\n<link name=\"a\"><inertial>\n<mass value=\"-1\"/></inertial></link>\n</robot>".to_string(),
            ":3:7:",
            &["the mass is negative"],
        ),
        (
            "limits",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>\n   <limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/></joint>\n</robot>"),
            ":5:4:",
            &["lower limit 1 is above upper limit -1"],
        ),
        (
            "no_limit",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>"),
            ":4:1:",
            &["revolute joint 'j' has no <limit>", "type=\"continuous\""],
        ),
        (
            "bad_number",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>\n  <origin xyz=\"1 2\"/></joint>\n</robot>"),
            ":5:11:",
            &["<origin xyz=\"1 2\">: expected 3 finite numbers"],
        ),
        (
            "joint_type",
            format!("<robot name=\"r\">\n{LINK}\n{link_b}\n<joint name=\"j\"\n type=\"hinge\"><parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>"),
            ":5:2:",
            &["unknown type \"hinge\"", "\"revolute\""],
        ),
        (
            "not_robot",
            "<?xml version=\"1.0\"?>\n<model name=\"r\"/>\n".to_string(),
            ":2:1:",
            &["the root element is <model>, not <robot>"],
        ),
        (
            "two_shapes",
            "<robot name=\"r\">\n<link name=\"a\"><collision><geometry><box size=\"1 1 1\"/>\n<sphere radius=\"1\"/></geometry></collision></link>\n</robot>".to_string(),
            ":3:1:",
            &["<geometry> holds more than one shape"],
        ),
    ];
    for (name, urdf, line, words) in &cases {
        let file = format!("{name}.urdf");
        let e = bad_urdf(&dir, &file, urdf);
        let at = format!("{file}{line}");
        assert!(e.contains(&at), "{name}: expected {at} in\n{e}");
        assert!(e.contains("block 'robot'"), "{name}: {e}");
        for w in *words {
            assert!(e.contains(w), "{name}: expected '{w}' in\n{e}");
        }
        assert!(e.contains("help:"), "{name}: no hint in\n{e}");
    }
    // A file that is not there: at the model's `file = ...` line.
    let model = "[model]\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.robot]\ntype = \"Urdf\"\nfile = \"missing.urdf\"\n";
    let e = load_error("models/m.toml", model);
    assert!(
        e.contains("models/m.toml:7:8: block 'robot': cannot read URDF file 'models/missing.urdf'"),
        "{e}"
    );
    // A joints entry naming no joint of the file: at its key, with the nearest name.
    let model = "[model]\nstop_time = 1.0\n[blocks.arm]\ntype = \"Urdf\"\nfile = \"urdf/two_link_arm.urdf\"\njoints = { elbw = { q0 = 1 } }\n";
    let e = load_error("models/m.toml", model);
    assert!(
        e.contains(
            "models/m.toml:6:12: block 'arm': 'joints.elbw': the URDF file has no movable joint"
        ) && e.contains("did you mean 'elbow'?"),
        "{e}"
    );
    let model = model.replace("elbw", "wrist");
    assert!(load_error("models/m.toml", &model).contains("a fixed joint is a rigid transform"));
    // A block of the file with a name the expansion makes: at the block written in the file.
    let model = "[model]\nstop_time = 1.0\n[blocks.arm]\ntype = \"Urdf\"\nfile = \"urdf/two_link_arm.urdf\"\n[blocks.\"arm/shoulder\"]\ntype = \"Constant\"\n";
    let e = load_error("models/m.toml", model);
    assert!(
        e.contains("models/m.toml:6:")
            && e.contains(
                "block 'arm/shoulder': two blocks are named 'arm/shoulder': a Urdf block makes it"
            ),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn ascii_stl(triangles: &[[[f32; 3]; 3]]) -> String {
    let mut s = String::from("solid test\n");
    for t in triangles {
        s.push_str("facet normal 0 0 0\n outer loop\n");
        for v in t {
            s.push_str(&format!("  vertex {} {} {}\n", v[0], v[1], v[2]));
        }
        s.push_str(" endloop\nendfacet\n");
    }
    s.push_str("endsolid test\n");
    s
}

/// Collision meshes become the convex hulls of their STL files (ASCII and binary, scaled);
/// a mesh that cannot be read is a warning naming the element, its line and why.
#[test]
fn collision_meshes_become_convex_hulls() {
    let dir = temp_dir("meshes");
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    // A unit cube's 12 triangles plus an inner point's triangle (not on the hull).
    let c = |i: u32| [(i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32];
    let faces = [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ];
    let mut tris: Vec<[[f32; 3]; 3]> = faces.iter().map(|f| [c(f[0]), c(f[1]), c(f[2])]).collect();
    tris.push([[0.5, 0.5, 0.5], c(0), c(1)]);
    std::fs::write(dir.join("meshes/cube.stl"), ascii_stl(&tris)).unwrap();
    // A binary tetrahedron.
    let v = [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let tet: Vec<stl_io::Triangle> = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
        .iter()
        .map(|f| stl_io::Triangle {
            normal: stl_io::Normal::new([0.0, 0.0, 0.0]),
            vertices: f.map(|k| stl_io::Vertex::new(v[k])),
        })
        .collect();
    let mut file = std::fs::File::create(dir.join("meshes/tet.stl")).unwrap();
    stl_io::write_stl(&mut file, tet.iter()).unwrap();
    drop(file);
    std::fs::write(dir.join("meshes/broken.stl"), "solid x\nfacet nonsense\n").unwrap();
    let urdf = r#"<robot name="r">
<link name="a">
  <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  <collision><geometry><mesh filename="package://r/meshes/cube.stl" scale="0.2 0.1 0.4"/></geometry></collision>
  <collision><geometry><mesh filename="meshes/tet.stl"/></geometry></collision>
  <collision><geometry><mesh filename="meshes/part.dae"/></geometry></collision>
  <collision><geometry><mesh filename="meshes/broken.stl"/></geometry></collision>
</link>
</robot>
"#;
    let path = dir.join("r.urdf");
    std::fs::write(&path, urdf).unwrap();
    let mut options = blockdyn::urdf::default_options("r");
    options.base = blockdyn::urdf::expand::Base::Floating;
    let e = blockdyn::urdf::expand_file(&path, &options, &blockdyn::model::Span::NONE).unwrap();
    let points = |name: &str| -> Vec<[f64; 3]> {
        let b = e
            .blocks
            .iter()
            .find(|b| b.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(b.type_name, "CollisionGeometry");
        let g = b.params[0].1.as_table().unwrap();
        assert_eq!(g.get("shape").unwrap().value.as_str(), Some("convex_hull"));
        let mut p: Vec<[f64; 3]> = g
            .get("points")
            .unwrap()
            .value
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let r = r.as_array().unwrap();
                [0, 1, 2].map(|k| r[k].as_f64().unwrap())
            })
            .collect();
        p.sort_by(|a, b| a.partial_cmp(b).unwrap());
        p
    };
    let mut cube: Vec<[f64; 3]> = (0..8u32)
        .map(|i| {
            let x = c(i);
            [
                f64::from(x[0]) * 0.2,
                f64::from(x[1]) * 0.1,
                f64::from(x[2]) * 0.4,
            ]
        })
        .collect();
    cube.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let got = points("r/a/collision_0");
    assert_eq!(got.len(), 8, "{got:?}");
    for (g, w) in got.iter().zip(&cube) {
        assert!(
            (0..3).all(|k| (g[k] - w[k]).abs() < 1e-7),
            "{got:?} vs {cube:?}"
        );
    }
    assert_eq!(points("r/a/collision_1").len(), 4);
    assert!(!e
        .blocks
        .iter()
        .any(|b| b.name == "r/a/collision_2" || b.name == "r/a/collision_3"));
    assert_eq!(e.warnings.len(), 2, "{:#?}", e.warnings);
    assert!(
        e.warnings[0].contains("r.urdf:6:3:")
            && e.warnings[0].contains("part.dae")
            && e.warnings[0].contains("not an STL file"),
        "{}",
        e.warnings[0]
    );
    assert!(
        e.warnings[1].contains("r.urdf:7:3:") && e.warnings[1].contains("not a readable STL file"),
        "{}",
        e.warnings[1]
    );
    // The model with these meshes builds and runs (the hulls are valid contact geometries).
    let model =
        "connect = [\"world.W -- r.B\", \"r/a/collision_0.G -- c.F\", \"world.W -- floor.R\", \"floor.G -- c.B\"]\n[model]\nstop_time = 0.3\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n[blocks.r]\ntype = \"Urdf\"\nfile = \"r.urdf\"\nbase = \"floating\"\nposition = [0, 0, 0.2]\n[blocks.c]\ntype = \"SpatialContactForce\"\nnormal = { method = \"linear_spring_damper\", stiffness = 1e5, damping = 300 }\n";
    let d = blockdyn::load_model_str(&dir.join("m.toml").display().to_string(), model, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        d.warnings()
            .iter()
            .filter(|w| w.contains("skipped"))
            .count()
            == 2
    );
    let r = simulate(&d);
    assert_eq!(r.stats.final_time, 0.3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `blockdyn import` prints a model that builds the same diagram as the Urdf block: the same
/// blocks (names, types, order), the same connections, and the same run, state for state.
#[test]
fn import_prints_a_model_that_builds_the_same_diagram() {
    let dir = temp_dir("import");
    let out = blockdyn(&[
        "import",
        "models/urdf/quadruped.urdf",
        "--name",
        "dog",
        "--base",
        "floating",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let imported = dir.join("dog.toml");
    std::fs::write(&imported, &out.stdout).unwrap();
    let with_block = dir.join("with_block.toml");
    let urdf = std::fs::canonicalize("models/urdf/quadruped.urdf").unwrap();
    std::fs::write(
        &with_block,
        format!(
            "connect = [\"world.W -- dog.B\"]\n[model]\nname = \"quadruped\"\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.dog]\ntype = \"Urdf\"\nfile = \"{}\"\nbase = \"floating\"\n",
            urdf.display()
        ),
    )
    .unwrap();
    let a = blockdyn::load_model(&imported, &[]).unwrap_or_else(|e| panic!("{e}"));
    let b = blockdyn::load_model(&with_block, &[]).unwrap_or_else(|e| panic!("{e}"));
    let blocks = |d: &blockdyn::Diagram| -> Vec<(String, &'static str)> {
        d.blocks()
            .iter()
            .map(|b| (b.name.clone(), b.type_name))
            .collect()
    };
    assert_eq!(blocks(&a), blocks(&b));
    assert!(blocks(&a).len() > 40);
    assert_eq!(a.physical(), b.physical());
    assert_eq!(a.num_states(), b.num_states());
    let options = || blockdyn::RunOptions {
        stop_time: Some(0.2),
        ..Default::default()
    };
    let ra = blockdyn::simulate(&a, options()).unwrap();
    let rb = blockdyn::simulate(&b, options()).unwrap();
    assert_eq!(ra.final_state, rb.final_state);
    assert_eq!(ra.stats.steps, rb.stats.steps);
    // The arm's warnings go to stderr; the TOML alone to stdout.
    let out = blockdyn(&["import", "models/urdf/two_link_arm.urdf"]);
    assert!(out.status.success());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        stdout.contains("[blocks.\"robot/shoulder\"]") && !stdout.contains("warning"),
        "{stdout}"
    );
    assert!(
        stderr.contains("warning: models/urdf/two_link_arm.urdf:17:5: 2 <visual> elements ignored"),
        "{stderr}"
    );
    // A bad file: the error, located, and a failure exit.
    let bad = dir.join("bad.urdf");
    std::fs::write(&bad, "<robot name=\"r\">\n  <link/>\n</robot>\n").unwrap();
    let out = blockdyn(&["import", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad.urdf:2:3: block 'robot': <link> has no 'name' attribute"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `blockdyn blocks Urdf` documents the block like every other, and the library lists it.
#[test]
fn the_urdf_block_is_documented() {
    let out = blockdyn(&["blocks", "Urdf"]);
    assert!(out.status.success());
    let doc = text(&out.stdout);
    for param in [
        "`file`",
        "`base`",
        "`position`",
        "`orientation`",
        "`actuation`",
        "`joints`",
    ] {
        assert!(doc.contains(param), "{param} in {doc}");
    }
    let list = text(&blockdyn(&["blocks"]).stdout);
    assert!(
        list.contains("Import:") && list.contains("  Urdf "),
        "{list}"
    );
    assert!(list.contains("CollisionGeometry"), "{list}");
}

/// Urdf is an importer, not a block type: the registry holds only types that build
/// (tests/param_defaults.rs builds each), the reader knows Urdf through
/// `Registry::importers`, and a program cannot register a block type of that name (the reader
/// would expand it before building).
#[test]
fn urdf_is_an_importer_and_not_a_block_type() {
    use blockdyn::library::{Registry, RegistryError};
    let registry = Registry::standard();
    assert!(registry.find("Urdf").is_none(), "Urdf is not a block type");
    let names: Vec<&str> = registry.importers().map(|i| i.name).collect();
    assert_eq!(names, ["Urdf"]);
    let urdf = registry.find_importer("Urdf").unwrap();
    assert!(urdf.markdown().starts_with("## Urdf\n\n*Import*\n\n"));
    let mut mine = *registry.find("Gain").unwrap();
    mine.name = "Urdf";
    let mut r = registry.clone();
    assert_eq!(
        r.register(mine),
        Err(RegistryError::DuplicateName {
            name: "Urdf".into()
        })
    );
}

/// models/quadruped_urdf.toml: the quadruped stands on its four feet under the PD stance
/// controller. Released with its feet 0.4 mm above the ground, the trunk settles by the legs'
/// compliance (PD gains 60 N·m/rad, 1.5 N·m·s/rad) and the ground's (K = 1e6 N/m^1.5: 20.6 N per
/// foot sinks (F/K)^(2/3) = 0.75 mm) to about 0.2758 m: it stays in 0.27–0.282 m over the whole 2 s.
///
/// The feet carry the weight: Σ f_z = m·g + m·a_z of the centre of mass. Averaged over the last
/// second, m·ā_z = m·Δv_z/Δt, and the settled trunk's vertical velocity changes by well under
/// 1e-3 m/s there, so the mean is m·g to 0.1 % (8 mN·s/s of 82 N); at the last row, where the
/// residual oscillation of the stance (decaying since t = 0.1 s) is all that remains, to 0.5 %.
#[test]
fn the_quadruped_stands_on_its_feet() {
    let r = run("models/quadruped_urdf.toml", &[]);
    let rec = &r.recording;
    let d = blockdyn::load_model(Path::new("models/quadruped_urdf.toml"), &[]).unwrap();
    let (mass, g) =
        blockdyn::diagram::physical::mass_and_gravity(d.blocks().iter().map(|b| b.block()));
    assert!(
        (mass - 8.4).abs() < 1e-12,
        "the file's masses add to {mass} kg"
    );
    let weight = mass * g;
    let height = column(rec, "dog.p[2]");
    let (low, high) = height
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), z| (l.min(*z), h.max(*z)));
    assert!(
        low > 0.27 && high <= 0.281 + 1e-12,
        "trunk height {low}..{high} m"
    );
    assert!((height.last().unwrap() - 0.2758).abs() < 1e-3);
    let feet: Vec<Vec<f64>> = ["fl", "fr", "rl", "rr"]
        .iter()
        .map(|f| column(rec, &format!("{f}_ground.force[2]")))
        .collect();
    let total = |i: usize| feet.iter().map(|f| f[i]).sum::<f64>();
    // Time average over [1, 2] s (trapezoidal over the rows).
    let t = &rec.times;
    let from = t.iter().position(|&x| x >= 1.0).unwrap();
    let mut integral = 0.0;
    for i in from + 1..t.len() {
        integral += 0.5 * (total(i) + total(i - 1)) * (t[i] - t[i - 1]);
    }
    let mean = integral / (t[t.len() - 1] - t[from]);
    assert!(
        ((mean - weight) / weight).abs() < 1e-3,
        "mean ground force {mean} N vs weight {weight} N"
    );
    let last = total(t.len() - 1);
    eprintln!(
        "trunk height {low:.5}..{high:.5} m; ground force mean over [1, 2] s {mean:.4} N, last {last:.4} N, m·g = {weight:.4} N"
    );
    assert!(
        ((last - weight) / weight).abs() < 5e-3,
        "{last} N vs {weight} N"
    );
    // Every foot carries a share (none is in the air).
    for f in &feet {
        assert!(f[t.len() - 1] > 0.15 * weight, "{:?}", f.last());
    }
}

const JOINTS_URDF: &str = r#"<robot name="kinds">
  <link name="base"/>
  <joint name="slide" type="prismatic">
    <parent link="base"/><child link="carriage"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.2 0.1 -0.4"/>
    <axis xyz="1 1 0"/>
    <limit lower="-0.5" upper="0.5" effort="10" velocity="1"/>
  </joint>
  <link name="carriage">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="free" type="floating">
    <parent link="carriage"/><child link="drone"/>
    <origin xyz="0 0 0.5" rpy="0 0.3 0"/>
  </joint>
  <link name="drone">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="puck_joint" type="planar">
    <parent link="base"/><child link="puck"/>
    <origin xyz="0 0 -1"/>
    <axis xyz="1 0 0"/>
  </joint>
  <link name="puck">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
</robot>
"#;

/// Prismatic, floating and planar joints move their child links as URDF says: a prismatic joint
/// translates along its (oblique) axis in the joint frame, a floating joint is a free joint at
/// its origin, a planar joint moves in the plane normal to its axis and turns about it.
#[test]
fn prismatic_floating_and_planar_joints_move_as_urdf_says() {
    let dir = temp_dir("joint_kinds");
    std::fs::write(dir.join("kinds.urdf"), JOINTS_URDF).unwrap();
    let model = r#"connect = [
  "world.W -- k.B",
  "k/base.F -- s1.B", "k/carriage.F -- s1.F",
  "k/carriage.F -- s2.B", "k/drone.F -- s2.F",
  "k/base.F -- s3.B", "k/puck.F -- s3.F",
]
[model]
stop_time = 0.001
[output]
log = ["s1.p", "s1.R", "s2.p", "s2.R", "s3.p", "s3.R"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.k]
type = "Urdf"
file = "kinds.urdf"
joints = { slide = { q0 = 0.2 }, free = { position = [0.1, -0.2, 0.3], orientation = [0.9238795325112867, 0.0, 0.0, 0.3826834323650898] }, puck_joint = { q0 = [0.3, -0.4, 0.5] } }
[blocks.s1]
type = "TransformSensor"
[blocks.s2]
type = "TransformSensor"
[blocks.s3]
type = "TransformSensor"
"#;
    let d = blockdyn::load_model_str(&dir.join("m.toml").display().to_string(), model, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    let r = simulate(&d);
    let rec = &r.recording;
    let axis = Vector3::new(1.0, 1.0, 0.0).normalize();
    let slide = pose([0.1, 0.2, 0.3], [0.2, 0.1, -0.4])
        * Isometry3::from_parts(Translation3::from(axis * 0.2), UnitQuaternion::identity());
    assert_pose_near(&sensed(rec, "s1"), &slide, "carriage in base");
    let free = pose([0.0, 0.0, 0.5], [0.0, 0.3, 0.0])
        * Isometry3::from_parts(
            Translation3::new(0.1, -0.2, 0.3),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4),
        );
    assert_pose_near(&sensed(rec, "s2"), &free, "drone in carriage");
    // Planar about x: in the joint frame (at z = −1) the puck stays in the y-z plane (x = 0),
    // 0.5 m from the origin (|(0.3, −0.4)|), turned by 0.5 rad about x.
    let puck = sensed(rec, "s3");
    let p = puck.translation.vector - Vector3::new(0.0, 0.0, -1.0);
    assert!(p.x.abs() < 1e-12 && (p.norm() - 0.5).abs() < 1e-12, "{p}");
    let want = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 0.5);
    assert!(puck.rotation.angle_to(&want) < 1e-12, "{}", puck.rotation);
    let _ = std::fs::remove_dir_all(&dir);
}
