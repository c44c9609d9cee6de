//! Independent groups of constraint rows, to solve each group apart.
//!
//! `A_ij = J_i M⁻¹ J_jᵀ` is zero unless rows i and j act on a common body (with `M⁻¹` block
//! diagonal over the bodies). Here a *body* is any unit whose inverse mass matrix is independent
//! of the others: a free rigid body, or a whole jointed mechanism (its links are coupled through
//! `M⁻¹`, so give them one index). Body 0 is the World (the ground): infinitely massive, it
//! couples nothing. Each row couples the two bodies it acts between; the groups are the connected
//! components of the graph whose vertices are the moving bodies and whose edges are the rows,
//! found by union–find (union by size, path halving: O(rows·α(bodies))).
//!
//! A row between the World and the World (e.g. a degenerate contact between two fixed parts) has
//! no body to share and forms a group of its own. Groups are numbered in the order of their first
//! row, and list their rows in increasing order, so the partition is deterministic.

use super::errors::ConstraintError;
use nalgebra::{DMatrix, DMatrixView};

/// The World body index: couples no rows.
pub const WORLD: usize = 0;

/// Sentinel for "no group yet".
const NONE: usize = usize::MAX;

/// A partition of rows into independent groups, with buffers sized once for up to `max_rows`
/// rows and `max_bodies` bodies (World included).
#[derive(Clone, Debug)]
pub struct RowGroups {
    /// Union–find parent of each body.
    parent: Vec<usize>,
    /// Size of each root's set.
    size: Vec<usize>,
    /// Group of each root body (`NONE` if none yet).
    group_of_root: Vec<usize>,
    group_of_row: Vec<usize>,
    /// Rows sorted by group; group g is `rows_sorted[offsets[g]..offsets[g + 1]]`.
    rows_sorted: Vec<usize>,
    offsets: Vec<usize>,
    num_groups: usize,
    num_rows: usize,
}

impl RowGroups {
    /// Buffers for up to `max_rows` rows and `max_bodies` bodies.
    pub fn new(max_rows: usize, max_bodies: usize) -> Self {
        Self {
            parent: vec![0; max_bodies],
            size: vec![0; max_bodies],
            group_of_root: vec![NONE; max_bodies],
            group_of_row: vec![0; max_rows],
            rows_sorted: vec![0; max_rows],
            offsets: vec![0; max_rows + 1],
            num_groups: 0,
            num_rows: 0,
        }
    }

    /// Partitions the rows: `couples[i] = [p, q]` are the bodies row i acts between (indices below
    /// `num_bodies`; [`WORLD`] = 0). Returns the number of groups. Does not allocate.
    pub fn partition(
        &mut self,
        num_bodies: usize,
        couples: &[[usize; 2]],
    ) -> Result<usize, ConstraintError> {
        let rows = couples.len();
        if rows > self.group_of_row.len() {
            return Err(ConstraintError::CapacityExceeded {
                rows,
                capacity: self.group_of_row.len(),
            });
        }
        if num_bodies > self.parent.len() {
            return Err(ConstraintError::Dimension {
                what: "bodies (above the capacity of the row groups)",
                expected: self.parent.len(),
                got: num_bodies,
            });
        }
        for (row, pair) in couples.iter().enumerate() {
            if let Some(&body) = pair.iter().find(|&&body| body >= num_bodies) {
                let bodies = num_bodies;
                return Err(ConstraintError::BodyOutOfRange { row, body, bodies });
            }
        }
        for body in 0..num_bodies {
            self.parent[body] = body;
            self.size[body] = 1;
            self.group_of_root[body] = NONE;
        }
        for &[p, q] in couples {
            if p != WORLD && q != WORLD {
                self.union(p, q);
            }
        }
        self.assign_groups(couples);
        Ok(self.num_groups)
    }

    /// Root of `x`'s set, halving the path on the way.
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Merges the sets of `p` and `q` (the smaller under the larger).
    fn union(&mut self, p: usize, q: usize) {
        let (mut rp, mut rq) = (self.find(p), self.find(q));
        if rp == rq {
            return;
        }
        if self.size[rp] < self.size[rq] {
            std::mem::swap(&mut rp, &mut rq);
        }
        self.parent[rq] = rp;
        self.size[rp] += self.size[rq];
    }

    /// Group numbers in order of first row, then a counting sort of the rows by group.
    fn assign_groups(&mut self, couples: &[[usize; 2]]) {
        self.num_rows = couples.len();
        self.num_groups = 0;
        for (row, &[p, q]) in couples.iter().enumerate() {
            let body = if p != WORLD { p } else { q };
            let group = if body == WORLD {
                self.num_groups += 1;
                self.num_groups - 1
            } else {
                let root = self.find(body);
                if self.group_of_root[root] == NONE {
                    self.group_of_root[root] = self.num_groups;
                    self.num_groups += 1;
                }
                self.group_of_root[root]
            };
            self.group_of_row[row] = group;
        }
        let g = self.num_groups;
        self.offsets[..=g].fill(0);
        for row in 0..self.num_rows {
            self.offsets[self.group_of_row[row] + 1] += 1;
        }
        for k in 0..g {
            self.offsets[k + 1] += self.offsets[k];
        }
        // Fill using offsets[group] as a cursor, then shift the cursors back.
        for row in 0..self.num_rows {
            let group = self.group_of_row[row];
            self.rows_sorted[self.offsets[group]] = row;
            self.offsets[group] += 1;
        }
        for k in (1..=g).rev() {
            self.offsets[k] = self.offsets[k - 1];
        }
        self.offsets[0] = 0;
    }

    /// Number of groups of the last partition.
    pub fn num_groups(&self) -> usize {
        self.num_groups
    }

    /// The group of `row`.
    pub fn group_of_row(&self, row: usize) -> usize {
        self.group_of_row[row]
    }

    /// The rows of `group`, in increasing order.
    pub fn rows(&self, group: usize) -> &[usize] {
        &self.rows_sorted[self.offsets[group]..self.offsets[group + 1]]
    }

    /// Copies the group's sub-problem into the top-left of `a_out` (at least k × k for the k rows
    /// of the group) and the first k entries of `b_out`; returns k. Solve with
    /// `a_out.view((0, 0), (k, k))`.
    pub fn gather(
        &self,
        group: usize,
        a: DMatrixView<'_, f64>,
        b: &[f64],
        a_out: &mut DMatrix<f64>,
        b_out: &mut [f64],
    ) -> usize {
        let rows = self.rows(group);
        for (i, &ri) in rows.iter().enumerate() {
            for (j, &rj) in rows.iter().enumerate() {
                a_out[(i, j)] = a[(ri, rj)];
            }
        }
        self.gather_rows(group, b, b_out)
    }

    /// Copies the group's entries of a per-row array (`b`, row kinds, ...) into `out[..k]`;
    /// returns k.
    pub fn gather_rows<T: Copy>(&self, group: usize, values: &[T], out: &mut [T]) -> usize {
        let rows = self.rows(group);
        for (k, &r) in rows.iter().enumerate() {
            out[k] = values[r];
        }
        rows.len()
    }

    /// Writes a group's solution `values[..k]` back to the group's rows of `out`.
    pub fn scatter<T: Copy>(&self, group: usize, values: &[T], out: &mut [T]) {
        for (k, &r) in self.rows(group).iter().enumerate() {
            out[r] = values[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multibody::constraints::{solve_lcp, LcpWorkspace, RowKind};

    #[test]
    fn partitions_rows_by_shared_bodies() {
        // Bodies 1–2 touch each other and the ground, 3 is alone on the ground, 4–5 touch only
        // each other, body 6 touches nothing; row 5 joins two World parts.
        let couples = [[0, 1], [1, 2], [0, 3], [4, 5], [2, 0], [0, 0], [3, 0]];
        let mut groups = RowGroups::new(10, 8);
        assert_eq!(groups.partition(7, &couples).unwrap(), 4);
        assert_eq!(groups.rows(0), &[0, 1, 4]);
        assert_eq!(groups.rows(1), &[2, 6]);
        assert_eq!(groups.rows(2), &[3]);
        assert_eq!(groups.rows(3), &[5]);
        assert_eq!(groups.group_of_row(4), 0);
    }

    #[test]
    fn chain_merges_late() {
        // Rows 0 and 1 start separate groups (bodies 1 and 3); row 2 links 2–3 and row 3 links
        // 1–2, so everything is one group in the end.
        let couples = [[0, 1], [0, 3], [2, 3], [1, 2]];
        let mut groups = RowGroups::new(4, 4);
        assert_eq!(groups.partition(4, &couples).unwrap(), 1);
        assert_eq!(groups.rows(0), &[0, 1, 2, 3]);
    }

    #[test]
    fn bad_body_index_names_the_row() {
        let mut groups = RowGroups::new(4, 4);
        let err = groups.partition(3, &[[0, 1], [1, 3]]).unwrap_err();
        assert_eq!(
            err,
            ConstraintError::BodyOutOfRange {
                row: 1,
                body: 3,
                bodies: 3
            }
        );
    }

    #[test]
    fn solving_groups_apart_equals_solving_together() {
        // Two independent unit masses each on the ground, interleaved rows 0 and 2 (body 1) and
        // row 1 (body 2): A block-diagonal after permutation.
        let a = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 2.0]);
        let b = [-1.0, -2.0, 0.5];
        let kinds = [RowKind::Unilateral; 3];
        let mut ws = LcpWorkspace::new(3);
        let mut together = [0.0; 3];
        solve_lcp(a.as_view(), &b, &kinds, &mut ws, &mut together).unwrap();
        let mut groups = RowGroups::new(3, 3);
        groups.partition(3, &[[0, 1], [2, 0], [1, 0]]).unwrap();
        let (mut a_g, mut b_g, mut kinds_g) =
            (DMatrix::zeros(3, 3), [0.0; 3], [RowKind::Unilateral; 3]);
        let (mut f_g, mut apart) = ([0.0; 3], [0.0; 3]);
        for g in 0..groups.num_groups() {
            let k = groups.gather(g, a.as_view(), &b, &mut a_g, &mut b_g);
            groups.gather_rows(g, &kinds, &mut kinds_g);
            solve_lcp(
                a_g.view((0, 0), (k, k)),
                &b_g[..k],
                &kinds_g[..k],
                &mut ws,
                &mut f_g[..k],
            )
            .unwrap();
            groups.scatter(g, &f_g[..k], &mut apart);
        }
        for i in 0..3 {
            assert!((together[i] - apart[i]).abs() < 1e-14);
        }
    }
}
