//! Nonlinear math and discontinuities: products, absolute value, min/max, a relay, crossings.

use crate::builder::BlockSpec;

/// Product: multiplies (and divides) its inputs `in1..inN` element-wise (a 1×1 input is
/// broadcast); with one input, the product of its elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Product {
    spec: BlockSpec,
}

impl Product {
    /// The product of `inputs` inputs (≥ 1).
    pub fn new(inputs: usize) -> Product {
        Product {
            spec: BlockSpec::of_type("Product").param("inputs", inputs),
        }
    }
    /// One `*` or `/` per input: `"*/"` gives `in1/in2`.
    pub fn operations(operations: &str) -> Product {
        Product {
            spec: BlockSpec::of_type("Product").param("inputs", operations),
        }
    }
}

/// Abs: `out = |in|`, element-wise.
#[derive(Clone, Debug, PartialEq)]
pub struct Abs {
    spec: BlockSpec,
}

impl Abs {
    /// The absolute value.
    pub fn new() -> Abs {
        Abs {
            spec: BlockSpec::of_type("Abs"),
        }
    }
}

impl Default for Abs {
    fn default() -> Self {
        Abs::new()
    }
}

/// MinMax: the minimum or maximum of the elements of one input (a 1×1 output), or element-wise
/// across N ≥ 2 inputs `in1..inN`.
#[derive(Clone, Debug, PartialEq)]
pub struct MinMax {
    spec: BlockSpec,
}

impl MinMax {
    fn of(function: &str, inputs: usize) -> MinMax {
        let spec = BlockSpec::of_type("MinMax").param("function", function);
        MinMax {
            spec: spec.param("inputs", inputs),
        }
    }
    /// The minimum over `inputs` inputs (≥ 1).
    pub fn min(inputs: usize) -> MinMax {
        MinMax::of("min", inputs)
    }
    /// The maximum over `inputs` inputs (≥ 1).
    pub fn max(inputs: usize) -> MinMax {
        MinMax::of("max", inputs)
    }
}

/// Relay: a switch with hysteresis, element-wise: on when the input rises to the on point, off
/// when it falls to the off point; outputs the on or off value.
#[derive(Clone, Debug, PartialEq)]
pub struct Relay {
    spec: BlockSpec,
}

impl Relay {
    /// A relay switching on at `on_point` and off at `off_point` (≤ `on_point`), in the input's
    /// units.
    pub fn new(on_point: f64, off_point: f64) -> Relay {
        let spec = BlockSpec::of_type("Relay").param("on_point", on_point);
        Relay {
            spec: spec.param("off_point", off_point),
        }
    }
    setters! {
        /// The output while on.
        on_value: f64 => "on_value";
        /// The output while off.
        off_value: f64 => "off_value";
    }
    /// Starts on (corrected at the start if the input is already past a switch point).
    pub fn initially_on(mut self) -> Self {
        self.spec = self.spec.param("initial_state", "on");
        self
    }
}

/// The crossings a [`HitCrossing`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossingDirection {
    /// Upwards through the level.
    Rising,
    /// Downwards through the level.
    Falling,
    /// Either way.
    Either,
}

/// HitCrossing: locates the instants its input crosses a level (each ends a solver step there)
/// and outputs the number of crossings so far.
#[derive(Clone, Debug, PartialEq)]
pub struct HitCrossing {
    spec: BlockSpec,
}

impl HitCrossing {
    /// Crossings of the level `offset`, in the input's units.
    pub fn new(offset: f64) -> HitCrossing {
        HitCrossing {
            spec: BlockSpec::of_type("HitCrossing").param("offset", offset),
        }
    }
    /// Counts only the crossings in `direction`.
    pub fn direction(mut self, direction: CrossingDirection) -> Self {
        let name = match direction {
            CrossingDirection::Rising => "rising",
            CrossingDirection::Falling => "falling",
            CrossingDirection::Either => "either",
        };
        self.spec = self.spec.param("direction", name);
        self
    }
}

into_spec!(Product, Abs, MinMax, Relay, HitCrossing);
