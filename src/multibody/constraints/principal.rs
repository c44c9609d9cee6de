//! One complementary basis of a linear complementarity problem `w = M z + q ≥ 0, z ≥ 0, wᵀz = 0`,
//! solved directly: for the index set `α` of variables `zᵢ` taken as basic (the others zero,
//! their `wᵢ` basic),
//!
//! ```text
//! M_αα z_α = −q_α,   z_ᾱ = 0,   w_ᾱ = M_ᾱα z_α + q_ᾱ,   w_α = 0,
//! ```
//!
//! and the basis is a solution exactly when `z_α ≥ 0` and `w_ᾱ ≥ 0`. The warm start tries the
//! previous solve's set; the enumeration fallback tries them all. `M_αα` is factored by Gaussian
//! elimination with partial pivoting; a pivot below `10⁻¹²·max|M_αα|` marks it singular (that set
//! is skipped: a solvable problem also has a solution with a non-singular set, or the
//! enumeration reports none).

use super::lcp_problem::Lcp;

/// Relative size below which a pivot of `M_αα` is zero.
const SINGULAR: f64 = 1e-12;

/// Buffers for one basis of up to `capacity` variables.
#[derive(Clone, Debug)]
pub(crate) struct PrincipalBasis {
    capacity: usize,
    /// `M_αα` (row-major, `capacity` stride), factored in place.
    lu: Vec<f64>,
    /// The variables of `α`, in order.
    index: Vec<usize>,
    /// `−q_α`, then `z_α`.
    x: Vec<f64>,
}

impl PrincipalBasis {
    /// Buffers for problems of up to `capacity` variables.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            lu: vec![0.0; capacity * capacity],
            index: Vec::with_capacity(capacity),
            x: vec![0.0; capacity],
        }
    }

    /// Tries the set `alpha` (`alpha[i]`: `zᵢ` basic) of `lcp`. On success writes `z` (negative rounding clipped to 0) and
    /// returns true. Accepted when every condition holds within `tol·max(1, m_max·‖z‖∞)`, with
    /// `m_max = max|M_ij|` given by the caller — the same measure as the solver's final check.
    pub(crate) fn try_set(
        &mut self,
        lcp: Lcp<'_>,
        alpha: &[bool],
        m_max: f64,
        tol: f64,
        z: &mut [f64],
    ) -> bool {
        let Lcp { n, m, stride, q } = lcp;
        debug_assert!(n <= self.capacity);
        self.index.clear();
        self.index.extend((0..n).filter(|&i| alpha[i]));
        if !self.factor_and_solve(m, stride, q) {
            return false;
        }
        z[..n].fill(0.0);
        for (k, &i) in self.index.iter().enumerate() {
            z[i] = self.x[k];
        }
        let z_max = z[..n].iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let limit = tol * (m_max * z_max).max(1.0);
        for i in 0..n {
            let w: f64 = q[i] + (0..n).map(|j| m[i * stride + j] * z[j]).sum::<f64>();
            let violation = if alpha[i] { (-z[i]).max(w.abs()) } else { -w };
            if violation > limit {
                return false;
            }
        }
        z[..n].iter_mut().for_each(|x| *x = x.max(0.0));
        true
    }

    /// Solves `M_αα z_α = −q_α` into `x`; false when `M_αα` is singular.
    fn factor_and_solve(&mut self, m: &[f64], stride: usize, q: &[f64]) -> bool {
        let (k, c) = (self.index.len(), self.capacity);
        let mut scale = 0.0f64;
        for (r, &i) in self.index.iter().enumerate() {
            for (s, &j) in self.index.iter().enumerate() {
                let v = m[i * stride + j];
                self.lu[r * c + s] = v;
                scale = scale.max(v.abs());
            }
            self.x[r] = -q[i];
        }
        let tiny = SINGULAR * scale.max(f64::MIN_POSITIVE);
        for col in 0..k {
            let pivot_row = (col..k)
                .max_by(|&a, &b| {
                    self.lu[a * c + col]
                        .abs()
                        .total_cmp(&self.lu[b * c + col].abs())
                })
                .unwrap_or(col);
            let p = self.lu[pivot_row * c + col];
            if p.abs() <= tiny {
                return false;
            }
            if pivot_row != col {
                for s in 0..k {
                    self.lu.swap(pivot_row * c + s, col * c + s);
                }
                self.x.swap(pivot_row, col);
            }
            for r in col + 1..k {
                let factor = self.lu[r * c + col] / p;
                if factor != 0.0 {
                    for s in col..k {
                        self.lu[r * c + s] -= factor * self.lu[col * c + s];
                    }
                    self.x[r] -= factor * self.x[col];
                }
            }
        }
        for col in (0..k).rev() {
            let tail: f64 = (col + 1..k).map(|s| self.lu[col * c + s] * self.x[s]).sum();
            self.x[col] = (self.x[col] - tail) / self.lu[col * c + col];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::lcp;
    use super::*;

    #[test]
    fn accepts_the_solving_set_and_rejects_the_others() {
        // M = [2 1; 0 2], q = (−4, −2): z = (1.5, 1) with both basic; no other set solves it.
        let (m, q) = ([2.0, 1.0, 0.0, 2.0], [-4.0, -2.0]);
        let mut basis = PrincipalBasis::new(2);
        let mut z = [0.0; 2];
        assert!(basis.try_set(lcp(&m, &q), &[true, true], 2.0, 1e-12, &mut z));
        assert!((z[0] - 1.5).abs() < 1e-15 && (z[1] - 1.0).abs() < 1e-15);
        for alpha in [[false, false], [true, false], [false, true]] {
            assert!(!basis.try_set(lcp(&m, &q), &alpha, 2.0, 1e-12, &mut z));
        }
    }

    #[test]
    fn singular_sets_are_skipped() {
        let m = [1.0; 4];
        let mut basis = PrincipalBasis::new(2);
        let mut z = [0.0; 2];
        assert!(!basis.try_set(lcp(&m, &[-1.0, -1.0]), &[true, true], 1.0, 1e-12, &mut z));
        assert!(basis.try_set(lcp(&m, &[-1.0, -1.0]), &[true, false], 1.0, 1e-12, &mut z));
        assert_eq!(z, [1.0, 0.0]);
    }
}
