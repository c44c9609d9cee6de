//! Parameter vectors: a diagram's scalar parameters laid out once as numbers, changed in place
//! and run without building the diagram again. A run with a vector must equal, bit for bit, a
//! run of the model built with the same values as overrides; a vector at its built values runs
//! exactly as the diagram.

use blockdyn::builder::ParamValue;
use blockdyn::{
    load_model, load_model_parts, simulate, Blueprint, Diagram, ParameterSet, ParameterVector,
    RunOptions, RunResult,
};
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
/// parameter vectors are laid out with).
fn load_parts(model: &str, overrides: &[&str]) -> (Blueprint, Diagram) {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    load_model_parts(
        Path::new(model),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap()
}

/// A set's assignments as they show in messages.
fn texts(set: &ParameterSet) -> Vec<String> {
    set.assignments().iter().map(ToString::to_string).collect()
}

fn run_vector(blueprint: &Blueprint, d: &Diagram, vector: &ParameterVector) -> RunResult {
    let set = Arc::new(blueprint.parameters_from(d, vector).unwrap());
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
    assert_eq!(a.events, b.events);
}

const BALL_SLOTS: [&str; 5] = [
    "contact.normal.stiffness",
    "contact.normal.damping",
    "ball.mass",
    "free.position[2]",
    "free.velocity[2]",
];

#[test]
fn a_vector_starts_at_the_built_values_and_runs_as_the_diagram() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let vector = blueprint.parameter_vector(&d, &BALL_SLOTS).unwrap();
    // Written in the model: k, c, m and the release height; not written: the initial velocity,
    // whose declared default is [0, 0, 0].
    assert_eq!(vector.built_values(), &[1e5, 100.0, 1.0, 1.0, 0.0]);
    assert_eq!(vector.values(), vector.built_values());
    assert_eq!(vector.paths().collect::<Vec<_>>(), BALL_SLOTS);
    assert_eq!(vector.index_of("ball.mass"), Some(2));
    let set = blueprint.parameters_from(&d, &vector).unwrap();
    assert!(set.assignments().is_empty(), "{:?}", set.assignments());
    assert_same_run(
        &run_vector(&blueprint, &d, &vector),
        &simulate(&d, RunOptions::default()).unwrap(),
    );
}

#[test]
fn a_vector_run_equals_the_model_built_with_its_values() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let mut vector = blueprint.parameter_vector(&d, &BALL_SLOTS).unwrap();
    vector.set_values(&[2e5, 30.0, 2.0, 1.5, 0.5]).unwrap();
    let reference = load(
        "models/ball_drop.toml",
        &[
            "contact.normal.stiffness=2e5",
            "contact.normal.damping=30",
            "ball.mass=2",
            "free.position=[0.0, 0.0, 1.5]",
            "free.velocity=[0.0, 0.0, 0.5]",
        ],
    );
    assert_same_run(
        &run_vector(&blueprint, &d, &vector),
        &simulate(&reference, RunOptions::default()).unwrap(),
    );
    // Only the slots moved make blocks again: one slot away from its built value.
    vector
        .set_values(vector.built_values().to_vec().as_slice())
        .unwrap();
    vector[0] = 5e4;
    let set = blueprint.parameters_from(&d, &vector).unwrap();
    assert_eq!(texts(&set), ["contact.normal.stiffness=50000"]);
    let moved = &set.assignments()[0];
    assert_eq!(
        (moved.path(), moved.value()),
        ("contact.normal.stiffness", &ParamValue::Float(5e4))
    );
    let reference = load("models/ball_drop.toml", &["contact.normal.stiffness=5e4"]);
    assert_same_run(
        &run_vector(&blueprint, &d, &vector),
        &simulate(&reference, RunOptions::default()).unwrap(),
    );
}

/// The release height moves the first contact to t = sqrt(2·(h − r)/g) (free fall of the
/// centre from h to the radius r = 0.1 m, g = 9.81 m/s²). The zero crossing is located to the
/// solver's event tolerance; the bound 1e-9 s leaves room for the located time's rounding and
/// the free fall's integration at rel_tol 1e-6 (a quadratic in t, which the solver's dense
/// output represents exactly up to rounding).
#[test]
fn the_release_height_slot_moves_the_first_contact_as_free_fall_says() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let mut vector = blueprint
        .parameter_vector(&d, &["free.position[2]"])
        .unwrap();
    for h in [0.5, 1.0, 2.0, 4.0] {
        vector[0] = h;
        if h != 1.0 {
            // The slot's override is its parameter, the whole array with the element moved
            // (the model writes position = [0, 0, 1]), shown as the slot.
            let set = blueprint.parameters_from(&d, &vector).unwrap();
            let moved = &set.assignments()[0];
            assert_eq!(moved.to_string(), format!("free.position[2]={h}"));
            let array = ParamValue::from([0.0, 0.0, h]);
            assert_eq!((moved.path(), moved.value()), ("free.position", &array));
        }
        let run = run_vector(&blueprint, &d, &vector);
        let onset = run.events.first().expect("the ball reaches the floor").time;
        let expected = (2.0 * (h - 0.1) / 9.81_f64).sqrt();
        assert!(
            (onset - expected).abs() < 1e-9,
            "h = {h}: onset {onset}, free fall {expected}"
        );
    }
}

#[test]
fn vectors_share_one_diagram_on_threads() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let (blueprint, d) = (Arc::new(blueprint), Arc::new(d));
    let vector = blueprint
        .parameter_vector(&d, &["contact.normal.stiffness"])
        .unwrap();
    let stiffnesses = [5e4, 1e5, 2e5, 4e5];
    let threaded: Vec<RunResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = stiffnesses
            .iter()
            .map(|&k| {
                let (blueprint, d) = (Arc::clone(&blueprint), Arc::clone(&d));
                let v = vector.with_values(&[k]).unwrap();
                scope.spawn(move || run_vector(&blueprint, &d, &v))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (k, run) in stiffnesses.iter().zip(&threaded) {
        let reference = load(
            "models/ball_drop.toml",
            &[format!("contact.normal.stiffness={k}").as_str()],
        );
        assert_same_run(run, &simulate(&reference, RunOptions::default()).unwrap());
    }
}

/// Each path error names the path and says what to write instead; each is found when the
/// vector is laid out, not when a loop first runs it.
#[test]
fn a_path_a_vector_cannot_hold_is_refused_with_what_to_write() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let error = |paths: &[&str]| {
        blueprint
            .parameter_vector(&d, paths)
            .unwrap_err()
            .to_string()
    };
    let cases: [(&[&str], &[&str]); 17] = [
        (&["bal.mass"], &["no block 'bal'", "did you mean 'ball'"]),
        (&["ball.mas"], &["not a parameter of a Solid", "ball.mass"]),
        (&["contact.normal.method"], &["a string, not a number"]),
        (
            &["contact.normal"],
            &["a table", "contact.normal.stiffness"],
        ),
        (&["free.position"], &["array of 3", "free.position[0]"]),
        (&["free.position[3]"], &["past the end", "0 to 2"]),
        (&["ball.mass[0]"], &["not an array", "'ball.mass'"]),
        (&["free.position[z]"], &["not an element index"]),
        (&["ball.mass", "ball.mass"], &["given twice"]),
        (
            &["contact.normal.transition_width"],
            &["not written in the model", "[blocks.contact]"],
        ),
        (
            &["ball.geometry.radius"],
            &["moves or reshapes a geometry", "cannot move"],
        ),
        // The same element written two ways is one slot.
        (
            &["free.position[2]", "free.position [ 2 ]"],
            &["given twice"],
        ),
        (&["ball.mass.x"], &["below 'mass', which is not a table"]),
        // A boolean default, and a parameter the block takes only when the model writes it.
        (&["contact.kink_crossings"], &["is a boolean, not a number"]),
        (
            &["ball.density"],
            &["either mass or density", "leave that slot out"],
        ),
        // A count: any change of it would change the ports.
        (&["scope.inputs"], &["cannot move", "a count"]),
        (&["free.position[99999999999999999999999]"], &["too large"]),
    ];
    for (paths, wanted) in cases {
        let e = error(paths);
        for w in wanted {
            assert!(e.contains(w), "{paths:?}: {e}");
        }
    }
}

#[test]
fn a_value_a_block_refuses_is_reported_by_slot() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let vector = blueprint.parameter_vector(&d, &BALL_SLOTS).unwrap();
    let refused = |i: usize, x: f64| {
        let mut v = vector.clone();
        v[i] = x;
        blueprint.parameters_from(&d, &v).unwrap_err().to_string()
    };
    let e = refused(0, -1.0);
    assert!(e.contains("stiffness"), "{e}");
    assert!(e.contains("contact.normal.stiffness=-1"), "{e}");
    let e = refused(2, f64::NAN);
    assert!(
        e.contains("'ball.mass' = NaN is not a finite number"),
        "{e}"
    );
    let e = refused(3, f64::INFINITY);
    assert!(e.contains("'free.position[2]' = inf"), "{e}");
    let e = vector.clone().set_values(&[1.0]).unwrap_err();
    assert_eq!((e.expected, e.given), (5, 1));
    let (other_blueprint, other) = load_parts("models/pendulum_stop.toml", &[]);
    let e = other_blueprint
        .parameters_from(&other, &vector)
        .unwrap_err()
        .to_string();
    assert!(e.contains("another diagram"), "{e}");
    // The same blocks built with other values: the vector's built values are not this
    // diagram's, so skipping unmoved slots would run the wrong numbers.
    let (heavier_blueprint, heavier) = load_parts("models/ball_drop.toml", &["ball.mass=2"]);
    let e = heavier_blueprint
        .parameters_from(&heavier, &vector)
        .unwrap_err()
        .to_string();
    assert!(e.contains("another diagram"), "{e}");
    // Long numbers are written short in the set's assignments.
    let mut huge = vector.clone();
    huge[0] = 1e300;
    let set = blueprint.parameters_from(&d, &huge).unwrap();
    assert_eq!(texts(&set), ["contact.normal.stiffness=1e300"]);
}

/// Two elements of one array parameter moved: each override carries the whole array with both
/// elements moved, so replaying the overrides in order (as `build_model_with` does) leaves both
/// changes, and the path is the parameter's (the slot's trailing `[i]` stripped, nothing else).
#[test]
fn two_moved_elements_of_one_parameter_replay_to_both_changes() {
    let (blueprint, d) = load_parts("models/ball_drop.toml", &[]);
    let mut vector = blueprint
        .parameter_vector(&d, &["free.position[0]", "free.position[2]"])
        .unwrap();
    vector.set_values(&[0.25, 1.5]).unwrap();
    let set = blueprint.parameters_from(&d, &vector).unwrap();
    assert_eq!(
        texts(&set),
        ["free.position[0]=0.25", "free.position[2]=1.5"]
    );
    let both = ParamValue::from([0.25, 0.0, 1.5].as_slice());
    for moved in set.assignments() {
        assert_eq!((moved.path(), moved.value()), ("free.position", &both));
    }
}
