//! The reader's checks of the values' forms (a finite number, a non-negative integer, an array
//! of rows, …) as [`ParamError`]s, and [`ParamSource`] for the model's table.

use super::{Keyed, TableReader};
use crate::model::diagnostic::closest;
use crate::model::value::{Value, ValueKind};
use crate::params::{example_of, At, ParamError, ParamSource, ParamValue};
use std::cell::RefCell;

/// The checks of the values' forms, each a [`ParamError`] naming the key ([`TableReader`]'s inherent
/// methods locate it; the [`ParamSource`] implementation below hands it to the block).
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

    pub(super) fn read_string(&self, key: &'static str) -> Keyed<Option<&'a str>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_str() {
                Some(s) => Ok(Some(s)),
                None => self.expect(key, "a string", v),
            },
        }
    }

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
        TableReader::value(self, key).map(ParamValue::from)
    }
    fn f64(&self, key: &'static str) -> Keyed<Option<f64>> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                Some(x) => Err(self.not_finite(key, x, "")),
                None => self.expect(key, "a number", v),
            },
        }
    }
    fn usize(&self, key: &'static str) -> Keyed<Option<usize>> {
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
    fn bool(&self, key: &'static str) -> Keyed<Option<bool>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value {
                kind: ValueKind::Bool(b),
                ..
            }) => Ok(Some(*b)),
            Some(v) => self.expect(key, "true or false", v),
        }
    }
    fn string(&self, key: &'static str) -> Keyed<Option<&str>> {
        self.read_string(key)
    }
    fn vector(&self, key: &'static str) -> Keyed<Option<Vec<f64>>> {
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
    fn rows(&self, key: &'static str) -> Keyed<Option<Vec<Vec<f64>>>> {
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
    fn table(&self, key: &'static str) -> Keyed<Option<Box<dyn ParamSource + '_>>> {
        Ok(self
            .read_table(key)?
            .map(|t| Box::new(t) as Box<dyn ParamSource + '_>))
    }
    fn finish(&self) -> Keyed<()> {
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
