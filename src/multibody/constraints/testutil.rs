//! Test helpers: a seeded random generator, brute-force complementarity solvers, and the
//! rigid-box Jacobians of the hand-checkable examples.

use super::lcp::RowKind;
use nalgebra::{DMatrix, DVector};

/// The LCP (M, q) of a dense row-major n×n `m` (n = q's length).
pub(crate) fn lcp<'a>(m: &'a [f64], q: &'a [f64]) -> super::lcp_problem::Lcp<'a> {
    super::lcp_problem::Lcp {
        n: q.len(),
        m,
        stride: q.len(),
        q,
    }
}

/// Standard gravity (m/s²).
pub const G: f64 = 9.81;

/// Marsaglia's xorshift64* generator: deterministic, no external crate.
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    /// Uniform integer in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A `rows × cols` matrix of entries uniform in `[−1, 1)`.
    pub fn matrix(&mut self, rows: usize, cols: usize) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |_, _| self.uniform(-1.0, 1.0))
    }
}

/// `max(‖b‖∞, max A_ii·‖f‖∞)`: the size of the terms summed into `a = A f + b`.
pub fn acceleration_scale(a: &DMatrix<f64>, b: &[f64], f: &[f64]) -> f64 {
    let a_max = (0..b.len()).map(|i| a[(i, i)]).fold(0.0, f64::max);
    let f_max = f.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    let b_max = b.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    b_max.max(a_max * f_max)
}

/// `A f + b`.
pub fn accelerations(a: &DMatrix<f64>, b: &[f64], f: &[f64]) -> Vec<f64> {
    let af = a * DVector::from_column_slice(f);
    af.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// Checks the complementarity conditions with `tol = rel·scale` on accelerations and
/// `rel·scale / max A_ii` on forces; returns the first violation.
pub fn check_conditions(
    a: &DMatrix<f64>,
    b: &[f64],
    kinds: &[RowKind],
    f: &[f64],
    rel: f64,
) -> Result<(), String> {
    let acc = accelerations(a, b, f);
    let scale = acceleration_scale(a, b, f);
    let tol = rel * scale;
    let a_max = (0..b.len()).map(|i| a[(i, i)]).fold(0.0, f64::max);
    let tol_f = if a_max > 0.0 { tol / a_max } else { tol };
    for i in 0..b.len() {
        let ok = match kinds[i] {
            RowKind::Bilateral => acc[i].abs() <= tol,
            _ => acc[i] >= -tol && f[i] >= -tol_f && (acc[i] * f[i]).abs() <= tol * tol_f.max(f[i]),
        };
        if !ok {
            return Err(format!(
                "row {i}: a = {:e}, f = {:e} (tol {tol:e})",
                acc[i], f[i]
            ));
        }
    }
    Ok(())
}

/// Brute force over all 2^u clamped/unclamped splits of the u unilateral rows (bilateral rows
/// always clamped): solves `A_CC f_C = −b_C` by the SVD pseudo-inverse and returns the first `f`
/// satisfying the conditions within `rel` (see [`check_conditions`]).
pub fn brute_force_lcp(
    a: &DMatrix<f64>,
    b: &[f64],
    kinds: &[RowKind],
    rel: f64,
) -> Option<Vec<f64>> {
    let n = b.len();
    let unilateral: Vec<usize> = (0..n)
        .filter(|&i| kinds[i] == RowKind::Unilateral)
        .collect();
    for mask in 0u32..(1 << unilateral.len()) {
        let clamped: Vec<usize> = (0..n)
            .filter(|&i| match unilateral.iter().position(|&u| u == i) {
                Some(k) => mask & (1 << k) != 0,
                None => true,
            })
            .collect();
        let m = clamped.len();
        let mut f = vec![0.0; n];
        if m > 0 {
            let a_cc = DMatrix::from_fn(m, m, |i, j| a[(clamped[i], clamped[j])]);
            let rhs = DVector::from_fn(m, |i, _| -b[clamped[i]]);
            let eps = 1e-12 * a_cc.norm();
            let x = a_cc.svd(true, true).solve(&rhs, eps).unwrap();
            for (k, &i) in clamped.iter().enumerate() {
                f[i] = x[k];
            }
        }
        if check_conditions(a, b, kinds, &f, rel).is_ok() {
            return Some(f);
        }
    }
    None
}

/// Brute force for a general LCP `w = M z + q ≥ 0, z ≥ 0, wᵀz = 0` over all 2^n complementary
/// bases, by the SVD pseudo-inverse; tolerance `rel·max(‖q‖∞, max|M|·‖z‖∞)`.
pub fn brute_force_general_lcp(m: &DMatrix<f64>, q: &[f64], rel: f64) -> Option<Vec<f64>> {
    let n = q.len();
    let m_max = m.iter().fold(0.0, |s: f64, x| s.max(x.abs()));
    for mask in 0u32..(1 << n) {
        let basic: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) != 0).collect();
        let k = basic.len();
        let mut z = vec![0.0; n];
        if k > 0 {
            let m_bb = DMatrix::from_fn(k, k, |i, j| m[(basic[i], basic[j])]);
            let rhs = DVector::from_fn(k, |i, _| -q[basic[i]]);
            let eps = 1e-12 * m_bb.norm();
            let x = m_bb.svd(true, true).solve(&rhs, eps).unwrap();
            for (t, &i) in basic.iter().enumerate() {
                z[i] = x[t];
            }
        }
        let w = m * DVector::from_column_slice(&z) + DVector::from_column_slice(q);
        let z_max = z.iter().fold(0.0, |s: f64, x| s.max(x.abs()));
        let q_max = q.iter().fold(0.0, |s: f64, x| s.max(x.abs()));
        let tol = rel * q_max.max(m_max * z_max);
        let tol_z = if m_max > 0.0 { tol / m_max } else { tol };
        if (0..n)
            .all(|i| w[i] >= -tol && z[i] >= -tol_z && (w[i] * z[i]).abs() <= tol * tol_z.max(z[i]))
        {
            return Some(z);
        }
    }
    None
}

/// `J M⁻¹ Jᵀ` and `J M⁻¹ F` for a diagonal mass matrix `M = diag(masses)`.
pub fn contact_problem(
    j: &DMatrix<f64>,
    masses: &[f64],
    force: &[f64],
) -> (DMatrix<f64>, Vec<f64>) {
    let m_inv = DMatrix::from_diagonal(&DVector::from_iterator(
        masses.len(),
        masses.iter().map(|m| 1.0 / m),
    ));
    let a = j * &m_inv * j.transpose();
    let a = (&a + a.transpose()) * 0.5;
    let b = j * &m_inv * DVector::from_column_slice(force);
    (a, b.iter().copied().collect())
}

/// Row of the velocity of point `r` (relative to the centre of mass) of a planar body with
/// coordinates (x, y, θ), projected on the direction `dir`: `dir·(v + ω ẑ × r)`.
pub fn planar_point_row(dir: [f64; 2], r: [f64; 2]) -> [f64; 3] {
    [dir[0], dir[1], -dir[0] * r[1] + dir[1] * r[0]]
}

/// Row of the velocity of point `r` of a spatial body with coordinates (v, ω) (world-resolved, at
/// the centre of mass) projected on `dir`: `dir·(v + ω × r) = dir·v + (r × dir)·ω`.
pub fn spatial_point_row(dir: [f64; 3], r: [f64; 3]) -> [f64; 6] {
    let c = [
        r[1] * dir[2] - r[2] * dir[1],
        r[2] * dir[0] - r[0] * dir[2],
        r[0] * dir[1] - r[1] * dir[0],
    ];
    [dir[0], dir[1], dir[2], c[0], c[1], c[2]]
}

/// The planar Stewart–Trinkle problem, built densely and independently of the solver: per
/// contact (rows normal 2c, tangent 2c + 1) the variables f_n, and if sticking β₊, β₋, λ; a
/// sliding contact (`slide = Some(sign of v_t)`) has only f_n, with friction −μ f_n sign.
pub fn planar_lcp(
    a: &DMatrix<f64>,
    b: &[f64],
    mu: &[f64],
    slide: &[Option<f64>],
) -> (DMatrix<f64>, Vec<f64>) {
    let n = b.len();
    // Per variable: force on rows, measured rows, and the structural terms.
    let (mut force, mut measure, mut owner) = (Vec::new(), Vec::new(), Vec::new());
    for c in 0..mu.len() {
        let (nr, tr) = (2 * c, 2 * c + 1);
        let mut fn_force = DVector::zeros(n);
        fn_force[nr] = 1.0;
        if let Some(sign) = slide[c] {
            fn_force[tr] = -mu[c] * sign;
        }
        let mut e_n = DVector::zeros(n);
        e_n[nr] = 1.0;
        force.push(fn_force);
        measure.push(e_n);
        owner.push((c, 0));
        if slide[c].is_none() {
            for (kind, sign) in [(1, 1.0), (2, -1.0)] {
                let mut d = DVector::zeros(n);
                d[tr] = sign;
                force.push(d.clone());
                measure.push(d);
                owner.push((c, kind));
            }
            force.push(DVector::zeros(n));
            measure.push(DVector::zeros(n));
            owner.push((c, 3));
        }
    }
    let nv = force.len();
    let mut m = DMatrix::zeros(nv, nv);
    let mut q = vec![0.0; nv];
    for i in 0..nv {
        for j in 0..nv {
            m[(i, j)] = (measure[i].transpose() * a * &force[j])[(0, 0)];
            if owner[i].0 == owner[j].0 {
                m[(i, j)] += match (owner[i].1, owner[j].1) {
                    (1 | 2, 3) => 1.0,
                    (3, 0) => mu[owner[i].0],
                    (3, 1 | 2) => -1.0,
                    _ => 0.0,
                };
            }
        }
        q[i] = measure[i].dot(&DVector::from_column_slice(b));
    }
    (m, q)
}
