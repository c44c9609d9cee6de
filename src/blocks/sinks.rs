//! Sinks: Scope (recorded and plotted by the engine) and Terminator (ends an unused line).

use super::common::{numbered_ports, port, read_port_count};
use crate::block::{Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape};
use crate::params::{ParamError, Params};

/// A block with inputs of any shape and nothing else; the engine records a Scope's inputs.
struct Sink {
    inputs: Vec<PortDecl>,
    /// Whether its inputs are recorded (a Scope; a Terminator is not).
    records: bool,
}

impl Block for Sink {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &[]
    }
    fn propagate_shapes(
        &self,
        _: &mut [Option<Shape>],
        _: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        // Each input takes its source's shape; they need not agree.
        Ok(())
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, _: &mut Ctx) {}
    fn records_inputs(&self) -> bool {
        self.records
    }
}

const SCOPE_INPUTS: Param<usize> = crate::param!("inputs", "", 1, "number of inputs N");

fn build_scope(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let n = read_port_count(r, &SCOPE_INPUTS, 1)?;
    r.finish()?;
    Ok(Box::new(Sink {
        inputs: numbered_ports("in", n),
        records: true,
    }))
}

pub static SCOPE: BlockType = BlockType {
    name: "Scope",
    category: "Sinks",
    summary: "Records its inputs (each of any shape) for the CSV output and plots them.",
    params: &[SCOPE_INPUTS.doc],
    ports: &[port(
        "in1..inN",
        "input",
        "inherited (each its own)",
        "",
        "the signals to record",
    )],
    build: build_scope,
};

/// Builds a Terminator (also an Outport that nothing outside its subsystem reads).
pub(super) fn build_terminator(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    r.finish()?;
    Ok(Box::new(Sink {
        inputs: vec![PortDecl::inherited("in")],
        records: false,
    }))
}

pub static TERMINATOR: BlockType = BlockType {
    name: "Terminator",
    category: "Sinks",
    summary: "Accepts a signal and does nothing with it (marks an output as deliberately unused).",
    params: &[],
    ports: &[port("in", "input", "inherited", "", "the unused signal")],
    build: build_terminator,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn scope_takes_any_shapes_and_terminator_one_input() {
        let h = Harness::new("Scope", "inputs = 2", &[Shape::vector(3), Shape::SCALAR]);
        assert_eq!(h.inputs, vec![Shape::vector(3), Shape::SCALAR]);
        assert!(h.outputs.is_empty());
        assert_eq!(h.block.inputs()[1].name, "in2");
        let h = Harness::new("Terminator", "", &[Shape::new(2, 2)]);
        assert_eq!(h.block.inputs().len(), 1);
        assert!(build_error("Scope", "inputs = -1").contains("non-negative integer"));
        assert!(build_error("Terminator", "x = 1").contains("this takes no parameters here"));
    }
}
