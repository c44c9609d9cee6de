//! A subsystem's signal ports as blocks: Inport (a source of 0 when nothing outside drives it)
//! and Outport (a sink when nothing outside reads it). A port that is connected outside its
//! subsystem is spliced away when the model is read (see `model::subsystem`); these blocks are
//! what is left of the others, and of the ports of the model file itself.

use super::common::port;
use crate::block::{Block, BlockType, Param, Shape};
use crate::params::{ParamError, Params};

/// The number of elements of an Inport's input.
const WIDTH: Param<usize> = crate::param!(
    "width",
    "",
    1,
    "the number of elements of the input (a column)";
    at_least(1, "write the number of elements of the input, e.g. width = 3"),
);

fn build_inport(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let width = WIDTH.read(r)?;
    r.finish()?;
    let shape = if width == 1 {
        Shape::SCALAR
    } else {
        Shape::vector(width)
    };
    // `out = 0` (a column of `width` zeros): an input nothing drives.
    Ok(super::sources::constant_block(vec![0.0; width], shape))
}

/// The Inport block type.
pub static INPORT: BlockType = BlockType {
    name: "Inport",
    category: "Ports & Subsystems",
    summary: "A subsystem's input (its block name is the port's name); outputs 0 when nothing outside drives it.",
    params: &[WIDTH.doc],
    ports: &[port("out", "output", "width", "", "the input's value inside the subsystem (0 if unconnected)")],
    build: build_inport,
};

/// The Outport block type.
pub static OUTPORT: BlockType = BlockType {
    name: "Outport",
    category: "Ports & Subsystems",
    summary: "A subsystem's output (its block name is the port's name); a sink when nothing outside reads it.",
    params: &[],
    ports: &[port("in", "input", "inherited", "", "the subsystem's output")],
    // Accepts its input and does nothing with it: a Terminator.
    build: super::sinks::build_terminator,
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
