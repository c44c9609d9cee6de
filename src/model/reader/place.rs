//! Where a parameter error is in the model file: the span of a key path's value, key, element
//! or table.

use crate::model::source::Span;
use crate::model::value::{Table, Value, ValueKind};
use crate::params::At;

/// Where `at` of the parameter at `path` (keys from `table`, written at `span`) was written:
/// where [`TableReader::locate`] puts an error, and where a place a block kept (a
/// ContactGroup's member, by its index) was written. A key that is not written falls back to
/// the table holding it.
pub(crate) fn span_in(table: &Table, span: &Span, path: &[String], at: At) -> Span {
    let (tables, last) = match (at, path.split_last()) {
        (At::Table, _) | (_, None) => (path, None),
        (_, Some((last, tables))) => (tables, Some(last)),
    };
    let (mut table, mut span) = (table, span);
    for key in tables {
        match table.get(key).map(|e| &e.value) {
            Some(Value {
                kind: ValueKind::Table(t),
                span: s,
            }) => (table, span) = (t, s),
            _ => return span.clone(),
        }
    }
    let Some(key) = last else {
        return span.clone();
    };
    let entry = table.get(key);
    match at {
        At::Key => entry.map_or(span, |e| &e.key_span),
        At::Item(k) => entry
            .and_then(|e| e.value.as_array())
            .and_then(|items| items.get(k))
            .map_or(span, |v| &v.span),
        At::Value | At::Table => entry.map_or(span, |e| &e.value.span),
    }
    .clone()
}

#[cfg(test)]
mod tests {
    use crate::model::{Document, TableReader};
    use crate::params::{At, ParamError};

    /// The model text the located errors below point into; each error's place is counted by
    /// hand from it (line, column of the first character of the value, key or element).
    const TEXT: &str = "k = 1\nnormal = { stiffness = -5, extra = 1 }\nmembers = [\"a\", 3]\n";

    fn located(e: ParamError) -> String {
        let doc = Document::parse("m.toml", TEXT).unwrap();
        let r = TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
        r.locate(e).to_string()
    }

    #[test]
    fn a_keyed_error_is_located_where_the_reader_located_it() {
        let doc = Document::parse("m.toml", TEXT).unwrap();
        let reader = TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
        let p = reader.params();
        let normal = p.table("normal").unwrap().unwrap();
        // A value of a nested table: line 2, column 24 (`-5`), the full key path named.
        let e = normal.positive_or("stiffness", 1.0, "N/m").unwrap_err();
        assert_eq!(e.key_path(), "normal.stiffness");
        let text = located(e);
        assert!(
            text.starts_with(
                "m.toml:2:24: block 'b': 'normal.stiffness' must be positive (got -5)"
            ),
            "{text}"
        );
        assert!(
            text.contains("help: write a positive value in N/m"),
            "{text}"
        );
        // An unknown key of the nested table: at the key `extra`, line 2, column 28.
        let e = normal.finish().unwrap_err();
        assert_eq!(e.at(), At::Key);
        let text = located(e);
        assert!(
            text.starts_with("m.toml:2:28: block 'b': unknown parameter 'normal.extra'"),
            "{text}"
        );
        // The nested table as a whole: at its `{`, line 2, column 10.
        assert!(
            located(normal.table_error("bad law")).starts_with("m.toml:2:10: block 'b': bad law")
        );
        // An element of an array: `3` at line 3, column 17.
        let text = located(p.item_error("members", 1, "not a name"));
        assert!(
            text.starts_with("m.toml:3:17: block 'b': not a name"),
            "{text}"
        );
        // A key not written: at the table that would hold it (the block's table, no place).
        let text = located(normal.error("damping", "needed"));
        assert!(text.starts_with("m.toml:2:10: block 'b': needed"), "{text}");
    }
}
