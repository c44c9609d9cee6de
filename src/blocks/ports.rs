//! A subsystem's signal ports as blocks: Inport (a source of 0 when nothing outside drives it)
//! and Outport (a sink when nothing outside reads it). A port that is connected outside its
//! subsystem is spliced away when the model is read (see `model::subsystem`); these blocks are
//! what is left of the others, and of the ports of the model file itself.

use super::common::{param, port};
use crate::block::{Block, BlockError, BlockType, Ctx, PortDecl, Setup, Shape};
use crate::model::{Diagnostic, TableReader};

/// `out = 0` (a column of `width` zeros): an input nothing drives.
struct Inport {
    outputs: Vec<PortDecl>,
}

impl Block for Inport {
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
        ctx.output(0).fill(0.0);
    }
    fn outputs_are_constant(&self) -> bool {
        true
    }
}

fn build_inport(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let width = r.usize("width")?.unwrap_or(1);
    r.ensure(
        width >= 1,
        "width",
        &format!("must be at least 1 (got {width})"),
        "write the number of elements of the input, e.g. width = 3",
    )?;
    r.finish()?;
    let shape = if width == 1 {
        Shape::SCALAR
    } else {
        Shape::vector(width)
    };
    Ok(Box::new(Inport {
        outputs: vec![PortDecl::signal("out", shape)],
    }))
}

/// The Inport block type.
pub static INPORT: BlockType = BlockType {
    name: "Inport",
    category: "Ports & Subsystems",
    summary: "A subsystem's input (its block name is the port's name); outputs 0 when nothing outside drives it.",
    params: &[param("width", "", "1", "the number of elements of the input (a column)")],
    ports: &[port("out", "output", "width", "", "the input's value inside the subsystem (0 if unconnected)")],
    build: build_inport,
};

/// Accepts its input and does nothing with it.
struct Outport {
    inputs: Vec<PortDecl>,
}

impl Block for Outport {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &[]
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, _: &mut Ctx) {}
}

fn build_outport(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    r.finish()?;
    Ok(Box::new(Outport {
        inputs: vec![PortDecl::inherited("in")],
    }))
}

/// The Outport block type.
pub static OUTPORT: BlockType = BlockType {
    name: "Outport",
    category: "Ports & Subsystems",
    summary: "A subsystem's output (its block name is the port's name); a sink when nothing outside reads it.",
    params: &[],
    ports: &[port("in", "input", "inherited", "", "the subsystem's output")],
    build: build_outport,
};

#[cfg(test)]
mod tests {
    use super::super::harness::Harness;
    use crate::block::Shape;

    #[test]
    fn an_unconnected_inport_outputs_zeros_of_its_width() {
        let mut h = Harness::new("Inport", "width = 3", &[]);
        assert_eq!(h.outputs, vec![Shape::vector(3)]);
        assert_eq!(h.out_at(0.0, 0), vec![0.0; 3]);
        let h = Harness::new("Outport", "", &[Shape::vector(2)]);
        assert_eq!(h.block.inputs().len(), 1);
    }
}
