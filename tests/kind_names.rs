//! Issue 29, part 1: each kind's names live once, on its enum, and are read through
//! `Params::choice_value`: a name that is not one of them is an error naming the key, with
//! "did you mean" and the list of choices (no catch-all reading it as the default); a
//! parameter that must be written says so where it is missing. The expected messages are
//! the ones main gave before the names moved (`blockdyn check` on the same models), so these
//! tests also pin the messages byte for byte.

use std::path::Path;

/// The example model `name` (under models/) with `from` replaced by `to` (exactly once).
fn edited(name: &str, from: &str, to: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from:?} in {name}");
    text.replacen(from, to, 1)
}

/// The located message of a model that fails to load.
fn message(text: &str) -> String {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_unknown_limit_method_lists_the_methods() {
    let text = edited(
        "pendulum_stop.toml",
        "method = \"rigid\"",
        "method = \"rigd\"",
    );
    assert_eq!(
        message(&text),
        "bad.toml:36:47: block 'hinge': 'limits.method' cannot be \"rigd\"\n  help: did you mean \"rigid\"? (write one of: \"rigid\", \"spring_damper\")"
    );
}

#[test]
fn an_unknown_impact_order_lists_the_orders() {
    let text = edited(
        "ball_to_rest.toml",
        "restitution = 0.8\n",
        "restitution = 0.8\nimpacts = \"serail\"\n",
    );
    assert_eq!(
        message(&text),
        "bad.toml:47:11: block 'contact': 'impacts' cannot be \"serail\"\n  help: did you mean \"serial\"? (write one of: \"serial\", \"simultaneous\")"
    );
}

#[test]
fn an_unknown_group_contact_lists_the_kinds() {
    let text = edited(
        "box_tower_rigid.toml",
        "\ncontact = \"rigid\"",
        "\ncontact = \"rigi\"",
    );
    assert_eq!(
        message(&text),
        "bad.toml:141:11: block 'stack': 'contact' cannot be \"rigi\"\n  help: did you mean \"rigid\"? (write one of: \"penalty\", \"rigid\")"
    );
}

#[test]
fn an_unknown_or_missing_shape_lists_the_shapes() {
    let text = edited(
        "ball_to_rest.toml",
        "shape = \"sphere\"",
        "shape = \"spher\"",
    );
    assert_eq!(
        message(&text),
        "bad.toml:37:22: block 'ball': 'geometry.shape' cannot be \"spher\"\n  help: did you mean \"sphere\"? (write one of: \"sphere\", \"brick\", \"cylinder\", \"ellipsoid\", \"convex_hull\")"
    );
    let text = edited("ball_to_rest.toml", "shape = \"sphere\", ", "");
    assert_eq!(
        message(&text),
        "bad.toml:37:12: block 'ball': the geometry needs a shape\n  help: write shape = \"sphere\" | \"brick\" | \"cylinder\" | \"ellipsoid\" | \"convex_hull\""
    );
}

/// Required parameters declared with `param!(…, required(…), …)`: the missing one's help and
/// the check's message come from the declaration.
#[test]
fn required_parameters_say_what_to_write() {
    let stiffness = "stiffness = 20.0                           # N/m\n";
    let text = edited("crank_drive.toml", stiffness, "");
    assert_eq!(
        message(&text),
        "bad.toml:123:1: block 'spring': missing parameter 'stiffness'\n  help: add stiffness = <number> (N/m, e.g. stiffness = 100.0)"
    );
    let text = edited("crank_drive.toml", "stiffness = 20.0 ", "stiffness = -2.0 ");
    assert_eq!(
        message(&text),
        "bad.toml:125:13: block 'spring': 'stiffness' must not be negative (got -2)\n  help: write zero (a pure damper) or a positive value in N/m"
    );
    let text = edited("particle_on_ground.toml", "damping = 1e3\n", "");
    assert!(message(&text)
        .ends_with("missing parameter 'damping'\n  help: add damping = <number> (N·s/m^1.5)"));
    let text = edited("pushed_cart.toml", "time = [0.0, 1.0, 2.0, 3.0, 4.0]\n", "");
    assert!(message(&text).ends_with(
        "missing parameter 'time'\n  help: add time = [0.0, 1.0, 2.0] (s, strictly increasing)"
    ));
}

#[test]
fn sample_time_and_width_are_checked_where_written() {
    let zoh = |extra: &str| {
        format!(
            "connect = [\"c.out -> z.in\", \"z.out -> s.in1\"]\n[model]\nstop_time = 1.0\n\
             [blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.z]\ntype = \"ZeroOrderHold\"\n\
             {extra}[blocks.s]\ntype = \"Scope\"\n"
        )
    };
    assert_eq!(
        message(&zoh("")),
        "bad.toml:7:1: block 'z': missing parameter 'sample_time'\n  help: add sample_time = <number> (s, the sample period)"
    );
    assert_eq!(
        message(&zoh("sample_time = -0.5\n")),
        "bad.toml:9:15: block 'z': 'sample_time' must be positive (got -0.5)\n  help: write the sample period in seconds, e.g. sample_time = 0.01"
    );
    let inport = "connect = [\"i.out -> s.in1\"]\n[model]\nstop_time = 1.0\n[blocks.i]\n\
                  type = \"Inport\"\nwidth = 0\n[blocks.s]\ntype = \"Scope\"\n";
    assert_eq!(
        message(inport),
        "bad.toml:6:9: block 'i': 'width' must be at least 1 (got 0)\n  help: write the number of elements of the input, e.g. width = 3"
    );
}
