//! Sources: Constant, Step, Ramp, Sine, Clock (PulseGenerator is in `pulse`, FromTable in
//! `from_table`).
//!
//! Every source has the single output `out`. Sources with a discontinuity (Step, Ramp's kink,
//! PulseGenerator's edges) keep a mode in a work slot and switch it only at exact time events, so
//! the solver never steps across a switch and the output during the step that ends at the switch
//! time is the value before the switch.

use super::common::{param, port, read_array};
use super::unit_key::{UnitKey, UNIT_DOC};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::param;
use crate::params::{ParamError, Params};

pub(super) fn out_port(shape: Shape) -> Vec<PortDecl> {
    vec![PortDecl::signal("out", shape)]
}

pub(super) fn source_setup(num_work: usize) -> Setup {
    Setup {
        num_work,
        ..Default::default()
    }
}

// ---------------------------------------------------------------- Constant

/// `out = value` (a number, array or matrix).
struct Constant {
    value: Vec<f64>,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

impl Block for Constant {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        ctx.output(0).copy_from_slice(&self.value);
    }
    fn outputs_are_constant(&self) -> bool {
        true
    }
}

fn build_constant(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let (value, shape) = read_array(r, "value")?.ok_or_else(|| {
        r.table_error("missing parameter 'value'")
            .hint("add value = 1.0 (or an array: value = [1.0, 2.0])")
    })?;
    let unit = UnitKey::read(r)?;
    r.finish()?;
    Ok(Box::new(Constant {
        value,
        unit,
        outputs: out_port(shape),
    }))
}

/// A block whose output `out` (of `shape`) is always `value` (column-major): the Constant
/// block, and what an Inport that nothing drives becomes (zeros).
pub(super) fn constant_block(value: Vec<f64>, shape: Shape) -> Box<dyn Block> {
    Box::new(Constant {
        value,
        unit: UnitKey::default(),
        outputs: out_port(shape),
    })
}

pub static CONSTANT: BlockType = BlockType {
    name: "Constant",
    category: "Sources",
    summary: "Outputs a constant number, column vector (flat array) or matrix (array of rows).",
    params: &[
        param(
            "value",
            "",
            "required",
            "the output: a number, [a, b, ...] (column) or [[row], [row], ...]",
        ),
        UNIT_DOC,
    ],
    ports: &[port(
        "out",
        "output",
        "shape of value",
        "unit",
        "the constant",
    )],
    build: build_constant,
};

// ---------------------------------------------------------------- Step

/// `out = before` for t < time, `after` for t ≥ time. Work slot 0: 0 before the switch, 1 after.
struct Step {
    time: f64,
    before: f64,
    after: f64,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

/// A mode switched once, at an exact time event at `time` (s): work slot 0 is 0 before, 1 from
/// then on. Shared by the sources with one switch (Step, Ramp).
#[derive(Clone, Copy)]
struct SwitchAt(f64);

impl SwitchAt {
    fn initialize(self, work: &mut [f64], t: f64) {
        work[0] = if t >= self.0 { 1.0 } else { 0.0 };
    }
    fn switched(work: &[f64]) -> bool {
        work[0] != 0.0
    }
    fn next_time_event(self, t: f64, work: &[f64]) -> Option<f64> {
        (!Self::switched(work) && self.0 > t).then_some(self.0)
    }
    /// Switches when `t` has reached the time; true when it switched (events and settle).
    fn switch(self, work: &mut [f64], t: f64) -> bool {
        if !Self::switched(work) && t >= self.0 {
            work[0] = 1.0;
            true
        } else {
            false
        }
    }
}

impl Block for Step {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(source_setup(1))
    }
    fn initialize(&self, ctx: &mut Ctx) {
        SwitchAt(self.time).initialize(ctx.work, ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let y = if SwitchAt::switched(ctx.work) {
            self.after
        } else {
            self.before
        };
        ctx.set_output_scalar(0, y);
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        SwitchAt(self.time).next_time_event(t, work)
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        SwitchAt(self.time).switch(ctx.work, ctx.t)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        SwitchAt(self.time).switch(ctx.work, ctx.t)
    }
}

const STEP_TIME: Param<f64> = param!("time", "s", 1.0, "switch time");
const STEP_BEFORE: Param<f64> = param!("before", "", 0.0, "output before the switch");
const STEP_AFTER: Param<f64> = param!("after", "", 1.0, "output from the switch on");

fn build_step(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let b = Step {
        time: STEP_TIME.read(r)?,
        before: STEP_BEFORE.read(r)?,
        after: STEP_AFTER.read(r)?,
        unit: UnitKey::read(r)?,
        outputs: out_port(Shape::SCALAR),
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static STEP: BlockType = BlockType {
    name: "Step",
    category: "Sources",
    summary: "A step from `before` to `after` at `time`, switched at an exact time event \
              (the output at the switch instant, before the event, is still `before`).",
    params: &[STEP_TIME.doc, STEP_BEFORE.doc, STEP_AFTER.doc, UNIT_DOC],
    ports: &[port("out", "output", "1×1", "`unit`", "the step")],
    build: build_step,
};

// ---------------------------------------------------------------- Ramp

/// `out = initial_output` for t < start_time, `initial_output + slope·(t − start_time)` after.
/// Work slot 0: 0 before the start, 1 after (so no step straddles the kink).
struct Ramp {
    slope: f64,
    start_time: f64,
    initial_output: f64,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

impl Block for Ramp {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(source_setup(1))
    }
    fn initialize(&self, ctx: &mut Ctx) {
        SwitchAt(self.start_time).initialize(ctx.work, ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let y = if SwitchAt::switched(ctx.work) {
            self.initial_output + self.slope * (ctx.t - self.start_time)
        } else {
            self.initial_output
        };
        ctx.set_output_scalar(0, y);
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        SwitchAt(self.start_time).next_time_event(t, work)
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        SwitchAt(self.start_time).switch(ctx.work, ctx.t)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        SwitchAt(self.start_time).switch(ctx.work, ctx.t)
    }
}

const RAMP_SLOPE: Param<f64> = param!("slope", "1/s", 1.0, "rate of change after the start");
const RAMP_START_TIME: Param<f64> = param!("start_time", "s", 0.0, "when the ramp starts");
const RAMP_INITIAL_OUTPUT: Param<f64> =
    param!("initial_output", "", 0.0, "output before the start");

fn build_ramp(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let b = Ramp {
        slope: RAMP_SLOPE.read(r)?,
        start_time: RAMP_START_TIME.read(r)?,
        initial_output: RAMP_INITIAL_OUTPUT.read(r)?,
        unit: UnitKey::read(r)?,
        outputs: out_port(Shape::SCALAR),
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static RAMP: BlockType = BlockType {
    name: "Ramp",
    category: "Sources",
    summary: "Holds `initial_output` until `start_time`, then rises with `slope` \
              (out = initial_output + slope·(t − start_time)); the kink is an exact time event.",
    params: &[
        RAMP_SLOPE.doc,
        RAMP_START_TIME.doc,
        RAMP_INITIAL_OUTPUT.doc,
        UNIT_DOC,
    ],
    ports: &[port("out", "output", "1×1", "`unit`", "the ramp")],
    build: build_ramp,
};

// ---------------------------------------------------------------- Sine

/// `out = bias + amplitude·sin(frequency·t + phase)`.
struct Sine {
    amplitude: f64,
    frequency: f64,
    phase: f64,
    bias: f64,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

impl Block for Sine {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let y = self.bias + self.amplitude * (self.frequency * ctx.t + self.phase).sin();
        ctx.set_output_scalar(0, y);
    }
}

const SINE_AMPLITUDE: Param<f64> = param!("amplitude", "", 1.0, "peak deviation from the bias");
const SINE_FREQUENCY: Param<f64> =
    param!("frequency", "rad/s", 1.0, "angular frequency ω (not Hz)");
const SINE_PHASE: Param<f64> = param!("phase", "rad", 0.0, "phase at t = 0");
const SINE_BIAS: Param<f64> = param!("bias", "", 0.0, "offset added to the wave");

fn build_sine(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let b = Sine {
        amplitude: SINE_AMPLITUDE.read(r)?,
        frequency: SINE_FREQUENCY.read(r)?,
        phase: SINE_PHASE.read(r)?,
        bias: SINE_BIAS.read(r)?,
        unit: UnitKey::read(r)?,
        outputs: out_port(Shape::SCALAR),
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static SINE: BlockType = BlockType {
    name: "Sine",
    category: "Sources",
    summary: "A sine wave: out = bias + amplitude·sin(frequency·t + phase).",
    params: &[
        SINE_AMPLITUDE.doc,
        SINE_FREQUENCY.doc,
        SINE_PHASE.doc,
        SINE_BIAS.doc,
        UNIT_DOC,
    ],
    ports: &[port("out", "output", "1×1", "`unit`", "the wave")],
    build: build_sine,
};

// ---------------------------------------------------------------- Clock

/// `out = t`.
struct Clock {
    outputs: Vec<PortDecl>,
}

impl Block for Clock {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let t = ctx.t;
        ctx.set_output_scalar(0, t);
    }
}

fn build_clock(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    r.finish()?;
    Ok(Box::new(Clock {
        outputs: vec![PortDecl::scalar("out").unit("s")],
    }))
}

pub static CLOCK: BlockType = BlockType {
    name: "Clock",
    category: "Sources",
    summary: "Outputs the simulation time.",
    params: &[],
    ports: &[port("out", "output", "1×1", "s", "the time t")],
    build: build_clock,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn constant_outputs_numbers_vectors_and_matrices() {
        let mut h = Harness::scalar("Constant", "value = 3.5");
        assert_eq!(h.out_at(0.0, 0), vec![3.5]);
        let mut h = Harness::scalar("Constant", "value = [1.0, 2.0, 3.0]");
        assert_eq!(h.outputs[0], Shape::vector(3));
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 2.0, 3.0]);
        // Rows [[1, 2], [3, 4]] stored column-major.
        let mut h = Harness::scalar("Constant", "value = [[1.0, 2.0], [3.0, 4.0]]");
        assert_eq!(h.outputs[0], Shape::new(2, 2));
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 3.0, 2.0, 4.0]);
        assert!(build_error("Constant", "").contains("missing parameter 'value'"));
        assert!(build_error("Constant", "value = 1\nvalu = 2").contains("unknown parameter 'valu'"));
    }

    #[test]
    fn step_switches_only_at_its_time_event() {
        let mut h = Harness::scalar("Step", "time = 0.5\nbefore = -1.0\nafter = 2.0");
        h.initialize(0.0);
        assert_eq!(h.out_at(0.2, 0), vec![-1.0]);
        assert_eq!(h.next_time_event(), Some(0.5));
        // The step ending at the switch time still sees the value before the switch.
        assert_eq!(h.out_at(0.5, 0), vec![-1.0]);
        assert!(h.time_event(0.5));
        assert_eq!(h.out_at(0.5, 0), vec![2.0]);
        assert_eq!(h.next_time_event(), None);
        // Starting after the switch time.
        let mut h = Harness::scalar("Step", "time = 0.5");
        h.initialize(1.0);
        assert_eq!(h.out_at(1.0, 0), vec![1.0]);
    }

    #[test]
    fn ramp_holds_then_rises() {
        let mut h = Harness::scalar(
            "Ramp",
            "slope = 2.0\nstart_time = 1.0\ninitial_output = 0.5",
        );
        h.initialize(0.0);
        assert_eq!(h.out_at(0.9, 0), vec![0.5]);
        assert_eq!(h.next_time_event(), Some(1.0));
        h.time_event(1.0);
        // 0.5 + 2·(1.75 − 1) = 2.0
        assert_eq!(h.out_at(1.75, 0), vec![2.0]);
    }

    #[test]
    fn sine_and_clock() {
        let mut h = Harness::scalar(
            "Sine",
            "amplitude = 2.0\nfrequency = 3.0\nphase = 0.5\nbias = 1.0",
        );
        let y = h.out_at(0.7, 0)[0];
        assert!((y - (1.0 + 2.0 * (3.0f64 * 0.7 + 0.5).sin())).abs() < 1e-15);
        let mut h = Harness::scalar("Clock", "");
        assert_eq!(h.out_at(1.25, 0), vec![1.25]);
    }
}
