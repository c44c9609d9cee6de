//! Sources beyond the constant, step and sine: a ramp, the clock, a pulse train and a table.

use super::rows as matrix_rows;
use crate::builder::BlockSpec;

/// Ramp: holds its initial output until the start time, then rises with its slope:
/// `out = initial_output + slope·(t − start_time)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ramp {
    spec: BlockSpec,
}

impl Ramp {
    /// A ramp of `slope` (output units per s), starting at the type's default start time.
    pub fn new(slope: f64) -> Ramp {
        Ramp {
            spec: BlockSpec::of_type("Ramp").param("slope", slope),
        }
    }
    setters! {
        /// When the ramp starts rising, s.
        start_time: f64 => "start_time";
        /// The output before the start (and the ramp's value at the start).
        initial_output: f64 => "initial_output";
    }
}

/// Clock: `out = t`, s.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    spec: BlockSpec,
}

impl Clock {
    /// The clock.
    pub fn new() -> Clock {
        Clock {
            spec: BlockSpec::of_type("Clock"),
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new()
    }
}

/// PulseGenerator: a rectangular pulse train, `amplitude` for the first part of every period
/// (its [`pulse_width`](PulseGenerator::pulse_width)), 0 otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct PulseGenerator {
    spec: BlockSpec,
}

impl PulseGenerator {
    /// Pulses of `amplitude` repeating every `period` (s, > 0).
    pub fn new(amplitude: f64, period: f64) -> PulseGenerator {
        let spec = BlockSpec::of_type("PulseGenerator").param("amplitude", amplitude);
        PulseGenerator {
            spec: spec.param("period", period),
        }
    }
    setters! {
        /// The high time, in percent of the period, strictly between 0 and 100.
        pulse_width: f64 => "pulse_width";
        /// The time of the first rising edge, s ≥ 0 (the output is 0 before it).
        phase_delay: f64 => "phase_delay";
    }
}

/// FromTable: plays back samples `values[i]` at times `time[i]`, interpolated linearly unless
/// [`FromTable::hold`] is set; the end values are held outside the table.
#[derive(Clone, Debug, PartialEq)]
pub struct FromTable {
    spec: BlockSpec,
}

impl FromTable {
    /// A scalar output: one value per time (s, strictly increasing; as many values as times).
    pub fn new(time: &[f64], values: &[f64]) -> FromTable {
        let spec = BlockSpec::of_type("FromTable").param("time", time);
        FromTable {
            spec: spec.param("values", values),
        }
    }
    /// An M×1 output: one row of M values per time (s, strictly increasing).
    pub fn rows<const M: usize>(time: &[f64], values: &[[f64; M]]) -> FromTable {
        let spec = BlockSpec::of_type("FromTable").param("time", time);
        FromTable {
            spec: spec.param("values", matrix_rows(values)),
        }
    }
    /// Keeps the previous sample until the next time (a zero-order hold) instead of
    /// interpolating.
    pub fn hold(mut self) -> Self {
        self.spec = self.spec.param("interpolation", "hold");
        self
    }
}

into_spec!(Ramp, Clock, PulseGenerator, FromTable);
