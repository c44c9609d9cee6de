//! [`ParamValue`]: one parameter's value as a model file writes it, the one value type that the
//! TOML reader hands to block constructors, the builder fills, overrides carry and Python
//! converts to; and its TOML text ([`ParamValue::to_toml`]), for `ModelBuilder::to_toml` and
//! messages.

use std::fmt::Write;

/// A parameter's value as written: numbers, strings and booleans, arrays and tables of them.
/// Plain Rust values convert into it (`2.0.into()`, `"trbdf2".into()`, `[0.0, 0.0, 1.0].into()`),
/// and [`table`] makes an inline table.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A floating-point number (written in Rust's shortest round-trip form: it reads back
    /// exactly).
    Float(f64),
    /// An integer (counts, indices).
    Integer(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<ParamValue>),
    /// A nested (inline) table: its entries in the order written.
    Table(Vec<(String, ParamValue)>),
}

impl From<f64> for ParamValue {
    fn from(x: f64) -> Self {
        ParamValue::Float(x)
    }
}
impl From<i64> for ParamValue {
    fn from(x: i64) -> Self {
        ParamValue::Integer(x)
    }
}
impl From<usize> for ParamValue {
    fn from(x: usize) -> Self {
        ParamValue::Integer(x as i64)
    }
}
impl From<bool> for ParamValue {
    fn from(x: bool) -> Self {
        ParamValue::Bool(x)
    }
}
impl From<&str> for ParamValue {
    fn from(x: &str) -> Self {
        ParamValue::String(x.to_string())
    }
}
impl From<String> for ParamValue {
    fn from(x: String) -> Self {
        ParamValue::String(x)
    }
}
impl From<&[f64]> for ParamValue {
    fn from(x: &[f64]) -> Self {
        ParamValue::Array(x.iter().map(|v| ParamValue::Float(*v)).collect())
    }
}
impl<const N: usize> From<[f64; N]> for ParamValue {
    fn from(x: [f64; N]) -> Self {
        x.as_slice().into()
    }
}
impl From<Vec<ParamValue>> for ParamValue {
    fn from(x: Vec<ParamValue>) -> Self {
        ParamValue::Array(x)
    }
}
impl From<Vec<(String, ParamValue)>> for ParamValue {
    fn from(x: Vec<(String, ParamValue)>) -> Self {
        ParamValue::Table(x)
    }
}

/// An inline table from `(key, value)` pairs: `table([("method", "none".into())])`.
pub fn table<const N: usize>(entries: [(&str, ParamValue); N]) -> ParamValue {
    ParamValue::Table(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

impl ParamValue {
    /// The value as a string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ParamValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a number (an integer too), when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ParamValue::Float(x) => Some(*x),
            ParamValue::Integer(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The elements, when the value is an array.
    pub fn as_array(&self) -> Option<&[ParamValue]> {
        match self {
            ParamValue::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The entries in the order written, when the value is a table.
    pub fn as_table(&self) -> Option<&[(String, ParamValue)]> {
        match self {
            ParamValue::Table(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value as TOML text, as a model file writes it (numbers in Rust's shortest round-trip
    /// form, so they read back exactly; `nan`, `inf`, `-inf` as TOML spells them). In a table
    /// given the same key twice the last value holds, in the place of the first.
    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        self.write_toml(&mut s);
        s
    }

    /// Appends [`ParamValue::to_toml`]'s text to `out`.
    pub fn write_toml(&self, out: &mut String) {
        match self {
            ParamValue::Float(x) if x.is_nan() => out.push_str("nan"),
            ParamValue::Float(x) if x.is_infinite() => {
                out.push_str(if *x > 0.0 { "inf" } else { "-inf" })
            }
            ParamValue::Float(x) => {
                let _ = write!(out, "{x:?}");
            }
            ParamValue::Integer(i) => {
                let _ = write!(out, "{i}");
            }
            ParamValue::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            ParamValue::String(s) => write_string(s, out),
            ParamValue::Array(items) => {
                out.push('[');
                for (k, v) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    v.write_toml(out);
                }
                out.push(']');
            }
            ParamValue::Table(entries) => {
                out.push_str("{ ");
                for (k, (key, v)) in last_values(entries).into_iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    write_key(key, out);
                    out.push_str(" = ");
                    v.write_toml(out);
                }
                out.push_str(" }");
            }
        }
    }
}

/// A basic TOML string: quoted, with `"`, `\`, newlines and control characters escaped.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A key as TOML: bare when it can be, quoted otherwise.
pub fn write_key(key: &str, out: &mut String) {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        out.push_str(key);
    } else {
        write_string(key, out);
    }
}

/// The entries with each key once: of a key given twice, the last value, in the place of its
/// first (the rule a builder's `set` follows, for tables given whole with [`table`]).
pub fn last_values(entries: &[(String, ParamValue)]) -> Vec<(&str, &ParamValue)> {
    let mut once: Vec<(&str, &ParamValue)> = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        match once.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => once.push((key, value)),
        }
    }
    once
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of each kind, as TOML reads it back (shortest round-trip floats, escapes,
    /// quoted keys that are not bare).
    #[test]
    fn values_are_written_so_that_they_read_back_exactly() {
        let t = table([
            ("x", 0.1.into()),
            ("big", 1e300.into()),
            ("n", 3usize.into()),
            ("s", "a \"q\" \\ b".into()),
            ("v", [1.0, -2.5e-7, f64::INFINITY].into()),
            ("odd key", true.into()),
        ]);
        assert_eq!(
            t.to_toml(),
            r#"{ x = 0.1, big = 1e300, n = 3, s = "a \"q\" \\ b", v = [1.0, -2.5e-7, inf], "odd key" = true }"#
        );
    }

    /// A table given a key twice keeps the last value, in the place of the first.
    #[test]
    fn a_key_given_twice_keeps_its_last_value() {
        let t = table([("a", 1.0.into()), ("b", 2.0.into()), ("a", 3.0.into())]);
        assert_eq!(t.to_toml(), "{ a = 3.0, b = 2.0 }");
    }
}
