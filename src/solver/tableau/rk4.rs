//! The classical 4th-order Runge–Kutta method (Kutta 1901), used with a fixed step. It has no
//! error estimate; f(t + h, x_new) is evaluated after each step (it is the next step's first
//! stage) and the cubic Hermite interpolant serves as dense output for event location.

use super::{DenseOutput, Tableau};

/// Classical RK4.
pub(crate) static RK4: Tableau = Tableau {
    stages: 4,
    c: &[0.0, 0.5, 0.5, 1.0],
    diagonal: 0.0,
    a: &[&[], &[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
    b: &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
    e: None,
    fsal: false,
    order: 4,
    error_order: 4,
    dense: DenseOutput::Hermite,
};
