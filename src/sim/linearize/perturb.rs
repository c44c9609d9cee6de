//! Perturbing a block's inputs (or a source block's output) without changing the diagram: the
//! block is wrapped, and the wrapper shows the block its own copy of the perturbed input.
//!
//! The engine is made with extra room after the diagram's signals
//! ([`crate::sim::Engine::with_blocks`]). Input element `k` of the linearization has its
//! perturbation `δₖ` at `signals[signal_len + k]`, written by the linearizer. A perturbed input
//! port of block `b` reads, instead of its source's slot, a slot of its own further on in the
//! extra room; before every call of `b` the wrapper writes `source + δ` there. So the block sees
//! `u = u_connected + δ` (an unconnected input: `0 + δ`), while every other reader of the same
//! source sees the source unchanged; nothing of the diagram's signals is written. A perturbed
//! output (a source block named by its name alone, such as an Inport) gets `δ` added after the
//! block writes it, so every reader sees it.
//!
//! The engine's normal runs never see a wrapper: it is made only by
//! [`super::linearize`], and costs nothing elsewhere.

use crate::block::{Advice, Block, ConstrainedStates, Ctx, LinearForm, PhysicalBlock, PortDecl};
use crate::block::{BlockError, ScalarKernel, Setup, Shape, Slot};
use std::any::Any;

/// One perturbed input port: where it is read from, and where its perturbed copy and the
/// perturbations are.
#[derive(Clone, Copy, Debug)]
pub(super) struct InputCopy {
    /// The input's slot in the diagram (its source's output, or zeros).
    pub source: Slot,
    /// Offset of the perturbed copy in the signal buffer (past the diagram's signals).
    pub target: u32,
    /// Offset of the perturbations δ (one per element).
    pub delta: u32,
}

/// One perturbed output port: its slot and the offset of its perturbations.
#[derive(Clone, Copy, Debug)]
pub(super) struct OutputShift {
    /// The output's slot.
    pub slot: Slot,
    /// Offset of the perturbations δ (one per element).
    pub delta: u32,
}

/// A block whose inputs or outputs are perturbed. Every method the engine calls is forwarded;
/// those that read inputs see the perturbed copies.
pub(super) struct Perturbed<'d> {
    pub inner: &'d dyn Block,
    /// The block's input slots, the perturbed ones pointing to their copies.
    pub inputs: Vec<Slot>,
    pub copies: Vec<InputCopy>,
    pub shifts: Vec<OutputShift>,
}

impl Perturbed<'_> {
    /// Calls `f` with a context whose perturbed inputs read `source + δ`.
    fn redirected<R>(&self, ctx: &mut Ctx, f: impl FnOnce(&mut Ctx) -> R) -> R {
        let Ctx {
            t,
            io,
            states,
            work,
            scratch,
            interior,
            island,
        } = ctx;
        let (signals, _, outputs) = io.raw();
        for c in &self.copies {
            for e in 0..c.source.len as usize {
                signals[c.target as usize + e] =
                    signals[c.source.offset as usize + e] + signals[c.delta as usize + e];
            }
        }
        let mut inner = Ctx::new(
            *t,
            signals,
            &self.inputs,
            outputs,
            states,
            work,
            &mut **scratch,
        );
        inner.interior = *interior;
        inner.island = *island;
        f(&mut inner)
    }
}

impl Block for Perturbed<'_> {
    fn inputs(&self) -> &[PortDecl] {
        self.inner.inputs()
    }
    fn outputs(&self) -> &[PortDecl] {
        self.inner.outputs()
    }
    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        unreachable!("a perturbed block wraps a block that is already set up")
    }
    fn create_scratch(&self) -> Box<dyn Any + Send> {
        self.inner.create_scratch()
    }
    fn clone_scratch(&self, scratch: &(dyn Any + Send)) -> Box<dyn Any + Send> {
        self.inner.clone_scratch(scratch)
    }
    fn initialize(&self, ctx: &mut Ctx) {
        self.redirected(ctx, |c| self.inner.initialize(c))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        self.redirected(ctx, |c| self.inner.outputs_eval(c));
        let (signals, _, _) = ctx.io.raw();
        for s in &self.shifts {
            for e in 0..s.slot.len as usize {
                signals[s.slot.offset as usize + e] += signals[s.delta as usize + e];
            }
        }
    }
    /// Never: a perturbed output changes between evaluations at the same state.
    fn outputs_are_constant(&self) -> bool {
        false
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        self.redirected(ctx, |c| self.inner.derivatives(c, dxdt))
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        self.redirected(ctx, |c| self.inner.zero_crossings(c, g))
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        self.inner.next_time_event(t, work)
    }
    fn period(&self) -> Option<(&'static str, f64)> {
        self.inner.period()
    }
    fn samples_at_start(&self) -> bool {
        self.inner.samples_at_start()
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], time_event: bool) -> bool {
        self.redirected(ctx, |c| self.inner.handle_event(c, crossed, time_event))
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.redirected(ctx, |c| self.inner.settle(c))
    }
    /// None: the engine calls the wrapper (it runs unfused), never a fused form of the block.
    fn linear_form(&self, _inputs: &[Shape], _outputs: &[Shape]) -> Option<LinearForm> {
        None
    }
    /// None: see [`Perturbed::linear_form`].
    fn scalar_kernel(&self) -> Option<ScalarKernel<'_>> {
        None
    }
    fn records_inputs(&self) -> bool {
        self.inner.records_inputs()
    }
    fn state_name(&self, k: usize) -> String {
        self.inner.state_name(k)
    }
    /// The block's: the projection works on the states, which the wrapper leaves alone.
    fn constrained_states(&self) -> Option<&dyn ConstrainedStates> {
        self.inner.constrained_states()
    }
    /// The block's: its stiffness note reads its scratch.
    fn advice(&self) -> Option<&dyn Advice> {
        self.inner.advice()
    }
    /// The block's (its role and rigid constraint); never bound again, so no `physical_mut`.
    fn physical(&self) -> Option<&dyn PhysicalBlock> {
        self.inner.physical()
    }
}
