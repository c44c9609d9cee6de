//! A model file's text, kept to turn byte spans into `file:line:column`; or the label of a
//! model built in code, which has no lines.

use std::ops::Range;

/// A byte range in the model file; `None` for values given on the command line (`--set`) and
/// for every value of a model built in code.
pub type Span = Option<Range<usize>>;

/// The text of a model file and its path (as the user wrote it), or the label of a model built
/// in code ([`SourceFile::in_code`]), whose values have no place in a text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path shown in messages.
    pub path: String,
    /// The whole file; for a model built in code, the model written out as TOML, for display
    /// (no span points into it).
    pub text: String,
    line_starts: Vec<usize>,
    /// The model was built in code: no span has a line.
    in_code: bool,
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
            in_code: false,
        }
    }

    /// A model built in code, called `label` in messages (which then give no line or column),
    /// with `text` the model written out (shown, never pointed into).
    pub fn in_code(label: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            in_code: true,
            ..SourceFile::new(label, text)
        }
    }

    /// Whether spans are places in a text (`false` for a model built in code).
    pub fn has_lines(&self) -> bool {
        !self.in_code
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

/// The line of `text` whose key (a `[header]`'s or a `key = value`'s) has the most dotted parts,
/// as (the key's byte range, its number of parts); dots inside quotes do not count. `None` when
/// no key has a dot.
pub(crate) fn deepest_dotted_key(text: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let mut best: Option<(std::ops::Range<usize>, usize)> = None;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let key = line[indent..].trim_start_matches('[');
        let key_at =
            start + line.len() - line.trim_start().len() + (line[indent..].len() - key.len());
        let (mut dots, mut quote, mut end) = (0, None, key.len());
        for (k, c) in key.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '.') => dots += 1,
                (None, ']' | '=' | '#') => {
                    end = k;
                    break;
                }
                _ => {}
            }
        }
        if dots > 0 && best.as_ref().is_none_or(|(_, parts)| dots + 1 > *parts) {
            best = Some((key_at..key_at + end.min(key.trim_end().len()), dots + 1));
        }
        start += line.len();
    }
    best
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
