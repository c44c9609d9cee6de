//! A place in a URDF file and the located message built from it: below the XML reader
//! ([`super::read`]) and the entity budget ([`super::entities`]), which both report at a byte
//! offset of the text.

use crate::model::{Diagnostic, SourceFile, Span};

/// A place in the URDF file: a byte offset into its text (0-based).
pub type At = usize;

/// A located problem in the URDF file: `message` at byte offset `at` of `source` (printed as
/// `robot.urdf:LINE:COLUMN`).
pub fn error_at(source: &SourceFile, at: At, message: impl Into<String>) -> Diagnostic {
    Diagnostic::at(source, &Span::new(at..at), message)
}
