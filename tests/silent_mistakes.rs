//! Modelling mistakes that used to run silently or get a misleading message (issue 28, part 5).
//! Each test names the mistake; the messages are checked word for word where they matter.

use std::path::Path;

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    std::fs::read_to_string(path).unwrap()
}

/// The 1-based line and column where `needle` starts in `text`.
fn line_column(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("the example has it");
    let line_start = text[..at].rfind('\n').map_or(0, |k| k + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

#[test]
fn revolute_q0_in_degrees_warns_that_it_reads_radians() {
    let text = example("pendulum").replace("q0 = 1.5707963267948966 ", "q0 = 90.0 ");
    assert!(
        text.contains("q0 = 90.0 "),
        "the example changed: update this test"
    );
    let d = blockdyn::load_model_str("pendulum.toml", &text, &[]).unwrap();
    // Located at the value of q0: its line, and the column after "q0 = ".
    let (line, column) = line_column(&text, "q0 = 90.0");
    let expected = format!("pendulum.toml:{line}:{}: block 'hinge': q0 = 90 rad is more than a full turn: joint angles are in radians; if you meant 90°, write q0 = 1.5707963268", column + 5);
    assert!(d.warnings().contains(&expected), "{:?}", d.warnings());
    // Within a full turn, no warning: 6 rad is a valid start.
    let text = example("pendulum").replace("q0 = 1.5707963267948966 ", "q0 = 6.0 ");
    let d = blockdyn::load_model_str("pendulum.toml", &text, &[]).unwrap();
    assert!(
        !d.warnings().iter().any(|w| w.contains("full turn")),
        "{:?}",
        d.warnings()
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
    // Located at the value of the configuration block's gravity.
    let (line, column) = line_column(&text, "gravity = [0.0, 0.0, -9.81]");
    let expected = format!("pendulum.toml:{line}:{}: block 'gravity': gravity [0, 0, -9.81] m/s² has no component along any joint's motion and nothing else drives the mechanism", column + 10);
    assert!(
        d.warnings().iter().any(|w| w.starts_with(&expected)),
        "{:?}",
        d.warnings()
    );
    // As written (gravity along −y, across the hinge), no warning; nor once the hinge is given a
    // start velocity (it turns at constant speed: a valid model).
    let d = blockdyn::load_model_str("pendulum.toml", &example("pendulum"), &[]).unwrap();
    assert!(
        !d.warnings().iter().any(|w| w.contains("nothing will move")),
        "{:?}",
        d.warnings()
    );
    let spinning = text.replace("w0 = 0.0", "w0 = 1.0");
    assert!(
        spinning.contains("w0 = 1.0"),
        "the example changed: update this test"
    );
    let d = blockdyn::load_model_str("pendulum.toml", &spinning, &[]).unwrap();
    assert!(
        !d.warnings().iter().any(|w| w.contains("nothing will move")),
        "{:?}",
        d.warnings()
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

/// The warnings of `text` (loaded as `label`) that contain `needle`.
fn warnings_with(label: &str, text: &str, needle: &str) -> Vec<String> {
    let d = blockdyn::load_model_str(label, text, &[]).unwrap();
    d.warnings()
        .iter()
        .filter(|w| w.contains(needle))
        .cloned()
        .collect()
}

#[test]
fn a_planar_mechanism_on_a_3d_ground_contact_warns_that_it_falls_forever() {
    // The hopper moves in the x-y plane with gravity along −y; without `dimension = 2` its
    // GroundContact is the x-y plane with z up, which no point ever reaches.
    let text = example("planar_hopper").replace("dimension = 2\n", "");
    assert!(
        !text.contains("\ndimension"),
        "the example changed: update this test"
    );
    let (line, column) = line_column(&text, "[blocks.ground]");
    let expected = format!("planar_hopper.toml:{line}:{}: block 'ground': this GroundContact's ground is the World x-y plane with z up (dimension = 3, the default), but gravity [0, -9.81, 0] m/s² has no z component: no point ever falls onto the ground", column + 8);
    let found = warnings_with("planar_hopper.toml", &text, "GroundContact's ground");
    assert!(found.iter().any(|w| w.starts_with(&expected)), "{found:?}");
    assert!(
        found[0].contains(
            "help: for a planar mechanism in the x-y plane with y up write dimension = 2"
        ),
        "{found:?}"
    );
    // As written (dimension = 2), no warning.
    let ok = example("planar_hopper");
    assert!(warnings_with("planar_hopper.toml", &ok, "GroundContact's ground").is_empty());
    // dimension = 2 with gravity along −z: warned at `dimension`'s value.
    let down_z = ok.replace("gravity = [0.0, -9.81, 0.0]", "gravity = [0.0, 0.0, -9.81]");
    assert!(down_z.contains("[0.0, 0.0, -9.81]"), "the example changed");
    // (The header comment names `dimension = 2` too: the key is the one at a line's start.)
    let (line, _) = line_column(&down_z, "\ndimension = 2");
    let found = warnings_with("planar_hopper.toml", &down_z, "GroundContact's ground");
    let expected = format!("planar_hopper.toml:{}:13: block 'ground': this GroundContact's ground is the World x axis with y up (dimension = 2), but gravity [0, 0, -9.81] m/s² has no y component", line + 1);
    assert!(found.iter().any(|w| w.starts_with(&expected)), "{found:?}");
}

#[test]
fn a_body_started_inside_the_floor_warns_naming_the_pair_the_depth_and_the_static_depth() {
    // ball_drop: a 1 kg sphere of radius 0.1 m over a plane, linear law k = 1e5 N/m. Centred at
    // z = 0.02 m it starts 0.1 − 0.02 = 0.08 m deep; its static depth is m·g/k = 9.81/1e5 =
    // 9.81e-5 m; 0.08/9.81e-5 = 815.5 (printed to 4 digits: exact here to rounding).
    let text =
        example("ball_drop").replace("position = [0.0, 0.0, 1.0]", "position = [0.0, 0.0, 0.02]");
    assert!(text.contains("[0.0, 0.0, 0.02]"), "the example changed");
    let (line, column) = line_column(&text, "[blocks.contact]");
    let expected = format!("ball_drop.toml:{line}:{}: block 'contact': floor.G and ball.G start 8.000e-2 m into each other, 815× this contact's static depth 9.810e-5 m (the linear_spring_damper law's depth under the mechanism's weight W = 9.8100 N, k = 100000)", column + 8);
    let found = warnings_with("ball_drop.toml", &text, "into each other");
    assert!(found.iter().any(|w| w.starts_with(&expected)), "{found:?}");
    // Resting at its static depth (z = 0.1 − 9.81e-5), or dropped from 1 m: no warning.
    let resting = example("ball_drop").replace(
        "position = [0.0, 0.0, 1.0]",
        "position = [0.0, 0.0, 0.0999019]",
    );
    assert!(warnings_with("ball_drop.toml", &resting, "into each other").is_empty());
    assert!(warnings_with("ball_drop.toml", &example("ball_drop"), "into each other").is_empty());

    // GroundContact: a point 8 cm below the ground; one point carrying W = 9.81 N with
    // K = 1e6 N/m^1.5 rests at (W/K)^(2/3) = (9.81e-6)^(2/3) = 4.5826e-4 m; 0.08/4.5826e-4 = 174.6.
    let text = example("particle_on_ground").replace(
        "position = [0.0, 0.0, -4.5817e-4]",
        "position = [0.0, 0.0, -0.08]",
    );
    assert!(text.contains("-0.08]"), "the example changed");
    let found = warnings_with("particle_on_ground.toml", &text, "into each other");
    assert!(
        found.iter().any(|w| w.contains("block 'ground': foot.G and the ground start 8.000e-2 m into each other, 175× this contact's static depth 4.583e-4 m ((W/K)^(2/3)")),
        "{found:?}"
    );
    // As written, resting at the static compression: no warning.
    assert!(warnings_with(
        "particle_on_ground.toml",
        &example("particle_on_ground"),
        "into each other"
    )
    .is_empty());
}

/// Each text (as `label`) is refused with a message containing every one of `expected`.
fn refused_with(label: &str, text: &str, expected: &[&str]) {
    let e = blockdyn::load_model_str(label, text, &[])
        .unwrap_err()
        .to_string();
    for x in expected {
        assert!(e.contains(x), "expected {x:?} in:\n{e}");
    }
}

#[test]
fn a_table_header_nested_90_deep_is_located_at_its_line() {
    let header = format!("[{}]", vec!["a"; 90].join("."));
    refused_with(
        "deep.toml",
        &format!("[model]\nstop_time = 1.0\n\n{header}\nx = 1\n"),
        &[
            "deep.toml:4:2: invalid TOML: this key has 90 dotted parts, more than the TOML parser reads (80)",
            "help: a block is [blocks.NAME]",
        ],
    );
    // A dotted key of a `key = value` line, likewise.
    let key = vec!["b"; 85].join(".");
    refused_with(
        "deep.toml",
        &format!("[model]\nstop_time = 1.0\n{key} = 1\n"),
        &["deep.toml:3:1: invalid TOML: this key has 85 dotted parts"],
    );
    // Inside an inline table the key is not found by its line: the message must not blame a
    // shorter key elsewhere (here the 2-part header [blocks.c]).
    let inline = format!(
        "[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nx = {{{} = 1}}\n",
        vec!["a"; 90].join(".")
    );
    let e = blockdyn::load_model_str("deep.toml", &inline, &[])
        .unwrap_err()
        .to_string();
    assert!(!e.contains("this key has 2 dotted parts"), "{e}");
    assert!(e.contains("nested too deeply"), "{e}");
}

#[test]
fn an_output_path_whose_last_component_is_a_dot_is_refused_at_its_line() {
    let text = "[model]\nstop_time = 1.0\n\n[output]\ncsv = \"out/.\"\n\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n";
    refused_with(
        "m.toml",
        text,
        &["m.toml:5:7: 'csv' \"out/.\" does not name a file"],
    );
    refused_with(
        "m.toml",
        &text.replace("out/.", "out/.."),
        &["m.toml:5:7: 'csv' \"out/..\" does not name a file"],
    );
}

#[test]
fn no_start_overlap_warning_without_weight() {
    // Without gravity a contact has no static depth: a ball placed 1e-7 m into the floor by
    // rounding is not "infinitely many times" it.
    let text = example("ball_drop")
        .replace(
            "position = [0.0, 0.0, 1.0]",
            "position = [0.0, 0.0, 0.0999999]",
        )
        .replace("gravity = [0.0, 0.0, -9.81]", "gravity = [0.0, 0.0, 0.0]");
    assert!(
        text.contains("0.0999999") && text.contains("[0.0, 0.0, 0.0]"),
        "the example changed"
    );
    assert!(warnings_with("ball_drop.toml", &text, "into each other").is_empty());
}

#[test]
fn an_empty_plot_path_is_located_and_says_what_to_write() {
    let text = "[model]\nstop_time = 1.0\n\n[output]\nplot = \"\"\n\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n";
    refused_with(
        "m.toml",
        text,
        &[
            "m.toml:5:8: 'plot' is empty",
            "help: write plot = \"run.png\" (a file, relative to the directory blockdyn runs in), or remove the line to write no plot",
        ],
    );
    refused_with(
        "m.toml",
        &text.replace("plot = \"\"", "csv = \"out/\""),
        &["m.toml:5:7: 'csv' \"out/\" ends with '/': it names a directory, not a file"],
    );
}

#[test]
fn a_parameter_set_naming_the_only_collision_of_a_link_with_a_cleaned_name_says_the_file_is_missing(
) {
    // The link `fore.arm` is the block path `arm/fore_arm` (a '.' would end the block name), and
    // its only collision, a mesh that is not there, would be `arm/fore_arm/collision` (no index).
    // The set is told why that block is missing, from the expansion's list of skipped parts (a
    // lookup by the link's name in the warning text missed the cleaned name).
    let dir = cli_common::temp_dir("set_skipped_cleaned");
    let urdf = cli_common::arm_urdf("", "arm", r#"<mesh filename="meshes/fore.stl"/>"#)
        .replace("\"fore\"", "\"fore.arm\"")
        .replace(
            "    <collision>\n      <geometry><box size=\"0.1 0.1 0.1\"/></geometry>\n    </collision>\n",
            "",
        );
    assert_eq!(urdf.matches("<collision>").count(), 1, "{urdf}");
    // Where the skipped collision is written: its line (1-based) and column 5 (4 spaces in).
    let line = 1 + urdf
        .lines()
        .position(|l| l.trim() == "<collision>")
        .unwrap();
    std::fs::write(dir.join("arm.urdf"), &urdf).unwrap();
    let model = "connect = [\"world.W -- arm.B\"]\n\n[model]\nstop_time = 0.1\n\n\
                 [blocks.world]\ntype = \"WorldFrame\"\n\n[blocks.arm]\ntype = \"Urdf\"\nfile = \"arm.urdf\"\n";
    std::fs::write(dir.join("model.toml"), model).unwrap();
    let (blueprint, d) = blockdyn::load_model_parts(&dir.join("model.toml"), &[]).unwrap();
    assert!(d.block_index("arm/fore_arm/inertial").is_some());
    assert_eq!(blueprint.skipped().len(), 1, "{:?}", blueprint.skipped());
    let e = blueprint
        .parameters(&d, &["arm/fore_arm/collision.mass=2".parse().unwrap()])
        .unwrap_err()
        .to_string();
    let expected = format!(
        "parameter 'arm/fore_arm/collision.mass=2': there is no block 'arm/fore_arm/collision': the Urdf block did not make it, because at {}/arm.urdf:{line}:5: link 'fore.arm': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing",
        dir.display()
    );
    assert!(e.contains(&expected), "expected {expected:?} in:\n{e}");
    assert!(!e.contains("did you mean"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_parameter_set_is_refused_on_a_diagram_of_another_build() {
    // The blueprint's tables index the blocks of its own build: with another build's diagram
    // (even of the same text) it refuses rather than read the wrong entries.
    let text = "connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n";
    let (blueprint, d) = blockdyn::load_model_str_parts("m.toml", text, &[]).unwrap();
    let (_, again) = blockdyn::load_model_str_parts("m.toml", text, &[]).unwrap();
    assert!(blueprint.is_of(&d) && !blueprint.is_of(&again));
    assert!(blueprint
        .parameters(&d, &["c.value=2".parse().unwrap()])
        .is_ok());
    let e = blueprint
        .parameters(&again, &["c.value=2".parse().unwrap()])
        .unwrap_err()
        .to_string();
    // Two builds of one text: the message says what differs (the builds), not the model.
    assert!(
        e.contains("the blueprint of 'm.toml' and the diagram come from two different builds"),
        "{e}"
    );
    assert!(!e.contains("not the one the diagram was built from"), "{e}");
    assert!(blueprint.parameter_vector(&again, &["c.value"]).is_err());
}

#[test]
fn initial_nan_says_it_is_a_number_that_is_not_finite() {
    let text = "[model]\nstop_time = 1.0\n\n[blocks.i]\ntype = \"Integrator\"\ninitial = nan\n";
    refused_with(
        "m.toml",
        text,
        &[
            "m.toml:6:11: block 'i': 'initial' is NaN, a number that is not finite: it must be finite",
            "help: write a finite number, e.g. initial = [1.0]",
        ],
    );
    let e = blockdyn::load_model_str("m.toml", text, &[])
        .unwrap_err()
        .to_string();
    assert!(!e.contains("not a number"), "{e}");
    // Infinity likewise (a Gain's gain is read as an array, as `initial` is).
    refused_with(
        "m.toml",
        "[model]\nstop_time = 1.0\n\n[blocks.g]\ntype = \"Gain\"\ngain = inf\n",
        &[
            "m.toml:6:8: block 'g': 'gain' is inf, a number that is not finite",
            "e.g. gain = [1.0]",
        ],
    );
}

#[test]
fn a_parameter_set_naming_a_collision_whose_mesh_is_missing_says_the_file_is_missing() {
    // The URDF's second collision (line 17) is a mesh file that is not there: the Urdf block
    // warns and skips it. A parameter set (what Python's `set=` and a sweep's points are) that
    // names its block is told why it is missing, not "did you mean collision_0".
    let dir = cli_common::temp_dir("set_skipped_mesh");
    let urdf = cli_common::arm_urdf("", "arm", r#"<mesh filename="meshes/fore.stl"/>"#);
    std::fs::write(dir.join("arm.urdf"), urdf).unwrap();
    let model = "connect = [\"world.W -- arm.B\"]\n\n[model]\nstop_time = 0.1\n\n\
                 [blocks.world]\ntype = \"WorldFrame\"\n\n[blocks.arm]\ntype = \"Urdf\"\nfile = \"arm.urdf\"\n";
    std::fs::write(dir.join("model.toml"), model).unwrap();
    let (blueprint, d) = blockdyn::load_model_parts(&dir.join("model.toml"), &[]).unwrap();
    let e = blueprint
        .parameters(&d, &["arm/fore/collision_1.mass=2".parse().unwrap()])
        .unwrap_err()
        .to_string();
    let expected = format!(
        "parameter 'arm/fore/collision_1.mass=2': there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at {}/arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing",
        dir.display()
    );
    assert!(e.contains(&expected), "expected {expected:?} in:\n{e}");
    assert!(!e.contains("did you mean"), "{e}");
    // A collision that was made is still addressed, and a typo still gets "did you mean".
    let e = blueprint
        .parameters(&d, &["arm/fore/colision_0.mass=2".parse().unwrap()])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("did you mean 'arm/fore/collision_0'"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
