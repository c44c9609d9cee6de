//! `method = "auto"` across the ways a model is run (issue 26, part 2): a parameter set and a
//! sweep point run a scene that switches, and get the run of the model built with the same
//! values, switches included; the progress callback is told the method in use.
//!
//! The scene: a 1 kg ball (r = 0.1 m) thrown sideways at 1 m/s from a height of 0.6 m onto a
//! stiff floor (linear law k = 1e6 N/m, c = 200 N·s/m: ζ = c/(2·sqrt(k·m)) = 0.1, so it bounces)
//! with regularised friction (μ = 0.5, critical velocity 1e-3 m/s: a sliding rate of
//! 2μ·m·g/(v_c·m) ≈ 1e4 1/s while it sticks). Auto goes implicit in each contact and back to
//! dopri5 in each flight: 8 switches (6 at k = 2e6). Every run is in memory.

use blockdyn::model::Document;
use blockdyn::solver::Method;
use blockdyn::sweep::{RunSettings, Sweep, SweepPlan};
use blockdyn::{simulate, Diagram, RunOptions, RunResult};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

const BALL: &str = r#"
connect = [
  "world.W -- floor.R",
  "world.W -- free.B",
  "free.F -- ball.R",
  "floor.G -- contact.B",
  "ball.G -- contact.F",
]
[model]
stop_time = 1.5
[solver]
rel_tol = 1e-6
abs_tol = 1e-9
[output]
log = ["free.p", "free.v"]
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
position = [0.0, 0.0, 0.6]
velocity = [1.0, 0.0, 0.0]
[blocks.contact]
type = "SpatialContactForce"
normal = { method = "linear_spring_damper", stiffness = 1e6, damping = 200.0 }
friction = { method = "smooth_stick_slip", static = 0.5, dynamic = 0.5, critical_velocity = 1e-3 }
zero_crossings = true
"#;

/// What the progress callback was told: (t, the method under auto).
type Reports = Arc<Mutex<Vec<(f64, Option<Method>)>>>;

/// Standard gravity, the default of a mechanism without a MechanismConfiguration block (m/s²).
const G: f64 = 9.80665;

fn build(overrides: &[&str]) -> Diagram {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    blockdyn::load_model_str(
        "ball_friction.toml",
        BALL,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap()
}

/// The same rows bit for bit, the same steps, evaluations, events and switches.
fn assert_same_run(a: &RunResult, b: &RunResult, what: &str) {
    assert_eq!(a.recording.times, b.recording.times, "{what}");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert!(
        bits(&a.recording.values) == bits(&b.recording.values),
        "{what}: the rows differ"
    );
    let counts = |r: &RunResult| {
        let s = &r.stats;
        (
            s.steps,
            s.rejected_steps,
            s.function_evaluations,
            s.zero_crossings,
            s.method_switches,
            s.explicit_steps,
            s.implicit_steps,
        )
    };
    assert_eq!(counts(a), counts(b), "{what}");
    assert_eq!(a.events, b.events, "{what}");
}

/// The first contact onset is the fall's closed form: the centre falls 0.6 − 0.1 = 0.5 m from
/// rest, t = sqrt(2·0.5/g) = 0.31933 s; the contact's located onset is at that time to the
/// event location's accuracy (1e-9 s is far above it and far below any step).
fn assert_first_onset(r: &RunResult, what: &str) {
    let onset = (2.0 * 0.5 / G).sqrt();
    let first = r
        .events
        .first()
        .unwrap_or_else(|| panic!("{what}: no event"));
    assert_eq!(first.block, "contact", "{what}");
    assert!(
        (first.time - onset).abs() < 1e-9,
        "{what}: first onset at {} s, closed form {onset} s",
        first.time
    );
}

#[test]
fn a_parameter_set_runs_across_autos_switches_as_the_model_built_with_its_values() {
    let (blueprint, d) = blockdyn::load_model_str_parts("ball_friction.toml", BALL, &[]).unwrap();
    assert_eq!(d.run().solver.method, Method::Auto);
    let written = simulate(&d, RunOptions::default()).unwrap();
    assert!(written.stats.method_switches >= 4, "{:?}", written.stats);
    let set = Arc::new(
        blueprint
            .parameters(&d, &["contact.normal.stiffness=2e6".parse().unwrap()])
            .unwrap(),
    );
    let with_set = simulate(
        &d,
        RunOptions {
            parameters: Some(set),
            ..Default::default()
        },
    )
    .unwrap();
    let rebuilt = simulate(
        &build(&["contact.normal.stiffness=2e6"]),
        RunOptions::default(),
    )
    .unwrap();
    assert_same_run(&with_set, &rebuilt, "k = 2e6 by a set");
    // The set's run switches too, and not as the written model's (its contacts are shorter).
    assert!(with_set.stats.method_switches >= 4, "{:?}", with_set.stats);
    assert!(with_set.stats.implicit_steps > 0 && with_set.stats.explicit_steps > 0);
    assert_ne!(with_set.recording.values, written.recording.values);
    assert_first_onset(&written, "written");
    assert_first_onset(&with_set, "set");
}

#[test]
fn sweep_points_run_across_autos_switches_as_the_models_built_with_their_values() {
    let plan = SweepPlan::parse(&["contact.normal.stiffness=1e6,2e6"]).unwrap();
    let document = Document::parse("ball_friction.toml", BALL).unwrap();
    let sweep = Sweep::new(document, vec![], plan);
    // Both points share one diagram and carry their value as a parameter set.
    let (p0, p1) = (sweep.point_model(0).unwrap(), sweep.point_model(1).unwrap());
    assert!(p0.parameters.is_some() && p1.parameters.is_some());
    assert!(Arc::ptr_eq(&p0.diagram, &p1.diagram));
    let settings = RunSettings::with_jobs(NonZeroUsize::new(2).unwrap());
    let runs = sweep.run_in_memory(&[0, 1], &settings).unwrap();
    for (run, k) in runs.iter().zip(["1e6", "2e6"]) {
        let point = run
            .result
            .as_ref()
            .unwrap_or_else(|_| panic!("point k = {k} failed"));
        let own = simulate(
            &build(&[&format!("contact.normal.stiffness={k}")]),
            RunOptions::default(),
        )
        .unwrap();
        assert_same_run(point, &own, &format!("sweep point k = {k}"));
        assert!(
            point.stats.method_switches >= 4,
            "k = {k}: {:?}",
            point.stats
        );
        assert_first_onset(point, &format!("sweep point k = {k}"));
    }
}

/// The progress callback (what the progress line prints as " (method)", `src/progress.rs`) is
/// told the method in use under auto: dopri5 at the start, the implicit method (esdirk43 at
/// rel_tol 1e-6) in contact, and a change of method between two reports for every switch; under
/// a named method, none.
#[test]
fn the_progress_callback_is_told_the_method_in_use_under_auto() {
    let seen = |d: &Diagram| {
        let log: Reports = Arc::default();
        let sink = log.clone();
        let r = simulate(
            d,
            RunOptions {
                progress: Some(Box::new(move |t, method| {
                    sink.lock().unwrap().push((t, method))
                })),
                ..Default::default()
            },
        )
        .unwrap();
        let log = log.lock().unwrap().clone();
        (r, log)
    };
    let (r, log) = seen(&build(&[]));
    assert!(!log.is_empty());
    assert_eq!(log[0].1, Some(Method::Dopri5), "the run starts explicit");
    assert!(
        log.iter().all(|(_, m)| m.is_some()),
        "auto reports a method"
    );
    assert!(log.iter().any(|(_, m)| *m == Some(Method::Esdirk43)));
    let changes = log.windows(2).filter(|w| w[0].1 != w[1].1).count();
    assert_eq!(changes, r.stats.method_switches, "{:?}", r.stats);
    // The first report under the implicit method comes after the first contact onset: auto
    // goes implicit in contact, not in the flight before it.
    let first_implicit = log
        .iter()
        .find(|(_, m)| *m == Some(Method::Esdirk43))
        .unwrap();
    assert!(first_implicit.0 >= r.events[0].time, "{first_implicit:?}");

    let (_, named) = seen(&build(&["solver.method=\"dopri5\""]));
    assert!(!named.is_empty() && named.iter().all(|(_, m)| m.is_none()));
}
