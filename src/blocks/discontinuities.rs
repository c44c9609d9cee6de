//! Discontinuities: Relay (hysteresis) and HitCrossing (crossing counter).

use super::common::{port, read_direction};
use crate::block::{Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape};
use crate::param;
use crate::params::{ParamError, Params};
use crate::solver::Direction;

// ---------------------------------------------------------------- Relay

/// A relay with hysteresis, element-wise: `out = on_value` while on, `off_value` while off.
///
/// Work slot e is the state of element e (1 on, 0 off), slot n marks the first settle.
/// Zero crossings: `in[e] − on_point` (Rising; switches an off element on) for every e, then
/// `in[e] − off_point` (Falling; switches an on element off). Crossings that do not apply to the
/// element's current state are ignored. `settle` switches on when `in > on_point` and off when
/// `in < off_point` (strictly, so it never undoes a switch located exactly at a threshold), and
/// at the start with `≥` / `≤` like the located switches.
struct Relay {
    on_point: f64,
    off_point: f64,
    on_value: f64,
    off_value: f64,
    initially_on: bool,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    n: usize,
}

impl Block for Relay {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, inputs: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        self.n = inputs[0].len();
        let mut zero_crossings = vec![Direction::Rising; self.n];
        zero_crossings.extend(vec![Direction::Falling; self.n]);
        Ok(Setup {
            num_work: self.n + 1,
            zero_crossings,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work[..self.n].fill(f64::from(u8::from(self.initially_on)));
        ctx.work[self.n] = 0.0;
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        for e in 0..self.n {
            let y = if ctx.work[e] != 0.0 {
                self.on_value
            } else {
                self.off_value
            };
            ctx.output(0)[e] = y;
        }
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let u = ctx.input(0);
        for e in 0..self.n {
            g[e] = u[e] - self.on_point;
            g[self.n + e] = u[e] - self.off_point;
        }
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _: bool) -> bool {
        let mut changed = false;
        for e in 0..self.n {
            let on = ctx.work[e] != 0.0;
            if (!on && crossed[e]) || (on && crossed[self.n + e]) {
                ctx.work[e] = f64::from(u8::from(!on));
                changed = true;
            }
        }
        changed
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        let first = ctx.work[self.n] == 0.0;
        ctx.work[self.n] = 1.0;
        let mut changed = first;
        for e in 0..self.n {
            let u = ctx.input(0)[e];
            let on = ctx.work[e] != 0.0;
            let switch_on = !on && (u > self.on_point || (first && u >= self.on_point));
            let switch_off = on && (u < self.off_point || (first && u <= self.off_point));
            if switch_on || switch_off {
                ctx.work[e] = f64::from(u8::from(switch_on));
                changed = true;
            }
        }
        changed
    }
}

const ON_POINT: Param<f64> = param!(
    "on_point",
    "",
    0.0,
    "input level that switches the relay on"
);
const OFF_POINT: Param<f64> = param!(
    "off_point",
    "",
    0.0,
    "input level that switches it off, ≤ on_point"
);
const ON_VALUE: Param<f64> = param!("on_value", "", 1.0, "output while on");
const OFF_VALUE: Param<f64> = param!("off_value", "", 0.0, "output while off");
const INITIAL_STATE: Param<&str> = param!(
    "initial_state",
    "",
    "off",
    "\"off\" or \"on\" (corrected at the start if the input is already past a switch point)"; one_of["off", "on"],
);

fn build_relay(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let on_point = ON_POINT.read(r)?;
    let off_point = OFF_POINT.read(r)?;
    r.ensure(
        on_point >= off_point,
        "off_point",
        &format!("must not exceed on_point ({off_point} > {on_point})"),
        "write off_point ≤ on_point: the relay switches on at on_point and off at off_point",
    )?;
    let b = Relay {
        on_point,
        off_point,
        on_value: ON_VALUE.read(r)?,
        off_value: OFF_VALUE.read(r)?,
        initially_on: INITIAL_STATE.read(r)? == "on",
        inputs: vec![PortDecl::inherited("in")],
        outputs: vec![PortDecl::inherited("out")],
        n: 0,
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static RELAY: BlockType = BlockType {
    name: "Relay",
    category: "Discontinuities",
    summary: "A relay with hysteresis, element-wise: switches on when the input rises to on_point and \
              off when it falls to off_point (located zero crossings); outputs on_value or off_value.",
    params: &[
        ON_POINT.doc,
        OFF_POINT.doc,
        ON_VALUE.doc,
        OFF_VALUE.doc,
        INITIAL_STATE.doc,
    ],
    ports: &[
        port("in", "input", "inherited", "", "the switching signal"),
        port("out", "output", "same as in", "", "on_value or off_value"),
    ],
    build: build_relay,
};

// ---------------------------------------------------------------- HitCrossing

/// Counts the crossings of `in` through `offset` in the given direction: zero crossing
/// `g = in − offset`, and `out` = number of located crossings so far (work slot 0).
///
/// A counter rather than Simulink's zero-width pulse: a pulse lasting one instant never shows in
/// a recording or plot, whereas a counter is recorded exactly and its steps mark the instants
/// (compare it with a delayed copy, or feed it to a Switch, to act on each hit).
struct HitCrossing {
    offset: f64,
    direction: Direction,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for HitCrossing {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup {
            num_work: 1,
            zero_crossings: vec![self.direction],
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work[0] = 0.0;
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let count = ctx.work[0];
        ctx.set_output_scalar(0, count);
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        g[0] = ctx.input_scalar(0) - self.offset;
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _: bool) -> bool {
        if crossed[0] {
            ctx.work[0] += 1.0;
        }
        crossed[0]
    }
}

const OFFSET: Param<f64> = param!("offset", "", 0.0, "the level to detect");
const DIRECTION: Param<&str> = param!(
    "direction",
    "",
    "either",
    "\"rising\", \"falling\" or \"either\""; one_of["rising", "falling", "either"],
);

fn build_hit_crossing(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let b = HitCrossing {
        offset: OFFSET.read(r)?,
        direction: read_direction(r, &DIRECTION)?,
        inputs: vec![PortDecl::scalar("in")],
        outputs: vec![PortDecl::scalar("out")],
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static HIT_CROSSING: BlockType = BlockType {
    name: "HitCrossing",
    category: "Discontinuities",
    summary: "Locates the instants the input crosses `offset` (a zero crossing, so a solver step ends \
              exactly there) and outputs the number of crossings so far. A counter, unlike Simulink's \
              zero-width pulse, shows up in recordings and plots.",
    params: &[
        OFFSET.doc,
        DIRECTION.doc,
    ],
    ports: &[
        port("in", "input", "1×1", "", "the signal"),
        port("out", "output", "1×1", "", "number of crossings located so far"),
    ],
    build: build_hit_crossing,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::solver::Direction;

    #[test]
    fn relay_hysteresis_sequence() {
        let mut h = Harness::scalar(
            "Relay",
            "on_point = 1.0\noff_point = -1.0\non_value = 5.0\noff_value = -5.0",
        );
        assert_eq!(
            h.setup.zero_crossings,
            vec![Direction::Rising, Direction::Falling]
        );
        h.set_input(0, &[0.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![-5.0]);
        // Rising to 0.5 (inside the band): still off.
        h.set_input(0, &[0.5]);
        assert_eq!(h.zero_crossings(), vec![-0.5, 1.5]);
        assert!(!h.settle_all());
        assert_eq!(h.out_at(0.1, 0), vec![-5.0]);
        // Reaches on_point: the located Rising crossing switches it on.
        h.set_input(0, &[1.0]);
        assert!(h.cross(0.2, 0));
        assert_eq!(h.out_at(0.2, 0), vec![5.0]);
        // Back inside the band: stays on; an on_point crossing while on is ignored.
        h.set_input(0, &[0.0]);
        assert!(!h.cross(0.3, 0));
        assert_eq!(h.out_at(0.3, 0), vec![5.0]);
        // Falls to off_point: off.
        h.set_input(0, &[-1.0]);
        assert!(h.cross(0.4, 1));
        assert_eq!(h.out_at(0.4, 0), vec![-5.0]);
        // A jump beyond on_point seen at another block's event is caught by settle.
        h.set_input(0, &[3.0]);
        assert!(h.settle_all());
        assert_eq!(h.out_at(0.5, 0), vec![5.0]);
    }

    #[test]
    fn relay_starts_on_when_the_input_is_at_on_point() {
        let mut h = Harness::scalar("Relay", "on_point = 1.0");
        h.set_input(0, &[1.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![1.0]);
        assert!(build_error("Relay", "on_point = 0.0\noff_point = 1.0")
            .contains("must not exceed on_point"));
    }

    #[test]
    fn hit_crossing_counts() {
        let mut h = Harness::scalar("HitCrossing", "offset = 2.0\ndirection = \"rising\"");
        assert_eq!(h.setup.zero_crossings, vec![Direction::Rising]);
        assert!(h.setup.feedthrough.is_empty());
        h.set_input(0, &[1.5]);
        h.initialize(0.0);
        assert_eq!(h.zero_crossings(), vec![-0.5]);
        assert!(h.cross(1.0, 0));
        assert!(h.cross(2.0, 0));
        assert_eq!(h.out_at(2.0, 0), vec![2.0]);
        assert!(build_error("HitCrossing", "direction = \"down\"").contains("cannot be \"down\""));
    }
}
