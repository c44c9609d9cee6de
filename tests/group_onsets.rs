//! Contact onsets inside a contact group are located as exactly as the solver's event tolerance
//! allows (issue 30, speed: the cheaper handling of an onset must not move it).
//!
//! Every run is in memory; nothing is written to disk.

mod common;
use common::run_text;

/// Two balls (r = 0.05 m) fall from rest onto a floor, all three in one group with a penalty
/// law; the second ball starts higher, so it lands while the first one is in contact (and its
/// contact's small steps and events are under way). Before touching, each ball falls freely:
/// its centre height is z₀ − ½·g·t², a quadratic that dopri5 and its dense output reproduce
/// to round-off, so the onset (separation z − r through −δ, δ ≈ 2e-15 m, i.e. ~1e-15 s) is at
/// t* = √(2·(z₀ − r)/g) up to the event tolerance (1e-12·max(1, t)) and the round-off of the
/// state (~1e-16 m per step over a few hundred steps, /3 m/s): 1e-10 s bounds both with room.
#[test]
fn onsets_inside_a_group_are_located_at_the_closed_form_drop_times() {
    let (g, r, z0, z1): (f64, f64, f64, f64) = (9.81, 0.05, 0.5, 0.8);
    let text = format!(
        r#"connect = ["world.W -- floor.R", "world.W -- j0.B", "j0.F -- ball0.R", "world.W -- j1.B", "j1.F -- ball1.R"]
[model]
name = "two_drops"
stop_time = 0.45
[solver]
method = "dopri5"
[output]
log = ["j0.p", "j1.p"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, -{g}]
[blocks.floor]
type = "InfinitePlane"
[blocks.ball0]
type = "Solid"
geometry = {{ shape = "sphere", radius = {r} }}
mass = 0.1
[blocks.ball1]
type = "Solid"
geometry = {{ shape = "sphere", radius = {r} }}
mass = 0.1
[blocks.j0]
type = "SixDofJoint"
position = [0.0, 0.0, {z0}]
[blocks.j1]
type = "SixDofJoint"
position = [0.5, 0.0, {z1}]
[blocks.pile]
type = "ContactGroup"
members = ["ball*", "floor"]
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }}
friction = {{ method = "none" }}
"#
    );
    let run = run_text("two_drops", &text);
    let onsets = [z0, z1].map(|z| (2.0 * (z - r) / g).sqrt());
    assert!(onsets[1] < 0.45, "the second ball lands within the run");
    let events: Vec<f64> = run
        .events
        .iter()
        .filter(|e| e.block == "pile")
        .map(|e| e.time)
        .collect();
    for t_star in onsets {
        let nearest = events
            .iter()
            .map(|t| (t - t_star).abs())
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest <= 1e-10,
            "onset at {t_star} s: nearest located event {nearest:e} s away ({events:?})"
        );
    }
    // Both balls were watched and touched: the first is still in contact at the second onset.
    let z = common::column(&run.recording, "j0.p[2]");
    let lowest = z.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        lowest < r,
        "the first ball pressed into the floor: lowest z = {lowest}"
    );
}

/// One ball (r = 0.05 m, from z₀ = 0.5 m) dropped onto a floor, the contact either inside a
/// group (`group = true`) or a SpatialContactForce pair with the same law; the run stops at
/// 0.32 s, shortly after the closed-form onset t* = √(2·(z₀ − r)/g) = 0.302891 s.
fn one_drop(group: bool) -> String {
    let contact = if group {
        r#"[blocks.pile]
type = "ContactGroup"
members = ["ball", "floor"]
normal = { method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }
friction = { method = "none" }
"#
    } else {
        r#"[blocks.pair]
type = "SpatialContactForce"
normal = { method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }
friction = { method = "none" }
zero_crossings = true
"#
    };
    let wires = if group {
        ""
    } else {
        r#", "floor.G -- pair.B", "ball.G -- pair.F""#
    };
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- j0.B", "j0.F -- ball.R"{wires}]
[model]
name = "one_drop"
stop_time = 0.32
[solver]
method = "dopri5"
[output]
log = ["j0.p"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, -9.81]
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.j0]
type = "SixDofJoint"
position = [0.0, 0.0, 0.5]
{contact}"#
    )
}

/// The located event nearest to `t_star` (s), among those of `block`.
fn nearest_event(run: &blockdyn::RunResult, block: &str, t_star: f64) -> f64 {
    run.events
        .iter()
        .filter(|e| e.block == block)
        .map(|e| e.time)
        .min_by(|a, b| (a - t_star).abs().total_cmp(&(b - t_star).abs()))
        .unwrap_or(f64::INFINITY)
}

/// A group's onset (its crossings keep the dynamics: `System::crossing_keeps_dynamics`) is
/// found on the redone step's dense output continued past its end (or, foreseen, on that of the
/// step cut short before it: tests/solver_forecast.rs), with no further step onto it: every located event
/// of this run is counted in `crossings_ahead`. The onset is still at
/// the closed form: free fall is a quadratic in t, which dopri5's dense output (of order 4)
/// reproduces exactly, continued past θ = 1 too, so only the event tolerance (1e-12·max(1, t))
/// and the state's round-off remain; 1e-10 s bounds both with room (as above).
#[test]
fn a_group_onset_found_past_the_redone_steps_end_is_at_the_closed_form_time() {
    let run = run_text("one_drop", &one_drop(true));
    let s = &run.stats;
    assert!(s.zero_crossings >= 1, "{s:?}");
    assert_eq!(
        s.crossings_ahead, s.zero_crossings,
        "every group event found past a redone step's end: {s:?}"
    );
    let t_star = (2.0 * (0.5f64 - 0.05) / 9.81).sqrt();
    let t = nearest_event(&run, "pile", t_star);
    assert!(
        (t - t_star).abs() <= 1e-10,
        "onset at {t_star} s, located at {t} s"
    );
}

/// The same drop on a pair block: its crossings do not declare that they keep the dynamics,
/// so its onset is located on the straddling step to the event tolerance and stepped onto, as
/// before the shortcut (none found past a step's end), at the same closed-form time.
#[test]
fn a_pair_blocks_onset_is_stepped_onto_not_found_past_a_step_end() {
    let run = run_text("one_drop_pair", &one_drop(false));
    let s = &run.stats;
    assert!(s.zero_crossings >= 1 && s.redone_steps >= 1, "{s:?}");
    assert_eq!(s.crossings_ahead, 0, "{s:?}");
    let t_star = (2.0 * (0.5f64 - 0.05) / 9.81).sqrt();
    let t = nearest_event(&run, "pair", t_star);
    assert!(
        (t - t_star).abs() <= 1e-10,
        "onset at {t_star} s, located at {t} s"
    );
}

/// `check`'s probe counts one step per `Step`, `EventBefore` or `Final` record. A crossing
/// found past a redone step's end ends that step at the event (its computed end is recorded
/// as a `Refined` row), so the probe over the whole run still counts exactly the solver's
/// steps, events and evaluations (as tests/check_estimate.rs asserts for models without it).
#[test]
fn the_probe_counts_a_step_whose_crossing_was_found_past_its_end_once() {
    use blockdyn::sim::work_estimate::{Probe, ProbeBudget, ProbeEnd};
    let d = blockdyn::load_model_str("one_drop", &one_drop(true), &[]).unwrap();
    let whole = ProbeBudget {
        evaluations: usize::MAX,
        fraction: 1.0,
    };
    let probe = Probe::with_budget(&d, &d.run().solver, d.run().stop_time, whole).unwrap();
    let s = blockdyn::simulate(&d, Default::default()).unwrap().stats;
    assert!(s.crossings_ahead >= 1, "{s:?}");
    assert_eq!(probe.end, ProbeEnd::Fraction);
    assert_eq!(
        (probe.steps, probe.located_events, probe.evaluations),
        (s.steps, s.zero_crossings, s.function_evaluations)
    );
    assert_eq!(probe.step_ends.len(), probe.steps);
}
