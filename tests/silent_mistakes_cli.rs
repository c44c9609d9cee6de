//! The mistakes of issue 28, part 5, through the command line: each warning or error is located
//! (`file:line:column`), the exit status is the documented one (0 for a run with warnings, 1 for
//! a refused model), and no file that was there before the run changes or appears.

mod cli_common;

use std::path::Path;

/// An example model without its `[output]` files (so that a run writes nothing), with `edit`
/// applied; the edit must change the text.
fn example_edited(name: &str, from: &str, to: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml"));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "the example changed: update this test");
    text.replace(from, to)
        .lines()
        .filter(|l| {
            !["plot =", "csv =", "animation ="]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes `files` into a fresh directory, runs `blockdyn run DIR/model.toml --stop-time 0.01`,
/// and checks the exit status, that stderr contains each of `expected` (with `{dir}` standing
/// for the directory), and that the directory is unchanged byte for byte.
fn run_case(test: &str, files: &[(&str, &[u8])], success: bool, expected: &[&str]) {
    let dir = cli_common::temp_dir(test);
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let before = cli_common::snapshot(&dir);
    let model = dir.join("model.toml");
    let out = cli_common::blockdyn(&["run", model.to_str().unwrap(), "--stop-time", "0.01"]);
    let stderr = cli_common::text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(if success { 0 } else { 1 }),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    for x in expected {
        let x = x.replace("{dir}", dir.to_str().unwrap());
        assert!(stderr.contains(&x), "expected {x:?} in:\n{stderr}");
    }
    cli_common::assert_unchanged(&dir, &before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_revolute_q0_in_degrees_warns_at_its_line() {
    let text = example_edited("pendulum", "q0 = 1.5707963267948966 ", "q0 = 90.0 ");
    let line = 1 + text[..text.find("q0 = 90.0").unwrap()]
        .matches('\n')
        .count();
    let expected = format!(
        "warning: {{dir}}/model.toml:{line}:6: block 'hinge': q0 = 90 rad is more than a full turn"
    );
    run_case("q0", &[("model.toml", text.as_bytes())], true, &[&expected]);
}

#[test]
fn cli_gravity_along_every_hinge_warns_at_its_line() {
    let from = "gravity = [0.0, -9.81, 0.0]";
    let text = example_edited("pendulum", from, "gravity = [0.0, 0.0, -9.81]");
    let line = 1 + text[..text.find("gravity = [0.0, 0.0").unwrap()]
        .matches('\n')
        .count();
    let expected = format!("warning: {{dir}}/model.toml:{line}:11: block 'gravity': gravity [0, 0, -9.81] m/s² has no component along any joint's motion");
    run_case(
        "gravity",
        &[("model.toml", text.as_bytes())],
        true,
        &[&expected, "nothing will move"],
    );
}

#[test]
fn cli_planar_mechanism_on_a_3d_ground_contact_warns() {
    let text = example_edited("planar_hopper", "\ndimension = 2\n", "\n");
    let line = 1 + text[..text.find("[blocks.ground]").unwrap()]
        .matches('\n')
        .count();
    let expected = format!("warning: {{dir}}/model.toml:{line}:9: block 'ground': this GroundContact's ground is the World x-y plane with z up");
    run_case(
        "planar",
        &[("model.toml", text.as_bytes())],
        true,
        &[
            &expected,
            "help: for a planar mechanism in the x-y plane with y up write dimension = 2",
        ],
    );
}

#[test]
fn cli_body_started_inside_the_floor_warns_with_the_depths() {
    // Sphere radius 0.1 m centred at z = 0.02 m: 0.08 m deep; static depth m·g/k = 9.81e-5 m.
    let text = example_edited(
        "ball_drop",
        "position = [0.0, 0.0, 1.0]",
        "position = [0.0, 0.0, 0.02]",
    );
    let line = 1 + text[..text.find("[blocks.contact]").unwrap()]
        .matches('\n')
        .count();
    let expected = format!("warning: {{dir}}/model.toml:{line}:9: block 'contact': floor.G and ball.G start 8.000e-2 m into each other, 815× this contact's static depth 9.810e-5 m");
    run_case(
        "sunk",
        &[("model.toml", text.as_bytes())],
        true,
        &[&expected],
    );
}

/// An arm whose second collision is a mesh file that is not there (line 17 of the URDF).
fn arm_urdf_missing_mesh() -> String {
    cli_common::arm_urdf("", "arm", r#"<mesh filename="meshes/fore.stl"/>"#)
}

/// A model that touches the arm's mesh collision to a floor (line 5).
const ARM_MODEL: &str = r#"connect = [
  "world.W -- arm.B",
  "world.W -- floor.R",
  "floor.G -- touch.B",
  "arm/fore/collision_1.G -- touch.F",
]

[model]
stop_time = 0.1

[blocks.world]
type = "WorldFrame"

[blocks.arm]
type = "Urdf"
file = "arm.urdf"

[blocks.floor]
type = "InfinitePlane"

[blocks.touch]
type = "SpatialContactForce"
normal = { method = "linear_spring_damper", stiffness = 1e5, damping = 100.0 }
friction = { method = "none" }
"#;

#[test]
fn cli_missing_urdf_mesh_says_the_file_is_missing_with_its_path_and_line() {
    run_case(
        "mesh",
        &[("model.toml", ARM_MODEL.as_bytes()), ("arm.urdf", arm_urdf_missing_mesh().as_bytes())],
        false,
        &[
            "error: {dir}/model.toml:5:3: there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at {dir}/arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing (looked at {dir}/meshes/fore.stl)",
            "help: put the mesh file where the URDF says",
        ],
    );
    // Not "did you mean" the other collision.
    let dir = cli_common::temp_dir("mesh_again");
    std::fs::write(dir.join("model.toml"), ARM_MODEL).unwrap();
    std::fs::write(dir.join("arm.urdf"), arm_urdf_missing_mesh()).unwrap();
    let out = cli_common::blockdyn(&["check", dir.join("model.toml").to_str().unwrap()]);
    assert!(!cli_common::text(&out.stderr).contains("did you mean"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arm with the mesh collision's block named another way than by a connection: `model`
/// replaces ARM_MODEL's connection list; `args` follow `check MODEL`.
fn missing_mesh_case(test: &str, model: &str, args: &[&str], expected: &[&str]) {
    let dir = cli_common::temp_dir(test);
    std::fs::write(dir.join("model.toml"), model).unwrap();
    std::fs::write(dir.join("arm.urdf"), arm_urdf_missing_mesh()).unwrap();
    let before = cli_common::snapshot(&dir);
    let model = dir.join("model.toml");
    let mut all = vec!["check", model.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = cli_common::blockdyn(&all);
    let stderr = cli_common::text(&out.stderr);
    // Exit status 1: a model error, not a usage error (2) or a panic.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for x in expected {
        let x = x.replace("{dir}", dir.to_str().unwrap());
        assert!(stderr.contains(&x), "expected {x:?} in:\n{stderr}");
    }
    assert!(!stderr.contains("did you mean"), "{stderr}");
    cli_common::assert_unchanged(&dir, &before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arm alone, attached to the World (no contact with the missing mesh's block).
const ARM_ALONE: &str = r#"connect = ["world.W -- arm.B"]

[model]
stop_time = 0.1

[blocks.world]
type = "WorldFrame"

[blocks.arm]
type = "Urdf"
file = "arm.urdf"
"#;

#[test]
fn cli_missing_urdf_mesh_named_by_set_says_the_file_is_missing() {
    missing_mesh_case(
        "mesh_set",
        ARM_ALONE,
        &["--set", "arm/fore/collision_1.mass=2"],
        &[
            "error: --set 'arm/fore/collision_1.mass=2': there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at {dir}/arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing (looked at {dir}/meshes/fore.stl)",
            "or remove this override",
        ],
    );
}

#[test]
fn cli_missing_urdf_mesh_named_in_output_log_says_the_file_is_missing() {
    // The log entry is on line 7, its string at column 8.
    let model = ARM_ALONE.replace(
        "stop_time = 0.1\n",
        "stop_time = 0.1\n\n[output]\nlog = [\"arm/fore/collision_1.G\"]\n",
    );
    missing_mesh_case(
        "mesh_log",
        &model,
        &[],
        &[
            "error: {dir}/model.toml:7:8: [output] log names 'arm/fore/collision_1.G', but there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at {dir}/arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing",
            "or remove 'arm/fore/collision_1.G' from the log",
        ],
    );
}

#[test]
fn cli_missing_urdf_mesh_named_by_vary_says_the_file_is_missing() {
    // A sweep's points are parameter sets on the built diagram: the reference is checked after
    // the build, from the Urdf block's warning. Nothing is written into the empty --out.
    let dir = cli_common::temp_dir("mesh_vary");
    std::fs::write(dir.join("model.toml"), ARM_ALONE).unwrap();
    std::fs::write(dir.join("arm.urdf"), arm_urdf_missing_mesh()).unwrap();
    std::fs::create_dir(dir.join("out")).unwrap();
    let before = cli_common::snapshot(&dir);
    let model = dir.join("model.toml");
    let out_dir = dir.join("out");
    let out = cli_common::blockdyn(&[
        "sweep",
        model.to_str().unwrap(),
        "--vary",
        "arm/fore/collision_1.mass=1,2",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = cli_common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let expected = format!(
        "error: --vary 'arm/fore/collision_1.mass=1': there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at {dir}/arm.urdf:17:5: link 'fore': <collision> <mesh filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing",
        dir = dir.display()
    );
    assert!(
        stderr.contains(&expected),
        "expected {expected:?} in:\n{stderr}"
    );
    assert!(!stderr.contains("did you mean"), "{stderr}");
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);
    cli_common::assert_unchanged(&dir, &before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_table_header_nested_90_deep_is_located() {
    let text = format!(
        "[model]\nstop_time = 1.0\n\n[{}]\nx = 1\n",
        vec!["a"; 90].join(".")
    );
    run_case(
        "deep",
        &[("model.toml", text.as_bytes())],
        false,
        &[
            "error: {dir}/model.toml:4:2: invalid TOML: this key has 90 dotted parts",
            "help: a block is [blocks.NAME]",
        ],
    );
}

#[test]
fn cli_empty_plot_path_is_located() {
    let text = "[model]\nstop_time = 1.0\n\n[output]\nplot = \"\"\n\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n";
    run_case(
        "plot",
        &[("model.toml", text.as_bytes())],
        false,
        &[
            "error: {dir}/model.toml:5:8: 'plot' is empty",
            "help: write plot = \"run.png\"",
        ],
    );
}

#[test]
fn cli_initial_nan_says_it_is_not_finite() {
    let text = "[model]\nstop_time = 1.0\n\n[blocks.i]\ntype = \"Integrator\"\ninitial = nan\n";
    run_case(
        "nan",
        &[("model.toml", text.as_bytes())],
        false,
        &["error: {dir}/model.toml:6:11: block 'i': 'initial' is NaN, a number that is not finite", "help: write a finite number, e.g. initial = [1.0]"],
    );
}

/// Writes `files` into a fresh directory and runs `blockdyn ARGS` there (`{dir}` in an argument
/// or an expected text stands for the directory); checks the exit status, that stderr holds each
/// of `expected`, and that every file that was there is unchanged byte for byte and that only
/// `new_files` appeared. Returns the directory (removed by the caller) and stderr.
fn run_in(
    test: &str,
    files: &[(&str, &[u8])],
    args: &[&str],
    status: i32,
    expected: &[&str],
    new_files: &[&str],
) -> (std::path::PathBuf, String) {
    let dir = cli_common::temp_dir(test);
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let before = cli_common::snapshot(&dir);
    let out = cli_common::blockdyn_in(&dir, args, &[]);
    let stderr = cli_common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for x in expected {
        assert!(stderr.contains(x), "expected {x:?} in:\n{stderr}");
    }
    // Every old file byte for byte; the new ones are only those named.
    let mut after = cli_common::snapshot(&dir);
    for name in new_files {
        assert!(
            after.remove(&dir.join(name)).is_some(),
            "{name} not written"
        );
    }
    assert!(after == before, "files changed or appeared:\n{stderr}");
    (dir, stderr)
}

/// A user's file beside the model, which no run may touch.
const NOTES: (&str, &[u8]) = ("notes.txt", b"a user's notes\n");

#[test]
fn cli_restitution_out_of_range_names_the_parameter_once() {
    // The cradle's four RigidContact blocks with restitution 1.5: four located errors, each
    // naming 'restitution' once ("'restitution' 'restitution' must be in [0, 1]" before).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/newtons_cradle.toml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("restitution = 1.0"), "the example changed");
    let text = text.replace("restitution = 1.0", "restitution = 1.5");
    let line = 1 + text[..text.find("restitution = 1.5").unwrap()]
        .matches('\n')
        .count();
    let first = format!(
        "error: cradle.toml:{line}:15: block 'hit0': 'restitution' must be in [0, 1]\n  help: write e.g. restitution = 0.5 (0: plastic, 1: elastic)"
    );
    let args = ["run", "cradle.toml", "--csv", "run.csv"];
    let (dir, stderr) = run_in(
        "restitution",
        &[("cradle.toml", text.as_bytes()), NOTES],
        &args,
        1,
        &[&first, "4 problems in this file"],
        &[],
    );
    assert!(!stderr.contains("'restitution' 'restitution'"), "{stderr}");
    assert_eq!(stderr.matches("'restitution' must be in [0, 1]").count(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_connect_after_the_model_header_says_to_move_it_above_the_first_table() {
    // TOML puts `connect` into [model]: the message says where it belongs.
    let text = "[model]\nstop_time = 1.0\nconnect = [\"a.out -> b.in\"]\n\n[blocks.a]\ntype = \"Constant\"\nvalue = 1.0\n";
    let args = ["run", "m.toml", "--csv", "run.csv"];
    let (dir, stderr) = run_in(
        "connect",
        &[("m.toml", text.as_bytes()), NOTES],
        &args,
        1,
        &["error: m.toml:3:1: unknown parameter 'connect'\n  help: TOML puts every key written after a [table] header into that table: move `connect = [...]` to the top of the file, above the first [table] header"],
        &[],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(stderr.starts_with("error: m.toml:3:1"), "{stderr}");
}

/// sqrt(1 − t) turns NaN after t = 1 s; only a Scope reads it, so nothing stops the run.
const NAN_INTO_SCOPE: &str = "connect = [\"clock.out -> root.in\", \"root.out -> scope.in1\"]\n[model]\nstop_time = 2.0\n[blocks.clock]\ntype = \"Clock\"\n[blocks.root]\ntype = \"Fcn\"\nexpression = \"sqrt(1 - u)\"\n[blocks.scope]\ntype = \"Scope\"\n";

/// The time of the NaN warning in `stderr`.
fn warned_time(stderr: &str) -> f64 {
    let rest = stderr
        .split("is NaN or infinite from t = ")
        .nth(1)
        .expect("the warning");
    rest[..rest.find(" s ").unwrap()].parse().unwrap()
}

#[test]
fn cli_nan_from_a_fcn_into_a_scope_warns_naming_the_block_and_first_row() {
    let warning = "warning: column 'root.out' is NaN or infinite from t = ";
    let names_block = "(its first non-finite row; later rows may be too): block 'root', which computes it, produced it";
    // Without outputs: exit 0 (a run with a warning), nothing written.
    let (dir, stderr) = run_in(
        "nan_plain",
        &[("m.toml", NAN_INTO_SCOPE.as_bytes()), NOTES],
        &["run", "m.toml"],
        0,
        &[warning, names_block],
        &[],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let t = warned_time(&stderr);
    // sqrt(1 − t) is finite up to t = 1 exactly: the first non-finite row is after it (and
    // within the first steps after it: 0.1 s is far more than a step of this smooth run).
    assert!(t > 1.0 && t < 1.1, "{t}");
    // With a CSV: the old files unchanged, the CSV written as recorded; its first NaN row is at
    // the warned time, and every row before holds sqrt(1 − t) (to 1e-12: the Fcn evaluates the
    // expression in f64 at the row's time, the same operations as here).
    let old_csv: (&str, &[u8]) = ("old.csv", b"time,x\n0,1\n");
    let (dir, stderr) = run_in(
        "nan_csv",
        &[("m.toml", NAN_INTO_SCOPE.as_bytes()), NOTES, old_csv],
        &["run", "m.toml", "--csv", "run.csv"],
        0,
        &[warning, names_block],
        &["run.csv"],
    );
    let csv = std::fs::read_to_string(dir.join("run.csv")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(warned_time(&stderr), t, "the same run");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("time,root.out"));
    let mut first_nan = None;
    for line in lines {
        let (time, value) = line.split_once(',').unwrap();
        let (time, value): (f64, f64) = (time.parse().unwrap(), value.parse().unwrap());
        if !value.is_finite() {
            first_nan = Some(time);
            break;
        }
        assert!((value - (1.0 - time).sqrt()).abs() <= 1e-12, "{line}");
    }
    assert_eq!(first_nan, Some(t));
}
