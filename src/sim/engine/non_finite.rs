//! The block to blame for a non-finite output or derivative, found after the fact.

use crate::diagram::Diagram;

/// What went non-finite in a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NonFiniteValue {
    /// The block's output with this index.
    Output(usize),
    /// The derivative of the block's state with this index (within the block).
    Derivative(usize),
}

/// The first block found producing a non-finite value, and when. Stored as indices (nothing is
/// formatted during a run: the solver may recover from the stage); [`NonFiniteSource::describe`]
/// names them for a message.
#[derive(Clone, Debug, PartialEq)]
pub struct NonFiniteSource {
    /// Index of the block in the diagram.
    pub block: usize,
    /// Which of its values.
    pub value: NonFiniteValue,
    /// s.
    pub t: f64,
}

impl NonFiniteSource {
    /// The block's name and what went bad: `"output 'out'"` or `"derivative of x[0]"`.
    pub fn describe(&self, diagram: &Diagram) -> (String, String) {
        let blk = &diagram.blocks[self.block];
        let what = match self.value {
            NonFiniteValue::Output(o) => format!("output '{}'", blk.block.outputs()[o].name),
            NonFiniteValue::Derivative(k) => format!("derivative of {}", blk.block.state_name(k)),
        };
        (blk.name.clone(), what)
    }

    /// The block whose output (in `signals`) or derivative (in `dxdt`) first went non-finite at
    /// `t`: outputs in schedule order first, then the first non-finite derivative's block.
    pub(super) fn first_in(
        diagram: &Diagram,
        signals: &[f64],
        dxdt: &[f64],
        t: f64,
    ) -> Option<NonFiniteSource> {
        for &b in &diagram.schedule {
            let blk = &diagram.blocks[b];
            for (o, slot) in blk.output_slots.iter().enumerate() {
                if signals[slot.range()].iter().any(|v| !v.is_finite()) {
                    return Some(NonFiniteSource {
                        block: b,
                        value: NonFiniteValue::Output(o),
                        t,
                    });
                }
            }
        }
        let k = dxdt.iter().position(|v| !v.is_finite())?;
        let b = diagram.block_index_of_state(k)?;
        Some(NonFiniteSource {
            block: b,
            value: NonFiniteValue::Derivative(k - diagram.blocks[b].states.start),
            t,
        })
    }
}
