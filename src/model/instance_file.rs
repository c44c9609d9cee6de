//! The parts of a subsystem instance's file that need no expansion state: the names its blocks
//! may have, the variables an instance sets, and its spans made spans of the model's source.
//! See [`super::subsystem`].

use super::diagnostic::{closest, Diagnostic};
use super::source::SourceFile;
use super::value::{Entry, Table, Value, ValueKind};
use super::variables::VARIABLES;
use std::path::Path;

/// A block name written in a file: no brackets (`NAME[k]` is an array's element), and no `/`
/// after the name of one of the file's instances or arrays (`leg1/knee` is a block of the
/// instance `leg1`); other names with `/` (a `blockdyn import` model's `robot/trunk`) are kept.
pub(super) fn check_name(
    source: &SourceFile,
    entry: &Entry,
    expanded: &[&str],
) -> Result<(), Diagnostic> {
    let bracket = entry.key.chars().find(|c| matches!(c, '[' | ']'));
    let first = entry.key.split('/').next().unwrap_or_default();
    let why = match bracket {
        Some(c) => format!("has '{c}': NAME[k] is an array's element (count = N)"),
        None if entry.key.contains('/') && expanded.contains(&first) => format!(
            "has '/' after '{first}', a subsystem or array of this file: '/' separates an instance from its blocks"
        ),
        None => return Ok(()),
    };
    Err(Diagnostic::at(
        source,
        &entry.key_span,
        format!("the block name '{}' {why}", entry.key),
    )
    .hint("choose a name of letters, digits, '_' and '-' (reach a block of an instance as INSTANCE/NAME in connections, log and --set)"))
}

/// Sets the subsystem file's variables to the values an instance gives.
pub(super) fn set_variables(
    source: &SourceFile,
    root: &mut Table,
    given: &Value,
    full: &str,
) -> Result<(), Diagnostic> {
    let Some(given) = given.as_table() else {
        return Err(
            Diagnostic::at(source, &given.span, "'variables' must be a table")
                .block(full)
                .hint("write variables = { length = 0.3 }"),
        );
    };
    let declared = root
        .get_mut(VARIABLES)
        .and_then(|e| match &mut e.value.kind {
            ValueKind::Table(t) => Some(t),
            _ => None,
        });
    let Some(declared) = declared else {
        let first = given
            .entries
            .first()
            .map(|e| e.key_span.clone())
            .unwrap_or_default();
        return Err(Diagnostic::at(
            source,
            &first,
            "the subsystem file has no [variables] to set",
        )
        .block(full)
        .hint("remove 'variables', or declare them in the subsystem file's [variables]"));
    };
    for e in &given.entries {
        let names: Vec<String> = declared.keys().map(str::to_string).collect();
        let Some(slot) = declared.get_mut(&e.key) else {
            let d = Diagnostic::at(
                source,
                &e.key_span,
                format!("the subsystem file has no variable '{}'", e.key),
            )
            .block(full);
            return Err(match closest(&e.key, names.iter().map(String::as_str)) {
                Some(near) => d.hint(format!("did you mean '{near}'?")),
                None => d.hint(format!("its variables are: {}", names.join(", "))),
            });
        };
        slot.value = e.value.clone();
    }
    Ok(())
}

/// A Urdf block's `file` inside a subsystem file is relative to that file: made relative to the
/// model's directory.
pub(super) fn relocate_file(value: &mut Value, dir: &Path) {
    if let ValueKind::Table(t) = &mut value.kind {
        if let Some(e) = t.get_mut("file") {
            if let ValueKind::String(s) = &mut e.value.kind {
                *s = dir.join(&*s).display().to_string();
            }
        }
    }
}

/// Adds `base` to every span of `table` (a subsystem file's tree, made a part of the model's
/// source by `SourceFile::include`).
pub(super) fn shift_table(table: &mut Table, base: usize) {
    for e in &mut table.entries {
        e.key_span = e.key_span.shifted(base);
        shift_value(&mut e.value, base);
    }
}

fn shift_value(value: &mut Value, base: usize) {
    value.span = value.span.shifted(base);
    match &mut value.kind {
        ValueKind::Array(items) => items.iter_mut().for_each(|v| shift_value(v, base)),
        ValueKind::Table(t) => shift_table(t, base),
        _ => {}
    }
}
