//! Where each block was written, located when the diagram is built (file, line, column, and the
//! subsystem or Urdf instances that included it), so that a message after the build (a
//! linearization's unknown port) names the place without the model's text.

use crate::model::source::ColumnCursor;
use crate::model::{Diagnostic, Location, SourceFile, Span};
use std::collections::HashMap;

/// The located place of every block of a diagram, by block index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Places {
    /// The model's path as messages show it (a block without a place is reported in it).
    path: String,
    /// The distinct files with their including instances, as [`Location`] gives them.
    files: Vec<PlaceFile>,
    /// Each block's place (`None`: written nowhere, or a model built in code).
    at: Vec<Option<Place>>,
}

/// A file and the chain of instances that included it (`in subsystem 'leg1' (model.toml:12:1)`,
/// innermost first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PlaceFile {
    path: String,
    included_from: Vec<String>,
}

/// A block's place: its file (an index into [`Places::files`]) and 1-based line and column.
#[derive(Clone, Copy, Debug)]
struct Place {
    file: u32,
    line_column: Option<(u32, u32)>,
}

impl Places {
    /// The places of the blocks written at `spans` in `source`, located as [`Diagnostic::at`]
    /// locates them. The spans are located in the order of their offsets, each column counted on
    /// from the previous one's: linear in the text even when every block is on one long line (a
    /// URDF file written on one line).
    pub(crate) fn locate<'a>(source: &SourceFile, spans: impl Iterator<Item = &'a Span>) -> Places {
        let mut places = Places {
            path: source.path.clone(),
            ..Places::default()
        };
        let mut order: Vec<(usize, usize)> = Vec::new();
        for (b, span) in spans.enumerate() {
            places.at.push(None);
            if let Some(r) = span.range().filter(|_| source.has_lines()) {
                order.push((r.start, b));
            }
        }
        order.sort_unstable();
        let mut index: HashMap<PlaceFile, u32> = HashMap::new();
        let mut cursor = ColumnCursor::default();
        let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        // The file and its including instances are the same for every offset of one text: they
        // are located (formatted, hashed) once per run of offsets in it, and only the line and
        // column for the others (at 20,000 joints, 120,004 blocks in one URDF file: 5 % of
        // `check`'s instructions went to locating the same file again).
        let mut last: Option<(usize, u32)> = None;
        for (offset, b) in order {
            let segment = source.segment_number(offset);
            let (file, line_column) = match last {
                Some((s, file)) if s == segment => {
                    (file, Some(source.line_column_after(offset, &mut cursor)))
                }
                _ => {
                    let l = source.locate_after(offset, &mut cursor);
                    let key = PlaceFile {
                        path: l.path,
                        included_from: l.included_from,
                    };
                    let next = narrow(places.files.len());
                    let file = *index.entry(key).or_insert_with_key(|key| {
                        places.files.push(key.clone());
                        next
                    });
                    last = Some((segment, file));
                    (file, l.line_column)
                }
            };
            places.at[b] = Some(Place {
                file,
                line_column: line_column.map(|(a, b)| (narrow(a), narrow(b))),
            });
        }
        places
    }

    /// A problem at the place of block `b`, as [`Diagnostic::at`] would give at its span.
    pub(crate) fn diagnostic(&self, b: usize, message: impl Into<String>) -> Diagnostic {
        let location = self.at.get(b).copied().flatten().map(|p| {
            let f = &self.files[p.file as usize];
            Location {
                path: f.path.clone(),
                line_column: p.line_column.map(|(a, b)| (a as usize, b as usize)),
                included_from: f.included_from.clone(),
            }
        });
        Diagnostic::located(&self.path, location, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The places located once per file and then by line and column only are where
    /// [`SourceFile::locate`] puts each span on its own: in the model's text, in an included
    /// file, in a file included from that one (two instances in the chain), with the spans given
    /// out of order and several on one line.
    #[test]
    fn places_are_where_each_span_is_located_alone() {
        let mut source = SourceFile::new(
            "m.toml",
            "[blocks.leg]\ntype = \"subsystem\"\n[blocks.arm]\ntype = \"Urdf\"\n",
        );
        let leg = Arc::new(SourceFile::new(
            "leg.toml",
            "[blocks.knee]\ntype = \"Gain\"\n[blocks.foot]\ntype = \"subsystem\"\n",
        ));
        let leg_base = source.include(leg, "leg", Span::new(0..12)).unwrap();
        let foot = Arc::new(SourceFile::new("foot.toml", "a b c\nd e\n"));
        let foot_at = leg_base + 29;
        let foot_base = source
            .include(foot, "leg/foot", Span::new(foot_at..foot_at + 13))
            .unwrap();
        let arm = Arc::new(SourceFile::new(
            "arm.urdf",
            "<robot><link/><joint/></robot>",
        ));
        let arm_base = source
            .include_as(arm, "arm", Span::new(33..45), "Urdf")
            .unwrap();
        let offsets = [
            arm_base + 14,
            0,
            foot_base + 8,
            leg_base + 29,
            arm_base + 7,
            foot_base,
            33,
            leg_base,
            foot_base + 2,
            arm_base,
        ];
        let spans: Vec<Span> = offsets.iter().map(|&o| Span::new(o..o + 1)).collect();
        let mut spans_with_none = spans.clone();
        spans_with_none.push(Span::NONE);
        let places = Places::locate(&source, spans_with_none.iter());
        for (b, &offset) in offsets.iter().enumerate() {
            let alone = source.locate(offset);
            let place = places.at[b].expect("a span in the text has a place");
            let file = &places.files[place.file as usize];
            assert_eq!(file.path, alone.path, "block {b}");
            assert_eq!(file.included_from, alone.included_from, "block {b}");
            let line_column = place.line_column.map(|(l, c)| (l as usize, c as usize));
            assert_eq!(line_column, alone.line_column, "block {b}");
        }
        assert!(places.at[offsets.len()].is_none(), "no span, no place");
        // One entry per file and chain of instances: the model, leg, foot and arm.
        assert_eq!(places.files.len(), 4);
        assert_eq!(
            places
                .files
                .iter()
                .filter(|f| f.included_from.len() == 2)
                .count(),
            1
        );
    }
}
