//! Linear fusion: Gain, Sum and plain Integrators evaluated as sparse sums over the signals and
//! states they read, without calling the blocks, when that costs less than calling them.
//!
//! A block with a [`LinearForm`](crate::block::LinearForm) is *fused*. A fused integrator's
//! output is its state, and its derivative is one row of the fused derivative sum
//! (`LinearPlan::derivative_sum`). A fused memoryless block (Gain, Sum) is either
//! - **inlined**: each output element is an expression `Σ c·source` that its fused readers
//!   substitute for the element, so that nothing is written (a Gain feeding a Sum feeding an
//!   Integrator becomes part of the Integrator's derivative row); or
//! - **materialized**: its output is written by evaluating its rows (in schedule order, like a
//!   call), and fused readers read that signal as a leaf.
//!
//! A leaf is an element of the signal buffer (a called block's output, a materialized block's
//! output, an unconnected input's zeros) or an element of the state vector.
//!
//! **The cost model.** The plan is built in schedule order. Block-by-block, a memoryless block
//! costs one term per product of its form, and each of its readers one term per element it reads.
//! Inlining a block replaces, per output element, its `E` terms and the `U` reads of it by `U·E`
//! terms (`E` counting the terms its own inlined sources bring). A block is inlined when that is
//! not more: `Σ U·E ≤ Σ (E + U)` over its elements. So the fused plan never has more terms than
//! the block-by-block one, and building it takes time linear in that size: expressions are kept
//! as a graph of references (a block refers to the blocks it inlines, not to copies of their
//! terms) and flattened once, for the rows that are evaluated. A chain of running sums
//! (`s_k = s_{k−1} − x_k`, `ẋ_k = s_k`), whose every Sum would flatten to `k + 1` terms,
//! materializes every other Sum instead. A block whose output something outside the fusion
//! reads (a called block, `[output] log`) is always materialized.
//!
//! **Non-finite values.** The fused sums propagate NaN and infinity as the blocks would:
//! - no term is dropped or merged: a zero coefficient is kept (0·∞ = NaN, as the block gives),
//!   and `u − u` stays two terms (∞ − ∞ = NaN, not 0·∞ or 0);
//! - coefficients along a path are multiplied in a different association than the blocks use
//!   (`(k₁·k₂)·u` against `k₂·(k₁·u)`), which may only differ from the blocks by round-off if no
//!   product of coefficients overflows or underflows to zero. A block is inlined into a reader
//!   only when every product of coefficients it brings stays within `[2⁻⁹⁶⁰, 2⁹⁶⁰]` in magnitude
//!   (or is exactly zero from a zero factor); otherwise that reader reads it materialized.
//!
//! What remains different is round-off (sums are added in another order and coefficients
//! multiplied first) and values so large or small that the blocks' intermediate results would
//! overflow or underflow where the fused ones do not (or the reverse).

use super::sparse_sum::SparseSum;
use crate::diagram::Diagram;
use std::ops::Range;

mod build;

/// Where a term's value comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// An element of the signal buffer (a called or materialized block's output).
    Signal(u32),
    /// An element of the state vector (a fused integrator's state).
    State(u32),
}

/// One output element of a fused memoryless block written by rows:
/// `signals[target] ← Σ c·signals[i] + Σ c·x[j]`.
#[derive(Clone, Debug)]
pub struct Row {
    /// Signal offset of the output element it writes.
    pub target: u32,
    /// Range in [`LinearPlan::signal_terms`].
    pub signal_terms: Range<u32>,
    /// Range in [`LinearPlan::state_terms`].
    pub state_terms: Range<u32>,
}

/// How the engine evaluates a block's outputs.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Call the block.
    Dispatch,
    /// Evaluate these rows (a materialized block with few output elements).
    Rows(Range<u32>),
    /// Evaluate this sum of `LinearPlan::sums` into the block's output (a materialized block
    /// with many output elements, whose terms form vectorizable bands).
    Sum(u32),
    /// Nothing to do (an inlined block, or an integrator whose output nobody outside reads).
    Skip,
    /// Copy the block's states to its output (a fused integrator whose output is read).
    CopyStates,
}

/// The fused evaluation of a diagram.
#[derive(Clone, Debug)]
pub struct LinearPlan {
    /// Per block.
    pub mode: Vec<Mode>,
    /// Output rows of materialized blocks evaluated as rows.
    pub rows: Vec<Row>,
    /// Output sums of materialized blocks evaluated as sums (targets relative to the output).
    pub(crate) sums: Vec<SparseSum>,
    /// Per block: whether it is an integrator whose derivative is part of `derivative_sum`.
    pub fused_integrator: Vec<bool>,
    /// `(signal offset, coefficient)` terms of all rows.
    pub signal_terms: Vec<(u32, f64)>,
    /// `(state index, coefficient)` terms of all rows.
    pub state_terms: Vec<(u32, f64)>,
    /// Number of fused blocks.
    pub fused: usize,
    /// Number of fused memoryless blocks whose outputs are written (rows or sums).
    pub materialized: usize,
    /// The fused integrators' derivatives as one sparse sum.
    pub(crate) derivative_sum: SparseSum,
    /// The longest output of a block evaluated as a sum (the engine's scratch for it).
    pub sum_scratch_len: usize,
}

impl LinearPlan {
    /// No fusion: every block is called.
    pub fn none(d: &Diagram) -> LinearPlan {
        LinearPlan {
            mode: vec![Mode::Dispatch; d.blocks.len()],
            rows: Vec::new(),
            sums: Vec::new(),
            fused_integrator: vec![false; d.blocks.len()],
            signal_terms: Vec::new(),
            state_terms: Vec::new(),
            fused: 0,
            materialized: 0,
            derivative_sum: SparseSum::default(),
            sum_scratch_len: 0,
        }
    }

    /// Writes every fused integrator's derivative into `dxdt` (see `sim/sparse_sum.rs` for
    /// how the terms are laid out).
    #[inline]
    pub fn derivatives(&self, signals: &[f64], x: &[f64], dxdt: &mut [f64]) {
        self.derivative_sum.evaluate(signals, x, dxdt);
    }

    /// Number of terms evaluated per evaluation of the outputs and derivatives.
    pub fn terms(&self) -> usize {
        self.signal_terms.len()
            + self.state_terms.len()
            + self.sums.iter().map(SparseSum::len).sum::<usize>()
            + self.derivative_sum.len()
    }

    /// The value of a row. The sum starts from −0, the identity of addition, so that a row of
    /// one term is that term bit for bit (−0 included), as the block would write it.
    #[inline(always)]
    pub fn eval(&self, row: &Row, signals: &[f64], x: &[f64]) -> f64 {
        let mut acc = -0.0;
        for &(o, c) in
            &self.signal_terms[row.signal_terms.start as usize..row.signal_terms.end as usize]
        {
            acc += c * signals[o as usize];
        }
        for &(j, c) in
            &self.state_terms[row.state_terms.start as usize..row.state_terms.end as usize]
        {
            acc += c * x[j as usize];
        }
        acc
    }
}
