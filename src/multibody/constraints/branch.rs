//! The exact fallback above the enumeration limit: a branch-and-bound search over the
//! complementary pairs of `w = M z + q ≥ 0, z ≥ 0, wᵀz = 0` with a linear-programming
//! feasibility test at each node (the enumerative method of Júdice & Faustino, *An experimental
//! investigation of enumerative methods for the linear complementarity problem*, Comput. Oper.
//! Res. 15, 1988).
//!
//! # The search
//!
//! A node fixes some pairs: `zᵢ = 0` (`Fix::Z`) or `wᵢ = 0` (`Fix::W`); the others are free. Its
//! relaxation is the polyhedron `P = {z ≥ 0 : M z + q ≥ 0, z_i = 0 (i ∈ Z), (M z + q)_i = 0
//! (i ∈ W)}`, tested by phase one of the simplex method (every row `Σⱼ Mᵢⱼ zⱼ − wᵢ = −qᵢ` with its
//! own artificial variable; minimise their sum; Bland's smallest-index rule). Then:
//!
//! - `P` empty (the artificial sum stays above `FEASIBLE·(1 + Σ|qᵢ|)`): no solution below this
//!   node; backtrack.
//! - `P`'s basic point complementary within the acceptance tolerance, or its support `α =
//!   {i : zᵢ > wᵢ}` solving `M_αα z_α = −q_α` with the sign checks: a solution; stop.
//! - otherwise branch on the free pair with the largest `min(zᵢ, wᵢ)` (the most violated),
//!   first on the side the point leans to (`zᵢ ≥ wᵢ`: `wᵢ = 0` first), depth first.
//!
//! # Why it is exact and terminates
//!
//! Every solution `z*` lies in `P` of every node whose fixings it satisfies (`z*ᵢ = 0` on `Z`,
//! `w*ᵢ = 0` on `W`), so such a node is never pruned (up to the tolerance `FEASIBLE`, looser than
//! the acceptance test's), and both children of a branched node are searched, one of which `z*`
//! satisfies: the search reaches a node where `z*` or another solution is found, at the latest a
//! leaf with every pair fixed, where any point of `P` is complementary. Unlike the enumeration of
//! principal bases it does not need a non-singular `M_αα`. The tree has depth `n` and at most
//! `2ⁿ⁺¹ − 1` nodes, and Bland's rule makes each phase one finite, so the search ends; for a
//! bounded cost per solve it stops after `NODE_BUDGET` nodes (reported as not found; the corpus's
//! worst problem needs far fewer, `BENCHMARKS.md`). A phase one that exceeds its pivot cap is not
//! trusted to prune: the node is treated as feasible and branched, which keeps the search exact.
//!
//! Buffers are sized once for `min(capacity, BRANCH_LIMIT)` variables: a solve does not allocate.

use super::lcp_problem::{accepted, Lcp};
use super::principal::PrincipalBasis;

/// Problems with more variables than this are not searched (the tableau is
/// `(n + 1) × (3n + 1)`; above 64 variables the fallback would cost more than it is worth).
pub(crate) const BRANCH_LIMIT: usize = 64;

/// Nodes searched at most per solve. The corpus's worst problem needs 1,488 (`BENCHMARKS.md`);
/// a node costs about 0.5 ms at 48 variables, so this bounds a solve that finds nothing at about
/// a second, not minutes (a problem with no solution of 40–60 variables would otherwise search
/// the whole budget at every trial step).
const NODE_BUDGET: usize = 2_000;

/// Phase one's optimum below `FEASIBLE·(1 + Σ|qᵢ|)` counts as feasible (loose on purpose:
/// pruning a feasible node would lose a solution; keeping an empty one only costs nodes).
const FEASIBLE: f64 = 1e-7;

/// A reduced cost below `−PRICE` may enter the basis.
const PRICE: f64 = 1e-11;

/// Two ratios closer than `RATIO_TIE·(1 + ratio)` are a tie in the ratio test.
const RATIO_TIE: f64 = 1e-13;

/// A tableau entry above `PIVOT` may be a pivot.
const PIVOT: f64 = 1e-11;

/// What a node fixes of pair `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fix {
    Free,
    /// `zᵢ = 0`.
    Z,
    /// `wᵢ = 0`.
    W,
}

/// Buffers of the search, for problems of up to `capacity` variables.
#[derive(Clone, Debug)]
pub(crate) struct BranchAndBound {
    capacity: usize,
    fix: Vec<Fix>,
    /// The path from the root: each branched pair and whether its second child is taken.
    stack: Vec<(usize, bool)>,
    /// Phase one's tableau: `n + 1` rows (the last one the reduced costs) of `3n + 1` columns
    /// (`z`, `w`, artificials, right-hand side), stride `3·capacity + 1`.
    tableau: Vec<f64>,
    /// The basic column of each row.
    basic: Vec<usize>,
    /// The node's point.
    point: Vec<f64>,
    /// Nodes searched by the last solve.
    pub(crate) nodes: usize,
}

impl BranchAndBound {
    /// Buffers for problems of up to `min(capacity, BRANCH_LIMIT)` variables.
    pub(crate) fn new(capacity: usize) -> Self {
        let c = capacity.min(BRANCH_LIMIT);
        Self {
            capacity: c,
            fix: vec![Fix::Free; c],
            stack: Vec::with_capacity(c),
            tableau: vec![0.0; (c + 1) * (3 * c + 1)],
            basic: vec![0; c],
            point: vec![0.0; c],
            nodes: 0,
        }
    }

    /// Whether problems of `n` variables fit these buffers.
    pub(crate) fn fits(&self, n: usize) -> bool {
        n <= self.capacity
    }

    /// Searches `lcp` (module documentation); on success writes the solution into `z`, its
    /// complementary set (`zᵢ` basic) into `alpha` and returns true. `m_max = max|Mᵢⱼ|` and
    /// `tol` are the acceptance test's; `basis` polishes a found support.
    pub(crate) fn solve(
        &mut self,
        lcp: Lcp<'_>,
        m_max: f64,
        tol: f64,
        basis: &mut PrincipalBasis,
        alpha: &mut [bool],
        z: &mut [f64],
    ) -> bool {
        let n = lcp.n;
        debug_assert!(n <= self.capacity);
        self.fix[..n].fill(Fix::Free);
        self.stack.clear();
        self.nodes = 0;
        while self.nodes < NODE_BUDGET {
            self.nodes += 1;
            if self.relaxation_feasible(lcp) {
                if self.complementary_point(lcp, m_max, tol, basis, alpha, z) {
                    return true;
                }
                if let Some(i) = self.branching_pair(lcp) {
                    let (zi, wi) = (self.point[i], residual(lcp, &self.point, i));
                    self.fix[i] = if zi >= wi { Fix::W } else { Fix::Z };
                    self.stack.push((i, false));
                    continue;
                }
            }
            if !self.backtrack() {
                return false;
            }
        }
        false
    }

    /// Leaves the deepest node with an untried second child on the path and takes that child;
    /// false when the whole tree has been searched.
    fn backtrack(&mut self) -> bool {
        while let Some((i, second)) = self.stack.pop() {
            if !second {
                self.fix[i] = if self.fix[i] == Fix::W {
                    Fix::Z
                } else {
                    Fix::W
                };
                self.stack.push((i, true));
                return true;
            }
            self.fix[i] = Fix::Free;
        }
        false
    }

    /// Whether the node's point (or the principal basis of its support) solves the problem;
    /// writes `z` and `alpha` when it does.
    fn complementary_point(
        &self,
        lcp: Lcp<'_>,
        m_max: f64,
        tol: f64,
        basis: &mut PrincipalBasis,
        alpha: &mut [bool],
        z: &mut [f64],
    ) -> bool {
        let n = lcp.n;
        for (i, a) in alpha[..n].iter_mut().enumerate() {
            *a = match self.fix[i] {
                Fix::W => true,
                Fix::Z => false,
                Fix::Free => self.point[i] > residual(lcp, &self.point, i),
            };
        }
        if basis.try_set(lcp, alpha, m_max, tol, z) {
            return true;
        }
        z[..n].copy_from_slice(&self.point[..n]);
        accepted(lcp, z, m_max, tol)
    }

    /// The free pair with the largest `min(zᵢ, wᵢ)` at the node's point, or the first free pair
    /// when all are complementary (the point failed the acceptance test on rounding); `None` at
    /// a leaf.
    fn branching_pair(&self, lcp: Lcp<'_>) -> Option<usize> {
        let free = || (0..lcp.n).filter(|&i| self.fix[i] == Fix::Free);
        let violation = |i: usize| self.point[i].min(residual(lcp, &self.point, i));
        free()
            .max_by(|&a, &b| violation(a).total_cmp(&violation(b)))
            .filter(|&i| violation(i) > 0.0)
            .or_else(|| free().next())
    }

    /// Phase one of the simplex method on the node's polyhedron (module documentation), then,
    /// when it is feasible, phase two minimising `Σ zᵢ` over it (a vertex with small `z`, which
    /// is often complementary and never carries a slack `λ` of arbitrary size that would loosen
    /// the acceptance test's `‖z‖∞` scale); leaves its basic point in `point` and returns whether
    /// it is feasible.
    fn relaxation_feasible(&mut self, lcp: Lcp<'_>) -> bool {
        let q_sum = self.build_tableau(lcp);
        let n = lcp.n;
        let (stride, rhs) = (3 * self.capacity + 1, 3 * n);
        let capped = self.simplex(n, false);
        let infeasibility = -self.tableau[n * stride + rhs];
        let feasible = capped || infeasibility <= FEASIBLE * (1.0 + q_sum);
        if feasible && !capped {
            // The artificials still basic are zero within `FEASIBLE`: set them to zero, so that
            // phase two's pivots on their rows (any sign of entry, `simplex`) are degenerate and
            // move no other variable.
            for r in 0..n {
                if self.basic[r] >= 2 * n {
                    self.tableau[r * stride + rhs] = 0.0;
                }
            }
            self.phase_two_costs(n);
            self.simplex(n, true);
        }
        self.point[..n].fill(0.0);
        for r in 0..n {
            if self.basic[r] < n {
                self.point[self.basic[r]] = self.tableau[r * stride + rhs].max(0.0);
            }
        }
        feasible
    }

    /// Simplex pivots with Bland's rule on the current cost row until it is optimal; returns
    /// true when it stopped otherwise (pivot cap, or no pivot row). In phase two a row whose
    /// basic variable is an artificial (at zero after a feasible phase one) blocks any entering
    /// column with a non-zero entry there, so artificials stay at zero.
    fn simplex(&mut self, n: usize, phase_two: bool) -> bool {
        let (stride, rhs) = (3 * self.capacity + 1, 3 * n);
        for _ in 0..50 * (n + 1) {
            let Some(enter) =
                (0..3 * n).find(|&j| self.may_enter(j, n) && self.cost(j, n) < -PRICE)
            else {
                return false;
            };
            let mut leave: Option<(usize, f64)> = None;
            for r in 0..n {
                let t = self.tableau[r * stride + enter];
                let artificial = phase_two && self.basic[r] >= 2 * n;
                let ratio = if artificial && t.abs() > PIVOT {
                    0.0
                } else if t > PIVOT {
                    self.tableau[r * stride + rhs].max(0.0) / t
                } else {
                    continue;
                };
                let better = match leave {
                    None => true,
                    // Ties within rounding go to the smallest index (Bland's rule: a right-hand
                    // side that should be 0 is often 1e-17, and an exact comparison would then
                    // order degenerate rows by size and lose the anti-cycling guarantee).
                    Some((l, best)) => {
                        let tie = (ratio - best).abs() <= RATIO_TIE * (1.0 + best);
                        (ratio < best && !tie) || (tie && self.basic[r] < self.basic[l])
                    }
                };
                if better {
                    leave = Some((r, ratio));
                }
            }
            // Both phases are bounded below (by 0): an entering column has a pivot row.
            let Some((row, _)) = leave else {
                return true;
            };
            self.pivot(row, enter, n);
        }
        true
    }

    /// Replaces the cost row by phase two's reduced costs of `min Σ zᵢ`:
    /// `c_j − Σ_r c_{basic(r)} T_rj` with `c = 1` on the `z` columns and 0 elsewhere.
    fn phase_two_costs(&mut self, n: usize) {
        let (stride, rhs) = (3 * self.capacity + 1, 3 * n);
        for j in 0..=rhs {
            self.tableau[n * stride + j] = if j < n { 1.0 } else { 0.0 };
        }
        for r in 0..n {
            if self.basic[r] < n {
                for j in 0..=rhs {
                    let v = self.tableau[r * stride + j];
                    self.tableau[n * stride + j] -= v;
                }
            }
        }
    }

    /// Whether column `j` may enter: not basic, not a fixed `zᵢ = 0` or `wᵢ = 0`, not an
    /// artificial (they only leave).
    fn may_enter(&self, j: usize, n: usize) -> bool {
        let allowed = match j {
            j if j < n => self.fix[j] != Fix::Z,
            j if j < 2 * n => self.fix[j - n] != Fix::W,
            _ => false,
        };
        allowed && !self.basic[..n].contains(&j)
    }

    /// The reduced cost of column `j` (the row after the `n` constraint rows).
    fn cost(&self, j: usize, n: usize) -> f64 {
        self.tableau[n * (3 * self.capacity + 1) + j]
    }

    /// Writes the node's tableau: row `i` is `Σⱼ Mᵢⱼ zⱼ − wᵢ + aᵢ = −qᵢ`, times −1 when `qᵢ > 0`
    /// so that every right-hand side `|qᵢ|` is non-negative, with the artificial `aᵢ` basic;
    /// the last row holds the reduced costs of `min Σ aᵢ` and minus its value. Returns `Σ|qᵢ|`.
    fn build_tableau(&mut self, lcp: Lcp<'_>) -> f64 {
        let n = lcp.n;
        let stride = 3 * self.capacity + 1;
        let rhs = 3 * n;
        self.tableau[..(n + 1) * stride].fill(0.0);
        let mut q_sum = 0.0;
        for i in 0..n {
            let sign = if lcp.q[i] > 0.0 { -1.0 } else { 1.0 };
            let row = &mut self.tableau[i * stride..(i + 1) * stride];
            for (x, &mij) in row[..n].iter_mut().zip(&lcp.m[i * lcp.stride..]) {
                *x = sign * mij;
            }
            row[n + i] = -sign;
            row[2 * n + i] = 1.0;
            row[rhs] = lcp.q[i].abs();
            q_sum += lcp.q[i].abs();
            self.basic[i] = 2 * n + i;
        }
        for i in 0..n {
            for j in (0..2 * n).chain(std::iter::once(rhs)) {
                let v = self.tableau[i * stride + j];
                self.tableau[n * stride + j] -= v;
            }
        }
        q_sum
    }

    /// Pivots the tableau on (`row`, `col`): `col` becomes basic in `row`.
    fn pivot(&mut self, row: usize, col: usize, n: usize) {
        let stride = 3 * self.capacity + 1;
        let p = self.tableau[row * stride + col];
        let used = 3 * n + 1;
        for x in &mut self.tableau[row * stride..row * stride + used] {
            *x /= p;
        }
        for r in (0..=n).filter(|&r| r != row) {
            let factor = self.tableau[r * stride + col];
            if factor != 0.0 {
                for k in 0..used {
                    let v = self.tableau[row * stride + k];
                    self.tableau[r * stride + k] -= factor * v;
                }
            }
        }
        self.basic[row] = col;
    }
}

/// `wᵢ = (M z + q)ᵢ`.
fn residual(lcp: Lcp<'_>, z: &[f64], i: usize) -> f64 {
    lcp.q[i]
        + (0..lcp.n)
            .map(|j| lcp.m[i * lcp.stride + j] * z[j])
            .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::super::testutil::lcp;
    use super::*;

    #[test]
    fn finds_the_solution_lemke_misses_and_proves_none_when_there_is_none() {
        // M = [−1 2; 2 −1], q = (1, −1) (complementarity.rs's example where both pivotings end
        // on a ray): z = (1, 0), w = (0, 1) is its solution, exact to rounding.
        let (m, q) = ([-1.0, 2.0, 2.0, -1.0], [1.0, -1.0]);
        let mut search = BranchAndBound::new(2);
        let mut basis = PrincipalBasis::new(2);
        let (mut alpha, mut z) = ([false; 2], [0.0; 2]);
        assert!(search.solve(lcp(&m, &q), 2.0, 1e-8, &mut basis, &mut alpha, &mut z));
        assert_eq!((z, alpha), ([1.0, 0.0], [true, false]));
        // w = −z − 1 < 0 for every z ≥ 0: the root's relaxation is empty, one node.
        let mut search = BranchAndBound::new(1);
        let mut basis = PrincipalBasis::new(1);
        let (mut alpha, mut z) = ([false], [0.0]);
        assert!(!search.solve(
            lcp(&[-1.0], &[-1.0]),
            1.0,
            1e-8,
            &mut basis,
            &mut alpha,
            &mut z
        ));
        assert_eq!(search.nodes, 1);
    }

    #[test]
    fn branches_when_the_relaxation_is_not_complementary() {
        // M = [0 1; 1 0], q = (−1, −1): w₁ = z₂ − 1, w₂ = z₁ − 1. The relaxation's points need
        // z₁, z₂ ≥ 1, and its least point z = (1, 1), w = (0, 0) is complementary. With
        // q = (−1, 1) the relaxation is not empty (z₂ ≥ 1) but there is no solution: w₂ = z₁ + 1
        // > 0 forces z₂ = 0 and then w₁ = −1; the search must branch to prove it.
        let m = [0.0, 1.0, 1.0, 0.0];
        let mut search = BranchAndBound::new(2);
        let mut basis = PrincipalBasis::new(2);
        let (mut alpha, mut z) = ([false; 2], [0.0; 2]);
        assert!(search.solve(
            lcp(&m, &[-1.0, -1.0]),
            1.0,
            1e-8,
            &mut basis,
            &mut alpha,
            &mut z
        ));
        assert_eq!(z, [1.0, 1.0]);
        assert!(!search.solve(
            lcp(&m, &[-1.0, 1.0]),
            1.0,
            1e-8,
            &mut basis,
            &mut alpha,
            &mut z
        ));
        assert!(search.nodes > 1, "{}", search.nodes);
    }
}
