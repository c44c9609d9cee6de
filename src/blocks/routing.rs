//! Signal routing: Mux, Demux, Selector, Switch.

use super::common::{
    at, bad, broadcast_shape, check_broadcast, column, numbered_ports, param, port, read_port_count,
};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::model::{Diagnostic, TableReader};
use crate::solver::Direction;

// ---------------------------------------------------------------- Mux

/// `out = [in1; in2; …; inN]`: the inputs' elements (column-major) concatenated into a column.
struct Mux {
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Mux {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![Units::concat(
            io.units.iter().zip(io.shapes.iter().map(Shape::len)),
        )]
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        if outputs[0].is_none() && inputs.iter().all(Option::is_some) {
            outputs[0] = Some(column(inputs.iter().flatten().map(Shape::len).sum()));
        }
        Ok(())
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        let total: usize = inputs.iter().map(Shape::len).sum();
        if outputs[0] != column(total) {
            return Err(BlockError::OutputLength {
                port: self.outputs[0].name.clone(),
                found: outputs[0],
                expected: total,
            });
        }
        Ok(Setup::memoryless(inputs.len(), 1))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (sig, ins, outs) = ctx.raw();
        let mut o = outs[0].offset as usize;
        for i in ins {
            let r = i.range();
            sig.copy_within(r.clone(), o);
            o += r.len();
        }
    }
}

const MUX_INPUTS: Param<usize> = crate::param!("inputs", "", 2, "number of inputs N");

fn build_mux(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let n = read_port_count(r, &MUX_INPUTS, 1)?;
    r.finish()?;
    Ok(Box::new(Mux {
        inputs: numbered_ports("in", n),
        outputs: vec![PortDecl::inherited("out")],
    }))
}

pub static MUX: BlockType = BlockType {
    name: "Mux",
    category: "Routing",
    summary: "Concatenates its inputs into one column vector (in1's elements first; matrices column-major).",
    params: &[MUX_INPUTS.doc],
    ports: &[
        port("in1..inN", "input", "inherited", "", "the parts"),
        port("out", "output", "(total elements)×1", "", "the concatenation"),
    ],
    build: build_mux,
};

// ---------------------------------------------------------------- Demux

/// Splits a vector into consecutive parts: `out_k = in[start_k .. start_k + size_k]`.
struct Demux {
    /// Explicit part sizes, or `None` for equal parts.
    sizes: Option<Vec<usize>>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Demux {
    fn part_sizes(&self, total: usize) -> Result<Vec<usize>, BlockError> {
        match &self.sizes {
            Some(s) if s.iter().sum::<usize>() == total => Ok(s.clone()),
            Some(s) => Err(BlockError::SizesSum {
                sum: s.iter().sum::<usize>(),
                elements: total,
            }),
            None => {
                let n = self.outputs.len();
                if total % n != 0 {
                    return Err(BlockError::UnequalParts {
                        elements: total,
                        parts: n,
                    });
                }
                Ok(vec![total / n; n])
            }
        }
    }
}

impl Block for Demux {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        let mut start = 0;
        io.outputs
            .iter()
            .map(|o| {
                let part = io.units[0].range(start, o.len());
                start += o.len();
                part
            })
            .collect()
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        if let Some(s) = inputs[0] {
            for (o, n) in outputs.iter_mut().zip(self.part_sizes(s.len())?) {
                o.get_or_insert(column(n));
            }
        }
        Ok(())
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        let sizes = self.part_sizes(inputs[0].len())?;
        for ((o, n), decl) in outputs.iter().zip(sizes).zip(&self.outputs) {
            if o.len() != n {
                return Err(BlockError::OutputLength {
                    port: decl.name.clone(),
                    found: *o,
                    expected: n,
                });
            }
        }
        Ok(Setup::memoryless(1, outputs.len()))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (sig, ins, outs) = ctx.raw();
        let mut from = ins[0].offset as usize;
        for o in outs {
            sig.copy_within(from..from + o.len as usize, o.offset as usize);
            from += o.len as usize;
        }
    }
}

const DEMUX_OUTPUTS: Param<usize> =
    crate::param!("outputs", "", 2, "number of outputs N (equal parts)");

fn build_demux(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let sizes = match r.vector("sizes")? {
        None => None,
        Some(v) => {
            let ok = !v.is_empty() && v.iter().all(|x| *x >= 1.0 && x.fract() == 0.0);
            r.ensure(
                ok,
                "sizes",
                "must be a list of positive integers",
                "write e.g. sizes = [3, 1]",
            )?;
            Some(v.iter().map(|x| *x as usize).collect::<Vec<_>>())
        }
    };
    let n = match &sizes {
        Some(s) => {
            if let Some(n) = r.usize("outputs")? {
                r.ensure(
                    n == s.len(),
                    "outputs",
                    &format!("is {n} but 'sizes' lists {} parts", s.len()),
                    "omit outputs when giving sizes",
                )?;
            }
            s.len()
        }
        None => read_port_count(r, &DEMUX_OUTPUTS, 1)?,
    };
    r.finish()?;
    Ok(Box::new(Demux {
        sizes,
        inputs: vec![PortDecl::inherited("in")],
        outputs: numbered_ports("out", n),
    }))
}

pub static DEMUX: BlockType = BlockType {
    name: "Demux",
    category: "Routing",
    summary:
        "Splits its input's elements into consecutive column vectors out1..outN: equal parts, or \
              the sizes given.",
    params: &[
        DEMUX_OUTPUTS.doc,
        param(
            "sizes",
            "",
            "equal parts",
            "element count of each output, e.g. [3, 1]",
        ),
    ],
    ports: &[
        port("in", "input", "inherited", "", "the vector to split"),
        port(
            "out1..outN",
            "output",
            "(part size)×1",
            "",
            "the parts, in order",
        ),
    ],
    build: build_demux,
};

// ---------------------------------------------------------------- Selector

/// `out[j] = in[indices[j]]` (0-based, column-major element indices).
struct Selector {
    indices: Vec<usize>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Selector {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.units[0].select(&self.indices)]
    }
    fn setup(&mut self, inputs: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        let n = inputs[0].len();
        if let Some(&i) = self.indices.iter().find(|&&i| i >= n) {
            return Err(BlockError::IndexOutOfRange {
                param: "indices".into(),
                index: i,
                shape: inputs[0],
            });
        }
        Ok(Setup::memoryless(1, 1))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (u, y) = ctx.input_output(0, 0);
        y.iter_mut()
            .zip(&self.indices)
            .for_each(|(y, &i)| *y = u[i]);
    }
}

fn build_selector(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let v = r.vector("indices")?.ok_or_else(|| {
        r.table_error("missing parameter 'indices'")
            .hint("add indices = [0, 2] (0-based element indices)")
    })?;
    r.ensure(
        !v.is_empty() && v.iter().all(|x| *x >= 0.0 && x.fract() == 0.0),
        "indices",
        "must be a non-empty list of non-negative integers",
        "write 0-based element indices, e.g. indices = [0, 2]",
    )?;
    r.finish()?;
    let indices: Vec<usize> = v.iter().map(|x| *x as usize).collect();
    let outputs = vec![PortDecl::signal("out", column(indices.len()))];
    Ok(Box::new(Selector {
        indices,
        inputs: vec![PortDecl::inherited("in")],
        outputs,
    }))
}

pub static SELECTOR: BlockType = BlockType {
    name: "Selector",
    category: "Routing",
    summary: "Picks elements of its input by 0-based (column-major) index into a column vector.",
    params: &[param(
        "indices",
        "",
        "required",
        "element indices, e.g. [0, 2]",
    )],
    ports: &[
        port("in", "input", "inherited", "", "the signal"),
        port(
            "out",
            "output",
            "(number of indices)×1",
            "",
            "the selected elements",
        ),
    ],
    build: build_selector,
};

// ---------------------------------------------------------------- Switch

#[derive(Clone, Copy, PartialEq)]
enum Criterion {
    AtLeast,
    Above,
    NonZero,
}

/// `out = in1` while the criterion on the control `in2` holds, else `in3`.
///
/// For `"u2 >= threshold"` and `"u2 > threshold"`, work slot 0 is the mode (1 = passing in1),
/// frozen during a step, with one zero crossing `g = in2 − threshold` (direction Either). At a
/// located crossing the mode follows the sign of g, and g = 0 exactly counts as having crossed
/// (the mode flips: otherwise a signal that continues through zero from there would never be
/// seen crossing again). `settle` changes the mode only on a strict sign, so it never undoes that
/// flip, and it catches jumps of the control at other blocks' events. Work slot 1 marks the first
/// settle, where g = 0 is decided by the criterion itself (≥ passes in1, > does not).
///
/// `"u2 != 0"` needs no mode: the output is chosen from the current in2 (in3 only where in2 is
/// exactly 0), with a zero crossing on in2 to end steps where it changes sign.
struct Switch {
    threshold: f64,
    criterion: Criterion,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Switch {
    fn g(&self, u2: f64) -> f64 {
        if self.criterion == Criterion::NonZero {
            u2
        } else {
            u2 - self.threshold
        }
    }

    fn set_mode(work: &mut [f64], pass_in1: bool) -> bool {
        let changed = (work[0] != 0.0) != pass_in1;
        work[0] = f64::from(u8::from(pass_in1));
        changed
    }
}

impl Block for Switch {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    /// The unit in1 and in3 agree on, element by element (the control in2's is not passed).
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.agreed(0, &[0, 2])]
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        if outputs[0].is_none() {
            outputs[0] = broadcast_shape([&inputs[0], &inputs[2]].into_iter())?;
        }
        Ok(())
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        if !inputs[1].is_scalar() {
            return Err(BlockError::NotScalar {
                port: self.inputs[1].name.clone(),
                found: inputs[1],
            });
        }
        check_broadcast(
            &[self.inputs[0].clone(), self.inputs[2].clone()],
            &[inputs[0], inputs[2]],
            outputs[0],
        )?;
        let num_work = if self.criterion == Criterion::NonZero {
            0
        } else {
            2
        };
        Ok(Setup {
            num_work,
            zero_crossings: vec![Direction::Either],
            feedthrough: vec![(0, 0), (1, 0), (2, 0)],
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        if self.criterion != Criterion::NonZero {
            ctx.work[0] = 1.0;
            ctx.work[1] = 0.0;
        }
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let pass_in1 = match self.criterion {
            Criterion::NonZero => ctx.input_scalar(1) != 0.0,
            _ => ctx.work[0] != 0.0,
        };
        let pass = if pass_in1 { 0 } else { 2 };
        let (sig, ins, outs) = ctx.raw();
        let o = outs[0];
        for e in 0..o.len as usize {
            sig[o.offset as usize + e] = at(&sig[ins[pass].range()], e);
        }
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        g[0] = self.g(ctx.input_scalar(1));
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _: bool) -> bool {
        if self.criterion == Criterion::NonZero || !crossed[0] {
            return self.settle(ctx);
        }
        let g = self.g(ctx.input_scalar(1));
        let old = ctx.work[0] != 0.0;
        let new = if g > 0.0 {
            true
        } else if g < 0.0 {
            false
        } else {
            !old
        };
        Self::set_mode(ctx.work, new)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        if self.criterion == Criterion::NonZero {
            return false;
        }
        let g = self.g(ctx.input_scalar(1));
        let first = ctx.work[1] == 0.0;
        ctx.work[1] = 1.0;
        if g > 0.0 {
            Self::set_mode(ctx.work, true) || first
        } else if g < 0.0 {
            Self::set_mode(ctx.work, false) || first
        } else if first {
            Self::set_mode(ctx.work, self.criterion == Criterion::AtLeast);
            true
        } else {
            false
        }
    }
}

const THRESHOLD: Param<f64> = crate::param!("threshold", "", 0.0, "compared with in2");
const CRITERIA: Param<&str> = crate::param!(
    "criteria",
    "",
    "u2 >= threshold",
    "\"u2 >= threshold\", \"u2 > threshold\" or \"u2 != 0\""
);

fn build_switch(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let threshold = THRESHOLD.read(r)?;
    let criterion = match CRITERIA.choice(r, &["u2 >= threshold", "u2 > threshold", "u2 != 0"])? {
        "u2 >= threshold" => Criterion::AtLeast,
        "u2 > threshold" => Criterion::Above,
        _ => Criterion::NonZero,
    };
    if criterion == Criterion::NonZero && r.has("threshold") {
        return Err(bad(
            r,
            "threshold",
            "'threshold' is not used with criteria = \"u2 != 0\"",
            "remove threshold, or use criteria = \"u2 > threshold\"",
        ));
    }
    r.finish()?;
    let inputs = vec![
        PortDecl::inherited("in1"),
        PortDecl::scalar("in2"),
        PortDecl::inherited("in3"),
    ];
    Ok(Box::new(Switch {
        threshold,
        criterion,
        inputs,
        outputs: vec![PortDecl::inherited("out")],
    }))
}

pub static SWITCH: BlockType = BlockType {
    name: "Switch",
    category: "Routing",
    summary: "Passes in1 while the control in2 meets the criterion, else in3. The choice is a mode \
              that changes only at a located zero crossing of in2 − threshold (or at other events), \
              so the output is smooth within every solver step.",
    params: &[
        THRESHOLD.doc,
        CRITERIA.doc,
    ],
    ports: &[
        port("in1", "input", "inherited", "", "passed while the criterion holds"),
        port("in2", "input", "1×1", "", "the control"),
        port("in3", "input", "inherited", "", "passed otherwise"),
        port("out", "output", "common shape of in1 and in3", "", "the selected input"),
    ],
    build: build_switch,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn mux_demux_selector() {
        let mut h = Harness::new(
            "Mux",
            "inputs = 3",
            &[Shape::vector(2), Shape::SCALAR, Shape::new(1, 2)],
        );
        assert_eq!(h.outputs[0], Shape::vector(5));
        h.set_input(0, &[1.0, 2.0]);
        h.set_input(1, &[3.0]);
        h.set_input(2, &[4.0, 5.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let mut h = Harness::new("Demux", "sizes = [1, 3]", &[Shape::vector(4)]);
        h.set_input(0, &[1.0, 2.0, 3.0, 4.0]);
        h.eval();
        assert_eq!((h.output(0), h.output(1)), (vec![1.0], vec![2.0, 3.0, 4.0]));
        assert_eq!(h.setup.feedthrough, vec![(0, 0), (0, 1)]);
        assert!(
            Harness::try_new("Demux", "outputs = 3", &[Shape::vector(4)])
                .unwrap_err()
                .contains("3 equal parts")
        );
        let mut h = Harness::new("Selector", "indices = [2, 0]", &[Shape::vector(3)]);
        h.set_input(0, &[1.0, 2.0, 3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![3.0, 1.0]);
        assert!(
            Harness::try_new("Selector", "indices = [3]", &[Shape::vector(3)])
                .unwrap_err()
                .contains("out of range")
        );
    }

    #[test]
    fn switch_mode_changes_at_crossings_only() {
        let mut h = Harness::scalar("Switch", "threshold = 1.0");
        h.set_input(0, &[10.0]);
        h.set_input(1, &[0.0]);
        h.set_input(2, &[30.0]);
        h.initialize(0.0);
        assert_eq!(
            h.out_at(0.0, 0),
            vec![30.0],
            "settle at the start picks in3 (0 < 1)"
        );
        // Within a step the mode is frozen even if in2 passes the threshold …
        h.set_input(1, &[1.5]);
        assert_eq!(h.out_at(0.1, 0), vec![30.0]);
        assert_eq!(h.zero_crossings(), vec![0.5]);
        // … and switches at the located crossing (g = 0 exactly counts as crossed).
        h.set_input(1, &[1.0]);
        assert!(h.cross(0.05, 0));
        assert_eq!(h.out_at(0.05, 0), vec![10.0]);
        // Falling back through the threshold, located at g = 0: flips to in3 and settle keeps it.
        assert!(h.cross(0.2, 0));
        assert_eq!(h.out_at(0.2, 0), vec![30.0]);
        assert!(build_error("Switch", "criteria = \"u2 < threshold\"")
            .contains("cannot be \"u2 < threshold\""));
        // At the start, in2 exactly at the threshold passes in1 for >= but not for >.
        for (criteria, expected) in [("u2 >= threshold", 10.0), ("u2 > threshold", 30.0)] {
            let mut h = Harness::scalar(
                "Switch",
                &format!("threshold = 1.0\ncriteria = \"{criteria}\""),
            );
            h.set_input(0, &[10.0]);
            h.set_input(1, &[1.0]);
            h.set_input(2, &[30.0]);
            h.initialize(0.0);
            assert_eq!(h.out_at(0.0, 0), vec![expected], "{criteria}");
        }
    }

    #[test]
    fn switch_nonzero_criterion() {
        let mut h = Harness::scalar("Switch", "criteria = \"u2 != 0\"");
        h.set_input(0, &[1.0]);
        h.set_input(2, &[3.0]);
        h.set_input(1, &[0.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![3.0]);
        h.set_input(1, &[-2.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.0]);
        assert_eq!(h.zero_crossings(), vec![-2.0]);
        assert_eq!(h.setup.num_work, 0);
    }
}
