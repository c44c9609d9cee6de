//! The Jacobian J = ∂f/∂x of a [`System`] by forward differences, column group by column group.
//!
//! Column j: J·eⱼ ≈ (f(t, x + δⱼ·eⱼ) − f(t, x)) / δⱼ with δⱼ = sqrt(ε·max(1e-5, |xⱼ|)) (Hairer &
//! Wanner's RADAU5 choice: the truncation error O(δ·f'') and the rounding error O(ε·|f|/δ) balance
//! for states of order one, and states near zero are perturbed by at least sqrt(1e-5·ε) ≈ 5e-11).
//! δⱼ is rounded so that x + δⱼ − x is exactly δⱼ. The columns of one group (`column_groups`)
//! share no row of the sparsity pattern, so they are perturbed together and each row's change is
//! credited to the one column of the group it depends on: one evaluation per group.

use super::column_groups::ColumnGroups;
use super::finite::first_non_finite;
use super::System;

/// Work buffers of the difference quotients (length n each).
pub(crate) struct FdWork<'a> {
    pub x_pert: &'a mut [f64],
    pub f_pert: &'a mut [f64],
    pub delta: &'a mut [f64],
}

/// Where the difference quotients go.
pub(crate) enum JacobianOut<'a> {
    /// Row-major n×n: `jac[i·n + j]` = ∂fᵢ/∂xⱼ, 0 outside the pattern.
    Dense(&'a mut [f64]),
    /// The values of the groups' column-compressed pattern (`ColumnGroups::compressed`): entry
    /// p of column j is ∂fᵢ/∂xⱼ for its row i. The pattern must not be dense.
    Sparse(&'a mut [f64]),
}

/// Writes J at (t, x) into `out`, where `f0` = f(t, x). Returns the time and the component of
/// the first non-finite derivative, if any. The quotients are the same numbers either way, and
/// the same as before the pattern was kept column by column.
pub(crate) fn fd_jacobian<S: System>(
    system: &mut S,
    (t, x, f0): (f64, &[f64], &[f64]),
    out: JacobianOut<'_>,
    groups: &ColumnGroups,
    work: FdWork<'_>,
    evaluations: &mut usize,
) -> Result<(), (f64, usize)> {
    let n = x.len();
    let FdWork {
        x_pert,
        f_pert,
        delta,
    } = work;
    x_pert.copy_from_slice(x);
    let mut out = out;
    if let JacobianOut::Dense(jac) = &mut out {
        jac.fill(0.0);
    }
    for g in 0..groups.groups() {
        for j in (0..n).filter(|&j| groups.in_group(j, g)) {
            x_pert[j] = x[j] + (f64::EPSILON * x[j].abs().max(1e-5)).sqrt();
            delta[j] = x_pert[j] - x[j];
        }
        system.derivatives(t, x_pert, f_pert);
        *evaluations += 1;
        if let Some(i) = first_non_finite(f_pert) {
            system.non_finite_derivative(t, x_pert);
            x_pert.copy_from_slice(x);
            return Err((t, i));
        }
        for j in (0..n).filter(|&j| groups.in_group(j, g)) {
            let inv = 1.0 / delta[j];
            match (&mut out, groups.column_rows(j)) {
                (JacobianOut::Dense(jac), None) => {
                    for i in 0..n {
                        jac[i * n + j] = (f_pert[i] - f0[i]) * inv;
                    }
                }
                (JacobianOut::Dense(jac), Some((_, rows))) => {
                    for &i in rows {
                        jac[i * n + j] = (f_pert[i] - f0[i]) * inv;
                    }
                }
                (JacobianOut::Sparse(vals), Some((start, rows))) => {
                    for (v, &i) in vals[start..start + rows.len()].iter_mut().zip(rows) {
                        *v = (f_pert[i] - f0[i]) * inv;
                    }
                }
                (JacobianOut::Sparse(_), None) => unreachable!("a sparse J needs a pattern"),
            }
            x_pert[j] = x[j];
        }
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
        let (mut jac, mut xp, mut fp, mut dp, mut evals) =
            ([0.0; 9], [0.0; 3], [0.0; 3], [0.0; 3], 0);
        let work = FdWork {
            x_pert: &mut xp,
            f_pert: &mut fp,
            delta: &mut dp,
        };
        let dense = ColumnGroups::new(3);
        fd_jacobian(
            &mut system,
            (0.0, &x, &f0),
            JacobianOut::Dense(&mut jac),
            &dense,
            work,
            &mut evals,
        )
        .unwrap();
        let exact = [0.0, x[2], x[1], x[0].cos(), 0.0, -3.0, 2.0 * x[0], 0.0, 0.0];
        // Forward differences with δ ≈ 1e-8: error ≈ δ·|f''|/2 + ε·|f|/δ ≈ 1e-8.
        for (a, b) in jac.iter().zip(&exact) {
            assert!((a - b).abs() < 1e-7, "{jac:?}");
        }
        assert_eq!(evals, 3);
        assert_eq!(xp, x, "the perturbed state is restored");
        // With the pattern (f₀: x₁, x₂; f₁: x₀, x₂; f₂: x₀; the diagonal added), every pair of
        // columns shares a row: 3 groups of one column, the same quotients bit for bit.
        let mut grouped = ColumnGroups::new(3);
        let pattern = grouped.pattern_mut();
        for (i, j) in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0)] {
            pattern.depends(i, j);
        }
        grouped.set_pattern();
        let mut jac2 = [0.0; 9];
        let work = FdWork {
            x_pert: &mut xp,
            f_pert: &mut fp,
            delta: &mut dp,
        };
        fd_jacobian(
            &mut system,
            (0.0, &x, &f0),
            JacobianOut::Dense(&mut jac2),
            &grouped,
            work,
            &mut evals,
        )
        .unwrap();
        assert_eq!(jac, jac2);
    }

    #[test]
    fn grouped_columns_give_the_dense_answer_in_fewer_evaluations() {
        // A chain of 40 lags xᵢ' = −(i+1)·xᵢ + xᵢ₋₁ + 0.1·xᵢ₋₁²: lower bidiagonal, 2 groups.
        let n = 40;
        let mut system = FnSystem::new(n, |_t, x: &[f64], d: &mut [f64]| {
            for i in 0..x.len() {
                let prev = if i > 0 { x[i - 1] } else { 1.0 };
                d[i] = -((i + 1) as f64) * x[i] + prev + 0.1 * prev * prev;
            }
        });
        let x: Vec<f64> = (0..n).map(|i| 0.5 + 0.01 * i as f64).collect();
        let mut f0 = vec![0.0; n];
        system.derivatives(0.0, &x, &mut f0);
        let (mut xp, mut fp, mut dp) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let mut run = |groups: &ColumnGroups| {
            let mut jac = vec![0.0; n * n];
            let mut evals = 0;
            let work = FdWork {
                x_pert: &mut xp,
                f_pert: &mut fp,
                delta: &mut dp,
            };
            fd_jacobian(
                &mut system,
                (0.0, &x, &f0),
                JacobianOut::Dense(&mut jac),
                groups,
                work,
                &mut evals,
            )
            .unwrap();
            (jac, evals)
        };
        let (dense_jac, dense_evals) = run(&ColumnGroups::new(n));
        let mut banded = ColumnGroups::new(n);
        let pattern = banded.pattern_mut();
        for i in 0..n {
            pattern.depends_on_range(i, i.saturating_sub(1)..i + 1);
        }
        banded.set_pattern();
        let (banded_jac, banded_evals) = run(&banded);
        assert_eq!((dense_evals, banded_evals), (40, 2));
        // The same quotients: entries outside the band are exactly 0 in both.
        for (a, b) in dense_jac.iter().zip(&banded_jac) {
            assert_eq!(a, b);
        }
    }
}
