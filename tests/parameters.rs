//! Parameter sets: one compiled diagram run with other parameter values, without building it
//! again. Each run with a set must equal, bit for bit, a run of the model built with the same
//! values as `--set` overrides (same blocks, same schedule, same arithmetic), whatever the
//! threads.

use blockdyn::{load_model, load_model_parts, simulate, Blueprint, Diagram, RunOptions, RunResult};
use std::path::Path;
use std::sync::Arc;

fn load(model: &str, overrides: &[&str]) -> Diagram {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    load_model(
        Path::new(model),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap()
}

/// The model file `model` built with `overrides`, with the model it was built from (which
/// parameter sets are made with).
fn load_parts(model: &str, overrides: &[&str]) -> (Blueprint, Diagram) {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    load_model_parts(
        Path::new(model),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap()
}

fn run_with(blueprint: &Blueprint, d: &Diagram, assignments: &[&str]) -> RunResult {
    let set = Arc::new(
        blueprint
            .parameters(d, &blockdyn::Override::parse_all(assignments).unwrap())
            .unwrap(),
    );
    simulate(
        d,
        RunOptions {
            parameters: Some(set),
            ..Default::default()
        },
    )
    .unwrap()
}

fn assert_same_run(a: &RunResult, b: &RunResult) {
    assert_eq!(a.recording.times, b.recording.times);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a.recording.values), bits(&b.recording.values));
    assert_eq!(a.stats.steps, b.stats.steps);
    assert_eq!(a.stats.function_evaluations, b.stats.function_evaluations);
    assert_eq!(a.events, b.events);
}

#[test]
fn a_contact_laws_stiffness_set_per_run_equals_the_model_built_with_it() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    for (k, c) in [("2e5", "100"), ("5e4", "30")] {
        let set = [
            format!("contact.normal.stiffness={k}"),
            format!("contact.normal.damping={c}"),
        ];
        let with_set = run_with(&blueprint, &d, &[set[0].as_str(), set[1].as_str()]);
        let rebuilt = load("models/ball_drop.toml", &[set[0].as_str(), set[1].as_str()]);
        let reference = simulate(&rebuilt, RunOptions::default()).unwrap();
        assert_same_run(&with_set, &reference);
    }
    // And the set changed something: the stiffer floor bounces the ball at another time.
    let default = simulate(&d, RunOptions::default()).unwrap();
    let stiffer = run_with(&blueprint, &d, &["contact.normal.stiffness=2e5"]);
    assert_ne!(default.recording.values, stiffer.recording.values);
}

#[test]
fn a_fused_gain_set_per_run_equals_the_model_built_with_it() {
    // The spring and damper gains are fused into sparse sums: the run's fusion plan is built
    // from the set's instances. Closed form as a check that the value is really used: the
    // static deflection under the 10 N step is F/k.
    let (blueprint, d) = load_parts("models/mass_spring_damper.toml", &["model.stop_time=20"]);
    let with_set = run_with(&blueprint, &d, &["spring.gain=400", "damper.gain=30"]);
    let rebuilt = load(
        "models/mass_spring_damper.toml",
        &["model.stop_time=20", "spring.gain=400", "damper.gain=30"],
    );
    let reference = simulate(&rebuilt, RunOptions::default()).unwrap();
    assert_same_run(&with_set, &reference);
    let x = with_set
        .recording
        .column_index("position.out")
        .unwrap_or_else(|| {
            panic!(
                "columns: {:?}",
                with_set
                    .recording
                    .columns
                    .iter()
                    .map(|c| &c.name)
                    .collect::<Vec<_>>()
            )
        });
    let last = with_set.recording.column_values(x).last().unwrap();
    let force = 10.0;
    // Critically damped and faster than the 20 s run: settled to 1e-9 of F/k.
    assert!((last - force / 400.0).abs() < 1e-6, "{last}");
}

#[test]
fn runs_with_different_sets_share_one_diagram_on_threads() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let stiffnesses = ["5e4", "1e5", "2e5", "4e5"];
    let serial: Vec<RunResult> = stiffnesses
        .iter()
        .map(|k| {
            run_with(
                &blueprint,
                &d,
                &[format!("contact.normal.stiffness={k}").as_str()],
            )
        })
        .collect();
    let threaded: Vec<RunResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = stiffnesses
            .iter()
            .map(|k| {
                let (blueprint, d) = (&blueprint, &d);
                scope.spawn(move || {
                    run_with(
                        blueprint,
                        d,
                        &[format!("contact.normal.stiffness={k}").as_str()],
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (a, b) in serial.iter().zip(&threaded) {
        assert_same_run(a, b);
    }
}

#[test]
fn a_checkpoint_keeps_the_parameters_of_the_run_that_took_it() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let set = Arc::new(
        blueprint
            .parameters(&d, &["contact.normal.stiffness=2e5".parse().unwrap()])
            .unwrap(),
    );
    let whole = simulate(
        &d,
        RunOptions {
            parameters: Some(set.clone()),
            ..Default::default()
        },
    )
    .unwrap();
    let first = simulate(
        &d,
        RunOptions {
            parameters: Some(set.clone()),
            stop_at_crossing: true,
            ..Default::default()
        },
    )
    .unwrap();
    let checkpoint = Arc::new(first.checkpoint.unwrap());
    let rest = simulate(
        &d,
        RunOptions {
            resume_from: Some(checkpoint.clone()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(rest.final_state, whole.final_state);
    // Another set on resume is refused.
    let other = Arc::new(
        blueprint
            .parameters(&d, &["contact.normal.stiffness=3e5".parse().unwrap()])
            .unwrap(),
    );
    let refused = simulate(
        &d,
        RunOptions {
            resume_from: Some(checkpoint),
            parameters: Some(other),
            ..Default::default()
        },
    );
    let message = refused.err().unwrap().to_string();
    assert!(message.contains("keeps the parameters"), "{message}");
}

#[test]
fn what_a_set_cannot_change_is_refused_with_what_to_do_instead() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    // The text is read where it enters (a text without '=' is refused there), the set is
    // compiled from the typed override.
    let error = |assignment: &str| match assignment.parse::<blockdyn::Override>() {
        Ok(o) => blueprint.parameters(&d, &[o]).unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    let radius = error("ball.geometry.radius=0.2");
    assert!(radius.contains("moves or reshapes a geometry"), "{radius}");
    assert!(radius.contains("build the model again"), "{radius}");
    let joint = error("free.position=[0,0]");
    assert!(joint.contains("must have 3 elements"), "{joint}");
    // The mechanism block is made by the build: its values come from other blocks.
    let mechanism = error("mechanism.gravity=[0,0,-1]");
    assert!(mechanism.contains("made by the build"), "{mechanism}");
    let with_mass = blueprint
        .parameters(
            &d,
            &[
                "ball.mass=2".parse().unwrap(),
                "mechanism.gravity=[0,0,-1]".parse().unwrap(),
            ],
        )
        .unwrap_err()
        .to_string();
    assert!(with_mass.contains("made by the build"), "{with_mass}");
    // A rigid joint limit made a penalty one leaves the mechanism's rigid constraints.
    let (pendulum_blueprint, pendulum) = load_parts("models/pendulum_stop.toml", &[]);
    let limit = pendulum_blueprint
        .parameters(&pendulum, &[
            "hinge.limits={lower=0.2,upper=1.5,method=\"spring_damper\",stiffness=1e4,damping=10}".parse().unwrap(),
        ])
        .unwrap_err()
        .to_string();
    assert!(
        limit.contains("structure") || limit.contains("ports"),
        "{limit}"
    );
    let solver = error("solver.rel_tol=1e-8");
    assert!(solver.contains("not a block parameter"), "{solver}");
    let unknown = error("contatc.normal.stiffness=1");
    assert!(unknown.contains("no block 'contatc'"), "{unknown}");
    assert!(unknown.contains("did you mean 'contact'"), "{unknown}");
    let bad_value = error("contact.normal.stiffness=-5");
    assert!(bad_value.contains("stiffness"), "{bad_value}");
    let no_equals = error("contact.normal.stiffness");
    assert!(no_equals.contains("has no '='"), "{no_equals}");
    // A set of another model is refused by the run.
    let (other_blueprint, other) = load_parts("models/bouncing_ball.toml", &[]);
    let set = Arc::new(
        other_blueprint
            .parameters(&other, &["restitution.gain=-0.5".parse().unwrap()])
            .unwrap(),
    );
    let refused = simulate(
        &d,
        RunOptions {
            parameters: Some(set),
            ..Default::default()
        },
    );
    let message = refused.err().unwrap().to_string();
    assert!(message.contains("another model"), "{message}");
}

#[test]
fn a_sweep_shares_one_diagram_when_a_set_can_carry_the_point() {
    use blockdyn::sweep::{Sweep, SweepPlan};
    let plan = |vary: &str| SweepPlan::parse(&[vary]).unwrap();
    let model = Path::new("models/ball_drop.toml");
    let shared = Sweep::load(model, vec![], plan("contact.normal.stiffness=5e4,2e5")).unwrap();
    let (a, b) = (
        shared.point_model(0).unwrap(),
        shared.point_model(1).unwrap(),
    );
    assert!(a.parameters.is_some() && b.parameters.is_some());
    assert!(
        Arc::ptr_eq(&a.diagram, &b.diagram),
        "one diagram for both points"
    );
    // The shared point runs as the point built on its own.
    let own = shared.build_point(1).unwrap();
    let with_set = simulate(&b.diagram, b.options()).unwrap();
    assert_same_run(&with_set, &simulate(&own, RunOptions::default()).unwrap());
    // A solver setting or a geometry cannot be carried: those points are built.
    for vary in ["solver.rel_tol=1e-6,1e-7", "ball.geometry.radius=0.1,0.2"] {
        let built = Sweep::load(model, vec![], plan(vary)).unwrap();
        assert!(built.point_model(1).unwrap().parameters.is_none(), "{vary}");
    }
    // A solid's mass can: the set elaborates the mechanism again.
    let mass = Sweep::load(model, vec![], plan("ball.mass=1,2")).unwrap();
    assert!(mass.point_model(1).unwrap().parameters.is_some());
}

/// Values compiled into the mechanism (a solid's mass, gravity, a joint's initial position, a
/// rigid contact's and a rigid joint limit's restitution, a RigidTransform's pose) set per run: the set elaborates the
/// mechanism again, and the run equals, bit for bit, the model built with the values.
#[test]
fn mechanism_values_set_per_run_equal_the_model_built_with_them() {
    for (model, assignments) in [
        ("models/ball_drop.toml", vec!["ball.mass=2.5"]),
        (
            "models/ball_drop.toml",
            vec!["free.position=[0,0,0.8]", "contact.normal.stiffness=2e5"],
        ),
        ("models/ball_to_rest.toml", vec!["contact.restitution=0.6"]),
        ("models/ball_to_rest.toml", vec!["ball.mass=3"]),
        // A RigidTransform's pose: the built diagram holds a stand-in without it (the
        // mechanism has it), and the set makes the block again from its table.
        (
            "models/double_pendulum.toml",
            vec!["upper_end.translation=[0,-0.4,0]"],
        ),
        (
            "models/pendulum_stop.toml",
            vec![
                "hinge.limits.restitution=0.3",
                "gravity.gravity=[0,-3.71,0]",
                "hinge.q0=1.0",
            ],
        ),
    ] {
        let (blueprint, d) = load_parts(model, &[]);
        let built = load(model, &assignments);
        let with_set = run_with(&blueprint, &d, &assignments);
        assert_same_run(&with_set, &simulate(&built, RunOptions::default()).unwrap());
        // And the value took effect: the run differs from the model's own.
        let own = simulate(&d, RunOptions::default()).unwrap();
        assert_ne!(
            own.recording.values, with_set.recording.values,
            "{model} {assignments:?}"
        );
    }
}

/// The physics of a mass set per run: ball_drop's static compression on its linear contact is
/// m·g/k (k = 1e5 N/m), so doubling the mass doubles where the ball settles below its contact height (to 1e-6
/// relative: the run ends at rest, its remaining oscillation is below that).
#[test]
fn a_heavier_ball_set_per_run_sinks_twice_as_deep() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &["model.stop_time=20"]);
    let rest = |assignments: &[&str]| {
        let r = run_with(&blueprint, &d, assignments);
        // x = [q; v]: q = (position, quaternion); the ball's radius is 0.1 m.
        0.1 - r.final_state[2]
    };
    let (one, two) = (rest(&["ball.mass=1"]), rest(&["ball.mass=2"]));
    let g = 9.81; // the model's gravity, m/s²
    assert!((one - g / 1e5).abs() < 1e-6 * one.abs() + 1e-10, "{one}");
    assert!(
        (two - 2.0 * g / 1e5).abs() < 1e-6 * two.abs() + 1e-10,
        "{two}"
    );
}

/// A set that overrides blocks the engine evaluates as scalar kernels (a Saturation's limit, an
/// Fcn's expression) runs the new values in place: equal, bit for bit, to the model built with
/// them, with the same blocks as kernels.
#[test]
fn a_set_reaches_blocks_evaluated_as_kernels() {
    #[path = "linear_models/mod.rs"]
    mod linear_models;
    let text = linear_models::nonlinear_model(10, 2.0);
    let log = ["output.log=[\"sat3.out\", \"f5.out\"]".to_string()];
    let (blueprint, d) = blockdyn::load_model_str_parts(
        "nl.toml",
        &text,
        &blockdyn::Override::parse_all(&log).unwrap(),
    )
    .unwrap();
    let assignments = ["sat3.upper=0.3", "f5.expression=\"0.4 - u\""];
    let mut overrides = log.to_vec();
    overrides.extend(assignments.iter().map(|a| a.to_string()));
    let built = blockdyn::load_model_str(
        "nl.toml",
        &text,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap();
    let with_set = run_with(&blueprint, &d, &assignments);
    assert_same_run(&with_set, &simulate(&built, RunOptions::default()).unwrap());
    let own = simulate(&d, RunOptions::default()).unwrap();
    assert_ne!(own.recording.values, with_set.recording.values);
    let set = blueprint
        .parameters(&d, &blockdyn::Override::parse_all(&assignments).unwrap())
        .unwrap();
    let engine = blockdyn::sim::Engine::with_parameters(
        &d,
        blockdyn::sim::Recorder::new(&d),
        true,
        Some(&set),
    );
    assert_eq!(engine.kernel_blocks(), 30);
}

/// A set warns as the model built with its values would (`ParameterSet::warnings`): rk4's
/// stability limit of the contact moves with the stiffness and with the mass (ball_drop at k =
/// 1e5 N/m, 1 kg: limit 8.79 ms; at k = 4e5 N/m, or k = 1e5 N/m on 0.25 kg, |λ| doubles and the
/// limit falls below the 5 ms step), and a friction law's own warning (dynamic above static)
/// comes and goes with its coefficients. Each list equals the built model's, text for text.
#[test]
fn a_set_warns_as_the_model_built_with_its_values() {
    let rk4 = ["solver.method=rk4", "solver.fixed_step=5e-3"];
    let (blueprint, d) = load_parts("models/ball_drop.toml", &rk4);
    assert!(d.warnings().is_empty(), "{:?}", d.warnings());
    let built_with = |model: &str, base: &[&str], set: &[&str]| {
        let all: Vec<&str> = base.iter().chain(set).copied().collect();
        load(model, &all).warnings().to_vec()
    };
    for set in [
        &["contact.normal.stiffness=4e5"][..],
        &["ball.mass=0.25"],
        &["contact.normal.stiffness=1e5"],
    ] {
        let warnings = blueprint
            .parameters(&d, &blockdyn::Override::parse_all(set).unwrap())
            .unwrap()
            .warnings()
            .to_vec();
        assert_eq!(
            warnings,
            built_with("models/ball_drop.toml", &rk4, set),
            "{set:?}"
        );
        let warned = warnings.iter().any(|w| w.contains("rk4's fixed_step"));
        assert_eq!(warned, set[0] != "contact.normal.stiffness=1e5", "{set:?}");
    }

    let (incline_blueprint, incline) = load_parts("models/box_on_incline.toml", &[]);
    let rising = ["contact.friction.dynamic=0.6"];
    let warnings = incline_blueprint
        .parameters(&incline, &blockdyn::Override::parse_all(&rising).unwrap())
        .unwrap()
        .warnings()
        .to_vec();
    assert!(
        warnings.iter().any(|w| w.contains("exceeds static")),
        "{warnings:?}"
    );
    assert_eq!(
        warnings,
        built_with("models/box_on_incline.toml", &[], &rising)
    );
    let (tilted_blueprint, tilted) = load_parts("models/box_on_incline.toml", &rising);
    let back = ["contact.friction.dynamic=0.3"];
    assert_eq!(
        tilted_blueprint
            .parameters(&tilted, &blockdyn::Override::parse_all(&back).unwrap())
            .unwrap()
            .warnings(),
        &built_with("models/box_on_incline.toml", &rising, &back)[..]
    );
    assert!(tilted_blueprint
        .parameters(&tilted, &blockdyn::Override::parse_all(&back).unwrap())
        .unwrap()
        .warnings()
        .is_empty());
}

/// A value that changes a port's shape is refused by the set (a Constant made a 2-vector feeding
/// a scalar input; a Gain's matrix of another size), so a sweep over it builds that point on
/// its own and reports the build's error before any run, instead of running a diagram whose
/// buffers no longer fit.
#[test]
fn a_value_that_changes_a_shape_is_refused() {
    let text = r#"connect = ["c.out -> f.in", "f.out -> s.in1", "c.out -> g.in", "g.out -> s.in2"]
[model]
stop_time = 1.0
[blocks.c]
type = "Constant"
value = 1.0
[blocks.f]
type = "Fcn"
expression = "2*u"
[blocks.g]
type = "Gain"
gain = 3.0
[blocks.s]
type = "Scope"
inputs = 2
"#;
    let (blueprint, d) = blockdyn::load_model_str_parts("shapes.toml", text, &[]).unwrap();
    let e = blueprint
        .parameters(&d, &["c.value=[1.0, 2.0]".parse().unwrap()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("shape of port 'out'"), "{e}");
    assert!(e.contains("build the model again"), "{e}");
    assert!(blueprint
        .parameters(&d, &["c.value=2.0".parse().unwrap()])
        .is_ok());
    let gain = blueprint.parameters(&d, &["g.gain=[[1.0, 2.0]]".parse().unwrap()]);
    let e = gain.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("build the model again"), "{e}");

    let document = blockdyn::model::Document::parse("shapes.toml", text).unwrap();
    let plan = blockdyn::sweep::SweepPlan::parse(&["c.value=1.0,[1.0,2.0]"]).unwrap();
    let sweep = blockdyn::sweep::Sweep::new(document, Vec::new(), plan);
    let settings = blockdyn::sweep::RunSettings::with_jobs(std::num::NonZeroUsize::MIN);
    let e = sweep.check(&[0, 1], &settings).unwrap_err().to_string();
    assert!(e.contains("in sweep point 1"), "{e}");
    assert!(e.contains("2×1") && e.contains("1×1"), "{e}");
}

/// A set compiled on one build of a file does not run on another build of it with other values:
/// its blocks made again carry the first build's values (a mechanism set makes every physical
/// block again), so the run would silently mix the two. The same file built with the same
/// values is the same model, and the set runs there.
#[test]
fn a_set_does_not_run_on_a_build_of_the_file_with_other_values() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let set = Arc::new(
        blueprint
            .parameters(&d, &["ball.mass=2".parse().unwrap()])
            .unwrap(),
    );
    let options = || RunOptions {
        parameters: Some(Arc::clone(&set)),
        ..Default::default()
    };
    let higher = load("models/ball_drop.toml", &["free.position=[0.0, 0.0, 2.0]"]);
    let Err(e) = simulate(&higher, options()) else {
        panic!("a set of another build ran");
    };
    let e = e.to_string();
    assert!(e.contains("another model"), "{e}");
    let again = load("models/ball_drop.toml", &[]);
    let here = simulate(&d, options()).unwrap();
    assert_same_run(&simulate(&again, options()).unwrap(), &here);
    // A set that makes only a force block again runs on a build with other mechanism values:
    // the blocks it makes again have the same tables there.
    let stiffer = Arc::new(
        blueprint
            .parameters(&d, &["contact.normal.stiffness=2e5".parse().unwrap()])
            .unwrap(),
    );
    let run = simulate(
        &higher,
        RunOptions {
            parameters: Some(stiffer),
            ..Default::default()
        },
    );
    assert!(run.is_ok());
}
