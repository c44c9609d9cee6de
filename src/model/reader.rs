//! Typed, located reading of a TOML table: the one way blocks and sections read their parameters.
//!
//! Every key a reader is asked for (present or not) becomes a known key; [`TableReader::finish`]
//! then rejects keys that were written but never asked for, with a "did you mean".

use super::diagnostic::{closest, Diagnostic};
use super::source::{SourceFile, Span};
use super::value::{Table, Value, ValueKind};
use std::cell::RefCell;

/// Reads the parameters of one block (or one section such as `[solver]`).
pub struct TableReader<'a> {
    source: &'a SourceFile,
    /// Block name for messages (`None` for a section).
    block: Option<&'a str>,
    /// Dotted prefix of this table inside the block, e.g. `"normal."`, for messages.
    prefix: String,
    table: &'a Table,
    span: Span,
    asked: RefCell<Vec<&'static str>>,
}

/// Result of reading a parameter.
pub type ParamResult<T> = Result<T, Diagnostic>;

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
            prefix: String::new(),
            table,
            span,
            asked: RefCell::new(Vec::new()),
        }
    }

    /// The model file.
    pub fn source(&self) -> &'a SourceFile {
        self.source
    }

    /// A located error about `key` (at its value when present, else at the table).
    pub fn error(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        let span = self.table.get(key).map_or(&self.span, |e| &e.value.span);
        let mut d = Diagnostic::at(self.source, span, message);
        if let Some(b) = self.block {
            d = d.block(b);
        }
        d
    }

    /// A located error about the table as a whole.
    pub fn table_error(&self, message: impl Into<String>) -> Diagnostic {
        let mut d = Diagnostic::at(self.source, &self.span, message);
        if let Some(b) = self.block {
            d = d.block(b);
        }
        d
    }

    /// The full dotted name of `key` for messages (`normal.stiffness`).
    pub fn name(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
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

    fn expect<T>(&self, key: &'static str, what: &str, got: &Value) -> ParamResult<T> {
        Err(self
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

    /// An optional finite number.
    pub fn f64(&self, key: &'static str) -> ParamResult<Option<f64>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                Some(x) => Err(self.not_finite(key, x, "")),
                None => self.expect(key, "a number", v),
            },
        }
    }

    /// A number with a default.
    pub fn f64_or(&self, key: &'static str, default: f64) -> ParamResult<f64> {
        Ok(self.f64(key)?.unwrap_or(default))
    }

    /// A number that must be written.
    pub fn required_f64(&self, key: &'static str, unit_hint: &str) -> ParamResult<f64> {
        self.f64(key)?.ok_or_else(|| {
            self.table_error(format!("missing parameter '{}'", self.name(key)))
                .hint(format!("add {} = <number> ({unit_hint})", self.name(key)))
        })
    }

    /// `key` is a number that is not finite (`nan`, `inf`): located at its value, with what to
    /// write (`brackets` "[…]" for a parameter read as an array, "" for a number).
    fn not_finite(&self, key: &str, x: f64, brackets: &str) -> Diagnostic {
        let name = self.name(key);
        let example = if brackets.is_empty() {
            "1.0".to_string()
        } else {
            "[1.0]".to_string()
        };
        self.error(
            key,
            format!("'{name}' is {x}, a number that is not finite: it must be finite"),
        )
        .hint(format!(
            "write a finite number, e.g. {name} = {example} (TOML's nan and inf are numbers, but no parameter accepts them)"
        ))
    }

    /// Checks `ok` for the value of `key`, else a located error with `message` and `hint`.
    pub fn ensure(&self, ok: bool, key: &str, message: &str, hint: &str) -> ParamResult<()> {
        if ok {
            Ok(())
        } else {
            Err(self
                .error(key, format!("'{}' {message}", self.name(key)))
                .hint(hint))
        }
    }

    /// A number > 0 with a default.
    pub fn positive_or(&self, key: &'static str, default: f64, unit: &str) -> ParamResult<f64> {
        let x = self.f64_or(key, default)?;
        self.ensure(
            x > 0.0,
            key,
            &format!("must be positive (got {x})"),
            &format!("write a positive value in {unit}"),
        )?;
        Ok(x)
    }

    /// A number ≥ 0 with a default.
    pub fn non_negative_or(&self, key: &'static str, default: f64, unit: &str) -> ParamResult<f64> {
        let x = self.f64_or(key, default)?;
        self.ensure(
            x >= 0.0,
            key,
            &format!("must not be negative (got {x})"),
            &format!("write zero or a positive value in {unit}"),
        )?;
        Ok(x)
    }

    /// An optional non-negative integer.
    pub fn usize(&self, key: &'static str) -> ParamResult<Option<usize>> {
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

    /// An optional boolean.
    pub fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value {
                kind: ValueKind::Bool(b),
                ..
            }) => Ok(Some(*b)),
            Some(v) => self.expect(key, "true or false", v),
        }
    }

    /// An optional string.
    pub fn string(&self, key: &'static str) -> ParamResult<Option<&'a str>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_str() {
                Some(s) => Ok(Some(s)),
                None => self.expect(key, "a string", v),
            },
        }
    }

    /// A string that must be one of the names of `choices`, as its value (`default` when the
    /// key is absent): an enum read by its names, with `choice`'s error and "did you mean".
    pub fn choice_value<T: Copy>(
        &self,
        key: &'static str,
        choices: &[(&'static str, T)],
        default: T,
    ) -> ParamResult<T> {
        if self.string(key)?.is_none() {
            return Ok(default);
        }
        let names: Vec<&'static str> = choices.iter().map(|(name, _)| *name).collect();
        let name = self.choice(key, &names, "")?;
        Ok(choices
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(default, |(_, value)| *value))
    }

    /// A string that must be one of `choices` (default `default`).
    pub fn choice(
        &self,
        key: &'static str,
        choices: &[&'static str],
        default: &'static str,
    ) -> ParamResult<&'a str> {
        let Some(s) = self.string(key)? else {
            return Ok(default);
        };
        if let Some(c) = choices.iter().find(|c| **c == s) {
            return Ok(c);
        }
        let mut hint = format!(
            "write one of: {}",
            choices
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if let Some(near) = closest(s, choices.iter().copied()) {
            hint = format!("did you mean \"{near}\"? ({hint})");
        }
        Err(self
            .error(key, format!("'{}' cannot be \"{s}\"", self.name(key)))
            .hint(hint))
    }

    /// An optional array of numbers (a single number is read as a one-element array).
    pub fn vector(&self, key: &'static str) -> ParamResult<Option<Vec<f64>>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match &v.kind {
                ValueKind::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for item in items {
                        match item.as_f64() {
                            Some(x) if x.is_finite() => out.push(x),
                            _ => {
                                return Err(self
                                    .error(
                                        key,
                                        format!(
                                            "'{}' must be an array of finite numbers",
                                            self.name(key)
                                        ),
                                    )
                                    .hint(format!("write e.g. {} = [0.0, 1.0]", self.name(key))))
                            }
                        }
                    }
                    Ok(Some(out))
                }
                _ => match v.as_f64() {
                    Some(x) if x.is_finite() => Ok(Some(vec![x])),
                    Some(x) => Err(self.not_finite(key, x, "[…]")),
                    None => self.expect(key, "an array of numbers", v),
                },
            },
        }
    }

    /// An optional array of exactly `n` numbers.
    pub fn fixed_vector(&self, key: &'static str, n: usize) -> ParamResult<Option<Vec<f64>>> {
        match self.vector(key)? {
            Some(v) if v.len() != n => Err(self
                .error(
                    key,
                    format!(
                        "'{}' must have {n} elements, not {}",
                        self.name(key),
                        v.len()
                    ),
                )
                .hint(format!(
                    "write {} = [{}]",
                    self.name(key),
                    vec!["0.0"; n].join(", ")
                ))),
            other => Ok(other),
        }
    }

    /// An optional matrix written as an array of rows (all rows the same length), or a flat array
    /// (read as one row per element when `flat_as_column`, else as a single row).
    pub fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        let Some(v) = self.value(key) else {
            return Ok(None);
        };
        let Some(items) = v.as_array() else {
            return self.expect(key, "an array of rows", v);
        };
        if items.iter().all(|i| i.as_f64().is_some()) {
            // A flat array: one row per element.
            let values: Vec<f64> = items.iter().filter_map(Value::as_f64).collect();
            if values.iter().any(|x| !x.is_finite()) {
                return Err(self.error(
                    key,
                    format!("'{}' must hold finite numbers only", self.name(key)),
                ));
            }
            return Ok(Some(values.into_iter().map(|x| vec![x]).collect()));
        }
        let mut rows = Vec::with_capacity(items.len());
        for (r, item) in items.iter().enumerate() {
            let Some(row) = item.as_array() else {
                return Err(self.error(
                    key,
                    format!("'{}' row {r} is not an array of numbers", self.name(key)),
                ));
            };
            let mut out = Vec::with_capacity(row.len());
            for x in row {
                match x.as_f64() {
                    Some(x) if x.is_finite() => out.push(x),
                    _ => {
                        return Err(self.error(
                            key,
                            format!("'{}' row {r} must hold finite numbers only", self.name(key)),
                        ))
                    }
                }
            }
            if let Some(first) = rows.first() {
                let first: &Vec<f64> = first;
                if first.len() != out.len() {
                    return Err(self.error(
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

    /// A nested table (`normal = { method = ... }`) as a reader of its own.
    pub fn table(&self, key: &'static str) -> ParamResult<Option<TableReader<'a>>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match &v.kind {
                ValueKind::Table(t) => Ok(Some(TableReader {
                    source: self.source,
                    block: self.block,
                    prefix: format!("{}{key}.", self.prefix),
                    table: t,
                    span: v.span.clone(),
                    asked: RefCell::new(Vec::new()),
                })),
                _ => self.expect(key, "a table", v),
            },
        }
    }

    /// Rejects keys that were written but never asked for, suggesting the nearest known key.
    pub fn finish(&self) -> ParamResult<()> {
        let asked = self.asked.borrow();
        for entry in &self.table.entries {
            if !asked.contains(&entry.key.as_str()) {
                let mut d = Diagnostic::at(
                    self.source,
                    &entry.key_span,
                    format!("unknown parameter '{}'", self.name(&entry.key)),
                );
                if entry.key == "connect" && self.prefix.is_empty() && self.block.is_none() {
                    // The same slip below a section header ([model], [solver], [output]).
                    return Err(d
                        .hint("TOML puts every key written after a [table] header into that table: move `connect = [...]` to the top of the file, above the first [table] header"));
                }
                if let Some(b) = self.block {
                    d = d.block(b);
                    if entry.key == "connect" && self.prefix.is_empty() {
                        // TOML puts every key after a [table] header into that table: a
                        // `connect` list written below the blocks lands in the last block.
                        return Err(Diagnostic::at(
                            self.source,
                            &entry.key_span,
                            format!("'connect' is inside [blocks.{b}]: TOML puts every key written after a [table] header into that table"),
                        )
                        .block(b)
                        .hint("move `connect = [...]` to the top of the file, above the first [table] header"));
                    }
                }
                let known: Vec<&str> = asked.iter().copied().collect();
                d = match closest(&entry.key, known.iter().copied()) {
                    Some(near) => d.hint(format!("did you mean '{}'?", self.name(near))),
                    None if known.is_empty() => {
                        d.hint("this takes no parameters here: remove the line")
                    }
                    None => {
                        let mut k = known.clone();
                        k.sort_unstable();
                        k.dedup();
                        d.hint(format!("known parameters here: {}", k.join(", ")))
                    }
                };
                return Err(d);
            }
        }
        Ok(())
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
