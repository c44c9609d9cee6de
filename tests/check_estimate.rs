//! `blockdyn check`'s work estimate (src/sim/work_estimate.rs) against the steps each example
//! model really takes under its own settings (issue 26, part 3). Step counts are deterministic.
//!
//! The estimate (the linearisation at t = 0 combined with the bounded probe of the run's start)
//! is within 3× of the measured steps on the models in `WITHIN_3X`. On those in `KNOWN_MISSES`
//! it is not yet: their pace is set by transients that start after the probe and that the
//! initial state does not show (docs/solver.md, "How check estimates the work"). Both lists are checked, so a model
//! that improves or regresses fails here and must be moved.

use blockdyn::sim::work_estimate::{
    Probe, ProbeBudget, ProbeEnd, WorkEstimate, PROBE_EVALUATIONS, PROBE_FRACTION,
};
use std::path::Path;

/// Models whose estimate is within a factor 3 of the measured steps.
const WITHIN_3X: [&str; 45] = [
    "ball_drop",
    "ball_to_rest",
    "bouncing_ball",
    "box_on_incline",
    "box_on_slope",
    "box_on_table",
    "box_stack_rigid",
    "box_tower",
    "box_tower_rigid",
    "cart_pole",
    "coin_drop",
    "contactsim_blocks",
    "crank_drive",
    "custom_force",
    "dominoes",
    "double_pendulum",
    "eulers_disk",
    "four_bar",
    "four_bar_parallelogram",
    "four_coins",
    "gripper",
    "hinge_reaction",
    "joint_friction",
    "mass_spring_damper",
    "newtons_cradle",
    "particle_on_ground",
    "pendulum",
    "pendulum_stop",
    "planar_hopper",
    "puck",
    "pushed_cart",
    "quadruped_legs",
    "quadruped_urdf",
    "reverse_spin_bounce",
    "rolling_ball_on_grid",
    "rolling_disc",
    "seesaw",
    "slider_crank",
    "sphere_pile",
    "spring_pendulum",
    "stacked_boxes",
    "thermostat",
    "tumbling_brick",
    "turntable",
    "vibrating_plate",
];

/// Models whose estimate is off by more than 3× today (the reason, from the run): what sets
/// their pace starts after the probe (20 % of the run) and the initial state does not show it.
/// None since the turntable's brick stopped chattering through its slip onset (design notes,
/// "The turntable's slip onset").
const KNOWN_MISSES: [&str; 0] = [];

fn ratio(name: &str) -> f64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    let d = blockdyn::load_model(&path, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let estimate = WorkEstimate::of(&d).unwrap_or_else(|| panic!("{name}: no estimate"));
    let run = blockdyn::simulate(&d, Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    estimate.steps / run.stats.steps as f64
}

#[test]
fn the_estimate_is_within_3x_on_the_listed_examples() {
    let off: Vec<String> = WITHIN_3X
        .iter()
        .map(|name| (name, ratio(name)))
        .filter(|(_, r)| !(1.0 / 3.0..=3.0).contains(r))
        .map(|(name, r)| format!("{name}: estimate/measured = {r:.2}"))
        .collect();
    assert!(off.is_empty(), "{off:?}");
}

#[test]
fn the_known_misses_are_still_missed() {
    let fixed: Vec<String> = KNOWN_MISSES
        .iter()
        .map(|name| (name, ratio(name)))
        .filter(|(_, r)| (1.0 / 3.0..=3.0).contains(r))
        .map(|(name, r)| format!("{name}: estimate/measured = {r:.2}, move it to WITHIN_3X"))
        .collect();
    assert!(fixed.is_empty(), "{fixed:?}");
}

/// The driven turntable (models/turntable.toml), on its own: its brick's stick→slip transition
/// at 0.6 s once cost about 1,100 of the run's 1,676 steps (the corners' friction polygons and
/// their exact sliding law disagreed, and one corner chattered at the sliding threshold), which
/// put the estimate (about 406 steps: the probe's pace over the run) at 0.24× the run. With the
/// polygons turned until each saturated friction sits on a vertex the run takes 579 steps
/// (0.70×). This fails if the transition's cost comes back (below 1/3) or the estimate runs away.
#[test]
fn the_turntable_estimate_stays_within_3x() {
    let r = ratio("turntable");
    assert!(
        (1.0 / 3.0..=3.0).contains(&r),
        "turntable: estimate/measured = {r:.2}"
    );
}

#[test]
fn every_example_is_listed() {
    let listed: Vec<&str> = WITHIN_3X.iter().chain(&KNOWN_MISSES).copied().collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.extension().is_some_and(|e| e == "toml") && !listed.contains(&stem.as_str()) {
            missing.push(stem);
        }
    }
    assert!(
        missing.is_empty(),
        "examples not in either list: {missing:?}"
    );
}

#[test]
fn check_says_when_auto_goes_implicit() {
    // The box resting on an incline: its sticking friction (rate 9.2e4 1/s) would hold dopri5 to
    // about 30,657 steps per simulated second; auto goes implicit (esdirk43 at rel_tol 1e-6).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/box_on_incline.toml");
    let d = blockdyn::load_model(&path, &[]).unwrap();
    let text = blockdyn::report::check_report(&d);
    assert!(text.contains("work estimate (auto, rel_tol"), "{text}");
    assert!(
        text.contains("holds dopri5 to about 30656 steps per simulated second while it is closed ⇒ auto goes implicit (esdirk43)"),
        "{text}"
    );
    // The pendulum has no contact: only its smooth motion (ω ≈ sqrt(g/(L·π/2)) = 2.5 rad/s).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/pendulum.toml");
    let text = blockdyn::report::check_report(&blockdyn::load_model(&path, &[]).unwrap());
    assert!(
        text.contains("fastest lightly damped rate 2.498 rad/s"),
        "{text}"
    );
    assert!(!text.contains("auto goes implicit"), "{text}");
}

/// Whether each of a model's contacts is (closed at t = 0, travels at t = 0).
fn contact_states(name: &str) -> Vec<(bool, bool)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    let d = blockdyn::load_model(&path, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let estimate = WorkEstimate::of(&d).unwrap_or_else(|| panic!("{name}: no estimate"));
    estimate
        .contacts
        .iter()
        .map(|c| (c.closed_at_start, c.travels))
        .collect()
}

#[test]
fn a_contact_that_rolls_or_spins_at_the_start_travels_and_one_at_rest_or_sliding_does_not() {
    // The rolling disc (GroundContact on 32 rim points) and the spinning puck (a face) travel;
    // the box released on an incline (at rest at t = 0) and the particle sliding on the ground
    // do not.
    assert_eq!(contact_states("rolling_disc"), [(true, true)]);
    assert_eq!(contact_states("puck"), [(true, true)]);
    assert_eq!(contact_states("box_on_incline"), [(true, false)]);
    assert!(contact_states("particle_on_ground")
        .iter()
        .all(|&(_, travels)| !travels));
}

#[test]
fn check_says_when_the_motion_is_not_estimated() {
    // 64 free balls: 64 × 13 = 832 states, past the eigenvalue analysis's 400.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sphere_pile.toml");
    let text = blockdyn::report::check_report(&blockdyn::load_model(&path, &[]).unwrap());
    assert!(
        text.contains("the motion's rates are not estimated: 832 states (the eigenvalue analysis stops at 400)"),
        "{text}"
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/pendulum.toml");
    let text = blockdyn::report::check_report(&blockdyn::load_model(&path, &[]).unwrap());
    assert!(!text.contains("not estimated"), "{text}");
}

fn model(name: &str) -> blockdyn::Diagram {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    blockdyn::load_model(&path, &[]).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_probe_over_the_whole_run_counts_what_the_run_counts() {
    // With no budget and the whole stop time, the probe is the run: its counts are the
    // solver's, exactly (steps, located events, evaluations; auto's implicit steps and
    // switches). The bouncing ball has located events; the box on the incline switches.
    let whole = ProbeBudget {
        evaluations: usize::MAX,
        fraction: 1.0,
    };
    for name in ["bouncing_ball", "box_on_incline"] {
        let d = model(name);
        let probe = Probe::with_budget(&d, &d.run().solver, d.run().stop_time, whole).unwrap();
        let run = blockdyn::simulate(&d, Default::default()).unwrap();
        let s = &run.stats;
        assert_eq!(probe.end, ProbeEnd::Fraction, "{name}");
        assert_eq!(probe.reached, d.run().stop_time, "{name}");
        assert_eq!(
            (probe.steps, probe.located_events, probe.evaluations),
            (s.steps, s.zero_crossings, s.function_evaluations),
            "{name}"
        );
        assert_eq!(
            (probe.implicit_steps, probe.switches),
            (s.implicit_steps, s.method_switches),
            "{name}"
        );
        assert_eq!(probe.step_ends.len(), probe.steps);
    }
}

#[test]
fn the_probe_ends_at_its_fraction_or_its_evaluation_budget() {
    let d = model("pendulum");
    let stop = d.run().stop_time;
    // The default: 20 % of the run, reached exactly (the last step lands on it), well inside
    // the 2,000 evaluations (the whole run takes about 4,900).
    let probe = Probe::run(&d, &d.run().solver, stop).unwrap();
    assert_eq!(probe.end, ProbeEnd::Fraction);
    assert_eq!(probe.reached, PROBE_FRACTION * stop);
    assert!(probe.evaluations <= PROBE_EVALUATIONS);
    // 100 evaluations: it stops before the trial step that would start past them; one dopri5
    // trial step takes at most 7 evaluations (6 stages and the step end's).
    let small = ProbeBudget {
        evaluations: 100,
        fraction: 1.0,
    };
    let probe = Probe::with_budget(&d, &d.run().solver, stop, small).unwrap();
    assert_eq!(probe.end, ProbeEnd::Budget);
    assert!(
        (100..100 + 7).contains(&probe.evaluations),
        "{}",
        probe.evaluations
    );
    assert!(probe.reached > 0.0 && probe.reached < stop);
}

#[test]
fn check_reports_what_the_probe_measured_and_extrapolated() {
    // Rigid contact's blocks: the probe sees located events that the initial state does not.
    let text = blockdyn::report::check_report(&model("contactsim_blocks"));
    assert!(
        text.contains("  probe: the model run from t = 0 to "),
        "{text}"
    );
    assert!(text.contains("located events"), "{text}");
    assert!(
        text.contains("extrapolated at the pace the probe sustained"),
        "{text}"
    );
    // A cheap model where the static estimate's pace is the larger: it is said.
    let text = blockdyn::report::check_report(&model("spring_pendulum"));
    assert!(
        text.contains("extrapolated at the static estimate's pace"),
        "{text}"
    );
}

#[test]
fn a_fast_sampled_block_does_not_hide_a_later_step_from_the_estimate() {
    // The mass–spring–damper is driven by a Step at 1 s. A ZeroOrderHold sampling its position
    // every millisecond (feeding only a Scope) adds time events at 1, 2, 3, … ms: looked at in
    // order, they would fill the 32 events the excitation reads and the Step would not be seen
    // (the estimate fell to 0.14× without the Step's forcing). At most 4 are one block's, so the
    // static estimate is the same with and without the sampler: the sampler changes neither J
    // nor any f(tₑ, x0). Tolerance: 1e-9 relative, round-off of the same sums.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/mass_spring_damper.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let sampled = text.replacen(
        "connect = [",
        "connect = [\n  \"position.out -> hold.in\",\n  \"hold.out -> held.in1\",",
        1,
    ) + "\n[blocks.hold]\ntype = \"ZeroOrderHold\"\nsample_time = 0.001\n\n[blocks.held]\ntype = \"Scope\"\n";
    let plain = blockdyn::load_model_str("msd.toml", &text, &[]).unwrap();
    let with_hold = blockdyn::load_model_str("msd_hold.toml", &sampled, &[]).unwrap();
    let a = WorkEstimate::of(&plain).unwrap().static_steps;
    let b = WorkEstimate::of(&with_hold).unwrap().static_steps;
    assert!(
        (a - b).abs() <= 1e-9 * a,
        "without the sampler {a}, with it {b}"
    );
}
