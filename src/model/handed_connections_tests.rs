//! The connections an expansion hands on ([`super::subsystem::Expansion::connections`], read by
//! [`Document::take_spec_with`]) are those its document's `connect` holds, parsed: the same
//! list, in the same order with the same places, as [`Document::spec`] reads from the text.
//! Checked on models whose connections the expansion rewrites: Urdf blocks (fixed, mimic,
//! floating and renamed joints, parts with origins, several collisions, a mesh that cannot be
//! read), subsystem arrays whose connections index with variables, a Urdf block inside an
//! included subsystem file, and overrides both of what the file writes (a variable that
//! changes the connections) and of blocks the expansion makes.

use super::overrides::Override;
use super::resolve::expand_and_resolve_to;
use super::subsystem::ConnectionsTo;
use super::Document;
use std::path::Path;

/// A URDF with every element the expansion writes connections for.
const ROBOT: &str = r#"<?xml version="1.0"?>
<robot name="r">
  <link name="base"><inertial><origin xyz="0 0 0.1"/><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="upper arm"><inertial><mass value="0.5"/><inertia ixx="0.01" ixy="0.001" ixz="0" iyy="0.01" iyz="0" izz="0.02"/></inertial>
    <collision><origin xyz="0 0 0.2" rpy="0.1 0 0"/><geometry><cylinder radius="0.02" length="0.4"/></geometry></collision>
    <collision><geometry><sphere radius="0.03"/></geometry></collision>
    <collision><geometry><mesh filename="missing.stl"/></geometry></collision></link>
  <link name="fore"><inertial><mass value="0.3"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="tool"/>
  <link name="slider"><inertial><mass value="0.2"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper arm"/><origin xyz="0 0 0.2" rpy="0 0.3 0"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="1"/><dynamics damping="0.1" friction="0.2"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper arm"/><child link="fore"/><axis xyz="0 0 1"/>
    <mimic joint="shoulder" multiplier="2"/></joint>
  <joint name="wrist--fixed" type="fixed"><parent link="fore"/><child link="tool"/><origin xyz="0.1 0 0"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="slider"/><axis xyz="1 0 0"/><limit lower="0" upper="0.5" effort="1" velocity="1"/></joint>
</robot>
"#;

/// A subsystem file holding a Urdf block (its `file` relative to this file) and an array.
const LEG: &str = r#"
connect = ["arm.F -- tip.B", "tip.F -- hip.F"]
[blocks.arm]
type = "Urdf"
file = "robot.urdf"
base = "floating"
[blocks.tip]
type = "RigidTransform"
[blocks.hip]
type = "FramePort"
"#;

const MODEL: &str = r#"
connect = [
  "world.W -- robot.B",
  "world.W -- legs[i].hip",
  "src.out -> gain[n - 1].in",
]
[variables]
n = 2
i = 0
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.robot]
type = "Urdf"
file = "parts/robot.urdf"
actuation = "input"
[blocks.legs]
type = "Subsystem"
file = "parts/leg.toml"
count = 2
[blocks.src]
type = "Constant"
value = 1.0
[blocks.gain]
type = "Gain"
count = "= n"
gain = 2.0
"#;

/// The model's spec read both ways after `sets`, in a folder of its own.
fn both_ways(sets: &[&str]) -> (super::ModelSpec, super::ModelSpec) {
    let dir = std::env::temp_dir().join(format!(
        "blockdyn-handed-{}-{}",
        std::process::id(),
        sets.len()
    ));
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    std::fs::write(dir.join("parts/robot.urdf"), ROBOT).unwrap();
    std::fs::write(dir.join("parts/leg.toml"), LEG).unwrap();
    std::fs::write(dir.join("model.toml"), MODEL).unwrap();
    let read = read_with(&dir.join("model.toml"), sets);
    std::fs::remove_dir_all(&dir).unwrap();
    read
}

/// The model at `path` read after `sets` as `build_document` reads it (overrides of what the
/// file writes first, the rest after the expansion): its spec read from the text the expansion
/// writes (`spec`), and with the connections handed on (`take_spec_with`, `connect` never
/// written).
fn read_with(path: &Path, sets: &[&str]) -> (super::ModelSpec, super::ModelSpec) {
    let overrides: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    let read = |to: ConnectionsTo| {
        let mut document = Document::load(path).unwrap();
        let (before, after): (Vec<&Override>, Vec<&Override>) = overrides
            .iter()
            .partition(|o| document.addresses_written(o));
        for o in before {
            document.apply_override(o).unwrap();
        }
        let importers = crate::library::IMPORTERS;
        let mut expansion =
            expand_and_resolve_to(&mut document, &after, &overrides, importers, to).unwrap();
        (document, expansion.connections.take())
    };
    let (written, _) = read(ConnectionsTo::Document);
    let (mut handed, parsed) = read(ConnectionsTo::Caller);
    assert!(parsed.is_some(), "the expansion hands its connections on");
    let connect = handed.root.get("connect").and_then(|e| e.value.as_array());
    assert_eq!(connect.map(<[_]>::len), Some(0), "nothing written");
    (
        written.spec().unwrap(),
        handed.take_spec_with(parsed).unwrap(),
    )
}

#[test]
fn the_handed_connections_are_the_written_ones() {
    let (from_text, handed) = both_ways(&[]);
    assert_eq!(handed.connections, from_text.connections);
    // Root attachment, 4 parts' origins and the joints' transforms, in both robots (the two
    // legs' `arm` each): far more than the model writes.
    assert!(
        handed.connections.len() > 40,
        "{}",
        handed.connections.len()
    );
    let texts: Vec<String> = handed.connections.iter().map(|c| c.text()).collect();
    for expected in [
        "robot.F -- robot/base.B",
        "robot/upper_arm.F -- robot/upper_arm/collision_0_origin.B",
        "robot/wrist-_fixed.F -- robot/tool.B",
        "legs[1]/arm.F -- legs[1]/arm/base.B",
        "world.W -- legs[0]/tip.F",
        "src.out -> gain[1].in",
    ] {
        assert!(texts.iter().any(|t| t == expected), "{expected}: {texts:?}");
    }
}

#[test]
fn overridden_connections_are_read_as_overridden() {
    // `n` moves the signal line to gain[2] (written in the file, applied before the
    // expansion), `i` the frame line to legs[1]; the joint override is of a block the
    // expansion makes (applied after it).
    let (from_text, handed) = both_ways(&["n=3", "i=1", "robot/shoulder.q0=0.2"]);
    assert_eq!(handed.connections, from_text.connections);
    let texts: Vec<String> = handed.connections.iter().map(|c| c.text()).collect();
    assert!(
        texts.iter().any(|t| t == "src.out -> gain[2].in"),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t == "world.W -- legs[1]/tip.F"),
        "{texts:?}"
    );
    let shoulder = handed.blocks.iter().find(|b| b.name == "robot/shoulder");
    let q0 = shoulder
        .and_then(|b| b.params.get("q0"))
        .and_then(|e| e.value.as_f64());
    assert_eq!(q0, Some(0.2));
}

#[test]
fn an_example_reads_alike_both_ways() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/quadruped_urdf.toml");
    let (from_text, handed) = read_with(&model, &["dog/fl_knee.damping=0.3"]);
    assert_eq!(handed.connections, from_text.connections);
}
