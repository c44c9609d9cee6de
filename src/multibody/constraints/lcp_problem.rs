//! The complementarity problem `w = M z + q ≥ 0, z ≥ 0, wᵀz = 0` as the solving methods see it
//! (Lemke's pivoting, the principal-basis solve, branch and bound, and the strategy that tries
//! them in turn), and the acceptance test every candidate solution passes. Below all of them: it
//! uses none.

/// The problem to solve: `n` variables, `M_ij = m[i·stride + j]`, `q`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lcp<'a> {
    pub(crate) n: usize,
    pub(crate) m: &'a [f64],
    pub(crate) stride: usize,
    pub(crate) q: &'a [f64],
}

/// Whether `z` solves `lcp` within `tol·max(1, m_max·‖z‖∞)` (`w ≥ 0`, `z ≥ 0`, `wᵢzᵢ = 0` as
/// `|wᵢ|` small where `zᵢ` is above the tolerance).
pub(crate) fn accepted(lcp: Lcp<'_>, z: &[f64], m_max: f64, tol: f64) -> bool {
    let Lcp { n, m, stride, q } = lcp;
    let z_max = z[..n].iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let limit = tol * (m_max * z_max).max(1.0);
    (0..n).all(|i| {
        let w: f64 = q[i] + (0..n).map(|j| m[i * stride + j] * z[j]).sum::<f64>();
        let violation = (-w)
            .max(-z[i])
            .max(if z[i] > limit { w.abs() } else { 0.0 });
        violation <= limit
    })
}
