//! A Urdf block is an instance, expanded by the subsystem machinery (issue 32, part 2's last
//! sentence): inside a subsystem file and as an array (`count = N`) it runs to the same bits as
//! the same robots written as top-level Urdf blocks; a message about a block it made points at
//! the URDF element's line and names the instance; `graph` draws it as one node; `--set` and
//! sweeps reach the blocks it makes.
//!
//! Each test writes its files into a temporary directory of its own.

mod common;

use blockdyn::output::Recording;
use common::{load_error as error_of, write_file as write};
use std::path::{Path, PathBuf};

/// A fresh, empty temporary directory for test `name`, holding the pendulum URDF `r.urdf`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "blockdyn-urdf-instance-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("parts")).expect("temp dir");
    write(&dir, "parts/r.urdf", PENDULUM);
    dir
}

/// A pendulum: a 1 kg bob 0.5 m below a revolute joint about y (line 8 is the `<joint>`).
const PENDULUM: &str = r#"<robot name="pendulum">
  <link name="base"/>
  <link name="bob">
    <inertial>
      <origin xyz="0 0 -0.5"/>
      <mass value="1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <joint name="swing" type="revolute">
    <parent link="base"/><child link="bob"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="0" velocity="0"/>
  </joint>
</robot>
"#;

/// A model of two pendulums written as top-level Urdf blocks `NAMES[0]`, `NAMES[1]` at x = 0
/// and x = 1 m, the first started at 0.25 rad, the second at 0.375 rad (sums of powers of two:
/// `0.25 + 0.125 * i` is exact).
fn flat(names: [&str; 2], file: &str) -> String {
    let [a, b] = names;
    format!(
        r#"connect = ["world.W -- {a}.B", "world.W -- {b}.B"]
[model]
stop_time = 0.5
[output]
log = ["{a}/swing.q", "{b}/swing.q", "{b}/swing.w"]
[blocks.world]
type = "WorldFrame"
[blocks."{a}"]
type = "Urdf"
file = "{file}"
joints = {{ swing = {{ q0 = 0.25 }} }}
[blocks."{b}"]
type = "Urdf"
file = "{file}"
position = [1.0, 0.0, 0.0]
joints = {{ swing = {{ q0 = 0.375 }} }}
"#
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
        assert!(!x.is_empty());
        for (k, (u, v)) in x.iter().zip(&y).enumerate() {
            assert_eq!(
                u.to_bits(),
                v.to_bits(),
                "{ca} = {u} and {cb} = {v} at row {k}"
            );
        }
    }
}

/// A subsystem file holding a Urdf block (its `file` relative to the subsystem file), its base
/// a FramePort: two instances equal two top-level Urdf blocks bit for bit, and `--set` reaches a
/// joint inside (`left/robot/swing.q0`).
#[test]
fn a_urdf_block_inside_a_subsystem_equals_the_top_level_one_bit_for_bit() {
    let dir = temp_dir("subsystem");
    write(
        &dir,
        "parts/arm.toml",
        r#"connect = ["base.F -- robot.B"]
[variables]
q0 = 0.0
x = 0.0
[blocks.base]
type = "FramePort"
[blocks.robot]
type = "Urdf"
file = "r.urdf"
position = ["= x", 0.0, 0.0]
joints = { swing = { q0 = "= q0" } }
"#,
    );
    let nested = write(
        &dir,
        "nested.toml",
        r#"connect = ["world.W -- left.base", "world.W -- right.base"]
[model]
stop_time = 0.5
[output]
log = ["left/robot/swing.q", "right/robot/swing.q", "right/robot/swing.w"]
[blocks.world]
type = "WorldFrame"
[blocks.left]
type = "Subsystem"
file = "parts/arm.toml"
variables = { q0 = 0.25 }
[blocks.right]
type = "Subsystem"
file = "parts/arm.toml"
variables = { q0 = 0.375, x = 1.0 }
"#,
    );
    let flat = write(
        &dir,
        "flat.toml",
        &flat(["left/robot", "right/robot"], "parts/r.urdf"),
    );
    let (a, b) = (common::run(&nested, &[]), common::run(&flat, &[]));
    let pairs = [
        ("left/robot/swing.q", "left/robot/swing.q"),
        ("right/robot/swing.q", "right/robot/swing.q"),
        ("right/robot/swing.w", "right/robot/swing.w"),
    ];
    assert_same_bits(&a.recording, &b.recording, &pairs);
    // The pendulum swings: the run is not trivially equal (0.25 rad released, 0.5 s later it
    // has moved by more than 0.01 rad; its small-angle period is 2π·sqrt(0.5 / 9.81) ≈ 1.42 s).
    let q = common::column(&a.recording, "left/robot/swing.q");
    assert_eq!(q[0], 0.25);
    assert!((q.last().unwrap() - 0.25).abs() > 0.01, "{:?}", q.last());
    // `--set` reaches a joint the Urdf block inside the instance makes.
    let set = common::run(&nested, &["left/robot/swing.q0=0.25"]);
    assert_eq!(
        common::column(&set.recording, "left/robot/swing.q")[0],
        0.25
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `count = 2` on a Urdf block makes `robot[0]`, `robot[1]` (the index `i` in its parameters,
/// `robot[i].B` in connections), equal to two written-out Urdf blocks bit for bit; `--set` and
/// a sweep reach a joint of one element.
#[test]
fn an_array_of_urdf_blocks_equals_the_written_out_robots_bit_for_bit() {
    let dir = temp_dir("array");
    let array = write(
        &dir,
        "array.toml",
        r#"connect = ["world.W -- robot[i].B"]
[model]
stop_time = 0.5
[output]
log = ["robot[0]/swing.q", "robot[1]/swing.q", "robot[1]/swing.w"]
[blocks.world]
type = "WorldFrame"
[blocks.robot]
type = "Urdf"
count = 2
file = "parts/r.urdf"
position = ["= 1.0 * i", 0.0, 0.0]
joints = { swing = { q0 = "= 0.25 + 0.125 * i" } }
"#,
    );
    let flat = write(&dir, "flat.toml", &flat(["a", "b"], "parts/r.urdf"));
    let (a, b) = (common::run(&array, &[]), common::run(&flat, &[]));
    assert_same_bits(
        &a.recording,
        &b.recording,
        &[
            ("robot[0]/swing.q", "a/swing.q"),
            ("robot[1]/swing.q", "b/swing.q"),
            ("robot[1]/swing.w", "b/swing.w"),
        ],
    );
    let set = common::run(&array, &["robot[1]/swing.q0=0.35"]);
    assert_eq!(common::column(&set.recording, "robot[1]/swing.q")[0], 0.35);
    assert_eq!(common::column(&set.recording, "robot[0]/swing.q")[0], 0.25);
    // A sweep over a joint of the element: each point starts there.
    use blockdyn::sweep::{Sweep, SweepPlan};
    let plan = SweepPlan::parse(&["robot[0]/swing.q0=0.1,0.15"]).unwrap();
    let sweep = Sweep::load(Path::new(&array), Vec::new(), plan).unwrap();
    for (k, q) in [0.1, 0.15].into_iter().enumerate() {
        let point = sweep.point_model(k).unwrap();
        let r = blockdyn::simulate(&point.diagram, point.options()).unwrap();
        assert_eq!(common::column(&r.recording, "robot[0]/swing.q")[0], q);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A block the URDF file makes that its block type refuses is reported at the URDF element's
/// line, naming the instance and where its block is written (as a subsystem file's error
/// names the including line).
#[test]
fn an_error_in_a_block_the_urdf_makes_names_the_urdf_line_and_the_instance() {
    let dir = temp_dir("error");
    // lower = upper: read as written, refused by the joint's limits.
    let urdf = PENDULUM.replace("lower=\"-2\" upper=\"2\"", "lower=\"0.5\" upper=\"0.5\"");
    write(&dir, "parts/r.urdf", &urdf);
    let model = write(&dir, "m.toml", &flat(["a", "b"], "parts/r.urdf"));
    let e = error_of(&model);
    assert!(
        e.contains("r.urdf:9:3: block 'a/swing': 'limits.upper'"),
        "{e}"
    );
    assert!(
        e.contains("in Urdf 'a' (") && e.contains("m.toml:8:9)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `graph` draws a Urdf block as one node of type Urdf (edges to it name the block inside),
/// `graph --all` draws the blocks it makes.
#[test]
fn the_graph_draws_a_urdf_block_as_one_node() {
    let path = format!("{}/models/quadruped_urdf.toml", env!("CARGO_MANIFEST_DIR"));
    let d = blockdyn::load_model(Path::new(&path), &[]).unwrap();
    // The expansion records what the instance instantiates; the graph reads it (no guess from
    // the block names).
    let instances: Vec<(&str, &str)> = d
        .subsystems()
        .iter()
        .map(|i| (i.name.as_str(), i.type_name))
        .collect();
    assert_eq!(instances, [("dog", "Urdf")]);
    let dot = blockdyn::diagram::dot::to_dot(&d, false);
    assert!(dot.contains("\"dog\" [label=\"dog\\nUrdf\"];"), "{dot}");
    assert!(!dot.contains("\"dog/fl_knee\" ["), "{dot}");
    assert_eq!(dot.matches("\"dog\" -> \"dog\"").count(), 0, "{dot}");
    assert!(
        dot.contains("\"dog\" -> \"q\" [label=\"dog/fl_hip.q → "),
        "{dot}"
    );
    let all = blockdyn::diagram::dot::to_dot(&d, true);
    assert!(
        all.contains("\"dog/fl_knee\" [label=\"dog/fl_knee\\nRevoluteJoint\"];"),
        "{all}"
    );
    assert!(
        all.contains("\"dog\" [label=\"dog\\nSixDofJoint\"];"),
        "{all}"
    );
    assert!(!all.contains("\\nUrdf"), "{all}");
}
