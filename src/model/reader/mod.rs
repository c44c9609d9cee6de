//! Typed, located reading of a TOML table: the one way blocks and sections read their parameters.
//!
//! Every key a reader is asked for (present or not) becomes a known key; [`TableReader::finish`]
//! then rejects keys that were written but never asked for, with a "did you mean".
//!
//! A block's constructor reads the table through [`ParamSource`] (which this reader implements)
//! and reports a [`ParamError`] naming a key path; [`TableReader::locate`] turns it into the
//! located [`Diagnostic`] (at the key's value, else at the table). The model's own sections
//! (`[solver]`, `[output]`) use the inherent methods, which return the located error directly.

use super::diagnostic::Diagnostic;
use super::source::{SourceFile, Span};
use super::value::{Table, Value, ValueKind};
use crate::params::forms::expected;
use crate::params::{At, ParamError, ParamSource, Params};
use std::cell::RefCell;

mod forms;
mod place;

pub(crate) use place::span_in;

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
        span: impl Into<Span>,
    ) -> Self {
        TableReader {
            source,
            block,
            path: Vec::new(),
            table,
            span: span.into(),
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

    /// `'KEY' must be WHAT, not TYPE`, with an example.
    fn expect<T>(&self, key: &'static str, what: &str, got: &Value) -> Keyed<T> {
        expected(&self.params(), key, what, got)
    }

    /// The string at `key`, unlocated.
    pub(super) fn read_string(&self, key: &'static str) -> Keyed<Option<&'a str>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_str() {
                Some(s) => Ok(Some(s)),
                None => self.expect(key, "a string", v),
            },
        }
    }

    /// The nested table at `key` as a reader of its own, unlocated.
    pub(super) fn read_table(&self, key: &'static str) -> Keyed<Option<TableReader<'a>>> {
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
        self.keyed(ParamSource::f64(self, key))
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
        self.keyed(ParamSource::usize(self, key))
    }

    /// An optional boolean.
    pub fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        self.keyed(ParamSource::bool(self, key))
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
        self.keyed(ParamSource::vector(self, key))
    }

    /// An optional array of exactly `n` numbers.
    pub fn fixed_vector(&self, key: &'static str, n: usize) -> ParamResult<Option<Vec<f64>>> {
        self.keyed(self.params().fixed_vector(key, n))
    }

    /// An optional matrix written as an array of rows (all rows the same length), or a flat array
    /// (read as one row per element).
    pub fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        self.keyed(ParamSource::rows(self, key))
    }

    /// A nested table (`normal = { method = ... }`) as a reader of its own.
    pub fn table(&self, key: &'static str) -> ParamResult<Option<TableReader<'a>>> {
        self.keyed(self.read_table(key))
    }

    /// Rejects keys that were written but never asked for, suggesting the nearest known key.
    pub fn finish(&self) -> ParamResult<()> {
        self.keyed(ParamSource::finish(self))
    }
}
