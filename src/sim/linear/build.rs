//! Building a [`LinearPlan`]: which blocks fuse, the expressions of the fused memoryless
//! blocks and the cost model's inlining decisions (see the parent module's documentation), and
//! the rows and sums the plan evaluates.

use super::{Leaf, LinearPlan, Mode, Row};
use crate::block::{LinearForm, LinearTerm};
use crate::diagram::Diagram;
use crate::sim::sparse_sum::SparseSum;
use std::ops::Range;

/// A materialized block with at least this many output elements is evaluated as a
/// [`SparseSum`] (bands), with fewer as rows.
const MIN_SUM_OUTPUTS: usize = 8;

/// Coefficient products are kept within these magnitudes when blocks are inlined, so that
/// multiplying them in another association than the blocks do cannot overflow or underflow where
/// the blocks would not (a margin of 2⁶⁴ over the normal range covers the round-off of any
/// association).
const PRODUCT_MAX: f64 = 1.0e289; // < 2^960
const PRODUCT_MIN: f64 = 1.0e-289; // > 2^-960

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
    /// Fuses every block with a linear form, inlining or materializing each memoryless one by the
    /// cost model (see the documentation of `sim::linear`). Time and memory linear in the number
    /// of terms of the blocks' forms.
    pub fn build(d: &Diagram) -> LinearPlan {
        let blocks: Vec<&dyn crate::block::Block> = d.blocks.iter().map(|b| &*b.block).collect();
        Self::build_with(d, &blocks)
    }

    /// [`LinearPlan::build`] with the block instances a run dispatches to (the diagram's, or a
    /// parameter set's where it overrides them; see [`crate::diagram::parameters`]).
    pub fn build_with(d: &Diagram, blocks: &[&dyn crate::block::Block]) -> LinearPlan {
        let forms = fused_forms(d, blocks);
        if forms.iter().all(Option::is_none) {
            return LinearPlan::none(d);
        }
        let wiring = Wiring::new(d, &forms);
        let mut expressions = Expressions::build(d, &forms, &wiring);
        let mut plan = LinearPlan::none(d);
        let mut scratch = FlattenScratch::default();
        let mut derivatives = DerivativeTerms::default();
        for (b, form) in forms.iter().enumerate() {
            match form {
                Some(LinearForm::Memoryless(_)) if expressions.done[b] => {
                    plan.fuse_memoryless(d, b, &wiring, &expressions, &mut scratch);
                }
                Some(LinearForm::Integrator) => plan.fuse_integrator(
                    d,
                    b,
                    &wiring,
                    &mut expressions,
                    &mut scratch,
                    &mut derivatives,
                ),
                _ => {}
            }
        }
        // Reading with a coefficient of 1, an integrator never asks for a block to be
        // materialized after its mode was set.
        debug_assert!(
            (0..d.blocks.len()).all(|b| !expressions.materialized[b] || plan.mode[b] != Mode::Skip)
        );
        plan.derivative_sum = SparseSum::new(
            &derivatives.targets,
            &derivatives.signal_terms,
            &derivatives.state_terms,
        );
        plan
    }

    /// Sets the mode of the fused memoryless block `b` whose expressions are built: skipped if
    /// inlined, else its output written as rows (few elements) or as a sparse sum (many).
    fn fuse_memoryless(
        &mut self,
        d: &Diagram,
        b: usize,
        wiring: &Wiring,
        expressions: &Expressions,
        scratch: &mut FlattenScratch,
    ) {
        self.fused += 1;
        if !expressions.materialized[b] {
            self.mode[b] = Mode::Skip;
            return;
        }
        self.materialized += 1;
        let out = d.blocks[b].output_slots[0];
        let nodes = wiring.node_base[b]..wiring.node_base[b] + out.len;
        if out.len as usize >= MIN_SUM_OUTPUTS {
            let mut sum_signal = Vec::new();
            let mut sum_state = Vec::new();
            for (e, node) in nodes.enumerate() {
                for &(leaf, c) in scratch.flatten(&expressions.graph, Ref::Node(node)) {
                    match leaf {
                        Leaf::Signal(o) => sum_signal.push((e as u32, o, c)),
                        Leaf::State(j) => sum_state.push((e as u32, j, c)),
                    }
                }
            }
            let targets: Vec<u32> = (0..out.len).collect();
            self.mode[b] = Mode::Sum(self.sums.len() as u32);
            self.sums
                .push(SparseSum::new(&targets, &sum_signal, &sum_state));
            self.sum_scratch_len = self.sum_scratch_len.max(out.len as usize);
        } else {
            let start = self.rows.len() as u32;
            for (e, node) in nodes.enumerate() {
                let flat = scratch.flatten(&expressions.graph, Ref::Node(node));
                let row = self.row(out.offset + e as u32, flat);
                self.rows.push(row);
            }
            self.mode[b] = Mode::Rows(start..self.rows.len() as u32);
        }
    }

    /// Adds the fused integrator `b`'s derivative (its flattened input, element by element) to
    /// `derivatives` and sets its mode: its states copied to its output if something outside
    /// the fusion reads it, else skipped.
    fn fuse_integrator(
        &mut self,
        d: &Diagram,
        b: usize,
        wiring: &Wiring,
        expressions: &mut Expressions,
        scratch: &mut FlattenScratch,
        derivatives: &mut DerivativeTerms,
    ) {
        let blk = &d.blocks[b];
        let slot = blk.input_slots[0];
        self.fused += 1;
        for k in 0..slot.len {
            let target = blk.states.start as u32 + k;
            derivatives.targets.push(target);
            let (r, _) = expressions.resolve(wiring, slot.offset + k, 1.0);
            for &(leaf, c) in scratch.flatten(&expressions.graph, r) {
                match leaf {
                    Leaf::Signal(o) => derivatives.signal_terms.push((target, o, c)),
                    Leaf::State(j) => derivatives.state_terms.push((target, j, c)),
                }
            }
        }
        self.fused_integrator[b] = true;
        self.mode[b] = if wiring.read_outside[b] {
            Mode::CopyStates
        } else {
            Mode::Skip
        };
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
}

/// Per block: its linear form if it is fused. A form is used only for one output, as both kinds
/// have, and for an integrator only when its input, output and state have one length; any
/// other block is called.
fn fused_forms(d: &Diagram, blocks: &[&dyn crate::block::Block]) -> Vec<Option<LinearForm>> {
    d.blocks
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
                        && b.input_slots.first().map(|s| s.len) == Some(b.output_slots[0].len)
                        && b.states.len() == b.output_slots[0].len as usize =>
                {
                    Some(LinearForm::Integrator)
                }
                _ => None,
            },
        )
        .collect()
}

/// How the fused blocks are wired: what produces each signal offset, the node ids of the
/// memoryless blocks' output elements, how often fused readers read each node, and which blocks'
/// outputs something outside the fusion reads.
struct Wiring {
    /// Per signal offset.
    producer: Vec<Producer>,
    /// Per block: the node id of its first output element (`u32::MAX` unless memoryless fused).
    node_base: Vec<u32>,
    /// Per node: how many terms of fused readers read it.
    uses: Vec<u64>,
    /// Per block: whether a called block's input reads its output, or it is recorded.
    read_outside: Vec<bool>,
}

impl Wiring {
    /// The wiring of the fused blocks `forms` (per block) in `d`.
    fn new(d: &Diagram, forms: &[Option<LinearForm>]) -> Wiring {
        let producer = Self::producers(d, forms);
        let (node_base, nodes) = Self::node_ids(d, forms);
        let mut wiring = Wiring {
            producer,
            node_base,
            uses: Vec::new(),
            read_outside: Vec::new(),
        };
        wiring.uses = wiring.count_uses(d, forms, nodes);
        wiring.read_outside = Self::read_outside(d, forms);
        wiring
    }

    /// What produces each signal offset: a fused integrator's state, an element of a fused
    /// memoryless block's output, or anything else.
    fn producers(d: &Diagram, forms: &[Option<LinearForm>]) -> Vec<Producer> {
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
        producer
    }

    /// Node ids, one per output element of each memoryless block: per block its first node
    /// (`u32::MAX` for the others), and the number of nodes.
    fn node_ids(d: &Diagram, forms: &[Option<LinearForm>]) -> (Vec<u32>, u32) {
        let mut node_base = vec![u32::MAX; d.blocks.len()];
        let mut nodes = 0u32;
        for b in 0..d.blocks.len() {
            if let Some(LinearForm::Memoryless(_)) = forms[b] {
                node_base[b] = nodes;
                nodes += d.blocks[b].output_slots[0].len;
            }
        }
        (node_base, nodes)
    }

    /// The node that writes signal `offset`, if a fused memoryless block does.
    fn node_of(&self, offset: u32) -> Option<u32> {
        match self.producer.get(offset as usize) {
            Some(&Producer::Memoryless { b, k }) => Some(self.node_base[b as usize] + k),
            _ => None,
        }
    }

    /// Per node (of `nodes`): how many terms of fused readers read it.
    fn count_uses(&self, d: &Diagram, forms: &[Option<LinearForm>], nodes: u32) -> Vec<u64> {
        let mut uses = vec![0u64; nodes as usize];
        for (b, blk) in d.blocks.iter().enumerate() {
            match &forms[b] {
                Some(LinearForm::Memoryless(terms)) => {
                    for t in terms {
                        let offset = blk.input_slots[t.input as usize].offset + t.col;
                        if let Some(node) = self.node_of(offset) {
                            uses[node as usize] += 1;
                        }
                    }
                }
                Some(LinearForm::Integrator) => {
                    let slot = blk.input_slots[0];
                    for k in 0..slot.len {
                        if let Some(node) = self.node_of(slot.offset + k) {
                            uses[node as usize] += 1;
                        }
                    }
                }
                None => {}
            }
        }
        uses
    }

    /// Per block: whether its output is read from outside the fusion, by a called block's input
    /// (a fused integrator reads its input only for its derivative, which is fused too), or
    /// recorded.
    fn read_outside(d: &Diagram, forms: &[Option<LinearForm>]) -> Vec<bool> {
        let mut read_outside = vec![false; d.blocks.len()];
        for l in &d.lines {
            if forms[l.to].is_none() {
                read_outside[l.from] = true;
            }
        }
        for &b in &d.run.output.recorded.logged_blocks {
            read_outside[b] = true;
        }
        read_outside
    }
}

/// The fused memoryless blocks' expressions and the inlining decisions, made in schedule order.
struct Expressions {
    graph: Graph,
    /// Per block: whether its output is written and read as a leaf (else inlined).
    materialized: Vec<bool>,
    /// Per block: whether its expressions are built (a fused memoryless block, once reached in
    /// schedule order).
    done: Vec<bool>,
}

impl Expressions {
    /// The expressions of every fused memoryless block, in schedule order (every source comes
    /// first), each block inlined unless that gives more terms than reading its written output,
    /// or something outside the fusion reads it.
    fn build(d: &Diagram, forms: &[Option<LinearForm>], wiring: &Wiring) -> Expressions {
        let n = d.blocks.len();
        let nodes = wiring.uses.len();
        let mut expressions = Expressions {
            graph: Graph {
                terms: Vec::new(),
                range: vec![0..0; nodes],
                stats: vec![Stats::EMPTY; nodes],
            },
            materialized: vec![false; n],
            done: vec![false; n],
        };
        let mut by_row: Vec<u32> = Vec::new();
        for &b in &d.schedule {
            let Some(LinearForm::Memoryless(terms)) = &forms[b] else {
                continue;
            };
            if std::mem::replace(&mut expressions.done[b], true) {
                continue;
            }
            let n_out = d.blocks[b].output_slots[0].len;
            expressions.add_nodes(d, b, terms, wiring, &mut by_row);
            if wiring.read_outside[b] || expressions.inlining_costs_more(b, n_out, wiring) {
                expressions.materialized[b] = true;
            }
        }
        expressions
    }

    /// Builds the nodes of block `b`'s output elements from its form's `terms` (`by_row` is
    /// scratch).
    fn add_nodes(
        &mut self,
        d: &Diagram,
        b: usize,
        terms: &[LinearTerm],
        wiring: &Wiring,
        by_row: &mut Vec<u32>,
    ) {
        let blk = &d.blocks[b];
        let n_out = blk.output_slots[0].len;
        let count = group_by_row(terms, n_out, by_row);
        for e in 0..n_out {
            let node = (wiring.node_base[b] + e) as usize;
            let start = self.graph.terms.len() as u32;
            let mut stats = Stats::EMPTY;
            for &i in &by_row[count[e as usize] as usize..count[e as usize + 1] as usize] {
                let t = terms[i as usize];
                let offset = blk.input_slots[t.input as usize].offset + t.col;
                let (r, s) = self.resolve(wiring, offset, t.c);
                stats.add(t.c, &s);
                self.graph.terms.push((r, t.c));
            }
            self.graph.range[node] = start..self.graph.terms.len() as u32;
            self.graph.stats[node] = stats;
        }
    }

    /// Whether inlining block `b` (of `n_out` output elements) gives more terms than reading its
    /// written output: `Σ U·E > Σ (E + U)` over its elements (see the documentation of
    /// `sim::linear`).
    fn inlining_costs_more(&self, b: usize, n_out: u32, wiring: &Wiring) -> bool {
        let (mut inline, mut written) = (0u64, 0u64);
        for e in 0..n_out {
            let node = (wiring.node_base[b] + e) as usize;
            let (size, u) = (self.graph.stats[node].size, wiring.uses[node]);
            inline = inline.saturating_add(size.saturating_mul(u));
            written = written.saturating_add(size.saturating_add(u));
        }
        inline > written
    }

    /// How a fused reader reads offset `o` with coefficient `c`: a leaf, or the inlined node
    /// (with its stats). A block not yet built, materialized, or whose products `c` would scale
    /// out of bounds is read as a leaf, and marked materialized.
    fn resolve(&mut self, wiring: &Wiring, o: u32, c: f64) -> (Ref, Stats) {
        match wiring
            .producer
            .get(o as usize)
            .copied()
            .unwrap_or(Producer::Other)
        {
            Producer::Other => (Ref::Leaf(Leaf::Signal(o)), Stats::LEAF),
            Producer::State(j) => (Ref::Leaf(Leaf::State(j)), Stats::LEAF),
            Producer::Memoryless { b, k } => {
                let b = b as usize;
                let node = wiring.node_base[b] + k;
                let stats = self.graph.stats[node as usize];
                if !self.done[b] || self.materialized[b] || !stats.scalable_by(c) {
                    self.materialized[b] = true;
                    (Ref::Leaf(Leaf::Signal(o)), Stats::LEAF)
                } else {
                    (Ref::Node(node), stats)
                }
            }
        }
    }
}

/// The indices of `terms` grouped by output element (of `n_out`), each group in form order,
/// written into `by_row`; returns where each group starts (`n_out + 1` entries, the last one
/// `terms.len()`).
fn group_by_row(terms: &[LinearTerm], n_out: u32, by_row: &mut Vec<u32>) -> Vec<u32> {
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
    count
}

/// Reused buffers for flattening expressions.
#[derive(Default)]
struct FlattenScratch {
    flat: Vec<(Leaf, f64)>,
    stack: Vec<(Ref, f64)>,
}

impl FlattenScratch {
    /// The flattened terms of `r` (coefficient 1) in `graph`.
    fn flatten(&mut self, graph: &Graph, r: Ref) -> &[(Leaf, f64)] {
        self.flat.clear();
        graph.flatten(r, 1.0, &mut self.flat, &mut self.stack);
        &self.flat
    }
}

/// The fused integrators' derivatives as they are gathered: the target states, then
/// `(target, source, c)` terms.
#[derive(Default)]
struct DerivativeTerms {
    targets: Vec<u32>,
    signal_terms: Vec<(u32, u32, f64)>,
    state_terms: Vec<(u32, u32, f64)>,
}
