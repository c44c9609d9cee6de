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

use super::forms::{self, WrittenValue};
use super::{ParamResult, ParamSource, ParamValue, Params};
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

    /// Sets the value at the path `keys` below the block (`["normal", "stiffness"]`), making
    /// the tables on the way that are not set, as `--set` sets a block's table in a model.
    pub(crate) fn set_path(&mut self, keys: &[&str], value: ParamValue) -> Result<(), PathRefused> {
        set_in(&mut self.entries, keys, value)
    }

    /// The map as the parameters of a block, for its type's constructor.
    pub fn reader(&self) -> MapReader<'_> {
        MapReader::new(Vec::new(), &self.entries)
    }
}

/// Why [`ParamMap::set_path`] did not set a value (the model's `--set` refuses the same).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum PathRefused {
    /// No key was given.
    #[error("empty path")]
    Empty,
    /// The key holds a table and the value is not one.
    #[error("'{0}' is a table; set one of its keys")]
    TableReplaced(String),
    /// The path goes below a key whose value is not a table.
    #[error("'{0}' is not a table")]
    NotATable(String),
}

/// [`ParamMap::set_path`] in the table `entries`.
fn set_in(
    entries: &mut Vec<(String, ParamValue)>,
    keys: &[&str],
    value: ParamValue,
) -> Result<(), PathRefused> {
    let (first, rest) = keys.split_first().ok_or(PathRefused::Empty)?;
    let at = match entries.iter().position(|(k, _)| k == first) {
        Some(at) => at,
        None if rest.is_empty() => {
            entries.push((first.to_string(), value));
            return Ok(());
        }
        None => {
            entries.push((first.to_string(), ParamValue::Table(Vec::new())));
            entries.len() - 1
        }
    };
    match (&mut entries[at].1, rest.is_empty()) {
        (ParamValue::Table(_), true) if !matches!(value, ParamValue::Table(_)) => {
            Err(PathRefused::TableReplaced(first.to_string()))
        }
        (slot, true) => {
            *slot = value;
            Ok(())
        }
        (ParamValue::Table(inner), false) => set_in(inner, rest, value),
        (_, false) => Err(PathRefused::NotATable(first.to_string())),
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

    /// This reader as [`Params`], for the checks of forms.
    fn params(&self) -> Params<'_> {
        Params::new(self)
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
        (self.get(key))
            .map(|v| forms::number(&self.params(), key, v))
            .transpose()
    }
    fn usize(&self, key: &'static str) -> ParamResult<Option<usize>> {
        (self.get(key))
            .map(|v| forms::count(&self.params(), key, v))
            .transpose()
    }
    fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        (self.get(key))
            .map(|v| forms::boolean(&self.params(), key, v))
            .transpose()
    }
    fn string(&self, key: &'static str) -> ParamResult<Option<&str>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::String(s)) => Ok(Some(s)),
            Some(v) => forms::expected(&self.params(), key, "a string", v),
        }
    }
    fn vector(&self, key: &'static str) -> ParamResult<Option<Vec<f64>>> {
        (self.get(key))
            .map(|v| forms::vector(&self.params(), key, v))
            .transpose()
    }
    fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        (self.get(key))
            .map(|v| forms::rows(&self.params(), key, v))
            .transpose()
    }
    fn table(&self, key: &'static str) -> ParamResult<Option<Box<dyn ParamSource + '_>>> {
        match self.get(key) {
            None => Ok(None),
            Some(ParamValue::Table(entries)) => {
                let mut path = self.path.clone();
                path.push(key.to_string());
                Ok(Some(Box::new(MapReader::new(path, entries))))
            }
            Some(v) => forms::expected(&self.params(), key, "a table", v),
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
        Err(self.params().unknown_key(key, &asked))
    }
}

impl WrittenValue for ParamValue {
    fn number(&self) -> Option<f64> {
        self.as_f64()
    }
    fn integer(&self) -> Option<i64> {
        match self {
            ParamValue::Integer(i) => Some(*i),
            _ => None,
        }
    }
    fn float(&self) -> Option<f64> {
        match self {
            ParamValue::Float(x) => Some(*x),
            _ => None,
        }
    }
    fn boolean(&self) -> Option<bool> {
        match self {
            ParamValue::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn items(&self) -> Option<&[ParamValue]> {
        self.as_array()
    }
    fn kind_name(&self) -> &'static str {
        match self {
            ParamValue::Float(_) | ParamValue::Integer(_) => "a number",
            ParamValue::Bool(_) => "a boolean",
            ParamValue::String(_) => "a string",
            ParamValue::Array(_) => "an array",
            ParamValue::Table(_) => "a table",
        }
    }
}
