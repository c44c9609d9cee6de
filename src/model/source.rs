//! A model file's text, kept to turn byte spans into `file:line:column`; or the label of a
//! model built in code, which has no lines.

use std::ops::Range;
use std::sync::Arc;

/// A byte range `start..end` of a [`SourceFile`] (the model file, then each file a subsystem
/// or Urdf instance includes, at its base), or no place ([`Span::NONE`]): a value given on the
/// command line (`--set`), or any value of a model built in code.
///
/// Two `u32` offsets, 8 bytes (an `Option<Range<usize>>` is 24), since every value of the model
/// tree carries one: at 20,000 URDF joints, 16 bytes saved on each of over a million spans.
/// Offsets fit: each text input is at most [`super::input_file::MAX_TEXT_FILE_BYTES`] (64 MiB),
/// and including a file (`SourceFile::include_as`) is refused when it would take the offsets
/// past [`Span::MAX_OFFSET`]. The empty marker is a start of `u32::MAX`, never a real offset.
///
/// `Clone` and not `Copy`, as the `Option<Range<usize>>` it replaces: the `span.clone()` written
/// throughout the crate stays as it was (a clone is a copy of 8 bytes).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// No place: a value from the command line or from code.
    pub const NONE: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// The largest offset a span holds (`u32::MAX − 1`, about 4 GiB).
    pub const MAX_OFFSET: usize = u32::MAX as usize - 1;

    /// The span of bytes `range` (`start <= end`); [`Span::NONE`] when an end is past
    /// [`Span::MAX_OFFSET`], which the input caps rule out (see the type's documentation).
    pub fn new(range: Range<usize>) -> Span {
        match (u32::try_from(range.start), u32::try_from(range.end)) {
            (Ok(start), Ok(end)) if start < u32::MAX && end < u32::MAX => Span { start, end },
            _ => Span::NONE,
        }
    }

    /// The byte range, or `None` for [`Span::NONE`].
    pub fn range(&self) -> Option<Range<usize>> {
        self.is_some()
            .then_some(self.start as usize..self.end as usize)
    }

    /// The first byte, or `None` for [`Span::NONE`].
    pub fn start(&self) -> Option<usize> {
        self.is_some().then_some(self.start as usize)
    }

    /// Whether the span is a place.
    pub fn is_some(&self) -> bool {
        self.start != u32::MAX
    }

    /// Whether the span is [`Span::NONE`].
    pub fn is_none(&self) -> bool {
        !self.is_some()
    }

    /// The span moved on by `base` bytes (a file's own span made a span of the source that
    /// includes it at `base`); [`Span::NONE`] stays so.
    pub fn shifted(&self, base: usize) -> Span {
        match self.range() {
            Some(r) => Span::new(r.start + base..r.end + base),
            None => Span::NONE,
        }
    }
}

/// Why a file's text was not included (`SourceFile::include_as`): the model's texts together
/// would take offsets past the largest a [`Span`] holds.
#[derive(Debug, thiserror::Error)]
#[error("the model's files and the {what} files it includes are more than {max} bytes of text together", max = Span::MAX_OFFSET)]
pub struct TooMuchText {
    /// The including block's type as messages name it (`subsystem`, `Urdf`).
    pub what: &'static str,
}

impl TooMuchText {
    /// What to do about it.
    pub const HINT: &'static str = "include a large file fewer times (each instance of a subsystem or Urdf block includes its file's text again)";
}

impl Default for Span {
    /// [`Span::NONE`], as `Option`'s default was.
    fn default() -> Span {
        Span::NONE
    }
}

impl std::fmt::Debug for Span {
    /// `Some(3..7)` or `None`, as the `Option<Range<usize>>` it replaces printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.range().fmt(f)
    }
}

impl From<Range<usize>> for Span {
    fn from(range: Range<usize>) -> Span {
        Span::new(range)
    }
}

impl From<Option<Range<usize>>> for Span {
    fn from(range: Option<Range<usize>>) -> Span {
        range.map_or(Span::NONE, Span::new)
    }
}

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
    /// The subsystem files included, one segment per instance, in the order of their bases
    /// (see `SourceFile::include`).
    included: Vec<Segment>,
}

/// One subsystem instance's file: offsets from `base` to `base + file.text.len()` are the
/// file's, shifted by `base`.
#[derive(Clone, Debug)]
struct Segment {
    base: usize,
    file: Arc<SourceFile>,
    /// The instance's full name (`leg1`, `leg1/foot`).
    instance: String,
    /// Where the instance's block was written (an offset of this source, maybe in a segment).
    at: Span,
    /// The instance's block type as messages name it (`subsystem`, `Urdf`).
    what: &'static str,
}

/// The last place a column was counted at: a file, the start of the line, the offset, and the
/// characters from the line's start to it (see [`SourceFile::locate_after`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ColumnCursor {
    /// The file (compared by address only, never read through).
    file: *const SourceFile,
    line_start: usize,
    /// The offset counted to (`None`: not a character boundary, nothing to resume from).
    at: Option<usize>,
    chars: usize,
}

impl Default for ColumnCursor {
    fn default() -> Self {
        ColumnCursor {
            file: std::ptr::null(),
            line_start: 0,
            at: None,
            chars: 0,
        }
    }
}

/// Where an offset of a [`SourceFile`] is: a file, a line and column in it, and the chain of
/// subsystem instances that included it, innermost first.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    /// The file's path as shown in messages.
    pub path: String,
    /// 1-based line and column in that file (`None` for a model built in code).
    pub line_column: Option<(usize, usize)>,
    /// `in subsystem 'leg1' (model.toml:12:1)` for each including instance, innermost first.
    pub included_from: Vec<String>,
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
            included: Vec::new(),
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

    /// Adds `file` as the text of the subsystem instance `instance`, whose block was written at
    /// `at` (an offset of this source). Returns the base to add to the file's own spans so that
    /// they become spans of this source.
    pub(crate) fn include(
        &mut self,
        file: Arc<SourceFile>,
        instance: &str,
        at: Span,
    ) -> Result<usize, TooMuchText> {
        self.include_as(file, instance, at, "subsystem")
    }

    /// Like [`SourceFile::include`], for an instance of the block type `what` (messages say
    /// `in Urdf 'robot' (model.toml:12:1)`). Refused when the included texts together would take
    /// offsets past [`Span::MAX_OFFSET`] (4 GiB: a 64 MiB file included 64 times); the caller
    /// locates the refusal at `at` (`Diagnostic::of_inclusion`).
    pub(crate) fn include_as(
        &mut self,
        file: Arc<SourceFile>,
        instance: &str,
        at: Span,
        what: &'static str,
    ) -> Result<usize, TooMuchText> {
        let base = match self.included.last() {
            Some(s) => s.base + s.file.text.len() + 1,
            None => self.text.len() + 1,
        };
        if base + file.text.len() > Span::MAX_OFFSET {
            return Err(TooMuchText { what });
        }
        self.included.push(Segment {
            base,
            file,
            instance: instance.to_string(),
            at,
            what,
        });
        Ok(base)
    }

    /// The segment holding `offset`, if it is in an included file.
    fn segment(&self, offset: usize) -> Option<&Segment> {
        let k = self.included.partition_point(|s| s.base <= offset);
        k.checked_sub(1).map(|k| &self.included[k])
    }

    /// Which text holds `offset`: 0 for the model's own, k for the k-th included file. Offsets
    /// with the same number share their file and the instances that included it (all of a
    /// [`Location`] but its line and column).
    pub(crate) fn segment_number(&self, offset: usize) -> usize {
        self.included.partition_point(|s| s.base <= offset)
    }

    /// The text at `span`, in whichever file holds it.
    pub(crate) fn slice(&self, span: &Range<usize>) -> Option<&str> {
        match self.segment(span.start) {
            Some(s) => s
                .file
                .text
                .get(span.start - s.base..span.end.checked_sub(s.base)?),
            None => self.text.get(span.clone()),
        }
    }

    /// The file, line and column of `offset`, and the subsystem instances that included it.
    pub fn locate(&self, offset: usize) -> Location {
        self.locate_after(offset, &mut ColumnCursor::default())
    }

    /// [`SourceFile::locate`], counting the column from `cursor` (the last place located) when
    /// `offset` is further along the same line: locating many offsets of one long line (a
    /// URDF file written on one line) in increasing order is then linear in the line's length.
    pub(crate) fn locate_after(&self, offset: usize, cursor: &mut ColumnCursor) -> Location {
        let mut location = match self.segment(offset) {
            Some(s) => Location {
                path: s.file.path.clone(),
                line_column: Some(s.file.line_column_after(offset - s.base, cursor)),
                included_from: Vec::new(),
            },
            None => Location {
                path: self.path.clone(),
                line_column: self
                    .has_lines()
                    .then(|| self.line_column_after(offset, cursor)),
                included_from: Vec::new(),
            },
        };
        let mut segment = self.segment(offset);
        // Each instance's block is written before (at a smaller offset than) its file's base, so
        // the chain ends; the bound guards against a malformed table.
        for _ in 0..=self.included.len() {
            let Some(s) = segment else { break };
            let parent = s.at.start();
            let place = match parent {
                Some(p) => {
                    let (path, lc) = match self.segment(p) {
                        Some(ps) => (&ps.file.path, ps.file.line_column(p - ps.base)),
                        None => (&self.path, self.line_column(p)),
                    };
                    format!(" ({path}:{}:{})", lc.0, lc.1)
                }
                None => String::new(),
            };
            location
                .included_from
                .push(format!("in {} '{}'{place}", s.what, s.instance));
            segment = parent.filter(|p| *p < s.base).and_then(|p| self.segment(p));
        }
        location
    }

    /// 1-based line and column (in characters) of byte `offset` in the file that holds it.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        self.line_column_after(offset, &mut ColumnCursor::default())
    }

    /// [`SourceFile::line_column`], counting from `cursor` when it is on the same line of the
    /// same file at or before `offset`; `cursor` is left at `offset`.
    pub(crate) fn line_column_after(
        &self,
        offset: usize,
        cursor: &mut ColumnCursor,
    ) -> (usize, usize) {
        if let Some(s) = self.segment(offset) {
            return s.file.line_column_after(offset - s.base, cursor);
        }
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let resumed = (std::ptr::eq(cursor.file, self) && cursor.line_start == start)
            .then(|| {
                let from = cursor.at.filter(|&at| at <= offset)?;
                let more = self.text.get(from..offset)?.chars().count();
                Some(cursor.chars + more)
            })
            .flatten();
        let chars = resumed.or_else(|| self.text.get(start..offset).map(|s| s.chars().count()));
        *cursor = ColumnCursor {
            file: self,
            line_start: start,
            at: chars.is_some().then_some(offset),
            chars: chars.unwrap_or(0),
        };
        (line + 1, chars.unwrap_or(offset - start) + 1)
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
    fn a_span_is_two_offsets_or_none() {
        // 8 bytes: what every value of the model tree carries (an Option<Range<usize>> is 24).
        assert_eq!(std::mem::size_of::<Span>(), 8);
        let s = Span::new(3..7);
        assert_eq!(s.range(), Some(3..7));
        assert_eq!(s.start(), Some(3));
        assert!(s.is_some() && !s.is_none());
        assert_eq!(Span::NONE.range(), None);
        assert!(Span::NONE.is_none());
        assert_eq!(Span::default(), Span::NONE);
        assert_eq!(Span::from(Some(0..0)), Span::new(0..0));
        assert_eq!(Span::from(None), Span::NONE);
        // Printed as the Option<Range<usize>> it replaces.
        assert_eq!(format!("{s:?}"), "Some(3..7)");
        assert_eq!(format!("{:?}", Span::NONE), "None");
        // Moved to a file's base; no place stays no place.
        assert_eq!(s.shifted(100).range(), Some(103..107));
        assert_eq!(Span::NONE.shifted(100), Span::NONE);
        // The largest offset is kept; one past it is no place (never reached: the inclusion is
        // refused first, see the test below).
        let last = Span::MAX_OFFSET;
        assert_eq!(Span::new(last..last).range(), Some(last..last));
        assert_eq!(Span::new(last..last + 1), Span::NONE);
    }

    #[test]
    fn an_inclusion_past_the_largest_offset_is_refused() {
        // A base is one past the previous text: once the first included file ends at the largest
        // offset, even a 6-byte file no longer fits. No 4 GiB text is allocated: the first
        // segment's base is moved up to where it would end there.
        let mut model = SourceFile::new("m.toml", "[blocks.leg]\ntype = \"subsystem\"\n");
        let big = Arc::new(SourceFile::new("big.toml", "x = 1\n"));
        let base = model
            .include(big.clone(), "leg", Span::new(0..12))
            .expect("a small file is included");
        assert_eq!(base, model.text.len() + 1);
        // Pretend the first inclusion ended just short of the largest offset.
        model.included[0].base = Span::MAX_OFFSET - big.text.len() - 1;
        let e = model
            .include(big, "leg2", Span::new(0..12))
            .expect_err("past the largest offset");
        assert_eq!(e.what, "subsystem");
        assert_eq!(
            e.to_string(),
            "the model's files and the subsystem files it includes are more than 4294967294 bytes of text together"
        );
        // Nothing was included.
        assert_eq!(model.included.len(), 1);
    }

    #[test]
    fn line_and_column_are_one_based() {
        let s = SourceFile::new("m.toml", "a = 1\nbb = 2\n");
        assert_eq!(s.line_column(0), (1, 1));
        assert_eq!(s.line_column(4), (1, 5));
        assert_eq!(s.line_column(6), (2, 1));
        assert_eq!(s.line_column(11), (2, 6));
    }

    #[test]
    fn a_column_counted_on_from_the_previous_place_is_the_column_counted_from_the_line() {
        // Multi-byte characters (2 and 3 bytes) before the places, two lines, an offset inside a
        // character (counted in bytes, as from the line's start), and offsets going back.
        let s = SourceFile::new("m.toml", "a = \"é→x\" b = 1 c = 2\nd = \"ü\" e = 3\n");
        let mut cursor = ColumnCursor::default();
        let offsets = [0, 4, 6, 9, 10, 13, 7, 18, 25, 30, 26, 31];
        for offset in offsets {
            assert_eq!(
                s.locate_after(offset, &mut cursor),
                s.locate(offset),
                "offset {offset}"
            );
        }
        assert_eq!(s.line_column(13), (1, 11));
    }
}
