//! Unit propagation: the unit of every element of every output, carried along the lines from
//! the blocks that declare one (a joint's `q`, a Constant's `unit = "rad"`) through the blocks
//! that pass it on (Mux, Selector, Sum of equal units, …; each block's rule is its
//! [`Block::output_units`], the table in `docs/model-format.md`).
//!
//! Units are worked out after shapes, before setup, and never change during a run; they only
//! label the recording's columns (plot panels and legends, the viewer, Python's `units`).

use super::thin_slice::ThinSlice;
use super::SignalLine;
use crate::block::{Block, Shape, UnitInputs, Units};

/// Each block's units per port: `[block][port]`.
pub(crate) type PortUnits = Vec<ThinSlice<Units>>;

/// How many more times than its outputs have elements one block's outputs may change before the
/// propagation stops revisiting it. The library's rules only ever turn an unknown unit into a
/// known one, so each change makes at least one element known and a block changes at most once
/// per element: the bound is a guard for a program's own rules that do not settle (such a loop
/// ends with the units of its last change), never reached by the library's.
const EXTRA_CHANGES_PER_BLOCK: usize = 2;

/// The blocks, shapes and lines unit propagation reads.
pub(crate) struct UnitGraph<'a> {
    /// Every block, in the diagram's order.
    blocks: Vec<&'a dyn Block>,
    /// Each block's input shapes.
    in_shapes: &'a [ThinSlice<Shape>],
    /// Each block's output shapes.
    out_shapes: &'a [ThinSlice<Shape>],
    /// Every signal line.
    lines: &'a [SignalLine],
    /// The lines into each block, by block index.
    lines_to: Vec<Vec<usize>>,
}

impl<'a> UnitGraph<'a> {
    /// The graph of `blocks` (in the diagram's order), their shapes and the lines between them.
    pub(crate) fn new(
        blocks: Vec<&'a dyn Block>,
        in_shapes: &'a [ThinSlice<Shape>],
        out_shapes: &'a [ThinSlice<Shape>],
        lines: &'a [SignalLine],
    ) -> Self {
        let mut lines_to: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (k, l) in lines.iter().enumerate() {
            lines_to[l.to].push(k);
        }
        UnitGraph {
            blocks,
            in_shapes,
            out_shapes,
            lines,
            lines_to,
        }
    }

    /// The output units of every block, to a fixed point: every block first gives its outputs'
    /// units from unknown inputs (a source's declared unit), then each block whose input units
    /// changed works its outputs out again, until none changes (a block's outputs change at most
    /// once per element, plus [`EXTRA_CHANGES_PER_BLOCK`]), so the result does not depend on the
    /// order the blocks are written in. Linear in the diagram's size for a diagram without
    /// feedback; each loop costs a few passes more.
    pub(crate) fn propagate(&self) -> PortUnits {
        let n = self.blocks.len();
        let mut lines_from: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, l) in self.lines.iter().enumerate() {
            lines_from[l.from].push(k);
        }
        // Kept as the compiled blocks keep them ([`ThinSlice`]): a block's list is made again
        // only when its units change (once for most blocks).
        let mut out: PortUnits = (0..n)
            .map(|b| {
                (0..self.out_shapes[b].len())
                    .map(|_| Units::Unknown)
                    .collect()
            })
            .collect();
        let mut changes = vec![0usize; n];
        let limit: Vec<usize> = (0..n)
            .map(|b| {
                let elements: usize = self.out_shapes[b].iter().map(|s| s.len()).sum();
                elements + EXTRA_CHANGES_PER_BLOCK
            })
            .collect();
        let mut queued = vec![true; n];
        let mut queue: std::collections::VecDeque<usize> = (0..n).collect();
        while let Some(b) = queue.pop_front() {
            queued[b] = false;
            let inputs = self.input_units(b, &out);
            let now = self.blocks[b].output_units(&self.io(b, &inputs));
            if now[..] == out[b][..] {
                continue;
            }
            out[b] = now.into();
            changes[b] += 1;
            if changes[b] > limit[b] {
                continue;
            }
            for &k in &lines_from[b] {
                let to = self.lines[k].to;
                if !queued[to] {
                    queued[to] = true;
                    queue.push_back(to);
                }
            }
        }
        out
    }

    /// Block `b`'s input units, given every block's output units: what each line brings
    /// (element `k` alone for a line from `block.port[k]`), unknown where nothing is connected.
    fn input_units(&self, b: usize, out: &PortUnits) -> Vec<Units> {
        let mut inputs = vec![Units::Unknown; self.in_shapes[b].len()];
        for l in self.lines_to[b].iter().map(|&k| &self.lines[k]) {
            let units = &out[l.from][l.from_port];
            inputs[l.to_port] = match l.index {
                Some(k) => units.element(k),
                None => units.clone(),
            };
        }
        inputs
    }

    /// What block `b`'s rules are given, for input units `inputs`.
    fn io<'u>(&'u self, b: usize, inputs: &'u [Units]) -> UnitInputs<'u> {
        UnitInputs {
            units: inputs,
            shapes: &self.in_shapes[b],
            outputs: &self.out_shapes[b],
        }
    }

    /// Each block's own warning about its input units ([`Block::unit_warning`], e.g. a Sum of
    /// a length and an angle), with the block's index, given the propagated units.
    pub(crate) fn warnings(&self, out: &PortUnits) -> Vec<(usize, String)> {
        (0..self.blocks.len())
            .filter_map(|b| {
                let inputs = self.input_units(b, out);
                let io = self.io(b, &inputs);
                self.blocks[b].unit_warning(&io).map(|m| (b, m))
            })
            .collect()
    }
}
