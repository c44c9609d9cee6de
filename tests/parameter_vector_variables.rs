//! Parameter vectors and sets that name model variables (issue 32, part 1): moving a variable
//! moves every parameter whose expression reads it, directly or through other variables, and a
//! run with the vector is, bit for bit, the run of the model built again with `--set NAME=VALUE`.
//! Everything is built from strings in memory.

use blockdyn::builder::ParamValue;
use blockdyn::{load_model_str_parts, simulate, Blueprint, Diagram, RunOptions, RunResult};
use std::sync::Arc;

/// A pendulum: a brick bob of mass `m` on a massless rod of length `l`. The brick's side is a
/// variable that uses `l` (so it follows `l`), and moves the bob's inertia.
const PENDULUM: &str = r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "hinge.q -> scope.in1", "hinge.w -> scope.in2"]

[variables]
l = 0.5
m = 0.3
side = "= l / 5"
t_end = 1.0

[model]
stop_time = "= t_end"

[solver]
rel_tol = 1e-9
abs_tol = 1e-11

[blocks.world]
type = "WorldFrame"

[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]

[blocks.hinge]
type = "RevoluteJoint"
q0 = 0.6

[blocks.rod]
type = "RigidTransform"
translation = [0.0, "= -l", 0.0]

[blocks.bob]
type = "Solid"
geometry = { shape = "brick", size = ["= side", "= side", "= side"] }
mass = "= m"

[blocks.scope]
type = "Scope"
inputs = 2
"#;

fn build(overrides: &[&str]) -> Diagram {
    build_parts(overrides).1
}

/// The pendulum built with `overrides`, with the model it was built from (which parameter sets
/// and vectors are made with).
fn build_parts(overrides: &[&str]) -> (Blueprint, Diagram) {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    load_model_str_parts(
        "pendulum.toml",
        PENDULUM,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn run(d: &Diagram, set: Option<blockdyn::ParameterSet>) -> RunResult {
    simulate(
        d,
        RunOptions {
            parameters: set.map(Arc::new),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Every recorded row, the step count and the final state, bit for bit.
fn assert_same_run(a: &RunResult, b: &RunResult) {
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert!(a.stats.steps > 10, "{}", a.stats.steps);
    assert_eq!(a.stats.steps, b.stats.steps);
    assert_eq!(bits(&a.recording.times), bits(&b.recording.times));
    assert_eq!(bits(&a.recording.values), bits(&b.recording.values));
    assert_eq!(bits(&a.final_state), bits(&b.final_state));
}

#[test]
fn a_vector_over_a_variable_runs_as_the_model_built_with_set() {
    let (blueprint, d) = build_parts(&[]);
    let mut theta = blueprint.parameter_vector(&d, &["l", "m"]).unwrap();
    assert_eq!(theta.built_values(), &[0.5, 0.3]);
    for (l, m) in [(0.7, 0.3), (0.35, 1.2), (0.5, 0.3)] {
        theta.set_values(&[l, m]).unwrap();
        let with_vector = run(&d, Some(blueprint.parameters_from(&d, &theta).unwrap()));
        let fresh = build(&[&format!("l={l}"), &format!("m={m}")]);
        assert_same_run(&with_vector, &run(&fresh, None));
        // A text set naming the variables gives the same run.
        let text = blueprint
            .parameters(
                &d,
                &[
                    format!("l={l}").parse().unwrap(),
                    format!("m={m}").parse().unwrap(),
                ],
            )
            .unwrap();
        assert_same_run(&with_vector, &run(&d, Some(text)));
    }
}

#[test]
fn a_variable_used_by_another_variable_follows() {
    // `side = l / 5` sizes the brick, so moving `l` changes the bob's inertia too: the run equals
    // the fresh build, and differs from a run that moves only the rod (the side kept at 0.1).
    let (blueprint, d) = build_parts(&[]);
    let mut theta = blueprint.parameter_vector(&d, &["l"]).unwrap();
    theta[0] = 0.8;
    let set = blueprint.parameters_from(&d, &theta).unwrap();
    let moved: Vec<String> = set.assignments().iter().map(ToString::to_string).collect();
    assert_eq!(moved, ["l=0.8"]);
    let l = &set.assignments()[0];
    assert_eq!((l.path(), l.value()), ("l", &ParamValue::Float(0.8)));
    let with_vector = run(&d, Some(set));
    assert_same_run(&with_vector, &run(&build(&["l=0.8"]), None));
    let rod_only = run(
        &d,
        Some(
            blueprint
                .parameters(&d, &["rod.translation=[0.0, -0.8, 0.0]".parse().unwrap()])
                .unwrap(),
        ),
    );
    assert_ne!(with_vector.final_state, rod_only.final_state);
    // The rod alone is the model built with the side pinned at l / 5 = 0.1.
    assert_same_run(&rod_only, &run(&build(&["l=0.8", "side=0.1"]), None));
}

#[test]
fn a_vector_mixes_variables_and_block_parameters() {
    // hinge.q0 is no expression: it is set after the re-read, as `--set hinge.q0=...` would.
    let (blueprint, d) = build_parts(&[]);
    let theta = blueprint.parameter_vector(&d, &["hinge.q0", "l"]).unwrap();
    let theta = theta.with_values(&[0.2, 0.9]).unwrap();
    let with_vector = run(&d, Some(blueprint.parameters_from(&d, &theta).unwrap()));
    assert_same_run(&with_vector, &run(&build(&["hinge.q0=0.2", "l=0.9"]), None));
}

#[test]
fn a_vector_starts_from_the_values_the_model_was_built_with() {
    // Built with --set l=0.6: the slot starts there, and the side followed it.
    let (blueprint, d) = build_parts(&["l=0.6"]);
    let theta = blueprint.parameter_vector(&d, &["l", "side"]).unwrap();
    assert_eq!(theta.built_values(), &[0.6, 0.6 / 5.0]);
    // A second build of the same text with the same overrides is read the same way: it fits.
    assert!(theta.fits(&build(&["l=0.6"])));
    // Laid out on another build (other overrides), it does not fit.
    let (other_blueprint, other) = build_parts(&[]);
    assert!(!theta.fits(&other));
    let e = other_blueprint.parameters_from(&other, &theta).unwrap_err();
    assert!(e.message.contains("another diagram"), "{e}");
}

#[test]
fn unknown_variables_and_settings_are_refused_with_what_to_do() {
    let (blueprint, d) = build_parts(&[]);
    let e = blueprint.parameter_vector(&d, &["sidee"]).unwrap_err();
    assert!(e.message.contains("no variable 'sidee'"), "{e}");
    assert!(e.hint.unwrap_or_default().contains("did you mean 'side'"));
    let e = blueprint
        .parameters(&d, &["sidee=0.2".parse().unwrap()])
        .unwrap_err();
    assert!(e.hint.unwrap_or_default().contains("did you mean 'side'"));
    // stop_time is an expression of t_end: a set never changes [model].
    let e = blueprint.parameter_vector(&d, &["t_end"]).unwrap_err();
    assert!(e.message.contains("cannot move"), "{e}");
    assert!(e.message.contains("[model]"), "{e}");
    // A model without variables says what a bare name is.
    let (plain_blueprint, plain) = load_model_str_parts(
        "plain.toml",
        "connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n",
        &[],
    )
    .unwrap();
    let e = plain_blueprint
        .parameter_vector(&plain, &["gain"])
        .unwrap_err();
    assert!(e.message.contains("no variable 'gain'"), "{e}");
    assert!(e.hint.unwrap_or_default().contains("block.param"));
}

#[test]
fn a_geometry_a_contact_reads_still_cannot_move() {
    // The same brick, now on a contact with the ground: its size is read by the contact, so a
    // vector over `l` (which sizes the brick) is refused at layout, naming the geometry.
    let with_contact = PENDULUM
        .replace(
            "\"hinge.w -> scope.in2\"]",
            "\"hinge.w -> scope.in2\", \"world.W -- floor.R\", \"floor.G -- contact.B\", \"bob.G -- contact.F\"]",
        )
        + "\n[blocks.floor]\ntype = \"InfinitePlane\"\n[blocks.contact]\ntype = \"SpatialContactForce\"\nnormal = { method = \"linear_spring_damper\", stiffness = 1e5, damping = 100.0 }\n";
    let (blueprint, d) =
        load_model_str_parts("contact.toml", &with_contact, &[]).unwrap_or_else(|e| panic!("{e}"));
    let e = blueprint.parameter_vector(&d, &["l"]).unwrap_err();
    assert!(
        e.message.contains("a geometry that a contact block reads"),
        "{e}"
    );
    // The mass moves no geometry.
    assert!(blueprint.parameter_vector(&d, &["m"]).is_ok());
}
