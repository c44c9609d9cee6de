//! URDF joint dynamics (issue 31, part 3): `<dynamics damping>` decaying at the closed-form rate,
//! `<dynamics friction>` as a Coulomb limit, and `<limit effort>` saturating the actuation input,
//! on a one-joint wheel. The URDF files are written to a temporary directory.

mod cli_common;
mod common;

use common::column;

/// Writes a one-joint URDF wheel (a continuous joint about z through the centre of mass of a link
/// with izz = 0.5 kg·m²) with the given joint elements, and the model running it from ω0 = 3
/// rad/s (`driven`: with the Urdf block's `actuation = "input"` and a constant 10 N·m on the
/// joint's input t); returns the run.
fn urdf_wheel(name: &str, joint_elements: &str, driven: bool) -> blockdyn::RunResult {
    let dir = cli_common::temp_dir(name);
    let urdf = format!(
        r#"<?xml version="1.0"?>
<robot name="wheel">
  <link name="axle"/>
  <joint name="spin" type="continuous">
    <parent link="axle"/>
    <child link="disc"/>
    <axis xyz="0 0 1"/>
    {joint_elements}
  </joint>
  <link name="disc">
    <inertial>
      <mass value="2.0"/>
      <inertia ixx="0.25" ixy="0" ixz="0" iyy="0.25" iyz="0" izz="0.5"/>
    </inertial>
  </link>
</robot>"#
    );
    std::fs::write(dir.join("wheel.urdf"), urdf).unwrap();
    let (drive, actuation) = if driven {
        (
            ", \"drive.out -> wheel/spin.t\"",
            "actuation = \"input\"\n[blocks.drive]\ntype = \"Constant\"\nvalue = 10.0\n",
        )
    } else {
        ("", "")
    };
    let model = format!(
        r#"connect = ["world.W -- wheel.B"{drive}]
[model]
stop_time = 2.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["wheel/spin.w", "wheel/spin.q"]
[blocks.world]
type = "WorldFrame"
[blocks.wheel]
type = "Urdf"
file = "wheel.urdf"
joints = {{ spin = {{ w0 = 3.0 }} }}
{actuation}"#
    );
    let path = dir.join("model.toml").display().to_string();
    let d = blockdyn::load_model_str(&path, &model, &[]).unwrap_or_else(|e| panic!("{e}"));
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// URDF `<dynamics damping="0.2">` on the wheel: I·ω̇ = −c·ω, so ω = ω0·exp(−c·t/I) with c/I =
/// 0.4 /s (1e-8 relative: rel_tol 1e-10 over 2 s).
#[test]
fn a_urdf_joint_with_dynamics_damping_decays_at_the_closed_form_rate() {
    let r = urdf_wheel("urdf_damping", r#"<dynamics damping="0.2"/>"#, false);
    let rec = &r.recording;
    let w = column(rec, "wheel/spin.w");
    for (t, w) in rec.times.iter().zip(&w) {
        let expected = 3.0 * (-0.4 * t).exp();
        assert!(
            (w - expected).abs() < 1e-8 * expected,
            "t = {t}: {w} vs {expected}"
        );
    }
    assert!(rec.times.last().unwrap() >= &2.0);
}

/// URDF `<dynamics friction="0.5">` is a Coulomb limit of 0.5 N·m (default stiction velocity
/// 1e-4 rad/s): the wheel decelerates at 1 rad/s² and enters its stick band at t = I·(ω0 −
/// v_s)/τ = 2.9999 s — with stop_time 2, ω(2) = 3 − 2 = 1 rad/s exactly (1e-8). `<limit effort="4">`
/// with the Urdf block's `actuation = "input"`, driven by 10 N·m against the same friction:
/// ω̇ = (4 − 0.5)/I = 7 rad/s².
#[test]
fn urdf_dynamics_friction_and_limit_effort_are_simulated() {
    let r = urdf_wheel("urdf_friction", r#"<dynamics friction="0.5"/>"#, false);
    let w = column(&r.recording, "wheel/spin.w");
    let last = w.len() - 1;
    assert!((r.recording.times[last] - 2.0).abs() < 1e-12);
    assert!((w[last] - 1.0).abs() < 1e-8, "{}", w[last]);

    let r = urdf_wheel(
        "urdf_effort",
        r#"<dynamics friction="0.5"/><limit effort="4" velocity="5"/>"#,
        true,
    );
    let w = column(&r.recording, "wheel/spin.w");
    for (t, w) in r.recording.times.iter().zip(&w) {
        let expected = 3.0 + 7.0 * t;
        assert!(
            (w - expected).abs() < 1e-8 * expected,
            "t = {t}: {w} vs {expected}"
        );
    }
}
