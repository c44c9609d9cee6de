//! Subsystems and arrays of blocks (issue 32, parts 2 and 3): a model built from instances of a
//! subsystem file, or with `count = N`, runs to the same bits as the same model written out flat;
//! errors inside a subsystem file point into it and name the including line; `--set` and sweeps
//! reach an instance's variables and blocks.
//!
//! Each test writes its files into a temporary directory of its own.

mod common;

use blockdyn::output::Recording;
use std::path::{Path, PathBuf};

/// A fresh, empty temporary directory for test `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("blockdyn-subsystems-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("parts")).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The error of building `path` with `overrides`.
fn error_of(path: &str, overrides: &[&str]) -> String {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    match blockdyn::load_model(
        Path::new(path),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    ) {
        Ok(_) => panic!("{path} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// The link of a pendulum as a subsystem: a revolute joint at its top (frame port `top`), a
/// 1 × 0.05 × 0.05 m brick hung below it, a frame at its tip (`tip`), the joint angle out (`angle`).
/// The blocks are in the order of models/double_pendulum.toml's (joint, offset, solid, end).
const LINK: &str = r#"# One link.
connect = [
  "top.F -- joint.B",
  "joint.F -- offset.B",
  "offset.F -- body.R",
  "offset.F -- tip_offset.B",
  "tip_offset.F -- tip.F",
  "joint.q -> angle.in",
]

[variables]
length = 1.0
mass = 1.0
q0 = 0.0

[blocks.top]
type = "FramePort"

[blocks.tip]
type = "FramePort"

[blocks.angle]
type = "Outport"

[blocks.joint]
type = "RevoluteJoint"
q0 = "= q0"

[blocks.offset]
type = "RigidTransform"
translation = [0.0, "= -length / 2", 0.0]

[blocks.body]
type = "Solid"
geometry = { shape = "brick", size = [0.05, "= length", 0.05] }
mass = "= mass"

[blocks.tip_offset]
type = "RigidTransform"
translation = [0.0, "= -length / 2", 0.0]
"#;

/// models/double_pendulum.toml's sections, with `blocks` and `connect` in between.
fn pendulum_model(connect: &str, blocks: &str) -> String {
    format!(
        r#"connect = [
{connect}]

[model]
name = "double_pendulum"
stop_time = 1.0

[solver]
rel_tol = 1e-9
abs_tol = 1e-11

[blocks.world]
type = "WorldFrame"

[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
{blocks}
[blocks.scope]
type = "Scope"
inputs = 2
"#
    )
}

/// The double pendulum of two instances of the link.
fn two_links() -> String {
    pendulum_model(
        r#"  "world.W -- upper.top",
  "upper.tip -- lower.top",
  "upper.angle -> scope.in1",
  "lower.angle -> scope.in2",
"#,
        r#"
[blocks.upper]
type = "Subsystem"
file = "parts/link.toml"
variables = { q0 = 1.5707963267948966 }

[blocks.lower]
type = "Subsystem"
file = "parts/link.toml"
"#,
    )
}

/// The same time steps and the same bits in each pair of columns.
fn assert_same_bits(a: &Recording, b: &Recording, pairs: &[(&str, &str)]) {
    assert_eq!(a.times.len(), b.times.len(), "different numbers of rows");
    for (ta, tb) in a.times.iter().zip(&b.times) {
        assert_eq!(ta.to_bits(), tb.to_bits(), "times {ta} and {tb}");
    }
    for (ca, cb) in pairs {
        let (x, y) = (common::column(a, ca), common::column(b, cb));
        for (k, (u, v)) in x.iter().zip(&y).enumerate() {
            assert_eq!(
                u.to_bits(),
                v.to_bits(),
                "{ca} = {u} and {cb} = {v} at row {k}"
            );
        }
    }
}

/// Issue 32: a double pendulum built from two instances of a link subsystem equals
/// models/double_pendulum.toml, written out flat, bit for bit (same steps, same values: the
/// expansion only renames blocks and splices the ports away).
#[test]
fn two_link_instances_equal_the_flat_double_pendulum_bit_for_bit() {
    let dir = temp_dir("pendulum");
    write(&dir, "parts/link.toml", LINK);
    let model = write(&dir, "dp.toml", &two_links());
    let sub = common::run(&model, &[]);
    let flat = common::run(&repo("models/double_pendulum.toml"), &["model.stop_time=1"]);
    assert!(sub.recording.len() > 50, "{} rows", sub.recording.len());
    assert_same_bits(
        &sub.recording,
        &flat.recording,
        &[
            ("upper/joint.q", "shoulder.q"),
            ("lower/joint.q", "elbow.q"),
        ],
    );

    // `--set` reaches an instance's variable (both spellings) and a block inside it.
    let q = "0.5";
    let flat = common::run(
        &repo("models/double_pendulum.toml"),
        &["model.stop_time=1", &format!("shoulder.q0={q}")],
    );
    for set in [
        format!("upper.q0={q}"),
        format!("upper.variables.q0={q}"),
        format!("upper/joint.q0={q}"),
    ] {
        let sub = common::run(&model, &[&set]);
        assert_same_bits(
            &sub.recording,
            &flat.recording,
            &[("upper/joint.q", "shoulder.q")],
        );
    }
    let e = error_of(&model, &["upper.q1=0.5"]);
    assert!(
        e.contains("no variable 'q1'") && e.contains("did you mean 'q0'"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nested subsystems: an `arm` subsystem holding the two links (so the joints are `arm/upper/joint`
/// and `arm/lower/joint`, its ports spliced through two levels) runs to the same bits again.
#[test]
fn nested_subsystems_equal_the_flat_model_bit_for_bit() {
    let dir = temp_dir("nested");
    write(&dir, "parts/link.toml", LINK);
    write(
        &dir,
        "parts/arm.toml",
        r#"connect = [
  "base.F -- upper.top",
  "upper.tip -- lower.top",
  "upper.angle -> q1.in",
  "lower.angle -> q2.in",
]

[variables]
start = 0.0

[blocks.base]
type = "FramePort"

[blocks.q1]
type = "Outport"

[blocks.q2]
type = "Outport"

[blocks.upper]
type = "Subsystem"
file = "link.toml"
variables = { q0 = "= start" }

[blocks.lower]
type = "Subsystem"
file = "link.toml"
"#,
    );
    let model = write(
        &dir,
        "arm.toml",
        &pendulum_model(
            r#"  "world.W -- arm.base",
  "arm.q1 -> scope.in1",
  "arm.q2 -> scope.in2",
"#,
            r#"
[blocks.arm]
type = "Subsystem"
file = "parts/arm.toml"
variables = { start = 1.5707963267948966 }
"#,
        ),
    );
    let nested = common::run(&model, &[]);
    let flat = common::run(&repo("models/double_pendulum.toml"), &["model.stop_time=1"]);
    assert_same_bits(
        &nested.recording,
        &flat.recording,
        &[
            ("arm/upper/joint.q", "shoulder.q"),
            ("arm/lower/joint.q", "elbow.q"),
        ],
    );
    // A nested instance's variable and block are reached with their full names.
    let flat = common::run(
        &repo("models/double_pendulum.toml"),
        &["model.stop_time=1", "elbow.q0=0.25"],
    );
    for set in ["arm/lower.q0=0.25", "arm/lower/joint.q0=0.25"] {
        let nested = common::run(&model, &[set]);
        assert_same_bits(
            &nested.recording,
            &flat.recording,
            &[("arm/lower/joint.q", "elbow.q")],
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Signal ports: an Inport driven from outside is spliced into the blocks it feeds, an Outport
/// read outside is replaced by its source; an Inport nothing drives outputs 0. Closed forms:
/// y = k·u (2.5 · 3 = 7.5) and y = k · 0 = 0, exact in binary floating point.
#[test]
fn signal_ports_carry_values_across_the_boundary() {
    let dir = temp_dir("signals");
    write(
        &dir,
        "parts/scale.toml",
        r#"connect = ["u.out -> gain.in", "gain.out -> y.in"]
[variables]
k = 1.0
[blocks.u]
type = "Inport"
[blocks.gain]
type = "Gain"
gain = "= k"
[blocks.y]
type = "Outport"
"#,
    );
    let model = write(
        &dir,
        "m.toml",
        r#"connect = ["three.out -> a.u", "a.y -> s.in1", "b.y -> s.in2"]
[model]
stop_time = 1.0
[blocks.three]
type = "Constant"
value = 3.0
[blocks.a]
type = "Subsystem"
file = "parts/scale.toml"
variables = { k = 2.5 }
[blocks.b]
type = "Subsystem"
file = "parts/scale.toml"
variables = { k = 2.5 }
[blocks.s]
type = "Scope"
inputs = 2
"#,
    );
    let r = common::run(&model, &[]);
    assert!(common::column(&r.recording, "a/gain.out")
        .iter()
        .all(|&y| y == 7.5));
    assert!(common::column(&r.recording, "b/gain.out")
        .iter()
        .all(|&y| y == 0.0));
    let d = blockdyn::load_model(Path::new(&model), &[]).unwrap();
    assert!(
        d.block_index("a/u").is_none(),
        "a driven Inport is spliced away"
    );
    assert!(
        d.block_index("a/y").is_none(),
        "a read Outport is spliced away"
    );
    assert!(
        d.block_index("b/u").is_some(),
        "an Inport nothing drives stays, outputting 0"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32: a subsystem file with an error reports both files' lines: the place inside the
/// subsystem file, then the instance and its line in the including file.
#[test]
fn an_error_in_a_subsystem_file_names_both_files_lines() {
    let dir = temp_dir("both_lines");
    // Line 36 of the link, `mass = "= mas"`: the unknown name at column 11.
    let bad = LINK.replace("mass = \"= mass\"", "mass = \"= mas\"");
    let link = write(&dir, "parts/link.toml", &bad);
    let model = write(&dir, "dp.toml", &two_links());
    let e = error_of(&model, &[]);
    assert!(
        e.starts_with(&format!("{link}:36:11: unknown name 'mas'")),
        "{e}"
    );
    // `[blocks.upper]` is line 23 of the model, its name at column 9.
    assert!(
        e.contains(&format!("in subsystem 'upper' ({model}:23:9)")),
        "{e}"
    );
    assert!(e.contains("did you mean 'mass'"), "{e}");

    // A block's own error (found when the diagram is built) is located the same way.
    let bad = LINK.replace("mass = \"= mass\"", "mass = -1.0");
    write(&dir, "parts/link.toml", &bad);
    let e = error_of(&model, &[]);
    assert!(e.starts_with(&format!("{link}:36:")), "{e}");
    assert!(e.contains("block 'upper/body'"), "{e}");
    assert!(
        e.contains(&format!("in subsystem 'upper' ({model}:23:9)")),
        "{e}"
    );

    // A TOML syntax error in the subsystem file too.
    write(&dir, "parts/link.toml", "[blocks.top\n");
    let e = error_of(&model, &[]);
    assert!(e.starts_with(&format!("{link}:1:")), "{e}");
    assert!(
        e.contains(&format!("in subsystem 'upper' ({model}:23:9)")),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file that includes itself through another is a located error (not a hang or a stack
/// overflow); a missing file names the path and the including line; an unknown port gets
/// "did you mean".
#[test]
fn cycles_missing_files_and_unknown_ports_are_located() {
    let dir = temp_dir("cycles");
    write(
        &dir,
        "a.toml",
        "[blocks.inner]\ntype = \"Subsystem\"\nfile = \"b.toml\"\n",
    );
    let b = write(
        &dir,
        "b.toml",
        "[blocks.again]\ntype = \"Subsystem\"\nfile = \"a.toml\"\n",
    );
    let model = write(
        &dir,
        "m.toml",
        "[model]\nstop_time = 1.0\n[blocks.top]\ntype = \"Subsystem\"\nfile = \"a.toml\"\n",
    );
    let e = error_of(&model, &[]);
    assert!(e.starts_with(&format!("{b}:3:8: block 'top/inner/again': subsystem files include each other: a.toml → b.toml → a.toml")), "{e}");
    assert!(
        e.contains(&format!("in subsystem 'top' ({model}:3:9)")),
        "{e}"
    );

    let model = write(
        &dir,
        "missing.toml",
        "[model]\nstop_time = 1.0\n[blocks.leg]\ntype = \"Subsystem\"\nfile = \"parts/nope.toml\"\n",
    );
    let e = error_of(&model, &[]);
    let path = dir.join("parts/nope.toml");
    assert!(
        e.starts_with(&format!(
            "{model}:5:8: block 'leg': cannot read the subsystem file '{}'",
            path.display()
        )),
        "{e}"
    );

    write(&dir, "parts/link.toml", LINK);
    let typo = two_links().replace("upper.tip -- lower.top", "upper.tipp -- lower.top");
    let model = write(&dir, "typo.toml", &typo);
    let e = error_of(&model, &[]);
    assert!(
        e.starts_with(&format!(
            "{model}:3:3: block 'upper': subsystem 'upper' has no port 'tipp'"
        )),
        "{e}"
    );
    assert!(e.contains("did you mean 'tip'?"), "{e}");
    let wrong = two_links().replace("upper.angle -> scope.in1", "upper.top -> scope.in1");
    let e = error_of(&write(&dir, "wrong.toml", &wrong), &[]);
    assert!(
        e.contains(
            "upper.top is a frame port (a FramePort), and this end needs an output (an Outport)"
        ),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `count` must be a whole number from 1 up: 0, −2 and 2.5 are errors at the value; a written
/// block name with brackets, or with '/' after an instance's name, is refused.
#[test]
fn bad_counts_and_reserved_names_are_located_errors() {
    let model = |count: &str| {
        format!("connect = [\"c[i].out -> t[i].in\"]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\ncount = {count}\nvalue = 1.0\n[blocks.t]\ntype = \"Terminator\"\ncount = 2\n")
    };
    for (count, why) in [
        ("0", "must be at least 1 (got 0)"),
        ("-2", "must be at least 1 (got -2)"),
        ("2.5", "must be a whole number of blocks (got 2.5)"),
        ("\"two\"", "must be a number of blocks, not a string"),
    ] {
        let e = common::build_error(&model(count));
        assert!(
            e.starts_with(&format!("bad.toml:6:9: block 'c': 'count' {why}")),
            "{count}: {e}"
        );
    }
    // A connection whose index is never an element.
    let e = common::build_error(&model("2").replace("t[i].in", "t[i+5].in"));
    assert!(e.contains("for no value of i do all of them exist"), "{e}");
    for name in ["\"x/b\"", "\"a[1]\""] {
        let e = common::build_error(&format!(
            "[model]\nstop_time = 1.0\n[blocks.x]\ntype = \"Subsystem\"\nfile = \"x.toml\"\n[blocks.{name}]\ntype = \"Constant\"\nvalue = 1.0\n"
        ));
        assert!(e.starts_with("bad.toml:6:9: the block name"), "{name}: {e}");
    }
}

/// Issue 32: the domino row as an array (models/dominoes.toml) equals the row written out one
/// domino at a time (tests/data/dominoes_written_out.toml, the model before arrays) bit for bit.
#[test]
fn the_domino_array_equals_the_written_out_row_bit_for_bit() {
    let stop = ["model.stop_time=0.4"];
    let array = common::run(&repo("models/dominoes.toml"), &stop);
    let written = common::run(&repo("tests/data/dominoes_written_out.toml"), &stop);
    let mut pairs = Vec::new();
    let names: Vec<(String, String)> = (0..5)
        .flat_map(|k| {
            [
                (format!("tilt[{k}].out"), format!("tilt{}.out", k + 1)),
                (format!("free[{k}].p[2]"), format!("free{}.p[2]", k + 1)),
            ]
        })
        .collect();
    for (a, b) in &names {
        pairs.push((a.as_str(), b.as_str()));
    }
    pairs.push(("contacts.active_pairs", "contacts.active_pairs"));
    assert_same_bits(&array.recording, &written.recording, &pairs);
    // An element is reached by its name, the whole array through the written block.
    let one = common::run(
        &repo("models/dominoes.toml"),
        &[
            "model.stop_time=0.05",
            "free[2].position=[0.0672, 0.0, 0.03]",
        ],
    );
    let z = common::column(&one.recording, "free[2].p[2]");
    assert_eq!(z[0], 0.03);
}

/// models/quadruped_legs.toml (one leg subsystem file used four times) is the robot of
/// models/quadruped_urdf.toml written as blocks: the trunk's height and the feet's forces are the
/// same bits (the same mechanism, built in the same order, with the same controllers).
#[test]
fn the_quadruped_of_leg_instances_equals_the_urdf_quadruped_bit_for_bit() {
    let stop = ["model.stop_time=0.3"];
    let legs = common::run(&repo("models/quadruped_legs.toml"), &stop);
    let urdf = common::run(&repo("models/quadruped_urdf.toml"), &stop);
    assert_same_bits(
        &legs.recording,
        &urdf.recording,
        &[
            ("base.p[2]", "dog.p[2]"),
            ("fl/ground.force[2]", "fl_ground.force[2]"),
            ("rr/ground.force[2]", "rr_ground.force[2]"),
        ],
    );
    // `--set` reaches one instance's variable: a stiffer front left knee keeps the posture closer.
    let stiff = common::run(
        &repo("models/quadruped_legs.toml"),
        &["model.stop_time=0.3", "fl.kp=120"],
    );
    let sag = |r: &blockdyn::RunResult, leg: &str| {
        (common::column(&r.recording, &format!("{leg}/knee_joint.q"))
            .last()
            .unwrap()
            + 1.2)
            .abs()
    };
    assert!(
        sag(&stiff, "fl") < sag(&legs, "fl"),
        "{} vs {}",
        sag(&stiff, "fl"),
        sag(&legs, "fl")
    );
}

/// A sweep reaches an instance's variable (`--vary upper.q0=...`) and a block inside an instance
/// (`--vary lower/joint.q0=...`): each point runs to the same bits as the flat model with the
/// same values set on its joints.
#[test]
fn sweeps_reach_instance_variables_and_blocks() {
    use blockdyn::sweep::{Sweep, SweepPlan};
    let dir = temp_dir("sweep");
    write(&dir, "parts/link.toml", LINK);
    let model = write(&dir, "dp.toml", &two_links());
    let plan = SweepPlan::parse(&["upper.q0=0.5,1.0", "lower/joint.q0=0.25"]).unwrap();
    let fixed = vec!["model.stop_time=0.5".to_string()];
    let sweep = Sweep::load(
        Path::new(&model),
        blockdyn::Override::parse_all(&fixed).unwrap(),
        plan,
    )
    .unwrap();
    for (k, q) in ["0.5", "1.0"].iter().enumerate() {
        let point = sweep.point_model(k).unwrap();
        let r = blockdyn::simulate(&point.diagram, point.options()).unwrap();
        let flat = common::run(
            &repo("models/double_pendulum.toml"),
            &[
                "model.stop_time=0.5",
                &format!("shoulder.q0={q}"),
                "elbow.q0=0.25",
            ],
        );
        assert_same_bits(
            &r.recording,
            &flat.recording,
            &[
                ("upper/joint.q", "shoulder.q"),
                ("lower/joint.q", "elbow.q"),
            ],
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `graph` draws each instance as one node (the edges inside it left out, an edge to it naming
/// the block inside); `graph --all` draws the instance's blocks.
#[test]
fn the_graph_draws_an_instance_as_one_node() {
    let d = blockdyn::load_model(Path::new(&repo("models/quadruped_legs.toml")), &[]).unwrap();
    assert!(
        d.subsystems().len() == 4 && d.subsystems().iter().all(|i| i.type_name == "Subsystem"),
        "{:?}",
        d.subsystems()
    );
    let dot = blockdyn::diagram::dot::to_dot(&d, false);
    assert!(dot.contains("\"fl\" [label=\"fl\\nSubsystem\"];"), "{dot}");
    assert!(!dot.contains("fl/knee_joint\" ["), "{dot}");
    assert!(
        dot.contains("\"fl\" -> \"knees\" [label=\"fl/knee_joint.q → in1\"];"),
        "{dot}"
    );
    assert!(dot.contains("\"base\" -> \"fl\" [dir=none"), "{dot}");
    assert_eq!(dot.matches("\"fl\" -> \"fl\"").count(), 0, "{dot}");
    let all = blockdyn::diagram::dot::to_dot(&d, true);
    assert!(
        all.contains("\"fl/knee_joint\" [label=\"fl/knee_joint\\nRevoluteJoint\"];"),
        "{all}"
    );
    assert!(!all.contains("\\nSubsystem"), "{all}");
}
