//! The linear model a linearization returns (see [`linearize`](super::linearize)).

use nalgebra::DMatrix;

/// A linear model `ż = A·z + B·u`, `y = C·z + D·u` about an operating point, in deviations from
/// it (`z`, `u`, `y` in the units of the states and ports they name).
#[derive(Clone, Debug, PartialEq)]
pub struct Linearization {
    /// The states' names (`JOINT.q[i]`, `JOINT.v[i]`, `BLOCK.NAME`).
    pub states: Vec<String>,
    /// The inputs' names, one per element.
    pub inputs: Vec<String>,
    /// The outputs' names, one per element.
    pub outputs: Vec<String>,
    /// ∂ż/∂z (states × states).
    pub a: DMatrix<f64>,
    /// ∂ż/∂u (states × inputs).
    pub b: DMatrix<f64>,
    /// ∂y/∂z (outputs × states).
    pub c: DMatrix<f64>,
    /// ∂y/∂u (outputs × inputs).
    pub d: DMatrix<f64>,
    /// The operating state (a quaternion's tangent coordinates are 0 there).
    pub x: Vec<f64>,
    /// The inputs' operating values (what the ports read there).
    pub u: Vec<f64>,
    /// The outputs' operating values.
    pub y: Vec<f64>,
    /// The operating time, s.
    pub t: f64,
    /// What the linearization does not capture (sampled blocks, zero crossings at the operating
    /// point, closed loops): see the module documentation.
    pub warnings: Vec<String>,
    /// The largest estimated truncation error of an entry of the matrices (see the module
    /// documentation), in the entry's units.
    pub error_estimate: f64,
    /// Evaluations of the diagram the differences took.
    pub evaluations: usize,
}
