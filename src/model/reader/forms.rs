//! [`ParamSource`] for the model's table: the model's values read through the checks of their
//! forms (a finite number, a non-negative integer, an array of rows, …) that typed values share
//! (`crate::params::forms`), their errors [`ParamError`]s naming the key.

use super::{Keyed, TableReader};
use crate::model::value::{Value, ValueKind};
use crate::params::forms::{self, WrittenValue};
use crate::params::{At, ParamError, ParamSource, ParamValue};

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
        (self.value(key))
            .map(|v| forms::number(&self.params(), key, v))
            .transpose()
    }
    fn usize(&self, key: &'static str) -> Keyed<Option<usize>> {
        (self.value(key))
            .map(|v| forms::count(&self.params(), key, v))
            .transpose()
    }
    fn bool(&self, key: &'static str) -> Keyed<Option<bool>> {
        (self.value(key))
            .map(|v| forms::boolean(&self.params(), key, v))
            .transpose()
    }
    fn string(&self, key: &'static str) -> Keyed<Option<&str>> {
        self.read_string(key)
    }
    fn vector(&self, key: &'static str) -> Keyed<Option<Vec<f64>>> {
        (self.value(key))
            .map(|v| forms::vector(&self.params(), key, v))
            .transpose()
    }
    fn rows(&self, key: &'static str) -> Keyed<Option<Vec<Vec<f64>>>> {
        (self.value(key))
            .map(|v| forms::rows(&self.params(), key, v))
            .transpose()
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
        let unknown = self.params().unknown_key(&entry.key, &asked);
        if entry.key == "connect" && self.path.is_empty() {
            // TOML puts every key after a [table] header into that table: a `connect` list
            // written below the blocks lands in the last block (or in a section).
            return Err(match self.block {
                None => unknown.hint("TOML puts every key written after a [table] header into that table: move `connect = [...]` to the top of the file, above the first [table] header"),
                Some(b) => ParamError::new(
                    unknown.path().to_vec(),
                    At::Key,
                    format!("'connect' is inside [blocks.{b}]: TOML puts every key written after a [table] header into that table"),
                )
                .hint("move `connect = [...]` to the top of the file, above the first [table] header"),
            });
        }
        Err(unknown)
    }
}

/// The model's values as the checks of forms read them (the same checks as for typed values).
impl WrittenValue for Value {
    fn number(&self) -> Option<f64> {
        self.as_f64()
    }
    fn integer(&self) -> Option<i64> {
        match self.kind {
            ValueKind::Integer(i) => Some(i),
            _ => None,
        }
    }
    fn float(&self) -> Option<f64> {
        match self.kind {
            ValueKind::Float(x) => Some(x),
            _ => None,
        }
    }
    fn boolean(&self) -> Option<bool> {
        match self.kind {
            ValueKind::Bool(b) => Some(b),
            _ => None,
        }
    }
    fn items(&self) -> Option<&[Value]> {
        self.as_array()
    }
    fn kind_name(&self) -> &'static str {
        self.type_name()
    }
}
