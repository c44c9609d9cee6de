//! ROS34PW2: a 4-stage Rosenbrock W-method of order 3 with an embedded solution of order 2
//! (J. Rang, L. Angermann, "New Rosenbrock W-methods of order 3 for partial differential
//! algebraic equations of index 1", BIT Numer. Math. 45 (2005) 761–787, Table 4.2 (ROS34PW2);
//! the same numbers as PETSc's `TSROSWRA34PW2` and OrdinaryDiffEq.jl's `ROS34PW2`).
//!
//! With any matrix W in place of J = ∂f/∂x (a W-method: the order conditions hold for every W,
//! `rosenbrock`), one step from (t, y) is
//!
//! ```text
//! (I − h·γ·W)·kᵢ = h·f(t + αᵢ·h, y + Σ_{j<i} αᵢⱼ·kⱼ) + h·W·Σ_{j<i} γᵢⱼ·kⱼ + h²·gᵢ·w,
//! y_new = y + Σ bᵢ·kᵢ,   ŷ = y + Σ b̂ᵢ·kᵢ,
//! ```
//!
//! with αᵢ = Σⱼ αᵢⱼ, gᵢ = Σ_{j≤i} γᵢⱼ (γᵢᵢ = γ) and w ≈ ∂f/∂t (the t-column of W for the
//! autonomised system). γ = 0.43586652150845900 makes the method L-stable; the last row
//! β₄ⱼ = α₄ⱼ + γ₄ⱼ equals b (stiffly accurate).
//!
//! Stored as published (α, Γ, b, b̂); [`Ros34pw2Tableau::transformed`] gives the form that
//! needs no product with W (Hairer & Wanner, *Solving ODE II*, Section IV.7, (7.25)).

use super::{own_step_method, Tableau};

/// ROS34PW2 as the integration loop sees it (the step itself: `rosenbrock`), as RKC's
/// (`tableau::rkc`, [`own_step_method`]): order 3 with an O(h³) estimate (estimator order 2).
pub(crate) static ROS34PW2_LOOP: Tableau = own_step_method(3, 2);

/// Stages of ROS34PW2.
pub(crate) const ROS34PW2_STAGES: usize = 4;
const S: usize = ROS34PW2_STAGES;

/// A Rosenbrock W-method's coefficients (strictly lower α, lower Γ with γ on the diagonal).
#[derive(Debug)]
pub(crate) struct Ros34pw2Tableau {
    /// γ: the diagonal of Γ, and the matrix I − h·γ·W.
    pub gamma: f64,
    /// αᵢⱼ (j < i).
    pub alpha: [[f64; S]; S],
    /// Γ: γᵢⱼ below the diagonal, γ on it.
    pub big_gamma: [[f64; S]; S],
    /// Weights of the 3rd-order solution.
    pub b: [f64; S],
    /// Weights of the embedded 2nd-order solution.
    pub b_hat: [f64; S],
}

/// ROS34PW2 (Rang & Angermann 2005, Table 4.2), the digits as published (some beyond f64's).
#[allow(clippy::excessive_precision)]
pub(crate) static ROS34PW2: Ros34pw2Tableau = {
    const G: f64 = 4.358_665_215_084_590e-1;
    Ros34pw2Tableau {
        gamma: G,
        alpha: [
            [0.0, 0.0, 0.0, 0.0],
            [8.717_330_430_169_180_1e-1, 0.0, 0.0, 0.0],
            [
                8.445_706_001_536_942_3e-1,
                -1.129_906_423_648_418_5e-1,
                0.0,
                0.0,
            ],
            [0.0, 0.0, 1.0, 0.0],
        ],
        big_gamma: [
            [G, 0.0, 0.0, 0.0],
            [-8.717_330_430_169_180_1e-1, G, 0.0, 0.0],
            [
                -9.033_805_701_304_408_2e-1,
                5.418_067_238_809_532_6e-2,
                G,
                0.0,
            ],
            [
                2.421_238_070_609_534_6e-1,
                -1.223_250_583_904_514_7,
                5.452_602_553_351_021_4e-1,
                G,
            ],
        ],
        b: [
            2.421_238_070_609_534_6e-1,
            -1.223_250_583_904_514_7,
            1.545_260_255_335_102,
            G,
        ],
        b_hat: [
            3.781_090_314_581_936_9e-1,
            -9.604_229_221_242_317_8e-2,
            0.5,
            2.179_332_607_542_295e-1,
        ],
    }
};

/// The coefficients of the transformed stages uᵢ = Σ_{j≤i} γᵢⱼ·kⱼ, which need no product with
/// W (Hairer & Wanner (7.25)): (I/(h·γ) − W)·uᵢ = f(t + αᵢ·h, y + Σ_{j<i} aᵢⱼ·uⱼ) +
/// Σ_{j<i} (cᵢⱼ/h)·uⱼ + h·gᵢ·w, y_new = y + Σ mᵢ·uᵢ, and the error estimate Σ (mᵢ − m̂ᵢ)·uᵢ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TransformedStages {
    /// γ.
    pub gamma: f64,
    /// a = α·Γ⁻¹ (strictly lower).
    pub a: [[f64; S]; S],
    /// c = diag(1/γ) − Γ⁻¹ (strictly lower).
    pub c: [[f64; S]; S],
    /// m = b·Γ⁻¹.
    pub m: [f64; S],
    /// m − m̂ = (b − b̂)·Γ⁻¹: the error estimate's weights.
    pub e: [f64; S],
    /// αᵢ: the stage times as fractions of the step.
    pub alpha_sum: [f64; S],
    /// gᵢ = Σ_{j≤i} γᵢⱼ: the weights of h·∂f/∂t.
    pub gamma_sum: [f64; S],
}

impl Ros34pw2Tableau {
    /// Γ⁻¹ by forward substitution (Γ is lower triangular with γ on the diagonal).
    fn gamma_inverse(&self) -> [[f64; S]; S] {
        let g = &self.big_gamma;
        let mut inv = [[0.0; S]; S];
        for col in 0..S {
            for i in col..S {
                let mut sum = if i == col { 1.0 } else { 0.0 };
                for (j, row) in inv.iter().enumerate().take(i).skip(col) {
                    sum -= g[i][j] * row[col];
                }
                inv[i][col] = sum / g[i][i];
            }
        }
        inv
    }

    /// The transformed coefficients (see [`TransformedStages`]); indexed as the formulas are.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn transformed(&self) -> TransformedStages {
        let inv = self.gamma_inverse();
        let mut t = TransformedStages {
            gamma: self.gamma,
            a: [[0.0; S]; S],
            c: [[0.0; S]; S],
            m: [0.0; S],
            e: [0.0; S],
            alpha_sum: [0.0; S],
            gamma_sum: [0.0; S],
        };
        for i in 0..S {
            for j in 0..i {
                t.a[i][j] = (j..i).map(|l| self.alpha[i][l] * inv[l][j]).sum();
                t.c[i][j] = -inv[i][j];
            }
            t.alpha_sum[i] = self.alpha[i].iter().sum();
            t.gamma_sum[i] = self.big_gamma[i].iter().sum();
        }
        for j in 0..S {
            t.m[j] = (j..S).map(|i| self.b[i] * inv[i][j]).sum();
            t.e[j] = (j..S)
                .map(|i| (self.b[i] - self.b_hat[i]) * inv[i][j])
                .sum();
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Matrix = [[f64; S]; S];

    fn times(m: &Matrix, v: &[f64; S]) -> [f64; S] {
        let mut out = [0.0; S];
        for i in 0..S {
            out[i] = (0..S).map(|j| m[i][j] * v[j]).sum();
        }
        out
    }

    fn dot(a: &[f64; S], b: &[f64; S]) -> f64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// The order conditions of a W-method, from the expansion of k = h·f·𝟙 + h·W·Γ·k +
    /// h·J·A·k + h·f″(·,·)… in powers of h for an arbitrary W (the exact solution has no W, so
    /// every elementary differential with a W must vanish): order 3 for b, 2 for b̂. With
    /// α = A·𝟙: b·𝟙 = 1; b·α = 1/2, b·Γ𝟙 = 0; b·α² = 1/3, b·Aα = 1/6, b·AΓ𝟙 = 0, b·ΓA𝟙 = 0,
    /// b·ΓΓ𝟙 = 0. The published 16-digit coefficients satisfy them to 1e-15.
    #[test]
    fn ros34pw2_satisfies_the_w_method_order_conditions() {
        let t = &ROS34PW2;
        let one = [1.0; S];
        let alpha = times(&t.alpha, &one);
        let g1 = times(&t.big_gamma, &one);
        let alpha2 = alpha.map(|a| a * a);
        let tol = 1e-15;
        let conditions = [
            ("b·1", dot(&t.b, &one), 1.0),
            ("b·α", dot(&t.b, &alpha), 0.5),
            ("b·Γ1", dot(&t.b, &g1), 0.0),
            ("b·α²", dot(&t.b, &alpha2), 1.0 / 3.0),
            ("b·Aα", dot(&t.b, &times(&t.alpha, &alpha)), 1.0 / 6.0),
            ("b·AΓ1", dot(&t.b, &times(&t.alpha, &g1)), 0.0),
            ("b·ΓA1", dot(&t.b, &times(&t.big_gamma, &alpha)), 0.0),
            ("b·ΓΓ1", dot(&t.b, &times(&t.big_gamma, &g1)), 0.0),
            ("b̂·1", dot(&t.b_hat, &one), 1.0),
            ("b̂·α", dot(&t.b_hat, &alpha), 0.5),
            ("b̂·Γ1", dot(&t.b_hat, &g1), 0.0),
        ];
        for (name, value, expected) in conditions {
            assert!(
                (value - expected).abs() < tol,
                "{name} = {value}, expected {expected}"
            );
        }
        // Stiffly accurate: α₄ⱼ + γ₄ⱼ = bⱼ.
        for j in 0..S {
            let beta = t.alpha[S - 1][j] + t.big_gamma[S - 1][j];
            assert!((beta - t.b[j]).abs() < 1e-15, "β₄{j} = {beta}");
        }
        // L-stable: γ is the root in (1/3, 1/2) of 6γ³ − 18γ² + 9γ − 1 = 0.
        let g = t.gamma;
        assert!((6.0 * g * g * g - 18.0 * g * g + 9.0 * g - 1.0).abs() < 1e-15);
    }

    /// The transformed stages give the same step as the published ones: on y' = λy with
    /// W = ω (a scalar W ≠ λ), both forms reproduce the same y_new and ŷ to rounding.
    #[test]
    fn transformed_stages_take_the_same_step() {
        let t = &ROS34PW2;
        let tr = t.transformed();
        let (lambda, omega, h, y) = (-3.0, -2.0, 0.1, 1.0);
        // Published: (1 − hγω)kᵢ = h·λ·(y + Σαᵢⱼkⱼ) + h·ω·Σ_{j<i}γᵢⱼkⱼ.
        let mut k = [0.0; S];
        for i in 0..S {
            let stage = y + (0..i).map(|j| t.alpha[i][j] * k[j]).sum::<f64>();
            let coupling: f64 = (0..i).map(|j| t.big_gamma[i][j] * k[j]).sum();
            k[i] = (h * lambda * stage + h * omega * coupling) / (1.0 - h * t.gamma * omega);
        }
        let y_new = y + dot(&t.b, &k);
        let y_hat = y + dot(&t.b_hat, &k);
        // Transformed: (1/(hγ) − ω)uᵢ = λ·(y + Σaᵢⱼuⱼ) + Σ(cᵢⱼ/h)uⱼ.
        let mut u = [0.0; S];
        for i in 0..S {
            let stage = y + (0..i).map(|j| tr.a[i][j] * u[j]).sum::<f64>();
            let coupling: f64 = (0..i).map(|j| tr.c[i][j] / h * u[j]).sum();
            u[i] = (lambda * stage + coupling) / (1.0 / (h * tr.gamma) - omega);
        }
        assert!((y + dot(&tr.m, &u) - y_new).abs() < 1e-15);
        assert!((dot(&tr.e, &u) - (y_new - y_hat)).abs() < 1e-15);
        assert_eq!(tr.alpha_sum[S - 1], 1.0);
        assert!(tr.gamma_sum[S - 1].abs() < 1e-15);
    }
}
