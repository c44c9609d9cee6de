//! The weld joint's `reaction` (issue 31, part 2: "every joint"): the wrench the base side
//! exerts on the follower side through a weld inside a merged rigid body, against closed forms —
//! a static cantilever (welded to the World and inside a hinged body, connected either way
//! round, with external forces on either side), a pendulum whose bob is welded to its arm (the
//! radial and tangential force at every step), the `reaction_frame`s, and the weld on a cycle of
//! rigid connections (refused with a located message).
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, build_error, run_text};
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

/// Gravity −z (9.80665 m/s²). `root` joins the World to `inner`'s frame: `"world.W -- root.B"`
/// plus a hinge about the vertical z axis (loaded only across its axis, so nothing moves), or the
/// World frame itself. The inner part: a 2 kg ball 0.2 m out along x, then the weld at 0.4 m;
/// beyond it a 3 kg ball 0.3 m further out, pushed by (2, 0, −4) N; a push (5, 0, −7) N on the
/// inner ball (on the weld's base side: it must not enter the weld's reaction). `reversed`
/// connects the weld with its base frame on the outer part.
/// With `tail`, a second hinge at the outer ball carries a 1 kg ball 0.1 m further out (a tree
/// child of the welded body, hanging off the weld's outer side).
fn cantilever(hinged: bool, reversed: bool, tail: bool, frame: &str) -> String {
    let root = if hinged {
        "\"world.W -- hinge.B\", \"hinge.F -- off1.B\","
    } else {
        "\"world.W -- off1.B\","
    };
    let (inner_side, outer_side) = if reversed { ("F", "B") } else { ("B", "F") };
    let hinge = if hinged {
        "[blocks.hinge]\ntype = \"RevoluteJoint\"\n"
    } else {
        ""
    };
    let (tail_connect, tail_blocks) = if tail {
        (
            "\"off2.F -- hinge2.B\", \"hinge2.F -- off3.B\", \"off3.F -- ball3.R\",",
            "[blocks.hinge2]\ntype = \"RevoluteJoint\"\n[blocks.off3]\ntype = \"RigidTransform\"\ntranslation = [0.1, 0.0, 0.0]\n[blocks.ball3]\ntype = \"Solid\"\ngeometry = { shape = \"sphere\", radius = 0.02 }\nmass = 1.0\n",
        )
    } else {
        ("", "")
    };
    format!(
        r#"
connect = [
  {root} "off1.F -- ball1.R", "off1.F -- push1.R", "off1.F -- to_weld.B",
  "to_weld.F -- weld.{inner_side}", "weld.{outer_side} -- off2.B", "off2.F -- ball2.R",
  "off2.F -- push2.R", "force2.out -> push2.force", "force1.out -> push1.force", {tail_connect}
]
[model]
stop_time = 0.5
[output]
log = ["weld.reaction"]
[blocks.world]
type = "WorldFrame"
{hinge}
{tail_blocks}
[blocks.off1]
type = "RigidTransform"
translation = [0.2, 0.0, 0.0]
[blocks.ball1]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 2.0
[blocks.to_weld]
type = "RigidTransform"
translation = [0.2, 0.0, 0.0]
[blocks.weld]
type = "WeldJoint"
reaction_frame = "{frame}"
[blocks.off2]
type = "RigidTransform"
translation = [0.3, 0.0, 0.0]
[blocks.ball2]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 3.0
[blocks.push2]
type = "ExternalForceTorque"
[blocks.force2]
type = "Constant"
value = [2.0, 0.0, -4.0]
[blocks.push1]
type = "ExternalForceTorque"
[blocks.force1]
type = "Constant"
value = [5.0, 0.0, -7.0]
"#
    )
}

/// The weld carries what is beyond it: force −(weight + push) = (−2, 0, 3g + 4) N and moment
/// about its origin −(0.3, 0, 0) × (2, 0, −3g − 4) = (0, −0.3·(3g + 4), 0) N·m; connected the
/// other way round (base on the outer part), the outer part's wrench on the inner one, the
/// negative (B and F coincide). The push on the inner ball does not enter. At rest and with every
/// frame aligned with the World, the three `reaction_frame`s agree. Every recorded row, welded to
/// the World (the World body's own parts) and behind a hinge (a moving body's parts, with the
/// hinge's reaction on the inner side); 1e-9 relative to the force's size (one Newton–Euler sum).
/// With the tail, the weld also carries the 1 kg ball through the second hinge: force
/// (−2, 0, 4g + 4) N, moment (0, −(0.3·(3g + 4) + 0.4·g), 0) N·m.
#[test]
fn a_welded_cantilever_carries_the_outer_weight_push_and_moment() {
    let g = 9.80665;
    for (hinged, reversed, tail) in (0..8).map(|k| (k & 1 == 1, k & 2 == 2, k & 4 == 4)) {
        let (f, n) = if tail {
            (
                Vector3::new(-2.0, 0.0, 4.0 * g + 4.0),
                Vector3::new(0.0, -(0.3 * (3.0 * g + 4.0) + 0.4 * g), 0.0),
            )
        } else {
            (
                Vector3::new(-2.0, 0.0, 3.0 * g + 4.0),
                Vector3::new(0.0, -0.3 * (3.0 * g + 4.0), 0.0),
            )
        };
        {
            for frame in ["follower", "base", "world"] {
                let text = cantilever(hinged, reversed, tail, frame);
                let r = run_text("weld_cantilever", &text);
                let rec = &r.recording;
                let sign: f64 = if reversed { -1.0 } else { 1.0 };
                assert!(rec.len() > 2);
                for i in 0..rec.len() {
                    let (got_f, got_n) = reaction(rec, "weld", i);
                    let tol = 1e-9 * f.norm();
                    let what =
                        format!("hinged {hinged} reversed {reversed} tail {tail} {frame} row {i}");
                    assert!((got_f - f * sign).norm() < tol, "{what}: {got_f}");
                    assert!((got_n - n * sign).norm() < tol, "{what}: {got_n}");
                }
            }
        }
    }
}

/// A pendulum (g = 9.81 m/s² along −y, hinge about z, from q0 = 1 rad): a 2 kg point mass at
/// l_r = 0.5 m on the arm, and a 1 kg point bob welded to the arm's end at l = 1 m. In F (which
/// turns with the arm; the bob at F's origin) the bob's acceleration is (l·q̈, l·ω², 0) and gravity
/// g·(−sin q, −cos q, 0), so the weld pulls it with m·(l·q̈ + g·sin q, l·ω² + g·cos q, 0) —
/// m·(g + l·ω²) along the arm at the bottom of the swing — and no moment (a point mass at F's
/// origin), with q̈ = −(m·l + m_r·l_r)·g·sin q / (m·l² + m_r·l_r²). In the World (`reaction_frame =
/// "world"`) the same force turned by Rz(q). Every recorded row to 1e-9·m·g (the solved dynamics
/// and one Newton–Euler sum, in floating point).
#[test]
fn a_welded_bob_carries_its_weight_and_the_centripetal_force() {
    let text = |frame: &str| {
        format!(
            r#"
connect = [
  "world.W -- hinge.B", "hinge.F -- arm.B", "arm.F -- weld.B", "weld.F -- bob.R",
  "hinge.F -- half.B", "half.F -- rod.R",
]
[model]
stop_time = 3.0
[output]
log = ["hinge.q", "hinge.w", "weld.reaction"]
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
[blocks.half]
type = "RigidTransform"
translation = [0.0, -0.5, 0.0]
[blocks.weld]
type = "WeldJoint"
reaction_frame = "{frame}"
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = 1.0
inertia = [0.0, 0.0, 0.0]
[blocks.rod]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = 2.0
inertia = [0.0, 0.0, 0.0]
"#
        )
    };
    let (m, l, m_r, l_r, g) = (1.0, 1.0, 2.0, 0.5, 9.81);
    for frame in ["follower", "base", "world"] {
        let r = run_text("welded_bob", &text(frame));
        let rec = &r.recording;
        let mut bottom_seen = false;
        for i in 0..rec.len() {
            let (q, w) = (at(rec, "hinge.q", i), at(rec, "hinge.w", i));
            let qdd = -(m * l + m_r * l_r) * g * q.sin() / (m * l * l + m_r * l_r * l_r);
            let in_f = Vector3::new(
                m * (l * qdd + g * q.sin()),
                m * (l * w * w + g * q.cos()),
                0.0,
            );
            let expected = if frame == "world" {
                Vector3::new(
                    q.cos() * in_f.x - q.sin() * in_f.y,
                    q.sin() * in_f.x + q.cos() * in_f.y,
                    0.0,
                )
            } else {
                in_f
            };
            let (f, n) = reaction(rec, "weld", i);
            let tol = 1e-9 * m * g;
            assert!(
                (f - expected).norm() < tol,
                "{frame} q = {q}: {f} vs {expected}"
            );
            assert!(n.norm() < tol, "{frame} q = {q}: n = {n}");
            bottom_seen |= q.abs() < 0.05;
        }
        assert!(bottom_seen, "the swing never passed near the bottom");
    }
}

/// Two parts joined twice — by the weld and by a RigidTransform alongside it — form a cycle of
/// rigid connections: the load's split between the two paths is statically indeterminate, so
/// reading the weld's reaction is refused, located at the weld, saying why and what to do.
/// Not reading it, the same model builds.
#[test]
fn a_weld_on_a_rigid_cycle_refuses_its_reaction() {
    let text = |log: &str| {
        format!(
            r#"
connect = [
  "world.W -- hinge.B", "hinge.F -- weld.B", "weld.F -- ball.R",
  "hinge.F -- also.B", "also.F -- ball.R",
]
[model]
stop_time = 0.1
[output]
log = [{log}]
[blocks.world]
type = "WorldFrame"
[blocks.hinge]
type = "RevoluteJoint"
[blocks.weld]
type = "WeldJoint"
[blocks.also]
type = "RigidTransform"
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 1.0
"#
        )
    };
    let e = build_error(&text("\"weld.reaction\""));
    assert!(e.contains("'weld'") || e.contains("weld:"), "{e}");
    assert!(e.contains("statically indeterminate"), "{e}");
    assert!(e.contains("cycle of rigid connections"), "{e}");
    assert!(e.contains("remove the redundant connection"), "{e}");
    assert!(e.contains("bad.toml:"), "not located: {e}");
    run_text("cycle_unread", &text("\"hinge.q\""));
}

/// A weld from the World to a 3 kg plate 0.3 m out along x, and a free 1 kg box resting on the
/// plate through a RigidContact (the review's case: a rigid contact on the World's welded body
/// made the reaction NaN). The contact's force counts on the plate's side (its geometry's frame
/// is beyond the weld), so the weld carries both weights: f = (0, 0, 4·g) and, about the weld's
/// origin, τ = −(0.3, 0, 0) × (0, 0, −4·g) = (0, −1.2·g, 0), at every row. Bound 1e-8 relative:
/// the resting contact's forces are the complementarity solve's, exact to its 1e-9 tolerance.
#[test]
fn a_rigid_contact_on_the_welded_part_counts_on_its_side() {
    let g = 9.80665;
    let text = r#"
connect = [
  "world.W -- weld.B", "weld.F -- arm.B", "arm.F -- plate.R",
  "world.W -- j.B", "j.F -- box.R", "plate.G -- c.B", "box.G -- c.F",
]
[model]
stop_time = 0.2
[output]
log = ["weld.reaction"]
[blocks.world]
type = "WorldFrame"
[blocks.weld]
type = "WeldJoint"
[blocks.arm]
type = "RigidTransform"
translation = [0.3, 0.0, 0.0]
[blocks.plate]
type = "Solid"
geometry = { shape = "brick", size = [0.2, 0.2, 0.02] }
mass = 3.0
[blocks.j]
type = "SixDofJoint"
position = [0.3, 0.0, 0.06]
[blocks.box]
type = "Solid"
geometry = { shape = "brick", size = [0.1, 0.1, 0.1] }
mass = 1.0
[blocks.c]
type = "RigidContact"
"#;
    let r = run_text("weld_contact", text);
    let rec = &r.recording;
    assert!(rec.len() > 2);
    let scale = 4.0 * g;
    for i in 0..rec.len() {
        let (f, tau) = reaction(rec, "weld", i);
        let want_f = Vector3::new(0.0, 0.0, 4.0 * g);
        let want_tau = Vector3::new(0.0, -1.2 * g, 0.0);
        assert!(
            (f - want_f).norm() < 1e-8 * scale && (tau - want_tau).norm() < 1e-8 * scale,
            "row {i}: f {f:?} τ {tau:?}"
        );
    }
}
