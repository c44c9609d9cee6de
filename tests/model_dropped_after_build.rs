//! A build that drops its model afterwards (`load_model`, `load_model_str`) empties each block's
//! table as soon as the block is made, keeping only what its messages read — the keys, the
//! numbers and every value's place — and frees the parsed connections once they are resolved
//! (issue 28, part 3: a 20,000-joint chain's values are then not alive at the build's peak). A
//! build that keeps the model (`load_model_parts`, `load_model_str_parts`) reads it whole. Both
//! must give the same diagram, the same warnings at the same places, and the same errors.

use std::path::Path;

fn models_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// What a diagram shows of itself: its blocks and schedule (`Debug`), its sizes, its physical
/// connections as written, and its warnings, each located.
fn summary(d: &blockdyn::Diagram) -> String {
    format!(
        "{d:?}\nsignals {} states {} work {} crossings {}\nphysical {:?}\nwarnings {:#?}",
        d.signal_len(),
        d.num_states(),
        d.num_work(),
        d.zero_crossing_directions().len(),
        d.physical(),
        d.warnings()
    )
}

/// Every example model (their contact groups, URDF robots and subsystems included) builds to
/// the same diagram with the same warnings whether the build keeps the model or drops it.
#[test]
fn every_example_builds_the_same_with_the_model_dropped_or_kept() {
    let mut paths: Vec<_> = std::fs::read_dir(models_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 40, "the examples moved: {}", paths.len());
    let mut physical = 0;
    for path in &paths {
        let dropped = blockdyn::load_model(path, &[]).unwrap();
        let (_, kept) = blockdyn::load_model_parts(path, &[]).unwrap();
        assert_eq!(summary(&dropped), summary(&kept), "{}", path.display());
        physical += dropped.physical().len();
    }
    // Not a vacuous comparison: the examples have physical connections to compare.
    assert!(physical > 100, "{physical} physical connections");
}

/// The warnings that read a block's table after the block is made, from text: a revolute `q0`
/// in degrees (located at q0's value), and a GroundContact's `dimension`, a number read from
/// the emptied table (2 written: the warning about y; removed: the warning about z).
#[test]
fn warnings_that_read_the_table_after_the_build_are_the_same() {
    let read = |name: &str| std::fs::read_to_string(models_dir().join(name)).unwrap();
    let pendulum = read("pendulum.toml").replace("q0 = 1.5707963267948966 ", "q0 = 90.0 ");
    let hopper = read("planar_hopper.toml");
    let hopper_z = hopper.replace("gravity = [0.0, -9.81, 0.0]", "gravity = [0.0, 0.0, -9.81]");
    let hopper_3d = hopper.replace("dimension = 2\n", "");
    let cases = [
        ("pendulum.toml", pendulum, "full turn"),
        (
            "planar_hopper.toml",
            hopper_z,
            "World x axis with y up (dimension = 2)",
        ),
        ("planar_hopper.toml", hopper_3d, "World x-y plane with z up"),
    ];
    for (label, text, needle) in cases {
        let dropped = blockdyn::load_model_str(label, &text, &[]).unwrap();
        let (_, kept) = blockdyn::load_model_str_parts(label, &text, &[]).unwrap();
        assert_eq!(dropped.warnings(), kept.warnings(), "{label}");
        let located: Vec<&String> = dropped
            .warnings()
            .iter()
            .filter(|w| w.contains(needle))
            .collect();
        // Each such warning is located (file:line:column) and found in both.
        assert_eq!(located.len(), 1, "{label}: {:?}", dropped.warnings());
        assert!(
            located[0].starts_with(&format!("{label}:")),
            "{}",
            located[0]
        );
    }
}

/// Errors found after some blocks are made (their tables already emptied) are the same, at the
/// same places: a block table written twice (the TOML reader refuses it before any block is
/// made, on both paths), a connection to a block that does not exist, a bad
/// parameter of a later block, and an input left unconnected.
#[test]
fn errors_after_blocks_are_made_are_the_same() {
    let base = "connect = [\"src.out -> gain.in\"]\n[model]\nstop_time = 1.0\n\
                [blocks.src]\ntype = \"Sine\"\namplitude = 2.0\n\
                [blocks.gain]\ntype = \"Gain\"\ngain = 2.0\n";
    let cases = [
        format!("{base}[blocks.src2]\ntype = \"Sine\"\n[blocks.gain]\ntype = \"Gain\"\n"),
        base.replace("src.out -> gain.in", "src.out -> gian.in"),
        format!("{base}[blocks.later]\ntype = \"Gain\"\ngain = \"two\"\n"),
        format!("{base}[blocks.sink]\ntype = \"Scope\"\n"),
    ];
    for text in &cases {
        let dropped = blockdyn::load_model_str("m.toml", text, &[])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        let kept = blockdyn::load_model_str_parts("m.toml", text, &[])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert_eq!(dropped, kept);
        assert!(dropped.starts_with("m.toml:"), "not located: {dropped}");
    }
}
