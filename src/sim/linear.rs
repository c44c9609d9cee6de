//! Linear fusion: Gain, Sum and plain Integrators evaluated as sparse sums over the signals and
//! states they read, without calling the blocks, when that costs less than calling them.
//!
//! A block with a [`LinearForm`] is *fused*. A fused integrator's output is its state, and its
//! derivative is one row of the fused derivative sum (`LinearPlan::derivative_sum`). A fused
//! memoryless block (Gain, Sum) is either
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
use crate::block::LinearForm;
use crate::diagram::Diagram;
use std::ops::Range;

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

/// A materialized block with at least this many output elements is evaluated as a
/// [`SparseSum`] (bands), with fewer as rows.
const MIN_SUM_OUTPUTS: usize = 8;

/// Coefficient products are kept within these magnitudes when blocks are inlined, so that
/// multiplying them in another association than the blocks do cannot overflow or underflow where
/// the blocks would not (a margin of 2⁶⁴ over the normal range covers the round-off of any
/// association).
const PRODUCT_MAX: f64 = 1.0e289; // < 2^960
const PRODUCT_MIN: f64 = 1.0e-289; // > 2^-960

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

/// What an expression term reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ref {
    Leaf(Leaf),
    /// An output element of an inlined block (a node of [`Graph`]).
    Node(u32),
}

/// The bounds of the coefficient products an expression brings, for the inlining test.
#[derive(Clone, Copy, Debug)]
struct Stats {
    /// Number of terms once flattened (saturating).
    size: u64,
    /// Largest and smallest non-zero magnitude of any product of coefficients from the node's
    /// terms down a path (every prefix of every path); `min` is ∞ when all are zero.
    max: f64,
    min: f64,
    /// Whether every coefficient is finite.
    finite: bool,
}

impl Stats {
    const LEAF: Stats = Stats {
        size: 1,
        max: 1.0,
        min: 1.0,
        finite: true,
    };

    /// Whether `c · (this expression)` keeps every product within the bounds.
    fn scalable_by(&self, c: f64) -> bool {
        if c == 1.0 || c == -1.0 {
            return true; // exact in any association
        }
        if !self.finite || !c.is_finite() {
            return false;
        }
        let c = c.abs();
        c == 0.0
            || (c * self.max <= PRODUCT_MAX
                && (self.min.is_infinite() || c * self.min >= PRODUCT_MIN))
    }

    /// Adds the term `c · (an expression with stats s)`.
    fn add(&mut self, c: f64, s: &Stats) {
        self.size = self.size.saturating_add(s.size);
        self.finite &= s.finite && c.is_finite();
        let a = c.abs();
        if a != 0.0 {
            self.max = self.max.max(a).max(a * s.max);
            self.min = self.min.min(a);
            if s.min.is_finite() {
                self.min = self.min.min(a * s.min);
            }
        }
    }

    const EMPTY: Stats = Stats {
        size: 0,
        max: 0.0,
        min: f64::INFINITY,
        finite: true,
    };
}

/// The expressions of fused memoryless blocks' output elements: one node per element, each a
/// list of `(Ref, c)` terms.
struct Graph {
    terms: Vec<(Ref, f64)>,
    /// Per node: its range in `terms`.
    range: Vec<Range<u32>>,
    stats: Vec<Stats>,
}

impl Graph {
    /// Appends the flattened terms of `c · r` to `out` (depth-first with an explicit stack, in
    /// term order; the products are formed from the top down).
    fn flatten(&self, r: Ref, c: f64, out: &mut Vec<(Leaf, f64)>, stack: &mut Vec<(Ref, f64)>) {
        stack.clear();
        stack.push((r, c));
        while let Some((r, c)) = stack.pop() {
            match r {
                Ref::Leaf(leaf) => out.push((leaf, c)),
                Ref::Node(n) => {
                    let range = self.range[n as usize].clone();
                    for &(r2, c2) in self.terms[range.start as usize..range.end as usize]
                        .iter()
                        .rev()
                    {
                        stack.push((r2, c * c2));
                    }
                }
            }
        }
    }
}

/// What produces a signal offset.
#[derive(Clone, Copy, PartialEq)]
enum Producer {
    /// No fused block (a called block, the zero region).
    Other,
    /// Element `k` of a fused integrator's output: state `state`.
    State(u32),
    /// Element `k` of the output of the memoryless block `b`.
    Memoryless { b: u32, k: u32 },
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

    /// Fuses every block with a linear form, inlining or materializing each memoryless one by the
    /// cost model (see the module documentation). Time and memory linear in the number of terms
    /// of the blocks' forms.
    pub fn build(d: &Diagram) -> LinearPlan {
        let blocks: Vec<&dyn crate::block::Block> = d.blocks.iter().map(|b| &*b.block).collect();
        Self::build_with(d, &blocks)
    }

    /// [`LinearPlan::build`] with the block instances a run dispatches to (the diagram's, or a
    /// parameter set's where it overrides them; see [`crate::diagram::parameters`]).
    pub fn build_with(d: &Diagram, blocks: &[&dyn crate::block::Block]) -> LinearPlan {
        let n = d.blocks.len();
        let forms: Vec<Option<LinearForm>> = d
            .blocks
            .iter()
            .zip(blocks)
            .map(
                |(b, block)| match block.linear_form(&b.input_shapes, &b.output_shapes) {
                    // One output, as both kinds have; anything else is called.
                    Some(LinearForm::Memoryless(terms)) if b.output_slots.len() == 1 => {
                        Some(LinearForm::Memoryless(terms))
                    }
                    Some(LinearForm::Integrator)
                        if b.output_slots.len() == 1
                            && b.input_slots.first().map(|s| s.len)
                                == Some(b.output_slots[0].len)
                            && b.states.len() == b.output_slots[0].len as usize =>
                    {
                        Some(LinearForm::Integrator)
                    }
                    _ => None,
                },
            )
            .collect();
        if forms.iter().all(Option::is_none) {
            return LinearPlan::none(d);
        }
        // What produces each signal offset.
        let mut producer = vec![Producer::Other; d.signal_len];
        for (b, blk) in d.blocks.iter().enumerate() {
            let slot = match forms[b] {
                Some(_) => blk.output_slots[0],
                None => continue,
            };
            for k in 0..slot.len {
                producer[(slot.offset + k) as usize] = match forms[b] {
                    Some(LinearForm::Integrator) => Producer::State((blk.states.start as u32) + k),
                    _ => Producer::Memoryless { b: b as u32, k },
                };
            }
        }
        // Node ids: one per output element of each memoryless block.
        let mut node_base = vec![u32::MAX; n];
        let mut nodes = 0u32;
        for b in 0..n {
            if let Some(LinearForm::Memoryless(_)) = forms[b] {
                node_base[b] = nodes;
                nodes += d.blocks[b].output_slots[0].len;
            }
        }
        let node_of = |offset: u32| -> Option<u32> {
            match producer.get(offset as usize) {
                Some(&Producer::Memoryless { b, k }) => Some(node_base[b as usize] + k),
                _ => None,
            }
        };
        // Uses: per node, how many terms of fused readers read it.
        let mut uses = vec![0u64; nodes as usize];
        for (b, blk) in d.blocks.iter().enumerate() {
            match &forms[b] {
                Some(LinearForm::Memoryless(terms)) => {
                    for t in terms {
                        let offset = blk.input_slots[t.input as usize].offset + t.col;
                        if let Some(node) = node_of(offset) {
                            uses[node as usize] += 1;
                        }
                    }
                }
                Some(LinearForm::Integrator) => {
                    let slot = blk.input_slots[0];
                    for k in 0..slot.len {
                        if let Some(node) = node_of(slot.offset + k) {
                            uses[node as usize] += 1;
                        }
                    }
                }
                None => {}
            }
        }
        // Outputs read from outside the fusion: by a called block's input (a fused integrator
        // reads its input only for its derivative, which is fused too), or recorded.
        let mut read_outside = vec![false; n];
        for l in &d.lines {
            if forms[l.to].is_none() {
                read_outside[l.from] = true;
            }
        }
        for &b in &d.run.output.recorded.logged_blocks {
            read_outside[b] = true;
        }

        // The expressions, in schedule order (every source comes first).
        let mut graph = Graph {
            terms: Vec::new(),
            range: vec![0..0; nodes as usize],
            stats: vec![Stats::EMPTY; nodes as usize],
        };
        let mut materialized = vec![false; n];
        let mut done = vec![false; n];
        // How a fused reader reads offset `o` with coefficient `c`: a leaf, or the inlined node.
        let resolve = |o: u32,
                       c: f64,
                       graph: &Graph,
                       done: &[bool],
                       materialized: &mut [bool]|
         -> (Ref, Stats) {
            match producer.get(o as usize).copied().unwrap_or(Producer::Other) {
                Producer::Other => (Ref::Leaf(Leaf::Signal(o)), Stats::LEAF),
                Producer::State(j) => (Ref::Leaf(Leaf::State(j)), Stats::LEAF),
                Producer::Memoryless { b, k } => {
                    let b = b as usize;
                    let node = node_base[b] + k;
                    let stats = graph.stats[node as usize];
                    if !done[b] || materialized[b] || !stats.scalable_by(c) {
                        materialized[b] = true;
                        (Ref::Leaf(Leaf::Signal(o)), Stats::LEAF)
                    } else {
                        (Ref::Node(node), stats)
                    }
                }
            }
        };
        let mut by_row: Vec<u32> = Vec::new();
        for &b in &d.schedule {
            let Some(LinearForm::Memoryless(terms)) = &forms[b] else {
                continue;
            };
            if std::mem::replace(&mut done[b], true) {
                continue;
            }
            let blk = &d.blocks[b];
            let n_out = blk.output_slots[0].len;
            // The terms grouped by output element, each group in form order.
            let mut count = vec![0u32; n_out as usize + 1];
            for t in terms {
                count[t.row as usize + 1] += 1;
            }
            for e in 0..n_out as usize {
                count[e + 1] += count[e];
            }
            by_row.clear();
            by_row.resize(terms.len(), 0);
            let mut next = count.clone();
            for (i, t) in terms.iter().enumerate() {
                by_row[next[t.row as usize] as usize] = i as u32;
                next[t.row as usize] += 1;
            }
            for e in 0..n_out {
                let node = (node_base[b] + e) as usize;
                let start = graph.terms.len() as u32;
                let mut stats = Stats::EMPTY;
                for &i in &by_row[count[e as usize] as usize..count[e as usize + 1] as usize] {
                    let t = terms[i as usize];
                    let offset = blk.input_slots[t.input as usize].offset + t.col;
                    let (r, s) = resolve(offset, t.c, &graph, &done, &mut materialized);
                    stats.add(t.c, &s);
                    graph.terms.push((r, t.c));
                }
                graph.range[node] = start..graph.terms.len() as u32;
                graph.stats[node] = stats;
            }
            // Inline unless that gives more terms than reading the written output.
            let (mut inline, mut written) = (0u64, 0u64);
            for e in 0..n_out {
                let node = (node_base[b] + e) as usize;
                let (size, u) = (graph.stats[node].size, uses[node]);
                inline = inline.saturating_add(size.saturating_mul(u));
                written = written.saturating_add(size.saturating_add(u));
            }
            if read_outside[b] || inline > written {
                materialized[b] = true;
            }
        }

        let mut plan = LinearPlan::none(d);
        let mut flat: Vec<(Leaf, f64)> = Vec::new();
        let mut stack: Vec<(Ref, f64)> = Vec::new();
        // The fused integrators' derivatives: target states, then (target, source, c) terms.
        let mut targets = Vec::new();
        let (mut signal_terms, mut state_terms) = (Vec::new(), Vec::new());
        for b in 0..n {
            match &forms[b] {
                Some(LinearForm::Memoryless(_)) if done[b] => {
                    plan.fused += 1;
                    if !materialized[b] {
                        plan.mode[b] = Mode::Skip;
                        continue;
                    }
                    plan.materialized += 1;
                    let out = d.blocks[b].output_slots[0];
                    let nodes = node_base[b]..node_base[b] + out.len;
                    if out.len as usize >= MIN_SUM_OUTPUTS {
                        let mut sum_signal = Vec::new();
                        let mut sum_state = Vec::new();
                        for (e, node) in nodes.enumerate() {
                            flat.clear();
                            graph.flatten(Ref::Node(node), 1.0, &mut flat, &mut stack);
                            for &(leaf, c) in &flat {
                                match leaf {
                                    Leaf::Signal(o) => sum_signal.push((e as u32, o, c)),
                                    Leaf::State(j) => sum_state.push((e as u32, j, c)),
                                }
                            }
                        }
                        let targets: Vec<u32> = (0..out.len).collect();
                        plan.mode[b] = Mode::Sum(plan.sums.len() as u32);
                        plan.sums
                            .push(SparseSum::new(&targets, &sum_signal, &sum_state));
                        plan.sum_scratch_len = plan.sum_scratch_len.max(out.len as usize);
                    } else {
                        let start = plan.rows.len() as u32;
                        for (e, node) in nodes.enumerate() {
                            flat.clear();
                            graph.flatten(Ref::Node(node), 1.0, &mut flat, &mut stack);
                            let row = plan.row(out.offset + e as u32, &flat);
                            plan.rows.push(row);
                        }
                        plan.mode[b] = Mode::Rows(start..plan.rows.len() as u32);
                    }
                }
                Some(LinearForm::Integrator) => {
                    let blk = &d.blocks[b];
                    let slot = blk.input_slots[0];
                    plan.fused += 1;
                    for k in 0..slot.len {
                        let target = blk.states.start as u32 + k;
                        targets.push(target);
                        let (r, _) =
                            resolve(slot.offset + k, 1.0, &graph, &done, &mut materialized);
                        flat.clear();
                        graph.flatten(r, 1.0, &mut flat, &mut stack);
                        for &(leaf, c) in &flat {
                            match leaf {
                                Leaf::Signal(o) => signal_terms.push((target, o, c)),
                                Leaf::State(j) => state_terms.push((target, j, c)),
                            }
                        }
                    }
                    plan.fused_integrator[b] = true;
                    plan.mode[b] = if read_outside[b] {
                        Mode::CopyStates
                    } else {
                        Mode::Skip
                    };
                }
                _ => {}
            }
        }
        // Reading with a coefficient of 1, an integrator never asks for a block to be
        // materialized after its mode was set.
        debug_assert!((0..n).all(|b| !materialized[b] || plan.mode[b] != Mode::Skip));
        plan.derivative_sum = SparseSum::new(&targets, &signal_terms, &state_terms);
        plan
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

    /// Stores the terms of `expr` and returns its row.
    fn row(&mut self, target: u32, expr: &[(Leaf, f64)]) -> Row {
        let (s0, x0) = (
            self.signal_terms.len() as u32,
            self.state_terms.len() as u32,
        );
        for &(leaf, c) in expr {
            match leaf {
                Leaf::Signal(o) => self.signal_terms.push((o, c)),
                Leaf::State(j) => self.state_terms.push((j, c)),
            }
        }
        Row {
            target,
            signal_terms: s0..self.signal_terms.len() as u32,
            state_terms: x0..self.state_terms.len() as u32,
        }
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
