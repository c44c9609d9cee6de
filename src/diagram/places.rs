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
        for (offset, b) in order {
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
            places.at[b] = Some(Place {
                file,
                line_column: l.line_column.map(|(a, b)| (narrow(a), narrow(b))),
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
