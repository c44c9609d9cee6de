//! What a block sees while it runs: time, its inputs and outputs in the flat signal buffer, its
//! continuous states, its work slots (modes, discrete states) and its scratch space.

use std::any::Any;
use std::ops::Range;

/// Whether `a` and `b` hold the same bit patterns (a branch-free fold the compiler vectorizes;
/// `==` on floats would compare element by element and treat NaN as different): the test of
/// whether a cached evaluation is still current.
#[inline]
pub fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .fold(0u64, |acc, (x, y)| acc | (x.to_bits() ^ y.to_bits()))
            == 0
}

/// Where one port's values live in the flat signal buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// The first element's index in the buffer.
    pub offset: u32,
    /// Elements (rows × columns of the port's shape).
    pub len: u32,
}

impl Slot {
    /// The buffer range.
    #[inline]
    pub fn range(self) -> Range<usize> {
        self.offset as usize..(self.offset + self.len) as usize
    }
}

/// A block's view of the flat signal buffer: its inputs (read) and outputs (written).
pub struct Io<'a> {
    signals: &'a mut [f64],
    inputs: &'a [Slot],
    outputs: &'a [Slot],
}

impl Io<'_> {
    /// The whole signal buffer and the block's input and output slots (for blocks that write
    /// many elements of several outputs in one loop).
    #[inline]
    pub fn raw(&mut self) -> (&mut [f64], &[Slot], &[Slot]) {
        (self.signals, self.inputs, self.outputs)
    }

    /// Input `i`'s values.
    #[inline]
    pub fn input(&self, i: usize) -> &[f64] {
        &self.signals[self.inputs[i].range()]
    }

    /// Input `i`'s first element (a scalar input).
    #[inline]
    pub fn input_scalar(&self, i: usize) -> f64 {
        self.signals[self.inputs[i].offset as usize]
    }

    /// Output `o`'s values, to write.
    #[inline]
    pub fn output(&mut self, o: usize) -> &mut [f64] {
        &mut self.signals[self.outputs[o].range()]
    }

    /// Output `o`'s values as last written.
    #[inline]
    pub fn output_value(&self, o: usize) -> &[f64] {
        &self.signals[self.outputs[o].range()]
    }

    /// Sets output `o`'s first element.
    #[inline]
    pub fn set_output_scalar(&mut self, o: usize, value: f64) {
        self.signals[self.outputs[o].offset as usize] = value;
    }

    /// Input `i` and output `o` at once. Their slots never overlap for a direct-feedthrough pair
    /// (that would be an algebraic loop, rejected when the diagram is built).
    #[inline]
    pub fn input_output(&mut self, i: usize, o: usize) -> (&[f64], &mut [f64]) {
        let (ri, ro) = (self.inputs[i].range(), self.outputs[o].range());
        assert!(
            ri.end <= ro.start || ro.end <= ri.start || ri.is_empty(),
            "input and output slots overlap"
        );
        if ri.end <= ro.start {
            let (a, b) = self.signals.split_at_mut(ro.start);
            (&a[ri], &mut b[..ro.end - ro.start])
        } else {
            let (a, b) = self.signals.split_at_mut(ri.start);
            (&b[..ri.end - ri.start], &mut a[ro])
        }
    }
}

/// The run-time view of one block.
///
/// Inputs are read from and outputs written to one flat buffer ([`Io`]); an input's slot is its
/// source output's slot (or an all-zero slot for an unconnected optional input). The fields are
/// separate so that a block can hold its scratch space and read its inputs at the same time
/// (`ctx.io.input(..)` while `ctx.scratch` is borrowed).
pub struct Ctx<'a> {
    /// Simulation time, s.
    pub t: f64,
    /// Inputs and outputs.
    pub io: Io<'a>,
    /// The block's continuous states (a copy the engine owns; event handlers may change them).
    pub states: &'a mut [f64],
    /// The block's work slots: modes and discrete states, kept across steps.
    pub work: &'a mut [f64],
    /// The block's scratch space (see [`super::Block::create_scratch`]).
    pub scratch: &'a mut (dyn Any + Send),
    /// True when the outputs are evaluated only to be recorded at a point inside an accepted
    /// step (a refined output row or a sample taken from the dense output): nothing the run's
    /// integration reads later (warm starts, mode counts, caches in the scratch) may change.
    /// [`Ctx::new`] sets it false.
    pub interior: bool,
    /// Set when the evaluation serves one island of the island integration
    /// (`sim::islands`): the mechanism bodies (indexed by mechanism body, the World's entry
    /// false) whose outputs and derivatives the island's solver reads. A block that can may
    /// then evaluate those bodies only and leave its outputs for the others as they were (the
    /// mechanism, a contact group); every other block ignores it. [`Ctx::new`] sets `None`.
    pub island: Option<&'a [bool]>,
}

impl<'a> Ctx<'a> {
    /// Assembles a context (used by the engine and by block unit tests).
    pub fn new(
        t: f64,
        signals: &'a mut [f64],
        inputs: &'a [Slot],
        outputs: &'a [Slot],
        states: &'a mut [f64],
        work: &'a mut [f64],
        scratch: &'a mut (dyn Any + Send),
    ) -> Self {
        Ctx {
            t,
            io: Io {
                signals,
                inputs,
                outputs,
            },
            states,
            work,
            scratch,
            interior: false,
            island: None,
        }
    }

    /// Input `i`'s values.
    #[inline]
    pub fn input(&self, i: usize) -> &[f64] {
        self.io.input(i)
    }

    /// Input `i`'s first element (a scalar input).
    #[inline]
    pub fn input_scalar(&self, i: usize) -> f64 {
        self.io.input_scalar(i)
    }

    /// Output `o`'s values, to write.
    #[inline]
    pub fn output(&mut self, o: usize) -> &mut [f64] {
        self.io.output(o)
    }

    /// Output `o`'s values as last written.
    #[inline]
    pub fn output_value(&self, o: usize) -> &[f64] {
        self.io.output_value(o)
    }

    /// Sets output `o`'s first element.
    #[inline]
    pub fn set_output_scalar(&mut self, o: usize, value: f64) {
        self.io.set_output_scalar(o, value)
    }

    /// The whole signal buffer and this block's input and output slots, for blocks that read
    /// many ports at once. Prefer the port accessors.
    pub fn raw(&mut self) -> (&mut [f64], &[Slot], &[Slot]) {
        self.io.raw()
    }

    /// Input `i` and output `o` at once (see [`Io::input_output`]).
    #[inline]
    pub fn input_output(&mut self, i: usize, o: usize) -> (&[f64], &mut [f64]) {
        self.io.input_output(i, o)
    }
}
