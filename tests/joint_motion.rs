//! Joints driven by motion inputs (issue 31, part 1) against closed forms: a pendulum whose hinge
//! follows q(t) = A·sin ωt, and the slider-crank driven at constant crank speed
//! (models/crank_drive.toml); and the bad input of motion inputs.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, run, run_text};

/// A 2 kg point mass on a 0.5 m massless arm, its hinge (damping c = 0.3 N·m·s/rad) driven by
/// q_ref = A sin ωt, w_ref = Aω cos ωt, a_ref = −Aω² sin ωt (three Sine blocks), gravity g along
/// −y. `extra` is appended to the hinge's table.
fn driven_pendulum(extra: &str) -> String {
    format!(
        r#"
connect = [
  "world.W -- hinge.B", "hinge.F -- arm.B", "arm.F -- bob.R",
  "qr.out -> hinge.q_ref", "wr.out -> hinge.w_ref", "ar.out -> hinge.a_ref",
]
[model]
stop_time = 3.0
[solver]
method = "{{method}}"
[output]
log = ["hinge.q", "hinge.w", "hinge.actuator_force", "hinge.reaction"]
[blocks.world]
type = "WorldFrame"
[blocks.g]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
motion = "input"
damping = 0.3
{extra}
[blocks.arm]
type = "RigidTransform"
translation = [0.0, -0.5, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = 2.0
inertia = [0.0, 0.0, 0.0]
[blocks.qr]
type = "Sine"
amplitude = 0.4
frequency = 3.0
[blocks.wr]
type = "Sine"
amplitude = 1.2
frequency = 3.0
phase = 1.5707963267948966
[blocks.ar]
type = "Sine"
amplitude = -3.6
frequency = 3.0
"#
    )
}

/// The driven pendulum: q equals A sin ωt to round-off (1e-14 rad: q is the input itself, not an
/// integral), w equals Aω cos ωt likewise, and the actuator torque is m·l²·q̈ + m·g·l·sin q + c·q̇
/// to 1e-9 N·m (the hybrid ABA and RNEA in floating point: a few round-offs of a 1 N·m torque),
/// with the explicit default solver and with the stiff trbdf2.
#[test]
fn a_driven_pendulum_follows_its_input_and_needs_the_closed_form_torque() {
    let (a, w, m, l, g, c) = (0.4f64, 3.0f64, 2.0, 0.5, 9.81, 0.3);
    for method in ["dopri5", "trbdf2"] {
        let text = driven_pendulum("").replace("{method}", method);
        let r = run_text("driven_pendulum", &text);
        let rec = &r.recording;
        assert!(rec.len() > 20, "{method}: {} rows", rec.len());
        for i in 0..rec.len() {
            let t = rec.times[i];
            let q = at(rec, "hinge.q", i);
            let qd = at(rec, "hinge.w", i);
            assert!(
                (q - a * (w * t).sin()).abs() < 1e-14,
                "{method} t = {t}: q = {q}"
            );
            assert!(
                (qd - a * w * (w * t).cos()).abs() < 1e-14,
                "{method} t = {t}: w = {qd}"
            );
            let qdd = -a * w * w * (w * t).sin();
            let expected = m * l * l * qdd + m * g * l * q.sin() + c * qd;
            let tau = at(rec, "hinge.actuator_force", i);
            assert!(
                (tau - expected).abs() < 1e-9,
                "{method} t = {t}: torque {tau}, closed form {expected}"
            );
        }
    }
}

/// models/crank_drive.toml: the crank angle is 1 + 15·t to round-off; the slider stays where the
/// kinematics put it, x = r·cos θ + √(l² − r²·sin² θ), within 1e-9 m; and the crank's actuator
/// torque is the virtual-work closed form at constant speed ω,
/// τ = ω²·(m_s·x′x″ + m_r·C′·C″ + I_r·φ′φ″) − F_s·x′ (′ = d/dθ; C the rod's centre, φ its angle,
/// F_s = k·(0.45 − x) − c·ẋ the spring-damper's force on the slider along x), to 1e-6 relative to
/// the largest torque (the loop's free coordinates are integrated at rel_tol 1e-9 and projected
/// onto the closure: their velocities carry that error, amplified by the inertia terms).
#[test]
fn a_slider_crank_driven_at_constant_speed_needs_the_virtual_work_torque() {
    let r = run("models/crank_drive.toml", &[]);
    let rec = &r.recording;
    let (rc, l, omega) = (0.1f64, 0.3f64, 15.0f64);
    let (m_r, m_s, k, c) = (0.3, 1.0, 20.0, 0.5);
    let i_r = m_r * (l * l + 0.02 * 0.02) / 12.0;
    let closed_form = |th: f64| -> (f64, f64) {
        let (s, co) = th.sin_cos();
        let d = (l * l - rc * rc * s * s).sqrt();
        let x = rc * co + d;
        let x1 = -rc * s - rc * rc * s * co / d;
        let x2 =
            -rc * co - rc * rc * (co * co - s * s) / d - rc.powi(4) * s * s * co * co / d.powi(3);
        let p1 = -rc * co / d;
        let p2 = rc * s / d - rc.powi(3) * s * co * co / d.powi(3);
        // The rod's centre: the mean of the crank pin r(cos θ, sin θ) and the slider (x, 0).
        let c1 = [0.5 * (-rc * s + x1), 0.5 * rc * co];
        let c2 = [0.5 * (-rc * co + x2), -0.5 * rc * s];
        let f_s = k * (0.45 - x) - c * x1 * omega;
        let tau =
            omega * omega * (m_s * x1 * x2 + m_r * (c1[0] * c2[0] + c1[1] * c2[1]) + i_r * p1 * p2)
                - f_s * x1;
        (x, tau)
    };
    let mut worst: f64 = 0.0;
    let mut largest: f64 = 0.0;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let th = at(rec, "crank_joint.q", i);
        assert!(
            (th - (1.0 + omega * t)).abs() < 1e-12 * th.abs().max(1.0),
            "t = {t}: θ = {th}"
        );
        let (x, tau) = closed_form(th);
        let slider = at(rec, "slide.q", i);
        assert!(
            (slider - x).abs() < 1e-9,
            "t = {t}: slider at {slider}, kinematics {x}"
        );
        let got = at(rec, "crank_joint.actuator_force", i);
        worst = worst.max((got - tau).abs());
        largest = largest.max(tau.abs());
    }
    assert!(
        worst < 1e-6 * largest,
        "torque off by {worst} (largest {largest})"
    );
}

/// `q0` or `w0` on a joint driven on every axis is refused, saying to remove it.
#[test]
fn initial_values_on_a_prescribed_axis_are_refused() {
    for key in ["q0 = 0.1", "w0 = 1.0"] {
        let e = build_error(&driven_pendulum(key).replace("{method}", "dopri5"));
        let name = &key[..2];
        assert!(
            e.contains(&format!("'{name}' is given by the motion input")),
            "{e}"
        );
        assert!(e.contains(&format!("remove '{name}'")), "{e}");
    }
}

/// Driving the slider of models/crank_drive.toml as well as its crank over-constrains the
/// one-degree-of-freedom loop: an error naming both joints that says to drive only one.
#[test]
fn two_driven_joints_of_one_loop_are_refused() {
    let text = std::fs::read_to_string("models/crank_drive.toml").unwrap();
    let text = text
        .replace(
            "\"slide.q -> motion.in1\",",
            "\"slide.q -> motion.in1\",\n  \"zero.out -> slide.q_ref\", \"zero.out -> slide.w_ref\", \"zero.out -> slide.a_ref\",",
        )
        .replace(
            "[blocks.slide]\ntype = \"PrismaticJoint\"\nq0 = 0.34198728609555523                   # m: r·cos θ + √(l² − r² sin² θ)\nw0 = -1.499037996729365                    # m/s: its rate at θ̇ = 15 rad/s",
            "[blocks.slide]\ntype = \"PrismaticJoint\"\nmotion = \"input\"",
        );
    assert!(text.contains("slide.q_ref") && text.contains("motion = \"input\"\n\n[blocks.slider]"));
    let e = build_error(&text);
    assert!(e.contains("over-constrain"), "{e}");
    assert!(e.contains("'crank_joint'") && e.contains("'slide'"), "{e}");
    assert!(e.contains("drive one joint of the loop"), "{e}");
}

/// A Step feeding q_ref of a joint with motion = "input" is warned about, at `motion`, with the
/// advice to write "input_filtered"; the same Step through input_filtered is not.
#[test]
fn a_stepped_reference_is_warned_about() {
    let stepped = driven_pendulum("").replace("{method}", "dopri5").replace(
        "[blocks.qr]\ntype = \"Sine\"\namplitude = 0.4\nfrequency = 3.0",
        "[blocks.qr]\ntype = \"Step\"\ntime = 0.5\nafter = 0.3",
    );
    let d = blockdyn::load_model_str("stepped.toml", &stepped, &[]).unwrap();
    let w = d
        .warnings()
        .iter()
        .find(|w| w.contains("whose output jumps"));
    let w = w.unwrap_or_else(|| panic!("{:?}", d.warnings()));
    assert!(
        w.contains("block 'hinge'") && w.contains("input_filtered"),
        "{w}"
    );
    let filtered = stepped
        .replace(
            "motion = \"input\"",
            "motion = \"input_filtered\"\nmotion_filter = 0.05",
        )
        .replace("\"wr.out -> hinge.w_ref\", \"ar.out -> hinge.a_ref\",", "");
    let d = blockdyn::load_model_str("filtered.toml", &filtered, &[]).unwrap();
    assert!(
        !d.warnings().iter().any(|w| w.contains("jumps")),
        "{:?}",
        d.warnings()
    );
}

/// models/vibrating_plate.toml (a driven PrismaticJoint under RigidContact), under the default
/// method and trbdf2: the plate follows A·sin ωt to round-off; in flight its actuator force is
/// the plate's own m·(g + z̈) (1e-9 relative: the ball pushes nothing); at every impact the plate's
/// velocity is untouched and the ball leaves at −e times its approach velocity relative to the
/// plate, v⁺ − ż = −e·(v⁻ − ż) (1e-9 relative: the impact sees the plate's infinite, prescribed
/// inertia); the ball bounces at least three times and never sinks into the plate (1e-9 m).
#[test]
fn a_ball_bounces_on_a_plate_that_follows_its_input() {
    let (a, w, m_plate, g, e) = (0.02f64, 30.0f64, 5.0, 9.81, 0.6);
    for method in ["auto", "trbdf2"] {
        let set = format!("solver.method=\"{method}\"");
        let r = run("models/vibrating_plate.toml", &[&set]);
        let rec = &r.recording;
        let events = common::event_rows(rec);
        assert!(events.len() >= 3, "{method}: {} impacts", events.len());
        for i in 0..rec.len() {
            let t = rec.times[i];
            let z = at(rec, "shaker.q", i);
            assert!(
                (z - a * (w * t).sin()).abs() < 1e-14,
                "{method} t = {t}: z = {z}"
            );
            assert!(
                at(rec, "contact.separation", i) > -1e-9,
                "{method} t = {t}: sinks"
            );
            if at(rec, "contact.normal_force", i) == 0.0 {
                let expected = m_plate * (g - a * w * w * (w * t).sin());
                let got = at(rec, "shaker.actuator_force", i);
                assert!(
                    (got - expected).abs() < 1e-9 * expected.abs().max(m_plate * g),
                    "{method} t = {t}: {got} vs {expected}"
                );
            }
        }
        for &i in &events {
            let plate = at(rec, "shaker.w", i);
            assert_eq!(
                plate,
                at(rec, "shaker.w", i - 1),
                "{method}: the plate's velocity jumped"
            );
            let (before, after) = (at(rec, "free.v[2]", i - 1), at(rec, "free.v[2]", i));
            let expected = plate - e * (before - plate);
            assert!(
                (after - expected).abs() < 1e-9 * before.abs().max(1.0),
                "{method}: {before} → {after}, expected {expected}"
            );
        }
    }
}

/// models/turntable.toml (a driven RevoluteJoint under RigidContact with friction): the table
/// turns at α·t exactly; while the brick sticks (until 0.58 s; slip starts at 0.60 s) it turns
/// with the table and the table's motor supplies (I_table + m·r² + I_brick)·α (1e-9 relative:
/// the contact solve sees the table's prescribed acceleration); after the slip the brick lags.
#[test]
fn a_table_driven_at_a_prescribed_rate_carries_then_loses_its_brick() {
    let alpha = 8.0f64;
    let r = run("models/turntable.toml", &[]);
    let rec = &r.recording;
    let inertia = 0.5 * 20.0 * 0.25 + 1.0 * 0.2 * 0.2 + 1.0 * (0.01 + 0.01) / 12.0;
    let mut last_stuck = 0;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let (q, spin) = (at(rec, "spin.q", i), at(rec, "spin.w", i));
        assert!(
            (q - 0.5 * alpha * t * t).abs() < 1e-13 * q.max(1.0),
            "t = {t}: q = {q}"
        );
        assert!(
            (spin - alpha * t).abs() < 1e-13 * spin.max(1.0),
            "t = {t}: w = {spin}"
        );
        if t < 0.58 {
            let brick = at(rec, "free.w[2]", i);
            assert!(
                (brick - spin).abs() < 1e-6 * spin.max(1.0),
                "t = {t}: {brick} vs {spin}"
            );
            let torque = at(rec, "spin.actuator_force", i);
            assert!(
                (torque - inertia * alpha).abs() < 1e-9 * inertia * alpha,
                "t = {t}: {torque}"
            );
            last_stuck = i;
        }
    }
    assert!(last_stuck > 0);
    let end = rec.len() - 1;
    assert!(
        at(rec, "free.w[2]", end) < at(rec, "spin.w", end) - 0.5,
        "the brick never slipped"
    );
}

/// `motion = "input_filtered"` with a Step q_ref (0.2 rad, then 0.3 rad from t = 0.5 s) and τ =
/// 0.05 s: the hinge starts at rest at q_ref(0) = 0.2 and stays there until the step, then follows
/// the critically damped step response q = 0.2 + 0.1·(1 − (1 + s/τ)·e^(−s/τ)), s = t − 0.5, with
/// w = 0.1·(s/τ²)·e^(−s/τ) (1e-8: integrated at rel_tol 1e-10); its actuator torque is
/// m·l²·a + m·g·l·sin q + c·w with the filter's a = (q_ref − q − 2τ·w)/τ², an exact function of
/// the recorded q and w (1e-9 N·m).
#[test]
fn a_filtered_step_moves_the_joint_along_the_critically_damped_response() {
    let (tau, m, l, g, c) = (0.05f64, 2.0f64, 0.5f64, 9.81f64, 0.3f64);
    let text = driven_pendulum("motion_filter = 0.05")
        .replace("{method}", "dopri5")
        .replace("motion = \"input\"", "motion = \"input_filtered\"")
        .replace("\"wr.out -> hinge.w_ref\", \"ar.out -> hinge.a_ref\",", "")
        .replace(
            "[blocks.qr]\ntype = \"Sine\"\namplitude = 0.4\nfrequency = 3.0",
            "[blocks.qr]\ntype = \"Step\"\ntime = 0.5\nbefore = 0.2\nafter = 0.3",
        )
        .replace("[solver]", "[solver]\nrel_tol = 1e-10\nabs_tol = 1e-12");
    let r = run_text("filtered", &text);
    let rec = &r.recording;
    for i in 0..rec.len() {
        let t = rec.times[i];
        let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
        let s = t - 0.5;
        let (q_ref, q_exp, w_exp) =
            if s < 0.0 || (s == 0.0 && i + 1 < rec.len() && rec.times[i + 1] == t) {
                (0.2, 0.2, 0.0)
            } else {
                let e = (-s / tau).exp();
                (
                    0.3,
                    0.2 + 0.1 * (1.0 - (1.0 + s / tau) * e),
                    0.1 * s / (tau * tau) * e,
                )
            };
        assert!(
            (q - q_exp).abs() < 1e-8,
            "t = {t}: q = {q}, expected {q_exp}"
        );
        assert!(
            (w - w_exp).abs() < 1e-8 / tau,
            "t = {t}: w = {w}, expected {w_exp}"
        );
        let a = (q_ref - q - 2.0 * tau * w) / (tau * tau);
        let expected = m * l * l * a + m * g * l * q.sin() + c * w;
        let got = at(rec, "hinge.actuator_force", i);
        assert!(
            (got - expected).abs() < 1e-9,
            "t = {t}: {got} vs {expected}"
        );
    }
}

/// The wrist pin of models/crank_drive.toml closes the loop (a cut joint): its reaction, in the
/// World, is the force the rod exerts on the slider, so along the slide it is the slider's mass
/// times its acceleration less the spring-damper's force: m_s·x″·ω² − F_s (1e-6 relative to the
/// largest, as the crank torque: the loop's integrated velocities).
#[test]
fn the_loop_closing_pin_reacts_with_what_the_slider_needs() {
    let r = run("models/crank_drive.toml", &["pin.reaction_frame=\"world\""]);
    let rec = &r.recording;
    let (rc, l, omega, m_s, k, c) = (0.1f64, 0.3f64, 15.0f64, 1.0, 20.0, 0.5);
    let mut worst: f64 = 0.0;
    let mut largest: f64 = 0.0;
    for i in 0..rec.len() {
        let th = at(rec, "crank_joint.q", i);
        let (s, co) = th.sin_cos();
        let d = (l * l - rc * rc * s * s).sqrt();
        let x = rc * co + d;
        let x1 = -rc * s - rc * rc * s * co / d;
        let x2 =
            -rc * co - rc * rc * (co * co - s * s) / d - rc.powi(4) * s * s * co * co / d.powi(3);
        let f_s = k * (0.45 - x) - c * x1 * omega;
        let expected = m_s * x2 * omega * omega - f_s;
        let got = at(rec, "pin.reaction[0]", i);
        worst = worst.max((got - expected).abs());
        largest = largest.max(expected.abs());
    }
    assert!(
        worst < 1e-6 * largest,
        "pin force off by {worst} (largest {largest})"
    );
}

/// A filtered motion input on a closed loop starts at q_ref(0), not at the filter's zero: the
/// crank of models/crank_drive.toml held at q_ref = 1 rad through `input_filtered` (its filter
/// starts at rest at q_ref(0), so the crank never moves) keeps the loop closed at θ = 1: the
/// slider stays at r·cos θ + √(l² − r² sin² θ) (1e-9 m, the closure's projection tolerance) and
/// the run does not stop with an open loop (before the fix the start-up closed the loop at θ = 0
/// and the run failed at 2.2 ms).
#[test]
fn a_filtered_motion_input_on_a_loop_starts_at_its_reference() {
    let text = std::fs::read_to_string("models/crank_drive.toml").unwrap();
    let text = text
        .replace("  \"speed.out -> crank_joint.w_ref\",\n", "")
        .replace("  \"zero.out -> crank_joint.a_ref\",\n", "")
        .replace("plot = \"crank_drive.png\"\n", "")
        .replace(
            "type = \"RevoluteJoint\"\nmotion = \"input\" ",
            "type = \"RevoluteJoint\"\nmotion = \"input_filtered\" ",
        )
        .replacen("slope = 15.0", "slope = 0.0", 1);
    assert!(text.contains("input_filtered") && !text.contains("-> crank_joint.w_ref"));
    let r = run_text("filtered_crank.toml", &text);
    let rec = &r.recording;
    let (rc, l) = (0.1f64, 0.3f64);
    for i in 0..rec.len() {
        let th = at(rec, "crank_joint.q", i);
        assert!((th - 1.0).abs() < 1e-12, "t = {}: θ = {th}", rec.times[i]);
        let x = rc * th.cos() + (l * l - rc * rc * th.sin().powi(2)).sqrt();
        let slider = at(rec, "slide.q", i);
        assert!(
            (slider - x).abs() < 1e-9,
            "t = {}: slider at {slider}, kinematics {x}",
            rec.times[i]
        );
    }
    let end = rec.times[rec.len() - 1];
    assert!(end >= 1.0 - 1e-12, "the run ended at {end} s");
}

/// On a partly driven joint (`motion_axes`), a non-zero `q0`/`w0` on a driven axis is refused
/// (the input gives it), naming the element; the free axes' values are accepted.
#[test]
fn initial_values_on_the_driven_axis_of_a_partly_driven_joint_are_refused() {
    let model = |values: &str| {
        format!(
            "connect = [\"world.W -- j.B\", \"j.F -- s.R\", \"c.out -> j.q_ref\", \"c.out -> j.w_ref\", \"c.out -> j.a_ref\"]\n\
             [model]\nname = \"partly_driven\"\nstop_time = 0.1\n\
             [blocks.world]\ntype = \"WorldFrame\"\n\
             [blocks.j]\ntype = \"CylindricalJoint\"\nmotion = \"input\"\nmotion_axes = [true, false]\n{values}\n\
             [blocks.s]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.1 }}\nmass = 1.0\n\
             [blocks.c]\ntype = \"Constant\"\nvalue = [0.0, 0.0]\n"
        )
    };
    for key in ["q0", "w0"] {
        let e = build_error(&model(&format!("{key} = [0.5, 0.0]")));
        assert!(
            e.contains(&format!("'{key}'[0] is on an axis the motion input drives")),
            "{e}"
        );
        assert!(e.contains("write 0.0 there"), "{e}");
        blockdyn::load_model_str("ok.toml", &model(&format!("{key} = [0.0, 0.2]")), &[])
            .unwrap_or_else(|e| panic!("{key} on the free axis: {e}"));
    }
}

/// `motion_filter` without `motion = "input_filtered"` does nothing: warned about at the key.
#[test]
fn a_motion_filter_without_a_filtered_motion_is_warned_about() {
    let text = "connect = [\"world.W -- j.B\", \"j.F -- s.R\"]\n\
                [model]\nname = \"m\"\nstop_time = 0.1\n\
                [blocks.world]\ntype = \"WorldFrame\"\n\
                [blocks.j]\ntype = \"RevoluteJoint\"\nmotion_filter = 0.05\n\
                [blocks.s]\ntype = \"Solid\"\ngeometry = { shape = \"sphere\", radius = 0.1 }\nmass = 1.0\n";
    let d = blockdyn::load_model_str("m.toml", text, &[]).unwrap();
    let w = d
        .warnings()
        .iter()
        .find(|w| w.contains("'motion_filter' has no effect"))
        .unwrap_or_else(|| panic!("no warning: {:?}", d.warnings()));
    assert!(w.contains("m.toml:9:"), "located at the key: {w}");
    assert!(w.contains("input_filtered"), "{w}");
}

/// models/crank_drive.toml's loop is closed at the crank's reference angle q_ref at every accepted
/// step (not at the angle integrated from w_ref): with a w_ref of 16 rad/s against q_ref's slope of
/// 15 (a user's mistake) the slider is still where the kinematics put it for θ = q_ref, within
/// 1e-9 m (the projection's tolerance) at every step's end (`refine = 1`: rows inside a step
/// interpolate the unprojected path, open by the step's drift), and the run says that w_ref is
/// not q_ref's derivative, naming the joint; with the consistent 15 rad/s it says nothing.
/// (Before, the loop was projected at the integrated angle: 1 rad/s × 1 s away at the end.)
#[test]
fn a_driven_loop_is_closed_at_the_reference_and_a_drifting_w_ref_is_noted() {
    let (rc, l) = (0.1f64, 0.3f64);
    for (speed, noted) in [(16.0, true), (15.0, false)] {
        let set = format!("speed.value={speed}");
        let r = run(
            "models/crank_drive.toml",
            &[set.as_str(), "output.refine=1"],
        );
        let rec = &r.recording;
        for i in 0..rec.len() {
            let t = rec.times[i];
            let th = at(rec, "crank_joint.q", i);
            assert!((th - (1.0 + 15.0 * t)).abs() < 1e-12 * th.abs().max(1.0));
            let s = th.sin();
            let x = rc * th.cos() + (l * l - rc * rc * s * s).sqrt();
            let slider = at(rec, "slide.q", i);
            assert!(
                (slider - x).abs() < 1e-9,
                "w_ref {speed}, t = {t}: slider at {slider}, kinematics {x}"
            );
        }
        let notes: Vec<String> = r.notes.iter().map(|(b, n)| format!("{b}: {n}")).collect();
        if noted {
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(notes[0].contains("joint 'crank_joint'"), "{notes:?}");
            assert!(
                notes[0].contains("w_ref is not the derivative of q_ref"),
                "{notes:?}"
            );
            assert!(notes[0].contains("w_ref = dq_ref/dt"), "{notes:?}");
        } else {
            assert!(notes.is_empty(), "{notes:?}");
        }
    }
}

/// Consistent references are never taken for a drifting w_ref: models/vibrating_plate.toml's sine
/// (w_ref = dq_ref/dt exactly) gives no note under any method, though trbdf2 at the default
/// rel_tol 1e-3 integrates ∫w_ref dt only to 3.4e-3 of the plate's 0.76 m of travel.
#[test]
fn consistent_references_give_no_drift_note_under_any_method() {
    for method in ["dopri5", "trbdf2", "esdirk43", "auto"] {
        let set = format!("solver.method=\"{method}\"");
        let r = run("models/vibrating_plate.toml", &[set.as_str()]);
        assert!(r.notes.is_empty(), "{method}: {:?}", r.notes);
    }
}
