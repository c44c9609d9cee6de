//! Sampled blocks: a zero-order hold and a unit delay, hit at `offset + k·sample_time`.

use crate::builder::BlockSpec;

/// ZeroOrderHold: samples its input at every hit and holds it until the next (0 before the
/// first hit).
#[derive(Clone, Debug, PartialEq)]
pub struct ZeroOrderHold {
    spec: BlockSpec,
}

impl ZeroOrderHold {
    /// A hold sampling every `sample_time` (s, > 0).
    pub fn new(sample_time: f64) -> ZeroOrderHold {
        ZeroOrderHold {
            spec: BlockSpec::of_type("ZeroOrderHold").param("sample_time", sample_time),
        }
    }
    setters! {
        /// The time of the first hit, s, in [0, sample_time).
        offset: f64 => "offset";
    }
}

/// UnitDelay: at every hit the output becomes the input sampled at the previous hit.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitDelay {
    spec: BlockSpec,
}

impl UnitDelay {
    /// A delay of one `sample_time` (s, > 0).
    pub fn new(sample_time: f64) -> UnitDelay {
        UnitDelay {
            spec: BlockSpec::of_type("UnitDelay").param("sample_time", sample_time),
        }
    }
    setters! {
        /// The time of the first hit, s, in [0, sample_time).
        offset: f64 => "offset";
        /// The output until the second hit, broadcast over the input's elements.
        initial: f64 => "initial";
        /// The output until the second hit, one value per element (the output is a column of
        /// this length).
        initial_vector: &[f64] => "initial";
    }
}

into_spec!(ZeroOrderHold, UnitDelay);
