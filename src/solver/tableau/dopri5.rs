//! Dormand–Prince 5(4) with its 4th-order continuous extension.
//!
//! Coefficients from Hairer, Nørsett & Wanner, *Solving Ordinary Differential Equations I*,
//! 2nd ed., Table II.5.2 (the tableau) and Section II.6 (the dense output, as in Hairer's DOPRI5
//! code `CONTD5`). With θ = (t − t_n)/h, θ₁ = 1 − θ, Δ = x_{n+1} − x_n, B = h·k₁ − Δ:
//!
//! x(t_n + θh) = x_n + θ·(Δ + θ₁·(B + θ·(Δ − h·k₇ − B + θ₁·h·Σⱼ dⱼ·kⱼ)))

use super::{DenseOutput, Tableau};

/// Dormand–Prince 5(4), FSAL.
pub(crate) static DOPRI5: Tableau = Tableau {
    stages: 7,
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    diagonal: 0.0,
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ],
    b: &[
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
        0.0,
    ],
    // e = b − b̂ with b̂ = (5179/57600, 0, 7571/16695, 393/640, −92097/339200, 187/2100, 1/40).
    e: Some(&[
        71.0 / 57600.0,
        0.0,
        -71.0 / 16695.0,
        71.0 / 1920.0,
        -17253.0 / 339200.0,
        22.0 / 525.0,
        -1.0 / 40.0,
    ]),
    fsal: true,
    order: 5,
    error_order: 4,
    dense: DenseOutput::Dopri5,
};

/// Dense-output coefficients dⱼ of Hairer's continuous extension (d₂ = 0).
pub(crate) static DOPRI5_DENSE: [f64; 7] = [
    -12715105075.0 / 11282082432.0,
    0.0,
    87487479700.0 / 32700410799.0,
    -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0,
    -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0,
];

/// Evaluates one component of the continuous extension at θ.
/// `d` = h·Σⱼ dⱼ·kⱼ for this component (precomputed once per step).
#[inline]
pub(crate) fn dopri5_interpolate_component(
    theta: f64,
    x0: f64,
    x1: f64,
    hk1: f64,
    hk7: f64,
    d: f64,
) -> f64 {
    let theta1 = 1.0 - theta;
    let delta = x1 - x0;
    let b = hk1 - delta;
    x0 + theta * (delta + theta1 * (b + theta * (delta - hk7 - b + theta1 * d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_output_matches_the_endpoints_and_slopes() {
        // At θ = 0 and 1 the extension returns x0 and x1; its θ-derivative at 0 is h·k1 and at
        // 1 is h·k7 (the extension is C¹ across steps).
        let (x0, x1, hk1, hk7, d) = (0.3, 1.7, 0.9, 1.1, 0.05);
        assert_eq!(dopri5_interpolate_component(0.0, x0, x1, hk1, hk7, d), x0);
        assert!((dopri5_interpolate_component(1.0, x0, x1, hk1, hk7, d) - x1).abs() < 1e-15);
        let eps = 1e-7;
        let s0 = (dopri5_interpolate_component(eps, x0, x1, hk1, hk7, d) - x0) / eps;
        let s1 = (x1 - dopri5_interpolate_component(1.0 - eps, x0, x1, hk1, hk7, d)) / eps;
        assert!(
            (s0 - hk1).abs() < 1e-5 && (s1 - hk7).abs() < 1e-5,
            "{s0} {s1}"
        );
    }

    #[test]
    fn dense_coefficients_sum_to_zero() {
        // Σ dⱼ = 0: the correction term vanishes for a constant derivative (x linear in t).
        let sum: f64 = DOPRI5_DENSE.iter().sum();
        assert!(sum.abs() < 1e-13, "{sum}");
    }
}
