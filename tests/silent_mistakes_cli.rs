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
