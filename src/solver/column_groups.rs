//! Column grouping of a sparse Jacobian (Curtis, Powell & Reid, "On the estimation of sparse
//! Jacobian matrices", J. Inst. Math. Appl. 13 (1974) 117–119).
//!
//! Columns j and k of J = ∂f/∂x may share one difference quotient when no row i depends on both
//! (pattern P[i][j] and P[i][k] never both true): perturbing xⱼ and xₖ together then changes each
//! fᵢ through at most one of them. A greedy colouring assigns each column in turn the smallest
//! group none of its row-neighbours holds; the Jacobian then costs one evaluation of f per group
//! instead of per column (2 groups for a banded chain of any length, n for a dense J). The pattern
//! comes from [`System::jacobian_sparsity`](super::System::jacobian_sparsity) as a list of
//! entries, which [`ColumnGroups::set_pattern`] turns into column lists in O(entries + n); without
//! one every column is its own group.

use super::pattern::SparsityPattern;

/// The grouping of the n columns, in buffers sized once.
#[derive(Clone, Debug)]
pub(crate) struct ColumnGroups {
    n: usize,
    /// P's entries as the system wrote them (fᵢ may depend on xⱼ), any order, repeats allowed.
    pattern: SparsityPattern,
    /// The group of each column.
    group: Vec<usize>,
    /// Number of groups.
    groups: usize,
    /// Per row i, a bit set of the groups (bit g of word g/64) held by the columns coloured so
    /// far that fᵢ depends on: row-major, `words` words per row.
    row_groups: Vec<u64>,
    /// The groups a column's row-neighbours hold (one row of `row_groups`' width).
    taken: Vec<u64>,
    /// Words per bit set: ⌈n/64⌉.
    words: usize,
    /// The pattern column by column (set by [`Self::set_pattern`]; empty while dense): column
    /// j's rows, ascending, are `rows[col_ptr[j]..col_ptr[j + 1]]`.
    col_ptr: Vec<usize>,
    rows: Vec<usize>,
    /// Spare column lists, where [`Self::set_pattern`] lists a new pattern to tell whether it
    /// changed.
    prev_ptr: Vec<usize>,
    prev_rows: Vec<usize>,
    /// Every column is its own group and every fᵢ may read every xⱼ.
    dense: bool,
}

impl ColumnGroups {
    /// Buffers for n columns; every column its own group until [`Self::set_pattern`].
    pub(crate) fn new(n: usize) -> Self {
        // The column lists hold at most n² entries, and n more before the repeated diagonal is
        // dropped (the system's list n², unless it repeats some). Up to SMALL columns that room
        // is taken here, so that a run never allocates when its first pattern is set
        // (tests/engine_alloc.rs); a larger system's buffers grow at its first sparse Jacobians
        // to the size its patterns need instead of n² (3,328 states would reserve 2 × 89 MB),
        // and are reused after.
        // The groups' bit sets (n²/64 words) likewise: taken here up to SMALL, above at the
        // first sparse pattern (a model refused at its first, dense, Jacobian never takes them).
        const SMALL: usize = 512;
        let list_room = if n <= SMALL { n * n + n } else { 0 };
        let pattern = SparsityPattern::with_capacity(n, list_room);
        let bit_room = if n <= SMALL { n * n.div_ceil(64) } else { 0 };
        Self {
            n,
            pattern,
            group: (0..n).collect(),
            groups: n,
            row_groups: vec![0; bit_room],
            taken: vec![0; n.div_ceil(64)],
            words: n.div_ceil(64),
            col_ptr: Vec::with_capacity(n + 1),
            rows: Vec::with_capacity(list_room),
            prev_ptr: Vec::with_capacity(n + 1),
            prev_rows: Vec::with_capacity(list_room),
            dense: true,
        }
    }

    /// The pattern's storage, emptied, to be filled by the system.
    pub(crate) fn pattern_mut(&mut self) -> &mut SparsityPattern {
        self.pattern.clear();
        &mut self.pattern
    }

    /// Keeps at most `limit` entries of the patterns written (see
    /// [`SparsityPattern::set_limit`]).
    pub(crate) fn limit_pattern(&mut self, limit: usize) {
        self.pattern.set_limit(limit);
    }

    /// True when the pattern last written passed its limit ([`Self::limit_pattern`]): it is then
    /// not the pattern, and the Jacobian is dense.
    pub(crate) fn overflowed(&self) -> bool {
        self.pattern.overflowed()
    }

    /// A dense pattern: one group per column.
    pub(crate) fn set_dense(&mut self) {
        self.pattern.clear();
        for (j, g) in self.group.iter_mut().enumerate() {
            *g = j;
        }
        self.groups = self.n;
        self.dense = true;
        self.col_ptr.clear();
        self.rows.clear();
    }

    /// Colours the columns greedily from the pattern written through [`Self::pattern_mut`],
    /// and keeps the pattern column by column ([`Self::column_rows`]). The diagonal is always
    /// taken as present (a perturbation of xⱼ must be seen in fⱼ's row even if the system did
    /// not declare it; it costs nothing in the colouring). Returns whether the pattern differs
    /// from the one set before (always true the first time).
    ///
    /// The column lists: the entries are bucketed by column (a counting sort, O(entries + n)),
    /// each column's rows sorted and their repeats dropped (columns are short: a body's rows
    /// and its neighbours'). Column j then gets the smallest group that no column k < j
    /// sharing a row with it holds. Each row keeps the bit set of the groups its columns hold so
    /// far, so column j unites the sets of its rows: O(nnz·G/64) word operations for G groups.
    pub(crate) fn set_pattern(&mut self) -> bool {
        let (n, words) = (self.n, self.words);
        // The new lists go to the spare buffers first; they replace the current ones only when
        // they differ, and the spare ones then get the capacity of the new (so that a pattern
        // set again allocates nothing).
        self.prev_ptr.clear();
        self.prev_ptr.resize(n + 1, 1); // each column's diagonal
        self.prev_ptr[0] = 0;
        for (_, j) in self.pattern.entries() {
            self.prev_ptr[j + 1] += 1;
        }
        for j in 0..n {
            self.prev_ptr[j + 1] += self.prev_ptr[j];
        }
        self.prev_rows.clear();
        self.prev_rows.resize(self.prev_ptr[n], 0);
        // prev_ptr[j] walks column j's places (the diagonal first); restored below.
        for j in 0..n {
            self.prev_rows[self.prev_ptr[j]] = j;
            self.prev_ptr[j] += 1;
        }
        for (i, j) in self.pattern.entries() {
            self.prev_rows[self.prev_ptr[j]] = i;
            self.prev_ptr[j] += 1;
        }
        for j in (0..n).rev() {
            self.prev_ptr[j + 1] = self.prev_ptr[j];
        }
        self.prev_ptr[0] = 0;
        // Sort each column and drop its repeats, compacting the lists in place.
        let mut end = 0;
        for j in 0..n {
            let (a, b) = (self.prev_ptr[j], self.prev_ptr[j + 1]);
            self.prev_rows[a..b].sort_unstable();
            self.prev_ptr[j] = end;
            for p in a..b {
                let i = self.prev_rows[p];
                if p == a || i != self.prev_rows[p - 1] {
                    self.prev_rows[end] = i;
                    end += 1;
                }
            }
        }
        self.prev_ptr[n] = end;
        self.prev_rows.truncate(end);
        let changed = self.dense || self.col_ptr != self.prev_ptr || self.rows != self.prev_rows;
        self.dense = false;
        if !changed {
            return false;
        }
        std::mem::swap(&mut self.col_ptr, &mut self.prev_ptr);
        std::mem::swap(&mut self.rows, &mut self.prev_rows);
        // `reserve` counts from the length: clear first, so that room for the new lists is
        // asked, not room for both.
        self.prev_ptr.clear();
        self.prev_rows.clear();
        self.prev_ptr.reserve(self.col_ptr.len());
        self.prev_rows.reserve(self.rows.len());
        self.row_groups.clear();
        self.row_groups.resize(n * words, 0);
        self.groups = 0;
        for j in 0..n {
            // Only the words of groups that exist yet can hold a bit.
            let used = self.groups.div_ceil(64).min(words);
            self.taken[..used].fill(0);
            for &i in &self.rows[self.col_ptr[j]..self.col_ptr[j + 1]] {
                let row = &self.row_groups[i * words..i * words + used];
                for (t, r) in self.taken[..used].iter_mut().zip(row) {
                    *t |= r;
                }
            }
            // The first clear bit; every bit of the used words set means group `groups`.
            let g = self.taken[..used]
                .iter()
                .enumerate()
                .find(|(_, w)| **w != u64::MAX)
                .map_or(self.groups, |(w, bits)| {
                    64 * w + bits.trailing_ones() as usize
                })
                .min(n - 1);
            self.group[j] = g;
            self.groups = self.groups.max(g + 1);
            for &i in &self.rows[self.col_ptr[j]..self.col_ptr[j + 1]] {
                self.row_groups[i * words + g / 64] |= 1 << (g % 64);
            }
        }
        true
    }

    /// The rows fᵢ that may read xⱼ, ascending, and where they start in the column-compressed
    /// pattern (entry p of column j is `rows[p - start]`); `None` while the pattern is dense.
    #[inline]
    pub(crate) fn column_rows(&self, j: usize) -> Option<(usize, &[usize])> {
        (!self.dense).then(|| {
            let start = self.col_ptr[j];
            (start, &self.rows[start..self.col_ptr[j + 1]])
        })
    }

    /// The pattern column by column (`col_ptr`, `rows`); empty while dense.
    pub(crate) fn compressed(&self) -> (&[usize], &[usize]) {
        (&self.col_ptr, &self.rows)
    }

    /// Entries of the pattern (n² while dense).
    pub(crate) fn entries(&self) -> usize {
        if self.dense {
            self.n * self.n
        } else {
            self.rows.len()
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
    #[cfg(test)]
    pub(crate) fn depends(&self, i: usize, j: usize) -> bool {
        self.dense || self.column_rows(j).unwrap().1.binary_search(&i).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups_of(n: usize, dep: impl Fn(usize, usize) -> bool) -> ColumnGroups {
        let mut c = ColumnGroups::new(n);
        let pattern = c.pattern_mut();
        for i in 0..n {
            for j in 0..n {
                if dep(i, j) {
                    pattern.depends(i, j);
                }
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

    /// The bit-set colouring gives the groups of the textbook greedy scan (each column the
    /// smallest group no earlier row-neighbour holds), across word boundaries (over 64 groups).
    #[test]
    fn the_bit_sets_colour_as_the_greedy_scan() {
        for (n, density) in [(150, 0.9), (150, 0.05), (130, 0.5)] {
            // A fixed pseudo-random pattern (a linear congruential generator).
            let mut seed = 12345u64;
            let mut dep = vec![false; n * n];
            for d in dep.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *d = ((seed >> 11) as f64) / ((1u64 << 53) as f64) < density;
            }
            let c = groups_of(n, |i, j| i == j || dep[i * n + j]);
            let mut want = vec![0usize; n];
            for j in 0..n {
                let mut taken = vec![false; n];
                for i in (0..n).filter(|&i| i == j || dep[i * n + j]) {
                    for k in (0..j).filter(|&k| i == k || dep[i * n + k]) {
                        taken[want[k]] = true;
                    }
                }
                want[j] = (0..n).find(|&g| !taken[g]).unwrap();
            }
            assert_eq!(c.group, want, "n {n}, density {density}");
            assert_eq!(c.groups(), want.iter().max().unwrap() + 1);
            check_valid(&c, n);
            if density > 0.8 {
                assert!(c.groups() > 64, "{} groups", c.groups());
            }
        }
    }

    #[test]
    fn block_structure_groups_blocks_side_by_side() {
        // Two decoupled dense 3×3 blocks: 3 groups (each pairs a column of one with the other's).
        let c = groups_of(6, |i, j| i / 3 == j / 3);
        assert_eq!(c.groups(), 3);
        check_valid(&c, 6);
    }

    /// The order of the entries and their repeats do not matter: a pattern written backwards
    /// with every entry twice gives the lists and groups of the one written once in order, and
    /// is recognised as the same pattern (no new colouring).
    #[test]
    fn order_and_repeats_of_the_entries_do_not_matter() {
        let n = 40;
        let dep = |i: usize, j: usize| (i * 7 + j * 3) % 5 == 0 || i.abs_diff(j) == 2;
        let once = groups_of(n, dep);
        let mut twice = ColumnGroups::new(n);
        let pattern = twice.pattern_mut();
        for i in (0..n).rev() {
            for j in (0..n).rev().filter(|&j| dep(i, j)) {
                pattern.depends(i, j);
                pattern.depends(i, j);
            }
        }
        assert!(twice.set_pattern());
        assert_eq!(twice.compressed(), once.compressed());
        assert_eq!(twice.group, once.group);
        // The diagonal is present in every column, declared or not.
        assert!((0..n).all(|j| twice.depends(j, j)));
        let pattern = twice.pattern_mut();
        for i in 0..n {
            for j in (0..n).filter(|&j| dep(i, j)) {
                pattern.depends(i, j);
            }
        }
        assert!(!twice.set_pattern(), "the same pattern counted as new");
        check_valid(&twice, n);
    }
}
