//! The signal buffer's layout: where each block's outputs live and where each input reads.

use super::thin_slice::ThinSlice;
use super::SignalLine;
use crate::block::{Shape, Slot};

/// The signal buffer's layout: outputs contiguous in block order, then a zero region that every
/// unconnected (optional) input reads.
pub(super) struct Layout {
    pub(super) output_slots: Vec<ThinSlice<Slot>>,
    pub(super) input_slots: Vec<ThinSlice<Slot>>,
    pub(super) signal_len: usize,
}

impl Layout {
    /// The layout of blocks with these input and output shapes, joined by `lines`.
    pub(super) fn new(
        in_shapes: &[ThinSlice<Shape>],
        out_shapes: &[ThinSlice<Shape>],
        lines: &[SignalLine],
    ) -> Layout {
        let mut offset = 0usize;
        let mut output_slots = Vec::with_capacity(out_shapes.len());
        for shapes in out_shapes {
            let slots: ThinSlice<Slot> = shapes
                .iter()
                .map(|s| {
                    let slot = Slot {
                        offset: offset as u32,
                        len: s.len() as u32,
                    };
                    offset += s.len();
                    slot
                })
                .collect();
            output_slots.push(slots);
        }
        let zero_offset = offset;
        let zero_len = in_shapes
            .iter()
            .flatten()
            .map(|s| s.len())
            .max()
            .unwrap_or(0);
        let mut input_slots: Vec<ThinSlice<Slot>> = in_shapes
            .iter()
            .map(|v| {
                v.iter()
                    .map(|s| Slot {
                        offset: zero_offset as u32,
                        len: s.len() as u32,
                    })
                    .collect()
            })
            .collect();
        for l in lines {
            let src = output_slots[l.from][l.from_port];
            input_slots[l.to][l.to_port] = match l.index {
                Some(i) => Slot {
                    offset: src.offset + i as u32,
                    len: 1,
                },
                None => src,
            };
        }
        Layout {
            output_slots,
            input_slots,
            signal_len: offset + zero_len,
        }
    }
}
