//! The signal block library, one file per family.
//!
//! Every block type is a [`BlockType`] (name, category, documented parameters and ports, and a
//! build function reading its parameters through a [`crate::model::TableReader`]). [`LIBRARY`]
//! lists them all; [`find`] looks one up by its `type = "..."` name.

mod common;
pub mod continuous;
pub mod discontinuities;
pub mod discrete;
pub mod fcn;
pub mod from_table;
pub mod integrator;
pub mod math;
pub mod nonlinear;
pub mod routing;
pub mod sinks;
pub mod sources;

#[cfg(test)]
pub(crate) mod harness;

use crate::block::BlockType;

/// Every signal block type, in library order: sources, math, user-defined, routing, continuous,
/// discrete, discontinuities, sinks.
pub static LIBRARY: &[&BlockType] = &[
    &sources::CONSTANT,
    &sources::STEP,
    &sources::RAMP,
    &sources::SINE,
    &sources::CLOCK,
    &sources::PULSE_GENERATOR,
    &from_table::FROM_TABLE,
    &math::GAIN,
    &math::SUM,
    &math::PRODUCT,
    &nonlinear::ABS,
    &nonlinear::MIN_MAX,
    &fcn::FCN,
    &routing::MUX,
    &routing::DEMUX,
    &routing::SELECTOR,
    &routing::SWITCH,
    &integrator::INTEGRATOR,
    &continuous::TRANSFER_FUNCTION,
    &continuous::STATE_SPACE,
    &continuous::PID,
    &discrete::ZERO_ORDER_HOLD,
    &discrete::UNIT_DELAY,
    &nonlinear::SATURATION,
    &discontinuities::RELAY,
    &discontinuities::HIT_CROSSING,
    &sinks::SCOPE,
    &sinks::TERMINATOR,
];

/// The block type called `name` (exact, case-sensitive).
pub fn find(name: &str) -> Option<&'static BlockType> {
    LIBRARY.iter().copied().find(|t| t.name == name)
}

/// The whole signal library as Markdown (one section per block, in [`LIBRARY`] order), for
/// docs/blocks.md.
pub fn library_markdown() -> String {
    let mut s = String::from("# Signal blocks\n\n");
    for t in LIBRARY {
        s.push_str(&t.markdown());
    }
    s
}
