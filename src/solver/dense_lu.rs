//! Dense LU factorization with partial pivoting, in buffers sized once.
//!
//! For an n×n matrix A (row-major, A[i·n + j] = a_ij) [`DenseLu::factor`] computes P·A = L·U by
//! Gaussian elimination with row pivoting on the largest |a_ij| of each column (Golub & Van Loan,
//! *Matrix Computations*, Algorithm 3.4.1): U in the upper triangle, the unit lower triangle L's
//! multipliers below it, and the row interchanges in `pivots`. [`DenseLu::solve`] then solves
//! A·x = b by the forward and back substitutions L·y = P·b, U·x = y, in place. Neither allocates
//! (nalgebra's `LU` allocates its permutation on every factorization, which the solver's
//! allocation-free loop cannot afford).

/// A dense LU factorization of an n×n matrix.
#[derive(Clone, Debug)]
pub(crate) struct DenseLu {
    n: usize,
    /// L (strictly below the diagonal, unit diagonal implied) and U (on and above it), row-major.
    lu: Vec<f64>,
    /// Row k was swapped with row `pivots[k]` at elimination step k.
    pivots: Vec<usize>,
}

/// The matrix is singular to working precision: a zero (or non-finite) pivot in column `column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Singular {
    pub column: usize,
}

impl DenseLu {
    /// Buffers for n×n matrices.
    pub(crate) fn new(n: usize) -> Self {
        Self {
            n,
            lu: vec![0.0; n * n],
            pivots: vec![0; n],
        }
    }

    /// The order n of the matrices it factors (0 until allocated for a size).
    pub(crate) fn order(&self) -> usize {
        self.n
    }

    /// The factored matrix's storage: write A here (row-major), then call [`Self::factor`].
    pub(crate) fn matrix_mut(&mut self) -> &mut [f64] {
        &mut self.lu
    }

    /// Factors the matrix written through [`Self::matrix_mut`] in place. Orders up to 16 run
    /// the elimination compiled for their size (see [`factor_in`]).
    pub(crate) fn factor(&mut self) -> Result<(), Singular> {
        let n = self.n;
        macro_rules! fixed_orders {
            ($($order:literal)*) => {
                match n {
                    $($order => factor_in::<$order>(&mut self.lu, &mut self.pivots, n),)*
                    _ => factor_in::<0>(&mut self.lu, &mut self.pivots, n),
                }
            };
        }
        fixed_orders!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    }

    /// Solves A·x = b in place (`b` becomes x), with A as last factored. Each substitution row
    /// is one inner product accumulated left to right from −0 (the additive identity, as
    /// `Iterator::sum` does). Orders up to 16 (a free body's 13 states and a few joints) run
    /// the substitutions compiled for their size ([`substitute_fixed`]); larger ones the general
    /// loops below, whose rows are cut by `chunks_exact` and read while `b` is only borrowed.
    /// Both give the same bits.
    pub(crate) fn solve(&self, b: &mut [f64]) {
        let n = self.n;
        macro_rules! fixed_orders {
            ($($order:literal)*) => {
                match n {
                    0 => return,
                    $($order => return substitute_fixed::<$order>(&self.lu, &self.pivots, b),)*
                    _ => {}
                }
            };
        }
        fixed_orders!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        let a = &self.lu[..n * n];
        let b = &mut b[..n];
        for (k, &p) in self.pivots[..n].iter().enumerate() {
            b.swap(k, p);
        }
        // L·y = P·b (unit lower triangle).
        for (i, row) in a.chunks_exact(n).enumerate().skip(1) {
            let s = dot_left_to_right(&row[..i], &b[..i]);
            b[i] -= s;
        }
        // U·x = y.
        for (i, row) in a.chunks_exact(n).enumerate().rev() {
            let s = dot_left_to_right(&row[i + 1..], &b[i + 1..]);
            b[i] = (b[i] - s) / row[i];
        }
    }
}

/// Gaussian elimination with partial pivoting of the n×n matrix `a` (row-major) in place, the
/// row interchanges into `pivots`. With N > 0 the order is N, known when compiled, so that the
/// loops over a row have constant bounds (unrolled, no set-up per row); with N = 0 it is `n`. The
/// operations and their order are the same either way.
#[inline(never)]
fn factor_in<const N: usize>(
    a: &mut [f64],
    pivots: &mut [usize],
    n: usize,
) -> Result<(), Singular> {
    let n = if N > 0 { N } else { n };
    let a = &mut a[..n * n];
    let pivots = &mut pivots[..n];
    for k in 0..n {
        // Pivot: the largest |a_ik|, i ≥ k.
        let mut p = k;
        let mut largest = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
            if v > largest {
                largest = v;
                p = i;
            }
        }
        if largest == 0.0 || !largest.is_finite() {
            return Err(Singular { column: k });
        }
        pivots[k] = p;
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let inv = 1.0 / a[k * n + k];
        let (upper, lower) = a.split_at_mut((k + 1) * n);
        let row_k = &upper[k * n..(k + 1) * n];
        for row_i in lower.chunks_exact_mut(n) {
            let m = row_i[k] * inv;
            row_i[k] = m;
            if m != 0.0 {
                for (x, u) in row_i[k + 1..].iter_mut().zip(&row_k[k + 1..]) {
                    *x -= m * u;
                }
            }
        }
    }
    Ok(())
}

/// [`DenseLu::solve`] for an N×N factorization (`lu` row-major, `pivots` as factored), with N
/// known when compiled: the same operations in the same order as the general loops, but every
/// row's length is a constant, so the compiler unrolls the substitutions completely and no row
/// pays for setting up a loop (on the stiff box_slide's 13 states, 1 627 → 615 instructions per
/// solve; a short row's set-up cost more than its products). Not inlined: each size is one
/// function of its own (inlined into the dispatch, the 13×13 solve took 731 instructions).
#[inline(never)]
fn substitute_fixed<const N: usize>(lu: &[f64], pivots: &[usize], b: &mut [f64]) {
    let lu = &lu[..N * N];
    let pivots = &pivots[..N];
    let b = &mut b[..N];
    for (k, &p) in pivots.iter().enumerate() {
        b.swap(k, p);
    }
    // L·y = P·b (unit lower triangle).
    for i in 1..N {
        let row = &lu[i * N..i * N + i];
        let mut s = -0.0;
        for j in 0..i {
            s += row[j] * b[j];
        }
        b[i] -= s;
    }
    // U·x = y.
    for i in (0..N).rev() {
        let row = &lu[i * N..(i + 1) * N];
        let mut s = -0.0;
        for j in i + 1..N {
            s += row[j] * b[j];
        }
        b[i] = (b[i] - s) / row[i];
    }
}

/// Σ aₖ·bₖ over the shorter of the two, accumulated strictly left to right from −0: the same
/// additions in the same order as `Iterator::sum`, so the same bits, but unrolled by four so
/// that the short rows of a substitution spend their instructions on the products rather than on
/// the loop.
#[inline(always)]
fn dot_left_to_right(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let (quads_a, quads_b) = (a.chunks_exact(4), b.chunks_exact(4));
    let (tail_a, tail_b) = (quads_a.remainder(), quads_b.remainder());
    let mut s = -0.0;
    for (x, y) in quads_a.zip(quads_b) {
        s += x[0] * y[0];
        s += x[1] * y[1];
        s += x[2] * y[2];
        s += x[3] * y[3];
    }
    for (x, y) in tail_a.iter().zip(tail_b) {
        s += x * y;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat_vec(a: &[f64], x: &[f64]) -> Vec<f64> {
        let n = x.len();
        (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
            .collect()
    }

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // a_00 = 0 forces a row swap; x = (1, −2, 3) by construction, b = A·x.
        let a = [0.0, 2.0, 1.0, 4.0, -1.0, 0.5, 1.0, 3.0, -2.0];
        let x = [1.0, -2.0, 3.0];
        let mut b = mat_vec(&a, &x);
        let mut lu = DenseLu::new(3);
        lu.matrix_mut().copy_from_slice(&a);
        lu.factor().unwrap();
        lu.solve(&mut b);
        for (got, want) in b.iter().zip(&x) {
            // Condition number of A is about 10: the solution is exact to a few ulps.
            assert!((got - want).abs() < 1e-14, "{b:?}");
        }
    }

    #[test]
    fn random_well_conditioned_systems_round_trip() {
        // Diagonally dominant pseudo-random 12×12 matrices (a linear congruential generator, so
        // the test is reproducible): the residual of the solution is at rounding level.
        let n = 12;
        let mut seed = 12345u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let mut lu = DenseLu::new(n);
        for _ in 0..5 {
            let mut a: Vec<f64> = (0..n * n).map(|_| rand()).collect();
            for i in 0..n {
                a[i * n + i] += n as f64 * if i % 2 == 0 { 1.0 } else { -1.0 };
            }
            let x: Vec<f64> = (0..n).map(|_| rand()).collect();
            let mut b = mat_vec(&a, &x);
            lu.matrix_mut().copy_from_slice(&a);
            lu.factor().unwrap();
            lu.solve(&mut b);
            let e = b
                .iter()
                .zip(&x)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f64::max);
            assert!(e < 1e-13, "error {e}");
        }
    }

    /// The substitutions as first written, with `Iterator::sum` inner products: the solve must
    /// give their results bit for bit (the solver's steps must not depend on how the loops are
    /// written).
    fn solve_reference(lu: &DenseLu, b: &mut [f64]) {
        let (n, a) = (lu.n, &lu.lu);
        for k in 0..n {
            b.swap(k, lu.pivots[k]);
        }
        for i in 1..n {
            let s: f64 = a[i * n..i * n + i]
                .iter()
                .zip(&b[..i])
                .map(|(l, y)| l * y)
                .sum();
            b[i] -= s;
        }
        for i in (0..n).rev() {
            let row = &a[i * n..(i + 1) * n];
            let s: f64 = row[i + 1..]
                .iter()
                .zip(&b[i + 1..])
                .map(|(u, x)| u * x)
                .sum();
            b[i] = (b[i] - s) / row[i];
        }
    }

    #[test]
    fn solve_matches_the_textbook_substitutions_bit_for_bit() {
        let mut seed = 777u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [1, 2, 5, 13, 16, 17, 20] {
            let mut lu = DenseLu::new(n);
            for round in 0..4 {
                // Some exact zeros (a sparse Jacobian's) and signed zeros on the right-hand side.
                let a: Vec<f64> = (0..n * n)
                    .map(|k| if (k + round) % 3 == 0 { 0.0 } else { rand() })
                    .map(|v| v + if round == 3 { 1e-300 } else { 0.0 })
                    .collect();
                let mut m = a.clone();
                for i in 0..n {
                    m[i * n + i] += 2.0;
                }
                lu.matrix_mut().copy_from_slice(&m);
                lu.factor().unwrap();
                let b: Vec<f64> = (0..n)
                    .map(|i| match i % 4 {
                        0 => -0.0,
                        1 => 0.0,
                        _ => rand(),
                    })
                    .collect();
                let (mut fast, mut reference) = (b.clone(), b);
                lu.solve(&mut fast);
                solve_reference(&lu, &mut reference);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&reference), "n = {n}, round {round}");
            }
        }
    }

    #[test]
    fn singular_matrix_is_reported() {
        let mut lu = DenseLu::new(2);
        lu.matrix_mut().copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        assert_eq!(lu.factor(), Err(Singular { column: 1 }));
        lu.matrix_mut().copy_from_slice(&[f64::NAN, 0.0, 0.0, 1.0]);
        assert!(lu.factor().is_err());
    }
}
