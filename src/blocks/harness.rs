//! A one-block test bench: builds a block from a TOML snippet of its parameters, resolves its
//! port shapes, and drives it through the engine's calls over local buffers.

use crate::block::{Block, BlockError, Ctx, PortDecl, Setup, Shape, ShapeSpec, Slot};
use crate::model::{Diagnostic, Document, TableReader};
use std::any::Any;

/// One built block with its run state.
pub(crate) struct Harness {
    pub block: Box<dyn Block>,
    pub setup: Setup,
    pub inputs: Vec<Shape>,
    pub outputs: Vec<Shape>,
    pub t: f64,
    pub signals: Vec<f64>,
    in_slots: Vec<Slot>,
    out_slots: Vec<Slot>,
    pub states: Vec<f64>,
    pub work: Vec<f64>,
    scratch: Box<dyn Any + Send>,
}

/// Builds block type `type_name` from `params` (TOML text of its parameters) or returns the
/// rendered diagnostic.
pub(crate) fn build(type_name: &str, params: &str) -> Result<Box<dyn Block>, String> {
    let ty = crate::library::Registry::standard()
        .find(type_name)
        .ok_or_else(|| format!("no block type {type_name}"))?;
    let doc = Document::parse("test.toml", params).map_err(|d| d.to_string())?;
    let r = TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
    let built = (ty.build)(&r.params()).map_err(|e| r.locate(e).to_string());
    built
}

/// The rendered build error of a snippet that must fail.
pub(crate) fn build_error(type_name: &str, params: &str) -> String {
    match build(type_name, params) {
        Ok(_) => panic!("{type_name} with {params:?} should not build"),
        Err(e) => e,
    }
}

/// A block's error as the command line renders it (message, then its hint).
fn rendered(e: BlockError) -> String {
    Diagnostic::new(e.to_string()).caused_by(e).to_string()
}

fn resolve(block: &dyn Block, given: &[Shape]) -> Result<(Vec<Shape>, Vec<Shape>), BlockError> {
    let fixed = |d: &PortDecl| match d.shape {
        ShapeSpec::Fixed(s) => Some(s),
        ShapeSpec::Inherited => None,
    };
    let mut ins: Vec<Option<Shape>> = given.iter().map(|s| Some(*s)).collect();
    assert_eq!(ins.len(), block.inputs().len(), "give one shape per input");
    let mut outs: Vec<Option<Shape>> = block.outputs().iter().map(fixed).collect();
    for _ in 0..8 {
        let before = outs.clone();
        block.propagate_shapes(&mut ins, &mut outs)?;
        if outs == before {
            break;
        }
    }
    // Like the engine: shapes nothing decides default to 1×1.
    let ins = ins
        .into_iter()
        .map(|s| s.unwrap_or(Shape::SCALAR))
        .collect();
    let outs = outs
        .into_iter()
        .map(|s| s.unwrap_or(Shape::SCALAR))
        .collect();
    Ok((ins, outs))
}

impl Harness {
    /// Builds and sets up a block whose inputs have the given shapes; panics on any error.
    pub fn new(type_name: &str, params: &str, input_shapes: &[Shape]) -> Harness {
        Self::try_new(type_name, params, input_shapes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Scalar inputs.
    pub fn scalar(type_name: &str, params: &str) -> Harness {
        let n = build(type_name, params)
            .map(|b| b.inputs().len())
            .unwrap_or(0);
        Self::new(type_name, params, &vec![Shape::SCALAR; n])
    }

    /// As [`Harness::new`], returning the build/shape/setup message on failure.
    pub fn try_new(
        type_name: &str,
        params: &str,
        input_shapes: &[Shape],
    ) -> Result<Harness, String> {
        let mut block = build(type_name, params)?;
        let (inputs, outputs) = resolve(block.as_ref(), input_shapes).map_err(rendered)?;
        let setup = block.setup(&inputs, &outputs).map_err(rendered)?;
        let mut offset = 0u32;
        let mut slot = |s: &Shape| {
            let sl = Slot {
                offset,
                len: s.len() as u32,
            };
            offset += s.len() as u32;
            sl
        };
        let in_slots: Vec<Slot> = inputs.iter().map(&mut slot).collect();
        let out_slots: Vec<Slot> = outputs.iter().map(&mut slot).collect();
        let scratch = block.create_scratch();
        Ok(Harness {
            signals: vec![0.0; offset as usize],
            states: vec![0.0; setup.num_states],
            work: vec![0.0; setup.num_work],
            block,
            setup,
            inputs,
            outputs,
            t: 0.0,
            in_slots,
            out_slots,
            scratch,
        })
    }

    fn with_ctx<R>(&mut self, f: impl FnOnce(&dyn Block, &mut Ctx) -> R) -> R {
        let mut ctx = Ctx::new(
            self.t,
            &mut self.signals,
            &self.in_slots,
            &self.out_slots,
            &mut self.states,
            &mut self.work,
            self.scratch.as_mut(),
        );
        f(self.block.as_ref(), &mut ctx)
    }

    /// Sets input `i`'s values.
    pub fn set_input(&mut self, i: usize, values: &[f64]) {
        self.signals[self.in_slots[i].range()].copy_from_slice(values);
    }

    /// Initializes at `t` (and runs `settle` to a fixed point like the engine).
    pub fn initialize(&mut self, t: f64) {
        self.t = t;
        self.with_ctx(|b, c| b.initialize(c));
        self.eval();
        if self.block.samples_at_start() {
            self.event(&[], true);
        }
        self.settle_all();
    }

    /// Evaluates the outputs at the current time.
    pub fn eval(&mut self) {
        self.with_ctx(|b, c| b.outputs_eval(c));
    }

    /// Evaluates outputs at `t` and returns output `o`.
    pub fn out_at(&mut self, t: f64, o: usize) -> Vec<f64> {
        self.t = t;
        self.eval();
        self.output(o)
    }

    /// Output `o` as last evaluated.
    pub fn output(&self, o: usize) -> Vec<f64> {
        self.signals[self.out_slots[o].range()].to_vec()
    }

    /// The state derivatives (outputs evaluated first).
    pub fn derivatives(&mut self) -> Vec<f64> {
        self.eval();
        let mut d = vec![f64::NAN; self.setup.num_states];
        self.with_ctx(|b, c| b.derivatives(c, &mut d));
        d
    }

    /// The zero-crossing values (outputs evaluated first).
    pub fn zero_crossings(&mut self) -> Vec<f64> {
        self.eval();
        let mut g = vec![f64::NAN; self.setup.zero_crossings.len()];
        self.with_ctx(|b, c| b.zero_crossings(c, &mut g));
        g
    }

    /// Runs the event handler at the current time (outputs evaluated first, as the engine does).
    pub fn event(&mut self, crossed: &[bool], time_event: bool) -> bool {
        self.eval();
        let crossed = if crossed.is_empty() {
            vec![false; self.setup.zero_crossings.len()]
        } else {
            crossed.to_vec()
        };
        self.with_ctx(|b, c| b.handle_event(c, &crossed, time_event))
    }

    /// Fires zero crossing `k` alone at time `t`, then settles.
    pub fn cross(&mut self, t: f64, k: usize) -> bool {
        self.t = t;
        let mut crossed = vec![false; self.setup.zero_crossings.len()];
        crossed[k] = true;
        let changed = self.event(&crossed, false);
        self.settle_all();
        changed
    }

    /// A time event at `t`, then settle.
    pub fn time_event(&mut self, t: f64) -> bool {
        self.t = t;
        let changed = self.event(&[], true);
        self.settle_all();
        changed
    }

    /// Calls `settle` until it reports no change (at most 10 times); returns whether anything changed.
    pub fn settle_all(&mut self) -> bool {
        let mut any = false;
        for _ in 0..10 {
            self.eval();
            if !self.with_ctx(|b, c| b.settle(c)) {
                return any;
            }
            any = true;
        }
        panic!("settle did not converge");
    }

    /// The block's next time event after the current time.
    pub fn next_time_event(&self) -> Option<f64> {
        self.block.next_time_event(self.t, &self.work)
    }

    /// Advances the states by explicit Euler steps of `h` up to `t_end` (no events), for quick checks.
    pub fn euler(&mut self, h: f64, t_end: f64) {
        while self.t < t_end - 1e-12 {
            let d = self.derivatives();
            for (x, dx) in self.states.iter_mut().zip(&d) {
                *x += h * dx;
            }
            self.t += h;
        }
    }
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("inputs", &self.inputs)
            .field("outputs", &self.outputs)
            .field("setup", &self.setup)
            .finish()
    }
}
