//! Modelling mistakes that used to run silently or get a misleading message (issue 28, part 5).
//! Each test names the mistake; the messages are checked word for word where they matter.

use std::path::Path;

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn revolute_q0_in_degrees_warns_that_it_reads_radians() {
    let text = example("pendulum").replace("q0 = 1.5707963267948966 ", "q0 = 90.0 ");
    assert!(
        text.contains("q0 = 90.0 "),
        "the example changed: update this test"
    );
    let d = blockdyn::load_model_str("pendulum.toml", &text, &[]).unwrap();
    let expected = "block 'hinge': q0 = 90 rad is more than a full turn: joint angles are in radians; if you meant 90°, write q0 = 1.5707963268";
    assert!(d.warnings.iter().any(|w| w == expected), "{:?}", d.warnings);
    // Within a full turn, no warning: 6 rad is a valid start.
    let text = example("pendulum").replace("q0 = 1.5707963267948966 ", "q0 = 6.0 ");
    let d = blockdyn::load_model_str("pendulum.toml", &text, &[]).unwrap();
    assert!(
        !d.warnings.iter().any(|w| w.contains("full turn")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn connect_written_after_the_model_header_says_to_move_it() {
    // `connect` below [model] lands in [model] (TOML's rule): the message says so and where to go.
    let text = "[model]\nstop_time = 1.0\nconnect = [\"a.out -> b.in\"]\n\n[blocks.a]\ntype = \"Constant\"\nvalue = 1.0\n";
    let e = blockdyn::load_model_str("m.toml", text, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("m.toml:3:1: unknown parameter 'connect'"), "{e}");
    assert!(
        e.contains("move `connect = [...]` to the top of the file, above the first [table] header"),
        "{e}"
    );
}

#[test]
fn a_restitution_out_of_range_is_named_once() {
    let text = example("newtons_cradle").replacen("restitution = 1.0", "restitution = 1.5", 1);
    let e = blockdyn::load_model_str("cradle.toml", &text, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("'restitution' must be in [0, 1]"), "{e}");
    assert!(!e.contains("'restitution' 'restitution'"), "{e}");
}

#[test]
fn gravity_along_every_hinge_axis_warns_that_nothing_will_move() {
    // The pendulum's hinge turns about z; gravity along −z does no work on it, and nothing else
    // drives it: the run would show a pendulum that never moves.
    let text =
        example("pendulum").replace("gravity = [0.0, -9.81, 0.0]", "gravity = [0.0, 0.0, -9.81]");
    assert!(
        text.contains("gravity = [0.0, 0.0, -9.81]"),
        "the example changed: update this test"
    );
    let d = blockdyn::load_model_str("pendulum.toml", &text, &[]).unwrap();
    let expected = "block 'gravity': gravity [0, 0, -9.81] m/s² has no component along any joint's motion and nothing else drives the mechanism";
    assert!(
        d.warnings.iter().any(|w| w.starts_with(expected)),
        "{:?}",
        d.warnings
    );
    // As written (gravity along −y, across the hinge), no warning; nor once the hinge is given a
    // start velocity (it turns at constant speed: a valid model).
    let d = blockdyn::load_model_str("pendulum.toml", &example("pendulum"), &[]).unwrap();
    assert!(
        !d.warnings.iter().any(|w| w.contains("nothing will move")),
        "{:?}",
        d.warnings
    );
    let spinning = text.replace("w0 = 0.0", "w0 = 1.0");
    assert!(
        spinning.contains("w0 = 1.0"),
        "the example changed: update this test"
    );
    let d = blockdyn::load_model_str("pendulum.toml", &spinning, &[]).unwrap();
    assert!(
        !d.warnings.iter().any(|w| w.contains("nothing will move")),
        "{:?}",
        d.warnings
    );
}

mod cli_common;

/// sqrt(1 − t) turns NaN after t = 1 s; only a Scope reads it, so nothing stops the run.
const NAN_INTO_SCOPE: &str = r#"connect = ["clock.out -> root.in", "root.out -> scope.in1"]

[model]
stop_time = 2.0

[blocks.clock]
type = "Clock"

[blocks.root]
type = "Fcn"
expression = "sqrt(1 - u)"

[blocks.scope]
type = "Scope"
"#;

#[test]
fn nan_from_a_fcn_into_a_scope_is_reported_with_its_column_and_time() {
    let d = blockdyn::load_model_str("nan.toml", NAN_INTO_SCOPE, &[]).unwrap();
    let result = blockdyn::simulate(&d, Default::default()).unwrap();
    let row = result.non_finite_row.expect("a non-finite row is reported");
    assert_eq!(row.column, "root.out");
    // The first row past t = 1 s (rows are taken at the steps' ends and inside them).
    assert!(row.time > 1.0 && row.time < 1.1, "{row:?}");
    // The CLI says it, and still writes the CSV (the run is not an error).
    let dir = cli_common::temp_dir("nan_into_scope");
    let model = dir.join("nan.toml");
    std::fs::write(&model, NAN_INTO_SCOPE).unwrap();
    let csv = dir.join("nan.csv");
    let out = cli_common::blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let stderr = cli_common::text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: column 'root.out' is NaN or infinite from t = "),
        "{stderr}"
    );
    assert!(csv.exists());
    // A finite model says nothing of the kind.
    let d = blockdyn::load_model_str("ok.toml", &NAN_INTO_SCOPE.replace("1 - u", "1 + u"), &[])
        .unwrap();
    assert!(blockdyn::simulate(&d, Default::default())
        .unwrap()
        .non_finite_row
        .is_none());
}
