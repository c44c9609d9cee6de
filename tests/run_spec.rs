//! The run spec (issue 29, part 2): what a run reads is settled when the diagram is built — the
//! solver's method as an enum, the stop time, and the recorded signals resolved to offsets in the
//! signal buffer — and a bad `[output] log` name is refused by the build, at its place.

use blockdyn::sim::Recorder;
use blockdyn::solver::Method;

/// A 3-vector source scoped whole, one element of it logged, a scalar logged.
const MODEL: &str = r#"
connect = ["v.out -> scope.in1"]
[model]
name = "spec"
stop_time = 2.5
[solver]
method = "trbdf2"
rel_tol = 1e-5
[output]
log = ["k.out", "v.out[1]"]
refine = 3
[blocks.v]
type = "Constant"
value = [1.0, 2.0, 3.0]
[blocks.k]
type = "Constant"
value = 4.0
[blocks.scope]
type = "Scope"
"#;

#[test]
fn the_run_spec_holds_the_settings_and_the_resolved_columns() {
    let d = blockdyn::load_model_str("spec.toml", MODEL, &[]).unwrap_or_else(|e| panic!("{e}"));
    let run = d.run();
    assert_eq!(run.name, "spec");
    assert_eq!(run.stop_time, 2.5);
    assert_eq!(run.solver.method, Method::Trbdf2);
    assert_eq!(run.solver.rel_tol, 1e-5);
    assert_eq!(run.output.rows, blockdyn::model::OutputRows::Refine(3));
    assert_eq!(run.output.log, ["k.out", "v.out[1]"]);
    let rec = &run.output.recorded;
    assert_eq!(rec.panels, ["scope"]);
    let names: Vec<&str> = rec.columns.iter().map(|c| c.name.as_str()).collect();
    // The scope's three elements (panel 0), then k.out; v.out[1] is already a scope column.
    assert_eq!(names, ["v.out[0]", "v.out[1]", "v.out[2]", "k.out"]);
    let panels: Vec<Option<usize>> = rec.columns.iter().map(|c| c.panel).collect();
    assert_eq!(panels, [Some(0), Some(0), Some(0), None]);
    // Offsets: the elements of v.out are consecutive; k.out is elsewhere in the buffer.
    let v = d.block_index("v").unwrap();
    let k = d.block_index("k").unwrap();
    let v0 = d.blocks()[v].output_slots[0].offset as usize;
    let k0 = d.blocks()[k].output_slots[0].offset as usize;
    assert_eq!(rec.offsets, [v0, v0 + 1, v0 + 2, k0]);
    // The recorder takes the columns as resolved.
    assert_eq!(Recorder::new(&d).recording.columns, rec.columns);
}

#[test]
fn a_bad_log_name_is_refused_by_the_build_at_its_place() {
    let text = MODEL.replace("\"k.out\"", "\"k.outt\"");
    let e = blockdyn::load_model_str("spec.toml", &text, &[]).unwrap_err();
    assert_eq!(
        e.message,
        "[output] log names 'k.outt', but block 'k' has no output 'outt'"
    );
    assert_eq!(e.hint.as_deref(), Some("did you mean 'k.out'?"));
    // The `log = [...]` line of MODEL (line 1 is empty).
    assert_eq!(e.line_column.map(|(line, _)| line), Some(10));
}

#[test]
fn a_linearization_names_a_port_at_the_place_its_block_was_written() {
    let d = blockdyn::load_model_str("spec.toml", MODEL, &[]).unwrap();
    let spec = blockdyn::LinearizeSpec {
        inputs: Vec::new(),
        outputs: vec!["k.outt".to_string()],
        at: 0.0,
    };
    let Err(blockdyn::LinearizeError::Name(e)) = blockdyn::linearize(&d, &spec) else {
        panic!("an unknown output is a name error");
    };
    assert!(e.message.contains("has no output 'outt'"), "{e}");
    assert_eq!(e.file.as_deref(), Some("spec.toml"));
    // `[blocks.k]` is line 15 of MODEL (line 1 is empty), located when the diagram was built.
    assert_eq!(e.line_column.map(|(line, _)| line), Some(15), "{e}");
    assert_eq!(e.hint.as_deref(), Some("did you mean 'k.out'?"));
}

#[test]
fn a_parameter_set_fits_the_builds_of_the_same_tables_only() {
    let (blueprint, d) = blockdyn::load_model_str_parts("spec.toml", MODEL, &[]).unwrap();
    let set = blueprint
        .parameters(&d, &["k.value=3".parse().unwrap()])
        .unwrap();
    assert!(set.fits(&d));
    // The same text built again: the same tables (values and places).
    let again = blockdyn::load_model_str("spec.toml", MODEL, &[]).unwrap();
    assert!(set.fits(&again));
    // Block k built with another value: running the set there would use the first build's k.
    let other =
        blockdyn::load_model_str("spec.toml", MODEL, &["k.value=5".parse().unwrap()]).unwrap();
    assert!(!set.fits(&other));
    // Another block's value does not matter to a set of k only.
    let v_moved = MODEL.replace("[1.0, 2.0, 3.0]", "[1.0, 2.0, 4.0]");
    let other_v = blockdyn::load_model_str("spec.toml", &v_moved, &[]).unwrap();
    assert!(set.fits(&other_v));
}
