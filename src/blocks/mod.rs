//! The block library: the signal blocks, one file per family, and the blocks of the physical
//! network in [`multibody`] (frames, solids, joints, the compiled mechanism, sensors, force
//! elements) and [`contact`] (contact forces and rigid contact).
//!
//! The physics the physical blocks wrap lives below, in `crate::multibody` and
//! `crate::contact`, which know nothing of blocks: the layers point one way (physics → the
//! `block` trait → the library → the diagram), with no import cycle between them.
//!
//! Every block type is a [`BlockType`] (name, category, documented parameters and ports, and a
//! build function reading its parameters through a [`crate::params::Params`]). [`LIBRARY`]
//! lists them all; [`crate::library::Registry::find`] looks one up by its `type = "..."` name.

mod common;
pub mod contact;
pub mod continuous;
pub mod discontinuities;
pub mod discrete;
pub mod fcn;
pub mod from_table;
pub mod integrator;
pub mod math;
pub mod multibody;
pub mod nonlinear;
pub mod ports;
pub mod pulse;
pub mod routing;
pub mod sinks;
pub mod sources;
pub mod switch;
mod unit_key;

#[cfg(test)]
pub(crate) mod harness;

use crate::block::BlockType;

/// Every signal block type, in library order: sources, math, user-defined, routing, continuous,
/// discrete, discontinuities, sinks, a subsystem's ports.
pub static LIBRARY: &[&BlockType] = &[
    &sources::CONSTANT,
    &sources::STEP,
    &sources::RAMP,
    &sources::SINE,
    &sources::CLOCK,
    &pulse::PULSE_GENERATOR,
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
    &switch::SWITCH,
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
    &ports::INPORT,
    &ports::OUTPORT,
];

#[cfg(test)]
mod tests {
    use super::harness::Harness;

    type Pairs = &'static [(usize, usize)];

    /// Direct feedthrough per (input, output) pair: exactly where an output reads a present input.
    #[test]
    fn feedthrough_declarations() {
        let none: Pairs = &[];
        let cases: &[(&str, &str, Pairs)] = &[
            ("Gain", "gain = 2.0", &[(0, 0)]),
            ("Sum", "signs = \"+-\"", &[(0, 0), (1, 0)]),
            ("Fcn", "expression = \"u\"", &[(0, 0)]),
            ("Switch", "", &[(0, 0), (1, 0), (2, 0)]),
            ("Mux", "", &[(0, 0), (1, 0)]),
            ("Demux", "outputs = 1", &[(0, 0)]),
            ("Saturation", "upper = 1.0", &[(0, 0)]),
            (
                "Integrator",
                "reset = \"either\"\ninitial_source = \"external\"",
                none,
            ),
            (
                "TransferFunction",
                "numerator = [1.0]\ndenominator = [1.0, 1.0]",
                none,
            ),
            (
                "TransferFunction",
                "numerator = [1.0, 0.0]\ndenominator = [1.0, 1.0]",
                &[(0, 0)],
            ),
            ("StateSpace", "A = [[-1.0]]\nB = [1.0]\nC = [1.0]", none),
            (
                "StateSpace",
                "A = [[-1.0]]\nB = [1.0]\nC = [1.0]\nD = [0.5]",
                &[(0, 0)],
            ),
            ("PID", "kp = 0.0\nki = 1.0", none),
            ("PID", "kp = 0.0\nki = 1.0\nkd = 1.0", &[(0, 0)]),
            ("ZeroOrderHold", "sample_time = 0.1", none),
            ("UnitDelay", "sample_time = 0.1", none),
            ("Relay", "", none),
            ("HitCrossing", "", none),
        ];
        for (name, params, expected) in cases {
            let h = Harness::scalar(name, params);
            assert_eq!(h.setup.feedthrough, *expected, "{name} {params}");
        }
    }
}
