//! A model read as it is built: its subsystems, arrays and importer blocks expanded, its
//! expressions evaluated, the overrides applied (`--set PATH=VALUE`), and an error that has no
//! line, when overrides were given, blamed on the override it is about.

use super::importer::Importer;
use super::overrides::Override;
use super::subsystem::{expand_document_to, ConnectionsTo, Expansion};
use super::{Diagnostic, Document};

/// Expands the subsystems, arrays and importer blocks (`importers`: URDF) of `document`, evaluates its expressions and
/// applies `after`, the overrides (of `overrides`, all the user gave, for messages) that address
/// blocks the expansion makes: after this, [`Document::spec`] reads the model as it is built.
/// The build and a parameter set that moves a variable both read a model this way.
pub(crate) fn expand_and_resolve(
    document: &mut Document,
    after: &[&Override],
    overrides: &[Override],
    importers: &[&Importer],
) -> Result<Expansion, Diagnostic> {
    expand_and_resolve_to(
        document,
        after,
        overrides,
        importers,
        ConnectionsTo::Document,
    )
}

/// [`expand_and_resolve`], leaving the connections the expansion makes where `to` says (with
/// [`ConnectionsTo::Caller`], read the spec with [`Document::take_spec_with`] and the
/// expansion's [`Expansion::connections`]).
pub(crate) fn expand_and_resolve_to(
    document: &mut Document,
    after: &[&Override],
    overrides: &[Override],
    importers: &[&Importer],
    to: ConnectionsTo,
) -> Result<Expansion, Diagnostic> {
    // A model built in code has no lines, so an error without one need not be an override's.
    let has_lines = document.source.has_lines();
    // Subsystems, Urdf blocks and arrays become flat blocks first (each applying the overrides
    // that name the blocks it makes, `--set leg1/knee.q0=0.2`, `--set robot/knee.q0=0.3`,
    // `--set dom[2].mass=0.02`).
    let mut after: Vec<&Override> = after.to_vec();
    let expansion = expand_document_to(document, &mut after, importers, to)
        .map_err(|d| name_the_override(d, overrides, has_lines))?;
    document
        .resolve_variables()
        .map_err(|d| name_the_override(d, overrides, has_lines))?;
    // What is left below never touches `connect` (variables are substituted in the sections
    // only; an override left addresses a block the expansion made, inside its table), so the
    // connections the expansion parsed (`Expansion::connections`) stay those it holds.
    let resolve_again = !after.is_empty();
    for o in after {
        document.apply_override(o)?;
    }
    if resolve_again {
        // An override of an expanded block may itself be an expression.
        document
            .resolve_variables()
            .map_err(|d| name_the_override(d, overrides, has_lines))?;
    }
    Ok(expansion)
}

/// Every value written in the file has a line; a value set with `--set` has none. So an error
/// about the model that has no line, when options were given, is about one of them: say which
/// (the file name alone would send the user looking in the file).
///
/// A model built in code has no lines at all, so there only an override that addresses the
/// error's block (or section) and whose key the message quotes is named: it replaced the value
/// the code gave.
pub(crate) fn name_the_override(
    mut d: Diagnostic,
    overrides: &[Override],
    has_lines: bool,
) -> Diagnostic {
    if d.line_column.is_some() || d.file.is_none() || overrides.is_empty() {
        return d;
    }
    let blamed = blamed_overrides(&d, overrides);
    let options: Vec<String> = match blamed {
        Blamed::Quoted(list) => list,
        Blamed::OfBlock(list) | Blamed::Any(list) if has_lines => list,
        _ => return d,
    }
    .iter()
    .map(|o| format!("--set '{o}'"))
    .collect();
    let from = match options.as_slice() {
        [one] => one.clone(),
        many => format!("one of {}", many.join(", ")),
    };
    d.message = format!("{from}: {}", d.message);
    d
}

/// The overrides an error without a line can be about, from the most to the least certain.
enum Blamed<'a> {
    /// Those addressing its block (or the `model`/`solver`/`output` sections when it names no
    /// block) whose key the message quotes.
    Quoted(Vec<&'a Override>),
    /// Those addressing its block, none quoted.
    OfBlock(Vec<&'a Override>),
    /// All of them, none addressing its block.
    Any(Vec<&'a Override>),
}

/// Which overrides an error without a line can be about; see [`Blamed`].
fn blamed_overrides<'a>(d: &Diagnostic, overrides: &'a [Override]) -> Blamed<'a> {
    let about_block = |o: &&'a Override| {
        let first = o.path().split('.').next().unwrap_or_default();
        match &d.block {
            Some(block) => first == &**block,
            None => matches!(first, "model" | "solver" | "output"),
        }
    };
    let quoted = |o: &&'a Override| {
        let key = o.path().rsplit('.').next().unwrap_or_default();
        d.message.contains(&format!("'{key}'"))
    };
    let of_block: Vec<&Override> = overrides.iter().filter(about_block).collect();
    let narrowed: Vec<&Override> = of_block.iter().copied().filter(quoted).collect();
    match (narrowed.is_empty(), of_block.is_empty()) {
        (false, _) => Blamed::Quoted(narrowed),
        (true, false) => Blamed::OfBlock(of_block),
        (true, true) => Blamed::Any(overrides.iter().collect()),
    }
}
