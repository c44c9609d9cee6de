//! Lemke's complementary pivoting with the lexicographic minimum-ratio test, for a general
//! linear complementarity problem
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
//! # The pivoting
//!
//! The augmented problem is `w = q + d z₀ + M z` with the covering vector `d > 0` (`d = e = 1`,
//! or a graded `dᵢ = 1 + i/(2n)` for the second attempt of the caller's fallback). The tableau
//! `[B⁻¹ | −B⁻¹M | −B⁻¹d | B⁻¹q]` holds the columns of `w`, `z`, `z₀` and the basic values
//! `q̄ = B⁻¹q`; the basis `B` starts as the `w` columns (`B = I`). First `z₀` enters at the row
//! `r` minimizing `qᵢ/dᵢ` (every basic value becomes non-negative), then the complement of each
//! leaving variable enters. The pivoting ends when `z₀` leaves (a solution) or when no row limits
//! the entering variable (a *secondary ray*: no solution was found).
//!
//! # The anti-cycling rule (Cottle, Pang & Stone §4.9)
//!
//! With `β = B⁻¹` (the tableau's `w` columns) and `c` the entering column, the leaving row is the
//! **lexicographic minimum** over the rows with `cᵢ > 0` of the row vectors
//!
//! ```text
//! (q̄ᵢ, βᵢ₁, βᵢ₂, …, βᵢₙ) / cᵢ
//! ```
//!
//! i.e. the minimum ratio `q̄ᵢ/cᵢ`, ties broken by `βᵢ₁/cᵢ`, then `βᵢ₂/cᵢ`, and so on. Since `B⁻¹`
//! is non-singular no two rows tie in every component, so the choice is unique. It is the
//! ordinary ratio test applied to the perturbed problem `q(ε) = q + (ε, ε², …, εⁿ)` for a small
//! enough `ε > 0`, which is non-degenerate: every basis stays *lexicographically feasible*
//! (each row `(q̄ᵢ, βᵢ·)` lexicographically positive), the perturbed `z₀` strictly decreases
//! lexicographically along the path, so no basis repeats and the method terminates in finitely
//! many pivots — it cannot cycle (CPS Theorem 4.9.3 with §4.4). The first pivot is the same rule
//! on the rows `(qᵢ, eᵢ)/dᵢ`: among the rows tied at the minimum `qᵢ/dᵢ` the largest index wins.
//!
//! # Floating point
//!
//! The problem is scaled by the caller so that `M` and `q` are of order 1; its data carry a
//! relative noise of about 10⁻¹⁰ (contact geometry computed by iterative queries), so exact zeros
//! of the true problem arrive as entries of that size. Entries of the entering column below
//! `10⁻⁹·max|column|` (and below 10⁻¹²) are therefore treated as zeros, not pivots: pivoting on
//! such an entry makes a basis singular to working precision and its tableau meaningless (the
//! turntable of issue 27 did so, after which basic values turned negative and the pivoting
//! cycled). Components of the lexicographic vectors closer than `10⁻¹¹·(1 + |min|)` are ties. A
//! basic value that falls below `−10⁻⁷·(1 + max q̄)` after a pivot means rounding has destroyed
//! feasibility: the method stops with [`LemkeFailure::Unstable`] rather than wander, so the
//! caller's exact fallback takes over. A pivot budget remains, unreachable when the arithmetic is
//! exact (the rule cannot cycle).

use super::lcp_problem::Lcp;

/// Relative size of the smallest admissible pivot within its column.
const PIVOT_TOLERANCE: f64 = 1e-9;
/// Absolute floor of admissible pivots (the problem is scaled to order 1).
const PIVOT_FLOOR: f64 = 1e-12;
/// Components of the lexicographic vectors closer than this (relative to `1 + |min|`) are ties.
const TIE_TOLERANCE: f64 = 1e-11;
/// A basic value below `−FEASIBILITY_TOLERANCE·(1 + max q̄)` means feasibility was lost.
const FEASIBILITY_TOLERANCE: f64 = 1e-7;

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
    /// Rounding made a basic value negative after `variable` entered.
    Unstable {
        /// Index of the entering variable's pair.
        variable: usize,
    },
}

/// The covering vector `d` of the artificial variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Covering {
    /// `dᵢ = 1`.
    Ones,
    /// `dᵢ = 1 + i/(2n)`: a different path for a second attempt.
    Graded,
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
    /// Pivots of the last solve, successful or not.
    last_pivots: usize,
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
            last_pivots: 0,
        }
    }

    /// Pivots made by the last solve, successful or not.
    pub(crate) fn last_pivots(&self) -> usize {
        self.last_pivots
    }

    /// Solves `lcp`; writes `z` (n values) and returns the number of pivots. `w` follows as
    /// `M z + q`. Marks in `z_basic[i]` whether `z_i` ended basic (the solution's complementary
    /// index set).
    pub(crate) fn solve(
        &mut self,
        lcp: Lcp<'_>,
        covering: Covering,
        z: &mut [f64],
        z_basic: &mut [bool],
        max_pivots: usize,
    ) -> Result<usize, LemkeFailure> {
        let Lcp { n, q, .. } = lcp;
        assert!(n <= self.capacity, "Lemke: more variables than capacity");
        z[..n].fill(0.0);
        z_basic[..n].fill(false);
        self.last_pivots = 0;
        if q[..n].iter().all(|&x| x >= 0.0) {
            return Ok(0);
        }
        let d = |i: usize| match covering {
            Covering::Ones => 1.0,
            Covering::Graded => 1.0 + i as f64 / (2 * n) as f64,
        };
        self.initialize(lcp, d);
        let z0 = 2 * n;
        // First pivot: z₀ enters at the minimum q_i/d_i (largest index among ties).
        let r_min = (0..n).fold(f64::INFINITY, |a, i| a.min(q[i] / d(i)));
        let tie = TIE_TOLERANCE * (1.0 + r_min.abs());
        let first = (0..n)
            .rev()
            .find(|&i| q[i] / d(i) <= r_min + tie)
            .unwrap_or(0);
        self.pivot(n, first, z0);
        let mut leaving = std::mem::replace(&mut self.basis[first], z0);
        let mut pivots = 1;
        self.last_pivots = pivots;
        while leaving != z0 {
            let entering = if leaving < n {
                leaving + n
            } else {
                leaving - n
            };
            let variable = entering % n;
            if pivots >= max_pivots {
                return Err(LemkeFailure::PivotLimit { variable, pivots });
            }
            let row = self
                .ratio_test(n, entering)
                .ok_or(LemkeFailure::Ray { variable })?;
            self.pivot(n, row, entering);
            leaving = std::mem::replace(&mut self.basis[row], entering);
            pivots += 1;
            self.last_pivots = pivots;
            if !self.feasible(n) {
                return Err(LemkeFailure::Unstable { variable });
            }
        }
        let rhs = 2 * n + 1;
        for i in 0..n {
            let var = self.basis[i];
            if (n..2 * n).contains(&var) {
                z[var - n] = self.tableau[i * self.stride + rhs].max(0.0);
                z_basic[var - n] = true;
            }
        }
        Ok(pivots)
    }

    /// `[I | −M | −d | q]`, basis `w`.
    fn initialize(&mut self, lcp: Lcp<'_>, d: impl Fn(usize) -> f64) {
        let Lcp { n, m, stride, q } = lcp;
        for i in 0..n {
            let row = &mut self.tableau[i * self.stride..i * self.stride + 2 * n + 2];
            row.fill(0.0);
            row[i] = 1.0;
            for j in 0..n {
                row[n + j] = -m[i * stride + j];
            }
            row[2 * n] = -d(i);
            row[2 * n + 1] = q[i];
            self.basis[i] = i;
        }
    }

    /// Whether every basic value is at least `−FEASIBILITY_TOLERANCE·(1 + max q̄)`.
    fn feasible(&self, n: usize) -> bool {
        let rhs = 2 * n + 1;
        let value = |i: usize| self.tableau[i * self.stride + rhs];
        let largest = (0..n).fold(0.0f64, |a, i| a.max(value(i)));
        let floor = -FEASIBILITY_TOLERANCE * (1.0 + largest);
        (0..n).all(|i| value(i) >= floor)
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

    /// The leaving row for entering column `col` by the lexicographic minimum-ratio test (module
    /// documentation), or `None` for a ray.
    fn ratio_test(&mut self, n: usize, col: usize) -> Option<usize> {
        let stride = self.stride;
        let t = &self.tableau;
        let entry = |i: usize, k: usize| t[i * stride + k];
        let col_max = (0..n).fold(0.0f64, |a, i| a.max(entry(i, col).abs()));
        let admissible = (PIVOT_TOLERANCE * col_max).max(PIVOT_FLOOR);
        self.ties.clear();
        self.ties
            .extend((0..n).filter(|&i| entry(i, col) > admissible));
        if self.ties.is_empty() {
            return None;
        }
        // Component 0 is q̄ (clipped at 0: rounding below the feasibility guard), then B⁻¹.
        let rhs = 2 * n + 1;
        for component in 0..=n {
            if self.ties.len() == 1 {
                break;
            }
            let k = if component == 0 { rhs } else { component - 1 };
            let scaled = |i: usize| {
                let x = entry(i, k);
                (if component == 0 { x.max(0.0) } else { x }) / entry(i, col)
            };
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
#[path = "lemke_tests.rs"]
mod tests;
