//! `blockdyn import` writes every connection of the URDF expansion, or says which it did not:
//! the expansion joins only blocks it made (so on the robots of models/urdf every connection is
//! written and nothing is warned), a connection to the World frame is written to the model's
//! `world`, one naming a block that was not made is a warning naming it, and a robot the world
//! cannot be attached to (its root missing, or named `world`) is an error, not a panic.

mod cli_common;

use blockdyn::command::import::{expansion_model, ImportError};
use blockdyn::model::{Connection, Span};
use blockdyn::urdf::expand::Expansion;
use cli_common::{blockdyn, text};
use std::path::Path;

/// The two-link arm expanded as the Urdf block `arm` with every default.
fn arm() -> Expansion {
    let options = blockdyn::urdf::default_options("arm");
    blockdyn::urdf::expand_file(
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/urdf/two_link_arm.urdf"
        )),
        &options,
        &Span::NONE,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `template` (a connection of the expansion) joining `from` and `to` (block, port) instead.
fn rejoined(template: &Connection, from: (&str, &str), to: (&str, &str)) -> Connection {
    let mut c = template.clone();
    (c.from.block, c.from.port) = (from.0.into(), from.1.into());
    (c.to.block, c.to.port) = (to.0.into(), to.1.into());
    c
}

#[test]
fn every_connection_of_the_example_robots_is_written() {
    for file in ["pendulum", "two_link_arm", "quadruped"] {
        let path = format!("{}/models/urdf/{file}.urdf", env!("CARGO_MANIFEST_DIR"));
        let options = blockdyn::urdf::default_options("r");
        let expansion = blockdyn::urdf::expand_file(Path::new(&path), &options, &Span::NONE)
            .unwrap_or_else(|e| panic!("{e}"));
        let (model, warnings) = expansion_model(&expansion, "r").unwrap();
        assert!(warnings.is_empty(), "{file}: {warnings:?}");
        assert!(model.contains("\"world.W -- r.B\""), "{file}");
        for c in &expansion.connections {
            assert!(
                model.contains(&format!("\"{}\"", c.text())),
                "{file}: {}",
                c.text()
            );
        }
    }
}

#[test]
fn a_connection_to_the_world_frame_is_written() {
    let mut expansion = arm();
    let world = rejoined(
        &expansion.connections[0],
        ("world", "W"),
        ("arm/base_link", "B"),
    );
    expansion.connections.push(world);
    let (model, warnings) = expansion_model(&expansion, "arm").unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(
        model.contains("  \"world.W -- arm/base_link.B\",\n"),
        "{model}"
    );
}

#[test]
fn a_connection_to_a_block_not_made_is_a_warning_naming_it() {
    let mut expansion = arm();
    let written = arm().connections.len();
    let first = &expansion.connections[0];
    let ghost = rejoined(first, ("arm/base_link", "F"), ("arm/ghost", "B"));
    let phantom = rejoined(first, ("arm/phantom", "F"), ("arm/upper_arm", "B"));
    expansion.connections.extend([ghost, phantom]);
    let (model, warnings) = expansion_model(&expansion, "arm").unwrap();
    assert_eq!(
        warnings,
        [
            "connection \"arm/base_link.F -- arm/ghost.B\" not written: the robot has no block 'arm/ghost'",
            "connection \"arm/phantom.F -- arm/upper_arm.B\" not written: the robot has no block 'arm/phantom'",
        ]
    );
    assert!(
        !model.contains("ghost") && !model.contains("phantom"),
        "{model}"
    );
    // The others all written: the root's attachment and the expansion's own.
    assert_eq!(model.matches(" -- ").count(), written + 1);
}

#[test]
fn a_missing_root_is_an_error_not_a_panic() {
    let mut expansion = arm();
    expansion.blocks.retain(|b| b.name != "arm");
    let error = expansion_model(&expansion, "arm").unwrap_err();
    assert!(
        matches!(error, ImportError::MissingRoot { .. }),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the expansion of 'arm' has no root block 'arm' to attach to world.W"
    );
}

#[test]
fn a_robot_named_world_is_refused() {
    let out = blockdyn(&["import", "models/urdf/two_link_arm.urdf", "--name", "world"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "--name 'world' is the name of the imported model's World frame block: choose another"
        ),
        "{stderr}"
    );
}

/// A robot named with line breaks (`name="pendulum&#10;[blocks.evil]…"`, as a hostile URDF may
/// be) cannot write TOML through the printed model's header comment: the breaks are escaped, so
/// every header line stays a comment and no block `evil` appears.
#[test]
fn a_robot_name_with_line_breaks_stays_inside_the_header_comment() {
    let dir = cli_common::temp_dir("import_name_breaks");
    let urdf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/urdf/pendulum.urdf"
    ))
    .unwrap()
    .replace(
        "<robot name=\"pendulum\">",
        "<robot name=\"pendulum&#10;[blocks.evil]&#10;type = &quot;Gain&quot;\">",
    );
    let path = dir.join("hostile.urdf");
    std::fs::write(&path, urdf).unwrap();
    let out = blockdyn(&["import", path.to_str().unwrap(), "--name", "arm"]);
    let printed = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !printed
            .lines()
            .any(|l| l.trim_start().starts_with("[blocks.evil]")),
        "{printed}"
    );
    assert!(
        printed.starts_with("# The robot 'pendulum\\n[blocks.evil]\\ntype = \"Gain\"' of "),
        "{printed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
