//! RigidContact's `resultant_point` with friction (issue 27, part 5): the point lies on the central
//! axis of the normal forces, where it meets the contact surface (the centre of pressure), as
//! SpatialContactForce's does, not on the axis of the total force (which friction tilts).
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{column, run_text};

/// Standard gravity, the default of a mechanism without a MechanismConfiguration block.
const G: f64 = 9.80665;
/// The brick's mass (kg) and size (m): 0.2 × 0.2 × 0.1, its centre 0.05 m above the table.
const MASS: f64 = 1.0;
const HALF_HEIGHT: f64 = 0.05;
/// Coulomb's μ: the pushes below stay under μ·m·g = 7.85 N, so the brick sticks.
const MU: f64 = 0.8;

/// A brick resting on a table (an InfinitePlane, z = 0) with Coulomb friction, pushed by the
/// constant horizontal World force `push` (N) applied on the vertical line through its centre, at
/// `push_height` (m) above the table.
fn pushed_brick(push: [f64; 2], push_height: f64) -> String {
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- brick.R",
  "free.F -- lever.B", "lever.F -- push.R", "force.out -> push.force",
  "floor.G -- contact.B", "brick.G -- contact.F"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["free.p", "free.v", "free.w", "contact.contact", "contact.resultant_force",
  "contact.resultant_torque", "contact.resultant_point"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.brick]
type = "Solid"
geometry = {{ shape = "brick", size = [0.2, 0.2, {height:?}] }}
mass = {MASS:?}
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, {HALF_HEIGHT:?}]
[blocks.lever]
type = "RigidTransform"
translation = [0.0, 0.0, {lever:?}]
[blocks.push]
type = "ExternalForceTorque"
resolved_in = "world"
[blocks.force]
type = "Constant"
value = [{fx:?}, {fy:?}, 0.0]
[blocks.contact]
type = "RigidContact"
friction = {{ method = "coulomb", coefficient = {MU:?} }}
"#,
        height = 2.0 * HALF_HEIGHT,
        lever = push_height - HALF_HEIGHT,
        fx = push[0],
        fy = push[1],
    )
}

/// Checks the pushed brick's resultant over a 1 s run against the closed form.
///
/// Closed form (quasi-static, exact while the brick sticks): a horizontal force F_t applied at
/// height h above the table on the vertical line through the centre of mass is balanced by the
/// friction −F_t, which acts in the table's plane, and the normal forces, whose sum is N = m·g.
/// Moments about the point O of the table below the centre: the push gives (0, 0, h) × F_t, the
/// weight none (it acts along the vertical through O), the friction none (it lies in the table's
/// plane, through O's height), and the normal forces N·ẑ at their centre of pressure c give
/// c × N·ẑ. Their sum vanishes: c = F_t·h/(m·g), from O towards the push's direction (the
/// leading edge carries more). The central axis of the normal forces is the vertical through c,
/// and it meets the table at (c, 0): that is `resultant_point`. About it the resultant's torque is
/// zero, and its force is (−F_t, m·g).
///
/// Tolerances: the point 1e-9 m (issue 27's bound; the solve's round-off is ~1e-15 m), the force
/// and torque 1e-9 (N, N·m), the brick's velocities 1e-9 (it sticks).
fn check_centre_of_pressure(push: [f64; 2], push_height: f64) {
    let r = run_text("pushed", &pushed_brick(push, push_height));
    let rec = &r.recording;
    assert_eq!(*rec.times.last().unwrap(), 1.0);
    let weight = MASS * G;
    let expected_point = [
        push[0] * push_height / weight,
        push[1] * push_height / weight,
        0.0,
    ];
    let expected_force = [-push[0], -push[1], weight];
    let rows = rec.times.len();
    assert!(rows > 2, "{rows} rows");
    for (name, expected, tol) in [
        ("contact.resultant_point", expected_point, 1e-9),
        ("contact.resultant_force", expected_force, 1e-9),
        ("contact.resultant_torque", [0.0; 3], 1e-9),
        ("free.v", [0.0; 3], 1e-9),
        ("free.w", [0.0; 3], 1e-9),
    ] {
        for (k, e) in expected.iter().enumerate() {
            let col = format!("{name}[{k}]");
            for (i, x) in column(rec, &col).iter().enumerate() {
                assert!(
                    (x - e).abs() <= tol,
                    "{col} at t = {}: {x:e}, expected {e:e} (push {push:?} at {push_height} m)",
                    rec.times[i]
                );
            }
        }
    }
    for c in column(rec, "contact.contact") {
        assert_eq!(c, 1.0);
    }
}

/// Pushed at its centre of mass (h = 0.05 m) along x with 2 N: the centre of pressure is
/// F·h/(m·g) = 0.0101972 m ahead of the centre, on the table.
#[test]
fn a_brick_pushed_at_its_centre_has_its_resultant_at_the_centre_of_pressure() {
    check_centre_of_pressure([2.0, 0.0], HALF_HEIGHT);
}

/// Pushed near its top (h = 0.09 m) obliquely with (3, −2) N: the centre of pressure moves along
/// the push, F_t·h/(m·g) = (0.0275326, −0.0183551) m, on the table.
#[test]
fn a_brick_pushed_obliquely_near_its_top_has_its_resultant_at_the_centre_of_pressure() {
    check_centre_of_pressure([3.0, -2.0], 0.09);
}

/// Without a push the centre of pressure is the centre of the face, on the table.
#[test]
fn an_unpushed_brick_has_its_resultant_below_its_centre() {
    check_centre_of_pressure([0.0, 0.0], HALF_HEIGHT);
}
