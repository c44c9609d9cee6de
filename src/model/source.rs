//! A model file's text, kept to turn byte spans into `file:line:column`.

use std::ops::Range;

/// A byte range in the model file; `None` for values given on the command line (`--set`).
pub type Span = Option<Range<usize>>;

/// The text of a model file and its path (as the user wrote it).
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path shown in messages.
    pub path: String,
    /// The whole file.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps `text` read from `path`.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count())
            + 1;
        (line + 1, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let s = SourceFile::new("m.toml", "a = 1\nbb = 2\n");
        assert_eq!(s.line_column(0), (1, 1));
        assert_eq!(s.line_column(4), (1, 5));
        assert_eq!(s.line_column(6), (2, 1));
        assert_eq!(s.line_column(11), (2, 6));
    }
}
