//! The physical (`--`) lines resolved to ports by index (branch chainback): the build finds both
//! ends once, and what it reports about a line still names the ports as written, at the line's
//! place; a ContactGroup's member lines bind each member's geometry to the group's port of its
//! name.

use blockdyn::load_model_str;

/// A sphere dropped on a plane (models/ball_drop.toml's wiring), its connections as given.
fn ball_drop(connect: &[&str]) -> String {
    let lines: Vec<String> = connect.iter().map(|c| format!("  \"{c}\",")).collect();
    format!(
        r#"connect = [
{}
]

[model]
name = "ball_drop"
stop_time = 1.0

[blocks.world]
type = "WorldFrame"

[blocks.floor]
type = "InfinitePlane"

[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 1.0]

[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.1 }}
mass = 1.0

[blocks.contact]
type = "SpatialContactForce"
normal = {{ method = "linear_spring_damper", stiffness = 1e5, damping = 100.0 }}
friction = {{ method = "none" }}
"#,
        lines.join("\n")
    )
}

const WIRED: [&str; 5] = [
    "world.W -- floor.R",
    "world.W -- free.B",
    "free.F -- ball.R",
    "floor.G -- contact.B",
    "ball.G -- contact.F",
];

/// The error for a line, as the CLI prints it (file:line:column: message).
fn error_of(connect: &[&str]) -> String {
    match load_model_str("m.toml", &ball_drop(connect), &[]) {
        Ok(_) => panic!("the model {connect:?} should be refused"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn the_wired_ball_builds() {
    let d = load_model_str("m.toml", &ball_drop(&WIRED), &[]).expect("the ball builds");
    let written: Vec<(&str, &str)> = d.physical().iter().collect();
    let expected: Vec<(&str, &str)> = WIRED
        .iter()
        .map(|c| c.split_once(" -- ").unwrap())
        .collect();
    assert_eq!(written, expected);
    let scene = d.scene().expect("a mechanism");
    // The contact's two geometry ports, each bound to its provider's geometry.
    assert_eq!(scene.connected.len(), 2);
}

/// Two geometries joined: the message names both ends as written (block.port), at line 5 (the
/// fourth connection; `connect = [` is line 1).
#[test]
fn two_geometries_are_named_as_written() {
    let mut connect = WIRED;
    connect[3] = "floor.G -- ball.G";
    let e = error_of(&connect);
    assert!(
        e.contains(
            "m.toml:5:3: floor.G and ball.G are both geometries: a geometry connects to a contact block"
        ),
        "{e}"
    );
}

/// A geometry port given twice: named by its block and port.
#[test]
fn a_geometry_port_connected_twice_is_named() {
    let mut connect = WIRED;
    connect[4] = "ball.G -- contact.B";
    let e = error_of(&connect);
    assert!(
        e.contains("m.toml:6:3: geometry port contact.B is connected twice"),
        "{e}"
    );
}

/// A ContactGroup's members: each member's `G` joined to the group's port of the member's name,
/// listed after the model's own lines, and each bound (the scene's connected geometries).
#[test]
fn a_groups_member_lines_join_member_and_group_ports() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/box_tower.toml");
    let d = blockdyn::load_model(&path, &[]).expect("the tower builds");
    let members: Vec<(&str, &str)> = d
        .physical()
        .iter()
        .filter(|(_, b)| b.starts_with("stack."))
        .collect();
    // The floor and the eight bricks, in model order.
    assert_eq!(members.len(), 9, "{members:?}");
    assert_eq!(members[0], ("floor.G", "stack.floor"));
    for (a, b) in &members {
        let member = a.strip_suffix(".G").expect("a member's G port");
        assert_eq!(*b, format!("stack.{member}"));
    }
    let scene = d.scene().expect("a mechanism");
    let stack = (d.blocks().iter())
        .position(|b| b.name == "stack")
        .expect("the group");
    let bound = (scene.connected.iter())
        .filter(|c| c.block == stack)
        .count();
    assert_eq!(bound, 9);
}
