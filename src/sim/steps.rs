//! The evaluation program: what the engine does for each scheduled block, with everything it
//! reads resolved once when the engine is made.
//!
//! A minor step walks a list of [`Step`]s instead of the schedule's block indices, so that the
//! loop reads one compact, contiguous record per block: no lookup of the block's evaluation mode
//! in the fusion plan, no visit to its [`crate::diagram::CompiledBlock`] (a few hundred bytes
//! each, spread over the heap) for its slots and ranges, and a fused integrator's one-element
//! output copied as a scalar rather than through `memcpy`. On a 1000-block diagram of small
//! blocks these lookups were the larger part of the engine's own cost per block.

use super::linear::{LinearPlan, Mode};
use crate::block::{Block, ScalarFunction, ScalarKernel, Slot};
use crate::diagram::Diagram;
use std::ops::Range;

/// One block's work in an evaluation of the outputs.
pub(super) enum Step<'d> {
    /// Call the block's `outputs_eval`.
    Call(Call<'d>),
    /// Evaluate these rows of the plan ([`Mode::Rows`]).
    Rows(Range<u32>),
    /// Evaluate this sum of the plan into `output` ([`Mode::Sum`]).
    Sum { sum: u32, output: Range<usize> },
    /// A block's [`ScalarKernel::Clamp`]: `signals[output] = signals[input].max(lower).min(upper)`.
    Clamp {
        input: usize,
        output: usize,
        lower: f64,
        upper: f64,
    },
    /// A block's [`ScalarKernel::Product2`].
    Product2 {
        inputs: [usize; 2],
        divide: [bool; 2],
        output: usize,
    },
    /// A block's [`ScalarKernel::Function`]: `signals[output] = f(signals[input], t)`.
    Function {
        function: &'d dyn ScalarFunction,
        input: usize,
        output: usize,
    },
    /// A fused integrator with one state: `signals[output] = x[state]`.
    CopyState { output: usize, state: usize },
    /// A fused integrator with several states: `signals[output] = x[states]`.
    CopyStates {
        output: Range<usize>,
        states: Range<usize>,
    },
}

/// A called block with its slots and ranges: what [`crate::block::Ctx`] is made of.
pub(super) struct Call<'d> {
    pub block: &'d dyn Block,
    /// Its index in the diagram (for its scratch space).
    pub index: usize,
    pub inputs: &'d [Slot],
    pub outputs: &'d [Slot],
    pub states: Range<usize>,
    pub work: Range<usize>,
}

impl<'d> Step<'d> {
    /// Whether it evaluates a block's [`ScalarKernel`] in place.
    pub(super) fn is_kernel(&self) -> bool {
        matches!(
            self,
            Step::Clamp { .. } | Step::Product2 { .. } | Step::Function { .. }
        )
    }

    /// The step for block `b` evaluated as `mode`, dispatching to `block` (the diagram's
    /// instance or a parameter set's); `None` when the block is skipped. A called block's
    /// [`ScalarKernel`] is evaluated in place when `kernels` (and its ports are scalars).
    pub(super) fn of(
        diagram: &'d Diagram,
        plan: &LinearPlan,
        b: usize,
        block: &'d dyn Block,
        kernels: bool,
    ) -> Option<Self> {
        let compiled = &diagram.blocks[b];
        Some(match &plan.mode[b] {
            Mode::Skip => return None,
            Mode::Dispatch => {
                // A kernel stands for outputs_eval only: a block with states or work slots is
                // called whatever it declares.
                let memoryless = compiled.states.is_empty() && compiled.work.is_empty();
                let kernel = (kernels && memoryless)
                    .then(|| block.scalar_kernel())
                    .flatten();
                match kernel
                    .and_then(|k| Self::kernel(k, &compiled.input_slots, &compiled.output_slots))
                {
                    Some(step) => step,
                    None => Step::Call(Call {
                        block,
                        index: b,
                        inputs: &compiled.input_slots,
                        outputs: &compiled.output_slots,
                        states: compiled.states.clone(),
                        work: compiled.work.clone(),
                    }),
                }
            }
            Mode::Rows(rows) => Step::Rows(rows.clone()),
            Mode::Sum(k) => Step::Sum {
                sum: *k,
                output: compiled.output_slots[0].range(),
            },
            Mode::CopyStates => {
                let output = compiled.output_slots[0].range();
                let states = compiled.states.clone();
                if output.len() == 1 && states.len() == 1 {
                    Step::CopyState {
                        output: output.start,
                        state: states.start,
                    }
                } else {
                    Step::CopyStates { output, states }
                }
            }
        })
    }

    /// The in-place step of `kernel` for these slots, when they have the one element each that a
    /// kernel reads and writes (an unconnected optional input has none: the block is called).
    fn kernel(kernel: ScalarKernel<'d>, inputs: &[Slot], outputs: &[Slot]) -> Option<Self> {
        let scalar = |slot: &Slot| slot.len == 1;
        if inputs.len() != kernel.inputs()
            || !inputs.iter().all(scalar)
            || outputs.len() != 1
            || !scalar(&outputs[0])
        {
            return None;
        }
        let output = outputs[0].offset as usize;
        Some(match kernel {
            ScalarKernel::Clamp { lower, upper } => Step::Clamp {
                input: inputs[0].offset as usize,
                output,
                lower,
                upper,
            },
            ScalarKernel::Product2 { divide } => Step::Product2 {
                inputs: [inputs[0].offset as usize, inputs[1].offset as usize],
                divide,
                output,
            },
            ScalarKernel::Function(function) => Step::Function {
                function,
                input: inputs[0].offset as usize,
                output,
            },
        })
    }
}
