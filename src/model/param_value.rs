//! The one conversion between the model tree's [`Value`] (which remembers where it was written)
//! and [`ParamValue`] (the value alone, as block constructors, the builder, overrides and Python
//! carry it), both ways.

use super::source::Span;
use super::value::{Entry, Table, Value, ValueKind};
use crate::params::ParamValue;

impl From<&Value> for ParamValue {
    /// The value as written, without its place in the file.
    fn from(v: &Value) -> Self {
        match &v.kind {
            ValueKind::Float(x) => ParamValue::Float(*x),
            ValueKind::Integer(i) => ParamValue::Integer(*i),
            ValueKind::Bool(b) => ParamValue::Bool(*b),
            ValueKind::String(s) => ParamValue::String(s.clone()),
            ValueKind::Array(items) => ParamValue::Array(items.iter().map(Self::from).collect()),
            ValueKind::Table(t) => ParamValue::Table(
                t.entries
                    .iter()
                    .map(|e| (e.key.clone(), Self::from(&e.value)))
                    .collect(),
            ),
        }
    }
}

impl From<&ParamValue> for Value {
    /// The value in the model tree, with no place in a file. In a table given the same key
    /// twice, the last value holds, in the place of the first (as `ParamValue::to_toml` writes
    /// it).
    fn from(v: &ParamValue) -> Self {
        let kind = match v {
            ParamValue::Float(x) => ValueKind::Float(*x),
            ParamValue::Integer(i) => ValueKind::Integer(*i),
            ParamValue::Bool(b) => ValueKind::Bool(*b),
            ParamValue::String(s) => ValueKind::String(s.clone()),
            ParamValue::Array(items) => ValueKind::Array(items.iter().map(Value::from).collect()),
            ParamValue::Table(entries) => ValueKind::Table(tree_table(entries)),
        };
        Value {
            kind,
            span: Span::NONE,
        }
    }
}

/// `entries` as a table of the model tree, with no places in a file; of a key given twice, the
/// last value holds, in the place of its first.
pub(crate) fn tree_table(entries: &[(String, ParamValue)]) -> Table {
    Table {
        entries: crate::params::last_values(entries)
            .into_iter()
            .map(|(key, value)| Entry {
                key: key.to_string(),
                key_span: Span::NONE,
                value: value.into(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::table;

    /// A value goes into the tree and back unchanged; a key given twice keeps its last value in
    /// the place of its first.
    #[test]
    fn values_cross_both_ways() {
        let v = table([
            ("x", 0.1.into()),
            ("n", 3usize.into()),
            ("s", "text".into()),
            ("v", [1.0, 2.0].into()),
            ("b", true.into()),
            ("t", table([("a", 1.0.into())])),
        ]);
        let tree = Value::from(&v);
        assert!(tree.span.is_none());
        assert_eq!(ParamValue::from(&tree), v);
        let twice = table([("a", 1.0.into()), ("b", 2.0.into()), ("a", 3.0.into())]);
        let tree = Value::from(&twice);
        let t = tree.as_table().expect("a table");
        assert_eq!(t.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(t.get("a").unwrap().value.as_f64(), Some(3.0));
    }
}
