//! Piecewise-smooth math: Abs, Saturation, MinMax.
//!
//! The outputs are always the exact function of the current inputs (no modes, so a missed kink can
//! never leave a wrong output behind); each kink has a zero-crossing function (direction Either)
//! whose only purpose is to make the solver end a step there. The event handlers change nothing.

use super::common::{
    at, check_broadcast, check_limit_len, numbered_ports, param, port, propagate_broadcast,
    read_limits, read_port_count,
};
use crate::block::{
    kernel, Block, BlockError, BlockType, Ctx, Param, PortDecl, ScalarKernel, Setup, Shape,
    UnitInputs, Units,
};
use crate::param;
use crate::params::{ParamError, Params};
use crate::solver::Direction;

fn single_io() -> (Vec<PortDecl>, Vec<PortDecl>) {
    (
        vec![PortDecl::inherited("in")],
        vec![PortDecl::inherited("out")],
    )
}

// ---------------------------------------------------------------- Abs

/// `out[e] = |in[e]|`; zero crossing `g_e = in[e]`.
struct Abs {
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Abs {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.passed(0, 0)]
    }
    fn setup(&mut self, inputs: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup {
            zero_crossings: vec![Direction::Either; inputs[0].len()],
            ..Setup::memoryless(1, 1)
        })
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (u, y) = ctx.input_output(0, 0);
        y.iter_mut().zip(u).for_each(|(y, u)| *y = u.abs());
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        g.copy_from_slice(ctx.input(0));
    }
}

fn build_abs(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    r.finish()?;
    let (inputs, outputs) = single_io();
    Ok(Box::new(Abs { inputs, outputs }))
}

pub static ABS: BlockType = BlockType {
    name: "Abs",
    category: "Math",
    summary: "Absolute value, element-wise. A zero crossing on each element ends solver steps at the kink.",
    params: &[],
    ports: &[
        port("in", "input", "inherited", "", "the signal"),
        port("out", "output", "same as in", "", "the absolute value of in"),
    ],
    build: build_abs,
};

// ---------------------------------------------------------------- Saturation

/// `out[e] = min(max(in[e], lower[e]), upper[e])`; zero crossings `in[e] − upper[e]` then
/// `in[e] − lower[e]` (for the limits that are given), element by element. Each limit is one number
/// for every element or one value per element.
struct Saturation {
    lower: Option<Vec<f64>>,
    upper: Option<Vec<f64>>,
    /// `(lower, upper)` (±∞ where not given) when the input has one element, set by `setup`: the
    /// common case, evaluated without the per-element broadcast.
    scalar_limits: Option<(f64, f64)>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Saturation {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.passed(0, 0)]
    }
    fn setup(&mut self, inputs: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        check_limit_len("lower", self.lower.as_deref(), inputs[0].len())?;
        check_limit_len("upper", self.upper.as_deref(), inputs[0].len())?;
        self.scalar_limits = (inputs[0].len() == 1).then(|| {
            let first = |limit: &Option<Vec<f64>>, none: f64| limit.as_ref().map_or(none, |v| v[0]);
            (
                first(&self.lower, f64::NEG_INFINITY),
                first(&self.upper, f64::INFINITY),
            )
        });
        let per = usize::from(self.lower.is_some()) + usize::from(self.upper.is_some());
        Ok(Setup {
            zero_crossings: vec![Direction::Either; per * inputs[0].len()],
            ..Setup::memoryless(1, 1)
        })
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        if let Some((lower, upper)) = self.scalar_limits {
            let u = ctx.input_scalar(0);
            ctx.set_output_scalar(0, kernel::clamp(u, lower, upper));
            return;
        }
        let (u, y) = ctx.input_output(0, 0);
        for (e, (y, u)) in y.iter_mut().zip(u).enumerate() {
            let lo = self
                .lower
                .as_deref()
                .map_or(f64::NEG_INFINITY, |v| at(v, e));
            let hi = self.upper.as_deref().map_or(f64::INFINITY, |v| at(v, e));
            *y = kernel::clamp(*u, lo, hi);
        }
    }
    fn scalar_kernel(&self) -> Option<ScalarKernel<'_>> {
        self.scalar_limits
            .map(|(lower, upper)| ScalarKernel::Clamp { lower, upper })
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let u = ctx.input(0);
        let mut k = 0;
        for limit in [&self.upper, &self.lower].into_iter().flatten() {
            for (e, &x) in u.iter().enumerate() {
                g[k] = x - at(limit, e);
                k += 1;
            }
        }
    }
}

fn build_saturation(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let (lower, upper) = read_limits(r, "lower", "upper")?;
    if lower.is_none() && upper.is_none() {
        return Err(r
            .table_error("Saturation needs 'lower', 'upper' or both")
            .hint("add e.g. lower = -1.0 and upper = 1.0"));
    }
    r.finish()?;
    let (inputs, outputs) = single_io();
    Ok(Box::new(Saturation {
        lower,
        upper,
        scalar_limits: None,
        inputs,
        outputs,
    }))
}

pub static SATURATION: BlockType = BlockType {
    name: "Saturation",
    category: "Discontinuities",
    summary: "Limits its input element-wise to [lower, upper] (either limit may be omitted). \
              Zero crossings at both limits end solver steps at the kinks.",
    params: &[
        param(
            "lower",
            "",
            "none (−∞)",
            "lower limit: a number, or one value per element ([a, b, ...])",
        ),
        param(
            "upper",
            "",
            "none (+∞)",
            "upper limit, > lower: a number, or one value per element",
        ),
    ],
    ports: &[
        port("in", "input", "inherited", "", "the signal"),
        port("out", "output", "same as in", "", "the limited signal"),
    ],
    build: build_saturation,
};

// ---------------------------------------------------------------- MinMax

/// With one input: `out = min/max over the input's elements` (1×1). With N ≥ 2 inputs:
/// `out[e] = min/max_i in_i[e]`, a 1×1 input broadcast. Zero crossings: the difference of every
/// pair of candidates (per element), which changes sign wherever the selected candidate can switch.
struct MinMax {
    max: bool,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    /// Number of candidates per output element (input elements for one input, inputs otherwise).
    candidates: usize,
}

impl MinMax {
    fn pick(&self, a: f64, b: f64) -> f64 {
        if self.max {
            a.max(b)
        } else {
            a.min(b)
        }
    }
}

impl Block for MinMax {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        if io.units.len() == 1 {
            return vec![io.reduced(0)];
        }
        let all: Vec<usize> = (0..io.units.len()).collect();
        vec![io.agreed(0, &all)]
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        propagate_broadcast(inputs, outputs)
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.inputs.len() > 1 {
            check_broadcast(&self.inputs, inputs, outputs[0])?;
        } else {
            self.candidates = inputs[0].len();
        }
        let pairs = self.candidates * (self.candidates.saturating_sub(1)) / 2;
        Ok(Setup {
            zero_crossings: vec![Direction::Either; pairs * outputs[0].len()],
            ..Setup::memoryless(self.inputs.len(), 1)
        })
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (sig, ins, outs) = ctx.raw();
        let o = outs[0];
        if self.inputs.len() == 1 {
            let u = &sig[ins[0].range()];
            sig[o.offset as usize] = u
                .iter()
                .copied()
                .reduce(|a, b| self.pick(a, b))
                .unwrap_or(0.0);
            return;
        }
        for e in 0..o.len as usize {
            let y = ins
                .iter()
                .map(|i| at(&sig[i.range()], e))
                .reduce(|a, b| self.pick(a, b))
                .unwrap_or(0.0);
            sig[o.offset as usize + e] = y;
        }
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let single = self.inputs.len() == 1;
        let n_out = ctx.output_value(0).len();
        let value = |ctx: &Ctx, c: usize, e: usize| {
            if single {
                ctx.input(0)[c]
            } else {
                at(ctx.input(c), e)
            }
        };
        let mut k = 0;
        for e in 0..n_out {
            for a in 0..self.candidates {
                for b in a + 1..self.candidates {
                    g[k] = value(ctx, a, e) - value(ctx, b, e);
                    k += 1;
                }
            }
        }
    }
}

const FUNCTION: Param<&str> =
    param!("function", "", "min", "\"min\" or \"max\""; one_of["min", "max"]);
const MIN_MAX_INPUTS: Param<usize> = param!("inputs", "", 1, "number of inputs N");

fn build_minmax(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let max = FUNCTION.read(r)? == "max";
    let n = read_port_count(r, &MIN_MAX_INPUTS, 1)?;
    r.finish()?;
    let outputs = if n == 1 {
        vec![PortDecl::scalar("out")]
    } else {
        vec![PortDecl::inherited("out")]
    };
    let inputs = if n == 1 {
        vec![PortDecl::inherited("in1")]
    } else {
        numbered_ports("in", n)
    };
    Ok(Box::new(MinMax {
        max,
        inputs,
        outputs,
        candidates: n,
    }))
}

pub static MIN_MAX: BlockType = BlockType {
    name: "MinMax",
    category: "Math",
    summary: "Minimum or maximum: of the elements of its one input (1×1 output), or element-wise \
              across N ≥ 2 inputs. Zero crossings end solver steps where the selected value switches.",
    params: &[
        FUNCTION.doc,
        MIN_MAX_INPUTS.doc,
    ],
    ports: &[
        port("in1..inN", "input", "inherited (equal, or 1×1)", "", "the candidates"),
        port("out", "output", "1×1 for one input, else the common input shape", "", "the min or max"),
    ],
    build: build_minmax,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;
    use crate::solver::Direction;

    #[test]
    fn abs_and_its_zero_crossings() {
        let mut h = Harness::new("Abs", "", &[Shape::vector(2)]);
        h.set_input(0, &[-1.5, 2.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.5, 2.0]);
        assert_eq!(h.zero_crossings(), vec![-1.5, 2.0]);
        assert_eq!(h.setup.zero_crossings, vec![Direction::Either; 2]);
        assert!(!h.cross(0.0, 0), "the handler changes nothing");
    }

    #[test]
    fn saturation_limits_and_kinks() {
        let mut h = Harness::new(
            "Saturation",
            "lower = -1.0\nupper = 2.0",
            &[Shape::vector(3)],
        );
        h.set_input(0, &[-3.0, 0.5, 5.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-1.0, 0.5, 2.0]);
        // upper crossings first, then lower ones.
        assert_eq!(h.zero_crossings(), vec![-5.0, -1.5, 3.0, -2.0, 1.5, 6.0]);
        let mut h = Harness::scalar("Saturation", "upper = 0.0");
        h.set_input(0, &[-7.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-7.0]);
        assert_eq!(h.setup.zero_crossings.len(), 1);
        assert!(build_error("Saturation", "").contains("needs 'lower', 'upper' or both"));
        assert!(build_error("Saturation", "lower = 1\nupper = 0")
            .contains("must be greater than lower"));
    }

    #[test]
    fn saturation_limits_per_element() {
        let mut h = Harness::new(
            "Saturation",
            "lower = [-1.0, 0.0, -2.0]\nupper = [1.0, 0.25, 2.0]",
            &[Shape::vector(3)],
        );
        h.set_input(0, &[-3.0, 0.5, 3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-1.0, 0.25, 2.0]);
        // in − upper per element, then in − lower.
        assert_eq!(h.zero_crossings(), vec![-4.0, 0.25, 1.0, -2.0, 0.5, 5.0]);
        // A single number broadcasts against an array.
        let mut h = Harness::new(
            "Saturation",
            "lower = 0.0\nupper = [1.0, 2.0]",
            &[Shape::vector(2)],
        );
        h.set_input(0, &[5.0, -5.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 0.0]);
        assert!(
            build_error("Saturation", "lower = [0.0, 1.0]\nupper = [1.0, 0.5]")
                .contains("must be greater than lower (0.5 ≤ 1 at element 1)")
        );
        assert!(
            build_error("Saturation", "lower = [0.0, 1.0]\nupper = [1.0, 2.0, 3.0]")
                .contains("has 3 values but 'lower' has 2")
        );
        let Err(e) = Harness::try_new("Saturation", "upper = [1.0, 2.0]", &[Shape::vector(3)])
        else {
            panic!("a 2-element limit on a 3-element signal must be rejected");
        };
        assert!(
            e.contains("'upper' has 2 values but the signal has 3 elements"),
            "{e}"
        );
    }

    #[test]
    fn minmax_over_elements_and_inputs() {
        let mut h = Harness::new("MinMax", "function = \"max\"", &[Shape::vector(3)]);
        h.set_input(0, &[1.0, 5.0, 3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![5.0]);
        // pairs (0,1), (0,2), (1,2)
        assert_eq!(h.zero_crossings(), vec![-4.0, -2.0, 2.0]);
        let mut h = Harness::new("MinMax", "inputs = 2", &[Shape::vector(2), Shape::SCALAR]);
        h.set_input(0, &[1.0, 5.0]);
        h.set_input(1, &[3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 3.0]);
        assert_eq!(h.zero_crossings(), vec![-2.0, 2.0]);
        assert!(build_error("MinMax", "function = \"mean\"").contains("cannot be \"mean\""));
    }
}
