//! Reading one block's parameters, below both the block library and the model format.
//!
//! A block type's constructor reads its parameters through [`ParamSource`], an object-safe
//! trait that any store of named values can implement (the model's TOML reader,
//! `crate::model::TableReader`, is one), by way of [`Params`], a thin typed front with the
//! checks every block shares (positive, non-negative, one of a list, an array of a fixed
//! length). A problem is a [`ParamError`]: the key path it concerns (`normal.stiffness`), what
//! part of it ([`At`]), the message and the hint, and no place in a file: whoever made the
//! source turns it into its own located error (the model reader into a `Diagnostic` at the
//! span of the key's value, with the same text).
//!
//! ```
//! use blockdyn::params::{At, ParamError};
//!
//! let e = ParamError::new(vec!["normal".into(), "stiffness".into()], At::Value, "'normal.stiffness' must be positive (got -1)")
//!     .hint("write a positive value in N/m");
//! assert_eq!(e.key_path(), "normal.stiffness");
//! assert_eq!(e.to_string(), "'normal.stiffness' must be positive (got -1)");
//! ```

pub(crate) mod forms;
mod map;
mod typed;
mod value;
mod words;

pub use map::{MapReader, ParamMap};
pub use typed::Params;
pub use value::{last_values, table, write_key, write_string, ParamValue};
pub use words::closest;

/// Result of reading a parameter.
pub type ParamResult<T> = Result<T, ParamError>;

/// Which part of a parameter a [`ParamError`] is about; the source locates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// The value written for the key (the table holding the key, when it is not written).
    Value,
    /// The table at the path as a whole (a block's own table for an empty path).
    Table,
    /// The key's name as written (an unknown key).
    Key,
    /// Element `k` (0-based) of the array written for the key.
    Item(usize),
}

/// A problem with one block's parameters: the key path, the part of it ([`At`]), the message
/// and what to write instead. It carries no file location: the source that produced the values
/// locates it (see the module documentation). `Display` is the message.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ParamError {
    /// The keys from the block's table down to the one concerned (`["normal", "stiffness"]`);
    /// for [`At::Table`], down to the table.
    path: Vec<String>,
    /// The part concerned.
    at: At,
    /// What is wrong (quoting the key path as the user writes it).
    message: String,
    /// What to write instead.
    hint: Option<Box<str>>,
}

impl ParamError {
    /// A problem with `at` of the parameter at `path`, saying `message`.
    pub fn new(path: Vec<String>, at: At, message: impl Into<String>) -> Self {
        ParamError {
            path,
            at,
            message: message.into(),
            hint: None,
        }
    }

    /// Adds what to write instead.
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into().into_boxed_str());
        self
    }

    /// The keys from the block's table to the one concerned.
    pub fn path(&self) -> &[String] {
        &self.path
    }

    /// The path as written in a model, keys joined by `.` (`normal.stiffness`).
    pub fn key_path(&self) -> String {
        self.path.join(".")
    }

    /// The part of the parameter concerned.
    pub fn at(&self) -> At {
        self.at
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What to write instead, when there is a hint.
    pub fn hint_text(&self) -> Option<&str> {
        self.hint.as_deref()
    }
}

/// The parameters of one block (or of one nested table of them, `normal = { … }`), as a block
/// type's constructor reads them. Every key asked for, written or not, becomes a known key, and
/// [`ParamSource::finish`] refuses the written keys no one asked for.
///
/// The readers of typed values check the value's form (a finite number, a non-negative
/// integer, …) and say what was written instead; the range checks are [`Params`]'s. Errors name
/// the key by its full path (see [`ParamSource::path`]).
pub trait ParamSource {
    /// The keys from the block's table to this one (empty for the block's own table).
    fn path(&self) -> &[String];
    /// Whether `key` is written (it becomes known).
    fn is_written(&self, key: &'static str) -> bool;
    /// The value written for `key` as it was written (it becomes known).
    fn value(&self, key: &'static str) -> Option<ParamValue>;
    /// A finite number, when written.
    fn f64(&self, key: &'static str) -> ParamResult<Option<f64>>;
    /// A non-negative integer, when written.
    fn usize(&self, key: &'static str) -> ParamResult<Option<usize>>;
    /// A boolean, when written.
    fn bool(&self, key: &'static str) -> ParamResult<Option<bool>>;
    /// A string, when written.
    fn string(&self, key: &'static str) -> ParamResult<Option<&str>>;
    /// An array of finite numbers (a single number is a one-element array), when written.
    fn vector(&self, key: &'static str) -> ParamResult<Option<Vec<f64>>>;
    /// A matrix as rows of equal length (a flat array is one row per element), when written.
    fn rows(&self, key: &'static str) -> ParamResult<Option<Vec<Vec<f64>>>>;
    /// A nested table (`normal = { method = … }`) as a source of its own, when written.
    fn table(&self, key: &'static str) -> ParamResult<Option<Box<dyn ParamSource + '_>>>;
    /// Refuses the first key written but never asked for (with the nearest known key).
    fn finish(&self) -> ParamResult<()>;
}
