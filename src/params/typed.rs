//! [`Params`]: the typed front block constructors read through, over any [`ParamSource`].

use super::{closest, At, ParamError, ParamResult, ParamSource, ParamValue};

/// One block's parameters (or one nested table of them) as its constructor reads them: the
/// [`ParamSource`]'s typed readers, and the checks and messages every block shares, written
/// once here so that every source says the same.
pub struct Params<'a> {
    source: Source<'a>,
}

/// The source, borrowed (a block's table) or owned (a nested table made by the source).
enum Source<'a> {
    Borrowed(&'a dyn ParamSource),
    Owned(Box<dyn ParamSource + 'a>),
}

impl<'a> Params<'a> {
    /// The parameters of `source`.
    pub fn new(source: &'a dyn ParamSource) -> Self {
        Params {
            source: Source::Borrowed(source),
        }
    }

    fn src(&self) -> &dyn ParamSource {
        match &self.source {
            Source::Borrowed(s) => *s,
            Source::Owned(s) => s.as_ref(),
        }
    }

    /// The full path of `key` (this table's path, then `key`).
    fn path_of(&self, key: &str) -> Vec<String> {
        let mut path = self.src().path().to_vec();
        path.push(key.to_string());
        path
    }

    /// The full dotted name of `key` for messages (`normal.stiffness`).
    pub fn name(&self, key: &str) -> String {
        let mut name = String::new();
        for k in self.src().path() {
            name.push_str(k);
            name.push('.');
        }
        name.push_str(key);
        name
    }

    /// The error for `key`, written but asked for by no reader: "did you mean" the nearest of
    /// the `known` keys, else the list of them (the one text every source gives).
    pub fn unknown_key(&self, key: &str, known: &[&str]) -> ParamError {
        let e = ParamError::new(
            self.path_of(key),
            At::Key,
            format!("unknown parameter '{}'", self.name(key)),
        );
        match closest(key, known.iter().copied()) {
            Some(near) => e.hint(format!("did you mean '{}'?", self.name(near))),
            None if known.is_empty() => e.hint("this takes no parameters here: remove the line"),
            None => {
                let mut known = known.to_vec();
                known.sort_unstable();
                known.dedup();
                e.hint(format!("known parameters here: {}", known.join(", ")))
            }
        }
    }

    /// An error about `key` (its value when written, else this table).
    pub fn error(&self, key: &str, message: impl Into<String>) -> ParamError {
        ParamError::new(self.path_of(key), At::Value, message)
    }

    /// An error about element `index` of the array written for `key`.
    pub fn item_error(&self, key: &str, index: usize, message: impl Into<String>) -> ParamError {
        ParamError::new(self.path_of(key), At::Item(index), message)
    }

    /// An error about this table as a whole.
    pub fn table_error(&self, message: impl Into<String>) -> ParamError {
        ParamError::new(self.src().path().to_vec(), At::Table, message)
    }

    /// The value written for `key` as written, marking it as known.
    pub fn value(&self, key: &'static str) -> Option<ParamValue> {
        self.src().value(key)
    }

    /// True when `key` is written (it becomes known).
    pub fn has(&self, key: &'static str) -> bool {
        self.src().is_written(key)
    }

    /// An optional finite number.
    pub fn f64(&self, key: &'static str) -> ParamResult<Option<f64>> {
        self.src().f64(key)
    }

    /// A number with a default.
    pub fn f64_or(&self, key: &'static str, default: f64) -> ParamResult<f64> {
        Ok(self.f64(key)?.unwrap_or(default))
    }

    /// A number that must be written; `unit_hint` is quoted by the hint.
    pub fn required_f64(&self, key: &'static str, unit_hint: &str) -> ParamResult<f64> {
        self.f64(key)?.ok_or_else(|| {
            self.table_error(format!("missing parameter '{}'", self.name(key)))
                .hint(format!("add {} = <number> ({unit_hint})", self.name(key)))
        })
    }

    /// Checks `ok` for the value of `key`, else an error `'KEY' message` with `hint`.
    pub fn ensure(&self, ok: bool, key: &str, message: &str, hint: &str) -> ParamResult<()> {
        if ok {
            Ok(())
        } else {
            Err(self
                .error(key, format!("'{}' {message}", self.name(key)))
                .hint(hint))
        }
    }

    /// A number > 0 with a default; `unit` is quoted by the hint.
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

    /// A number ≥ 0 with a default; `unit` is quoted by the hint.
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
        self.src().usize(key)
    }

    /// An optional boolean.
    pub fn bool(&self, key: &'static str) -> ParamResult<Option<bool>> {
        self.src().bool(key)
    }

    /// An optional string.
    pub fn string(&self, key: &'static str) -> ParamResult<Option<&str>> {
        self.src().string(key)
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

    /// A string that must be one of `choices` (`default` when the key is absent).
    pub fn choice(
        &self,
        key: &'static str,
        choices: &[&'static str],
        default: &'static str,
    ) -> ParamResult<&'static str> {
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
        self.src().vector(key)
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

    /// An optional matrix written as an array of rows (all rows the same length), or a flat
    /// array (read as one row per element).
    pub fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>> {
        self.src().rows(key)
    }

    /// A nested table (`normal = { method = ... }`) as parameters of their own.
    pub fn table(&self, key: &'static str) -> ParamResult<Option<Params<'_>>> {
        Ok(self.src().table(key)?.map(|t| Params {
            source: Source::Owned(t),
        }))
    }

    /// Refuses keys that were written but never asked for, suggesting the nearest known key.
    pub fn finish(&self) -> ParamResult<()> {
        self.src().finish()
    }
}
