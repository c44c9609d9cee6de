//! A budget for XML entity expansion in a URDF file, checked before the XML is parsed.
//!
//! An internal DTD may declare entities (`<!ENTITY big "...">`) that the document then
//! references (`&big;`); the XML reader replaces each reference by the entity's text. roxmltree
//! refuses reference loops and deep nesting (billion laughs) but not breadth: one 64 KiB entity
//! referenced 300 times in a 67 KB file made it allocate gigabytes. Here the declarations are read,
//! the text each entity expands to is measured (its own references included), and the references
//! of the document are summed: past [`MAX_ENTITY_EXPANSION_BYTES`] the file is refused at the
//! reference that crosses the limit. Nothing is expanded to measure it.
//!
//! The scan is deliberately simple and errs towards refusing: every `<!ENTITY` of the text counts
//! (one in a comment too, and of two declarations of a name the larger), and every `&name;` of a
//! declared entity outside the declarations (one in a comment or CDATA section too), so that no
//! arrangement of comments can hide an entity from the count.

use super::position::error_at;
use crate::model::{Diagnostic, SourceFile};
use std::collections::HashMap;
use std::ops::Range;

/// The most text (bytes) the entity references of a URDF file may expand to in total: 4 MiB.
/// A URDF needs no entities at all (xacro writes plain files); this leaves room for any
/// reasonable use and bounds what a hostile file can make the reader allocate.
pub const MAX_ENTITY_EXPANSION_BYTES: u64 = 4 << 20;

/// Nesting deeper than this is left to the XML reader, which refuses it (at depth 10).
const MAX_NESTING: usize = 16;

/// An `<!ENTITY name "value">` declaration.
struct Declaration<'t> {
    /// Its values: one per declaration of the name (the largest counts).
    values: Vec<&'t str>,
    /// Byte offset of the declaration with the longest value (the one messages name).
    at: usize,
    longest: usize,
}

/// Checks the total entity expansion of the XML text of `source` (see the module docs).
pub fn check_expansion(source: &SourceFile) -> Result<(), Diagnostic> {
    let text = source.text.as_str();
    let (declarations, inside) = declarations(text);
    if declarations.is_empty() {
        return Ok(());
    }
    let mut sizes = Sizes {
        declarations: &declarations,
        memo: HashMap::new(),
    };
    let mut total: u64 = 0;
    // References outside the declarations (theirs are counted in the entities' sizes).
    let mut spans = inside.iter().peekable();
    for (at, name) in references(text) {
        while spans.next_if(|s| s.end <= at).is_some() {}
        if spans.peek().is_some_and(|s| s.start <= at) {
            continue;
        }
        let Some(size) = sizes.expanded(name, 0) else {
            continue;
        };
        total = total.saturating_add(size);
        if total > MAX_ENTITY_EXPANSION_BYTES {
            let (line, _) = source.line_column(declarations[name].at);
            return Err(error_at(
                source,
                at,
                format!(
                    "XML entities expand past the limit of {} MiB: the references up to this '&{name};' (entity '{name}', declared at line {line}, {size} bytes of text) expand to {total} bytes",
                    MAX_ENTITY_EXPANSION_BYTES >> 20
                ),
            )
            .hint("a URDF file needs no large entities: write the values out (xacro expands its macros into a plain file)"));
        }
    }
    Ok(())
}

/// The expanded sizes of the declared entities, measured once each.
struct Sizes<'d, 't> {
    declarations: &'d HashMap<&'t str, Declaration<'t>>,
    memo: HashMap<&'t str, u64>,
}

impl<'t> Sizes<'_, 't> {
    /// The bytes entity `name` expands to (`None` when it is not declared here: a predefined
    /// entity such as `&lt;`, or one the XML reader will report). A loop counts nothing (the XML
    /// reader refuses it itself); nesting past [`MAX_NESTING`] counts as unbounded, so that the
    /// file is refused: counting it as nothing would cache too small a size for every entity
    /// above it, which a reference the reader never expands (one in a comment) could plant.
    fn expanded(&mut self, name: &'t str, depth: usize) -> Option<u64> {
        let declarations = self.declarations;
        let declaration = declarations.get(name)?;
        if let Some(&size) = self.memo.get(name) {
            return Some(size);
        }
        if depth > MAX_NESTING {
            return Some(u64::MAX);
        }
        // Provisionally 0, so that a loop ends here.
        self.memo.insert(name, 0);
        let mut largest = 0u64;
        for value in &declaration.values {
            let mut size = value.len() as u64;
            for (_, inner) in references(value) {
                if let Some(s) = self.expanded(inner, depth + 1) {
                    size = size.saturating_add(s);
                }
            }
            largest = largest.max(size);
        }
        self.memo.insert(name, largest);
        Some(largest)
    }
}

/// The `&name;` references in `text` (character references `&#...;` excluded), with their byte
/// offsets.
fn references(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    (0..bytes.len())
        .filter(move |&i| bytes[i] == b'&' && bytes.get(i + 1) != Some(&b'#'))
        .filter_map(move |i| {
            let rest = &text[i + 1..];
            let end = rest.find(|c: char| c == ';' || c == '&' || c == '<' || c.is_whitespace())?;
            (rest.as_bytes()[end] == b';' && end > 0).then(|| (i, &rest[..end]))
        })
}

/// Every general entity declared anywhere in the text, by name, and the byte ranges of the
/// declarations, in order. Deliberately not a DTD parser: a declaration inside a comment counts
/// too, and of two declarations of one name the larger, so that nothing can hide an entity from
/// the count (erring towards refusing).
fn declarations(text: &str) -> (HashMap<&str, Declaration<'_>>, Vec<Range<usize>>) {
    let mut found: HashMap<&str, Declaration<'_>> = HashMap::new();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("<!ENTITY") {
        let at = from + k;
        let after = &text[at + "<!ENTITY".len()..];
        let end = skip_markup(text.as_bytes(), at).unwrap_or(text.len());
        if let Some((name, value)) = entity(after) {
            let d = found.entry(name).or_insert(Declaration {
                values: Vec::new(),
                at,
                longest: 0,
            });
            if value.len() > d.longest {
                (d.at, d.longest) = (at, value.len());
            }
            d.values.push(value);
        }
        spans.push(at..end);
        from = end.max(at + 1);
    }
    (found, spans)
}

/// The name and literal value of a general entity declaration (`after` follows `<!ENTITY`);
/// `None` for a parameter entity (`%`) or an external one (SYSTEM/PUBLIC, which the reader
/// refuses).
fn entity(after: &str) -> Option<(&str, &str)> {
    let after = after.trim_start();
    if after.starts_with('%') {
        return None;
    }
    let name_end = after.find(|c: char| c.is_whitespace())?;
    let (name, rest) = after.split_at(name_end);
    let rest = rest.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    let end = value.find(quote)?;
    Some((name, &value[..end]))
}

/// The offset after the quoted string starting at `i`.
fn skip_quoted(bytes: &[u8], i: usize) -> Option<usize> {
    let quote = bytes[i];
    let len = bytes[i + 1..].iter().position(|&b| b == quote)?;
    Some(i + len + 2)
}

/// The offset after the markup declaration starting at `i` (quoted strings skipped).
fn skip_markup(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match bytes.get(i)? {
            b'"' | b'\'' => i = skip_quoted(bytes, i)?,
            b'>' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), Diagnostic> {
        check_expansion(&SourceFile::new("r.urdf", text))
    }

    #[test]
    fn one_wide_entity_referenced_often_is_refused_at_the_crossing_reference() {
        let big = "x".repeat(64 << 10);
        let refs = "&e;".repeat(300);
        let text = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE robot [\n<!ENTITY e \"{big}\">\n]>\n<robot name=\"r\">\n{refs}</robot>\n"
        );
        let e = check(&text).unwrap_err().to_string();
        assert!(e.starts_with("r.urdf:6:"), "{e}");
        assert!(
            e.contains("limit of 4 MiB")
                && e.contains("entity 'e', declared at line 3, 65536 bytes"),
            "{e}"
        );
    }

    #[test]
    fn nested_entities_are_measured_expanded() {
        let text = "<!DOCTYPE r [<!ENTITY a \"0123456789\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]><r>&d;&d;&d;</r>";
        // d expands to 10 kB; three of them are well within the limit.
        assert!(check(text).is_ok());
        let many = format!("{}{}", &text[..text.len() - 4], "&d;".repeat(500) + "</r>");
        assert!(check(&many).is_err());
    }

    #[test]
    fn a_doctype_in_a_comment_hides_nothing() {
        let big = "x".repeat(64 << 10);
        let text = format!(
            "<!-- <!DOCTYPE x> <!ENTITY e \"small\"> -->\n<!DOCTYPE r [<!ENTITY e \"{big}\">]>\n<r>{}</r>",
            "&e;".repeat(100)
        );
        let e = check(&text).unwrap_err().to_string();
        assert!(
            e.contains("entity 'e', declared at line 2, 65536 bytes"),
            "{e}"
        );
    }

    #[test]
    fn small_entities_loops_and_plain_files_pass() {
        assert!(check("<robot name=\"r\">&lt;&amp;&#65;</robot>").is_ok());
        assert!(check("<!DOCTYPE r [<!ENTITY a \"&a;\">]><r>&a;</r>").is_ok());
        assert!(check("<!DOCTYPE r [<!ENTITY a 'x>y'><!-- ] -->]><r>&a;&a;</r>").is_ok());
    }
}
