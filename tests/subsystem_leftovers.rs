//! Issue 32's subsystem leftovers: an Inport nothing drives is warned about, located, naming
//! the port and what to connect (it outputs 0, which a run would not question); a connection's
//! index after the first part of its path (`cell[i]/c[i].out`) is expanded, and one that cannot be
//! resolved is a located error.
//!
//! Each test writes its files into a temporary directory of its own.

mod common;
use common::{load_error as error_of, write_file as write};
use std::path::{Path, PathBuf};

/// A fresh, empty temporary directory for test `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "blockdyn-subsystem-leftovers-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("parts")).expect("temp dir");
    dir
}

/// A gain of 2 as a subsystem: input `u` (line 3), output `y`.
const GAIN: &str = r#"connect = ["u.out -> k.in", "k.out -> y.in"]

[blocks.u]
type = "Inport"

[blocks.k]
type = "Gain"
gain = 2.0

[blocks.y]
type = "Outport"
"#;

/// A model with the instances `a` (input driven by a Constant) and `b` (input not connected),
/// logging both outputs.
const MODEL: &str = r#"connect = ["one.out -> a.u", "a.y -> sa.in", "b.y -> sb.in"]
[model]
stop_time = 0.1
[output]
log = ["a/k.out", "b/k.out"]
[blocks.one]
type = "Constant"
value = 1.5
[blocks.a]
type = "Subsystem"
file = "parts/gain.toml"
[blocks.b]
type = "Subsystem"
file = "parts/gain.toml"
[blocks.sa]
type = "Terminator"
[blocks.sb]
type = "Terminator"
"#;

/// The undriven input `b.u` is warned about at the Inport's line in the subsystem file, with
/// the including instance's line, naming `b.u` and what to connect; the driven `a.u` is not.
/// The run shows what the warning says: 2 × 1.5 = 3 through `a`, 2 × 0 = 0 through `b`.
#[test]
fn an_undriven_inport_of_an_instance_is_a_located_warning() {
    let dir = temp_dir("instance");
    write(&dir, "parts/gain.toml", GAIN);
    let model = write(&dir, "m.toml", MODEL);
    let d = blockdyn::load_model(Path::new(&model), &[]).unwrap_or_else(|e| panic!("{e}"));
    let about: Vec<&String> = d
        .warnings()
        .iter()
        .filter(|w| w.contains("is not connected"))
        .collect();
    assert_eq!(about.len(), 1, "{:?}", d.warnings());
    let w = about[0];
    assert!(
        w.contains("gain.toml:3:9: block 'b/u': the input 'b.u' is not connected: its Inport 'u' outputs 0"),
        "{w}"
    );
    assert!(
        w.contains("in subsystem 'b' (") && w.contains("m.toml:12:9)"),
        "{w}"
    );
    assert!(w.contains("\"SOURCE.out -> b.u\""), "{w}");
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let col = |name: &str| {
        let j = r.recording.column_index(name).unwrap();
        r.recording.column_values(j).collect::<Vec<f64>>()
    };
    assert!(col("a/k.out").iter().all(|&x| x == 3.0));
    assert!(col("b/k.out").iter().all(|&x| x == 0.0));
    // Driven, the warning goes.
    let driven = MODEL.replace("\"b.y -> sb.in\"", "\"b.y -> sb.in\", \"one.out -> b.u\"");
    let model = write(&dir, "driven.toml", &driven);
    let d = blockdyn::load_model(Path::new(&model), &[]).unwrap();
    assert!(
        !d.warnings().iter().any(|w| w.contains("is not connected")),
        "{:?}",
        d.warnings()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model file whose Inport nothing drives (a subsystem file given a `[model]` to run on its
/// own): warned about at its line, saying how to drive it.
#[test]
fn an_inport_of_a_model_run_on_its_own_is_a_located_warning() {
    let dir = temp_dir("top");
    let model = write(
        &dir,
        "gain.toml",
        &format!("{GAIN}[model]\nstop_time = 0.1\n"),
    );
    let d = blockdyn::load_model(Path::new(&model), &[]).unwrap_or_else(|e| panic!("{e}"));
    let w = d
        .warnings()
        .iter()
        .find(|w| w.contains("nothing drives"))
        .unwrap_or_else(|| panic!("{:?}", d.warnings()));
    assert!(
        w.contains("gain.toml:3:9: block 'u': the Inport 'u' is an input of the model that nothing drives: it outputs 0"),
        "{w}"
    );
    assert!(w.contains("connect \"SOURCE.out -> INSTANCE.u\""), "{w}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cell: an array of two Constants `c[j]` = 10·j + k (`k` set per instance).
const CELL: &str = r#"[variables]
k = 0.0

[blocks.c]
type = "Constant"
count = 2
value = "= 10 * i + k"
"#;

/// `"cell[i]/c[i].out -> g[i].in"` names, for each i, the i-th Constant of the i-th cell: with
/// k = 100·i, g[0] reads 10·0 + 0 = 0 and g[1] reads 10·1 + 100 = 110 (exact in binary).
#[test]
fn an_index_after_the_first_part_of_a_path_is_expanded() {
    let dir = temp_dir("path-index");
    write(&dir, "parts/cell.toml", CELL);
    let text = r#"connect = ["cell[i]/c[i].out -> g[i].in", "g[i].out -> s[i].in"]
[model]
stop_time = 0.1
[output]
log = ["g[0].out", "g[1].out"]
[blocks.cell]
type = "Subsystem"
count = 2
file = "parts/cell.toml"
variables = { k = "= 100 * i" }
[blocks.g]
type = "Gain"
count = 2
gain = 1.0
[blocks.s]
type = "Terminator"
count = 2
"#;
    let model = write(&dir, "m.toml", text);
    let d = blockdyn::load_model(Path::new(&model), &[]).unwrap_or_else(|e| panic!("{e}"));
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let first = |name: &str| {
        let j = r.recording.column_index(name).unwrap();
        r.recording.row(0)[j]
    };
    assert_eq!(first("g[0].out"), 0.0);
    assert_eq!(first("g[1].out"), 110.0);
    // An index naming an unknown variable: located at the connection, with the nearest name.
    let bad = write(
        &dir,
        "bad.toml",
        &text.replace("cell[i]/c[i]", "cell[i]/c[ii]"),
    );
    let e = error_of(&bad);
    assert!(e.contains("bad.toml:1:"), "{e}");
    assert!(e.contains("'ii'"), "{e}");
    // An index that is not a whole number: located, naming the array.
    let bad = write(
        &dir,
        "half.toml",
        &text.replace("cell[i]/c[i]", "cell[i]/c[0.5]"),
    );
    let e = error_of(&bad);
    assert!(
        e.contains("half.toml:1:") && e.contains("the index '0.5' of 'c' is 0.5, not an element"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
