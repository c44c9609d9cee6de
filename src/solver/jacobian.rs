//! The Jacobian J = ∂f/∂x of a [`System`] by forward differences.
//!
//! Column j: J·eⱼ ≈ (f(t, x + δⱼ·eⱼ) − f(t, x)) / δⱼ with δⱼ = sqrt(ε·max(1e-5, |xⱼ|)) (Hairer &
//! Wanner's RADAU5 choice: the truncation error O(δ·f'') and the rounding error O(ε·|f|/δ) balance
//! for states of order one, and states near zero are perturbed by at least sqrt(1e-5·ε) ≈ 5e-11).
//! δⱼ is rounded so that x + δⱼ − x is exactly δⱼ. f(t, x) is the step's first stage, so the
//! Jacobian costs n evaluations.

use super::finite::first_non_finite;
use super::System;

/// Work buffers of the difference quotients (length n each).
pub(crate) struct FdWork<'a> {
    pub x_pert: &'a mut [f64],
    pub f_pert: &'a mut [f64],
}

/// Writes J (row-major, `jac[i·n + j]` = ∂fᵢ/∂xⱼ) at (t, x), where `f0` = f(t, x). Returns the
/// perturbed time and the component of the first non-finite derivative, if any.
pub(crate) fn fd_jacobian<S: System>(
    system: &mut S,
    t: f64,
    x: &[f64],
    f0: &[f64],
    jac: &mut [f64],
    work: FdWork<'_>,
    evaluations: &mut usize,
) -> Result<(), (f64, usize)> {
    let n = x.len();
    let FdWork { x_pert, f_pert } = work;
    x_pert.copy_from_slice(x);
    for j in 0..n {
        let xj = x[j];
        let raw = (f64::EPSILON * xj.abs().max(1e-5)).sqrt();
        x_pert[j] = xj + raw;
        let delta = x_pert[j] - xj;
        system.derivatives(t, x_pert, f_pert);
        *evaluations += 1;
        if let Some(i) = first_non_finite(f_pert) {
            system.non_finite_derivative(t, x_pert);
            x_pert[j] = xj;
            return Err((t, i));
        }
        let inv = 1.0 / delta;
        for i in 0..n {
            jac[i * n + j] = (f_pert[i] - f0[i]) * inv;
        }
        x_pert[j] = xj;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::FnSystem;

    #[test]
    fn matches_the_analytic_jacobian() {
        // f = (x₁·x₂, sin x₀ − 3x₂, x₀²): J = [[0, x₂, x₁], [cos x₀, 0, −3], [2x₀, 0, 0]].
        let mut system = FnSystem::new(3, |_t, x: &[f64], d: &mut [f64]| {
            d[0] = x[1] * x[2];
            d[1] = x[0].sin() - 3.0 * x[2];
            d[2] = x[0] * x[0];
        });
        let x = [0.7, -1.3, 2.1];
        let mut f0 = [0.0; 3];
        system.derivatives(0.0, &x, &mut f0);
        let (mut jac, mut xp, mut fp, mut evals) = ([0.0; 9], [0.0; 3], [0.0; 3], 0);
        let work = FdWork {
            x_pert: &mut xp,
            f_pert: &mut fp,
        };
        fd_jacobian(&mut system, 0.0, &x, &f0, &mut jac, work, &mut evals).unwrap();
        let exact = [0.0, x[2], x[1], x[0].cos(), 0.0, -3.0, 2.0 * x[0], 0.0, 0.0];
        // Forward differences with δ ≈ 1e-8: error ≈ δ·|f''|/2 + ε·|f|/δ ≈ 1e-8.
        for (a, b) in jac.iter().zip(&exact) {
            assert!((a - b).abs() < 1e-7, "{jac:?}");
        }
        assert_eq!(evals, 3);
        assert_eq!(xp, x, "the perturbed state is restored");
    }
}
