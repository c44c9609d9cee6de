//! [`ParamMap`]: a block's parameters held as typed values (what the builder fills), and
//! [`MapReader`], the [`ParamSource`] a block type's constructor reads them through, with no
//! model tree or text on the way. Its checks of the values' forms say what the model reader's
//! say for the same values (`'gain' must be a number, not a string`, an unknown key with the
//! nearest known one), without a place in a file.
//!
//! ```
//! use blockdyn::params::{ParamMap, ParamSource, Params};
//!
//! let mut map = ParamMap::default();
//! map.set("normal", blockdyn::params::table([("stiffness", 1e5.into())]));
//! let reader = map.reader();
//! let p = Params::new(&reader);
//! let normal = p.table("normal")?.expect("written");
//! assert_eq!(normal.f64_or("stiffness", 0.0)?, 1e5);
//! normal.finish()?;
//! reader.finish()?;
//! # Ok::<(), blockdyn::params::ParamError>(())
//! ```

use super::{closest, At, ParamError, ParamResult, ParamSource, ParamValue, Params};
use std::cell::RefCell;

/// One block's parameters as key → [`ParamValue`], in the order first set (setting a key again
/// replaces its value in place, as a model file's last value holds).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamMap {
    entries: Vec<(String, ParamValue)>,
}

impl ParamMap {
    /// Sets `key` to `value`: replaces the value where the key is, or appends it.
    pub fn set(&mut self, key: &str, value: ParamValue) {
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.entries.push((key.to_string(), value)),
        }
    }

    /// The value of `key`, when set.
    pub fn get(&self, key: &str) -> Option<&ParamValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The entries, in the order first set.
    pub fn entries(&self) -> &[(String, ParamValue)] {
        &self.entries
    }

    /// The map as the parameters of a block, for its type's constructor.
    pub fn reader(&self) -> MapReader<'_> {
        MapReader::new(Vec::new(), &self.entries)
    }
}

/// A [`ParamMap`] (or one nested table of it) as a [`ParamSource`]: every key asked for becomes
/// known, and [`ParamSource::finish`] refuses a key set but never asked for.
pub struct MapReader<'a> {
    path: Vec<String>,
    entries: &'a [(String, ParamValue)],
    asked: RefCell<Vec<&'static str>>,
}

impl<'a> MapReader<'a> {
    fn new(path: Vec<String>, entries: &'a [(String, ParamValue)]) -> Self {
        MapReader {
            path,
            entries,
            asked: RefCell::new(Vec::new()),
        }
    }

    /// The value of `key` (the last one set), marking the key known.
    fn get(&self, key: &'static str) -> Option<&'a ParamValue> {
        self.asked.borrow_mut().push(key);
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// `'KEY' must be WHAT, not TYPE`, with an example (the model reader's message).
    fn expect<T>(&self, key: &'static str, what: &str, got: &ParamValue) -> ParamResult<T> {
        let p = Params::new(self);
        let name = p.name(key);
        Err(p
            .error(
                key,
                format!("'{name}' must be {what}, not {}", type_name(got)),
            )
            .hint(format!("write e.g. {name} = {}", example_of(what))))
    }

    /// `key` holds a number that is not finite.
    fn not_finite(&self, key: &'static str, x: f64, array: bool) -> ParamError {
        let p = Params::new(self);
        let name = p.name(key);
        let example = if array { "[1.0]" } else { "1.0" };
        p.error(
            key,
            format!("'{name}' is {x}, a number that is not finite: it must be finite"),
        )
        .hint(format!(
            "write a finite number, e.g. {name} = {example} (TOML's nan and inf are numbers, but no parameter accepts them)"
        ))
    }

    /// A row's or an element's problem with `key`, at the value.
    fn error(&self, key: &'static str, message: String) -> ParamError {
        Params::new(self).error(key, message)
    }
}

impl ParamSource for MapReader<'_> {
    fn path(&self) -> &[String] {
        &self.path
    }
    fn is_written(&self, key: &'static str) -> bool {
        self.get(key).is_some()
    }
    fn value(&self, key: &'static str) -> Option<ParamValue> {
        self.get(key).cloned()
    }
    fn f64(&self, key: &'static str) -> ParamResult<Option<f64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                Some(x) => Err(self.not_finite(key, x, false)),
                None => self.expect(key, "a number", v),
            },
        }
    }
    fn usize(&self, key: &'static str) -> ParamResult<Option<usize>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::Integer(i)) if *i >= 0 => Ok(Some(*i as usize)),
            Some(ParamValue::Float(x)) if *x >= 0.0 && x.fract() == 0.0 && *x < 1e9 => {
                Ok(Some(*x as usize))
            }
            Some(v) => self.expect(key, "a non-negative integer", v),
        }
    }
    fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::Bool(b)) => Ok(Some(*b)),
            Some(v) => self.expect(key, "true or false", v),
        }
    }
    fn string(&self, key: &'static str) -> ParamResult<Option<&str>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::String(s)) => Ok(Some(s)),
            Some(v) => self.expect(key, "a string", v),
        }
    }
    fn vector(&self, key: &'static str) -> ParamResult<Option<Vec<f64>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let Some(items) = v.as_array() else {
            return match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(vec![x])),
                Some(x) => Err(self.not_finite(key, x, true)),
                None => self.expect(key, "an array of numbers", v),
            };
        };
        let name = Params::new(self).name(key);
        items
            .iter()
            .map(|item| match item.as_f64() {
                Some(x) if x.is_finite() => Ok(x),
                _ => Err(self
                    .error(key, format!("'{name}' must be an array of finite numbers"))
                    .hint(format!("write e.g. {name} = [0.0, 1.0]"))),
            })
            .collect::<ParamResult<Vec<f64>>>()
            .map(Some)
    }
    fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let Some(items) = v.as_array() else {
            return self.expect(key, "an array of rows", v);
        };
        let name = Params::new(self).name(key);
        if items.iter().all(|i| i.as_f64().is_some()) {
            // A flat array: one row per element.
            let values: Vec<f64> = items.iter().filter_map(ParamValue::as_f64).collect();
            if values.iter().any(|x| !x.is_finite()) {
                return Err(self.error(key, format!("'{name}' must hold finite numbers only")));
            }
            return Ok(Some(values.into_iter().map(|x| vec![x]).collect()));
        }
        let mut rows: Vec<Vec<f64>> = Vec::with_capacity(items.len());
        for (r, item) in items.iter().enumerate() {
            let Some(row) = item.as_array() else {
                return Err(self.error(key, format!("'{name}' row {r} is not an array of numbers")));
            };
            let mut out = Vec::with_capacity(row.len());
            for x in row {
                match x.as_f64() {
                    Some(x) if x.is_finite() => out.push(x),
                    _ => {
                        return Err(self.error(
                            key,
                            format!("'{name}' row {r} must hold finite numbers only"),
                        ))
                    }
                }
            }
            if let Some(first) = rows.first() {
                if first.len() != out.len() {
                    return Err(self.error(
                        key,
                        format!(
                            "'{name}' rows have different lengths ({} and {})",
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
    fn table(&self, key: &'static str) -> ParamResult<Option<Box<dyn ParamSource + '_>>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::Table(entries)) => {
                let mut path = self.path.clone();
                path.push(key.to_string());
                Ok(Some(Box::new(MapReader::new(path, entries))))
            }
            Some(v) => self.expect(key, "a table", v),
        }
    }
    fn finish(&self) -> ParamResult<()> {
        let asked = self.asked.borrow();
        let Some((key, _)) = self
            .entries
            .iter()
            .find(|(k, _)| !asked.contains(&k.as_str()))
        else {
            return Ok(());
        };
        let p = Params::new(self);
        let mut path = self.path.clone();
        path.push(key.clone());
        let e = ParamError::new(
            path,
            At::Key,
            format!("unknown parameter '{}'", p.name(key)),
        );
        let mut known: Vec<&str> = asked.to_vec();
        Err(match closest(key, known.iter().copied()) {
            Some(near) => e.hint(format!("did you mean '{}'?", p.name(near))),
            None if known.is_empty() => e.hint("this takes no parameters here: remove the line"),
            None => {
                known.sort_unstable();
                known.dedup();
                e.hint(format!("known parameters here: {}", known.join(", ")))
            }
        })
    }
}

/// The kind of a value as messages name it (the TOML kinds: an integer is a number).
fn type_name(v: &ParamValue) -> &'static str {
    match v {
        ParamValue::Float(_) | ParamValue::Integer(_) => "a number",
        ParamValue::Bool(_) => "a boolean",
        ParamValue::String(_) => "a string",
        ParamValue::Array(_) => "an array",
        ParamValue::Table(_) => "a table",
    }
}

/// What to write for a value of the kind `what`, in the model reader's hints (the model's
/// reader and this map's say the same).
pub(crate) fn example_of(what: &str) -> &'static str {
    match what {
        "a number" => "1.0",
        "a string" => "\"text\"",
        "true or false" => "true",
        "a non-negative integer" => "2",
        "a table" => "{ method = \"...\" }",
        _ => "[1.0, 2.0]",
    }
}
