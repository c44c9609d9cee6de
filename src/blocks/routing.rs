//! Signal routing: Mux, Demux, Selector (Switch is in `switch`).

use super::common::{column, numbered_ports, param, port, read_port_count};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::params::{ParamError, Params};

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

fn build_mux(r: &Params) -> Result<Box<dyn Block>, ParamError> {
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

fn build_demux(r: &Params) -> Result<Box<dyn Block>, ParamError> {
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

fn build_selector(r: &Params) -> Result<Box<dyn Block>, ParamError> {
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

#[cfg(test)]
mod tests {
    use super::super::harness::Harness;
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
}
