//! Discrete blocks: ZeroOrderHold and UnitDelay, sampled at `offset + k·sample_time`.
//!
//! Sampling happens in the event handler at each exact sample hit (a time event), reading the
//! input at the hit. The output depends only on work slots, so neither block declares direct
//! feedthrough: a discrete block breaks an algebraic loop. The index of the next hit is kept in a
//! work slot and hit times are always recomputed from it the same way, so the engine landing on
//! the time returned by `next_time_event` is recognised exactly.

use super::common::{
    at, check_input_is_output, check_values_len, port, read_array_or, SampleClock,
};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::params::{ParamError, Params};

/// Runs `sample` if a hit is due at `ctx.t` (index in `work[k_slot]`), then moves the index past
/// `ctx.t`. True when it sampled.
fn on_hit(
    clock: &SampleClock,
    ctx: &mut Ctx,
    k_slot: usize,
    sample: impl FnOnce(&mut Ctx),
) -> bool {
    let k = ctx.work[k_slot];
    if clock.hit(k) > ctx.t {
        return false;
    }
    sample(ctx);
    let mut next = k + 1.0;
    while clock.hit(next) <= ctx.t {
        next += 1.0;
    }
    ctx.work[k_slot] = next;
    true
}

// ---------------------------------------------------------------- ZeroOrderHold

/// `out(t) = in(t_k)` for `t_k ≤ t < t_{k+1}`; 0 before the first hit.
/// Work slots: `[held value (n), index of the next hit]`.
struct ZeroOrderHold {
    clock: SampleClock,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    n: usize,
}

impl Block for ZeroOrderHold {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.passed(0, 0)]
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        check_input_is_output(&self.inputs[0], inputs[0], outputs[0])?;
        self.n = outputs[0].len();
        Ok(Setup {
            num_work: self.n + 1,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work[..self.n].fill(0.0);
        ctx.work[self.n] = self.clock.first_at_or_after(ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        for e in 0..self.n {
            let v = ctx.work[e];
            ctx.output(0)[e] = v;
        }
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        Some(self.clock.next_after(t, work[self.n]))
    }
    fn period(&self) -> Option<(&'static str, f64)> {
        Some(("sample_time", self.clock.period))
    }
    fn samples_at_start(&self) -> bool {
        true
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        let n = self.n;
        on_hit(&self.clock, ctx, n, |ctx| {
            for e in 0..n {
                ctx.work[e] = ctx.input(0)[e];
            }
        })
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.handle_event(ctx, &[], true)
    }
}

fn build_zoh(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let clock = SampleClock::read(r)?;
    r.finish()?;
    Ok(Box::new(ZeroOrderHold {
        clock,
        inputs: vec![PortDecl::inherited("in")],
        outputs: vec![PortDecl::inherited("out")],
        n: 0,
    }))
}

pub static ZERO_ORDER_HOLD: BlockType = BlockType {
    name: "ZeroOrderHold",
    category: "Discrete",
    summary:
        "Samples its input at t = offset + k·sample_time (exact time events, the first at the \
              start when offset = 0) and holds it until the next hit; 0 before the first hit.",
    params: &[SampleClock::SAMPLE_TIME.doc, SampleClock::OFFSET.doc],
    ports: &[
        port("in", "input", "inherited", "", "the signal to sample"),
        port("out", "output", "same as in", "", "the held sample"),
    ],
    build: build_zoh,
};

// ---------------------------------------------------------------- UnitDelay

/// `y[k] = u[k−1]`, `y[0] = initial`: at hit k the output becomes the input sampled at hit k−1.
/// Work slots: `[output (n), stored input (n), index of the next hit]`.
struct UnitDelay {
    clock: SampleClock,
    /// One value broadcast, or one per element.
    initial: Vec<f64>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    n: usize,
}

impl Block for UnitDelay {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.passed(0, 0)]
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        check_input_is_output(&self.inputs[0], inputs[0], outputs[0])?;
        self.n = outputs[0].len();
        check_values_len("initial", self.initial.len(), self.n)?;
        Ok(Setup {
            num_work: 2 * self.n + 1,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        for e in 0..self.n {
            ctx.work[e] = at(&self.initial, e);
            ctx.work[self.n + e] = at(&self.initial, e);
        }
        ctx.work[2 * self.n] = self.clock.first_at_or_after(ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        for e in 0..self.n {
            let v = ctx.work[e];
            ctx.output(0)[e] = v;
        }
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        Some(self.clock.next_after(t, work[2 * self.n]))
    }
    fn period(&self) -> Option<(&'static str, f64)> {
        Some(("sample_time", self.clock.period))
    }
    fn samples_at_start(&self) -> bool {
        true
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        let n = self.n;
        on_hit(&self.clock, ctx, 2 * n, |ctx| {
            for e in 0..n {
                ctx.work[e] = ctx.work[n + e];
                ctx.work[n + e] = ctx.input(0)[e];
            }
        })
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.handle_event(ctx, &[], true)
    }
}

const DELAY_INITIAL: Param<f64> = crate::param!(
    "initial",
    "",
    0.0,
    "output before the first delayed sample: a number (broadcast) or an array"
);

fn build_unit_delay(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let clock = SampleClock::read(r)?;
    let (initial, shape) = read_array_or(r, &DELAY_INITIAL)?;
    r.finish()?;
    let out = if initial.len() == 1 {
        PortDecl::inherited("out")
    } else {
        PortDecl::signal("out", shape)
    };
    Ok(Box::new(UnitDelay {
        clock,
        initial,
        inputs: vec![PortDecl::inherited("in")],
        outputs: vec![out],
        n: 0,
    }))
}

pub static UNIT_DELAY: BlockType = BlockType {
    name: "UnitDelay",
    category: "Discrete",
    summary:
        "Delays its sampled input by one sample period: at each hit t_k = offset + k·sample_time \
              the output becomes the input sampled at t_(k−1) (`initial` until the second hit).",
    params: &[
        SampleClock::SAMPLE_TIME.doc,
        SampleClock::OFFSET.doc,
        DELAY_INITIAL.doc,
    ],
    ports: &[
        port("in", "input", "same as out", "", "the signal to delay"),
        port(
            "out",
            "output",
            "shape of initial, or inherited from in when initial is a number",
            "",
            "the delayed sample",
        ),
    ],
    build: build_unit_delay,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn zero_order_hold_samples_at_exact_hits() {
        let mut h = Harness::scalar("ZeroOrderHold", "sample_time = 0.1");
        assert!(h.setup.feedthrough.is_empty());
        h.set_input(0, &[7.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![7.0], "sampled at the start");
        h.set_input(0, &[8.0]);
        assert_eq!(h.out_at(0.05, 0), vec![7.0]);
        assert_eq!(h.next_time_event(), Some(0.1));
        assert!(h.time_event(0.1));
        assert_eq!(h.out_at(0.1, 0), vec![8.0]);
        // 0.1·3 is not 0.3 in binary; the hit time is recomputed from its index either way.
        h.t = 0.2;
        h.time_event(0.2);
        h.t = 0.25;
        assert_eq!(h.next_time_event(), Some(3.0 * 0.1));
    }

    #[test]
    fn zero_order_hold_with_offset_outputs_zero_before_the_first_hit() {
        let mut h = Harness::scalar("ZeroOrderHold", "sample_time = 1.0\noffset = 0.5");
        h.set_input(0, &[3.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![0.0]);
        assert_eq!(h.next_time_event(), Some(0.5));
        assert!(h.time_event(0.5));
        assert_eq!(h.out_at(0.7, 0), vec![3.0]);
        assert_eq!(h.next_time_event(), Some(1.5));
    }

    #[test]
    fn unit_delay_shifts_by_one_sample() {
        let mut h = Harness::new(
            "UnitDelay",
            "sample_time = 1.0\ninitial = [-1.0, -2.0]",
            &[Shape::vector(2)],
        );
        h.set_input(0, &[1.0, 10.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![-1.0, -2.0]);
        h.set_input(0, &[2.0, 20.0]);
        h.time_event(1.0);
        assert_eq!(h.out_at(1.0, 0), vec![1.0, 10.0]);
        h.set_input(0, &[3.0, 30.0]);
        h.time_event(2.0);
        assert_eq!(h.out_at(2.5, 0), vec![2.0, 20.0]);
        assert!(h.setup.feedthrough.is_empty());
    }

    #[test]
    fn bad_sample_times() {
        assert!(build_error("ZeroOrderHold", "sample_time = -0.1")
            .contains("'sample_time' must be positive"));
        assert!(build_error("ZeroOrderHold", "").contains("missing parameter 'sample_time'"));
        assert!(build_error("UnitDelay", "sample_time = 0.1\noffset = 0.2")
            .contains("smaller than sample_time"));
    }
}
