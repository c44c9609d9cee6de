//! Dense `L D Lᵀ` factorisation of a symmetric positive semi-definite matrix that tolerates rank
//! deficiency by skipping dependent pivots.
//!
//! Crout's column-by-column factorisation without permutation: for `j = 0..n`
//!
//! ```text
//! D_j  = A_jj − Σ_{k<j} L_jk² D_k
//! L_ij = (A_ij − Σ_{k<j} L_ik L_jk D_k) / D_j        (i > j)
//! ```
//!
//! `D_j` is the Schur complement of row `j` against rows `0..j`: in `A = J M⁻¹ Jᵀ` terms, the
//! squared distance (in the `M⁻¹` metric) of `J_j` from the span of the earlier rows. A pivot
//! with `|D_j| ≤ τ·A_jj`, τ = [`DEPENDENT_PIVOT`], is taken as a row linearly dependent on the
//! earlier ones (within an angle of about √τ ≈ 3·10⁻⁵ rad) and skipped: `D_j = 0`, column `j` of
//! `L` is zero, and solves give the solution component `x_j = 0`. For a PSD matrix a zero pivot
//! implies a zero Schur column (`|S_ij|² ≤ S_ii·S_jj`), so skipping is exact in exact arithmetic
//! and solves of consistent systems (right-hand side in the range of `A`, which `A_Cd` always is
//! for a PSD `A`) return a true solution. A pivot below `−τ·A_jj` proves `A` indefinite.
//!
//! Rows whose diagonal is below `10⁻¹⁴·max_k A_kk` have no measurable effect and are skipped too.

/// Relative threshold τ below which a pivot is taken as zero (dependent row). Rounding leaves
/// `D_j` of a truly dependent row at about `n·ε·A_jj·cond ≈ 10⁻¹³` for well-scaled problems;
/// 10⁻⁹ leaves four orders of magnitude of margin while treating rows closer than ~3·10⁻⁵ rad
/// to the span of others as dependent, which for contacts means points a few tens of µm apart on
/// a metre-sized body.
pub const DEPENDENT_PIVOT: f64 = 1e-9;

/// Diagonals below this fraction of the largest diagonal are rows without effect.
const NEGLIGIBLE_DIAGONAL: f64 = 1e-14;

/// An `L D Lᵀ` factorisation with storage for matrices up to `capacity × capacity`.
#[derive(Clone, Debug)]
pub(crate) struct SemidefiniteLdl {
    capacity: usize,
    dim: usize,
    /// Row-major `capacity × capacity`; the strict lower triangle holds `L`.
    l: Vec<f64>,
    /// The pivots `D_j` (0 for skipped pivots).
    d: Vec<f64>,
    /// `L_jk D_k` of the row being factored.
    scratch: Vec<f64>,
}

impl SemidefiniteLdl {
    /// Storage for up to `capacity × capacity` matrices.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            dim: 0,
            l: vec![0.0; capacity * capacity],
            d: vec![0.0; capacity],
            scratch: vec![0.0; capacity],
        }
    }

    /// Factors the `dim × dim` symmetric matrix with entries `entry(i, j)` (only `i ≥ j` is asked).
    /// Returns `Err(j)` when pivot `j` is negative beyond tolerance (the matrix is not PSD).
    pub(crate) fn factor(
        &mut self,
        dim: usize,
        entry: impl Fn(usize, usize) -> f64,
    ) -> Result<(), usize> {
        assert!(
            dim <= self.capacity,
            "SemidefiniteLdl: dimension above capacity"
        );
        self.dim = dim;
        let max_diag = (0..dim).map(|j| entry(j, j)).fold(0.0, f64::max);
        let negligible = NEGLIGIBLE_DIAGONAL * max_diag;
        let cap = self.capacity;
        for j in 0..dim {
            let a_jj = entry(j, j);
            let mut d_j = a_jj;
            for k in 0..j {
                let l_jk = self.l[j * cap + k];
                self.scratch[k] = l_jk * self.d[k];
                d_j -= l_jk * self.scratch[k];
            }
            let threshold = DEPENDENT_PIVOT * a_jj.abs();
            if a_jj.abs() > negligible && d_j < -threshold {
                return Err(j);
            }
            if a_jj.abs() <= negligible || d_j <= threshold {
                self.d[j] = 0.0;
                for i in j + 1..dim {
                    self.l[i * cap + j] = 0.0;
                }
                continue;
            }
            self.d[j] = d_j;
            for i in j + 1..dim {
                let mut s = entry(i, j);
                for k in 0..j {
                    s -= self.l[i * cap + k] * self.scratch[k];
                }
                self.l[i * cap + j] = s / d_j;
            }
        }
        Ok(())
    }

    /// Whether pivot `j` of the last factorisation was skipped (row `j` dependent on rows `0..j`).
    #[cfg(test)]
    pub(crate) fn is_skipped(&self, j: usize) -> bool {
        self.d[j] == 0.0
    }

    /// Solves `A x = r` in place (`x` has the factored dimension), with `x_j = 0` for skipped
    /// pivots: a solution whenever the system is consistent.
    pub(crate) fn solve_in_place(&self, x: &mut [f64]) {
        let (n, cap) = (self.dim, self.capacity);
        debug_assert_eq!(x.len(), n);
        // L y = r (unit lower triangular), then D z = y (z_j = 0 for skipped pivots).
        for i in 0..n {
            let (solved, rest) = x.split_at_mut(i);
            let l_row = &self.l[i * cap..i * cap + i];
            rest[0] -= l_row
                .iter()
                .zip(solved.iter())
                .map(|(l, y)| l * y)
                .sum::<f64>();
        }
        for (xi, &di) in x.iter_mut().zip(&self.d[..n]) {
            *xi = if di == 0.0 { 0.0 } else { *xi / di };
        }
        // Lᵀ x = z.
        for i in (0..n).rev() {
            let s: f64 = (i + 1..n).map(|k| self.l[k * cap + i] * x[k]).sum();
            x[i] -= s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_positive_definite_system() {
        // A = [[4, 2], [2, 3]], r = [2, 1] → x = [0.5, 0].
        let a = [[4.0, 2.0], [2.0, 3.0]];
        let mut ldl = SemidefiniteLdl::new(3);
        ldl.factor(2, |i, j| a[i][j]).unwrap();
        let mut x = [2.0, 1.0];
        ldl.solve_in_place(&mut x);
        assert!((x[0] - 0.5).abs() < 1e-15 && x[1].abs() < 1e-15);
    }

    #[test]
    fn skips_dependent_row_and_solves_consistent_system() {
        // Row 2 = row 0 + row 1 (rank 2). r in the range: r = A·[1, 1, 0] = [3, 3, 6].
        let a = [[2.0, 1.0, 3.0], [1.0, 2.0, 3.0], [3.0, 3.0, 6.0]];
        let mut ldl = SemidefiniteLdl::new(3);
        ldl.factor(3, |i, j| a[i][j]).unwrap();
        assert!(!ldl.is_skipped(0) && !ldl.is_skipped(1) && ldl.is_skipped(2));
        let mut x = [3.0, 3.0, 6.0];
        ldl.solve_in_place(&mut x);
        assert_eq!(x[2], 0.0);
        for (i, row) in a.iter().enumerate() {
            let ax: f64 = row.iter().zip(&x).map(|(p, q)| p * q).sum();
            assert!((ax - [3.0, 3.0, 6.0][i]).abs() < 1e-12);
        }
    }

    #[test]
    fn reports_indefinite_pivot() {
        let a = [[1.0, 2.0], [2.0, 1.0]]; // eigenvalues 3 and −1
        let mut ldl = SemidefiniteLdl::new(2);
        assert_eq!(ldl.factor(2, |i, j| a[i][j]), Err(1));
    }
}
