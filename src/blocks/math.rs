//! Linear math: Gain, Sum, Product. Memoryless, every input feeds the output directly.
//! Element-wise blocks broadcast a 1×1 input over the other inputs' shape.

use super::common::{
    at, bad, check_broadcast, check_input_is_output, column, numbered_ports, port,
    propagate_broadcast, read_matrix, read_port_count,
};
use super::unit_key::{UnitKey, UNIT_DOC};
use crate::block::{
    kernel, Block, BlockError, BlockType, Ctx, LinearForm, LinearTerm, Param, PortDecl,
    ScalarKernel, Setup, Shape, UnitInputs, Units,
};
use crate::param;
use crate::params::{ParamError, Params};

// ---------------------------------------------------------------- Gain

enum GainKind {
    /// out = k·in, element-wise.
    Scalar(f64),
    /// out[i] = k[i]·in[i].
    Elementwise(Vec<f64>),
    /// out = K·in with K `rows × cols`, stored row-major.
    Matrix {
        rows: usize,
        cols: usize,
        k: Vec<f64>,
    },
}

/// What a Gain's output is in (`docs/model-format.md`, "Units of signals").
enum GainUnit {
    /// `unit = "..."`: the output's unit, whatever the input's.
    Declared(UnitKey),
    /// `dimensionless = true`: the gain is a pure number, so the output keeps the input's unit
    /// (element-wise gains; a matrix gain mixes elements and gives none).
    Dimensionless,
    /// Neither: the gain's own unit is unknown, so the output's is too.
    Unknown,
}

/// `out = gain · in`: scalar, element-wise (a flat array) or matrix (an array of rows).
struct Gain {
    kind: GainKind,
    unit: GainUnit,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Gain {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![match (&self.unit, &self.kind) {
            (GainUnit::Declared(unit), _) => unit.units(),
            (GainUnit::Dimensionless, GainKind::Matrix { .. }) => Units::Unknown,
            (GainUnit::Dimensionless, _) => io.passed(0, 0),
            (GainUnit::Unknown, _) => Units::Unknown,
        }]
    }
    fn warnings(&self) -> Vec<String> {
        match &self.unit {
            GainUnit::Declared(unit) => unit.warnings(),
            _ => Vec::new(),
        }
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        match &self.kind {
            GainKind::Elementwise(k) if inputs[0].len() != k.len() => {
                return Err(BlockError::ParamLength {
                    param: "gain".into(),
                    len: k.len(),
                    elements: inputs[0].len(),
                    single_ok: false,
                });
            }
            GainKind::Scalar(_) | GainKind::Elementwise(_) => {
                check_input_is_output(&self.inputs[0], inputs[0], outputs[0])?;
            }
            _ => {}
        }
        Ok(Setup::memoryless(1, 1))
    }
    fn linear_form(&self, inputs: &[Shape], outputs: &[Shape]) -> Option<LinearForm> {
        let (n_in, n_out) = (inputs[0].len(), outputs[0].len());
        // One term per product `outputs_eval` computes (zero gains included).
        let terms = match &self.kind {
            GainKind::Scalar(k) if n_in == n_out => {
                (0..n_out).map(|e| LinearTerm::new(0, e, e, *k)).collect()
            }
            GainKind::Elementwise(k) if n_in == n_out && k.len() == n_out => {
                (0..n_out).map(|e| LinearTerm::new(0, e, e, k[e])).collect()
            }
            GainKind::Matrix { rows, cols, k } if *rows == n_out && *cols == n_in => (0..n_out)
                .flat_map(|r| (0..n_in).map(move |j| LinearTerm::new(0, r, j, k[r * n_in + j])))
                .collect(),
            _ => return None,
        };
        Some(LinearForm::Memoryless(terms))
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (u, y) = ctx.input_output(0, 0);
        match &self.kind {
            GainKind::Scalar(k) => y.iter_mut().zip(u).for_each(|(y, u)| *y = k * u),
            GainKind::Elementwise(k) => y
                .iter_mut()
                .zip(u)
                .zip(k)
                .for_each(|((y, u), k)| *y = k * u),
            GainKind::Matrix { rows, cols, k } => {
                for r in 0..*rows {
                    y[r] = k[r * cols..(r + 1) * cols]
                        .iter()
                        .zip(u)
                        .map(|(k, u)| k * u)
                        .sum();
                }
            }
        }
    }
}

const GAIN_K: Param<f64> = param!("gain", "", 1.0, "k, [k0, k1, ...] or [[row], [row], ...]");
const GAIN_DIMENSIONLESS: Param<bool> = param!(
    "dimensionless",
    "",
    false,
    "true: the gain is a pure number, so out keeps in's unit (element-wise gains)"
);

/// The Gain's `unit` or `dimensionless` (not both).
fn read_gain_unit(r: &Params) -> Result<GainUnit, ParamError> {
    let unit = UnitKey::read(r)?;
    let dimensionless = GAIN_DIMENSIONLESS.read(r)?;
    match (unit.written(), dimensionless) {
        (true, true) => Err(bad(
            r,
            "dimensionless",
            "'dimensionless = true' and 'unit' both say what the output is in",
            "keep unit (the output's unit), or dimensionless = true (the input's unit)",
        )),
        (true, false) => Ok(GainUnit::Declared(unit)),
        (false, true) => Ok(GainUnit::Dimensionless),
        (false, false) => Ok(GainUnit::Unknown),
    }
}

fn build_gain(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let nested = r
        .value("gain")
        .and_then(|v| {
            v.as_array()
                .map(|a| a.iter().any(|i| i.as_array().is_some()))
        })
        .unwrap_or(false);
    let kind = if nested {
        let (rows, cols, k) = read_matrix(r, "gain", None, None)?.unwrap_or_default();
        GainKind::Matrix { rows, cols, k }
    } else {
        match r.vector("gain")? {
            None => GainKind::Scalar(GAIN_K.default),
            Some(k) if k.len() == 1 => GainKind::Scalar(k[0]),
            Some(k) if k.is_empty() => {
                return Err(bad(
                    r,
                    "gain",
                    "'gain' must not be empty",
                    "write e.g. gain = 2.0",
                ))
            }
            Some(k) => GainKind::Elementwise(k),
        }
    };
    let unit = read_gain_unit(r)?;
    r.finish()?;
    let (inputs, outputs) = match &kind {
        GainKind::Matrix { rows, cols, .. } => (
            vec![PortDecl::signal("in", column(*cols))],
            vec![PortDecl::signal("out", column(*rows))],
        ),
        _ => (
            vec![PortDecl::inherited("in")],
            vec![PortDecl::inherited("out")],
        ),
    };
    Ok(Box::new(Gain {
        kind,
        unit,
        inputs,
        outputs,
    }))
}

pub static GAIN: BlockType = BlockType {
    name: "Gain",
    category: "Math",
    summary: "Multiplies its input by a gain: a number (out = k·in), a flat array (element-wise, \
              out[i] = k[i]·in[i]) or an array of rows (matrix product out = K·in, K is r×c, in is c×1).",
    params: &[GAIN_K.doc, UNIT_DOC, GAIN_DIMENSIONLESS.doc],
    ports: &[
        port("in", "input", "inherited (c×1 for a matrix gain)", "", "the signal to scale"),
        port("out", "output", "same as in (r×1 for a matrix gain)", "`unit`, or in's if dimensionless", "the scaled signal"),
    ],
    build: build_gain,
};

// ---------------------------------------------------------------- Sum

/// `out = Σ sign_i · in_i` element-wise; with a single sign, `out = ±Σ_e in[e]` (the sum of the
/// input's elements, Simulink's convention).
struct Sum {
    signs: Vec<f64>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Sum {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        if self.signs.len() == 1 {
            return vec![io.reduced(0)];
        }
        let all: Vec<usize> = (0..self.signs.len()).collect();
        vec![io.agreed(0, &all)]
    }
    fn unit_warning(&self, io: &UnitInputs<'_>) -> Option<String> {
        if self.signs.len() == 1 {
            // The sum of in1's elements.
            let n = io.shapes[0].len();
            let mut known = (0..n).filter_map(|k| io.units[0].of(k).map(|u| (k, u)));
            let (k, u) = known.next()?;
            let (l, v) = known.find(|&(_, v)| v != u)?;
            return Some(format!(
                "sums elements of different units: in1[{k}] is in {u}, in1[{l}] in {v}; the sum has no unit"
            ));
        }
        let all: Vec<usize> = (0..self.signs.len()).collect();
        let (i, u, j, v) = io.conflict(0, &all)?;
        Some(format!(
            "adds {} in {u} to {} in {v}: the sum has no unit (is a conversion, or a Gain with a declared unit, missing?)",
            self.inputs[i].name, self.inputs[j].name
        ))
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        propagate_broadcast(inputs, outputs)
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.signs.len() > 1 {
            check_broadcast(&self.inputs, inputs, outputs[0])?;
        }
        Ok(Setup::memoryless(self.inputs.len(), 1))
    }
    fn linear_form(&self, inputs: &[Shape], outputs: &[Shape]) -> Option<LinearForm> {
        let n_out = outputs[0].len();
        if self.signs.len() == 1 {
            // A single input summed over its elements: ±Σ u[e] = Σ ±u[e] exactly.
            let n_in = inputs[0].len();
            return (n_out == 1).then(|| {
                LinearForm::Memoryless(
                    (0..n_in)
                        .map(|j| LinearTerm::new(0, 0, j, self.signs[0]))
                        .collect(),
                )
            });
        }
        let mut terms = Vec::with_capacity(self.signs.len() * n_out);
        for e in 0..n_out {
            for (k, sign) in self.signs.iter().enumerate() {
                let n_in = inputs[k].len();
                // A scalar input is broadcast to every element (as `outputs_eval` does).
                let j = if n_in == 1 {
                    0
                } else if n_in == n_out {
                    e
                } else {
                    return None;
                };
                terms.push(LinearTerm::new(k, e, j, *sign));
            }
        }
        Some(LinearForm::Memoryless(terms))
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (sig, ins, outs) = ctx.raw();
        let o = outs[0];
        if self.signs.len() == 1 {
            sig[o.offset as usize] = self.signs[0] * sig[ins[0].range()].iter().sum::<f64>();
            return;
        }
        for e in 0..o.len as usize {
            let y = self
                .signs
                .iter()
                .zip(ins)
                .map(|(s, i)| s * at(&sig[i.range()], e))
                .sum();
            sig[o.offset as usize + e] = y;
        }
    }
}

const SIGNS: Param<&str> = param!(
    "signs",
    "",
    "++",
    "one '+' or '-' per input; N signs give inputs in1..inN"
);

fn build_sum(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let text = SIGNS.read(r)?;
    let signs: Vec<f64> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '-' { -1.0 } else { 1.0 })
        .collect();
    r.ensure(
        text.chars()
            .all(|c| c == '+' || c == '-' || c.is_whitespace())
            && !signs.is_empty(),
        "signs",
        &format!("must contain only '+' and '-' (got \"{text}\")"),
        "write one sign per input, e.g. signs = \"+-\" for in1 − in2",
    )?;
    r.finish()?;
    let outputs = if signs.len() == 1 {
        vec![PortDecl::scalar("out")]
    } else {
        vec![PortDecl::inherited("out")]
    };
    Ok(Box::new(Sum {
        inputs: numbered_ports("in", signs.len()),
        signs,
        outputs,
    }))
}

pub static SUM: BlockType = BlockType {
    name: "Sum",
    category: "Math",
    summary:
        "Adds and subtracts its inputs element-wise: out = Σ signs[i]·in(i+1); a 1×1 input is \
              broadcast. With a single sign the output is ± the sum of the input's elements.",
    params: &[SIGNS.doc],
    ports: &[
        port(
            "in1..inN",
            "input",
            "inherited (equal, or 1×1)",
            "",
            "the terms",
        ),
        port(
            "out",
            "output",
            "common shape of the inputs (1×1 with one sign)",
            "",
            "the sum",
        ),
    ],
    build: build_sum,
};

// ---------------------------------------------------------------- Product

/// `out = Π in_i^(±1)` element-wise (`*` multiplies, `/` divides); with a single input, the
/// product of its elements.
struct Product {
    /// +1 multiply, −1 divide.
    ops: Vec<f64>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Product {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        propagate_broadcast(inputs, outputs)
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.ops.len() > 1 {
            check_broadcast(&self.inputs, inputs, outputs[0])?;
        }
        Ok(Setup::memoryless(self.inputs.len(), 1))
    }
    fn scalar_kernel(&self) -> Option<ScalarKernel<'_>> {
        // The engine uses it only when both inputs and the output have one element.
        (self.ops.len() == 2).then(|| ScalarKernel::Product2 {
            divide: [self.ops[0] <= 0.0, self.ops[1] <= 0.0],
        })
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (sig, ins, outs) = ctx.raw();
        let o = outs[0];
        let apply = |acc: f64, op: f64, x: f64| kernel::factor(acc, op <= 0.0, x);
        if self.ops.len() == 1 {
            sig[o.offset as usize] = sig[ins[0].range()]
                .iter()
                .fold(1.0, |acc, &x| apply(acc, self.ops[0], x));
            return;
        }
        for e in 0..o.len as usize {
            let y = self
                .ops
                .iter()
                .zip(ins)
                .fold(1.0, |acc, (&op, i)| apply(acc, op, at(&sig[i.range()], e)));
            sig[o.offset as usize + e] = y;
        }
    }
}

const PRODUCT_INPUTS: Param<usize> = param!(
    "inputs",
    "",
    2,
    "number of inputs (all multiplied), or a string of '*' and '/' per input, e.g. \"*/\" = in1/in2"
);

fn build_product(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let inputs = r.value("inputs");
    let ops: Vec<f64> = match inputs.as_ref().and_then(|v| v.as_str()) {
        Some(text) => {
            r.ensure(
                !text.is_empty() && text.chars().all(|c| c == '*' || c == '/'),
                "inputs",
                &format!("must be a count or a string of '*' and '/' (got \"{text}\")"),
                "write inputs = 2, or inputs = \"*/\" for in1 / in2",
            )?;
            text.chars()
                .map(|c| if c == '*' { 1.0 } else { -1.0 })
                .collect()
        }
        None => vec![1.0; read_port_count(r, &PRODUCT_INPUTS, 1)?],
    };
    r.finish()?;
    let outputs = if ops.len() == 1 {
        vec![PortDecl::scalar("out")]
    } else {
        vec![PortDecl::inherited("out")]
    };
    Ok(Box::new(Product {
        inputs: numbered_ports("in", ops.len()),
        ops,
        outputs,
    }))
}

pub static PRODUCT: BlockType = BlockType {
    name: "Product",
    category: "Math",
    summary: "Multiplies (and divides) its inputs element-wise; a 1×1 input is broadcast. With a \
              single input the output is the product of its elements.",
    params: &[PRODUCT_INPUTS.doc],
    ports: &[
        port(
            "in1..inN",
            "input",
            "inherited (equal, or 1×1)",
            "",
            "the factors",
        ),
        port(
            "out",
            "output",
            "common shape of the inputs (1×1 with one input)",
            "",
            "the product",
        ),
    ],
    build: build_product,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn gain_scalar_elementwise_and_matrix() {
        let mut h = Harness::new("Gain", "gain = -2.0", &[Shape::vector(2)]);
        h.set_input(0, &[1.0, -3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-2.0, 6.0]);
        assert_eq!(h.setup.feedthrough, vec![(0, 0)]);
        let mut h = Harness::new("Gain", "gain = [2.0, 3.0]", &[Shape::vector(2)]);
        h.set_input(0, &[1.0, -3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![2.0, -9.0]);
        // K = [[1, 2], [3, 4], [5, 6]] · [1, -1] = [-1, -1, -1]
        let mut h = Harness::new(
            "Gain",
            "gain = [[1, 2], [3, 4], [5, 6]]",
            &[Shape::vector(2)],
        );
        assert_eq!(h.outputs[0], Shape::vector(3));
        h.set_input(0, &[1.0, -1.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-1.0, -1.0, -1.0]);
        assert!(Harness::try_new("Gain", "gain = [2.0, 3.0]", &[Shape::vector(3)]).is_err());
    }

    #[test]
    fn sum_signs_and_broadcast() {
        let mut h = Harness::new(
            "Sum",
            "signs = \"+-+\"",
            &[Shape::vector(2), Shape::SCALAR, Shape::vector(2)],
        );
        assert_eq!(h.outputs[0], Shape::vector(2));
        h.set_input(0, &[1.0, 2.0]);
        h.set_input(1, &[10.0]);
        h.set_input(2, &[100.0, 200.0]);
        assert_eq!(h.out_at(0.0, 0), vec![91.0, 192.0]);
        assert_eq!(h.setup.feedthrough.len(), 3);
        let mut h = Harness::new("Sum", "signs = \"-\"", &[Shape::vector(3)]);
        h.set_input(0, &[1.0, 2.0, 3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![-6.0]);
        assert!(
            build_error("Sum", "signs = \"+*\"").contains("signs' must contain only '+' and '-'")
        );
        assert!(Harness::try_new("Sum", "", &[Shape::vector(2), Shape::vector(3)]).is_err());
    }

    #[test]
    fn product_multiplies_and_divides() {
        let mut h = Harness::new(
            "Product",
            "inputs = \"*/\"",
            &[Shape::vector(2), Shape::SCALAR],
        );
        h.set_input(0, &[3.0, 6.0]);
        h.set_input(1, &[2.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.5, 3.0]);
        let mut h = Harness::new("Product", "inputs = 3", &[Shape::SCALAR; 3]);
        h.set_input(0, &[2.0]);
        h.set_input(1, &[3.0]);
        h.set_input(2, &[4.0]);
        assert_eq!(h.out_at(0.0, 0), vec![24.0]);
        let mut h = Harness::new("Product", "inputs = 1", &[Shape::vector(3)]);
        h.set_input(0, &[2.0, 3.0, 4.0]);
        assert_eq!(h.out_at(0.0, 0), vec![24.0]);
        assert!(build_error("Product", "inputs = \"*+\"").contains("string of '*' and '/'"));
        assert!(build_error("Product", "inputs = 0").contains("between 1 and 1024"));
    }
}
