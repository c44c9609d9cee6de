//! TR-BDF2 as a 3-stage ESDIRK tableau (M. E. Hosea, L. F. Shampine, "Analysis and implementation
//! of TR-BDF2", Appl. Numer. Math. 20 (1996) 21–37; MATLAB's `ode23tb`).
//!
//! A trapezoidal-rule stage to t + γh, then BDF2 through (t, x), (t + γh, z₂) to t + h, with
//! γ = 2 − √2 so that both implicit stages have the same diagonal d = γ/2 and share one matrix
//! I − h·d·J. As a Butcher tableau:
//!
//! ```text
//!  0 |
//!  γ | d  d
//!  1 | w  w  d
//! ---+---------
//!    | w  w  d                      (2nd order, L-stable, stiffly accurate: x_new = z₃)
//!    | (1−w)/3  (3w+1)/3  d/3       (b̂: 3rd order, for the error estimate)
//! ```
//!
//! with d = 1 − √2/2 and w = √2/4. The BDF2 stage x_new = z₂/(γ(2−γ)) − (1−γ)²x/(γ(2−γ)) +
//! ((1−γ)/(2−γ))·h·f(x_new) is the third row once z₂ = x + h·d·(k₁ + k₂) is substituted: w = d/(γ(2−γ)).
//! The error estimate of the propagated 2nd-order solution is O(h³) (estimator order 2). The
//! last row equals b, so the last stage is f(t + h, x_new): FSAL.

use super::{DenseOutput, Tableau};
use std::f64::consts::SQRT_2;

/// γ = 2 − √2: the trapezoidal stage's fraction of the step.
pub(crate) const TRBDF2_GAMMA: f64 = 2.0 - SQRT_2;
/// d = γ/2 = 1 − √2/2: the diagonal of both implicit stages.
pub(crate) const TRBDF2_D: f64 = TRBDF2_GAMMA / 2.0;
/// w = √2/4: the weight of k₁ and k₂ in the BDF2 stage.
pub(crate) const TRBDF2_W: f64 = SQRT_2 / 4.0;

/// e = b − b̂ = ((4w − 1)/3, −1/3, 2d/3).
pub(crate) const TRBDF2_E: [f64; 3] = [
    (4.0 * TRBDF2_W - 1.0) / 3.0,
    -1.0 / 3.0,
    2.0 * TRBDF2_D / 3.0,
];

/// TR-BDF2 (Hosea & Shampine).
pub(crate) static TRBDF2: Tableau = Tableau {
    stages: 3,
    c: &[0.0, TRBDF2_GAMMA, 1.0],
    diagonal: TRBDF2_D,
    a: &[&[], &[TRBDF2_D], &[TRBDF2_W, TRBDF2_W]],
    b: &[TRBDF2_W, TRBDF2_W, TRBDF2_D],
    e: Some(&TRBDF2_E),
    fsal: true,
    order: 2,
    error_order: 2,
    dense: DenseOutput::Hermite,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_solution_has_order_three() {
        let e = TRBDF2.e.unwrap();
        let bh: Vec<f64> = TRBDF2.b.iter().zip(e).map(|(b, e)| b - e).collect();
        let c = TRBDF2.c;
        let d = TRBDF2.diagonal;
        // A·c with the diagonal: (0, d·γ, w·γ + d).
        let ac = [0.0, d * c[1], TRBDF2_W * c[1] + d];
        let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
        let c2: Vec<f64> = c.iter().map(|c| c * c).collect();
        // Order conditions 1, 2, 3 (Σb̂ = 1, Σb̂c = 1/2, Σb̂c² = 1/3, Σb̂(Ac) = 1/6).
        assert!((bh.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert!((dot(&bh, c) - 0.5).abs() < 1e-15);
        assert!((dot(&bh, &c2) - 1.0 / 3.0).abs() < 1e-15);
        assert!((dot(&bh, &ac) - 1.0 / 6.0).abs() < 1e-15);
        // The propagated solution is 2nd order only: Σbc² ≠ 1/3.
        assert!((dot(TRBDF2.b, &c2) - 1.0 / 3.0).abs() > 1e-3);
    }

    #[test]
    fn bdf2_row_is_the_stage_relation() {
        let g = TRBDF2_GAMMA;
        // To a few ulps (the constants are computed from √2 in different ways).
        assert!((TRBDF2_W - TRBDF2_D / (g * (2.0 - g))).abs() < 4e-16);
        assert!((TRBDF2_D - (1.0 - g) / (2.0 - g)).abs() < 4e-16);
    }

    #[test]
    fn l_stable() {
        // Stability function for y' = λy, z = hλ: the trapezoidal stage gives
        // z₂ = r₂·y with r₂ = (1 + d·z)/(1 − d·z), the BDF2 stage x_new = R(z)·y with
        // R(z) = (1 + w·z·(1 + r₂))/(1 − d·z). |R| ≤ 1 on the negative axis and R(z) → 0 as
        // z → −∞ (L-stability): R(−1e12) ≈ (1 − 2w/d)/(d·1e12) ≈ 5e-12.
        let r = |z: f64| {
            let r2 = (1.0 + TRBDF2_D * z) / (1.0 - TRBDF2_D * z);
            (1.0 + TRBDF2_W * z * (1.0 + r2)) / (1.0 - TRBDF2_D * z)
        };
        assert!(r(-1e12).abs() < 1e-6);
        for z in [-0.1, -1.0, -10.0, -1e3, -1e6] {
            assert!(r(z).abs() <= 1.0, "R({z}) = {}", r(z));
        }
    }
}
