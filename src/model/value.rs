//! The model's TOML as a tree of values that remember where they were written.

use super::source::Span;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// A TOML value with its span in the model file.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// The value itself.
    pub kind: ValueKind,
    /// Where it was written (`None` when it came from `--set`).
    pub span: Span,
}

/// The kinds of TOML value blockdyn reads (datetimes are rejected when converted).
#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    /// A float (`1.5`, `1e5`, `inf`, `nan`).
    Float(f64),
    /// An integer (`3`).
    Integer(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    String(String),
    /// An array (`[0, 0, 1]`, `[[1, 0], [0, 1]]`).
    Array(Vec<Value>),
    /// A table (`{ method = "none" }`, `[blocks.NAME]`).
    Table(Table),
}

/// A table's entries in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// `(key, key span, value)` in the order written.
    pub entries: Vec<Entry>,
}

/// One `key = value` of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: String,
    /// Where the key was written.
    pub key_span: Span,
    /// Its value.
    pub value: Value,
}

impl Table {
    /// The entry for `key`.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The entry for `key`, mutable.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.key == key)
    }

    /// The keys in file order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.key.as_str())
    }

    /// Empties every string, array and table among the entries' values, keeping each key, each
    /// span and each number or boolean: what a located message still reads of a block's table
    /// once the block is built (a parameter's place, and a number such as a GroundContact's
    /// `dimension`). For a build that drops its model afterwards (`load_model`), so that a
    /// large model's values are freed block by block as its blocks are made. Frees the heap the
    /// emptied values held; allocates nothing.
    pub(crate) fn keep_places(&mut self) {
        for e in &mut self.entries {
            match &mut e.value.kind {
                ValueKind::String(s) => drop(std::mem::take(s)),
                ValueKind::Array(items) => drop(std::mem::take(items)),
                ValueKind::Table(t) => drop(std::mem::take(&mut t.entries)),
                ValueKind::Float(_) | ValueKind::Integer(_) | ValueKind::Bool(_) => {}
            }
        }
    }
}

impl Value {
    /// The value as a number (integers are accepted where numbers are expected).
    pub fn as_f64(&self) -> Option<f64> {
        match self.kind {
            ValueKind::Float(x) => Some(x),
            ValueKind::Integer(i) => Some(i as f64),
            _ => None,
        }
    }

    /// The value as a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a table.
    pub fn as_table(&self) -> Option<&Table> {
        match &self.kind {
            ValueKind::Table(t) => Some(t),
            _ => None,
        }
    }

    /// The value as an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A short name of the value's type for messages ("a number", "a string", …).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            ValueKind::Float(_) | ValueKind::Integer(_) => "a number",
            ValueKind::Bool(_) => "a boolean",
            ValueKind::String(_) => "a string",
            ValueKind::Array(_) => "an array",
            ValueKind::Table(_) => "a table",
        }
    }
}

/// Converts the parser's spanned table into a [`Table`]. Datetimes become strings.
pub fn from_de_table(table: &DeTable<'_>) -> Table {
    Table {
        entries: table
            .iter()
            .map(|(k, v)| Entry {
                key: k.get_ref().to_string(),
                key_span: Span::new(k.span()),
                value: from_de_value(v),
            })
            .collect(),
    }
}

fn from_de_value(v: &Spanned<DeValue<'_>>) -> Value {
    let kind = match v.get_ref() {
        DeValue::String(s) => ValueKind::String(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => ValueKind::Integer(n),
            Err(_) => ValueKind::Float(f64::NAN),
        },
        DeValue::Float(f) => ValueKind::Float(parse_toml_float(f.as_str())),
        DeValue::Boolean(b) => ValueKind::Bool(*b),
        DeValue::Datetime(d) => ValueKind::String(d.to_string()),
        DeValue::Array(a) => ValueKind::Array(a.iter().map(from_de_value).collect()),
        DeValue::Table(t) => ValueKind::Table(from_de_table(t)),
    };
    Value {
        kind,
        span: Span::new(v.span()),
    }
}

fn parse_toml_float(s: &str) -> f64 {
    match s.trim_start_matches('+') {
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "nan" | "-nan" => f64::NAN,
        other => other.replace('_', "").parse().unwrap_or(f64::NAN),
    }
}

/// Parses the right-hand side of a `--set PATH=VALUE` as a TOML value; a bare word that is not
/// valid TOML (e.g. `dopri5`) is taken as a string.
pub fn parse_override_value(text: &str) -> Value {
    let wrapped = format!("v = {text}");
    if let Ok(parsed) = DeTable::parse(&wrapped) {
        if let Some((_, v)) = parsed.get_ref().iter().next() {
            let mut value = from_de_value(v);
            clear_spans(&mut value);
            return value;
        }
    }
    Value {
        kind: ValueKind::String(text.to_string()),
        span: Span::NONE,
    }
}

fn clear_spans(v: &mut Value) {
    v.span = Span::NONE;
    match &mut v.kind {
        ValueKind::Array(items) => items.iter_mut().for_each(clear_spans),
        ValueKind::Table(t) => t.entries.iter_mut().for_each(|e| {
            e.key_span = Span::NONE;
            clear_spans(&mut e.value)
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_values_parse_as_toml_or_bare_strings() {
        assert_eq!(parse_override_value("1e6").as_f64(), Some(1e6));
        assert_eq!(parse_override_value("3").as_f64(), Some(3.0));
        assert_eq!(parse_override_value("dopri5").as_str(), Some("dopri5"));
        assert_eq!(parse_override_value("\"bs23\"").as_str(), Some("bs23"));
        assert_eq!(
            parse_override_value("[1, 2]").as_array().map(|a| a.len()),
            Some(2)
        );
    }
}
