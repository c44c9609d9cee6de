//! Every documented default is the value the block uses: for every block type of the standard
//! library and every parameter whose documented default is a TOML value, a model with the block
//! built from its minimal parameters runs exactly as the same model with `param = <documented
//! default>` written (the same columns, the same row times and the same values, bit for bit).
//!
//! The runs exercise what the parameters do (bodies swing against gravity, spring, collide,
//! slide; sources and signal blocks are driven by sines), so a documented default that differs
//! from the value the constructor uses shows as a different run, and one the constructor rejects
//! fails the build. Defaults documented in words ("none", "computed", "zeros") cannot be written
//! and are listed in [`NOT_TOML`]: a new one must be added there, on purpose.
//!
//! Every run is in memory; nothing is written to disk.

use blockdyn::block::Block;
use blockdyn::library::Registry;
use blockdyn::model::{Document, TableReader};
use blockdyn::output::Recording;

/// The documented defaults that are not TOML values (`type.param`), so cannot be written back.
const NOT_TOML: &[&str] = &[
    "Demux.sizes",
    "Integrator.lower_limit",
    "Integrator.upper_limit",
    "StateSpace.D",
    "Saturation.lower",
    "Saturation.upper",
    "RigidTransform.rotation",
    "Solid.mass",
    "Solid.center_of_mass",
    "Solid.inertia",
    "RevoluteJoint.limits",
    "PrismaticJoint.limits",
    "CylindricalJoint.q0",
    "CylindricalJoint.w0",
    "UniversalJoint.q0",
    "UniversalJoint.w0",
    "PlanarJoint.q0",
    "PlanarJoint.w0",
    "CylindricalJoint.motion_axes",
    "UniversalJoint.motion_axes",
    "PlanarJoint.motion_axes",
    "SpatialContactForce.normal",
    "SpatialContactForce.friction",
    "RigidContact.friction",
    "ContactGroup.normal",
    "ContactGroup.friction",
    "ContactGroup.margin",
    "Urdf.joints",
    // A signal block's output unit: "none" (issue 33, part 3).
    "Constant.unit",
    "Step.unit",
    "Ramp.unit",
    "Sine.unit",
    "PulseGenerator.unit",
    "FromTable.unit",
    "Fcn.unit",
    "Gain.unit",
    // Joint friction and effort saturation: "none" (issue 31, part 3).
    "RevoluteJoint.friction",
    "RevoluteJoint.effort_limit",
    "PrismaticJoint.friction",
    "PrismaticJoint.effort_limit",
    "CylindricalJoint.friction",
    "CylindricalJoint.effort_limit",
    "UniversalJoint.friction",
    "UniversalJoint.effort_limit",
    "PlanarJoint.friction",
    "PlanarJoint.effort_limit",
    "SphericalJoint.friction",
    "SphericalJoint.effort_limit",
    "SphericalJoint.motion_axes",
    "SixDofJoint.friction",
    "SixDofJoint.effort_limit",
    "SixDofJoint.motion_axes",
];

/// A body hanging off-axis from the follower frame of the joint `b` (so every degree of freedom
/// moves under the tilted gravity).
const ON_A_JOINT: &str = r#"connect = ["world.W -- b.B", "b.F -- arm.B", "arm.F -- bob.R"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, -3.0]
[blocks.arm]
type = "RigidTransform"
translation = [0.3, 0.4, 0.2]
[blocks.bob]
type = "Solid"
geometry = { shape = "brick", size = [0.1, 0.2, 0.3] }
mass = 1.5
"#;

/// A body in free flight, spinning, at `free.F`.
const FLYING: &str = r#"[blocks.world]
type = "WorldFrame"
[blocks.free]
type = "SixDofJoint"
position = [0.1, 0.2, 0.3]
velocity = [1.0, 0.5, 2.0]
angular_velocity = [0.3, -2.0, 1.0]
[blocks.body]
type = "Solid"
geometry = { shape = "brick", size = [0.1, 0.2, 0.3] }
mass = 2.0
"#;

/// A sphere on a free joint, released above a plane with a sideways velocity: it falls, hits the
/// plane and slides (`free.F -- ball.R`, `floor.G` and `ball.G` for the contact).
const BALL_OVER_FLOOR: &str = r#"[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.15]
velocity = [0.5, 0.2, 0.0]
angular_velocity = [0.0, 0.0, 3.0]
"#;

/// The model around block `b` of type `ty` and `b`'s minimal parameters, for the types that need
/// more than signal sources on their inputs: (connections and other blocks, minimal parameters,
/// stop time).
fn scenario(ty: &str) -> Option<(String, &'static str, f64)> {
    let with = |connect: &str, blocks: &str| format!("connect = [{connect}]\n{blocks}");
    Some(match ty {
        "MechanismConfiguration" => (
            with(r#""world.W -- free.B", "free.F -- body.R""#, FLYING),
            "",
            0.5,
        ),
        "RigidTransform" => (
            r#"connect = ["world.W -- j.B", "j.F -- b.B", "b.F -- bob.R"]
[blocks.world]
type = "WorldFrame"
[blocks.j]
type = "SphericalJoint"
angular_velocity = [1.0, 0.5, 0.0]
[blocks.bob]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
[output]
log = ["j.Q", "j.w"]
"#
            .to_string(),
            "",
            0.5,
        ),
        "Solid" => (
            with(
                r#""world.W -- free.B", "free.F -- b.R", "world.W -- spring.B", "b.R -- spring.F""#,
                r#"[blocks.world]
type = "WorldFrame"
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.1, -1.0]
angular_velocity = [1.0, 2.0, 0.5]
[blocks.spring]
type = "SpringDamper"
stiffness = 100.0
[output]
log = ["free.p", "free.Q", "free.v", "free.w"]
"#,
            ),
            "geometry = { shape = \"brick\", size = [0.1, 0.2, 0.3] }",
            0.5,
        ),
        "RevoluteJoint" | "PrismaticJoint" | "CylindricalJoint" | "UniversalJoint"
        | "SphericalJoint" | "PlanarJoint" | "SixDofJoint" | "WeldJoint" => {
            (ON_A_JOINT.to_string(), "", 0.5)
        }
        "TransformSensor" => (
            with(r#""world.W -- free.B", "free.F -- body.R", "free.F -- b.B", "world.W -- b.F""#, FLYING),
            "",
            0.3,
        ),
        "ExternalForceTorque" => (
            with(r#""world.W -- free.B", "free.F -- body.R", "free.F -- b.R""#, FLYING)
                + "[output]\nlog = [\"free.p\", \"free.Q\", \"free.v\", \"free.w\"]\n",
            "",
            0.3,
        ),
        "SpringDamper" => (
            with(
                r#""world.W -- free.B", "free.F -- body.R", "world.W -- b.B", "body.R -- b.F""#,
                FLYING,
            ) + "[output]\nlog = [\"free.p\", \"free.v\"]\n",
            "stiffness = 100.0",
            0.5,
        ),
        "SpatialContactForce" | "RigidContact" => (
            with(
                r#""world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R", "floor.G -- b.B", "ball.G -- b.F""#,
                BALL_OVER_FLOOR,
            ) + "[output]\nlog = [\"free.p\", \"free.v\", \"free.w\"]\n",
            "",
            0.5,
        ),
        "ContactGroup" => (
            with(
                r#""world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R""#,
                BALL_OVER_FLOOR,
            ) + "[output]\nlog = [\"free.p\", \"free.v\", \"free.w\"]\n",
            "members = [\"floor\", \"ball\"]",
            0.5,
        ),
        "GroundContact" => (
            r#"connect = ["world.W -- free.B", "free.F -- particle.R", "free.F -- foot.R", "foot.G -- b.F"]
[blocks.world]
type = "WorldFrame"
[blocks.particle]
type = "Solid"
geometry = { shape = "sphere", radius = 0.01 }
mass = 1.0
[blocks.foot]
type = "Point"
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.01]
velocity = [2.0, 0.5, 0.0]
[output]
log = ["free.p", "free.v"]
"#
            .to_string(),
            "stiffness = 1e6\ndamping = 1e3",
            0.3,
        ),
        // Expanded when the model is read: `file` is relative to the model (see `run`).
        "Urdf" => (
            r#"connect = ["world.W -- b.B"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [2.0, -9.81, -3.0]
[output]
log = ["b/hinge.q", "b/hinge.w"]
"#
            .to_string(),
            "file = \"urdf/pendulum.urdf\"\njoints = { hinge = { w0 = 1.0 } }",
            0.5,
        ),
        _ => return None,
    })
}

/// The minimal parameters of a signal block.
fn minimal_signal(ty: &str) -> &'static str {
    match ty {
        "Constant" => "value = 1.0",
        "FromTable" => "time = [0.0, 0.3, 0.6]\nvalues = [0.0, 1.0, -1.0]",
        "Selector" => "indices = [0]",
        "Fcn" => "expression = \"2 * u + t\"",
        "TransferFunction" => "numerator = [1.0]\ndenominator = [1.0, 1.0]",
        "StateSpace" => "A = [[-1.0, 2.0], [-3.0, -0.5]]\nB = [1.0, 0.5]\nC = [[1.0, 1.0]]",
        "ZeroOrderHold" | "UnitDelay" => "sample_time = 0.1",
        "Saturation" => "upper = 1.0",
        _ => "",
    }
}

/// The source driving input `input` of the block under test (a sine unless the input needs a
/// vector).
fn driver(ty: &str, input: &str, k: usize) -> String {
    match (ty, input) {
        ("Demux", _) => "type = \"Constant\"\nvalue = [1.5, -2.0, 0.25, 4.0]".to_string(),
        ("ExternalForceTorque", _) => {
            format!("type = \"Constant\"\nvalue = [{}.5, -2.0, 0.25]", k + 1)
        }
        _ => format!(
            "type = \"Sine\"\namplitude = {}.5\nfrequency = {}.0\nphase = 0.{k}\nbias = 0.{k}",
            k + 1,
            3 * k + 7
        ),
    }
}

/// The built block `ty` from `params` (its ports name the signals to drive and log).
fn build(ty: &str, params: &str) -> Box<dyn Block> {
    let t = Registry::standard().find(ty).unwrap();
    let doc = Document::parse("m.toml", params).unwrap();
    let r = TableReader::new(&doc.source, Some("b"), &doc.root, 0..0);
    let built = (t.build)(&r.params());
    built.unwrap_or_else(|e| panic!("{ty} {params:?}: {}", r.locate(e)))
}

/// The model with block `b` of type `ty`; `extra` is written into `[blocks.b]`. Every signal
/// input of the block (as built) is driven by a source, every output is logged.
fn model(ty: &str, extra: &str) -> String {
    let (around, minimal, stop) = scenario(ty).unwrap_or_default();
    let minimal = if around.is_empty() {
        minimal_signal(ty)
    } else {
        minimal
    };
    let stop = if around.is_empty() { 1.0 } else { stop };
    let mut text = String::new();
    let mut connect: Vec<String> = Vec::new();
    let mut blocks = String::new();
    let mut outputs: Vec<String> = Vec::new();
    // A Urdf block is not built itself (it is expanded); its scenario logs its joint.
    if ty != "Urdf" {
        let block = build(ty, &format!("{minimal}\n{extra}"));
        for (k, input) in block.inputs().iter().enumerate() {
            connect.push(format!("\"s{k}.out -> b.{}\"", input.name));
            blocks.push_str(&format!("[blocks.s{k}]\n{}\n", driver(ty, &input.name, k)));
        }
        outputs = block
            .outputs()
            .iter()
            .map(|o| format!("\"b.{}\"", o.name))
            .collect();
    }
    if around.is_empty() {
        text.push_str(&format!("connect = [{}]\n", connect.join(", ")));
        text.push_str(&format!(
            "[model]\nstop_time = {stop:?}\n[output]\nlog = [{}]\n",
            outputs.join(", ")
        ));
    } else {
        // The scenario's connections, then the sources' (a second `connect` line is not TOML:
        // splice them into the first).
        let (first, rest) = around.split_once('\n').unwrap();
        let mut all = first.trim_end_matches(']').to_string();
        for c in &connect {
            all.push_str(", ");
            all.push_str(c);
        }
        text.push_str(&format!("{all}]\n[model]\nstop_time = {stop:?}\n"));
        // Log the block's outputs unless the scenario logs its own.
        if !rest.contains("[output]") && !outputs.is_empty() {
            text.push_str(&format!("[output]\nlog = [{}]\n", outputs.join(", ")));
        }
        text.push_str(rest);
        if rest.contains("[output]") && !outputs.is_empty() {
            // The scenario's log, extended with the block's outputs.
            let at = text.rfind("log = [").unwrap() + "log = [".len();
            text.insert_str(at, &format!("{}, ", outputs.join(", ")));
        }
        text.push('\n');
    }
    text.push_str(&blocks);
    text.push_str(&format!(
        "[blocks.b]\ntype = \"{ty}\"\n{minimal}\n{extra}\n"
    ));
    text
}

/// Runs the model `text` as if it were a file in models/ (where a Urdf block's file is found).
fn run(label: &str, text: &str) -> Recording {
    let path = format!("{}/models/{label}.toml", env!("CARGO_MANIFEST_DIR"));
    let d = blockdyn::load_model_str(&path, text, &[])
        .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"))
        .recording
}

/// The same run, bit for bit.
fn assert_same(label: &str, a: &Recording, b: &Recording, text: &str) {
    assert_eq!(a.columns, b.columns, "{label}: columns\n{text}");
    assert!(!a.times.is_empty(), "{label}: no rows");
    let bits = |r: &Recording| -> Vec<u64> {
        r.times
            .iter()
            .chain(&r.values)
            .map(|x| x.to_bits())
            .collect()
    };
    assert!(
        a.times.len() == b.times.len() && bits(a) == bits(b),
        "{label}: the run with the documented default differs from the run without it \
         ({} and {} rows)\n{text}",
        a.times.len(),
        b.times.len()
    );
}

fn is_toml_value(text: &str) -> bool {
    Document::parse("v.toml", &format!("v = {text}")).is_ok()
}

#[test]
fn every_documented_default_is_the_value_used() {
    let mut not_toml = Vec::new();
    let mut checked = 0;
    // Every block type and every importer (a Urdf block's defaults are the expansion's).
    let registry = Registry::standard();
    let types = registry.all().map(|t| (t.name, t.params));
    for (name, params) in types.chain(registry.importers().map(|i| (i.name, i.params))) {
        let written: Vec<_> = params
            .iter()
            .filter(|p| p.default != "required")
            .filter(|p| {
                let toml = is_toml_value(p.default);
                if !toml {
                    not_toml.push(format!("{}.{}", name, p.name));
                }
                toml
            })
            .collect();
        if written.is_empty() {
            continue;
        }
        let base_text = model(name, "");
        let base = run(name, &base_text);
        for p in written {
            let label = format!("{}.{} = {}", name, p.name, p.default);
            // A ContactGroup's RigidContact parameters apply (and are accepted) only with
            // contact = "rigid": compared against the rigid group without them.
            let rigid_only = name == "ContactGroup"
                && ["restitution", "rest_velocity", "impacts"].contains(&p.name);
            let context = if rigid_only {
                "contact = \"rigid\"\n"
            } else {
                ""
            };
            let text = model(name, &format!("{context}{} = {}", p.name, p.default));
            if rigid_only {
                let base = run(name, &model(name, context));
                assert_same(&label, &base, &run(&label, &text), &text);
                checked += 1;
                continue;
            }
            assert_same(&label, &base, &run(&label, &text), &text);
            checked += 1;
        }
    }
    let mut expected: Vec<String> = NOT_TOML.iter().map(|s| s.to_string()).collect();
    expected.sort();
    not_toml.sort();
    assert_eq!(
        not_toml, expected,
        "the defaults documented in words changed: check them and update NOT_TOML"
    );
    eprintln!("{checked} documented defaults checked");
    assert!(checked >= 80, "only {checked} defaults checked");
}

/// The test cannot be fooled by a scenario in which a parameter does nothing: a value other than
/// the default changes the run, for a sample of parameters of every kind.
#[test]
fn a_value_other_than_the_default_changes_the_run() {
    for (ty, minimal, param) in [
        ("Sine", "", "phase = 0.5"),
        ("PID", "kd = 0.5", "filter = 50.0"),
        ("Product", "", "inputs = 3"),
        ("Relay", "", "initial_state = \"on\""),
        ("MechanismConfiguration", "", "gravity = [0.0, 0.0, -9.81]"),
        ("Solid", "", "density = 1001"),
        ("RevoluteJoint", "", "damping = 0.5"),
        ("UniversalJoint", "", "stiffness = 2.0"),
        ("SixDofJoint", "", "orientation = [0.0, 1.0, 0.0, 0.0]"),
        ("TransformSensor", "", "resolved_in = \"world\""),
        ("ExternalForceTorque", "", "resolved_in = \"R\""),
        ("SpringDamper", "", "free_length = 0.1"),
        ("SpatialContactForce", "", "kink_crossings = false"),
        ("GroundContact", "", "friction = 0.5"),
        ("RigidContact", "", "restitution = 0.8"),
        ("RigidContact", "", "rest_velocity = 10.0"),
        ("ContactGroup", "contact = \"rigid\"", "restitution = 0.8"),
        ("Urdf", "", "orientation = [0.0, 1.0, 0.0, 0.0]"),
    ] {
        let base = run(ty, &model(ty, minimal));
        let text = model(ty, &format!("{minimal}\n{param}"));
        let other = run(ty, &text);
        let differs = base.columns != other.columns
            || base.times != other.times
            || base.values != other.values;
        assert!(differs, "{ty} with {param} ran as without it\n{text}");
    }
}
