//! Rigid contact (RigidContact, seed 002) against closed forms: a brick resting exactly, a stack,
//! a frictionless and a Coulomb slope, a ball bouncing to rest (the Zeno limit), Newton's cradle.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, column, event_rows, run, run_text};
use std::f64::consts::PI;

/// Standard gravity, the default of a mechanism without a MechanismConfiguration block.
const G: f64 = 9.80665;

/// A 1 kg brick 0.2 × 0.2 × 0.1 m lying on a plane turned `angle` (rad) about y, its centre on the
/// plane's normal through the origin, with the RigidContact parameters `contact`.
fn brick_on_slope(angle: f64, contact: &str, stop_time: f64) -> String {
    let (s, c) = angle.sin_cos();
    let (hs, hc) = (0.5 * angle).sin_cos();
    format!(
        r#"connect = ["world.W -- slope.B", "slope.F -- floor.R", "world.W -- free.B", "free.F -- brick.R",
  "floor.G -- contact.B", "brick.G -- contact.F", "contact.normal_force -> scope.in1"]
[model]
stop_time = {stop_time:?}
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["free.p", "free.v", "free.w", "contact.friction_force", "contact.contact"]
[blocks.world]
type = "WorldFrame"
[blocks.slope]
type = "RigidTransform"
rotation = {{ axis = [0.0, 1.0, 0.0], angle = {angle:?} }}
[blocks.floor]
type = "InfinitePlane"
[blocks.brick]
type = "Solid"
geometry = {{ shape = "brick", size = [0.2, 0.2, 0.1] }}
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [{px:?}, 0.0, {pz:?}]
orientation = [{hc:?}, 0.0, {hs:?}, 0.0]
[blocks.contact]
type = "RigidContact"
{contact}
[blocks.scope]
type = "Scope"
inputs = 1
"#,
        px = 0.05 * s,
        pz = 0.05 * c,
    )
}

/// The largest |value| of column `name`.
fn max_abs(rec: &blockdyn::output::Recording, name: &str) -> f64 {
    column(rec, name).iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// A brick placed on the floor at rest stays exactly there: the four corners are redundant rows
/// (A has rank 3), the complementarity problem still gives forces summing to m·g. Tolerance:
/// round-off (1e-12 m/s, 1e-12 relative on the force).
#[test]
fn a_resting_brick_stays_put_with_its_weight_carried() {
    let r = run_text("rest", &brick_on_slope(0.0, "", 2.0));
    let rec = &r.recording;
    assert_eq!(*r.recording.times.last().unwrap(), 2.0);
    for name in [
        "free.v[0]",
        "free.v[1]",
        "free.v[2]",
        "free.w[0]",
        "free.w[1]",
        "free.w[2]",
    ] {
        assert!(max_abs(rec, name) < 1e-12, "{name}: {}", max_abs(rec, name));
    }
    for f in column(rec, "contact.normal_force") {
        assert!((f - G).abs() < 1e-12 * G, "normal force {f}");
    }
    assert!(column(rec, "contact.contact").iter().all(|c| *c == 1.0));
}

/// Three bricks stacked on the floor: the contacts carry 3mg, 2mg and mg (to 1e-9 relative: the
/// complementarity tolerance), and the stack neither sinks nor creeps (1e-7 m over 2 s).
#[test]
fn a_stack_of_three_bricks_carries_3mg_2mg_mg() {
    let mut text = String::from(
        r#"connect = ["world.W -- floor.R",
  "world.W -- j1.B", "j1.F -- b1.R", "world.W -- j2.B", "j2.F -- b2.R", "world.W -- j3.B", "j3.F -- b3.R",
  "floor.G -- c0.B", "b1.G -- c0.F", "b1.G -- c1.B", "b2.G -- c1.F", "b2.G -- c2.B", "b3.G -- c2.F",
  "c0.normal_force -> scope.in1", "c1.normal_force -> scope.in2", "c2.normal_force -> scope.in3"]
[model]
stop_time = 2.0
[output]
log = ["j1.p", "j2.p", "j3.p"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.scope]
type = "Scope"
inputs = 3
"#,
    );
    for i in 1..=3 {
        text += &format!(
            "[blocks.b{i}]\ntype = \"Solid\"\ngeometry = {{ shape = \"brick\", size = [0.2, 0.2, 0.1] }}\nmass = 1.0\n[blocks.j{i}]\ntype = \"SixDofJoint\"\nposition = [0.0, 0.0, {:?}]\n[blocks.c{}]\ntype = \"RigidContact\"\n",
            0.05 + 0.1 * (i - 1) as f64,
            i - 1
        );
    }
    let r = run_text("stack", &text);
    let rec = &r.recording;
    for (contact, load) in [("c0", 3.0), ("c1", 2.0), ("c2", 1.0)] {
        for f in column(rec, &format!("{contact}.normal_force")) {
            assert!((f - load * G).abs() < 1e-9 * load * G, "{contact}: {f}");
        }
    }
    for (i, z0) in [(1, 0.05), (2, 0.15), (3, 0.25)] {
        let last = rec.len() - 1;
        let p = [0, 1, 2].map(|k| at(rec, &format!("j{i}.p[{k}]"), last));
        let drift = (p[0].powi(2) + p[1].powi(2) + (p[2] - z0).powi(2)).sqrt();
        assert!(drift < 1e-7, "brick {i} moved {drift} m");
    }
}

/// A frictionless 30° slope: the brick slides with a = g·sin θ exactly and presses with m·g·cos θ
/// (1e-9 relative: integration at rel_tol 1e-8 of a motion that is exactly quadratic).
#[test]
fn a_frictionless_slope_gives_g_sin_theta() {
    let theta = PI / 6.0;
    let r = run_text("slope", &brick_on_slope(theta, "restitution = 0.0", 1.0));
    let rec = &r.recording;
    let last = rec.len() - 1;
    let v = [0, 1, 2].map(|k| at(rec, &format!("free.v[{k}]"), last));
    let along = v[0] * theta.cos() - v[2] * theta.sin();
    let off = v[0] * theta.sin() + v[2] * theta.cos();
    assert!(
        (along - G * theta.sin()).abs() < 1e-9 * G,
        "v along {along}"
    );
    assert!(off.abs() < 1e-9, "v off the slope {off}");
    for f in column(rec, "contact.normal_force") {
        assert!((f - G * theta.cos()).abs() < 1e-9 * G, "normal force {f}");
    }
}

/// Coulomb friction on the 30° slope (tan θ = 0.577): μ = 0.7 holds the brick exactly, with a
/// friction force m·g·sin θ below μ·N; μ = 0.3 slides at g(sin θ − μ cos θ). Tolerances as above.
#[test]
fn coulomb_friction_holds_above_tan_theta_and_slides_below() {
    let theta = PI / 6.0;
    let stick = run_text(
        "stick",
        &brick_on_slope(
            theta,
            r#"friction = { method = "coulomb", coefficient = 0.7 }"#,
            1.0,
        ),
    );
    let rec = &stick.recording;
    for name in ["free.v[0]", "free.v[1]", "free.v[2]"] {
        assert!(max_abs(rec, name) < 1e-12, "{name}: {}", max_abs(rec, name));
    }
    for f in column(rec, "contact.friction_force") {
        assert!((f - G * theta.sin()).abs() < 1e-9 * G, "friction {f}");
    }
    let mu = 0.3;
    let slip = run_text(
        "slip",
        &brick_on_slope(
            theta,
            r#"friction = { method = "coulomb", coefficient = 0.3 }"#,
            1.0,
        ),
    );
    let rec = &slip.recording;
    let last = rec.len() - 1;
    let v = [0, 2].map(|k| at(rec, &format!("free.v[{k}]"), last));
    let along = v[0] * theta.cos() - v[1] * theta.sin();
    let expected = G * (theta.sin() - mu * theta.cos());
    assert!((along - expected).abs() < 1e-9 * G, "{along} vs {expected}");
    let friction = at(rec, "contact.friction_force", last);
    assert!((friction - mu * G * theta.cos()).abs() < 1e-9 * G);
}

/// models/ball_to_rest.toml: e = 0.8 from h0 = 1 m. Each impact leaves with e times the speed it
/// arrived with (1e-9 relative: the impulse is exact, the arrival speed is integrated free
/// flight), so the apexes are h0·e^(2k); the impacts slower than rest_velocity are plastic and the
/// ball rests from then on, at the time the geometric series predicts (1e-9 s), close to
/// t∞ = t1(1 + e)/(1 − e) (the series stopped after finitely many bounces: 0.1 % here); the run
/// goes on without a chattering error.
#[test]
fn a_ball_with_e_08_bounces_to_rest_at_the_zeno_limit() {
    let (e, h0, rest_velocity): (f64, f64, f64) = (0.8, 1.0, 1e-3);
    let r = run("models/ball_to_rest.toml", &[]);
    let rec = &r.recording;
    assert_eq!(*rec.times.last().unwrap(), 5.0);
    let events = event_rows(rec);
    let v1 = (2.0 * G * h0).sqrt();
    let t1 = v1 / G;
    // Bounces with e·v above rest_velocity: v_k = v1·e^k arrives at the k-th impact (k from 0).
    let bounces = (0..)
        .take_while(|k| v1 * e.powi(*k) > rest_velocity)
        .count();
    assert_eq!(
        events.len(),
        bounces + 1,
        "one event per impact, the last one plastic"
    );
    let mut t_predicted = t1;
    for (k, &i) in events.iter().enumerate() {
        let before = at(rec, "free.v[2]", i - 1);
        let after = at(rec, "free.v[2]", i);
        let arrival = v1 * e.powi(k as i32);
        assert!(
            (before + arrival).abs() < 1e-9 * v1,
            "impact {k}: arrives at {before}"
        );
        let expected_after = if arrival > rest_velocity {
            e * arrival
        } else {
            0.0
        };
        assert!(
            (after - expected_after).abs() < 1e-9 * v1,
            "impact {k}: leaves at {after}"
        );
        let apex = after * after / (2.0 * G);
        if expected_after > 0.0 {
            assert!((apex - h0 * e.powi(2 * (k as i32 + 1))).abs() < 1e-8);
        }
        assert!(
            (rec.times[i] - t_predicted).abs() < 1e-9,
            "impact {k} at {}",
            rec.times[i]
        );
        t_predicted += 2.0 * expected_after / G;
    }
    let t_rest = rec.times[*events.last().unwrap()];
    let t_zeno = t1 * (1.0 + e) / (1.0 - e);
    assert!(
        (t_rest - t_zeno).abs() < 1e-3 * t_zeno,
        "rest at {t_rest}, t∞ = {t_zeno}"
    );
    let last = rec.len() - 1;
    assert_eq!(at(rec, "contact.contact", last), 1.0);
    assert!((at(rec, "contact.normal_force", last) - G).abs() < 1e-12 * G);
    assert!((at(rec, "free.p[2]", last) - 0.1).abs() < 1e-9);
}

/// The energy of a cradle ball: m·g·L(1 − cos q) + ½(m L² + 2/5 m r²)·w².
fn cradle_energy(rec: &blockdyn::output::Recording, i: usize) -> f64 {
    let (m, l, r) = (0.2, 1.0, 0.05);
    (0..5)
        .map(|b| {
            let q = at(rec, &format!("hinge{b}.q"), i);
            let w = at(rec, &format!("hinge{b}.w"), i);
            m * G * l * (1.0 - q.cos()) + 0.5 * (m * l * l + 0.4 * m * r * r) * w * w
        })
        .sum()
}

/// models/newtons_cradle.toml (e = 1, serial impacts): at the first impact the first ball stops
/// and the last leaves with its angular velocity; momentum (Σ m L w) and energy are the same
/// before and after (1e-9 relative), and the energy never rises over the run (frictionless,
/// e = 1: 1e-7 relative, the integration tolerance over 3 s).
#[test]
fn newtons_cradle_passes_the_velocity_to_the_last_ball() {
    let r = run("models/newtons_cradle.toml", &[]);
    let rec = &r.recording;
    let events = event_rows(rec);
    assert!(!events.is_empty());
    let i = events[0];
    let w_before = at(rec, "hinge0.w", i - 1);
    assert!(w_before > 0.5);
    assert!(at(rec, "hinge0.w", i).abs() < 1e-9 * w_before);
    for b in 1..4 {
        assert!(at(rec, &format!("hinge{b}.w"), i).abs() < 1e-9 * w_before);
    }
    assert!((at(rec, "hinge4.w", i) - w_before).abs() < 1e-9 * w_before);
    let momentum =
        |row: usize| -> f64 { (0..5).map(|b| at(rec, &format!("hinge{b}.w"), row)).sum() };
    assert!((momentum(i) - momentum(i - 1)).abs() < 1e-9 * w_before);
    let e0 = cradle_energy(rec, 0);
    assert!((cradle_energy(rec, i) - cradle_energy(rec, i - 1)).abs() < 1e-9 * e0);
    let highest = (0..rec.len())
        .map(|k| cradle_energy(rec, k))
        .fold(0.0, f64::max);
    assert!(
        highest <= e0 * (1.0 + 1e-7),
        "energy rose to {highest} from {e0}"
    );
    // The last ball swings out to the first ball's release angle.
    let q4_max = column(rec, "hinge4.q").into_iter().fold(0.0, f64::max);
    assert!(
        (q4_max - 0.3).abs() < 2e-3,
        "last ball rose to {q4_max} rad"
    );
}

/// models/box_stack_rigid.toml: three bricks dropped onto each other with e = 0.3 and μ = 0.5
/// land, bounce and rest with contact forces 3mg, 2mg, mg (1e-9 relative), each brick's centre
/// at its resting height within the contact distance (1e-7 m).
#[test]
fn a_dropped_rigid_stack_settles_to_3mg_2mg_mg() {
    let r = run("models/box_stack_rigid.toml", &[]);
    let rec = &r.recording;
    let last = rec.len() - 1;
    for (contact, load) in [("c0", 3.0), ("c1", 2.0), ("c2", 1.0)] {
        let f = at(rec, &format!("{contact}.normal_force"), last);
        assert!((f - load * G).abs() < 1e-9 * load * G, "{contact}: {f}");
    }
    for (i, z) in [(1, 0.05), (2, 0.15), (3, 0.25)] {
        let height = at(rec, &format!("j{i}.p[2]"), last);
        assert!((height - z).abs() < 1.5e-7, "brick {i} at {height}");
    }
}

/// The planar blocks of models/contactsim_blocks.toml: (name, width, height) in m, density 500
/// kg/m³, depth 0.2 m.
const CONTACTSIM_BLOCKS: [(&str, f64, f64); 3] = [
    ("block1", 0.6, 0.3),
    ("block2", 0.4, 0.4),
    ("block3", 0.2, 0.8),
];

/// models/contactsim_blocks.toml (frictionless, e = 0.2): no pair ever penetrates by more than
/// 1e-6 m (the contract; every separation is logged), and the total energy never rises (impacts
/// with e < 1 and frictionless resting contacts do no positive work: 1e-6 relative, the
/// integration tolerance over the run).
#[test]
fn contactsim_blocks_never_penetrate_and_never_gain_energy() {
    let text = std::fs::read_to_string("models/contactsim_blocks.toml").unwrap();
    let pairs: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[blocks.c_"))
        .map(|l| format!("c_{}", l.trim_end_matches(']')))
        .collect();
    assert_eq!(pairs.len(), 12);
    let mut log: Vec<String> = pairs
        .iter()
        .map(|p| format!("\"{p}.separation\""))
        .collect();
    for (b, _, _) in CONTACTSIM_BLOCKS {
        log.push(format!("\"{b}_joint.q\""));
        log.push(format!("\"{b}_joint.w\""));
    }
    let set = format!("output.log=[{}]", log.join(", "));
    let r = run("models/contactsim_blocks.toml", &[&set]);
    let rec = &r.recording;
    assert_eq!(*rec.times.last().unwrap(), 3.0);
    for p in &pairs {
        let deepest = column(rec, &format!("{p}.separation"))
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        assert!(deepest >= -1e-6, "{p} penetrated {deepest} m");
    }
    let energy = |i: usize| -> f64 {
        CONTACTSIM_BLOCKS
            .iter()
            .map(|(b, w, h)| {
                let m = 500.0 * w * h * 0.2;
                let inertia = m * (w * w + h * h) / 12.0;
                let y = at(rec, &format!("{b}_joint.q[1]"), i);
                let v = [0, 1, 2].map(|k| at(rec, &format!("{b}_joint.w[{k}]"), i));
                m * G * y + 0.5 * m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * inertia * v[2] * v[2]
            })
            .sum()
    };
    let e0 = energy(0);
    let mut previous = e0;
    for i in 1..rec.len() {
        let e = energy(i);
        assert!(
            e <= previous + 1e-6 * e0,
            "energy rose at t = {}: {e} > {previous}",
            rec.times[i]
        );
        previous = e;
    }
}

/// The same cradle with `impacts = "simultaneous"`: one impulse problem over the four touching
/// pairs. Newton's law on the striking pair (v₂ − v₁ = e·v, e = 1) with the other pairs kept
/// closed (v₂ = v₃ = v₄ = v₅) and momentum gives v₁ = −0.6·v, v₂..₅ = 0.4·v (and kinetic energy
/// 0.36 + 4·0.16 = 1 of the original): checked to 1e-9 relative.
#[test]
fn simultaneous_impacts_move_the_touching_balls_together() {
    let sets: Vec<String> = (0..4)
        .map(|k| format!("hit{k}.impacts=\"simultaneous\""))
        .collect();
    let sets: Vec<&str> = sets.iter().map(|s| s.as_str()).collect();
    let r = run("models/newtons_cradle.toml", &sets);
    let rec = &r.recording;
    let i = event_rows(rec)[0];
    let v = at(rec, "hinge0.w", i - 1);
    assert!((at(rec, "hinge0.w", i) + 0.6 * v).abs() < 1e-9 * v);
    for b in 1..5 {
        let w = at(rec, &format!("hinge{b}.w"), i);
        assert!((w - 0.4 * v).abs() < 1e-9 * v, "ball {b}: {w}");
    }
}

/// A brick dropped on its corner with friction (e = 0.3, μ = 0.5): whenever the pair is not in
/// resting contact its forces are zero (no force of an earlier evaluation is reported), it never
/// penetrates by more than 1e-6 m, and it ends resting with N = m·g (1e-9 relative).
#[test]
fn forces_are_reported_only_while_resting() {
    let text = r#"connect = [
  "world.W -- floor.R", "world.W -- j.B", "j.F -- b.R",
  "floor.G -- c.B", "b.G -- c.F",
]
[model]
name = "box_corner"
stop_time = 3.0
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["j.p", "j.v", "j.w", "j.Q", "c.normal_force", "c.friction_force", "c.separation", "c.contact", "c.impulse"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.b]
type = "Solid"
geometry = { shape = "brick", size = [0.2, 0.2, 0.1] }
mass = 1.0
[blocks.j]
type = "SixDofJoint"
position = [0.0, 0.0, 0.3278713684417443]
orientation = [0.9393727128473789, 0.2371873730449, -0.2371873730449, 0.07115621191346999]
velocity = [0.3, 0.0, 0.0]
[blocks.c]
type = "RigidContact"
restitution = 0.3
friction = { method = "coulomb", coefficient = 0.5 }
"#;
    let r = run_text("box_corner", text);
    let rec = &r.recording;
    for i in 0..rec.len() {
        if at(rec, "c.contact", i) == 0.0 {
            assert_eq!(at(rec, "c.normal_force", i), 0.0, "t = {}", rec.times[i]);
            assert_eq!(at(rec, "c.friction_force", i), 0.0, "t = {}", rec.times[i]);
        }
        assert!(at(rec, "c.separation", i) >= -1e-6);
    }
    let last = rec.len() - 1;
    assert!((at(rec, "c.normal_force", last) - G).abs() < 1e-9 * G);
}

/// A ball rolling on a rigid floor with Coulomb friction at ω = 20 rad/s (R·ω² = 40 m/s² > g):
/// the contact follows the ball's centre, not the material point sliding over its surface, so it
/// presses with m·g exactly (1e-9 relative) and keeps rolling (v = ω·R) without leaving the floor.
#[test]
fn a_fast_rolling_ball_stays_on_the_floor_with_its_weight() {
    let text = r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R", "floor.G -- c.B", "ball.G -- c.F"]
[model]
stop_time = 1.0
[output]
log = ["c.normal_force", "free.v", "free.w", "c.contact"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.1]
velocity = [2.0, 0.0, 0.0]
angular_velocity = [0.0, 20.0, 0.0]
[blocks.c]
type = "RigidContact"
friction = { method = "coulomb", coefficient = 0.5 }
"#;
    let r = run_text("roll", text);
    let rec = &r.recording;
    for i in 0..rec.len() {
        assert_eq!(
            at(rec, "c.contact", i),
            1.0,
            "left the floor at t = {}",
            rec.times[i]
        );
        assert!((at(rec, "c.normal_force", i) - G).abs() < 1e-9 * G);
        assert!((at(rec, "free.v[0]", i) - 2.0).abs() < 1e-9);
    }
}

/// A frictionless ball sliding down a fixed ball from θ0 = 0.05 rad leaves it where the normal
/// force vanishes, cos θ = (2/3)·cos θ0 (energy and the centripetal balance of a point mass on a
/// circle of radius R1 + R2). Lift-off is a located event (the contact's normal acceleration
/// leaving zero), so the angle is read at that event's row: 1e-8 relative on cos θ (the state's
/// error at rel_tol 1e-9 over 0.5 s, and the location tolerance).
#[test]
fn a_ball_leaves_a_ball_where_the_normal_force_vanishes() {
    let text = r#"connect = [
  "world.W -- base.R", "world.W -- j.B", "j.F -- top.R",
  "base.G -- c.B", "top.G -- c.F",
]
[model]
name = "sos"
stop_time = 1.5
[solver]
rel_tol = 1e-9
abs_tol = 1e-12
[output]
log = ["j.p", "j.v", "c.normal_force", "c.separation", "c.contact", "c.impulse"]
[blocks.world]
type = "WorldFrame"
[blocks.base]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.top]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.j]
type = "SixDofJoint"
position = [0.009995833854135666, 0.0, 0.19975005207899327]
[blocks.c]
type = "RigidContact"
restitution = 0.0
"#;
    let r = run_text("sos", text);
    let rec = &r.recording;
    let events = event_rows(rec);
    assert_eq!(events.len(), 1, "one event: the lift-off");
    let left = events[0];
    let (x, z) = (at(rec, "j.p[0]", left), at(rec, "j.p[2]", left));
    let cos = z / x.hypot(z);
    let expected = 2.0 / 3.0 * 0.05f64.cos();
    assert!(
        (cos - expected).abs() < 1e-8 * expected,
        "left at cos θ = {cos}, expected {expected}"
    );
}

/// models/box_on_incline.toml (a 1 kg cube whose eight corners are a PointCloud) with its
/// penalty contact replaced by a RigidContact with `contact` parameters, its plot removed, and
/// each `(from, to)` of `edits` applied to the text.
fn cloud_cube(contact: &str, edits: &[(&str, &str)]) -> String {
    let text = std::fs::read_to_string("models/box_on_incline.toml").expect("the model");
    let start = text.find("[blocks.contact]").expect("its contact block");
    let rest = &text[start..];
    let scope = rest.find("[blocks.scope]").map_or("", |i| &rest[i..]);
    let mut text = format!(
        "{}[blocks.contact]\ntype = \"RigidContact\"\n{contact}\n{scope}",
        &text[..start]
    )
    .replace("plot = \"box_on_incline.png\"\n", "");
    for (from, to) in edits {
        assert!(text.contains(from), "box_on_incline.toml has no '{from}'");
        text = text.replace(from, to);
    }
    text
}

/// The cube of models/box_on_incline.toml (1 kg, 0.2 m, its eight corners a PointCloud) in rigid
/// contact on the 30° slope (gravity tilted) with Coulomb μ = 0.3, from rest: it slides at
/// a = g (sin 30° − μ cos 30°) exactly, so x(1 s) = a/2. Per-point outputs (1×8, the cloud's
/// order): the four bottom corners rest and carry m·g·cos 30° between them, the top four are
/// 0.2 m away and carry nothing. Tolerances: 1e-7 relative on x (rel_tol 1e-9 over 1 s), 1e-9
/// relative on the force sum (round-off of the solve).
#[test]
fn a_point_cloud_cube_slides_down_a_coulomb_slope_per_point() {
    let text = cloud_cube(
        "restitution = 0.0\nfriction = { method = \"coulomb\", coefficient = 0.3 }",
        &[
            ("position = [0.0, 0.0, 0.0999787607]", "position = [0.0, 0.0, 0.1]"),
            ("rel_tol = 1e-6", "rel_tol = 1e-9"),
            (
                "log = [\"contact.normal_force\"]",
                "log = [\"contact.normal_force\", \"contact.contact\", \"contact.separation\", \"free.p\"]",
            ),
        ],
    );
    let r = run_text("cloud_slope", &text);
    let rec = &r.recording;
    let last = rec.len() - 1;
    let (gx, gz) = (4.905, 8.4957092111);
    let a = gx - 0.3 * gz;
    let x = at(rec, "free.p[0]", last);
    assert!(
        (x - 0.5 * a).abs() < 1e-7 * 0.5 * a,
        "x(1) = {x}, expected {}",
        0.5 * a
    );
    let (mut total, mut resting) = (0.0, 0);
    for i in 0..8 {
        let bottom = i % 2 == 0;
        let f = at(rec, &format!("contact.normal_force[{i}]"), last);
        let c = at(rec, &format!("contact.contact[{i}]"), last);
        let s = at(rec, &format!("contact.separation[{i}]"), last);
        total += f;
        if bottom {
            resting += c as usize;
            assert!(s.abs() < 1e-9, "bottom corner {i} at {s} m");
        } else {
            assert_eq!((f, c), (0.0, 0.0), "top corner {i}");
            assert!((s - 0.2).abs() < 1e-9, "top corner {i} at {s} m");
        }
    }
    assert_eq!(resting, 4);
    assert!(
        (total - gz).abs() < 1e-9 * gz,
        "normal forces sum to {total}"
    );
}

/// A point cloud larger than rigid contact takes is refused at the block, with the limit and
/// what to use instead.
#[test]
fn a_large_point_cloud_is_refused_with_the_limit() {
    let points: Vec<String> = (0..65)
        .map(|i| format!("[{:?}, 0.0, -0.1]", i as f64 * 0.001))
        .collect();
    let text = format!(
        r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- cloud.R", "free.F -- body.R",
  "floor.G -- c.B", "cloud.G -- c.F"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.body]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.1 }}
mass = 1.0
[blocks.free]
type = "SixDofJoint"
[blocks.cloud]
type = "PointCloud"
points = [{}]
[blocks.c]
type = "RigidContact"
"#,
        points.join(", ")
    );
    let e = common::build_error(&text);
    assert!(
        e.contains("65 points") && e.contains("at most 64") && e.contains("SpatialContactForce"),
        "{e}"
    );
}

/// The same eight-corner cloud cube dropped flat from 5 cm onto level ground with e = 0.5: its
/// four bottom corners strike together (one impulse problem for the pair) and it leaves at
/// v⁺ = e·√(2 g h), with no spin. Tolerance 1e-8 relative (the event's location and the state
/// error at rel_tol 1e-10).
#[test]
fn a_dropped_point_cloud_cube_rebounds_with_newtons_restitution() {
    let h = 0.05;
    let position = format!("position = [0.0, 0.0, {:?}]", 0.1 + h);
    let text = cloud_cube(
        "restitution = 0.5",
        &[
            (
                "gravity = [4.9050000000, 0.0, -8.4957092111]",
                "gravity = [0.0, 0.0, -9.80665]",
            ),
            ("position = [0.0, 0.0, 0.0999787607]", &position),
            ("rel_tol = 1e-6", "rel_tol = 1e-10"),
            ("stop_time = 1.0", "stop_time = 0.12"),
            (
                "log = [\"contact.normal_force\"]",
                "log = [\"free.v\", \"free.w\", \"contact.impulse\"]",
            ),
        ],
    );
    let r = run_text("cloud_drop", &text);
    let rec = &r.recording;
    let events = event_rows(rec);
    assert!(!events.is_empty(), "no impact");
    let after = events[0];
    let v_before = (2.0 * G * h).sqrt();
    let v_after = at(rec, "free.v[2]", after);
    assert!(
        (v_after - 0.5 * v_before).abs() < 1e-8 * v_before,
        "v⁺ = {v_after}, expected {}",
        0.5 * v_before
    );
    let impulse = at(rec, "contact.impulse", after);
    assert!(
        (impulse - 1.5 * v_before).abs() < 1e-8 * v_before,
        "impulse {impulse}"
    );
    for k in 0..3 {
        assert!(at(rec, &format!("free.w[{k}]"), after).abs() < 1e-9);
    }
}
