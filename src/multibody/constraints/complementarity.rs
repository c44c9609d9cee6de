//! The strategy that solves the frictional complementarity problem `w = M z + q ≥ 0, z ≥ 0,
//! wᵀz = 0` (scaled to order 1 by the caller), in this order:
//!
//! 1. **Warm start**: the previous solve's complementary index set `α` (the contact mode: which
//!    normal forces, friction directions and slacks were positive), when the problem has the same
//!    variables (same layout key). Over a smooth motion the mode rarely changes, and one solve of
//!    `M_αα z_α = −q_α` with the sign checks ([`PrincipalBasis`]) replaces the pivoting. The mode
//!    is part of the workspace, which the simulation clones with its state, so a trial step or
//!    a restart sees the mode of its own history.
//! 2. **Lemke's method** with the lexicographic minimum-ratio test ([`Lemke`]), covering vector
//!    `e`; it cannot cycle.
//! 3. Lemke's method again with a graded covering vector (a different path to a solution, when
//!    the first ends on a ray on a problem whose matrix is not copositive-plus).
//! 4. **Enumeration** of the complementary index sets, exact on problems of up to
//!    [`ENUMERATION_LIMIT`] variables: each of the `2ⁿ` sets `α` is tried as in the warm start,
//!    so a solution with a non-singular `M_αα` is found whenever one exists (a solution whose
//!    every complementary set is singular would be missed; on the corpus of degenerate contact
//!    problems none is: `tests/lcp_corpus.rs`).
//! 5. **Branch and bound** above the enumeration limit, up to 64 variables
//!    ([`BranchAndBound`], `branch.rs`): a depth-first search over the complementary pairs with
//!    a linear-programming feasibility test per node, exact (it finds a solution whenever one
//!    exists, singular or not) within its node budget. Above 64 a failure of both
//!    pivotings is returned.
//!
//! Every candidate solution passes the same acceptance test (each condition within
//! `tol·max(1, max|M|·‖z‖∞)`). When all fail, the failure of step 2 is returned: a ray is then
//! reported as no solution (Painlevé's paradox for a frictional contact).

use super::branch::BranchAndBound;
use super::lcp_problem::{accepted, Lcp};
use super::lemke::{Covering, Lemke, LemkeFailure};
use super::principal::PrincipalBasis;

/// Problems with at most this many variables fall back to enumerating complementary sets
/// (2¹⁴ = 16 384 sets of at most 14 variables: milliseconds, for the rare problem the pivoting
/// misses).
pub(crate) const ENUMERATION_LIMIT: usize = 14;

/// Which step of the strategy solved a problem.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolveMethod {
    /// Nothing to solve (no variable), or not solved yet.
    #[default]
    None,
    /// The previous mode solved it.
    WarmStart,
    /// Lemke's method with covering vector `e`.
    Lemke,
    /// Lemke's method with the graded covering vector.
    LemkeGraded,
    /// Enumeration of the complementary index sets.
    Enumeration,
    /// The branch-and-bound search over complementary pairs (above the enumeration limit).
    BranchAndBound,
}

/// What one solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The step that found the solution.
    pub(crate) method: SolveMethod,
    /// Lemke pivots made (over both attempts).
    pub(crate) pivots: usize,
    /// Complementary sets tried (warm start and enumeration).
    pub(crate) sets: usize,
    /// Nodes of the branch-and-bound search.
    pub(crate) nodes: usize,
}

/// Buffers and the remembered mode, for problems of up to `capacity` variables.
#[derive(Clone, Debug)]
pub(crate) struct ComplementaritySolver {
    lemke: Lemke,
    basis: PrincipalBasis,
    branch: BranchAndBound,
    /// The complementary set of the current attempt.
    alpha: Vec<bool>,
    /// The last solution's set and the layout key it belongs to (`None`: no mode yet).
    mode: Vec<bool>,
    mode_key: Option<u64>,
    /// Skip the warm start and the pivotings (testing the exact fallbacks).
    fallback_only: bool,
}

impl ComplementaritySolver {
    /// Buffers for problems of up to `capacity` variables.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            lemke: Lemke::new(capacity),
            basis: PrincipalBasis::new(capacity),
            branch: BranchAndBound::new(capacity),
            alpha: vec![false; capacity],
            mode: vec![false; capacity],
            mode_key: None,
            fallback_only: false,
        }
    }

    /// The same solver, skipping the warm start and both pivotings when `skip` (testing the
    /// exact fallbacks).
    pub(crate) fn fallback_only(mut self, skip: bool) -> Self {
        self.fallback_only = skip;
        self
    }

    /// Takes `other`'s remembered mode as this solver's (same capacity; copies, no allocation).
    pub(crate) fn copy_mode(&mut self, other: &ComplementaritySolver) {
        let n = self.mode.len().min(other.mode.len());
        self.mode[..n].copy_from_slice(&other.mode[..n]);
        self.mode_key = other.mode_key.filter(|_| n == other.mode.len());
    }

    /// Forgets the remembered mode (the next solve starts cold).
    pub(crate) fn forget_mode(&mut self) {
        self.mode_key = None;
    }

    /// Solves `lcp` into `z` (module documentation). `key` identifies the layout of the
    /// variables (a warm start needs the same), `tol` is the acceptance tolerance and
    /// `max_pivots` the budget of each Lemke attempt.
    pub(crate) fn solve(
        &mut self,
        lcp: Lcp<'_>,
        key: u64,
        tol: f64,
        max_pivots: usize,
        z: &mut [f64],
    ) -> Result<Outcome, LemkeFailure> {
        let n = lcp.n;
        let m_max = (0..n * lcp.stride)
            .filter(|k| k % lcp.stride < n)
            .fold(0.0f64, |a, k| a.max(lcp.m[k].abs()));
        let mut outcome = Outcome::default();
        if self.mode_key == Some(key) && !self.fallback_only {
            outcome.sets += 1;
            if self.basis.try_set(lcp, &self.mode, m_max, tol, z) {
                outcome.method = SolveMethod::WarmStart;
                return Ok(outcome);
            }
        }
        let mut first_failure = None;
        let pivotings: &[_] = if self.fallback_only {
            &[]
        } else {
            &[
                (Covering::Ones, SolveMethod::Lemke),
                (Covering::Graded, SolveMethod::LemkeGraded),
            ]
        };
        for &(covering, method) in pivotings {
            let alpha = &mut self.alpha;
            match self.lemke.solve(lcp, covering, z, alpha, max_pivots) {
                Ok(pivots) => {
                    outcome.pivots += pivots;
                    if accepted(lcp, z, m_max, tol) {
                        outcome.method = method;
                        self.remember(n, key);
                        return Ok(outcome);
                    }
                }
                Err(failure) => {
                    outcome.pivots += self.lemke.last_pivots();
                    first_failure.get_or_insert(failure);
                }
            }
        }
        if n <= ENUMERATION_LIMIT && self.enumerate(lcp, m_max, tol, z, &mut outcome) {
            outcome.method = SolveMethod::Enumeration;
            self.remember(n, key);
            return Ok(outcome);
        }
        if n > ENUMERATION_LIMIT && self.branch.fits(n) {
            let found =
                self.branch
                    .solve(lcp, m_max, tol, &mut self.basis, &mut self.alpha[..n], z);
            outcome.nodes = self.branch.nodes;
            if found {
                outcome.method = SolveMethod::BranchAndBound;
                self.remember(n, key);
                return Ok(outcome);
            }
        }
        self.mode_key = None;
        match first_failure {
            Some(failure) => Err(failure),
            None => {
                // Both Lemke runs ended with a solution that fails the acceptance test, and no
                // complementary set passes it: hand back the first one, so that the caller's
                // check reports it as inaccurate at its worst row (not as a ray it is not).
                let alpha = &mut self.alpha;
                outcome.pivots += self
                    .lemke
                    .solve(lcp, Covering::Ones, z, alpha, max_pivots)?;
                outcome.method = SolveMethod::Lemke;
                Ok(outcome)
            }
        }
    }

    /// Tries every complementary set (all `2ⁿ`, the empty set first); leaves the solving one in
    /// `alpha`.
    fn enumerate(
        &mut self,
        lcp: Lcp<'_>,
        m_max: f64,
        tol: f64,
        z: &mut [f64],
        outcome: &mut Outcome,
    ) -> bool {
        let n = lcp.n;
        for set in 0u32..(1u32 << n) {
            for (i, a) in self.alpha[..n].iter_mut().enumerate() {
                *a = set & (1 << i) != 0;
            }
            outcome.sets += 1;
            if self.basis.try_set(lcp, &self.alpha, m_max, tol, z) {
                return true;
            }
        }
        false
    }

    /// Keeps `alpha` as the mode for layout `key`.
    fn remember(&mut self, n: usize, key: u64) {
        self.mode[..n].copy_from_slice(&self.alpha[..n]);
        self.mode_key = Some(key);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::lcp;
    use super::*;

    #[test]
    fn the_second_solve_starts_from_the_first_ones_mode() {
        // M = [2 1; 0 2], q = (−4, −2): z = (1.5, 1) (both basic) by Lemke, then warm.
        let (m, q) = ([2.0, 1.0, 0.0, 2.0], [-4.0, -2.0]);
        let mut solver = ComplementaritySolver::new(2);
        let mut z = [0.0; 2];
        let first = solver.solve(lcp(&m, &q), 7, 1e-8, 22, &mut z).unwrap();
        assert_eq!(first.method, SolveMethod::Lemke);
        let second = solver.solve(lcp(&m, &q), 7, 1e-8, 22, &mut z).unwrap();
        assert_eq!(
            (second.method, second.pivots, second.sets),
            (SolveMethod::WarmStart, 0, 1)
        );
        assert!((z[0] - 1.5).abs() < 1e-15 && (z[1] - 1.0).abs() < 1e-15);
        // A mode that no longer solves the problem (q ≥ 0 now: z = 0) is tried and dropped.
        let third = solver
            .solve(lcp(&m, &[1.0, 1.0]), 7, 1e-8, 22, &mut z)
            .unwrap();
        assert_eq!((third.method, third.sets), (SolveMethod::Lemke, 1));
        assert_eq!(z, [0.0, 0.0]);
        // Another layout key: no warm start.
        solver.solve(lcp(&m, &q), 7, 1e-8, 22, &mut z).unwrap();
        let other = solver.solve(lcp(&m, &q), 8, 1e-8, 22, &mut z).unwrap();
        assert_eq!((other.method, other.sets), (SolveMethod::Lemke, 0));
    }

    #[test]
    fn the_enumeration_finds_what_lemke_misses() {
        // M = [−1 2; 2 −1] (not copositive), q = (1, −1). z = (1, 0) solves it (w = (0, 1)).
        // Lemke's method: z₀ enters at row 2, then z₂ enters and nothing limits it (z₀ and w₁
        // both grow with z₂, for d = e and for the graded d): a secondary ray, both times.
        let (m, q) = ([-1.0, 2.0, 2.0, -1.0], [1.0, -1.0]);
        let mut solver = ComplementaritySolver::new(2);
        let mut z = [0.0; 2];
        let outcome = solver.solve(lcp(&m, &q), 1, 1e-8, 22, &mut z).unwrap();
        assert_eq!(outcome.method, SolveMethod::Enumeration);
        assert_eq!(z, [1.0, 0.0]);
    }

    #[test]
    fn a_problem_without_solution_reports_lemkes_failure() {
        // w = −z − 1 < 0 for every z ≥ 0.
        let mut solver = ComplementaritySolver::new(1);
        let mut z = [0.0];
        let failure = solver.solve(lcp(&[-1.0], &[-1.0]), 1, 1e-8, 12, &mut z);
        assert_eq!(failure, Err(LemkeFailure::Ray { variable: 0 }));
    }
}
