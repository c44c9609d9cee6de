//! The checks of a written value's form (a finite number, a non-negative integer, an array of
//! rows of equal length, …), one implementation for every store of parameters: the model's
//! reader (`crate::model::TableReader`, over the TOML tree) and [`super::MapReader`] (over typed
//! values) read a value they hold through [`WrittenValue`] and say the same thing about it.

use super::{ParamError, ParamResult, Params};

/// A value as written for a key, as the checks of its form read it.
pub(crate) trait WrittenValue: Sized {
    /// The value as a number (an integer or a float), when it is one.
    fn number(&self) -> Option<f64>;
    /// The value when it is written as an integer.
    fn integer(&self) -> Option<i64>;
    /// The value when it is written as a float.
    fn float(&self) -> Option<f64>;
    /// The value when it is a boolean.
    fn boolean(&self) -> Option<bool>;
    /// The elements, when the value is an array.
    fn items(&self) -> Option<&[Self]>;
    /// The value's kind as messages name it (the TOML kinds: an integer is "a number").
    fn kind_name(&self) -> &'static str;
}

/// `'KEY' must be WHAT, not KIND`, with an example of `what`.
pub(crate) fn expected<T>(
    p: &Params<'_>,
    key: &str,
    what: &str,
    got: &impl WrittenValue,
) -> ParamResult<T> {
    let name = p.name(key);
    Err(p
        .error(
            key,
            format!("'{name}' must be {what}, not {}", got.kind_name()),
        )
        .hint(format!("write e.g. {name} = {}", example_of(what))))
}

/// `key` holds `x`, a number that is not finite (`nan`, `inf`): what to write instead, an array
/// when the parameter is read as one (`array`).
pub(crate) fn not_finite(p: &Params<'_>, key: &str, x: f64, array: bool) -> ParamError {
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

/// A finite number.
pub(crate) fn number(p: &Params<'_>, key: &str, v: &impl WrittenValue) -> ParamResult<f64> {
    match v.number() {
        Some(x) if x.is_finite() => Ok(x),
        Some(x) => Err(not_finite(p, key, x, false)),
        None => expected(p, key, "a number", v),
    }
}

/// A non-negative integer (a float with no fraction below 10⁹ is one too).
pub(crate) fn count(p: &Params<'_>, key: &str, v: &impl WrittenValue) -> ParamResult<usize> {
    match (v.integer(), v.float()) {
        (Some(i), _) if i >= 0 => Ok(i as usize),
        (_, Some(x)) if x >= 0.0 && x.fract() == 0.0 && x < 1e9 => Ok(x as usize),
        _ => expected(p, key, "a non-negative integer", v),
    }
}

/// `true` or `false`.
pub(crate) fn boolean(p: &Params<'_>, key: &str, v: &impl WrittenValue) -> ParamResult<bool> {
    match v.boolean() {
        Some(b) => Ok(b),
        None => expected(p, key, "true or false", v),
    }
}

/// An array of finite numbers; a single number is a one-element array.
pub(crate) fn vector<V: WrittenValue>(p: &Params<'_>, key: &str, v: &V) -> ParamResult<Vec<f64>> {
    let Some(items) = v.items() else {
        return match v.number() {
            Some(x) if x.is_finite() => Ok(vec![x]),
            Some(x) => Err(not_finite(p, key, x, true)),
            None => expected(p, key, "an array of numbers", v),
        };
    };
    let name = p.name(key);
    items
        .iter()
        .map(|item| match item.number() {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(p
                .error(key, format!("'{name}' must be an array of finite numbers"))
                .hint(format!("write e.g. {name} = [0.0, 1.0]"))),
        })
        .collect()
}

/// A matrix as an array of rows of equal length, each of finite numbers; a flat array of
/// numbers is one row per element.
pub(crate) fn rows<V: WrittenValue>(
    p: &Params<'_>,
    key: &str,
    v: &V,
) -> ParamResult<Vec<Vec<f64>>> {
    let Some(items) = v.items() else {
        return expected(p, key, "an array of rows", v);
    };
    let name = p.name(key);
    if items.iter().all(|i| i.number().is_some()) {
        // A flat array: one row per element.
        let values: Vec<f64> = items.iter().filter_map(V::number).collect();
        if values.iter().any(|x| !x.is_finite()) {
            return Err(p.error(key, format!("'{name}' must hold finite numbers only")));
        }
        return Ok(values.into_iter().map(|x| vec![x]).collect());
    }
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(items.len());
    for (r, item) in items.iter().enumerate() {
        let Some(row) = item.items() else {
            return Err(p.error(key, format!("'{name}' row {r} is not an array of numbers")));
        };
        let mut out = Vec::with_capacity(row.len());
        for x in row {
            match x.number() {
                Some(x) if x.is_finite() => out.push(x),
                _ => {
                    return Err(p.error(
                        key,
                        format!("'{name}' row {r} must hold finite numbers only"),
                    ))
                }
            }
        }
        if let Some(first) = rows.first() {
            if first.len() != out.len() {
                return Err(p.error(
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
    Ok(rows)
}

/// What to write for a value of the kind `what`, in the hints of [`expected`].
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
