//! Which signals a run records (every Scope input and every `[output] log` entry) and where they
//! live in the signal buffer.

use crate::diagram::Diagram;
use crate::model::diagnostic::closest;
use crate::model::{Diagnostic, PortRef};
use crate::output::{Column, Recording};

/// Columns to record and the signal-buffer offset of each.
pub struct Recorder {
    pub recording: Recording,
    offsets: Vec<usize>,
    row: Vec<f64>,
}

/// Rows reserved up front for a recording.
pub const RESERVED_ROWS: usize = 4096;
/// The most memory reserved up front for a recording's values (bytes).
pub const RESERVED_BYTES: usize = 64 << 20;

/// Panel titles, columns, and the signal-buffer offset of each column.
type Layout = (Vec<String>, Vec<Column>, Vec<usize>);

impl Recorder {
    /// The columns of every Scope's inputs (one panel per Scope, in model order), then the logged
    /// signals, with room reserved for [`RESERVED_ROWS`] rows (so that short runs record without
    /// allocating), but never more than [`RESERVED_BYTES`] of values: a recording of a million
    /// columns reserves a few rows, not 32 GB.
    pub fn new(d: &Diagram) -> Result<Recorder, Diagnostic> {
        let (panels, columns, offsets) = Self::resolve(d)?;
        let mut recording = Recording::new(panels, columns);
        let row_bytes = std::mem::size_of::<f64>() * offsets.len().max(1);
        let rows = RESERVED_ROWS.min(RESERVED_BYTES / row_bytes).max(1);
        recording.times.reserve(rows);
        recording.values.reserve(rows * offsets.len());
        let row = vec![0.0; offsets.len()];
        Ok(Recorder {
            recording,
            offsets,
            row,
        })
    }

    /// Checks that every recorded signal exists (the `[output] log` names), without reserving
    /// anything: what building a model needs.
    pub fn check(d: &Diagram) -> Result<(), Diagnostic> {
        Self::resolve(d).map(|_| ())
    }

    /// Panels, columns and the signal-buffer offset of each column.
    fn resolve(d: &Diagram) -> Result<Layout, Diagnostic> {
        let mut panels = Vec::new();
        let mut columns = Vec::new();
        let mut offsets = Vec::new();
        for (b, blk) in d.blocks.iter().enumerate() {
            if !blk.block.records_inputs() {
                continue;
            }
            let panel = panels.len();
            panels.push(blk.name.clone());
            for (i, _) in blk.block.inputs().iter().enumerate() {
                let Some(line) = d.lines.iter().find(|l| l.to == b && l.to_port == i) else {
                    continue;
                };
                let src = &d.blocks[line.from];
                let port = &src.block.outputs()[line.from_port];
                let base = format!("{}.{}", src.name, port.name);
                let slot = src.output_slots[line.from_port];
                match line.index {
                    Some(k) => {
                        columns.push(Column {
                            name: format!("{base}[{k}]"),
                            unit: port.unit.map(str::to_string),
                            panel: Some(panel),
                        });
                        offsets.push(slot.offset as usize + k);
                    }
                    None => {
                        let shape = src.output_shapes[line.from_port];
                        for k in 0..shape.len() {
                            columns.push(Column {
                                name: shape.element_name(&base, k),
                                unit: port.unit.map(str::to_string),
                                panel: Some(panel),
                            });
                            offsets.push(slot.offset as usize + k);
                        }
                    }
                }
            }
        }
        for (name, span) in &d.spec.output.log {
            let r = parse_log_name(name).ok_or_else(|| {
                Diagnostic::at(
                    &d.source,
                    span,
                    format!("'{name}' in [output] log is not a signal name"),
                )
                .hint("write \"block.port\" or \"block.port[i]\"")
            })?;
            let Some(b) = d.block_index(&r.block) else {
                let d2 = Diagnostic::at(
                    &d.source,
                    span,
                    format!(
                        "[output] log names '{name}', but there is no block '{}'",
                        r.block
                    ),
                );
                return Err(
                    match closest(&r.block, d.blocks.iter().map(|b| b.name.as_str())) {
                        Some(near) => d2.hint(format!("did you mean '{near}'?")),
                        None => d2,
                    },
                );
            };
            let blk = &d.blocks[b];
            let Some(o) = blk
                .output_index(&r.port)
                .filter(|&o| !blk.block.outputs()[o].is_hidden())
            else {
                let outs: Vec<&str> = blk
                    .block
                    .outputs()
                    .iter()
                    .filter(|p| !p.is_hidden())
                    .map(|p| p.name.as_str())
                    .collect();
                let d2 = Diagnostic::at(
                    &d.source,
                    span,
                    format!(
                        "[output] log names '{name}', but block '{}' has no output '{}'",
                        r.block, r.port
                    ),
                )
                .block(&r.block);
                return Err(match closest(&r.port, outs.iter().copied()) {
                    Some(near) => d2.hint(format!("did you mean '{}.{near}'?", r.block)),
                    None => d2.hint(format!("its outputs are: {}", outs.join(", "))),
                });
            };
            let port = &blk.block.outputs()[o];
            let shape = blk.output_shapes[o];
            let slot = blk.output_slots[o];
            let base = format!("{}.{}", blk.name, port.name);
            let elements: Vec<(String, usize)> = match r.index {
                Some(k) if k >= shape.len() => {
                    return Err(Diagnostic::at(
                        &d.source,
                        span,
                        format!("'{name}' is out of range: {base} is {shape}"),
                    )
                    .block(&r.block))
                }
                Some(k) => vec![(format!("{base}[{k}]"), k)],
                None => (0..shape.len())
                    .map(|k| (shape.element_name(&base, k), k))
                    .collect(),
            };
            for (col, k) in elements {
                if columns.iter().any(|c: &Column| c.name == col) {
                    continue;
                }
                columns.push(Column {
                    name: col,
                    unit: port.unit.map(str::to_string),
                    panel: None,
                });
                offsets.push(slot.offset as usize + k);
            }
        }
        Ok((panels, columns, offsets))
    }

    /// Appends a row read from the signal buffer.
    pub fn push(&mut self, t: f64, signals: &[f64]) {
        for (v, &o) in self.row.iter_mut().zip(&self.offsets) {
            *v = signals[o];
        }
        self.recording.push_row(t, &self.row);
    }

    /// Number of recorded columns.
    pub fn num_columns(&self) -> usize {
        self.offsets.len()
    }
}

fn parse_log_name(name: &str) -> Option<PortRef> {
    let (head, index) = match name.split_once('[') {
        Some((h, rest)) => (h, Some(rest.strip_suffix(']')?.trim().parse().ok()?)),
        None => (name, None),
    };
    let (block, port) = head.trim().split_once('.')?;
    Some(PortRef {
        block: block.to_string(),
        port: port.to_string(),
        index,
    })
}
