//! Typed, located reading of a TOML table: the one way blocks and sections read their parameters.
//!
//! Every key a reader is asked for (present or not) becomes a known key; [`TableReader::finish`]
//! then rejects keys that were written but never asked for, with a "did you mean".
//!
//! A block's constructor reads the table through [`ParamSource`] (which this reader implements)
//! and reports a [`ParamError`] naming a key path; [`TableReader::locate`] turns it into the
//! located [`Diagnostic`] (at the key's value, else at the table). The model's own sections
//! (`[solver]`, `[output]`) use the inherent methods, which return the located error directly.

use super::diagnostic::{closest, Diagnostic};
use super::source::{SourceFile, Span};
use super::value::{Table, Value, ValueKind};
use crate::params::{At, ParamError, ParamSource, ParamValue, Params};
use std::cell::RefCell;

/// Reads the parameters of one block (or one section such as `[solver]`).
pub struct TableReader<'a> {
    source: &'a SourceFile,
    /// Block name for messages (`None` for a section).
    block: Option<&'a str>,
    /// The keys from the block's table to this one (`["normal"]`), for messages.
    path: Vec<String>,
    table: &'a Table,
    span: Span,
    asked: RefCell<Vec<&'static str>>,
}

/// Result of reading a parameter.
pub type ParamResult<T> = Result<T, Diagnostic>;

/// A parameter error of this reader's, as a [`ParamError`] (located later).
type Keyed<T> = Result<T, ParamError>;

impl<'a> TableReader<'a> {
    /// A reader over `table` (written at `span`) of block `block` (or of a section when `None`).
    pub fn new(
        source: &'a SourceFile,
        block: Option<&'a str>,
        table: &'a Table,
        span: Span,
    ) -> Self {
        TableReader {
            source,
            block,
            path: Vec::new(),
            table,
            span,
            asked: RefCell::new(Vec::new()),
        }
    }

    /// The model file.
    pub fn source(&self) -> &'a SourceFile {
        self.source
    }

    /// This reader as the parameters a block's constructor reads.
    pub fn params(&self) -> Params<'_> {
        Params::new(self)
    }

    /// `error`, located in the model file: at the value of its key (else at the table that
    /// would hold it) for [`At::Value`], at the key's name for [`At::Key`], at the element for
    /// [`At::Item`], at the table for [`At::Table`]; the block named, the hint kept.
    pub fn locate(&self, error: ParamError) -> Diagnostic {
        let span = self.span_of(error.path(), error.at());
        let mut d = Diagnostic::at(self.source, &span, error.message());
        if let Some(b) = self.block {
            d = d.block(b);
        }
        if let Some(h) = error.hint_text() {
            d = d.hint(h);
        }
        d
    }

    /// The span of `at` of the parameter at `path` (a full path, starting with this reader's).
    fn span_of(&self, path: &[String], at: At) -> Span {
        match path.strip_prefix(self.path.as_slice()) {
            Some(rel) => span_in(self.table, &self.span, rel, at),
            None => self.span.clone(),
        }
    }

    fn keyed<T>(&self, r: Keyed<T>) -> ParamResult<T> {
        r.map_err(|e| self.locate(e))
    }

    /// A located error about `key` (at its value when present, else at the table).
    pub fn error(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        self.locate(self.params().error(key, message))
    }

    /// A located error about the table as a whole.
    pub fn table_error(&self, message: impl Into<String>) -> Diagnostic {
        self.locate(self.params().table_error(message))
    }

    /// The full dotted name of `key` for messages (`normal.stiffness`).
    pub fn name(&self, key: &str) -> String {
        self.params().name(key)
    }

    /// The raw value of `key`, marking it as known.
    pub fn value(&self, key: &'static str) -> Option<&'a Value> {
        self.asked.borrow_mut().push(key);
        self.table.get(key).map(|e| &e.value)
    }

    /// True when `key` is written.
    pub fn has(&self, key: &'static str) -> bool {
        self.value(key).is_some()
    }

    /// An optional finite number.
    pub fn f64(&self, key: &'static str) -> ParamResult<Option<f64>> {
        self.keyed(self.read_f64(key))
    }

    /// A number with a default.
    pub fn f64_or(&self, key: &'static str, default: f64) -> ParamResult<f64> {
        Ok(self.f64(key)?.unwrap_or(default))
    }

    /// A number that must be written.
    pub fn required_f64(&self, key: &'static str, unit_hint: &str) -> ParamResult<f64> {
        self.keyed(self.params().required_f64(key, unit_hint))
    }

    /// Checks `ok` for the value of `key`, else a located error with `message` and `hint`.
    pub fn ensure(&self, ok: bool, key: &str, message: &str, hint: &str) -> ParamResult<()> {
        self.keyed(self.params().ensure(ok, key, message, hint))
    }

    /// A number > 0 with a default.
    pub fn positive_or(&self, key: &'static str, default: f64, unit: &str) -> ParamResult<f64> {
        self.keyed(self.params().positive_or(key, default, unit))
    }

    /// A number ≥ 0 with a default.
    pub fn non_negative_or(&self, key: &'static str, default: f64, unit: &str) -> ParamResult<f64> {
        self.keyed(self.params().non_negative_or(key, default, unit))
    }

    /// An optional non-negative integer.
    pub fn usize(&self, key: &'static str) -> ParamResult<Option<usize>> {
        self.keyed(self.read_usize(key))
    }

    /// An optional boolean.
    pub fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        self.keyed(self.read_bool(key))
    }

    /// An optional string.
    pub fn string(&self, key: &'static str) -> ParamResult<Option<&'a str>> {
        self.keyed(self.read_string(key))
    }

    /// A string that must be one of the names of `choices`, as its value (`default` when the
    /// key is absent): an enum read by its names, with `choice`'s error and "did you mean".
    pub fn choice_value<T: Copy>(
        &self,
        key: &'static str,
        choices: &[(&'static str, T)],
        default: T,
    ) -> ParamResult<T> {
        self.keyed(self.params().choice_value(key, choices, default))
    }

    /// A string that must be one of `choices` (default `default`).
    pub fn choice(
        &self,
        key: &'static str,
        choices: &[&'static str],
        default: &'static str,
    ) -> ParamResult<&'static str> {
        self.keyed(self.params().choice(key, choices, default))
    }

    /// An optional array of numbers (a single number is read as a one-element array).
    pub fn vector(&self, key: &'static str) -> ParamResult<Option<Vec<f64>>> {
        self.keyed(self.read_vector(key))
    }

    /// An optional array of exactly `n` numbers.
    pub fn fixed_vector(&self, key: &'static str, n: usize) -> ParamResult<Option<Vec<f64>>> {
        self.keyed(self.params().fixed_vector(key, n))
    }

    /// An optional matrix written as an array of rows (all rows the same length), or a flat array
    /// (read as one row per element).
    pub fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        self.keyed(self.read_rows(key))
    }

    /// A nested table (`normal = { method = ... }`) as a reader of its own.
    pub fn table(&self, key: &'static str) -> ParamResult<Option<TableReader<'a>>> {
        self.keyed(self.read_table(key))
    }

    /// Rejects keys that were written but never asked for, suggesting the nearest known key.
    pub fn finish(&self) -> ParamResult<()> {
        self.keyed(self.read_finish())
    }
}

/// The checks of the values' forms, each a [`ParamError`] naming the key (the inherent methods
/// above locate it; the [`ParamSource`] implementation below hands it to the block).
impl<'a> TableReader<'a> {
    /// `'KEY' must be WHAT, not TYPE`, with an example.
    fn expect<T>(&self, key: &'static str, what: &str, got: &Value) -> Keyed<T> {
        Err(self
            .params()
            .error(
                key,
                format!(
                    "'{}' must be {what}, not {}",
                    self.name(key),
                    got.type_name()
                ),
            )
            .hint(format!(
                "write e.g. {} = {}",
                self.name(key),
                example_of(what)
            )))
    }

    /// `key` is a number that is not finite (`nan`, `inf`): at its value, with what to write
    /// (`brackets` "[…]" for a parameter read as an array, "" for a number).
    fn not_finite(&self, key: &'static str, x: f64, brackets: &str) -> ParamError {
        let name = self.name(key);
        let example = if brackets.is_empty() {
            "1.0".to_string()
        } else {
            "[1.0]".to_string()
        };
        self.params()
            .error(
                key,
                format!("'{name}' is {x}, a number that is not finite: it must be finite"),
            )
            .hint(format!(
                "write a finite number, e.g. {name} = {example} (TOML's nan and inf are numbers, but no parameter accepts them)"
            ))
    }

    fn read_f64(&self, key: &'static str) -> Keyed<Option<f64>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                Some(x) => Err(self.not_finite(key, x, "")),
                None => self.expect(key, "a number", v),
            },
        }
    }

    fn read_usize(&self, key: &'static str) -> Keyed<Option<usize>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.kind {
                ValueKind::Integer(i) if i >= 0 => Ok(Some(i as usize)),
                ValueKind::Float(x) if x >= 0.0 && x.fract() == 0.0 && x < 1e9 => {
                    Ok(Some(x as usize))
                }
                _ => self.expect(key, "a non-negative integer", v),
            },
        }
    }

    fn read_bool(&self, key: &'static str) -> Keyed<Option<bool>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value {
                kind: ValueKind::Bool(b),
                ..
            }) => Ok(Some(*b)),
            Some(v) => self.expect(key, "true or false", v),
        }
    }

    fn read_string(&self, key: &'static str) -> Keyed<Option<&'a str>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_str() {
                Some(s) => Ok(Some(s)),
                None => self.expect(key, "a string", v),
            },
        }
    }

    fn read_vector(&self, key: &'static str) -> Keyed<Option<Vec<f64>>> {
        let Some(v) = self.value(key) else {
            return Ok(None);
        };
        let ValueKind::Array(items) = &v.kind else {
            return match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(vec![x])),
                Some(x) => Err(self.not_finite(key, x, "[…]")),
                None => self.expect(key, "an array of numbers", v),
            };
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item.as_f64() {
                Some(x) if x.is_finite() => out.push(x),
                _ => {
                    return Err(self
                        .params()
                        .error(
                            key,
                            format!("'{}' must be an array of finite numbers", self.name(key)),
                        )
                        .hint(format!("write e.g. {} = [0.0, 1.0]", self.name(key))))
                }
            }
        }
        Ok(Some(out))
    }

    fn read_rows(&self, key: &'static str) -> Keyed<Option<Vec<Vec<f64>>>> {
        let Some(v) = self.value(key) else {
            return Ok(None);
        };
        let Some(items) = v.as_array() else {
            return self.expect(key, "an array of rows", v);
        };
        let p = self.params();
        if items.iter().all(|i| i.as_f64().is_some()) {
            // A flat array: one row per element.
            let values: Vec<f64> = items.iter().filter_map(Value::as_f64).collect();
            if values.iter().any(|x| !x.is_finite()) {
                return Err(p.error(
                    key,
                    format!("'{}' must hold finite numbers only", self.name(key)),
                ));
            }
            return Ok(Some(values.into_iter().map(|x| vec![x]).collect()));
        }
        let mut rows: Vec<Vec<f64>> = Vec::with_capacity(items.len());
        for (r, item) in items.iter().enumerate() {
            let Some(row) = item.as_array() else {
                return Err(p.error(
                    key,
                    format!("'{}' row {r} is not an array of numbers", self.name(key)),
                ));
            };
            let mut out = Vec::with_capacity(row.len());
            for x in row {
                match x.as_f64() {
                    Some(x) if x.is_finite() => out.push(x),
                    _ => {
                        return Err(p.error(
                            key,
                            format!("'{}' row {r} must hold finite numbers only", self.name(key)),
                        ))
                    }
                }
            }
            if let Some(first) = rows.first() {
                if first.len() != out.len() {
                    return Err(p.error(
                        key,
                        format!(
                            "'{}' rows have different lengths ({} and {})",
                            self.name(key),
                            first.len(),
                            out.len()
                        ),
                    ));
                }
            }
            rows.push(out);
        }
        Ok(Some(rows))
    }

    fn read_table(&self, key: &'static str) -> Keyed<Option<TableReader<'a>>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match &v.kind {
                ValueKind::Table(t) => {
                    let mut path = self.path.clone();
                    path.push(key.to_string());
                    Ok(Some(TableReader {
                        source: self.source,
                        block: self.block,
                        path,
                        table: t,
                        span: v.span.clone(),
                        asked: RefCell::new(Vec::new()),
                    }))
                }
                _ => self.expect(key, "a table", v),
            },
        }
    }

    fn read_finish(&self) -> Keyed<()> {
        let asked = self.asked.borrow();
        let Some(entry) = self
            .table
            .entries
            .iter()
            .find(|e| !asked.contains(&e.key.as_str()))
        else {
            return Ok(());
        };
        let mut path = self.path.clone();
        path.push(entry.key.clone());
        let top = self.path.is_empty();
        let unknown = format!("unknown parameter '{}'", self.name(&entry.key));
        if entry.key == "connect" && top {
            // TOML puts every key after a [table] header into that table: a `connect` list
            // written below the blocks lands in the last block (or in a section).
            return Err(match self.block {
                None => ParamError::new(path, At::Key, unknown)
                    .hint("TOML puts every key written after a [table] header into that table: move `connect = [...]` to the top of the file, above the first [table] header"),
                Some(b) => ParamError::new(
                    path,
                    At::Key,
                    format!("'connect' is inside [blocks.{b}]: TOML puts every key written after a [table] header into that table"),
                )
                .hint("move `connect = [...]` to the top of the file, above the first [table] header"),
            });
        }
        let e = ParamError::new(path, At::Key, unknown);
        let known: Vec<&str> = asked.iter().copied().collect();
        Err(match closest(&entry.key, known.iter().copied()) {
            Some(near) => e.hint(format!("did you mean '{}'?", self.name(near))),
            None if known.is_empty() => e.hint("this takes no parameters here: remove the line"),
            None => {
                let mut k = known.clone();
                k.sort_unstable();
                k.dedup();
                e.hint(format!("known parameters here: {}", k.join(", ")))
            }
        })
    }
}

/// The model's table as the parameters of a block ([`crate::params`]): the same readers, their
/// errors naming the key path and left for [`TableReader::locate`] to place.
impl ParamSource for TableReader<'_> {
    fn path(&self) -> &[String] {
        &self.path
    }
    fn is_written(&self, key: &'static str) -> bool {
        self.has(key)
    }
    fn value(&self, key: &'static str) -> Option<ParamValue> {
        TableReader::value(self, key).map(param_value)
    }
    fn f64(&self, key: &'static str) -> Keyed<Option<f64>> {
        self.read_f64(key)
    }
    fn usize(&self, key: &'static str) -> Keyed<Option<usize>> {
        self.read_usize(key)
    }
    fn bool(&self, key: &'static str) -> Keyed<Option<bool>> {
        self.read_bool(key)
    }
    fn string(&self, key: &'static str) -> Keyed<Option<&str>> {
        self.read_string(key)
    }
    fn vector(&self, key: &'static str) -> Keyed<Option<Vec<f64>>> {
        self.read_vector(key)
    }
    fn rows(&self, key: &'static str) -> Keyed<Option<Vec<Vec<f64>>>> {
        self.read_rows(key)
    }
    fn table(&self, key: &'static str) -> Keyed<Option<Box<dyn ParamSource + '_>>> {
        Ok(self
            .read_table(key)?
            .map(|t| Box::new(t) as Box<dyn ParamSource + '_>))
    }
    fn finish(&self) -> Keyed<()> {
        self.read_finish()
    }
}

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

/// A TOML value as a [`ParamValue`].
fn param_value(v: &Value) -> ParamValue {
    match &v.kind {
        ValueKind::Float(x) => ParamValue::Float(*x),
        ValueKind::Integer(i) => ParamValue::Integer(*i),
        ValueKind::Bool(b) => ParamValue::Bool(*b),
        ValueKind::String(s) => ParamValue::String(s.clone()),
        ValueKind::Array(items) => ParamValue::Array(items.iter().map(param_value).collect()),
        ValueKind::Table(t) => ParamValue::Table(
            t.entries
                .iter()
                .map(|e| (e.key.clone(), param_value(&e.value)))
                .collect(),
        ),
    }
}

fn example_of(what: &str) -> &'static str {
    match what {
        "a number" => "1.0",
        "a string" => "\"text\"",
        "true or false" => "true",
        "a non-negative integer" => "2",
        "a table" => "{ method = \"...\" }",
        _ => "[1.0, 2.0]",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Document;

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
