//! Sparse LU factorisation of the Newton matrix M = I − h·d·J when J's pattern is sparse: a
//! symbolic analysis once per pattern (fill-reducing order, filled pattern, where each entry of
//! J goes), then a numeric factorisation per h and a solve per Newton iteration, neither of which
//! allocates.
//!
//! **Order** (`sparse_order`). The pattern is symmetrised (the graph of M + Mᵀ) and states with
//! the same closed neighbourhood are merged into supernodes (a body's states, whose rows and
//! columns read the same bodies, are one); the supernodes are eliminated in minimum-degree order
//! (George & Liu, "The evolution of the minimum degree ordering algorithm", SIAM Review 31
//! (1989) 1–19: each step eliminates the supernode with the fewest states adjacent, ties to the
//! lowest index, and joins its neighbours into a clique). A supernode's states take consecutive
//! places in the new order, so the filled pattern of every row of one supernode is the same
//! union of ranges. Every buffer of the analysis is kept and only grows: a pattern analysed again
//! (a contact group's watched pairs changed) allocates only when it is larger than any before.
//!
//! **Numeric factorisation.** P·M·Pᵀ = L·U, row by row (Doolittle, the "IKJ" order of Gaussian
//! elimination): for row r and each k < r of its filled pattern in increasing order,
//! l_rk = a_rk / u_kk and a_rj −= l_rk·u_kj for the columns j > k of U's row k, every one of
//! which is in row r's filled pattern by construction. The pivots stay on the diagonal (the
//! order is chosen for fill, not for stability). That is safe for M = I − h·d·J while h·d·J is
//! moderate and for the diagonally dominant matrices of stiff, damped mechanisms; a pivot below
//! [`PIVOT_TOLERANCE`] times the largest entry of its row before elimination is reported as
//! [`Singular`], and the caller then factors M densely with partial pivoting
//! (`trbdf2`). Cost: Σ over pivots of |U row|·|L column| multiply-adds, O(bodies) for a pile
//! whose contact graph has bounded degree and separators small against the pile.

use super::dense_lu::Singular;
use super::sparse_order::Ordering;

/// A diagonal pivot smaller than this times the largest magnitude in its row of M (before
/// elimination) is treated as singular (the caller factors densely with pivoting instead). At
/// 1e-8 the growth an unpivoted elimination may have left is still far below the 1e-16 · 1e8 =
/// 1e-8 relative accuracy that Newton's corrections need.
pub(crate) const PIVOT_TOLERANCE: f64 = 1e-8;

/// The sparse LU of an n×n matrix with a fixed pattern.
#[derive(Clone, Debug, Default)]
pub(crate) struct SparseLu {
    n: usize,
    /// perm[k]: the state in place k of the elimination order; inv[perm[k]] = k.
    perm: Vec<usize>,
    inv: Vec<usize>,
    /// The filled pattern of P·M·Pᵀ, row by row: row r's columns are
    /// `cols[row_ptr[r]..row_ptr[r + 1]]`, ascending; `diag[r]` is where column r is.
    row_ptr: Vec<usize>,
    cols: Vec<usize>,
    diag: Vec<usize>,
    /// L below the diagonal (unit diagonal implied), U on and above it, in `cols`' places.
    vals: Vec<f64>,
    /// 1/u_kk per pivot.
    inv_diag: Vec<f64>,
    /// Where entry p of the analysed column-compressed pattern goes in `vals`.
    map: Vec<usize>,
    /// Scatter map of the row being eliminated: column → place in `vals`.
    pos: Vec<usize>,
    /// The permuted right-hand side of a solve.
    y: Vec<f64>,
    /// The order and its work buffers.
    ordering: Ordering,
    /// Per supernode: its first place; the earlier supernodes it is a later neighbour of
    /// (`earlier[earlier_ptr[s]..earlier_ptr[s + 1]]`); the supernodes a row's filled pattern
    /// spans.
    start: Vec<usize>,
    earlier_ptr: Vec<usize>,
    earlier: Vec<usize>,
    blocks: Vec<usize>,
}

impl SparseLu {
    /// Entries of the filled pattern (L and U together, the diagonal once).
    pub(crate) fn filled_entries(&self) -> usize {
        self.cols.len()
    }

    /// The symbolic analysis of the n×n pattern given column by column: column j's rows are
    /// `rows[col_ptr[j]..col_ptr[j + 1]]` (each column holds its diagonal). Reuses every buffer
    /// of the previous analysis (allocates only to grow them); the numeric factorisations that
    /// follow do not allocate.
    pub(crate) fn analyse(&mut self, n: usize, col_ptr: &[usize], rows: &[usize]) {
        self.ordering.compute(n, col_ptr, rows);
        let ord = &self.ordering;
        let ns = ord.supernodes();
        // Places: each supernode's states consecutively, in elimination order.
        self.start.clear();
        self.start.resize(ns + 1, 0);
        self.perm.clear();
        for &s in &ord.order {
            self.start[s] = self.perm.len();
            self.perm.extend_from_slice(ord.members(s));
        }
        self.inv.clear();
        self.inv.resize(n, 0);
        for (k, &i) in self.perm.iter().enumerate() {
            self.inv[i] = k;
        }
        // The filled rows: a supernode's states read its own, its later neighbours' and those
        // of the earlier supernodes it was a later neighbour of (`earlier`, by a counting sort).
        self.earlier_ptr.clear();
        self.earlier_ptr.resize(ns + 1, 0);
        for &s in &ord.order {
            for &t in ord.later(s) {
                self.earlier_ptr[t + 1] += 1;
            }
        }
        for s in 0..ns {
            self.earlier_ptr[s + 1] += self.earlier_ptr[s];
        }
        self.earlier.clear();
        self.earlier.resize(self.earlier_ptr[ns], 0);
        for &s in &ord.order {
            for &t in ord.later(s) {
                // earlier_ptr[t] walks t's places; restored below.
                self.earlier[self.earlier_ptr[t]] = s;
                self.earlier_ptr[t] += 1;
            }
        }
        for s in (0..ns).rev() {
            self.earlier_ptr[s + 1] = self.earlier_ptr[s];
        }
        self.earlier_ptr[0] = 0;
        self.row_ptr.clear();
        self.row_ptr.push(0);
        self.cols.clear();
        self.diag.clear();
        let weight = |t: usize| ord.members(t).len();
        for &s in &ord.order {
            self.blocks.clear();
            self.blocks.push(s);
            self.blocks.extend_from_slice(ord.later(s));
            let earlier = &self.earlier[self.earlier_ptr[s]..self.earlier_ptr[s + 1]];
            self.blocks.extend_from_slice(earlier);
            let start = &self.start;
            self.blocks.sort_unstable_by_key(|&t| start[t]);
            for r in self.start[s]..self.start[s] + weight(s) {
                for &t in &self.blocks {
                    if t == s {
                        self.diag.push(self.cols.len() + (r - self.start[s]));
                    }
                    self.cols.extend(self.start[t]..self.start[t] + weight(t));
                }
                self.row_ptr.push(self.cols.len());
            }
        }
        // Where each given entry goes.
        self.map.clear();
        for j in 0..n {
            let c = self.inv[j];
            for &i in &rows[col_ptr[j]..col_ptr[j + 1]] {
                let r = self.inv[i];
                let row = &self.cols[self.row_ptr[r]..self.row_ptr[r + 1]];
                let at = row.binary_search(&c).expect("the filled pattern holds M's");
                self.map.push(self.row_ptr[r] + at);
            }
        }
        self.n = n;
        self.vals.clear();
        self.vals.resize(self.cols.len(), 0.0);
        self.inv_diag.clear();
        self.inv_diag.resize(n, 0.0);
        self.pos.clear();
        self.pos.resize(n, 0);
        self.y.clear();
        self.y.resize(n, 0.0);
    }

    /// Writes M = I + scale·J from J's values in the analysed pattern's order (`jac[p]` is entry
    /// p of the column-compressed pattern): each entry is scale·J_ij, then 1 is added on the
    /// diagonal, the operations of the dense assembly.
    pub(crate) fn assemble_identity_plus(&mut self, scale: f64, jac: &[f64]) {
        self.vals.fill(0.0);
        for (&p, &j) in self.map.iter().zip(jac) {
            self.vals[p] = scale * j;
        }
        for &d in &self.diag {
            self.vals[d] += 1.0;
        }
    }

    /// Entry (i, j) of the assembled matrix, in the original numbering (0 outside the filled
    /// pattern; after [`Self::factor`], the factors' entry in that place).
    #[cfg(test)]
    pub(crate) fn entry(&self, i: usize, j: usize) -> f64 {
        let (r, c) = (self.inv[i], self.inv[j]);
        let row = &self.cols[self.row_ptr[r]..self.row_ptr[r + 1]];
        row.binary_search(&c)
            .map_or(0.0, |at| self.vals[self.row_ptr[r] + at])
    }

    /// Factors the assembled matrix in place (see the module documentation).
    pub(crate) fn factor(&mut self) -> Result<(), Singular> {
        for r in 0..self.n {
            let (a, b) = (self.row_ptr[r], self.row_ptr[r + 1]);
            let mut largest: f64 = 0.0;
            for p in a..b {
                self.pos[self.cols[p]] = p;
                largest = largest.max(self.vals[p].abs());
            }
            for p in a..self.diag[r] {
                let k = self.cols[p];
                let l = self.vals[p] * self.inv_diag[k];
                self.vals[p] = l;
                if l != 0.0 {
                    for q in self.diag[k] + 1..self.row_ptr[k + 1] {
                        let u = self.vals[q];
                        let at = self.pos[self.cols[q]];
                        self.vals[at] -= l * u;
                    }
                }
            }
            let pivot = self.vals[self.diag[r]];
            if pivot.abs() <= PIVOT_TOLERANCE * largest || !pivot.is_finite() {
                return Err(Singular {
                    column: self.perm[r],
                });
            }
            self.inv_diag[r] = 1.0 / pivot;
        }
        Ok(())
    }

    /// Solves M·x = b in place with M as last factored: L·U·(P·x) = P·b.
    pub(crate) fn solve(&mut self, b: &mut [f64]) {
        for (y, &i) in self.y.iter_mut().zip(&self.perm) {
            *y = b[i];
        }
        for r in 0..self.n {
            let mut s = -0.0;
            for p in self.row_ptr[r]..self.diag[r] {
                s += self.vals[p] * self.y[self.cols[p]];
            }
            self.y[r] -= s;
        }
        for r in (0..self.n).rev() {
            let mut s = -0.0;
            for p in self.diag[r] + 1..self.row_ptr[r + 1] {
                s += self.vals[p] * self.y[self.cols[p]];
            }
            self.y[r] = (self.y[r] - s) / self.vals[self.diag[r]];
        }
        for (y, &i) in self.y.iter().zip(&self.perm) {
            b[i] = *y;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::dense_lu::DenseLu;

    /// A reproducible generator (a linear congruential one) of numbers in [−0.5, 0.5).
    fn generator(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        }
    }

    /// Column-compressed pattern and values of the non-zeros of a dense row-major matrix (the
    /// diagonal always included).
    fn compress(n: usize, a: &[f64]) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let (mut ptr, mut rows, mut vals) = (vec![0], Vec::new(), Vec::new());
        for j in 0..n {
            for i in 0..n {
                if a[i * n + j] != 0.0 || i == j {
                    rows.push(i);
                    vals.push(a[i * n + j]);
                }
            }
            ptr.push(rows.len());
        }
        (ptr, rows, vals)
    }

    /// J of `bodies` blocks of `size` states, each reading itself and the blocks of a random
    /// contact graph (about `contacts` neighbours per block), entries in [−0.5, 0.5)·scale.
    fn block_jacobian(bodies: usize, size: usize, contacts: usize, scale: f64) -> Vec<f64> {
        let n = bodies * size;
        let mut rand = generator(99);
        let mut coupled = vec![false; bodies * bodies];
        for a in 0..bodies {
            coupled[a * bodies + a] = true;
            for _ in 0..contacts / 2 {
                let b = ((rand() + 0.5) * bodies as f64) as usize % bodies;
                coupled[a * bodies + b] = true;
                coupled[b * bodies + a] = true;
            }
        }
        let mut jac = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                if coupled[(i / size) * bodies + j / size] {
                    jac[i * n + j] = scale * rand();
                }
            }
        }
        jac
    }

    /// The sparse and the dense LU solve M·x = b with M = I − h·d·J for the same x to 1e-12
    /// relative (both are backward stable here: M's condition number is below ~10³ and the
    /// unpivoted elimination's growth is small, so the two differ by a few hundred ulps of ‖x‖).
    #[test]
    fn sparse_and_dense_give_the_same_solutions() {
        for (bodies, size, contacts, hd) in [(40, 13, 6, 0.05), (60, 1, 4, 0.3), (25, 6, 10, 0.02)]
        {
            let n = bodies * size;
            let jac = block_jacobian(bodies, size, contacts, 1.0);
            let (ptr, rows, jvals) = compress(n, &jac);
            let mut sparse = SparseLu::default();
            sparse.analyse(n, &ptr, &rows);
            sparse.assemble_identity_plus(-hd, &jvals);
            let mut dense = DenseLu::new(n);
            for (m, j) in dense.matrix_mut().iter_mut().zip(&jac) {
                *m = -hd * j;
            }
            for i in 0..n {
                dense.matrix_mut()[i * n + i] += 1.0;
                for j in 0..n {
                    assert_eq!(sparse.entry(i, j), dense.matrix_mut()[i * n + j]);
                }
            }
            sparse.factor().unwrap();
            dense.factor().unwrap();
            let (diff, norm) = solve_both(&mut sparse, &mut dense, n, 5);
            assert!(diff <= 1e-12 * norm, "n {n}: {diff:e} of {norm:e}");
        }
    }

    /// A chain's pattern (tridiagonal) fills nothing: 3n − 2 entries in L and U together.
    #[test]
    fn a_tridiagonal_pattern_fills_nothing() {
        let n = 30;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                if i.abs_diff(j) <= 1 {
                    a[i * n + j] = if i == j { 4.0 } else { -1.0 };
                }
            }
        }
        let (ptr, rows, vals) = compress(n, &a);
        let mut lu = SparseLu::default();
        lu.analyse(n, &ptr, &rows);
        assert_eq!(lu.filled_entries(), 3 * n - 2);
        lu.assemble_identity_plus(1.0, &vals);
        lu.factor().unwrap();
        // (I + A)·x = b with x = 1: b = row sums of I + A.
        let mut b: Vec<f64> = (0..n)
            .map(|i| 1.0 + (0..n).map(|j| a[i * n + j]).sum::<f64>())
            .collect();
        lu.solve(&mut b);
        for x in b {
            assert!((x - 1.0).abs() < 1e-14, "{x}");
        }
    }

    /// A zero pivot the order cannot avoid (M = [[0, 1], [1, 0]]) is reported, not divided by.
    #[test]
    fn a_zero_diagonal_pivot_is_reported() {
        let (ptr, rows) = (vec![0, 2, 4], vec![0, 1, 0, 1]);
        let mut lu = SparseLu::default();
        lu.analyse(2, &ptr, &rows);
        // I + (−1)·J with J = [[1, −1], [−1, 1]]: M = [[0, 1], [1, 0]].
        lu.assemble_identity_plus(-1.0, &[1.0, -1.0, -1.0, 1.0]);
        assert!(lu.factor().is_err());
    }

    /// The Newton matrix of a pile's Jacobian: nine balls (r = 5 cm, 0.1 kg) in a 3×3 square on
    /// the floor, each 1 mm into the floor and into its neighbours, in one ContactGroup
    /// (linear spring 1e4 N/m, damper 10 N·s/m, Stribeck friction). A = ∂ż/∂z from
    /// `linearize` at t = 0 (tangent coordinates, 108 states); M = I − h·d·A with h·d = 1e-3 s
    /// (h·d·ω² = 10² for the contact stiffness). The sparse and the dense LU solve M·x = b for
    /// the same x to 1e-12 relative, as for the random systems above; the pattern is the
    /// non-zeros of A, coupled only between balls in contact (corner balls touch two).
    #[test]
    fn the_piles_newton_matrix_solves_as_the_dense_one() {
        let mut text = String::from("connect = [\"world.W -- floor.R\", ");
        for k in 0..9 {
            text += &format!("\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\", ");
        }
        text += "]\n[model]\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n\
                 [blocks.floor]\ntype = \"InfinitePlane\"\n";
        for k in 0..9 {
            let (x, y) = (0.099 * (k % 3) as f64, 0.099 * (k / 3) as f64);
            text += &format!(
                "[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{x}, {y}, 0.049]\n\
                 [blocks.ball{k}]\ntype = \"Solid\"\n\
                 geometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n"
            );
        }
        text += "[blocks.pile]\ntype = \"ContactGroup\"\nmembers = [\"ball*\", \"floor\"]\n\
                 normal = { method = \"linear_spring_damper\", stiffness = 1e4, damping = 10.0 }\n\
                 friction = { method = \"stribeck\", static = 0.5, dynamic = 0.4, stiction_velocity = 0.01 }\n";
        let d = crate::load_model_str("pile9.toml", &text, &[]).expect("model");
        let lin = crate::sim::linearize::linearize(&d, &Default::default()).expect("linearize");
        let n = lin.a.nrows();
        assert_eq!(n, 9 * 12);
        let a: Vec<f64> = (0..n * n).map(|k| lin.a[(k / n, k % n)]).collect();
        // Ball 0 (a corner) reads ball 1 and ball 3, not ball 8 (the far corner).
        let of = |p: usize| -> Vec<usize> {
            let prefix = format!("free{p}.");
            (0..n)
                .filter(|&i| lin.states[i].starts_with(&prefix))
                .collect()
        };
        let block = |p: usize, q: usize| {
            let (rows, cols) = (of(p), of(q));
            assert_eq!((rows.len(), cols.len()), (12, 12));
            rows.iter()
                .any(|&i| cols.iter().any(|&j| a[i * n + j] != 0.0))
        };
        assert!(block(0, 1) && block(0, 3) && !block(0, 8) && !block(0, 4));
        let (ptr, rows, jvals) = compress(n, &a);
        let hd = 1e-3;
        let mut sparse = SparseLu::default();
        sparse.analyse(n, &ptr, &rows);
        sparse.assemble_identity_plus(-hd, &jvals);
        sparse.factor().unwrap();
        let mut dense = DenseLu::new(n);
        for (m, j) in dense.matrix_mut().iter_mut().zip(&a) {
            *m = -hd * j;
        }
        for i in 0..n {
            dense.matrix_mut()[i * n + i] += 1.0;
        }
        dense.factor().unwrap();
        let (diff, norm) = solve_both(&mut sparse, &mut dense, n, 11);
        assert!(diff <= 1e-12 * norm, "{diff:e} of {norm:e}");
    }

    /// Solves one random right-hand side (seed `seed`) with both factorisations: the largest
    /// difference of the solutions and the largest |x| of the dense one.
    fn solve_both(sparse: &mut SparseLu, dense: &mut DenseLu, n: usize, seed: u64) -> (f64, f64) {
        let mut rand = generator(seed);
        let b: Vec<f64> = (0..n).map(|_| rand()).collect();
        let (mut xs, mut xd) = (b.clone(), b);
        sparse.solve(&mut xs);
        dense.solve(&mut xd);
        let norm = xd.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let diff = xs
            .iter()
            .zip(&xd)
            .fold(0.0f64, |m, (p, q)| m.max((p - q).abs()));
        (diff, norm)
    }
}
