//! Linear fusion: chains of linear blocks (Gain, Sum, plain Integrators) evaluated as sparse sums
//! over the signals and states they ultimately read, without calling the blocks.
//!
//! A block with a [`LinearForm`] is *fused*. Each output element of a fused memoryless block is
//! flattened, through every fused block upstream, into Σ c·leaf, where a leaf is an element of a
//! non-fused block's output or a fused integrator's state (an integrator's output *is* its state).
//! A fused block's outputs are written only when something outside the fusion reads them (a
//! non-linear block, a Scope, `[output] log`); otherwise they are never materialized. A fused
//! integrator's derivative is its input's flattened sum. The result is the same arithmetic the
//! blocks would do, in the same dependency order, without per-block dispatch — which is what lets
//! a diagram of Gains, Sums and Integrators run about as fast as the same ODE written by hand.
//!
//! One difference from calling the blocks: terms whose coefficients cancel exactly (a gain of 0,
//! `u − u`) are dropped, so a non-finite value there gives 0 fused where it would give NaN called;
//! a non-finite value that does reach a derivative is still caught and blamed.

use super::sparse_sum::SparseSum;
use crate::block::LinearForm;
use crate::diagram::Diagram;
use std::ops::Range;

/// Where a term's value comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// An element of the signal buffer (a non-fused block's output).
    Signal(u32),
    /// An element of the state vector (a fused integrator's state).
    State(u32),
}

/// One output row of a fused memoryless block: `signals[target] ← Σ c·signals[i] + Σ c·x[j]`.
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
    /// Evaluate these output rows (a fused memoryless block whose outputs are read).
    Rows(Range<u32>),
    /// Nothing to do (a fused block whose outputs nobody outside the fusion reads).
    Skip,
    /// Copy the block's states to its output (a fused integrator whose output is read).
    CopyStates,
}

/// The fused evaluation of a diagram.
#[derive(Clone, Debug)]
pub struct LinearPlan {
    /// Per block.
    pub mode: Vec<Mode>,
    /// Output rows of fused memoryless blocks.
    pub rows: Vec<Row>,
    /// Per block: whether it is an integrator whose derivative is part of `derivative_sum`.
    pub fused_integrator: Vec<bool>,
    /// `(signal offset, coefficient)` terms of all rows.
    pub signal_terms: Vec<(u32, f64)>,
    /// `(state index, coefficient)` terms of all rows.
    pub state_terms: Vec<(u32, f64)>,
    /// Number of fused blocks.
    pub fused: usize,
    /// The derivative rows laid out for speed as one sparse sum.
    pub derivative_sum: SparseSum,
}

type Expr = Vec<(Leaf, f64)>;

/// Merges duplicate leaves and drops zero coefficients.
fn normalize(mut e: Expr) -> Expr {
    e.sort_by_key(|(leaf, _)| match leaf {
        Leaf::Signal(o) => (0, *o),
        Leaf::State(s) => (1, *s),
    });
    let mut out: Expr = Vec::with_capacity(e.len());
    for (leaf, c) in e {
        match out.last_mut() {
            Some((l, acc)) if *l == leaf => *acc += c,
            _ => out.push((leaf, c)),
        }
    }
    out.retain(|(_, c)| *c != 0.0);
    out
}

impl LinearPlan {
    /// No fusion: every block is called.
    pub fn none(d: &Diagram) -> LinearPlan {
        LinearPlan {
            mode: vec![Mode::Dispatch; d.blocks.len()],
            rows: Vec::new(),
            fused_integrator: vec![false; d.blocks.len()],
            signal_terms: Vec::new(),
            state_terms: Vec::new(),
            fused: 0,
            derivative_sum: SparseSum::default(),
        }
    }

    /// Fuses every block with a linear form.
    pub fn build(d: &Diagram) -> LinearPlan {
        let n = d.blocks.len();
        let forms: Vec<Option<LinearForm>> = d
            .blocks
            .iter()
            .map(|b| b.block.linear_form(&b.input_shapes, &b.output_shapes))
            .collect();
        if forms.iter().all(Option::is_none) {
            return LinearPlan::none(d);
        }
        // Which block output produces each signal offset.
        let mut producer: Vec<Option<(usize, usize, usize)>> = vec![None; d.signal_len];
        for (b, blk) in d.blocks.iter().enumerate() {
            for (o, slot) in blk.output_slots.iter().enumerate() {
                for k in 0..slot.len as usize {
                    producer[slot.offset as usize + k] = Some((b, o, k));
                }
            }
        }
        // Outputs read from outside the fusion: by a non-fused block's input (a fused integrator
        // reads its input only for its derivative, which is fused too), or recorded.
        let mut read_outside = vec![false; n];
        for l in &d.lines {
            if forms[l.to].is_none() {
                read_outside[l.from] = true;
            }
        }
        for (name, _) in &d.spec.output.log {
            let block = name.split('.').next().unwrap_or("");
            if let Some(b) = d.block_index(block) {
                read_outside[b] = true;
            }
        }
        // Flatten fused memoryless outputs in schedule order (every source comes first).
        let mut exprs: Vec<Option<Vec<Expr>>> = vec![None; n];
        let leaf_of = |offset: usize, exprs: &Vec<Option<Vec<Expr>>>| -> Option<Expr> {
            match producer.get(offset).copied().flatten() {
                None => Some(Vec::new()), // the zero region: an unconnected input
                Some((b, o, k)) => match &forms[b] {
                    None => Some(vec![(Leaf::Signal(offset as u32), 1.0)]),
                    Some(LinearForm::Integrator) => {
                        let _ = o;
                        Some(vec![(
                            Leaf::State((d.blocks[b].states.start + k) as u32),
                            1.0,
                        )])
                    }
                    Some(LinearForm::Memoryless(_)) => {
                        let out_offset = offset - d.blocks[b].output_slots[o].offset as usize;
                        exprs[b].as_ref().map(|e| e[out_offset].clone())
                    }
                },
            }
        };
        let mut seen = vec![false; n];
        let mut order: Vec<usize> = Vec::with_capacity(n);
        for &b in &d.schedule {
            if !seen[b] {
                seen[b] = true;
                order.push(b);
            }
        }
        let mut fused = vec![false; n];
        for &b in &order {
            let Some(LinearForm::Memoryless(terms)) = &forms[b] else {
                continue;
            };
            let blk = &d.blocks[b];
            let n_out = blk.output_shapes[0].len();
            let mut out: Vec<Expr> = vec![Vec::new(); n_out];
            let mut ok = true;
            for (input, m) in terms {
                let slot = blk.input_slots[*input];
                let n_in = slot.len as usize;
                for j in 0..n_in {
                    let Some(source) = leaf_of(slot.offset as usize + j, &exprs) else {
                        ok = false;
                        break;
                    };
                    for (e, row) in out.iter_mut().enumerate() {
                        let c = m[e * n_in + j];
                        if c != 0.0 {
                            row.extend(source.iter().map(|(leaf, v)| (*leaf, v * c)));
                        }
                    }
                }
            }
            if ok {
                exprs[b] = Some(out.into_iter().map(normalize).collect());
                fused[b] = true;
            }
        }
        let mut plan = LinearPlan::none(d);
        // The fused integrators' derivatives: target states, then (target, source, c) terms.
        let mut targets = Vec::new();
        let (mut signal_terms, mut state_terms) = (Vec::new(), Vec::new());
        for b in 0..n {
            match &forms[b] {
                Some(LinearForm::Memoryless(_)) if fused[b] => {
                    plan.fused += 1;
                    if read_outside[b] {
                        let start = plan.rows.len() as u32;
                        let base = d.blocks[b].output_slots[0].offset;
                        for (e, expr) in exprs[b].as_deref().unwrap_or(&[]).iter().enumerate() {
                            let row = plan.row(base + e as u32, expr);
                            plan.rows.push(row);
                        }
                        plan.mode[b] = Mode::Rows(start..plan.rows.len() as u32);
                    } else {
                        plan.mode[b] = Mode::Skip;
                    }
                }
                Some(LinearForm::Integrator) => {
                    let blk = &d.blocks[b];
                    let slot = blk.input_slots[0];
                    let mut rows = Vec::new();
                    for k in 0..slot.len as usize {
                        match leaf_of(slot.offset as usize + k, &exprs) {
                            Some(expr) => rows.push(expr),
                            None => break,
                        }
                    }
                    if rows.len() != blk.states.len() {
                        continue; // its input comes through a block that could not be fused
                    }
                    plan.fused += 1;
                    for (k, expr) in rows.iter().enumerate() {
                        let target = (blk.states.start + k) as u32;
                        targets.push(target);
                        for &(leaf, c) in expr {
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
        plan.derivative_sum = SparseSum::new(&targets, &signal_terms, &state_terms);
        plan
    }

    /// Writes every fused integrator's derivative into `dxdt` (see [`super::sparse_sum`] for
    /// how the terms are laid out).
    #[inline]
    pub fn derivatives(&self, signals: &[f64], x: &[f64], dxdt: &mut [f64]) {
        self.derivative_sum.evaluate(signals, x, dxdt);
    }

    /// Stores the terms of `expr` and returns its row.
    fn row(&mut self, target: u32, expr: &Expr) -> Row {
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

    /// The value of a row.
    #[inline(always)]
    pub fn eval(&self, row: &Row, signals: &[f64], x: &[f64]) -> f64 {
        let mut acc = 0.0;
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
