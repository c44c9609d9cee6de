//! Column grouping of a sparse Jacobian (Curtis, Powell & Reid, "On the estimation of sparse
//! Jacobian matrices", J. Inst. Math. Appl. 13 (1974) 117–119).
//!
//! Columns j and k of J = ∂f/∂x may share one difference quotient when no row i depends on both
//! (pattern P[i][j] and P[i][k] never both true): perturbing xⱼ and xₖ together then changes each
//! fᵢ through at most one of them. A greedy colouring assigns each column in turn the smallest
//! group none of its row-neighbours holds; the Jacobian then costs one evaluation of f per group
//! instead of per column (2 groups for a banded chain of any length, n for a dense J). The pattern
//! comes from [`System::jacobian_sparsity`](super::System::jacobian_sparsity); without one every
//! column is its own group.

/// The grouping of the n columns, in buffers sized once.
#[derive(Clone, Debug)]
pub(crate) struct ColumnGroups {
    n: usize,
    /// P row-major: `pattern[i·n + j]` is true when fᵢ may depend on xⱼ.
    pattern: Vec<bool>,
    /// The group of each column.
    group: Vec<usize>,
    /// Number of groups.
    groups: usize,
    /// Per group: the column being coloured that found it taken (a stamp, so it is never cleared).
    taken: Vec<usize>,
}

impl ColumnGroups {
    /// Buffers for n columns; every column its own group until [`Self::set_pattern`].
    pub(crate) fn new(n: usize) -> Self {
        Self {
            n,
            pattern: vec![true; n * n],
            group: (0..n).collect(),
            groups: n,
            taken: vec![usize::MAX; n],
        }
    }

    /// The pattern's storage, to be filled by the system (row-major, n×n).
    pub(crate) fn pattern_mut(&mut self) -> &mut [bool] {
        &mut self.pattern
    }

    /// A dense pattern: one group per column.
    pub(crate) fn set_dense(&mut self) {
        self.pattern.fill(true);
        for (j, g) in self.group.iter_mut().enumerate() {
            *g = j;
        }
        self.groups = self.n;
    }

    /// Colours the columns greedily from the pattern written through [`Self::pattern_mut`].
    /// The diagonal is always taken as present (a perturbation of xⱼ must be seen in fⱼ's row
    /// even if the system did not declare it; it costs nothing in the colouring).
    pub(crate) fn set_pattern(&mut self) {
        let n = self.n;
        for i in 0..n {
            self.pattern[i * n + i] = true;
        }
        self.taken.fill(usize::MAX);
        self.groups = 0;
        for j in 0..n {
            for i in 0..n {
                if !self.pattern[i * n + j] {
                    continue;
                }
                let row = &self.pattern[i * n..i * n + j];
                for (k, &p) in row.iter().enumerate() {
                    if p {
                        self.taken[self.group[k]] = j;
                    }
                }
            }
            let g = (0..n).find(|&g| self.taken[g] != j).unwrap_or(n - 1);
            self.group[j] = g;
            self.groups = self.groups.max(g + 1);
        }
    }

    /// Number of groups (evaluations of f per Jacobian).
    pub(crate) fn groups(&self) -> usize {
        self.groups
    }

    /// True when column j belongs to group g.
    #[inline]
    pub(crate) fn in_group(&self, j: usize, g: usize) -> bool {
        self.group[j] == g
    }

    /// True when fᵢ may depend on xⱼ.
    #[inline]
    pub(crate) fn depends(&self, i: usize, j: usize) -> bool {
        self.pattern[i * self.n + j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups_of(n: usize, dep: impl Fn(usize, usize) -> bool) -> ColumnGroups {
        let mut c = ColumnGroups::new(n);
        for i in 0..n {
            for j in 0..n {
                c.pattern_mut()[i * n + j] = dep(i, j);
            }
        }
        c.set_pattern();
        c
    }

    /// No two columns of a group share a row.
    fn check_valid(c: &ColumnGroups, n: usize) {
        for g in 0..c.groups() {
            for i in 0..n {
                let count = (0..n)
                    .filter(|&j| c.in_group(j, g) && c.depends(i, j))
                    .count();
                assert!(count <= 1, "group {g} has {count} columns in row {i}");
            }
        }
    }

    #[test]
    fn banded_patterns_need_band_width_groups() {
        // Lower bidiagonal (a chain of lags): 2 groups; tridiagonal: 3; whatever n.
        let c = groups_of(50, |i, j| j == i || j + 1 == i);
        assert_eq!(c.groups(), 2);
        check_valid(&c, 50);
        let c = groups_of(50, |i, j| i.abs_diff(j) <= 1);
        assert_eq!(c.groups(), 3);
        check_valid(&c, 50);
    }

    #[test]
    fn dense_and_diagonal_extremes() {
        let c = groups_of(7, |_, _| true);
        assert_eq!(c.groups(), 7);
        check_valid(&c, 7);
        // Nothing declared: the diagonal alone, one group.
        let c = groups_of(7, |_, _| false);
        assert_eq!(c.groups(), 1);
        check_valid(&c, 7);
        let mut c = groups_of(7, |_, _| false);
        c.set_dense();
        assert_eq!(c.groups(), 7);
    }

    #[test]
    fn block_structure_groups_blocks_side_by_side() {
        // Two decoupled dense 3×3 blocks: 3 groups (each pairs a column of one with the other's).
        let c = groups_of(6, |i, j| i / 3 == j / 3);
        assert_eq!(c.groups(), 3);
        check_valid(&c, 6);
    }
}
