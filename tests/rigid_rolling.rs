//! A sphere rolling on a Coulomb floor while it spins about the vertical (RigidContact): the
//! contact corpus's seed 64 (`tests/data/stalls/rigid_sphere_slide_spin_64.toml`) stalled here
//! once its slip stopped. The sticking tangent rows held the *material* point's acceleration at
//! zero, which for a sphere is not the slip's: its centripetal `ω×(ω×r)` has the tangential part
//! `−R ω_z ω⊥`, so the rows pushed the rolling sphere into slipping at `R ω_z |ω⊥|` (here
//! 0.02·5·5 = 0.5 m/s²), the slip switched to sliding, friction stopped it, and so on.
//!
//! Closed form: rolling without slip with any spin about the normal is a free motion of a sphere
//! (`v`, `ω` constant, no friction, normal force `m g`). In memory only; nothing is written.

mod common;
use common::{column, event_rows, run_text};

/// Standard gravity (no MechanismConfiguration block).
const G: f64 = 9.80665;
const MASS: f64 = 0.1;
const RADIUS: f64 = 0.02;
/// Rolling speed along World x (m/s) and spin about the vertical (rad/s).
const SPEED: f64 = 0.1;
const SPIN: f64 = 5.0;

fn model() -> String {
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R",
  "floor.G -- c.B", "ball.G -- c.F"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["free.v", "free.w", "c.normal_force", "c.friction_force"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = {RADIUS:?} }}
mass = {MASS:?}
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, {RADIUS:?}]
velocity = [{SPEED:?}, 0.0, 0.0]
angular_velocity = [0.0, {roll:?}, {SPIN:?}]
[blocks.c]
type = "RigidContact"
restitution = 0.0
friction = {{ method = "coulomb", coefficient = 0.5 }}
"#,
        roll = SPEED / RADIUS,
    )
}

#[test]
fn a_sphere_rolls_and_spins_freely_without_friction() {
    let r = run_text("rolling", &model());
    let rec = &r.recording;
    // No stick–slip events: the contact sticks throughout.
    assert!(event_rows(rec).is_empty(), "mode events at {:?}", {
        event_rows(rec)
            .iter()
            .map(|&i| rec.times[i])
            .collect::<Vec<_>>()
    });
    // 1e-9 (m/s, rad/s, relative on forces): the integration error at rel_tol 1e-8 of a motion
    // whose closed form has every derivative zero is round-off; the bug made 0.5 m/s² of slip.
    let v = [
        column(rec, "free.v[0]"),
        column(rec, "free.v[1]"),
        column(rec, "free.v[2]"),
    ];
    let w = [
        column(rec, "free.w[0]"),
        column(rec, "free.w[1]"),
        column(rec, "free.w[2]"),
    ];
    let spin_rate = (SPEED / RADIUS).hypot(SPIN);
    for i in 0..rec.len() {
        let t = rec.times[i];
        assert!(
            (v[0][i] - SPEED).abs() <= 1e-9 && v[1][i].abs() <= 1e-9 && v[2][i].abs() <= 1e-9,
            "v = ({}, {}, {}) at t = {t}",
            v[0][i],
            v[1][i],
            v[2][i]
        );
        // ω is resolved in the ball's frame (it turns), so its magnitude is what stays.
        let w_norm = (w[0][i].powi(2) + w[1][i].powi(2) + w[2][i].powi(2)).sqrt();
        assert!(
            (w_norm - spin_rate).abs() <= 1e-9 * spin_rate,
            "|ω| = {w_norm} at t = {t}"
        );
    }
    let weight = MASS * G;
    for (k, (n, f)) in column(rec, "c.normal_force")
        .into_iter()
        .zip(column(rec, "c.friction_force"))
        .enumerate()
    {
        let t = rec.times[k];
        assert!(
            (n - weight).abs() <= 1e-9 * weight,
            "normal force {n} N at t = {t}"
        );
        assert!(f.abs() <= 1e-9 * weight, "friction {f} N at t = {t}");
    }
}
