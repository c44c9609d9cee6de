//! `blockdyn linearize`: the linearization of a model about an operating point, as JSON (see
//! [`crate::sim::linearize`]).

use crate::model::Override;
use crate::params::ParamValue;
use crate::sim::linearize::{
    linearize, trim, Linearization, LinearizeError, LinearizeSpec, Trim, TrimError, TrimSpec,
};
use std::fmt::Write;
use std::path::Path;

/// Why `blockdyn linearize` failed.
#[derive(Debug, thiserror::Error)]
pub enum LinearizeCommandError {
    /// The model could not be read or built.
    #[error("{0}")]
    Model(Box<crate::Diagnostic>),
    /// The linearization failed.
    #[error("{0}")]
    Linearize(#[from] LinearizeError),
}

impl From<crate::Diagnostic> for LinearizeCommandError {
    fn from(d: crate::Diagnostic) -> Self {
        LinearizeCommandError::Model(Box::new(d))
    }
}

/// Loads `model` with the `--set` overrides and linearizes it as `spec` says. An output that
/// nothing in the model reads ([`LinearizeError::UnusedOutput`]) is added to `[output] log`
/// (with the model's own log entries) and the model is built again.
pub fn linearize_model(
    model: &Path,
    set: &[Override],
    spec: &LinearizeSpec,
) -> Result<Linearization, LinearizeCommandError> {
    let d = crate::load_model(model, set)?;
    match linearize(&d, spec) {
        Err(LinearizeError::UnusedOutput { .. }) => {
            let d = crate::load_model(model, &logging_outputs(&d, set, spec))?;
            Ok(linearize(&d, spec)?)
        }
        result => Ok(result?),
    }
}

/// Why `blockdyn trim` failed.
#[derive(Debug, thiserror::Error)]
pub enum TrimCommandError {
    /// The model could not be read or built.
    #[error("{0}")]
    Model(Box<crate::Diagnostic>),
    /// The trim failed or did not converge.
    #[error("{0}")]
    Trim(#[from] TrimError),
}

impl From<crate::Diagnostic> for TrimCommandError {
    fn from(d: crate::Diagnostic) -> Self {
        TrimCommandError::Model(Box::new(d))
    }
}

/// Loads `model` with the `--set` overrides and trims it as `spec` says (an output nothing
/// reads is logged and the model built again, as for [`linearize_model`]).
pub fn trim_model(
    model: &Path,
    set: &[Override],
    spec: &TrimSpec,
) -> Result<Trim, TrimCommandError> {
    let d = crate::load_model(model, set)?;
    match trim(&d, spec) {
        Err(TrimError::Linearize(LinearizeError::UnusedOutput { .. })) => {
            let outputs = LinearizeSpec {
                outputs: spec.outputs.clone(),
                ..Default::default()
            };
            let d = crate::load_model(model, &logging_outputs(&d, set, &outputs))?;
            Ok(trim(&d, spec)?)
        }
        result => Ok(result?),
    }
}

/// The JSON of `blockdyn trim`: `{"states": [names], "x": [...], "inputs": [names], "u": [...],
/// "outputs": [names], "y": [...], "xdot_norm": n, "iterations": k, "evaluations": e,
/// "warnings": [...]}`, numbers written so that they read back to the same `f64`.
pub fn trim_to_json(t: &Trim) -> String {
    let mut s = String::from("{\n");
    let mut field = |name: &str, value: String, last: bool| {
        let _ = writeln!(s, "  \"{name}\": {value}{}", if last { "" } else { "," });
    };
    field("states", strings(&t.states), false);
    field("x", numbers(&t.x), false);
    field("inputs", strings(&t.inputs), false);
    field("u", numbers(&t.u), false);
    field("outputs", strings(&t.outputs), false);
    field("y", numbers(&t.y), false);
    field("xdot_norm", number(t.xdot_norm), false);
    field("iterations", t.iterations.to_string(), false);
    field("evaluations", t.evaluations.to_string(), false);
    field("warnings", strings(&t.warnings), true);
    s.push_str("}\n");
    s
}

/// `set` with `output.log` = the model's log and `spec`'s outputs.
pub fn logging_outputs(
    d: &crate::Diagram,
    set: &[Override],
    spec: &LinearizeSpec,
) -> Vec<Override> {
    let mut log: Vec<String> = d.run.output.log.clone();
    for name in &spec.outputs {
        if !log.contains(name) {
            log.push(name.trim().to_string());
        }
    }
    let entries: Vec<ParamValue> = log.into_iter().map(ParamValue::String).collect();
    let mut set = set.to_vec();
    set.push(Override::new("output.log", entries));
    set
}

/// The JSON of `blockdyn linearize`: `{"states": [names], "inputs": [names], "outputs":
/// [names], "A": [[...]], "B": [[...]], "C": [[...]], "D": [[...]], "x": [...], "u": [...],
/// "y": [...], "t": T, "error_estimate": e, "evaluations": n, "warnings": [...]}`, matrices as
/// lists of rows. Numbers are written so that they read back to the same `f64` (a non-finite
/// number, which a linearization never returns, would be `null`).
pub fn to_json(lin: &Linearization) -> String {
    let mut s = String::from("{\n");
    let mut field = |name: &str, value: String, last: bool| {
        let _ = writeln!(s, "  \"{name}\": {value}{}", if last { "" } else { "," });
    };
    field("states", strings(&lin.states), false);
    field("inputs", strings(&lin.inputs), false);
    field("outputs", strings(&lin.outputs), false);
    field("A", matrix(&lin.a), false);
    field("B", matrix(&lin.b), false);
    field("C", matrix(&lin.c), false);
    field("D", matrix(&lin.d), false);
    field("x", numbers(&lin.x), false);
    field("u", numbers(&lin.u), false);
    field("y", numbers(&lin.y), false);
    field("t", number(lin.t), false);
    field("error_estimate", number(lin.error_estimate), false);
    field("evaluations", lin.evaluations.to_string(), false);
    field("warnings", strings(&lin.warnings), true);
    s.push_str("}\n");
    s
}

fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{v:?}")
    } else {
        "null".to_string()
    }
}

fn numbers(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|v| number(*v)).collect();
    format!("[{}]", items.join(", "))
}

fn matrix(m: &nalgebra::DMatrix<f64>) -> String {
    let rows: Vec<String> = (0..m.nrows())
        .map(|i| numbers(&m.row(i).iter().copied().collect::<Vec<_>>()))
        .collect();
    if rows.is_empty() {
        return "[]".to_string();
    }
    format!("[\n    {}\n  ]", rows.join(",\n    "))
}

fn strings(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|v| quoted(v)).collect();
    format!("[{}]", items.join(", "))
}

/// A JSON string: quotes, backslashes and control characters escaped.
fn quoted(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_and_numbers_read_back() {
        assert_eq!(quoted("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
        for v in [0.1, -9.81, 1e-300, 3.0, f64::MAX] {
            assert_eq!(number(v).parse::<f64>().unwrap(), v);
        }
        assert_eq!(number(f64::NAN), "null");
    }
}
