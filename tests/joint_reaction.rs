//! Joint reaction sensing (issue 31, part 2) against closed forms and statics: a swinging
//! pendulum's pivot force, a static two-link cantilever's wrenches (weight and moment beyond each
//! joint), each link's balance of reactions and external forces, and a free body's six-dof joint
//! (reaction zero).
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, run_text};
use nalgebra::Vector3;

/// A reaction column as (force, torque).
fn reaction(
    rec: &blockdyn::output::Recording,
    joint: &str,
    i: usize,
) -> (Vector3<f64>, Vector3<f64>) {
    let e = |k: usize| at(rec, &format!("{joint}.reaction[{k}]"), i);
    (
        Vector3::new(e(0), e(1), e(2)),
        Vector3::new(e(3), e(4), e(5)),
    )
}

/// A 1 kg point mass on a 1 m massless arm released from q0 = 1 rad (g = 9.81 m/s² along −y).
/// In the follower frame the arm hangs along −y, so the pivot pulls the bob along +y with
/// m·(g·cos q + l·ω²) — m·(g + l·ω²) at the bottom of the swing — and with nothing across it
/// (no torque about the hinge, nothing out of the plane). Checked at every recorded step to 1e-9
/// relative to the weight (one RNEA pass at the solved accelerations, in floating point).
#[test]
fn a_pendulum_pivot_carries_the_weight_and_the_centripetal_force() {
    let text = r#"
connect = ["world.W -- hinge.B", "hinge.F -- arm.B", "arm.F -- bob.R"]
[model]
stop_time = 3.0
[output]
log = ["hinge.q", "hinge.w", "hinge.reaction"]
[blocks.world]
type = "WorldFrame"
[blocks.g]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
q0 = 1.0
[blocks.arm]
type = "RigidTransform"
translation = [0.0, -1.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.01 }
mass = 1.0
inertia = [0.0, 0.0, 0.0]
"#;
    let r = run_text("pivot", text);
    let rec = &r.recording;
    let (m, g, l) = (1.0, 9.81, 1.0);
    let mut bottom_seen = false;
    for i in 0..rec.len() {
        let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
        let (f, n) = reaction(rec, "hinge", i);
        let expected = m * (g * q.cos() + l * w * w);
        let tol = 1e-9 * m * g;
        assert!(
            (f.y - expected).abs() < tol,
            "q = {q}: {} vs {expected}",
            f.y
        );
        assert!(f.x.abs() < tol && f.z.abs() < tol, "q = {q}: f = {f}");
        assert!(n.norm() < tol * l, "q = {q}: n = {n}");
        bottom_seen |= q.abs() < 0.05;
    }
    assert!(bottom_seen, "the swing never passed near the bottom");
    // Resolved in the World (here also the base frame): the follower-frame force turned by q
    // about z, f_W = Rz(q)·f_F, to the same 1e-9.
    for frame in ["world", "base"] {
        let text = text.replace(
            "q0 = 1.0",
            &format!("q0 = 1.0\nreaction_frame = \"{frame}\""),
        );
        let r = run_text("pivot_world", &text);
        let rec = &r.recording;
        for i in 0..rec.len() {
            let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
            let along = m * (g * q.cos() + l * w * w);
            let expected = Vector3::new(-q.sin() * along, q.cos() * along, 0.0);
            let (f, _) = reaction(rec, "hinge", i);
            assert!(
                (f - expected).norm() < 1e-9 * m * g,
                "{frame} q = {q}: {f} vs {expected}"
            );
        }
    }
}

/// Two links on vertical hinges (gravity −z, 9.80665 m/s²): link 1 carries a 2 kg ball 0.2 m
/// out, hinge 2 at 0.4 m carries link 2 with a 3 kg ball 0.3 m beyond it, pushed by an external
/// force (2, 0, −4) N at the ball (along the link and down: no torque about the hinges, so all
/// stays still). `frame` is both joints' reaction_frame.
fn cantilever(frame: &str) -> String {
    format!(
        r#"
connect = [
  "world.W -- hinge1.B", "hinge1.F -- off1.B", "off1.F -- ball1.R", "off1.F -- to2.B",
  "to2.F -- hinge2.B", "hinge2.F -- off2.B", "off2.F -- ball2.R", "off2.F -- push.R",
  "force.out -> push.force",
]
[model]
stop_time = 0.5
[output]
log = ["hinge1.reaction", "hinge2.reaction", "hinge1.q", "hinge2.q"]
[blocks.world]
type = "WorldFrame"
[blocks.hinge1]
type = "RevoluteJoint"
reaction_frame = "{frame}"
[blocks.off1]
type = "RigidTransform"
translation = [0.2, 0.0, 0.0]
[blocks.ball1]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 2.0
[blocks.to2]
type = "RigidTransform"
translation = [0.2, 0.0, 0.0]
[blocks.hinge2]
type = "RevoluteJoint"
reaction_frame = "{frame}"
[blocks.off2]
type = "RigidTransform"
translation = [0.3, 0.0, 0.0]
[blocks.ball2]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 3.0
[blocks.push]
type = "ExternalForceTorque"
[blocks.force]
type = "Constant"
value = [2.0, 0.0, -4.0]
"#
    )
}

/// The static cantilever: hinge 2 carries what is beyond it, force (−2, 0, 3g + 4) N and moment
/// about its axis' origin −(0.3, 0, 0) × (2, 0, −3g − 4) = (0, −0.3·(3g + 4), 0) N·m; hinge 1
/// carries both links: force (−2, 0, 5g + 4), moment (0, −(0.2·2g + 0.7·(3g + 4)), 0). At rest
/// with the joints at zero, the follower, base and World frames coincide in orientation, so the
/// three `reaction_frame`s give the same numbers. 1e-9 relative to the largest entry.
#[test]
fn a_static_cantilever_carries_the_weight_and_moment_beyond_each_joint() {
    let g = 9.80665;
    let f2 = Vector3::new(-2.0, 0.0, 3.0 * g + 4.0);
    let n2 = Vector3::new(0.0, -0.3 * (3.0 * g + 4.0), 0.0);
    let f1 = Vector3::new(-2.0, 0.0, 5.0 * g + 4.0);
    let n1 = Vector3::new(0.0, -(0.2 * 2.0 * g + 0.7 * (3.0 * g + 4.0)), 0.0);
    for frame in ["follower", "base", "world"] {
        let r = run_text("cantilever", &cantilever(frame));
        let rec = &r.recording;
        for i in 0..rec.len() {
            assert!(at(rec, "hinge1.q", i).abs() < 1e-12 && at(rec, "hinge2.q", i).abs() < 1e-12);
            for (joint, f, n) in [("hinge1", f1, n1), ("hinge2", f2, n2)] {
                let (got_f, got_n) = reaction(rec, joint, i);
                let tol = 1e-9 * f.norm();
                assert!((got_f - f).norm() < tol, "{frame} {joint}: {got_f} vs {f}");
                assert!((got_n - n).norm() < tol, "{frame} {joint}: {got_n} vs {n}");
            }
        }
    }
}

/// Each link of the static cantilever is in equilibrium under the reactions of its joints
/// (World-resolved; link 1 feels hinge 2's reaction reversed), its weight and the external
/// force: the forces sum to zero, and so do the moments about the World origin (each reaction's
/// moment moved from its joint's origin, p × f added). 1e-9 relative to the weights.
#[test]
fn reactions_and_external_forces_balance_on_a_static_mechanism() {
    let g = 9.80665;
    let r = run_text("balance", &cantilever("world"));
    let rec = &r.recording;
    let last = rec.len() - 1;
    let (f1, n1) = reaction(rec, "hinge1", last);
    let (f2, n2) = reaction(rec, "hinge2", last);
    let (p1, p2) = (Vector3::zeros(), Vector3::new(0.4, 0.0, 0.0));
    let about_origin = |p: Vector3<f64>, f: Vector3<f64>, n: Vector3<f64>| n + p.cross(&f);
    let weight = |m: f64| Vector3::new(0.0, 0.0, -m * g);
    let (ball1, ball2) = (Vector3::new(0.2, 0.0, 0.0), Vector3::new(0.7, 0.0, 0.0));
    let push = Vector3::new(2.0, 0.0, -4.0);
    let tol = 1e-9 * 5.0 * g;
    // Link 1: hinge 1's reaction, hinge 2's reversed, ball 1's weight.
    let force1 = f1 - f2 + weight(2.0);
    let moment1 = about_origin(p1, f1, n1) - about_origin(p2, f2, n2) + ball1.cross(&weight(2.0));
    assert!(
        force1.norm() < tol && moment1.norm() < tol,
        "{force1} {moment1}"
    );
    // Link 2: hinge 2's reaction, ball 2's weight, the push.
    let force2 = f2 + weight(3.0) + push;
    let moment2 = about_origin(p2, f2, n2) + ball2.cross(&(weight(3.0) + push));
    assert!(
        force2.norm() < tol && moment2.norm() < tol,
        "{force2} {moment2}"
    );
}

/// A ball thrown on a six-dof joint: the joint transmits nothing, so its reaction is zero (to
/// round-off: 1e-12 of the ball's weight) all along the flight.
#[test]
fn a_free_joint_reacts_with_nothing() {
    let text = r#"
connect = ["world.W -- free.B", "free.F -- ball.R"]
[model]
stop_time = 1.0
[output]
log = ["free.reaction"]
[blocks.world]
type = "WorldFrame"
[blocks.free]
type = "SixDofJoint"
velocity = [1.0, 0.0, 4.0]
angular_velocity = [0.0, 3.0, 1.0]
[blocks.ball]
type = "Solid"
geometry = { shape = "brick", size = [0.1, 0.2, 0.3] }
mass = 1.5
"#;
    let r = run_text("free", text);
    let rec = &r.recording;
    for i in 0..rec.len() {
        let (f, n) = reaction(rec, "free", i);
        assert!(f.norm() + n.norm() < 1e-12 * 1.5 * 9.80665, "{f} {n}");
    }
}

/// models/hinge_reaction.toml: a 2 kg rod (1 m × 4 cm × 4 cm) swinging on a hinge about the World's
/// x axis, its reaction resolved in the World. The hinge's force is the rod's mass times its
/// centre's acceleration less gravity, f = m·(c̈ − g), with c = l_c·(0, sin q, −cos q),
/// c̈ = l_c·α·(0, cos q, sin q) + l_c·ω²·(0, −sin q, cos q) and α = −m·g·l_c·sin q / I_pivot
/// (I_pivot = m·(L² + h²)/12 + m·l_c²); its moment about the hinge's origin is zero (the rod is
/// symmetric about its plane of swing and the hinge carries no torque about its axis). 1e-9
/// relative to the weight at every recorded step.
#[test]
fn the_hinge_reaction_example_matches_the_physical_pendulum() {
    let r = common::run("models/hinge_reaction.toml", &[]);
    let rec = &r.recording;
    let (m, g, lc) = (2.0f64, 9.81f64, 0.5f64);
    let i_pivot = m * (1.0 + 0.04 * 0.04) / 12.0 + m * lc * lc;
    for i in 0..rec.len() {
        let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
        let alpha = -m * g * lc * q.sin() / i_pivot;
        let acc = lc * alpha * Vector3::new(0.0, q.cos(), q.sin())
            + lc * w * w * Vector3::new(0.0, -q.sin(), q.cos());
        let expected = m * acc + Vector3::new(0.0, 0.0, m * g);
        let (f, n) = reaction(rec, "hinge", i);
        let tol = 1e-9 * m * g;
        assert!((f - expected).norm() < tol, "q = {q}: {f} vs {expected}");
        assert!(n.norm() < tol, "q = {q}: n = {n}");
    }
}
