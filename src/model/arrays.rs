//! Arrays of blocks: `count = N` on a block (or a Subsystem) makes `NAME[0]` … `NAME[N-1]`, and
//! a connection that names `NAME[i]` (or any index expression of `i`, e.g. `NAME[i+1]`) is made
//! once for each `i` for which every element it names exists.
//!
//! Inside the counted table the variable `i` is the element's index; an index written in a
//! connection is an expression of the file's variables (and `i`), whose value must be a
//! non-negative integer.

use super::connection::{Connection, PortRef};
use super::diagnostic::Diagnostic;
use super::source::SourceFile;
use super::value::{Table, Value, ValueKind};
use super::variables::{self, Variables, INDEX};
use std::collections::HashMap;

/// The largest `count` of one array.
pub const MAX_COUNT: usize = 10_000;

/// The number of elements `count = N` asks for, read (after its expression, if any, was
/// evaluated): a positive integer up to [`MAX_COUNT`], else an error located at the value.
pub(crate) fn read_count(
    source: &SourceFile,
    name: &str,
    value: &Value,
) -> Result<usize, Diagnostic> {
    let n = match value.kind {
        ValueKind::Integer(n) => Some(n as f64),
        ValueKind::Float(x) => Some(x),
        _ => None,
    };
    let why = match n {
        None => format!(
            "'count' must be a number of blocks, not {}",
            value.type_name()
        ),
        Some(x) if x.fract() != 0.0 || !x.is_finite() => {
            format!("'count' must be a whole number of blocks (got {x})")
        }
        Some(x) if x < 1.0 => format!("'count' must be at least 1 (got {x})"),
        Some(x) if x > MAX_COUNT as f64 => {
            format!("'count' is {x}, more than the {MAX_COUNT} elements an array may have")
        }
        Some(x) => return Ok(x as usize),
    };
    Err(Diagnostic::at(source, &value.span, why)
        .block(name)
        .hint("write count = N with N a whole number from 1 up, e.g. count = 5 makes NAME[0] … NAME[4]; remove 'count' for a single block"))
}

/// The block table of an array's element: `count` removed.
pub(crate) fn element_table(table: &Table) -> Table {
    let mut t = table.clone();
    t.entries.retain(|e| e.key != "count");
    t
}

/// The connection `c` written in a file whose arrays are `counts` (local name → N), with its
/// index expressions evaluated: one connection when no index names `i`, else one for each `i`
/// for which every element named exists (an error when there is none).
pub(crate) fn expand_connection(
    source: &SourceFile,
    vars: &Variables,
    counts: &HashMap<String, usize>,
    c: &Connection,
) -> Result<Vec<Connection>, Diagnostic> {
    let ends = [&c.from.block, &c.to.block];
    let indexed = ends
        .iter()
        .any(|b| indices(b).any(|(_, e)| variables::names(e, INDEX)));
    if !indexed {
        let mut out = c.clone();
        out.from = resolve_end(source, vars, counts, &c.from, c, false)?
            .expect("an index out of range is an error without i");
        out.to = resolve_end(source, vars, counts, &c.to, c, false)?
            .expect("an index out of range is an error without i");
        return Ok(vec![out]);
    }
    let largest = ends
        .iter()
        .flat_map(|b| indices(b).map(|(name, _)| counts.get(name).copied().unwrap_or(0)))
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    for k in 0..largest {
        let with_i = vars.with_index(k);
        let from = resolve_end(source, &with_i, counts, &c.from, c, true)?;
        let to = resolve_end(source, &with_i, counts, &c.to, c, true)?;
        if let (Some(from), Some(to)) = (from, to) {
            out.push(Connection {
                from,
                to,
                ..c.clone()
            });
        }
    }
    if out.is_empty() {
        return Err(Diagnostic::at(
            source,
            &c.span,
            "this connection names array elements with 'i', but for no value of i do all of them exist",
        )
        .hint("i runs over the indices of the arrays named; check the arrays' counts and the index expressions (e.g. dom[i+1] with i < count − 1)"));
    }
    Ok(out)
}

/// Each `NAME[expr]` of a block path (`dom[i+1]`, `leg[2]/knee`): the array's name and the
/// expression.
fn indices(block: &str) -> impl Iterator<Item = (&str, &str)> {
    block.split('/').filter_map(|part| {
        let (name, rest) = part.split_once('[')?;
        Some((name, rest.strip_suffix(']').unwrap_or(rest)))
    })
}

/// The end `end` with the index of each part of its path evaluated (`dom[i+1]` → `dom[3]`,
/// `leg[i]/foot[i]` → `leg[2]/foot[2]`). The first part names an array of this file (`counts`),
/// whose range is checked; a later part names an array inside an instance, whose index must be a
/// non-negative integer (that the element exists, the build checks). `None` when `skip` and an
/// index is a whole number that is not an element (the connection is not made for this `i`); an
/// error otherwise.
fn resolve_end(
    source: &SourceFile,
    vars: &Variables,
    counts: &HashMap<String, usize>,
    end: &PortRef,
    c: &Connection,
    skip: bool,
) -> Result<Option<PortRef>, Diagnostic> {
    let mut parts = Vec::new();
    for (k, part) in end.block.split('/').enumerate() {
        let Some((name, expr)) = indices(part).next() else {
            parts.push(part.to_string());
            continue;
        };
        let x = variables::number(source, vars, expr, &c.span)?;
        let count = if k == 0 {
            counts.get(name).copied()
        } else {
            None
        };
        let element = (x >= 0.0 && x.fract() == 0.0)
            .then_some(x as usize)
            .filter(|e| count.is_none_or(|n| *e < n));
        let Some(e) = element else {
            if skip && x.fract() == 0.0 {
                return Ok(None);
            }
            let range = match count {
                Some(n) => format!("0 to {}", n - 1),
                None => "a non-negative integer".into(),
            };
            return Err(Diagnostic::at(
                source,
                &c.span,
                format!("the index '{expr}' of '{name}' is {x}, not an element ({range})"),
            )
            .hint("an array NAME with count = N has the elements NAME[0] … NAME[N-1]"));
        };
        parts.push(format!("{name}[{e}]"));
    }
    let mut out = end.clone();
    out.block = parts.join("/");
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::connection::parse_connection;

    #[test]
    fn an_index_of_i_is_made_for_each_element_that_exists() {
        let src = SourceFile::new("m.toml", "");
        let counts = HashMap::from([("dom".to_string(), 5), ("pair".to_string(), 4)]);
        let vars = Variables::default();
        let c = parse_connection("dom[i+1].G -- pair[i].B", crate::model::Span::NONE).unwrap();
        let made = expand_connection(&src, &vars, &counts, &c).unwrap();
        let text: Vec<String> = made.iter().map(|c| c.from.to_string()).collect();
        assert_eq!(text, ["dom[1].G", "dom[2].G", "dom[3].G", "dom[4].G"]);
        assert_eq!(made[3].to.block, "pair[3]");
        let c = parse_connection("dom[i].G -- dom[i+1].G", crate::model::Span::NONE).unwrap();
        assert_eq!(
            expand_connection(&src, &vars, &counts, &c).unwrap().len(),
            4
        );
        let c = parse_connection("dom[2].G -- table.G", crate::model::Span::NONE).unwrap();
        assert_eq!(
            expand_connection(&src, &vars, &counts, &c).unwrap()[0]
                .from
                .block,
            "dom[2]"
        );
        let c = parse_connection("dom[5].G -- table.G", crate::model::Span::NONE).unwrap();
        let e = expand_connection(&src, &vars, &counts, &c).unwrap_err();
        assert!(e.message.contains("not an element (0 to 4)"), "{e}");
        let c = parse_connection("dom[i+9].G -- table.G", crate::model::Span::NONE).unwrap();
        assert!(expand_connection(&src, &vars, &counts, &c).is_err());
        // An index after the first part (an array inside an instance) is evaluated too.
        let c =
            parse_connection("pair[i]/foot[i+1].G -- dom[i].F", crate::model::Span::NONE).unwrap();
        let made = expand_connection(&src, &vars, &counts, &c).unwrap();
        let text: Vec<String> = made.iter().map(|c| c.from.to_string()).collect();
        assert_eq!(
            text,
            [
                "pair[0]/foot[1].G",
                "pair[1]/foot[2].G",
                "pair[2]/foot[3].G",
                "pair[3]/foot[4].G"
            ]
        );
        // An index that is not an element: located, naming the part.
        let c =
            parse_connection("pair[1]/foot[0.5].G -- table.G", crate::model::Span::NONE).unwrap();
        let e = expand_connection(&src, &vars, &counts, &c).unwrap_err();
        assert!(
            e.message.contains(
                "the index '0.5' of 'foot' is 0.5, not an element (a non-negative integer)"
            ),
            "{e}"
        );
    }
}
