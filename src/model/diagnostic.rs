//! The one error type for everything wrong in a model: where, which block, what, and what to write.

use super::source::{Location, SourceFile, Span};
use crate::block::BlockError;
use std::fmt;

/// A problem in a model, located in its file, with a hint saying what to write instead.
///
/// Rendered as `file:line:column: block 'name': message` followed by `  help: hint`.
///
/// A problem a block reported (its binding, its port shapes) keeps the block's typed error:
/// [`Diagnostic::block_error`].
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// The model file.
    pub file: Option<Box<str>>,
    /// 1-based line and column, when the problem has a place in the file. (`u32` keeps the
    /// error small, as the boxed strings below do.)
    pub line_column: Option<(u32, u32)>,
    /// The block concerned, if any. (Boxed strings keep the error small: it travels in `Result`s
    /// everywhere parameters are read.)
    pub block: Option<Box<str>>,
    /// What is wrong.
    pub message: String,
    /// What to write instead.
    pub hint: Option<Box<str>>,
    /// Other problems of the same file found in the same pass, independent of this one (each
    /// block's parameters, each connection's names), in the file's order.
    pub more: Vec<Diagnostic>,
    /// The block's own error, when a block reported the problem.
    /// The block's error and the including instances, when there are any (boxed together: the
    /// error stays small).
    extra: Option<Box<Extra>>,
}

/// The rarer parts of a [`Diagnostic`].
#[derive(Clone, Debug, Default, PartialEq)]
struct Extra {
    /// The block's own error, when a block reported the problem.
    cause: Option<BlockError>,
    /// When the place is in a subsystem file: `in subsystem 'leg1' (model.toml:12:1)` for each
    /// instance that included it, innermost first.
    included_from: Vec<String>,
}

impl Diagnostic {
    /// A problem at `span` of `source`.
    pub fn at(source: &SourceFile, span: &Span, message: impl Into<String>) -> Self {
        let location = span
            .range()
            .filter(|_| source.has_lines())
            .map(|r| source.locate(r.start));
        Self::located(&source.path, location, message)
    }

    /// An inclusion of `instance`'s file refused by `SourceFile::include_as` (`e`), located at
    /// the including block `at`.
    pub(crate) fn of_inclusion(
        source: &SourceFile,
        at: &Span,
        instance: &str,
        e: super::TooMuchText,
    ) -> Self {
        Self::at(source, at, e.to_string())
            .block(instance)
            .hint(super::TooMuchText::HINT)
    }

    /// A problem at `location` (located beforehand, e.g. when a diagram was built), or in the
    /// file `path` without a place when `location` is `None`: the same as [`Diagnostic::at`]
    /// gives for the span that was located.
    pub fn located(path: &str, location: Option<Location>, message: impl Into<String>) -> Self {
        let (file, line_column, included_from) = match location {
            Some(l) => (
                l.path,
                l.line_column
                    .map(|(line, column)| (saturate(line), saturate(column))),
                (!l.included_from.is_empty()).then(|| {
                    Box::new(Extra {
                        cause: None,
                        included_from: l.included_from,
                    })
                }),
            ),
            None => (path.to_string(), None, None),
        };
        Diagnostic {
            file: Some(file.into()),
            line_column,
            block: None,
            message: message.into(),
            hint: None,
            more: Vec::new(),
            extra: included_from,
        }
    }

    /// A problem with no place in a file (e.g. from the command line).
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            file: None,
            line_column: None,
            block: None,
            message: message.into(),
            hint: None,
            more: Vec::new(),
            extra: None,
        }
    }

    /// The subsystem instances whose file holds the place, innermost first, each as
    /// `in subsystem 'leg1' (model.toml:12:1)`; empty for a place in the model file.
    pub fn included_from(&self) -> &[String] {
        self.extra
            .as_ref()
            .map_or(&[], |e| e.included_from.as_slice())
    }

    /// Adds the instances that included the file of this problem's place (outermost last).
    pub(crate) fn include_in(mut self, places: impl IntoIterator<Item = String>) -> Self {
        self.extra
            .get_or_insert_with(Default::default)
            .included_from
            .extend(places);
        self
    }

    /// Names the block concerned.
    pub fn block(mut self, name: impl Into<String>) -> Self {
        self.block = Some(name.into().into_boxed_str());
        self
    }

    /// Adds what to write instead.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into().into_boxed_str());
        self
    }

    /// Keeps `error`, the block's error this diagnostic reports (its message says it), and adds
    /// the error's hint when there is none yet.
    pub fn caused_by(mut self, error: BlockError) -> Self {
        if self.hint.is_none() {
            self.hint = error.hint().map(String::into_boxed_str);
        }
        self.extra.get_or_insert_with(Default::default).cause = Some(error);
        self
    }

    /// The block's typed error behind this problem, when a block reported it (its binding or
    /// its port shapes); `None` for a problem of the model's text or of the build.
    pub fn block_error(&self) -> Option<&BlockError> {
        self.extra.as_ref().and_then(|e| e.cause.as_ref())
    }

    /// The first of `problems` carrying the others (see [`Diagnostic::more`]); `None` when
    /// there are none.
    pub fn combine(problems: Vec<Diagnostic>) -> Option<Diagnostic> {
        let mut problems = problems.into_iter();
        let mut first = problems.next()?;
        first.more.extend(problems);
        Some(first)
    }

    /// This problem and the others found with it.
    pub fn all(&self) -> impl Iterator<Item = &Diagnostic> {
        std::iter::once(self).chain(self.more.iter())
    }

    /// One problem's text, without the others.
    fn fmt_one(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            match self.line_column {
                Some((l, c)) => write!(f, ":{l}:{c}: ")?,
                None => write!(f, ": ")?,
            }
        }
        if let Some(b) = &self.block {
            write!(f, "block '{b}': ")?;
        }
        write!(f, "{}", self.message)?;
        for place in self.included_from() {
            write!(f, "\n  {place}")?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Diagnostic {
    /// The problem, then each other one found with it on lines of their own, as the command line
    /// prints them (`error: ` before each, the first one's prefix being the caller's).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_one(f)?;
        for other in &self.more {
            write!(f, "\nerror: ")?;
            other.fmt_one(f)?;
        }
        if !self.more.is_empty() {
            write!(f, "\n{} problems in this file", 1 + self.more.len())?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// `n` as a `u32`, the largest one if it does not fit.
fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub use crate::params::closest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_name() {
        assert_eq!(
            closest("Integrater", ["Integrator", "Gain", "Sum"]),
            Some("Integrator")
        );
        assert_eq!(
            closest("stifness", ["stiffness", "damping"]),
            Some("stiffness")
        );
        assert_eq!(closest("xyz", ["stiffness", "damping"]), None);
    }

    #[test]
    fn a_refused_inclusion_is_located_at_the_including_block() {
        let src = SourceFile::new("m.toml", "a = 1\n[blocks.leg]\n");
        let e = crate::model::TooMuchText { what: "Urdf" };
        let d = Diagnostic::of_inclusion(&src, &Span::new(14..17), "leg", e);
        assert_eq!(
            d.to_string().lines().next(),
            Some("m.toml:2:9: block 'leg': the model's files and the Urdf files it includes are more than 4294967294 bytes of text together")
        );
        assert!(d.hint.as_deref().is_some_and(|h| h.contains("fewer times")));
    }

    #[test]
    fn renders_file_line_block_and_help() {
        let src = SourceFile::new("m.toml", "a = 1\nb = 2\n");
        let d = Diagnostic::at(&src, &Span::new(6..7), "bad")
            .block("g")
            .hint("write c");
        assert_eq!(d.to_string(), "m.toml:2:1: block 'g': bad\n  help: write c");
    }
}
