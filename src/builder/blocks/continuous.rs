//! Linear continuous systems: transfer functions, state space, PID control.

use super::rows;
use crate::builder::BlockSpec;

/// TransferFunction: a SISO `num(s)/den(s)`, zero initial state; proper (the numerator no
/// longer than the denominator).
#[derive(Clone, Debug, PartialEq)]
pub struct TransferFunction {
    spec: BlockSpec,
}

impl TransferFunction {
    /// `numerator(s)/denominator(s)`, coefficients in descending powers of s: `(&[1.0],
    /// &[1.0, 1.0])` is 1/(s + 1).
    pub fn new(numerator: &[f64], denominator: &[f64]) -> TransferFunction {
        let spec = BlockSpec::of_type("TransferFunction").param("numerator", numerator);
        TransferFunction {
            spec: spec.param("denominator", denominator),
        }
    }
}

/// StateSpace: `ẋ = A·x + B·u`, `y = C·x + D·u`, for N states, M inputs and P outputs (the
/// input `in` is M×1, the output `out` P×1).
#[derive(Clone, Debug, PartialEq)]
pub struct StateSpace {
    spec: BlockSpec,
}

impl StateSpace {
    /// The system of matrices given by their rows: `a` N×N, `b` N×M, `c` P×N; no feedthrough
    /// unless [`StateSpace::feedthrough`] is set.
    pub fn new<const N: usize, const M: usize>(
        a: &[[f64; N]],
        b: &[[f64; M]],
        c: &[[f64; N]],
    ) -> StateSpace {
        let spec = BlockSpec::of_type("StateSpace").param("A", rows(a));
        StateSpace {
            spec: spec.param("B", rows(b)).param("C", rows(c)),
        }
    }
    /// The feedthrough matrix D (rows, P×M).
    pub fn feedthrough<const M: usize>(mut self, d: &[[f64; M]]) -> Self {
        self.spec = self.spec.param("D", rows(d));
        self
    }
    /// The initial state x(0), N values.
    pub fn initial(mut self, x0: &[f64]) -> Self {
        self.spec = self.spec.param("initial", x0);
        self
    }
}

/// PID: a continuous parallel PID on the error `in`, element-wise:
/// `out = kp·e + ki·∫e dt + kd·N·s/(s + N)·e`, the derivative through a first-order filter of
/// cut-off N ([`Pid::filter`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Pid {
    spec: BlockSpec,
}

impl Pid {
    /// The gains: proportional `kp`, integral `ki` (1/s) and derivative `kd` (s).
    pub fn new(kp: f64, ki: f64, kd: f64) -> Pid {
        let spec = BlockSpec::of_type("PID").param("kp", kp);
        Pid {
            spec: spec.param("ki", ki).param("kd", kd),
        }
    }
    setters! {
        /// The derivative filter's cut-off N, rad/s > 0.
        filter: f64 => "filter";
        /// The integral term's initial value (its contribution to `out`).
        initial_integral: f64 => "initial_integral";
        /// The filter's initial state x_f (the derivative term is N·(kd·e − x_f)).
        initial_filter: f64 => "initial_filter";
    }
}

into_spec!(TransferFunction, StateSpace, Pid);
