//! Isotropic (disk) joint friction on a SphericalJoint (`friction = { ..., shape = "disk" }`,
//! issue 31 part 3's last open item) against closed forms: a ball spinning about a tilted axis
//! slows at τ/I along that axis (the default box slows each component at τ/I and turns the
//! axis); a torque of 1.2·τ along a diagonal slips (each component is below τ, so a box would
//! stick) at (|T| − τ)/I, and one of 0.5·τ sticks; and the located refusals.
//!
//! The body is a solid sphere centred on the joint (isotropic inertia I, no gravity torque), so
//! Euler's equations reduce to I·ω̇ = T + τ_f, with ω along a fixed unit axis u that is the same
//! in the World and in F (the body turns about u). The friction is regularised over the
//! stiction velocity v_s (see docs/blocks.md): beyond it the Coulomb law is exactly the limit.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, run_text};
use nalgebra::Vector3;

/// I of the ball (kg·m²), the limit τ (N·m), the stiction velocity v_s (rad/s).
const I: f64 = 0.02;
const TAU: f64 = 0.5;
const V_S: f64 = 1e-3;

/// A ball on a SphericalJoint at the World origin with disk (or box) Coulomb friction, spinning
/// at `w0` (rad/s, in F = World at the start), pushed by the World torque `torque` (N·m).
fn ball(shape: &str, w0: Vector3<f64>, torque: Vector3<f64>, stop: f64) -> String {
    format!(
        r#"
connect = ["world.W -- joint.B", "joint.F -- ball.R", "joint.F -- push.R", "t.out -> push.torque"]
[model]
stop_time = {stop}
[output]
log = ["joint.w"]
[blocks.world]
type = "WorldFrame"
[blocks.joint]
type = "SphericalJoint"
angular_velocity = [{}, {}, {}]
friction = {{ method = "coulomb", limit = {TAU}, stiction_velocity = {V_S}, shape = "{shape}" }}
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.1 }}
mass = 5.0
inertia = [{I}, {I}, {I}]
[blocks.push]
type = "ExternalForceTorque"
[blocks.t]
type = "Constant"
value = [{}, {}, {}]
"#,
        w0.x, w0.y, w0.z, torque.x, torque.y, torque.z
    )
}

fn omega(rec: &blockdyn::output::Recording, i: usize) -> Vector3<f64> {
    Vector3::new(
        at(rec, "joint.w[0]", i),
        at(rec, "joint.w[1]", i),
        at(rec, "joint.w[2]", i),
    )
}

/// From ω0 = 4 rad/s about u = (1, 2, 2)/3: ω(t) = (ω0 − τ·t/I)·u while |ω| > v_s (it stops at
/// t* = ω0·I/τ = 0.16 s), to 1e-9 rad/s (the solver's error on a linear-in-time state with a
/// constant derivative is round-off; 1e-9 leaves room for the steps' sums); then it stays stuck
/// (|ω| < v_s). The box law on the same spin slows each component at τ/I, so the smallest
/// component stops first and the direction turns: its ω leaves u by more than 0.1 rad/s.
#[test]
fn a_disk_slows_a_tilted_spin_along_its_own_axis() {
    let u = Vector3::new(1.0, 2.0, 2.0) / 3.0;
    let w0 = 4.0;
    let r = run_text("disk_spin", &ball("disk", u * w0, Vector3::zeros(), 0.3));
    let rec = &r.recording;
    let (mut sliding, mut stuck) = (0, 0);
    for i in 0..rec.len() {
        let t = rec.times[i];
        let w = omega(rec, i);
        let expected = w0 - TAU * t / I;
        if expected > 2.0 * V_S {
            assert!(
                (w - u * expected).norm() < 1e-9,
                "t = {t}: {w} vs {}",
                u * expected
            );
            sliding += 1;
        } else if t > w0 * I / TAU + 0.01 {
            assert!(w.norm() < V_S, "t = {t}: {w}");
            stuck += 1;
        }
    }
    assert!(
        sliding > 5 && stuck > 0,
        "{sliding} sliding, {stuck} stuck rows"
    );
    // The box: ω_x = 4/3 stops first (t = 0.0533 s), ω_y, ω_z go on: at t = 0.08 s, ω = (0, 2/3,
    // 2/3)·… is off u.
    let r = run_text("box_spin", &ball("box", u * w0, Vector3::zeros(), 0.1));
    let rec = &r.recording;
    let i = rec.times.iter().position(|&t| t >= 0.08).unwrap();
    let w = omega(rec, i);
    assert!(
        (w - u * w.dot(&u)).norm() > 0.1,
        "box stayed on the axis: {w}"
    );
}

/// A World torque T along the diagonal u = (1, 1, 0)/√2 from rest. |T| = 1.2·τ: each component
/// (0.85·τ) is below the limit, but the disk's limit is on |τ_f|, so it slips: once |ω| > v_s,
/// ω = u·(|T| − τ)·(t − t₀)/I, i.e. |ω| grows at 0.2·τ/I = 5 rad/s² (checked between rows past
/// the band, to 1e-9 rad/s) along u (1e-9). |T| = 0.5·τ: it sticks, |ω| < v_s throughout.
#[test]
fn a_disk_slips_under_a_diagonal_torque_above_its_limit_and_sticks_below() {
    let u = Vector3::new(1.0, 1.0, 0.0) / 2f64.sqrt();
    let r = run_text(
        "disk_slip",
        &ball("disk", Vector3::zeros(), u * 1.2 * TAU, 0.2),
    );
    let rec = &r.recording;
    let rate = 0.2 * TAU / I;
    let past: Vec<usize> = (0..rec.len())
        .filter(|&i| omega(rec, i).norm() > 10.0 * V_S)
        .collect();
    assert!(past.len() > 5, "never slipped");
    let (i0, w_i0) = (past[0], omega(rec, past[0]).norm());
    for &i in &past {
        let w = omega(rec, i);
        let expected = w_i0 + rate * (rec.times[i] - rec.times[i0]);
        assert!(
            (w.norm() - expected).abs() < 1e-9,
            "t = {}: {w}",
            rec.times[i]
        );
        assert!((w - u * w.norm()).norm() < 1e-9, "off the axis: {w}");
    }
    let r = run_text(
        "disk_stick",
        &ball("disk", Vector3::zeros(), u * 0.5 * TAU, 0.2),
    );
    let rec = &r.recording;
    for i in 0..rec.len() {
        assert!(omega(rec, i).norm() < V_S, "t = {}: slipped", rec.times[i]);
    }
}

/// `shape = "disk"` on a joint without a rotation triple, or with different limits on the three
/// rotation axes, is refused at the `shape` key with what to write instead.
#[test]
fn disk_friction_is_refused_where_it_has_no_meaning() {
    let text = ball("disk", Vector3::zeros(), Vector3::zeros(), 0.1);
    let e = build_error(
        &text
            .replace("SphericalJoint", "RevoluteJoint")
            .replace("angular_velocity = [0, 0, 0]\n", ""),
    );
    assert!(e.contains("shape") && e.contains("SphericalJoint"), "{e}");
    let e = build_error(&text.replace(&format!("limit = {TAU},"), "limit = [0.5, 0.5, 0.7],"));
    assert!(
        e.contains("shape") && e.contains("one law for the whole rotation"),
        "{e}"
    );
}
