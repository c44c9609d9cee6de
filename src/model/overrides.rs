//! [`Override`]: one model value replaced before the build, a dotted path and a typed value.
//!
//! The command line's `--set PATH=VALUE` (and `--vary`, and Python's `set=["PATH=VALUE"]`) is
//! text, parsed once where it enters ([`Override::parse`]: the value as TOML, a bare word that is
//! not TOML as a string); the Rust API, parameter sets, sweeps and Python's `set={path: value}`
//! make overrides from values ([`Override::new`]) and no TOML is written or read on the way. An
//! override shows as the user wrote it (`solver.rel_tol = 1e-8`), or, made from a value, as
//! `PATH=VALUE` with the value's TOML text, so messages quote it in the form the user gave.

use super::value::{parse_override_value, Value};
use super::Diagnostic;
use crate::params::ParamValue;
use std::fmt;
use std::str::FromStr;

/// One override: a dotted path (`block.param[.sub...]`, `solver.rel_tol`, or a bare
/// `[variables]` name) and the value to put there; see the module documentation.
///
/// ```
/// use blockdyn::Override;
///
/// let typed = Override::new("contact.normal.stiffness", 1e6);
/// let parsed: Override = "contact.normal.stiffness = 1e6".parse().unwrap();
/// assert_eq!((typed.path(), typed.value()), (parsed.path(), parsed.value()));
/// assert_eq!(typed.to_string(), "contact.normal.stiffness=1000000.0");
/// assert_eq!(parsed.to_string(), "contact.normal.stiffness = 1e6");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// The dotted path, trimmed.
    path: String,
    /// The value.
    value: ParamValue,
    /// `PATH=VALUE` as the user wrote it, when the override was parsed from text.
    written: Option<Box<str>>,
}

/// Text given as an override that has no `=`: `'TEXT' has no '='` (the edge that took the text
/// says which option it was: `--set 'TEXT' has no '='`), with what to write
/// ([`OverrideError::hint`]). As a [`Diagnostic`] (`?` in a function returning one) it is
/// `parameter 'TEXT' has no '='` with the hint, as a parameter set's assignment given as text.
///
/// ```
/// use blockdyn::{Diagnostic, Override};
///
/// let e = Override::parse("ball.mass 2").unwrap_err();
/// assert_eq!(e.to_string(), "'ball.mass 2' has no '='");
/// let d = Diagnostic::from(e);
/// assert_eq!(d.message, "parameter 'ball.mass 2' has no '='");
/// assert_eq!(d.hint.as_deref(), Some("write block.param=value, e.g. contact.normal.stiffness=1e6"));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("'{text}' has no '='")]
pub struct OverrideError {
    /// The text as given.
    pub text: String,
}

impl OverrideError {
    /// What to write instead: `write block.param=value, e.g. contact.normal.stiffness=1e6`.
    pub fn hint(&self) -> &'static str {
        "write block.param=value, e.g. contact.normal.stiffness=1e6"
    }
}

impl From<OverrideError> for Diagnostic {
    /// `parameter 'TEXT' has no '='`, with [`OverrideError::hint`].
    fn from(e: OverrideError) -> Diagnostic {
        let hint = e.hint();
        Diagnostic::new(format!("parameter '{}' has no '='", e.text)).hint(hint)
    }
}

impl Override {
    /// The override of `path` (`block.param[.sub...]`, `section.key` or a variable's name) with
    /// `value`.
    pub fn new(path: impl Into<String>, value: impl Into<ParamValue>) -> Override {
        Override {
            path: path.into().trim().to_string(),
            value: value.into(),
            written: None,
        }
    }

    /// Reads `PATH=VALUE` as `--set` takes it: the path before the first `=`, the value after
    /// it as a TOML value (`1e6`, `[0, 0, 1]`, `{ method = "none" }`, `"text"`), a bare word that
    /// is not TOML (`trbdf2`) as a string. The text is kept for messages.
    pub fn parse(assignment: &str) -> Result<Override, OverrideError> {
        let Some((path, text)) = assignment.split_once('=') else {
            return Err(OverrideError {
                text: assignment.to_string(),
            });
        };
        Ok(Override {
            path: path.trim().to_string(),
            value: ParamValue::from(&parse_override_value(text.trim())),
            written: Some(assignment.into()),
        })
    }

    /// Reads each of `assignments` with [`Override::parse`].
    pub fn parse_all<S: AsRef<str>>(assignments: &[S]) -> Result<Vec<Override>, OverrideError> {
        assignments
            .iter()
            .map(|a| Override::parse(a.as_ref()))
            .collect()
    }

    /// Reads each of `options`, the command line's `--set PATH=VALUE` texts (and Python's list
    /// of them), with [`Override::parse`]; a text without `=` is `--set 'TEXT' has no '='`, with
    /// what to write.
    pub fn parse_set_options<S: AsRef<str>>(options: &[S]) -> Result<Vec<Override>, Diagnostic> {
        options
            .iter()
            .map(|o| {
                Override::parse(o.as_ref()).map_err(|e| {
                    Diagnostic::new(format!("--set {e}")).hint(
                        "write --set block.param=value, e.g. --set contact.normal.stiffness=1e6",
                    )
                })
            })
            .collect()
    }

    /// The override of `path` with `value`, shown as `written` (`PATH=VALUE` as the user gave it,
    /// e.g. one value of a `--vary` list).
    pub(crate) fn written(path: &str, value: ParamValue, written: String) -> Override {
        Override {
            path: path.trim().to_string(),
            value,
            written: Some(written.into()),
        }
    }

    /// The dotted path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The value.
    pub fn value(&self) -> &ParamValue {
        &self.value
    }

    /// The value as a node of the model tree (no place in a file).
    pub(crate) fn tree_value(&self) -> Value {
        Value::from(&self.value)
    }

    /// The path's keys (`contact.normal.stiffness` → `contact`, `normal`, `stiffness`).
    pub(crate) fn keys(&self) -> Vec<&str> {
        self.path.split('.').collect()
    }
}

impl fmt::Display for Override {
    /// `PATH=VALUE` as the user wrote it, else with the value's TOML text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.written {
            Some(text) => f.write_str(text),
            None => write!(f, "{}={}", self.path, self.value.to_toml()),
        }
    }
}

impl FromStr for Override {
    type Err = OverrideError;

    fn from_str(assignment: &str) -> Result<Override, OverrideError> {
        Override::parse(assignment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::table;

    /// The text is read once: numbers as numbers (an integer stays one), a bare word as a
    /// string, arrays and tables whole; a text without `=` is refused; the override shows as
    /// written. Made from a value, it shows as `PATH=` and the value's TOML.
    #[test]
    fn text_is_read_once_and_values_pass_as_they_are() {
        let o = Override::parse(" k.value = 1e6").unwrap();
        assert_eq!((o.path(), o.value()), ("k.value", &ParamValue::Float(1e6)));
        assert_eq!(o.to_string(), " k.value = 1e6");
        let n: Override = "dom.count=3".parse().unwrap();
        assert_eq!(n.value(), &ParamValue::Integer(3));
        let word = Override::parse("solver.method=trbdf2").unwrap();
        assert_eq!(word.value(), &ParamValue::String("trbdf2".into()));
        let quoted = Override::parse("solver.method=\"trbdf2\"").unwrap();
        assert_eq!(quoted.value(), word.value());
        let t = Override::parse("c.normal={ method = \"linear\", stiffness = 2 }").unwrap();
        assert_eq!(
            t.value(),
            &table([("method", "linear".into()), ("stiffness", 2i64.into())])
        );
        assert_eq!(
            Override::parse("k.value").unwrap_err().to_string(),
            "'k.value' has no '='"
        );
        assert_eq!(
            Override::parse_set_options(&["a.b=1", "k.value"]).unwrap_err().to_string(),
            "--set 'k.value' has no '='\n  help: write --set block.param=value, e.g. --set contact.normal.stiffness=1e6"
        );
        let made = Override::new("free.position", [0.0, 0.0, 1.5]);
        assert_eq!(made.to_string(), "free.position=[0.0, 0.0, 1.5]");
        assert_eq!(made.keys(), ["free", "position"]);
    }
}
