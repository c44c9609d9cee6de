//! Integrator: `ẋ = in`, `out = x`, with optional hard limits and resets.

use super::common::{
    at, bad, check_limit_len, check_values_len, param, port, read_array_or, read_limits,
};
use crate::block::units::integrated_unit;
use crate::block::{
    Block, BlockError, BlockType, Ctx, LinearForm, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::params::{ParamError, Params};
use crate::solver::Direction;

/// Limit mode of one element (work slot e).
const FREE: f64 = 0.0;
const AT_UPPER: f64 = 1.0;
const AT_LOWER: f64 = -1.0;

/// `ẋ = in`, `out = x` element-wise; `x(t0) = initial`.
///
/// **Limits.** With `upper_limit` (and likewise `lower_limit`; each a number for every element or
/// one value per element), each element has a mode in work
/// slot e: free or held at a limit. Zero-crossing functions, all direction Falling (fire when g
/// goes from > 0 to ≤ 0), one per element and limit:
/// - free: `g_upper = upper − x`, `g_lower = x − lower` (the state reaches the limit);
/// - held at upper: `g_upper = in` (fires when the input stops pushing outward); held at lower:
///   `g_lower = −in`.
///
/// At a located reach the handler sets x to the limit bit-exactly and holds it (ẋ = 0, so every
/// solver step keeps x exactly at the limit); when the input points back inside it frees the
/// element. `settle` clamps states found beyond a limit (after a reset) and enters or leaves
/// held mode on a strict sign of the input.
///
/// **Reset.** With `reset = "rising" | "falling" | "either"`, input `reset` has a zero crossing
/// g = reset with that direction; at the event x becomes `initial`, or the input `x0` when
/// `initial_source = "external"` (read at the event, before the reset; x0 is used only at resets
/// and the state at the start is `initial`). Neither `in`, `reset` nor `x0` feeds `out` directly.
struct Integrator {
    /// One value broadcast, or one per element.
    initial: Vec<f64>,
    /// One value broadcast, or one per element.
    lower: Option<Vec<f64>>,
    upper: Option<Vec<f64>>,
    reset: Option<Direction>,
    external: bool,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    /// Number of elements (set in `setup`).
    n: usize,
}

impl Integrator {
    fn reset_input(&self) -> usize {
        1
    }
    fn x0_input(&self) -> usize {
        1 + usize::from(self.reset.is_some())
    }
    /// Index of the first upper-limit, lower-limit and reset zero-crossing functions.
    fn zc_layout(&self) -> (usize, usize, usize) {
        let upper = 0;
        let lower = if self.upper.is_some() { self.n } else { 0 };
        let reset = lower + if self.lower.is_some() { self.n } else { 0 };
        (upper, lower, reset)
    }
    fn has_limits(&self) -> bool {
        self.lower.is_some() || self.upper.is_some()
    }
    /// Element e's lower and upper limits, if given.
    fn limits_at(&self, e: usize) -> (Option<f64>, Option<f64>) {
        (
            self.lower.as_deref().map(|v| at(v, e)),
            self.upper.as_deref().map(|v| at(v, e)),
        )
    }
}

impl Block for Integrator {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    /// Each element's unit integrated over time (m/s → m; see
    /// [`crate::block::units::integrated_unit`]).
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        let n = io.outputs[0].len();
        let len = io.shapes[0].len();
        vec![Units::from_elements((0..n).map(|k| {
            io.units[0].broadcast(len, k).and_then(integrated_unit)
        }))]
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        let out = outputs[0];
        self.n = out.len();
        if inputs[0] != out {
            return Err(BlockError::InputShape {
                port: "in".into(),
                found: inputs[0],
                output: out,
                scalar_ok: false,
            });
        }
        check_values_len("initial", self.initial.len(), self.n)?;
        check_limit_len("lower_limit", self.lower.as_deref(), self.n)?;
        check_limit_len("upper_limit", self.upper.as_deref(), self.n)?;
        if self.reset.is_some() && !inputs[self.reset_input()].is_scalar() {
            return Err(BlockError::NotScalar {
                port: "reset".into(),
                found: inputs[self.reset_input()],
            });
        }
        if self.external && inputs[self.x0_input()] != out {
            return Err(BlockError::InputShape {
                port: "x0".into(),
                found: inputs[self.x0_input()],
                output: out,
                scalar_ok: false,
            });
        }
        let limits = usize::from(self.upper.is_some()) + usize::from(self.lower.is_some());
        let mut zero_crossings = vec![Direction::Falling; limits * self.n];
        zero_crossings.extend(self.reset);
        Ok(Setup {
            num_states: self.n,
            num_work: if self.has_limits() { self.n } else { 0 },
            zero_crossings,
            feedthrough: vec![],
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        for (e, x) in ctx.states.iter_mut().enumerate() {
            *x = at(&self.initial, e);
        }
        ctx.work.fill(FREE);
    }
    fn linear_form(&self, inputs: &[Shape], outputs: &[Shape]) -> Option<LinearForm> {
        let plain = self.lower.is_none() && self.upper.is_none() && self.reset.is_none();
        (plain && inputs[0] == outputs[0]).then_some(LinearForm::Integrator)
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        for e in 0..self.n {
            let x = ctx.states[e];
            ctx.output(0)[e] = x;
        }
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let u = ctx.input(0);
        for (e, d) in dxdt.iter_mut().enumerate() {
            let held = self.has_limits() && ctx.work[e] != FREE;
            *d = if held { 0.0 } else { u[e] };
        }
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let (zu, zl, zr) = self.zc_layout();
        let u = ctx.input(0);
        for e in 0..self.n {
            let x = ctx.states[e];
            let (lower, upper) = self.limits_at(e);
            if let Some(upper) = upper {
                g[zu + e] = if ctx.work[e] == AT_UPPER {
                    u[e]
                } else {
                    upper - x
                };
            }
            if let Some(lower) = lower {
                g[zl + e] = if ctx.work[e] == AT_LOWER {
                    -u[e]
                } else {
                    x - lower
                };
            }
        }
        if self.reset.is_some() {
            g[zr] = ctx.input_scalar(self.reset_input());
        }
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _: bool) -> bool {
        let (zu, zl, zr) = self.zc_layout();
        if self.reset.is_some() && crossed[zr] {
            for e in 0..self.n {
                let x = if self.external {
                    at(ctx.input(self.x0_input()), e)
                } else {
                    at(&self.initial, e)
                };
                ctx.states[e] = x;
            }
            ctx.work.fill(FREE);
            self.settle(ctx);
            return true;
        }
        let mut changed = false;
        for e in 0..self.n {
            let mode = ctx.work[e];
            let (lower, upper) = self.limits_at(e);
            if let Some(upper) = upper.filter(|_| crossed[zu + e]) {
                if mode == FREE {
                    ctx.states[e] = upper;
                    ctx.work[e] = AT_UPPER;
                    changed = true;
                } else if mode == AT_UPPER {
                    ctx.work[e] = FREE;
                    changed = true;
                }
            }
            if let Some(lower) = lower.filter(|_| crossed[zl + e]) {
                if mode == FREE {
                    ctx.states[e] = lower;
                    ctx.work[e] = AT_LOWER;
                    changed = true;
                } else if mode == AT_LOWER {
                    ctx.work[e] = FREE;
                    changed = true;
                }
            }
        }
        changed
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        if !self.has_limits() {
            return false;
        }
        let mut changed = false;
        for e in 0..self.n {
            let (lower, upper) = self.limits_at(e);
            let (lo, hi) = (
                lower.unwrap_or(f64::NEG_INFINITY),
                upper.unwrap_or(f64::INFINITY),
            );
            let u = ctx.input(0)[e];
            let x = ctx.states[e];
            let (new_x, new_mode) = match ctx.work[e] {
                AT_UPPER if u < 0.0 => (x, FREE),
                AT_LOWER if u > 0.0 => (x, FREE),
                FREE if x > hi || (x == hi && u > 0.0) => {
                    (hi, if u > 0.0 { AT_UPPER } else { FREE })
                }
                FREE if x < lo || (x == lo && u < 0.0) => {
                    (lo, if u < 0.0 { AT_LOWER } else { FREE })
                }
                m => (x, m),
            };
            if new_x != x || new_mode != ctx.work[e] {
                ctx.states[e] = new_x;
                ctx.work[e] = new_mode;
                changed = true;
            }
        }
        changed
    }
}

const INITIAL: Param<f64> = crate::param!(
    "initial",
    "",
    0.0,
    "initial state: a number (broadcast over the input's shape) or an array"
);
const RESET: Param<&str> = crate::param!(
    "reset",
    "",
    "none",
    "\"none\", \"rising\", \"falling\" or \"either\": zero crossing of input reset that resets the state"; one_of["none", "rising", "falling", "either"],
);
const INITIAL_SOURCE: Param<&str> = crate::param!(
    "initial_source",
    "",
    "internal",
    "\"internal\" (reset to initial) or \"external\" (reset to input x0, read at the reset; the start state is still initial)"; one_of["internal", "external"],
);

fn build_integrator(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let (initial, shape) = read_array_or(r, &INITIAL)?;
    let (lower, upper) = read_limits(r, "lower_limit", "upper_limit")?;
    // Element by element over the longest of the three, when each is one number or that long
    // (any other mismatch is reported against the signal's size by `setup`).
    let given: Vec<&[f64]> = [Some(&initial), lower.as_ref(), upper.as_ref()]
        .into_iter()
        .flatten()
        .map(Vec::as_slice)
        .collect();
    let n = given.iter().map(|v| v.len()).max().unwrap_or(1);
    let comparable = given.iter().all(|v| v.len() == 1 || v.len() == n);
    let outside = (0..n).filter(|_| comparable).find(|&e| {
        let x = at(&initial, e);
        lower.as_deref().is_some_and(|lo| x < at(lo, e))
            || upper.as_deref().is_some_and(|hi| x > at(hi, e))
    });
    if let Some(e) = outside {
        return Err(bad(
            r,
            "initial",
            format!(
                "'initial' value {} lies outside the limits{}",
                at(&initial, e),
                if n > 1 {
                    format!(" at element {e}")
                } else {
                    String::new()
                }
            ),
            "write an initial value within [lower_limit, upper_limit]",
        ));
    }
    let reset = match RESET.read(r)? {
        "rising" => Some(Direction::Rising),
        "falling" => Some(Direction::Falling),
        "either" => Some(Direction::Either),
        _ => None,
    };
    let external = INITIAL_SOURCE.read(r)? == "external";
    if external && reset.is_none() {
        return Err(bad(
            r,
            "initial_source",
            "'initial_source = \"external\"' is read only at resets, but 'reset' is \"none\"",
            "add reset = \"rising\", \"falling\" or \"either\" (the state at the start is 'initial')",
        ));
    }
    r.finish()?;
    let mut inputs = vec![PortDecl::inherited("in")];
    if reset.is_some() {
        inputs.push(PortDecl::scalar("reset"));
    }
    if external {
        inputs.push(PortDecl::inherited("x0"));
    }
    let out = if initial.len() == 1 {
        PortDecl::inherited("out")
    } else {
        PortDecl::signal("out", shape)
    };
    Ok(Box::new(Integrator {
        initial,
        lower,
        upper,
        reset,
        external,
        inputs,
        outputs: vec![out],
        n: 0,
    }))
}

pub static INTEGRATOR: BlockType = BlockType {
    name: "Integrator",
    category: "Continuous",
    summary: "Integrates its input: ẋ = in, out = x, x(t0) = initial. Optional limits hold the \
              output exactly at a limit from the located instant it is reached until the input points \
              back inside. Optional reset: at a zero crossing of input `reset` the state becomes \
              `initial`, or input `x0` with initial_source = \"external\" (the bouncing-ball pattern: \
              reset = \"falling\" on the height, x0 = −e·v from a Gain on this integrator's output). \
              No input feeds the output directly, so feedback loops through an integrator are legal.",
    params: &[
        INITIAL.doc,
        param(
            "lower_limit",
            "",
            "none",
            "lower saturation limit of the state: a number, or one value per element",
        ),
        param(
            "upper_limit",
            "",
            "none",
            "upper saturation limit of the state, > lower_limit: a number, or one per element",
        ),
        RESET.doc,
        INITIAL_SOURCE.doc,
    ],
    ports: &[
        port("in", "input", "same as out", "", "the derivative ẋ"),
        port("reset", "input", "1×1", "", "reset trigger (only with reset ≠ \"none\")"),
        port("x0", "input", "same as out", "", "reset value (only with initial_source = \"external\")"),
        port("out", "output", "shape of initial, or inherited from in when initial is a number", "", "the state x"),
    ],
    build: build_integrator,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;
    use crate::solver::Direction;

    #[test]
    fn integrates_with_no_feedthrough() {
        let mut h = Harness::new("Integrator", "initial = [1.0, 2.0]", &[Shape::vector(2)]);
        assert!(h.setup.feedthrough.is_empty());
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 2.0]);
        h.set_input(0, &[3.0, -4.0]);
        assert_eq!(h.derivatives(), vec![3.0, -4.0]);
        // Scalar initial broadcasts over the input's shape.
        let h = Harness::new("Integrator", "initial = 0.5", &[Shape::vector(3)]);
        assert_eq!(h.outputs[0], Shape::vector(3));
    }

    #[test]
    fn upper_limit_is_entered_exactly_and_left_when_the_input_reverses() {
        let mut h = Harness::scalar(
            "Integrator",
            "initial = 0.0\nupper_limit = 1.0\nlower_limit = -1.0",
        );
        assert_eq!(
            h.setup.zero_crossings,
            vec![Direction::Falling, Direction::Falling]
        );
        h.initialize(0.0);
        h.set_input(0, &[2.0]);
        // The solver located the reach slightly past the limit.
        h.states[0] = 1.0 + 3e-13;
        assert!(h.zero_crossings()[0] <= 0.0);
        assert!(h.cross(0.5, 0));
        assert_eq!(h.states[0], 1.0, "state set bit-exactly to the limit");
        assert_eq!(h.derivatives(), vec![0.0]);
        assert_eq!(h.out_at(0.6, 0), vec![1.0]);
        // While held, g_upper = in: positive while the input pushes outward.
        assert_eq!(h.zero_crossings()[0], 2.0);
        h.set_input(0, &[-0.5]);
        assert!(h.zero_crossings()[0] < 0.0);
        assert!(h.cross(0.8, 0));
        assert_eq!(h.derivatives(), vec![-0.5]);
        assert_eq!(
            h.zero_crossings()[0],
            0.0,
            "free again: g_upper = upper − x"
        );
    }

    #[test]
    fn settle_clamps_and_holds_at_the_start() {
        let mut h = Harness::scalar("Integrator", "initial = -1.0\nlower_limit = -1.0");
        h.set_input(0, &[-3.0]);
        h.initialize(0.0);
        assert_eq!(h.work[0], -1.0, "held at the lower limit");
        assert_eq!(h.derivatives(), vec![0.0]);
        assert_eq!(h.zero_crossings(), vec![3.0]);
        h.set_input(0, &[1.0]);
        assert!(h.settle_all());
        assert_eq!(h.derivatives(), vec![1.0]);
    }

    #[test]
    fn reset_to_initial_and_to_external_x0() {
        let mut h = Harness::scalar("Integrator", "initial = 5.0\nreset = \"rising\"");
        assert_eq!(h.setup.zero_crossings, vec![Direction::Rising]);
        h.initialize(0.0);
        h.states[0] = 2.0;
        h.set_input(1, &[0.0]);
        assert_eq!(h.zero_crossings(), vec![0.0]);
        assert!(h.cross(1.0, 0));
        assert_eq!(h.states[0], 5.0);
        // Bouncing-ball velocity integrator: reset on the falling height, x0 = −0.8·v⁻.
        let mut h = Harness::scalar(
            "Integrator",
            "initial = 0.0\nreset = \"falling\"\ninitial_source = \"external\"",
        );
        assert_eq!(
            h.block
                .inputs()
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>(),
            ["in", "reset", "x0"]
        );
        h.initialize(0.0);
        h.states[0] = -4.0;
        h.set_input(2, &[3.2]);
        assert!(h.cross(0.9, 0));
        assert_eq!(h.states[0], 3.2);
        assert!(h.setup.feedthrough.is_empty());
    }

    #[test]
    fn bad_parameters() {
        assert!(
            build_error("Integrator", "initial = 2.0\nupper_limit = 1.0")
                .contains("outside the limits")
        );
        assert!(
            build_error("Integrator", "lower_limit = 1.0\nupper_limit = 1.0")
                .contains("greater than lower_limit")
        );
        // Per element: the initial value of element 1 is above its own upper limit.
        let e = build_error(
            "Integrator",
            "initial = [0.0, 2.0]\nupper_limit = [1.0, 1.5]",
        );
        assert!(
            e.contains("value 2 lies outside the limits at element 1"),
            "{e}"
        );
        let e = build_error("Integrator", "lower_limit = [0.0, 3.0]\nupper_limit = 2.0");
        assert!(e.contains("(2 ≤ 3 at element 1)"), "{e}");
        assert!(build_error("Integrator", "initial_source = \"external\"")
            .contains("read only at resets"));
        assert!(build_error("Integrator", "reset = \"up\"").contains("cannot be \"up\""));
        assert!(
            Harness::try_new("Integrator", "initial = [1.0, 2.0]", &[Shape::vector(3)])
                .unwrap_err()
                .contains("must match")
        );
    }
}
