//! Butcher tableaux of the Runge–Kutta methods and their dense output.
//!
//! A tableau with `s` stages advances x' = f(t, x) from (t, x) by h:
//! kⱼ = f(t + cⱼ·h, x + h·Σ_{l<j} a_{jl}·k_l + h·d·kⱼ), x_new = x + h·Σ bⱼ·kⱼ, and (embedded
//! pairs) the local error estimate err = h·Σ eⱼ·kⱼ with e = b − b̂ (b̂ the weights of the
//! lower-order solution). The diagonal d is 0 for the explicit methods; an ESDIRK method (TR-BDF2,
//! ESDIRK 4(3)) has an explicit first stage (k₁ = f(t, x)) and d ≠ 0 on every later stage, which are then
//! implicit equations (solved in `trbdf2`). For FSAL ("first same as last") tableaux the last row
//! of `a` (with d) equals `b` and c = 1, so the last stage is f(t + h, x_new), which is also the
//! first stage of the next step.

mod bs23;
mod dopri5;
mod esdirk43;
mod rk4;
mod rkc;
mod ros34pw2;
mod trbdf2;

pub(crate) use bs23::BS23;
pub(crate) use dopri5::{dopri5_interpolate_component, DOPRI5, DOPRI5_DENSE};
pub(crate) use esdirk43::ESDIRK43;
pub(crate) use rk4::RK4;
pub(crate) use rkc::RKC;
pub(crate) use ros34pw2::{TransformedStages, ROS34PW2, ROS34PW2_LOOP, ROS34PW2_STAGES};
pub(crate) use trbdf2::{TRBDF2, TRBDF2_D, TRBDF2_GAMMA, TRBDF2_W};

/// How the solution is interpolated inside an accepted step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DenseOutput {
    /// Cubic Hermite interpolation of (x, f) at both ends of the step: 3rd order, C¹ across steps.
    Hermite,
    /// Hairer's 4th-order continuous extension of Dormand–Prince 5(4) (`DOPRI5_DENSE`).
    Dopri5,
}

/// An explicit Runge–Kutta method.
#[derive(Debug)]
pub(crate) struct Tableau {
    /// Number of stages s.
    pub stages: usize,
    /// Nodes c (length s).
    pub c: &'static [f64],
    /// Diagonal coefficient d of stages 2..s (0 for an explicit method).
    pub diagonal: f64,
    /// Strictly lower-triangular coefficients; row j has j entries.
    pub a: &'static [&'static [f64]],
    /// Weights b of the propagated solution (length s).
    pub b: &'static [f64],
    /// Error weights e = b − b̂ (length s); `None` for a method without error estimate.
    pub e: Option<&'static [f64]>,
    /// True when the last stage is f(t + h, x_new).
    pub fsal: bool,
    /// Order of the propagated solution (used by the starting-step heuristic).
    pub order: u32,
    /// Order q of the lower-order solution; the local error estimate is O(h^(q+1)).
    pub error_order: u32,
    /// Dense output of the method.
    pub dense: DenseOutput,
}

/// The loop's view of a method that takes its steps itself (RKC, ROS34PW2): error-controlled (the
/// loop is adaptive when `e` is `Some`), of `order` with an estimate of `error_order`, whose step
/// evaluates f(t + h, x_new) into stage slot 1 of two (FSAL), with cubic Hermite dense output
/// between f(t, x) and f(t + h, x_new). Its `a`, `b` and `e` (Heun's method with its Euler
/// estimate) are never used to take a step.
pub(crate) const fn own_step_method(order: u32, error_order: u32) -> Tableau {
    Tableau {
        stages: 2,
        c: &[0.0, 1.0],
        diagonal: 0.0,
        a: &[&[], &[1.0]],
        b: &[0.5, 0.5],
        e: Some(&[-0.5, 0.5]),
        fsal: true,
        order,
        error_order,
        dense: DenseOutput::Hermite,
    }
}

/// Cubic Hermite interpolation at θ ∈ [0, 1] of one component: `x0`, `x1` the values at the step
/// ends, `hf0`, `hf1` the step h times the derivatives there.
#[inline]
pub(crate) fn hermite(theta: f64, x0: f64, x1: f64, hf0: f64, hf1: f64) -> f64 {
    let t2 = theta * theta;
    let t3 = t2 * theta;
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + theta;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    h00 * x0 + h10 * hf0 + h01 * x1 + h11 * hf1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_consistency(tab: &Tableau, name: &str) {
        assert_eq!(tab.c.len(), tab.stages, "{name}: c");
        assert_eq!(tab.a.len(), tab.stages, "{name}: a rows");
        assert_eq!(tab.b.len(), tab.stages, "{name}: b");
        // Row sums of a (with the diagonal from row 2 on) equal c (the stages are consistent in
        // time), Σb = 1 (order ≥ 1).
        for (j, row) in tab.a.iter().enumerate() {
            assert_eq!(row.len(), j, "{name}: row {j} length");
            let diag = if j > 0 { tab.diagonal } else { 0.0 };
            let sum: f64 = row.iter().sum::<f64>() + diag;
            assert!(
                (sum - tab.c[j]).abs() < 1e-14,
                "{name}: row {j} sums to {sum}, c = {}",
                tab.c[j]
            );
        }
        let sum_b: f64 = tab.b.iter().sum();
        assert!((sum_b - 1.0).abs() < 1e-14, "{name}: Σb = {sum_b}");
        // Σ b c^(k-1) = 1/k for k ≤ order: the quadrature conditions of the order.
        for k in 1..=tab.order {
            let q: f64 = tab
                .b
                .iter()
                .zip(tab.c)
                .map(|(b, c)| b * c.powi(k as i32 - 1))
                .sum();
            assert!(
                (q - 1.0 / k as f64).abs() < 1e-14,
                "{name}: quadrature order {k}: {q}"
            );
        }
        if let Some(e) = tab.e {
            // b̂ = b − e is also consistent: Σe = 0.
            let sum_e: f64 = e.iter().sum();
            assert!(sum_e.abs() < 1e-15, "{name}: Σe = {sum_e}");
        }
        if tab.fsal {
            assert_eq!(tab.c[tab.stages - 1], 1.0);
            let last = tab.a[tab.stages - 1];
            assert_eq!(
                last,
                &tab.b[..tab.stages - 1],
                "{name}: FSAL last row must equal b"
            );
            assert_eq!(
                tab.b[tab.stages - 1],
                tab.diagonal,
                "{name}: FSAL last weight must be the diagonal (0 for explicit methods)"
            );
        }
    }

    #[test]
    fn tableaux_are_consistent() {
        check_consistency(&DOPRI5, "dopri5");
        check_consistency(&BS23, "bs23");
        check_consistency(&RK4, "rk4");
        check_consistency(&TRBDF2, "trbdf2");
        check_consistency(&ESDIRK43, "esdirk43");
    }

    #[test]
    fn hermite_reproduces_a_cubic() {
        // p(t) = t³ − 2t² + 0.5t + 1 on [0, 1]: the Hermite interpolant is exact for cubics.
        let p = |t: f64| t * t * t - 2.0 * t * t + 0.5 * t + 1.0;
        let dp = |t: f64| 3.0 * t * t - 4.0 * t + 0.5;
        for i in 0..=10 {
            let th = i as f64 / 10.0;
            let v = hermite(th, p(0.0), p(1.0), dp(0.0), dp(1.0));
            assert!((v - p(th)).abs() < 1e-15);
        }
    }
}
