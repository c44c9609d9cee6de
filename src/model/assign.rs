//! Assignments into a model's tables by dotted key (`--set a.b.c=v`, a parameter set's
//! values), and the names of the subsystem block types such an assignment must know: a file
//! below the document, the subsystem expansion and the splicing of its ports, which all use it
//! (it uses none of them).

use super::diagnostic::Diagnostic;
use super::overrides::Override;
use super::source::Span;
use super::value::{Entry, Table, Value, ValueKind};
use super::variables::VARIABLES;

/// The type of a subsystem instance's block.
pub const SUBSYSTEM: &str = "Subsystem";
/// A subsystem's signal input (one output `out` inside).
pub const INPORT: &str = "Inport";
/// A subsystem's signal output (one input `in` inside).
pub const OUTPORT: &str = "Outport";
/// A subsystem's frame port (the frame `F` inside).
pub const FRAMEPORT: &str = "FramePort";
/// The keys of a Subsystem block (`count` is an array's).
pub(super) const SUBSYSTEM_KEYS: [&str; 4] = ["type", "file", "variables", "count"];

/// Sets `value` at the path `keys` under `table` (`["a", "b"]` is `a.b`), making the tables on
/// the way that do not exist; refused (with the reason) where the path crosses a value that is
/// not a table, or would replace a table by a value that is not one.
pub(crate) fn set_path(table: &mut Table, keys: &[&str], value: Value) -> Result<(), String> {
    let (first, rest) = keys.split_first().ok_or("empty path")?;
    if rest.is_empty() {
        match table.get_mut(first) {
            Some(e) => {
                if matches!(e.value.kind, ValueKind::Table(_))
                    && !matches!(value.kind, ValueKind::Table(_))
                {
                    return Err(format!("'{first}' is a table; set one of its keys"));
                }
                e.value = value;
            }
            None => table.entries.push(Entry {
                key: first.to_string(),
                key_span: Span::NONE,
                value,
            }),
        }
        return Ok(());
    }
    if table.get(first).is_none() {
        table.entries.push(Entry {
            key: first.to_string(),
            key_span: Span::NONE,
            value: Value {
                kind: ValueKind::Table(Table::default()),
                span: Span::NONE,
            },
        });
    }
    let entry = table.get_mut(first).ok_or("missing")?;
    match &mut entry.value.kind {
        ValueKind::Table(t) => set_path(t, rest, value),
        _ => Err(format!("'{first}' is not a table")),
    }
}

/// `--set BLOCK.KEY...=VALUE` applied to the block's `table`: a Subsystem's key that is not one
/// of its own (`file`, `variables`, `count`) is one of its variables (`--set leg1.length=0.35`
/// is `--set leg1.variables.length=0.35`).
pub(crate) fn set_in_block(
    table: &mut Table,
    keys: &[&str],
    value: Value,
    assignment: &Override,
) -> Result<(), Diagnostic> {
    if keys.first() == Some(&"type") {
        return Err(Diagnostic::new(format!(
            "--set '{assignment}': a block's type cannot be overridden"
        )));
    }
    let is_subsystem = table.get("type").and_then(|t| t.value.as_str()) == Some(SUBSYSTEM);
    let mut keys = keys.to_vec();
    if is_subsystem && keys.first().is_some_and(|k| !SUBSYSTEM_KEYS.contains(k)) {
        keys.insert(0, VARIABLES);
    }
    set_path(table, &keys, value)
        .map_err(|why| Diagnostic::new(format!("--set '{assignment}': {why}")).hint("only numbers, strings, arrays and tables can be set, at the path they have in the model"))
}
