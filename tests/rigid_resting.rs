//! Issue 27, part 3: resting rigid contact is exact. Three 1 kg bricks stacked on the floor
//! (`tests/data/rigid/stack_of_three.toml`, RigidContact with Coulomb μ = 0.5, rel_tol 1e-8)
//! start at rest in equilibrium and must stay there: every velocity at round-off for 10 s, each
//! contact carrying the weight above it (3mg, 2mg, mg). Before the resting rows removed their
//! residual velocity (`a = −k v`), the velocities grew exponentially from 1e-16 to 3e-8 m/s
//! within 2 s.
//!
//! In memory only (`blockdyn::simulate`); nothing is written.

mod common;
use common::{column, run};

const STACK: &str = "tests/data/rigid/stack_of_three.toml";
/// Standard gravity (the model has no MechanismConfiguration) and each brick's mass (kg).
const G: f64 = 9.80665;
const MASS: f64 = 1.0;

#[test]
fn a_stack_of_three_bricks_stays_at_rest_for_ten_seconds() {
    stack_at_rest(&[]);
}

/// The same stack under trbdf2 (the review measured 1.26e-12 m/s there on an earlier main;
/// 5.1e-13 now).
#[test]
fn a_stack_of_three_bricks_stays_at_rest_under_trbdf2() {
    stack_at_rest(&["solver.method=trbdf2"]);
}

/// Runs the stack with `overrides` and checks that it stays at rest with each contact carrying
/// the weight above it.
fn stack_at_rest(overrides: &[&str]) {
    let rec = run(STACK, overrides).recording;
    let t = &rec.times;
    assert!(
        (t[t.len() - 1] - 10.0).abs() < 1e-12,
        "ended at {}",
        t[t.len() - 1]
    );
    // The closed form is 0 for every velocity. What is left is round-off of the contact
    // solve: residual accelerations below 1e-13 of the problem's scale (30 m/s² here) are not
    // refined, ~3e-12 m/s², over steps of ~0.2 s. Issue 27's bound, 1e-12 m/s and rad/s (10⁴
    // below the creep's 3e-8 m/s). Measured: 4.9e-13 rad/s (auto) and 5.1e-13 rad/s (trbdf2),
    // the top brick's roll j3.w[0]. The review measured 1.15e-12 and 1.26e-12 on an earlier
    // main, before `refine.rs::hold` was fixed to refine every sticking contact's tangents (the
    // likely cause of the drop; not bisected).
    let mut worst = (0.0f64, String::new(), 0.0);
    for j in ["j1", "j2", "j3"] {
        for (port, n) in [("v", 3), ("w", 3)] {
            for i in 0..n {
                let name = format!("{j}.{port}[{i}]");
                for (k, x) in column(&rec, &name).into_iter().enumerate() {
                    if x.abs() > worst.0 {
                        worst = (x.abs(), name.clone(), t[k]);
                    }
                }
            }
        }
    }
    assert!(
        worst.0 <= 1e-12,
        "{} reached {:e} at t = {}",
        worst.1,
        worst.0,
        worst.2
    );
    // Each contact carries the weight above it; 1e-9 relative is far above the round-off of
    // the static forces and far below any load moving between the contacts.
    for (contact, bricks) in [("c0", 3.0), ("c1", 2.0), ("c2", 1.0)] {
        let expected = bricks * MASS * G;
        for (k, f) in column(&rec, &format!("{contact}.normal_force"))
            .into_iter()
            .enumerate()
        {
            assert!(
                (f - expected).abs() <= 1e-9 * expected,
                "{contact} at t = {}: {f} N, expected {expected} N",
                t[k]
            );
        }
    }
}

/// The settle projection (`rigid/settle.rs`) removes velocities below 10⁻⁸ m/s at touching
/// frictional points after each step; a point lifting off slowly must not be held back by it
/// (issue 27, review: `creeping` does not ask for a normal force). `lifted_box.toml`: a brick
/// pulled up through its centre by F = m·g + k (t − t₀), k = 0.01 N/s, t₀ = 0.05 s, rises as
/// z = z₀ + k (t − t₀)³/(6m), and its speed stays inside the creep band for 1.4 ms after lift-off
/// (the first two steps). Each step settled would delay it by about a step (0.9 ms), z by
/// k (t − t₀)²/(2m)·0.9 ms = 4e-6 m at 1 s. Tolerance 1e-10 m: the integration's error at
/// rel_tol 1e-8 on a rise of 1.4e-3 m (measured 8e-14 m). The guard that keeps the lifting pair
/// unsettled is `RigidWorkspace::slipping` (a contact with no normal force has its friction on
/// the polygon's edge), taken from the run's own last solve, never a recorded row's.
#[test]
fn a_box_lifted_slowly_rises_as_the_force_says() {
    let rec = run("tests/data/rigid/lifted_box.toml", &["output.refine=8"]).recording;
    let (k, t0, z0) = (0.01, 0.05, 0.05);
    let z = column(&rec, "free.p[2]");
    let vz = column(&rec, "free.v[2]");
    for (i, &t) in rec.times.iter().enumerate() {
        let rise = if t > t0 {
            k * (t - t0).powi(3) / (6.0 * MASS)
        } else {
            0.0
        };
        assert!(
            (z[i] - z0 - rise).abs() <= 1e-10,
            "z({t}) = {} m, expected {} m",
            z[i],
            z0 + rise
        );
        // Never pulled back: the height does not fall (1e-15 m: round-off of z₀).
        assert!(i == 0 || z[i] >= z[i - 1] - 1e-15, "z fell at t = {t}");
        assert!(vz[i] >= -1e-12, "v_z = {} m/s at t = {t}", vz[i]);
    }
}
