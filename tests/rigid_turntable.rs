//! Issue 27's turntable (`tests/data/rigid/turntable.toml`): a 20 kg disk on a revolute joint
//! spun up by a constant 20 N·m torque, a 1 kg brick resting on it 0.2 m from the axis,
//! RigidContact with Coulomb μ = 0.5, rel_tol 1e-8. Before the lexicographic Lemke solver with
//! its fallbacks, the run aborted while the brick was still stuck (at t ≈ 0.378 s under trbdf2,
//! 0.375 s under esdirk43, 0.009 s with the brick 5 cm off the x axis) with "constraint solver
//! gave up after 402 pivots (cycling on a degenerate problem)".
//!
//! Checked while the brick sticks (until 0.58 s; slip starts where μ·g = r·√(α² + ω⁴), at about
//! 0.61 s — what happens after slip is the part 2), under the default method and trbdf2,
//! against closed forms anyone can compute: the table turns at the constant rate α = ω(t)/t, the
//! brick turns with it, the normal force is m·g and the friction force is the brick's mass times
//! its centre's acceleration, m·r·√(α² + ω⁴).
//!
//! Through slip (issue 27, part 2): slip starts where μ·g = r·√(α² + ω⁴) under every method, the
//! brick never turns faster than the table after it, and each sliding point's friction is μ
//! times its normal force.
//!
//! In memory only (`blockdyn::simulate`); nothing is written.

mod common;
use common::{column, run, run_text, same_run_at_refine_1_and_8, same_run_with_samples};

const MODEL: &str = "tests/data/rigid/turntable.toml";
/// Standard gravity (the model has no MechanismConfiguration).
const G: f64 = 9.80665;
/// The brick's mass (kg) and its centre's distance from the axis (m).
const MASS: f64 = 1.0;
const RADIUS: f64 = 0.2;

fn check_sticking_run(method: Option<&str>) {
    let set_method = method.map(|m| format!("solver.method=\"{m}\""));
    let mut overrides = vec!["model.stop_time=0.58"];
    if let Some(s) = &set_method {
        overrides.push(s);
    }
    let rec = run(MODEL, &overrides).recording;
    let t = rec.times.clone();
    let table = column(&rec, "spin.w");
    let brick = column(&rec, "free.w[2]");
    let normal = column(&rec, "contact.normal_force");
    let friction = column(&rec, "contact.friction_force");
    let last = t.len() - 1;
    assert!(
        (t[last] - 0.58).abs() < 1e-12,
        "{method:?}: ended at {}",
        t[last]
    );
    let alpha = table[last] / t[last];
    for i in 0..t.len() {
        let omega = alpha * t[i];
        // rel_tol 1e-8 on a run of a few hundred steps: 1e-6 relative is well clear of the
        // integration error and far below the 2 % a slipping brick would show.
        let tol = 1e-6 * table[last];
        assert!(
            (table[i] - omega).abs() <= tol,
            "{method:?} t = {}: ω = {}",
            t[i],
            table[i]
        );
        assert!(
            (brick[i] - table[i]).abs() <= tol,
            "{method:?} t = {}: brick {} vs table {}",
            t[i],
            brick[i],
            table[i]
        );
        assert!(
            (normal[i] - MASS * G).abs() <= 1e-9 * MASS * G,
            "{method:?} t = {}: N = {}",
            t[i],
            normal[i]
        );
        let expected = MASS * RADIUS * (alpha * alpha + omega.powi(4)).sqrt();
        assert!(
            (friction[i] - expected).abs() <= 1e-6 * expected,
            "{method:?} t = {}: friction {} vs m·r·√(α² + ω⁴) = {expected}",
            t[i],
            friction[i]
        );
    }
}

#[test]
fn the_turntable_runs_through_sticking_under_the_default_method() {
    check_sticking_run(None);
}

#[test]
fn the_turntable_runs_through_sticking_under_trbdf2() {
    check_sticking_run(Some("trbdf2"));
}

#[test]
fn the_offset_brick_no_longer_cycles() {
    // The brick 5 cm off the x axis aborted at t = 0.009 s; now it runs to 0.3 s (well before
    // slip, which needs r·√(α² + ω⁴) = μ·g) under esdirk43, the method that also aborted.
    let rec = run(
        MODEL,
        &[
            "model.stop_time=0.3",
            "free.position=[0.2, 0.05, 0.025]",
            "solver.method=\"esdirk43\"",
        ],
    )
    .recording;
    let t = rec.times.clone();
    assert!((t[t.len() - 1] - 0.3).abs() < 1e-12);
    let (table, brick) = (column(&rec, "spin.w"), column(&rec, "free.w[2]"));
    assert!(table
        .iter()
        .zip(&brick)
        .all(|(a, b)| (a - b).abs() <= 1e-6 * table[table.len() - 1]));
}

/// Coulomb's coefficient of the model.
const MU: f64 = 0.5;

/// The time slip starts, from the closed form: the brick's centre needs the force
/// m·r·√(α² + ω⁴) (tangential and centripetal), which friction holds up to μ·m·g, so with
/// ω = α·t the brick slips at t_s = ((μ g / r)² − α²)^(1/4) / α. α is the table's own while the
/// brick sticks (20 N·m over the table's and the brick's inertia about the axis), measured as
/// ω/t at 0.5 s.
fn slip_time(t: &[f64], table: &[f64]) -> f64 {
    let i = t.iter().position(|&x| x >= 0.5).expect("a sample at 0.5 s");
    let alpha = table[i] / t[i];
    ((MU * G / RADIUS).powi(2) - alpha * alpha).powf(0.25) / alpha
}

/// Runs the turntable to 1 s under `method` and checks the slip onset and the spin after it.
fn check_slip(method: &str) {
    let set = format!("solver.method=\"{method}\"");
    let rec = run(MODEL, &[set.as_str()]).recording;
    let t = rec.times.clone();
    let table = column(&rec, "spin.w");
    let brick = column(&rec, "free.w[2]");
    let expected = slip_time(&t, &table);
    // Slip shows first as the brick's spin falling behind the table's: 1e-6 rad/s is far above
    // the round-off of a sticking brick (1e-13) and reached within 1 ms of the onset.
    let onset = t
        .iter()
        .zip(table.iter().zip(&brick))
        .find(|(_, (a, b))| (*a - *b).abs() > 1e-6)
        .map(|(&t, _)| t)
        .unwrap_or_else(|| panic!("{method}: the brick never slipped"));
    // The issue asks 1 %; the turned friction polygons give 0.35 %, and the heading per pair
    // alone (without turning saturated polygons again) 0.9 %: 0.5 % keeps both steps honest.
    assert!(
        (onset - expected).abs() <= 0.005 * expected,
        "{method}: slip at {onset} s, μ·g = r·√(α² + ω⁴) at {expected} s"
    );
    // After slip friction can only hold the brick back: its spin never exceeds the table's by
    // more than the contact's resolution. Points slipping slower than V = 1e-6 m/s count as
    // sticking (rigid::SLIDING_VELOCITY), and the corners are ρ = 0.0707 m from the brick's
    // centre, so relative spins below V/ρ = 1.4e-5 rad/s are not resolved (in the first
    // milliseconds of slip the brick leads by up to 6e-6 rad/s). Before issue 27's fix the brick
    // turned the other way, rad/s behind.
    let resolution = 1e-6 / (0.05f64 * 2f64.sqrt());
    for i in 0..t.len() {
        assert!(
            brick[i] <= table[i] + resolution,
            "{method} t = {}: the brick turns at {} rad/s, the table at {}",
            t[i],
            brick[i],
            table[i]
        );
    }
    let last = t.len() - 1;
    assert!(
        (t[last] - 1.0).abs() < 1e-12,
        "{method}: ended at {}",
        t[last]
    );
    assert!(
        brick[last] < table[last] - 0.5,
        "{method}: the brick should lag the table well after slip: {} vs {}",
        brick[last],
        table[last]
    );
}

#[test]
fn slip_starts_where_the_friction_circle_says_under_auto() {
    check_slip("auto");
}

#[test]
fn slip_starts_where_the_friction_circle_says_under_dopri5() {
    check_slip("dopri5");
}

#[test]
fn slip_starts_where_the_friction_circle_says_under_trbdf2() {
    check_slip("trbdf2");
}

#[test]
fn slip_starts_where_the_friction_circle_says_under_esdirk43() {
    check_slip("esdirk43");
}

#[test]
fn the_spin_does_not_reverse_at_a_tight_tolerance() {
    // Issue 27's report: at rel_tol 1e-10 the brick's spin reversed to −6.6 rad/s after slip
    // while the table turned at +3.6 rad/s (a sliding corner that rose at 2e-7 m/s kept its
    // normal force but lost its friction rows). The brick keeps turning the table's way, slower.
    let rec = run(MODEL, &["solver.rel_tol=1e-10", "solver.abs_tol=1e-12"]).recording;
    let table = column(&rec, "spin.w");
    let brick = column(&rec, "free.w[2]");
    for (a, b) in table.iter().zip(&brick) {
        // 1.4e-5 rad/s: the resolution of sticking (see check_slip).
        assert!(
            *b <= a + 1.5e-5 && *b >= -1e-9,
            "brick {b} rad/s, table {a}"
        );
    }
}

/// The turntable with the brick's four bottom corners as a point cloud, so that the contact's
/// forces are reported per point.
fn corners_model() -> String {
    let text = std::fs::read_to_string(MODEL).expect("the turntable model");
    let mut text = text.replace(
        "\"block.G -- contact.F\",",
        "\"free.F -- corners.R\",\n  \"corners.G -- contact.F\",",
    );
    text.push_str(
        "\n[blocks.corners]\ntype = \"PointCloud\"\npoints = [[-0.05, -0.05, -0.025], \
         [0.05, -0.05, -0.025], [0.05, 0.05, -0.025], [-0.05, 0.05, -0.025]]\n",
    );
    text
}

#[test]
fn a_sliding_point_has_friction_mu_times_its_normal_force() {
    let r = run_text("turntable_corners", &corners_model());
    let rec = &r.recording;
    let t = rec.times.clone();
    let table = column(rec, "spin.w");
    let expected = slip_time(&t, &table);
    // From 10 ms after the onset every corner slides (the brick's spin then lags the table's by
    // over 0.1 rad/s); each one's friction is μ times its normal force to round-off (1e-9
    // relative: the sliding law is exact, f_t = −μ f_n v̂).
    let mut checked = 0;
    for k in 0..4 {
        let normal = column(rec, &format!("contact.normal_force[{k}]"));
        let friction = column(rec, &format!("contact.friction_force[{k}]"));
        for i in (0..t.len()).filter(|&i| t[i] > expected + 0.01) {
            if normal[i] > 1e-6 {
                assert!(
                    (friction[i] - MU * normal[i]).abs() <= 1e-9 * normal[i],
                    "t = {}: corner {k} friction {} for normal {}",
                    t[i],
                    friction[i],
                    normal[i]
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} sliding samples");
    // The corners share m·g (1e-9 relative: round-off of the solve).
    let last = t.len() - 1;
    let total: f64 = (0..4)
        .map(|k| column(rec, &format!("contact.normal_force[{k}]"))[last])
        .sum();
    assert!((total - MASS * G).abs() <= 1e-9 * MASS * G, "N = {total}");
}

/// Recording does not change the run (issue 27, review): models/turntable.toml (driven table,
/// auto method) took 1,676 steps (669 rejected, 16,958 evaluations) at `refine = 1` and 1,579
/// (689, 16,476) at `refine = 8`; under trbdf2 4,103 and 7,267 steps. Giving the interior
/// evaluations their own kinematics, inputs and driven state in the mechanism did not change
/// those counts; what did: a recorded row's evaluation left its signals in place, so the run's
/// next evaluation solved the rigid contacts once with those stale inputs (the mechanism is
/// evaluated before the blocks that apply forces), moving the Lemke warm start. The engine now
/// restores the run's signals after a recorded row. Tolerance 0: the same operations in the
/// same order give the same bits.
#[test]
fn recording_inside_steps_does_not_change_the_driven_turntable() {
    same_run_at_refine_1_and_8("models/turntable.toml");
}

#[test]
fn slip_starts_where_the_friction_circle_says_under_bs23() {
    // The audit of issue 27 (design notes, "Issue 27 closed: the audit"): every adaptive method
    // at the model's rel_tol 1e-8 (rk4 is fixed-step and has no tolerance).
    check_slip("bs23");
}

/// The `sample_time` variant of the test above (issue 27's review): rows taken every 1 ms from
/// the dense output, inside steps, leave the driven turntable's run as it is (counts and final
/// state bit for bit).
#[test]
fn sampling_inside_steps_does_not_change_the_driven_turntable() {
    same_run_with_samples("models/turntable.toml", 1e-3);
}

/// The driven turntable (models/turntable.toml: the table at exactly α = 8 rad/s², the brick
/// slipping where μ·g = r·√(α² + ω⁴), t_s = 0.6018 s) goes through its stick→slip transition
/// without chattering. The brick's corners share its friction; each corner's polygon reaches the
/// exact cap μ·f_n only along its first direction, and the sliding law is exact. Turned once, a
/// saturated corner's friction still sat on an edge, its cap short of μ·f_n, so the polygon let
/// go of a corner that the exact law then stopped: it crossed the sliding threshold both ways
/// every few microseconds for 1.3 ms, and the run took 1,676 steps, about 1,100 of them in the
/// 5 ms around t_s (refine = 1 rows: one per step). Turned until each saturated friction sits on
/// its vertex, the run takes 579 steps, 121 in that window (deterministic counts). The bounds
/// leave room for other changes of the solver and fail if the chattering comes back.
#[test]
fn the_driven_turntable_slips_without_chattering() {
    let r = run(
        "models/turntable.toml",
        &["output.refine=1", "solver.method=\"auto\""],
    );
    let t = r.recording.times.clone();
    let table = column(&r.recording, "spin.w");
    // The model's α, rad/s² (the Ramp's slope).
    let alpha = 8.0f64;
    let onset = ((MU * G / RADIUS).powi(2) - alpha * alpha).powf(0.25) / alpha;
    let near = t
        .iter()
        .filter(|&&x| (onset - 3e-3..=onset + 2e-3).contains(&x))
        .count();
    assert!(
        near <= 300,
        "{near} steps within 5 ms of the slip onset ({} in all)",
        r.stats.steps
    );
    assert!(r.stats.steps <= 900, "{} steps", r.stats.steps);
    // The table follows its prescribed ω = α·t (rel_tol 1e-8: 1e-6 relative is far above the
    // integration error), so the closed form's α is the run's.
    let last = t.len() - 1;
    assert!((table[last] - alpha * t[last]).abs() <= 1e-6 * table[last]);
}

/// After the driven turntable's slip onset (models/turntable.toml under `auto`) the brick's
/// corners change mode one after another, and each change is a located event of the mechanism's
/// mode crossing. The fourth such event (0.6008365 s) left the pair's crossing within the
/// location band (the solver takes it as exactly zero, so it fires no more by leaving zero), and
/// the next change, 1.7 µs later, took it below zero: with stale counts it stayed there and that
/// change and every later one went unlocated (4 events after the onset's cluster). Counted again
/// after a step that ended with the crossing at or below zero (`ModeIndicators::recount_fallen`),
/// it is positive again and the fifth is located (0.6008383 s). Deterministic counts; the bound
/// fails if the crossing dies again.
#[test]
fn the_driven_turntables_mode_changes_after_slip_onset_are_located() {
    let r = run("models/turntable.toml", &["solver.method=\"auto\""]);
    // The onset's cluster of events is at 0.600508 s; the corners' changes follow from 0.6008 s.
    let after: Vec<f64> = r
        .events
        .iter()
        .map(|e| e.time)
        .filter(|&t| t > 0.6006)
        .collect();
    assert!(after.len() >= 5, "located after the onset: {after:?}");
}
