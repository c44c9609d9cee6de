//! Model variables and expressions (issue 32, part 1): a model written with `[variables]` and
//! `"= ..."` expressions builds and runs to the same bits as the same model written out
//! literally; `--set NAME=VALUE` moves every parameter that depends on the variable; errors are
//! located at the expression's characters. Everything is built from strings in memory.

use blockdyn::{load_model_str, simulate};

/// A pendulum whose bob is a brick on a rod, written with variables: the rod length, the brick's
/// size and mass, and the release angle in degrees.
const WITH_VARIABLES: &str = r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "hinge.q -> scope.in1", "hinge.w -> scope.in2"]

[variables]
length = 0.8
size = [0.1, 0.05, "= 2 * 0.05"]
density = 2700.0
mass = "= density * size[0] * size[1] * size[2]"
angle_deg = 60.0
damping = "= 0.01 * mass * length ^ 2"

[model]
stop_time = "= 4 * PI * sqrt(length / 9.81)"

[solver]
rel_tol = 1e-9
abs_tol = 1e-11

[blocks.world]
type = "WorldFrame"

[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, "= -9.81", 0.0]

[blocks.hinge]
type = "RevoluteJoint"
q0 = "= angle_deg * PI / 180"
damping = "=damping"

[blocks.rod]
type = "RigidTransform"
translation = [0.0, "= -length", 0.0]

[blocks.bob]
type = "Solid"
geometry = { shape = "brick", size = "= size" }
mass = "= mass"

[blocks.scope]
type = "Scope"
inputs = 2
"#;

/// The same model written out literally, each number computed the way the expression does.
fn literal(length: f64, angle_deg: f64) -> String {
    let size = [0.1, 0.05, 2.0 * 0.05];
    let mass = 2700.0 * size[0] * size[1] * size[2];
    let damping = 0.01 * mass * length.powf(2.0);
    let stop_time = 4.0 * std::f64::consts::PI * (length / 9.81).sqrt();
    let q0 = angle_deg * std::f64::consts::PI / 180.0;
    format!(
        r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "hinge.q -> scope.in1", "hinge.w -> scope.in2"]

[model]
stop_time = {stop_time:e}

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
q0 = {q0:e}
damping = {damping:e}

[blocks.rod]
type = "RigidTransform"
translation = [0.0, {neg_length:e}, 0.0]

[blocks.bob]
type = "Solid"
geometry = {{ shape = "brick", size = [{s0:e}, {s1:e}, {s2:e}] }}
mass = {mass:e}

[blocks.scope]
type = "Scope"
inputs = 2
"#,
        neg_length = -length,
        s0 = size[0],
        s1 = size[1],
        s2 = size[2],
    )
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// Runs both models and compares every recorded row bit for bit.
fn same_run(a: &str, a_sets: &[String], b: &str) {
    let da = load_model_str(
        "variables.toml",
        a,
        &blockdyn::Override::parse_all(a_sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let db = load_model_str("literal.toml", b, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(da.run().stop_time.to_bits(), db.run().stop_time.to_bits());
    let ra = simulate(&da, Default::default()).unwrap();
    let rb = simulate(&db, Default::default()).unwrap();
    assert!(ra.stats.steps > 10);
    assert_eq!(bits(&ra.recording.times), bits(&rb.recording.times));
    assert_eq!(bits(&ra.recording.values), bits(&rb.recording.values));
}

#[test]
fn a_model_with_variables_runs_to_the_same_bits_as_the_literal_model() {
    // {:e} prints the shortest representation that reads back to the same f64, so the literal
    // model holds exactly the values the expressions computed.
    same_run(WITH_VARIABLES, &[], &literal(0.8, 60.0));
}

#[test]
fn set_on_a_variable_moves_every_parameter_that_depends_on_it() {
    // The rod's length moves the translation, the damping and the stop time; the angle moves q0.
    let sets = ["length=1.2".to_string(), "angle_deg=30".to_string()];
    same_run(WITH_VARIABLES, &sets, &literal(1.2, 30.0));
    // And the run differs from the unchanged model's.
    let unchanged = load_model_str("v.toml", WITH_VARIABLES, &[]).unwrap();
    let moved = load_model_str(
        "v.toml",
        WITH_VARIABLES,
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .unwrap();
    assert_ne!(unchanged.run().stop_time, moved.run().stop_time);
}

#[test]
fn set_names_an_unknown_variable_with_did_you_mean() {
    let e = load_model_str("v.toml", WITH_VARIABLES, &["lenght=1.0".parse().unwrap()]).unwrap_err();
    assert!(
        e.message.contains("the model has no variable 'lenght'"),
        "{e}"
    );
    assert!(
        e.hint
            .as_deref()
            .unwrap_or("")
            .contains("did you mean 'length'"),
        "{e}"
    );
}

/// Line and column (1-based) of the first occurrence of `needle` in `text`, plus `offset`
/// characters.
fn place(text: &str, needle: &str, offset: u32) -> (u32, u32) {
    let at = text.find(needle).unwrap();
    let line = text[..at].matches('\n').count() as u32 + 1;
    let column = text[..at].rsplit('\n').next().unwrap().chars().count() as u32 + 1;
    (line, column + offset)
}

#[test]
fn an_unknown_name_and_a_cycle_are_located_errors() {
    let unknown = WITH_VARIABLES.replace("\"= -length\"", "\"= -lenght\"");
    let e = load_model_str("v.toml", &unknown, &[]).unwrap_err();
    assert!(e.message.contains("unknown name 'lenght'"), "{e}");
    assert!(
        e.hint
            .as_deref()
            .unwrap_or("")
            .contains("did you mean 'length'"),
        "{e}"
    );
    // The column of the name itself: after `"= -`.
    assert_eq!(
        e.line_column,
        Some(place(&unknown, "\"= -lenght\"", 4)),
        "{e}"
    );

    let cycle = WITH_VARIABLES.replace("length = 0.8", "length = \"= damping / 2\"");
    let e = load_model_str("v.toml", &cycle, &[]).unwrap_err();
    assert!(
        e.message
            .contains("a cycle between variables: length → damping → length"),
        "{e}"
    );
    assert_eq!(
        e.line_column,
        Some(place(&cycle, "\"= damping / 2\"", 3)),
        "{e}"
    );

    let not_a_number = WITH_VARIABLES.replace("angle_deg = 60.0", "angle_deg = \"= 60 / 0\"");
    let e = load_model_str("v.toml", &not_a_number, &[]).unwrap_err();
    assert!(e.message.contains("not a finite number"), "{e}");
    assert_eq!(
        e.line_column.map(|(l, _)| l),
        Some(place(&not_a_number, "60 / 0", 0).0)
    );
}
