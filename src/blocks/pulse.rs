//! PulseGenerator: a rectangular pulse train whose edges are exact time events (see
//! `sources` for the conventions every source follows).

use super::common::port;
use super::sources::{out_port, source_setup};
use super::unit_key::{UnitKey, UNIT_DOC};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::param;
use crate::params::{ParamError, Params};

/// A rectangular pulse train: `amplitude` during `[delay + k·period, delay + k·period + width)`,
/// 0 otherwise (and 0 before `delay`).
///
/// Edges are numbered j = 0, 1, 2, …: edge 2k rises at `delay + k·period`, edge 2k+1 falls at
/// `delay + k·period + width`. Work slot 0 is the level (0 low, 1 high), slot 1 the index of the
/// next edge; edge times are recomputed from the index the same way every time, so a time event
/// returned by `next_time_event` is recognised exactly when the engine lands on it.
struct PulseGenerator {
    amplitude: f64,
    period: f64,
    width: f64,
    delay: f64,
    /// The `unit` key: the output's unit.
    unit: UnitKey,
    outputs: Vec<PortDecl>,
}

impl PulseGenerator {
    fn edge_time(&self, j: f64) -> f64 {
        let k = (j / 2.0).floor();
        let rise = self.delay + k * self.period;
        if j - 2.0 * k > 0.5 {
            rise + self.width
        } else {
            rise
        }
    }

    /// Applies every edge at or before `t`; true when the level or edge index changed.
    fn advance(&self, work: &mut [f64], t: f64) -> bool {
        let mut changed = false;
        while self.edge_time(work[1]) <= t {
            work[0] = if work[1] % 2.0 == 0.0 { 1.0 } else { 0.0 };
            work[1] += 1.0;
            changed = true;
        }
        changed
    }
}

impl Block for PulseGenerator {
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
        Ok(source_setup(2))
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work[0] = 0.0;
        ctx.work[1] = 0.0;
        if ctx.t > self.delay {
            // Start one period early so that rounding in the division cannot skip an edge.
            let k = ((ctx.t - self.delay) / self.period).floor() - 1.0;
            ctx.work[1] = 2.0 * k.max(0.0);
        }
        self.advance(ctx.work, ctx.t);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let y = if ctx.work[0] != 0.0 {
            self.amplitude
        } else {
            0.0
        };
        ctx.set_output_scalar(0, y);
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        let mut j = work[1];
        while self.edge_time(j) <= t {
            j += 1.0;
        }
        Some(self.edge_time(j))
    }
    fn period(&self) -> Option<(&'static str, f64)> {
        // Two edges per period: the budget counts events, so the half period.
        Some(("period", 0.5 * self.period))
    }
    fn handle_event(&self, ctx: &mut Ctx, _: &[bool], _: bool) -> bool {
        self.advance(ctx.work, ctx.t)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.advance(ctx.work, ctx.t)
    }
}

const PULSE_AMPLITUDE: Param<f64> = param!("amplitude", "", 1.0, "output while the pulse is high");
const PULSE_PERIOD: Param<f64> = param!("period", "s", 1.0, "pulse period (> 0)"; positive);
const PULSE_WIDTH: Param<f64> = param!(
    "pulse_width",
    "%",
    50.0,
    "high time as a percentage of the period, in (0, 100)"
);
const PULSE_PHASE_DELAY: Param<f64> = param!(
    "phase_delay",
    "s",
    0.0,
    "time of the first rising edge (≥ 0); the output is 0 before"; non_negative,
);

fn build_pulse(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let amplitude = PULSE_AMPLITUDE.read(r)?;
    let period = PULSE_PERIOD.read(r)?;
    let percent = PULSE_WIDTH.read(r)?;
    r.ensure(
        percent > 0.0 && percent < 100.0,
        "pulse_width",
        &format!("must be strictly between 0 and 100 percent of the period (got {percent})"),
        "write e.g. pulse_width = 50.0 (percent); for a constant use a Constant block",
    )?;
    let delay = PULSE_PHASE_DELAY.read(r)?;
    let unit = UnitKey::read(r)?;
    r.finish()?;
    let b = PulseGenerator {
        amplitude,
        period,
        width: percent / 100.0 * period,
        delay,
        unit,
        outputs: out_port(Shape::SCALAR),
    };
    Ok(Box::new(b))
}

pub static PULSE_GENERATOR: BlockType = BlockType {
    name: "PulseGenerator",
    category: "Sources",
    summary: "A rectangular pulse train: `amplitude` for the first `pulse_width` percent of every \
              period starting at `phase_delay`, 0 otherwise. Each edge is an exact time event.",
    params: &[
        PULSE_AMPLITUDE.doc,
        PULSE_PERIOD.doc,
        PULSE_WIDTH.doc,
        PULSE_PHASE_DELAY.doc,
        UNIT_DOC,
    ],
    ports: &[port("out", "output", "1×1", "`unit`", "the pulse train")],
    build: build_pulse,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};

    #[test]
    fn pulse_generator_edges_are_time_events() {
        // Period 2 s, 25 % width → high on [1 + 2k, 1.5 + 2k).
        let mut h = Harness::scalar(
            "PulseGenerator",
            "amplitude = 3.0\nperiod = 2.0\npulse_width = 25.0\nphase_delay = 1.0",
        );
        h.initialize(0.0);
        assert_eq!(h.out_at(0.5, 0), vec![0.0]);
        assert_eq!(h.next_time_event(), Some(1.0));
        h.time_event(1.0);
        assert_eq!(h.out_at(1.2, 0), vec![3.0]);
        assert_eq!(h.next_time_event(), Some(1.5));
        h.time_event(1.5);
        assert_eq!(h.out_at(1.7, 0), vec![0.0]);
        assert_eq!(h.next_time_event(), Some(3.0));
        // Starting mid-pulse at t = 5.2 (high on [5, 5.5)).
        let mut h = Harness::scalar(
            "PulseGenerator",
            "amplitude = 3.0\nperiod = 2.0\npulse_width = 25.0\nphase_delay = 1.0",
        );
        h.initialize(5.2);
        assert_eq!(h.out_at(5.2, 0), vec![3.0]);
        assert_eq!(h.next_time_event(), Some(5.5));
        assert!(build_error("PulseGenerator", "pulse_width = 100")
            .contains("strictly between 0 and 100"));
        assert!(build_error("PulseGenerator", "period = -1").contains("must be positive"));
    }
}
