//! `Document::take_spec` (the blocks' tables moved out of the document, issue 28 part 3) reads
//! the same spec as `Document::spec` (which copies them), and refuses the same models with the
//! same located messages; `take_spec` leaves `[blocks]` empty and the rest of the document as
//! it was.

use blockdyn::model::Document;

/// Blocks with nested tables, arrays and strings, a `type` that is not the first key, spans on
/// every line, and every section `spec` reads.
const MODEL: &str = r#"connect = ["src.out -> gain.in", "gain.out -> scope.in1"]
[model]
name = "taken"
stop_time = 2.0
[solver]
rel_tol = 1e-6
[output]
log = ["src.out"]
[blocks.src]
type = "Sine"
amplitude = 2.0
[blocks.gain]
gain = [[1.0, 0.0], [0.0, 1.0]]
type = "Gain"
extra = { a = "x", b = [1, 2, 3] }
[blocks.scope]
type = "Scope"
"#;

#[test]
fn the_taken_spec_is_the_copied_spec() {
    let mut document = Document::parse("m.toml", MODEL).expect("the model parses");
    let copied = document.spec().expect("the model reads");
    let taken = document.take_spec().expect("the model reads");
    // `ModelSpec` has no `PartialEq`: its `Debug` text shows every field, span included.
    assert_eq!(format!("{copied:?}"), format!("{taken:?}"));
    assert_eq!(taken.blocks.len(), 3);
    // The blocks' parameters without their `type`, in file order.
    let gain = &taken.blocks[1];
    assert_eq!(gain.type_name, "Gain");
    let keys: Vec<&str> = gain.params.keys().collect();
    assert_eq!(keys, ["gain", "extra"]);
    // What was moved is gone from the document; the other sections are untouched.
    let blocks = document.root.get("blocks").expect("the [blocks] key stays");
    assert_eq!(blocks.value.as_table().map(|t| t.entries.len()), Some(0));
    assert!(document.root.get("model").is_some() && document.root.get("connect").is_some());
}

/// A model whose `[blocks]` are refused: both readings give the same message and place.
fn same_refusal(text: &str, expected: &str) {
    let mut document = Document::parse("m.toml", text).expect("the model parses");
    let copied = document.spec().expect_err("refused").to_string();
    let taken = document.take_spec().expect_err("refused").to_string();
    assert_eq!(copied, taken);
    assert!(copied.contains(expected), "{copied}");
}

#[test]
fn a_bad_block_is_refused_alike_and_located() {
    let head = "[model]\nstop_time = 1.0\n";
    // Line 5 is the second block's header: the first block is fine and no table is moved
    // before the second is refused (the column is the parser's place of the key).
    same_refusal(
        &format!("{head}[blocks.a]\ntype = \"Constant\"\n[blocks.b]\nvalue = 1.0\n"),
        "m.toml:5:",
    );
    same_refusal(
        &format!("{head}[blocks.a]\ntype = \"Constant\"\n[blocks.b]\nvalue = 1.0\n"),
        "block 'b' has no type",
    );
    same_refusal(
        &format!("{head}[blocks.a]\ntype = 3\n"),
        "'type' must be a string",
    );
    same_refusal(
        &format!("{head}[blocks]\na = 1\n"),
        "'blocks.a' must be a table",
    );
    same_refusal(
        "blocks = 3\n[model]\nstop_time = 1.0\n",
        "'blocks' must be a table",
    );
    // A section before [blocks] is read first, by both.
    same_refusal(
        "[model]\nstop_time = -1.0\n[blocks.a]\nvalue = 1.0\n",
        "must be positive",
    );
}
