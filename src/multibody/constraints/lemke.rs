//! Lemke's complementary pivoting for a general linear complementarity problem
//!
//! ```text
//! w = M z + q,   w ≥ 0,  z ≥ 0,  wᵀz = 0
//! ```
//!
//! with `M` not necessarily symmetric (C. E. Lemke, "Bimatrix equilibrium points and
//! mathematical programming", Management Science 11, 1965; Cottle, Pang & Stone, *The Linear
//! Complementarity Problem*, §4.4). The frictional contact problem uses it because its matrix is
//! neither symmetric nor positive semi-definite, which Baraff's method needs.
//!
//! The tableau `[B⁻¹ | −B⁻¹M | −B⁻¹e | B⁻¹q]` holds the columns of `w`, `z`, the artificial
//! variable `z₀` (covering vector `e = 1`) and the basic values; the basis starts as `w`. First
//! `z₀` enters at the row of the most negative `q_i` (making every basic value non-negative),
//! then the complement of each leaving variable enters, the leaving row chosen by the minimum
//! ratio test over rows with a positive entry in the entering column. The pivoting ends when
//! `z₀` leaves (a solution) or when no row limits the entering variable (a *secondary ray*: for
//! the frictional problem, no solution was found, i.e. Painlevé's paradox).
//!
//! Degenerate ties in the ratio test are broken lexicographically on the rows of `B⁻¹` divided by
//! the pivot column, which makes every basis lexicographically feasible and rules out cycling;
//! the first pivot picks the largest index among the tied minima of `q` for the same reason.
//! A pivot budget guards against cycling caused by rounding anyway.
//!
//! Tolerances assume the caller scaled the problem so that `M` and `q` are of order 1: entries of
//! the entering column below `10⁻¹¹·max|column|` (and below 10⁻¹⁴) are not pivots, ratios within
//! `10⁻¹¹·(1 + r_min)` of the minimum are ties.

/// Relative size of the smallest admissible pivot within its column.
const PIVOT_TOLERANCE: f64 = 1e-11;
/// Absolute floor of admissible pivots (the problem is scaled to order 1).
const PIVOT_FLOOR: f64 = 1e-14;
/// Ratios closer than this (relative to `1 + r_min`) are ties.
const TIE_TOLERANCE: f64 = 1e-11;

/// Why Lemke's method stopped without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LemkeFailure {
    /// No row limits the entering variable: `variable` is the index `i` of `w_i`/`z_i`.
    Ray {
        /// Index of the entering variable's pair.
        variable: usize,
    },
    /// The pivot budget ran out while `variable` was entering.
    PivotLimit {
        /// Index of the entering variable's pair.
        variable: usize,
        /// Pivots made.
        pivots: usize,
    },
}

/// The tableau and basis for problems of up to `capacity` variables.
#[derive(Clone, Debug)]
pub(crate) struct Lemke {
    capacity: usize,
    stride: usize,
    tableau: Vec<f64>,
    /// Basic variable of each row: `i` for `w_i`, `n + i` for `z_i`, `2n` for `z₀`.
    basis: Vec<usize>,
    /// Rows tied in the ratio test.
    ties: Vec<usize>,
}

impl Lemke {
    /// Storage for problems of up to `capacity` variables.
    pub(crate) fn new(capacity: usize) -> Self {
        let stride = 2 * capacity + 2;
        Self {
            capacity,
            stride,
            tableau: vec![0.0; capacity * stride],
            basis: vec![0; capacity],
            ties: Vec::with_capacity(capacity),
        }
    }

    /// Solves the `n`-variable problem with `M_ij = m[i·m_stride + j]`; writes `z` (n values) and
    /// returns the number of pivots. `w` follows as `M z + q`.
    pub(crate) fn solve(
        &mut self,
        n: usize,
        m: &[f64],
        m_stride: usize,
        q: &[f64],
        z: &mut [f64],
        max_pivots: usize,
    ) -> Result<usize, LemkeFailure> {
        assert!(n <= self.capacity, "Lemke: more variables than capacity");
        z[..n].fill(0.0);
        if q[..n].iter().all(|&x| x >= 0.0) {
            return Ok(0);
        }
        self.initialize(n, m, m_stride, q);
        let z0 = 2 * n;
        // First pivot: z₀ enters at the most negative q (largest index among ties).
        let q_min = q[..n].iter().fold(f64::INFINITY, |a, &b| a.min(b));
        let tie = TIE_TOLERANCE * (1.0 + q_min.abs());
        let first = (0..n).rev().find(|&i| q[i] <= q_min + tie).unwrap_or(0);
        self.pivot(n, first, z0);
        let mut leaving = std::mem::replace(&mut self.basis[first], z0);
        let mut pivots = 1;
        while leaving != z0 {
            let entering = if leaving < n {
                leaving + n
            } else {
                leaving - n
            };
            if pivots >= max_pivots {
                return Err(LemkeFailure::PivotLimit {
                    variable: entering % n,
                    pivots,
                });
            }
            let row = self.ratio_test(n, entering).ok_or(LemkeFailure::Ray {
                variable: entering % n,
            })?;
            self.pivot(n, row, entering);
            leaving = std::mem::replace(&mut self.basis[row], entering);
            pivots += 1;
        }
        let rhs = 2 * n + 1;
        for i in 0..n {
            let var = self.basis[i];
            if (n..2 * n).contains(&var) {
                z[var - n] = self.tableau[i * self.stride + rhs].max(0.0);
            }
        }
        Ok(pivots)
    }

    /// `[I | −M | −e | q]`, basis `w`.
    fn initialize(&mut self, n: usize, m: &[f64], m_stride: usize, q: &[f64]) {
        for i in 0..n {
            let row = &mut self.tableau[i * self.stride..i * self.stride + 2 * n + 2];
            row.fill(0.0);
            row[i] = 1.0;
            for j in 0..n {
                row[n + j] = -m[i * m_stride + j];
            }
            row[2 * n] = -1.0;
            row[2 * n + 1] = q[i];
            self.basis[i] = i;
        }
    }

    /// Gauss–Jordan pivot on `(row, col)`.
    fn pivot(&mut self, n: usize, row: usize, col: usize) {
        let (width, stride) = (2 * n + 2, self.stride);
        let p = self.tableau[row * stride + col];
        for k in 0..width {
            self.tableau[row * stride + k] /= p;
        }
        for i in (0..n).filter(|&i| i != row) {
            let factor = self.tableau[i * stride + col];
            if factor != 0.0 {
                for k in 0..width {
                    self.tableau[i * stride + k] -= factor * self.tableau[row * stride + k];
                }
                self.tableau[i * stride + col] = 0.0;
            }
        }
    }

    /// The leaving row for entering column `col` (minimum ratio, lexicographic ties), or `None`
    /// for a ray.
    fn ratio_test(&mut self, n: usize, col: usize) -> Option<usize> {
        let stride = self.stride;
        let t = &self.tableau;
        let entry = |i: usize, k: usize| t[i * stride + k];
        let col_max = (0..n).fold(0.0f64, |a, i| a.max(entry(i, col).abs()));
        let admissible = (PIVOT_TOLERANCE * col_max).max(PIVOT_FLOOR);
        let rhs = 2 * n + 1;
        let ratio = |i: usize| entry(i, rhs).max(0.0) / entry(i, col);
        let r_min = (0..n)
            .filter(|&i| entry(i, col) > admissible)
            .map(ratio)
            .fold(f64::INFINITY, f64::min);
        if r_min == f64::INFINITY {
            return None;
        }
        self.ties.clear();
        let tie = TIE_TOLERANCE * (1.0 + r_min);
        self.ties
            .extend((0..n).filter(|&i| entry(i, col) > admissible && ratio(i) <= r_min + tie));
        // Lexicographic rule on the rows of B⁻¹ (the w columns) scaled by the pivot column.
        for k in 0..n {
            if self.ties.len() == 1 {
                break;
            }
            let scaled = |i: usize| entry(i, k) / entry(i, col);
            let best = self
                .ties
                .iter()
                .map(|&i| scaled(i))
                .fold(f64::INFINITY, f64::min);
            let tie = TIE_TOLERANCE * (1.0 + best.abs());
            self.ties.retain(|&i| scaled(i) <= best + tie);
        }
        self.ties.first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(m: &[f64], q: &[f64]) -> Result<Vec<f64>, LemkeFailure> {
        let n = q.len();
        let mut lemke = Lemke::new(n);
        let mut z = vec![0.0; n];
        lemke.solve(n, m, n, q, &mut z, 100)?;
        Ok(z)
    }

    #[test]
    fn solves_a_nonsymmetric_problem() {
        // M = [2 1; 0 2], q = (−4, −2): z = (1.5, 1), w = 0.
        let z = solve(&[2.0, 1.0, 0.0, 2.0], &[-4.0, -2.0]).unwrap();
        assert!((z[0] - 1.5).abs() < 1e-14 && (z[1] - 1.0).abs() < 1e-14);
    }

    #[test]
    fn nonnegative_q_needs_no_pivot() {
        assert_eq!(solve(&[-1.0], &[1.0]).unwrap(), vec![0.0]);
    }

    #[test]
    fn negative_scalar_ends_on_a_ray() {
        // w = −z − 1 < 0 for every z ≥ 0: no solution.
        assert_eq!(
            solve(&[-1.0], &[-1.0]),
            Err(LemkeFailure::Ray { variable: 0 })
        );
    }

    #[test]
    fn degenerate_ties_do_not_cycle() {
        // Rank-one M with equal q: every ratio ties.
        let z = solve(&[1.0; 9], &[-1.0; 3]).unwrap();
        assert!((z.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    }
}
