//! Signal routing: concatenating, splitting, selecting, switching, terminating.

use crate::builder::{BlockSpec, ParamValue};

/// Non-negative integers (counts, indices) as a model file writes them.
fn integers(values: &[usize]) -> ParamValue {
    ParamValue::Array(values.iter().map(|&v| v.into()).collect())
}

/// Mux: concatenates the elements of its inputs `in1..inN` into one column vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Mux {
    spec: BlockSpec,
}

impl Mux {
    /// A mux of `inputs` inputs (≥ 1).
    pub fn new(inputs: usize) -> Mux {
        Mux {
            spec: BlockSpec::of_type("Mux").param("inputs", inputs),
        }
    }
}

/// Demux: splits its input's elements into consecutive column vectors `out1..outN`.
#[derive(Clone, Debug, PartialEq)]
pub struct Demux {
    spec: BlockSpec,
}

impl Demux {
    /// `outputs` equal parts (≥ 1).
    pub fn new(outputs: usize) -> Demux {
        Demux {
            spec: BlockSpec::of_type("Demux").param("outputs", outputs),
        }
    }
    /// Parts of the element counts `sizes` (each ≥ 1), in order: one output per size.
    pub fn sizes(sizes: &[usize]) -> Demux {
        Demux {
            spec: BlockSpec::of_type("Demux").param("sizes", integers(sizes)),
        }
    }
}

/// Selector: picks elements of its input (column-major) into a column vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    spec: BlockSpec,
}

impl Selector {
    /// The elements at the 0-based `indices`, in that order.
    pub fn new(indices: &[usize]) -> Selector {
        Selector {
            spec: BlockSpec::of_type("Selector").param("indices", integers(indices)),
        }
    }
}

/// Switch: passes `in1` while the control `in2` meets its criterion, else `in3`.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    spec: BlockSpec,
}

impl Switch {
    fn criterion(criteria: &str) -> BlockSpec {
        BlockSpec::of_type("Switch").param("criteria", criteria)
    }
    /// `in1` while `in2 ≥ threshold`.
    pub fn at_least(threshold: f64) -> Switch {
        Switch {
            spec: Switch::criterion("u2 >= threshold").param("threshold", threshold),
        }
    }
    /// `in1` while `in2 > threshold`.
    pub fn above(threshold: f64) -> Switch {
        Switch {
            spec: Switch::criterion("u2 > threshold").param("threshold", threshold),
        }
    }
    /// `in1` while `in2 ≠ 0`.
    pub fn nonzero() -> Switch {
        Switch {
            spec: Switch::criterion("u2 != 0"),
        }
    }
}

/// Terminator: takes a signal and does nothing with it (an output deliberately unused).
#[derive(Clone, Debug, PartialEq)]
pub struct Terminator {
    spec: BlockSpec,
}

impl Terminator {
    /// The terminator.
    pub fn new() -> Terminator {
        Terminator {
            spec: BlockSpec::of_type("Terminator"),
        }
    }
}

impl Default for Terminator {
    fn default() -> Self {
        Terminator::new()
    }
}

/// Inport: a diagram's (or a subsystem's) input; outputs 0 when nothing drives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Inport {
    spec: BlockSpec,
}

impl Inport {
    /// A scalar input.
    pub fn new() -> Inport {
        Inport {
            spec: BlockSpec::of_type("Inport"),
        }
    }
    /// An input of `width` elements (≥ 1), a column.
    pub fn width(width: usize) -> Inport {
        Inport {
            spec: BlockSpec::of_type("Inport").param("width", width),
        }
    }
}

impl Default for Inport {
    fn default() -> Self {
        Inport::new()
    }
}

/// Outport: a diagram's (or a subsystem's) output; a sink when nothing reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outport {
    spec: BlockSpec,
}

impl Outport {
    /// The output.
    pub fn new() -> Outport {
        Outport {
            spec: BlockSpec::of_type("Outport"),
        }
    }
}

impl Default for Outport {
    fn default() -> Self {
        Outport::new()
    }
}

into_spec!(Mux, Demux, Selector, Switch, Terminator, Inport, Outport);
