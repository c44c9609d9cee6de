//! Signal blocks: sources, math, integration, recording.

use super::rows;
use crate::builder::{BlockSpec, ParamValue};

/// Constant: `out = value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Constant {
    spec: BlockSpec,
}

impl Constant {
    /// A scalar constant.
    pub fn new(value: f64) -> Constant {
        Constant {
            spec: BlockSpec::of_type("Constant").param("value", value),
        }
    }
    /// A column vector (`values.len()`×1).
    pub fn vector(values: &[f64]) -> Constant {
        Constant {
            spec: BlockSpec::of_type("Constant").param("value", values),
        }
    }
}

/// Step: `before` until `time` (s), `after` from then on.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    spec: BlockSpec,
}

impl Step {
    /// A step with the type's defaults (0 → 1 at t = 1 s).
    pub fn new() -> Step {
        Step {
            spec: BlockSpec::of_type("Step"),
        }
    }
    setters! {
        /// The switch time, s.
        time: f64 => "time";
        /// The output before the switch.
        before: f64 => "before";
        /// The output from the switch on.
        after: f64 => "after";
    }
}

impl Default for Step {
    fn default() -> Self {
        Step::new()
    }
}

/// Sine wave: `out = amplitude·sin(frequency·t + phase) + bias`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sine {
    spec: BlockSpec,
}

impl Sine {
    /// A sine of `amplitude` at angular `frequency` (rad/s, not Hz).
    pub fn new(amplitude: f64, frequency: f64) -> Sine {
        let spec = BlockSpec::of_type("Sine");
        Sine {
            spec: spec
                .param("amplitude", amplitude)
                .param("frequency", frequency),
        }
    }
    setters! {
        /// The phase at t = 0, rad.
        phase: f64 => "phase";
        /// The offset added to the wave.
        bias: f64 => "bias";
    }
}

/// Gain: `out = k·in`, element-wise, or a matrix product.
#[derive(Clone, Debug, PartialEq)]
pub struct Gain {
    spec: BlockSpec,
}

impl Gain {
    /// `out = gain·in`, for an input of any shape.
    pub fn new(gain: f64) -> Gain {
        Gain {
            spec: BlockSpec::of_type("Gain").param("gain", gain),
        }
    }
    /// `out[i] = gains[i]·in[i]` (the input has `gains.len()` elements).
    pub fn elementwise(gains: &[f64]) -> Gain {
        Gain {
            spec: BlockSpec::of_type("Gain").param("gain", gains),
        }
    }
    /// `out = K·in` for K given by its rows (r×c; the input is c×1, the output r×1).
    pub fn matrix<const C: usize>(rows_of_k: &[[f64; C]]) -> Gain {
        Gain {
            spec: BlockSpec::of_type("Gain").param("gain", rows(rows_of_k)),
        }
    }
}

/// Sum: `out = Σ sign_i·in_i`, one sign per input (`"+-"` gives `in1 − in2`).
#[derive(Clone, Debug, PartialEq)]
pub struct Sum {
    spec: BlockSpec,
}

impl Sum {
    /// A sum with one `+` or `-` per input; N signs give inputs `in1..inN`.
    pub fn new(signs: &str) -> Sum {
        Sum {
            spec: BlockSpec::of_type("Sum").param("signs", signs),
        }
    }
}

/// Integrator: `d(out)/dt = in`, with optional saturation of its state.
#[derive(Clone, Debug, PartialEq)]
pub struct Integrator {
    spec: BlockSpec,
}

impl Integrator {
    /// An integrator starting at `initial` (broadcast over the input's shape).
    pub fn new(initial: f64) -> Integrator {
        Integrator {
            spec: BlockSpec::of_type("Integrator").param("initial", initial),
        }
    }
    setters! {
        /// The lower saturation limit of the state.
        lower_limit: f64 => "lower_limit";
        /// The upper saturation limit of the state (above the lower).
        upper_limit: f64 => "upper_limit";
    }
}

/// Saturation: `out = min(max(in, lower), upper)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Saturation {
    spec: BlockSpec,
}

impl Saturation {
    /// Limits `lower < upper`.
    pub fn new(lower: f64, upper: f64) -> Saturation {
        let spec = BlockSpec::of_type("Saturation");
        Saturation {
            spec: spec.param("lower", lower).param("upper", upper),
        }
    }
}

/// Fcn: an expression in `u[i]` (the input's elements), `t` and named constants.
#[derive(Clone, Debug, PartialEq)]
pub struct Fcn {
    spec: BlockSpec,
    constants: Vec<(String, ParamValue)>,
}

impl Fcn {
    /// `out = expression` of an input with `inputs` elements.
    pub fn new(expression: &str, inputs: usize) -> Fcn {
        let spec = BlockSpec::of_type("Fcn").param("expression", expression);
        Fcn {
            spec: spec.param("inputs", inputs),
            constants: Vec::new(),
        }
    }
    /// A named number the expression uses (`k` in `"k*u[0]"`).
    pub fn constant(mut self, name: &str, value: f64) -> Fcn {
        self.constants.retain(|(n, _)| n != name);
        self.constants.push((name.to_string(), value.into()));
        self
    }
}

impl From<Fcn> for BlockSpec {
    fn from(block: Fcn) -> BlockSpec {
        if block.constants.is_empty() {
            block.spec
        } else {
            block
                .spec
                .param("constants", ParamValue::Table(block.constants))
        }
    }
}

/// Scope: records its inputs `in1..inN` (each a column of the recording).
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    spec: BlockSpec,
}

impl Scope {
    /// A scope with `inputs` inputs.
    pub fn new(inputs: usize) -> Scope {
        Scope {
            spec: BlockSpec::of_type("Scope").param("inputs", inputs),
        }
    }
}

into_spec!(Constant, Step, Sine, Gain, Sum, Integrator, Saturation, Scope);
