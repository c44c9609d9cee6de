//! The Jacobian J and the factorisation of the Newton matrix M = I − h·d·J of the implicit
//! methods (`trbdf2`), on one of two paths:
//!
//! - **dense**: J row-major n × n, M factored by `DenseLu` (partial pivoting);
//! - **sparse**: J's values in the column groups' compressed pattern, M factored by `SparseLu`
//!   (diagonal pivots in a fill-reducing order), taken for large, sparse patterns
//!   ([`NewtonMatrix::choose_path`]).
//!
//! The dense buffers (17·n² bytes: J and the LU, 8 bytes each per entry, and the pivots) are
//! allocated when the solver is built only up to [`EAGER_DENSE_STATES`] states, where every
//! buffer is taken up front so that a run allocates nothing; above it they are allocated at their
//! first use (a dense pattern, or a sparse factorisation that met a small pivot), so that a
//! large model on the sparse path never holds them (3,328 states: 188 MB).
//!
//! A sparse factorisation that meets a small pivot is redone densely from the same J; after
//! [`SPARSE_MAX_FAILURES`] such failures the pattern is not tried sparse again until it changes
//! (each try costs an assembly and a partial elimination before the dense n³/3).
//!
//! Above [`MAX_IMPLICIT_STATES`] states nothing dense is ever allocated: a model there runs on
//! the sparse path only. A dense pattern is refused at its first Jacobian
//! ([`NewtonMatrix::jacobian_out`] returns [`DenseRefused`]), and a sparse factorisation that
//! meets a small pivot fails as a singular M would (the step is retried with a smaller h,
//! where M = I − h·d·J is closer to I), instead of falling back.

use super::column_groups::ColumnGroups;
use super::dense_lu::{DenseLu, Singular};
use super::jacobian::JacobianOut;
use super::sparse_lu::SparseLu;

/// The most states for which an implicit method (trbdf2, esdirk43, and auto's stiff phase)
/// takes the dense path: its dense Jacobian and LU take 17·n² bytes (272 MB at this limit; 27 GB
/// for a 20,000-joint chain's 40,000 states). Above it a named implicit method runs on the sparse
/// path only and is refused at the first Jacobian whose pattern is too dense for it (the error
/// names the time), before anything dense is allocated; `auto` stays explicit (dopri5), so that
/// a large explicit model never forms a Jacobian.
pub const MAX_IMPLICIT_STATES: usize = 4000;

/// Up to this many states the dense buffers are allocated with the solver (as the column
/// lists, `column_groups`); above, at their first use.
pub(crate) const EAGER_DENSE_STATES: usize = 512;
/// Sparse factorisations of one pattern that may fall back to the dense LU before the pattern
/// is factored densely only.
pub(crate) const SPARSE_MAX_FAILURES: usize = 2;

/// The current pattern needs the dense path, and the model has more than
/// [`MAX_IMPLICIT_STATES`] states: the dense buffers (17·n² bytes) are not allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DenseRefused;

/// J and M's factorisation (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct NewtonMatrix {
    n: usize,
    /// J row-major, n × n (dense path); empty until first needed above [`EAGER_DENSE_STATES`].
    jac: Vec<f64>,
    /// J's values in the column groups' compressed pattern (sparse path).
    jac_sparse: Vec<f64>,
    /// M's factorisation on the sparse path, analysed for the current pattern.
    sparse_lu: SparseLu,
    /// M's factorisation on the dense path (order 0 until first needed, as `jac`).
    lu: DenseLu,
    /// The current pattern takes the sparse path.
    use_sparse: bool,
    /// The sparse path may be taken (`SolverOptions::sparse_lu`).
    sparse_allowed: bool,
    /// The current factorisation is `sparse_lu`'s (otherwise `lu`'s).
    factored_sparse: bool,
    /// Sparse factorisations of the current pattern that met a small pivot.
    sparse_failures: usize,
}

impl NewtonMatrix {
    /// Buffers for n states (the dense ones now only up to [`EAGER_DENSE_STATES`]).
    pub(crate) fn new(n: usize) -> Self {
        let mut m = Self {
            n,
            jac: Vec::new(),
            jac_sparse: Vec::new(),
            sparse_lu: SparseLu::default(),
            lu: DenseLu::new(0),
            use_sparse: false,
            sparse_allowed: true,
            factored_sparse: false,
            sparse_failures: 0,
        };
        if n <= EAGER_DENSE_STATES {
            m.dense_buffers();
        }
        m
    }

    /// Allows (true, the default) or forbids the sparse path; forbidden, the dense buffers are
    /// allocated now (the only path).
    pub(crate) fn with_sparse_lu(mut self, allowed: bool) -> Self {
        self.sparse_allowed = allowed;
        if !allowed {
            self.dense_buffers();
        }
        self
    }

    /// Allocates the dense J and LU unless they are.
    fn dense_buffers(&mut self) {
        if self.jac.len() != self.n * self.n {
            self.jac = vec![0.0; self.n * self.n];
        }
        self.dense_lu();
    }

    /// Allocates the dense LU unless it is (the sparse path's fallback needs it, not the dense J).
    fn dense_lu(&mut self) {
        if self.lu.order() != self.n {
            self.lu = DenseLu::new(self.n);
        }
    }

    /// A run starts: the sparse path gets its chances again (the failures are counted per
    /// pattern and per run, so a reused solver starts as a fresh one would).
    pub(crate) fn new_run(&mut self) {
        self.sparse_failures = 0;
    }

    /// True when the dense buffers are allocated.
    #[cfg(test)]
    fn has_dense_buffers(&self) -> bool {
        self.jac.len() == self.n * self.n
    }

    /// True when the dense LU (the fallback's only dense buffer) is allocated.
    #[cfg(test)]
    fn has_dense_lu(&self) -> bool {
        self.lu.order() == self.n
    }

    /// True when the current pattern takes the sparse path.
    #[cfg(test)]
    fn is_sparse(&self) -> bool {
        self.use_sparse
    }

    /// The system declared no pattern: the dense path.
    pub(crate) fn set_dense(&mut self) {
        self.use_sparse = false;
    }

    /// A new pattern was set in `groups`: the sparse path when n is at least `min_states`, the
    /// pattern holds at most `max_density`·n² entries and the filled pattern of M's factors at
    /// most `max_fill`·n²; its symbolic analysis (which reuses its buffers). Returns whether
    /// the pattern was analysed.
    pub(crate) fn choose_path(
        &mut self,
        groups: &ColumnGroups,
        min_states: usize,
        (max_density, max_fill): (f64, f64),
    ) -> bool {
        let n = self.n;
        let area = (n * n) as f64;
        self.sparse_failures = 0;
        self.use_sparse = self.sparse_allowed
            && n >= min_states
            && (groups.entries() as f64) <= max_density * area;
        if self.use_sparse {
            let (col_ptr, rows) = groups.compressed();
            self.sparse_lu.analyse(n, col_ptr, rows);
            self.use_sparse = (self.sparse_lu.filled_entries() as f64) <= max_fill * area;
            self.jac_sparse.resize(rows.len(), 0.0);
            return true;
        }
        false
    }

    /// True when the dense buffers may be allocated: up to [`MAX_IMPLICIT_STATES`] states.
    fn dense_allowed(&self) -> bool {
        self.n <= MAX_IMPLICIT_STATES
    }

    /// Where the difference quotients go for the current path; `Err(DenseRefused)` when the
    /// path is dense and n is above [`MAX_IMPLICIT_STATES`] (nothing allocated).
    pub(crate) fn jacobian_out(&mut self) -> Result<JacobianOut<'_>, DenseRefused> {
        if self.use_sparse {
            Ok(JacobianOut::Sparse(&mut self.jac_sparse))
        } else if !self.dense_allowed() {
            Err(DenseRefused)
        } else {
            self.dense_buffers();
            Ok(JacobianOut::Dense(&mut self.jac))
        }
    }

    /// w = J·v/‖v‖₂ with J as last formed (`norm_v` = ‖v‖₂), for the power iteration.
    pub(crate) fn multiply(&self, groups: &ColumnGroups, v: &[f64], norm_v: f64, w: &mut [f64]) {
        let n = self.n;
        if self.use_sparse {
            // Column by column.
            w.fill(0.0);
            let (col_ptr, rows) = groups.compressed();
            for (j, vj) in v.iter().enumerate() {
                let vj = vj / norm_v;
                for p in col_ptr[j]..col_ptr[j + 1] {
                    w[rows[p]] += self.jac_sparse[p] * vj;
                }
            }
        } else {
            for (i, wi) in w.iter_mut().enumerate() {
                let row = &self.jac[i * n..(i + 1) * n];
                *wi = row.iter().zip(v.iter()).map(|(a, b)| a * b).sum::<f64>() / norm_v;
            }
        }
    }

    /// Factors M = I − hd·J from J as last formed. Returns whether the sparse factorisation
    /// was used; `Err` when M is singular to working precision (dense, partially pivoted).
    pub(crate) fn factor(&mut self, hd: f64, groups: &ColumnGroups) -> Result<bool, Singular> {
        let n = self.n;
        let dense_allowed = self.dense_allowed();
        if self.use_sparse && (self.sparse_failures < SPARSE_MAX_FAILURES || !dense_allowed) {
            self.sparse_lu.assemble_identity_plus(-hd, &self.jac_sparse);
            if self.sparse_lu.factor().is_ok() {
                self.factored_sparse = true;
                return Ok(true);
            }
            self.sparse_failures += 1;
            if !dense_allowed {
                // No dense fallback above the limit: the step is rejected as a Newton failure
                // would be, and the caller's smaller h brings M = I − h·d·J towards I.
                self.factored_sparse = false;
                return Err(Singular { column: n });
            }
        }
        // Dense: from J, or from the sparse J when the unpivoted sparse elimination met a small
        // pivot (partial pivoting then decides).
        self.factored_sparse = false;
        if self.use_sparse {
            self.dense_lu();
        } else {
            self.dense_buffers();
        }
        let m = self.lu.matrix_mut();
        if self.use_sparse {
            m.fill(0.0);
            let (col_ptr, rows) = groups.compressed();
            for j in 0..n {
                for p in col_ptr[j]..col_ptr[j + 1] {
                    m[rows[p] * n + j] = -hd * self.jac_sparse[p];
                }
            }
        } else {
            for (mi, ji) in m.iter_mut().zip(&self.jac) {
                *mi = -hd * ji;
            }
        }
        for i in 0..n {
            m[i * n + i] += 1.0;
        }
        self.lu.factor()?;
        Ok(false)
    }

    /// Solves M·y = b in place with M's current factorisation.
    pub(crate) fn solve(&mut self, b: &mut [f64]) {
        if self.factored_sparse {
            self.sparse_lu.solve(b);
        } else {
            self.lu.solve(b);
        }
    }

    /// The dense J, for tests that set it directly.
    #[cfg(test)]
    pub(crate) fn jac_mut(&mut self) -> &mut [f64] {
        self.dense_buffers();
        &mut self.jac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 200 states in 2 × 2 blocks, J = [[0, c], [c, 0]] per block with c = 1e12: M's diagonal
    /// pivot 1 is below 1e-8 of its row's largest entry hd·c = 1e9 (hd = 1e-3), so every sparse
    /// factorisation falls back to the dense LU. After [`SPARSE_MAX_FAILURES`] fallbacks the
    /// pattern is no longer tried sparse; a new pattern is tried again. The dense LU's solution
    /// of M·x = b satisfies M·x = b to 1e-6 relative to ‖b‖ (M's condition number is about
    /// (1 + hd·c)/(hd·c − 1) ≈ 1, the residual a few ulps of hd·c·|x| ≈ 1e9·1e-9).
    /// The dense buffers (above 512 states: lazily) exist only once needed.
    #[test]
    fn a_pattern_that_keeps_falling_back_is_factored_densely() {
        let n = 600;
        let c = 1e12;
        let mut groups = ColumnGroups::new(n);
        let pattern = groups.pattern_mut();
        for k in 0..n / 2 {
            pattern.depends(2 * k, 2 * k + 1);
            pattern.depends(2 * k + 1, 2 * k);
        }
        assert!(groups.set_pattern());
        let mut m = NewtonMatrix::new(n);
        assert!(!m.has_dense_buffers());
        assert!(m.choose_path(&groups, 128, (0.125, 0.25)));
        assert!(m.is_sparse() && !m.has_dense_buffers());
        let JacobianOut::Sparse(values) = m.jacobian_out().unwrap() else {
            panic!("the sparse path")
        };
        let (col_ptr, rows) = groups.compressed();
        for j in 0..n {
            for p in col_ptr[j]..col_ptr[j + 1] {
                values[p] = if rows[p] == j { 0.0 } else { c };
            }
        }
        let hd = 1e-3;
        for attempt in 0..4 {
            assert_eq!(m.factor(hd * (1.0 + attempt as f64), &groups), Ok(false));
            let tried = (attempt + 1).min(SPARSE_MAX_FAILURES);
            assert_eq!(m.sparse_failures, tried, "attempt {attempt}");
        }
        // The fallback factors from the sparse J: only the LU is allocated, not a dense J.
        assert!(m.has_dense_lu() && !m.has_dense_buffers());
        let hd = 4e-3;
        let b: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
        let mut x = b.clone();
        m.solve(&mut x);
        for k in 0..n / 2 {
            let (i, j) = (2 * k, 2 * k + 1);
            let r = [x[i] - hd * c * x[j] - b[i], x[j] - hd * c * x[i] - b[j]];
            assert!(r.iter().all(|r| r.abs() < 1e-6 * b[n - 1]), "{r:?}");
        }
        // A new run, and a new pattern, try the sparse path again.
        m.factor(hd, &groups).unwrap();
        assert_eq!(m.sparse_failures, SPARSE_MAX_FAILURES);
        m.new_run();
        assert_eq!(m.sparse_failures, 0);
        m.factor(hd, &groups).unwrap();
        m.choose_path(&groups, 128, (0.125, 0.25));
        assert_eq!(m.sparse_failures, 0);
    }
}
