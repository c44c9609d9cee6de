//! Bogacki–Shampine 3(2), FSAL (P. Bogacki, L. F. Shampine, "A 3(2) pair of Runge–Kutta
//! formulas", Appl. Math. Lett. 2 (1989) 321–325; MATLAB's `ode23`). The 3rd-order solution is
//! propagated; dense output is the cubic Hermite interpolant of (x, f) at both step ends.

use super::{DenseOutput, Tableau};

/// Bogacki–Shampine 3(2).
pub(crate) static BS23: Tableau = Tableau {
    stages: 4,
    c: &[0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0],
    diagonal: 0.0,
    a: &[
        &[],
        &[1.0 / 2.0],
        &[0.0, 3.0 / 4.0],
        &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
    ],
    b: &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0],
    // e = b − b̂ with b̂ = (7/24, 1/4, 1/3, 1/8).
    e: Some(&[-5.0 / 72.0, 1.0 / 12.0, 1.0 / 9.0, -1.0 / 8.0]),
    fsal: true,
    order: 3,
    error_order: 2,
    dense: DenseOutput::Hermite,
};
