//! Collision impulses with Newton's restitution law, as the same complementarity problem at the
//! velocity level.
//!
//! With `A = J M⁻¹ Jᵀ` ((m/s)/(N·s) = 1/kg for translational rows), the pre-impact constraint
//! velocities `v⁻` (m/s, negative = approaching) and per-row restitution coefficients `e_i` in
//! [0, 1], the impulses `p` (N·s) change the velocities to `v⁺ = A p + v⁻`. Newton's law per row:
//!
//! ```text
//! approaching unilateral row (v⁻_i < 0):  v⁺_i + e_i v⁻_i ≥ 0  ⊥  p_i ≥ 0
//! other unilateral row (v⁻_i ≥ 0):        v⁺_i ≥ 0              ⊥  p_i ≥ 0
//! bilateral row:                          v⁺_i = 0,              p_i free
//! ```
//!
//! i.e. the LCP `w = A p + b` of [`solve_lcp`] with `w_i = v⁺_i + e_i·min(v⁻_i, 0)` and
//! `b_i = v⁻_i + e_i·min(v⁻_i, 0)` (`(1 + e_i)·v⁻_i` for approaching rows). All rows are
//! resolved simultaneously: for a ball striking a row of touching balls this spreads the impulse
//! over the row (three equal balls with e = 1 leave with −v/3, 2v/3, 2v/3), unlike the sequential
//! pairwise collisions of a Newton's cradle. Tolerances and errors are those of [`solve_lcp`].

use super::errors::{check_len, ConstraintError};
use super::lcp::{solve_lcp, LcpStats, LcpWorkspace, RowKind};
use nalgebra::DMatrixView;

/// Solves for the impulses `p` (N·s) and post-impact velocities `v_plus` (m/s) of rows with
/// pre-impact velocities `v_minus` and restitution coefficients `restitution` (module
/// documentation). Every slice has one entry per row; `Tangent` rows are refused. Does not
/// allocate.
pub fn solve_impulses(
    a: DMatrixView<'_, f64>,
    v_minus: &[f64],
    restitution: &[f64],
    kinds: &[RowKind],
    ws: &mut LcpWorkspace,
    p: &mut [f64],
    v_plus: &mut [f64],
) -> Result<LcpStats, ConstraintError> {
    let n = v_minus.len();
    check_len("the restitution coefficients", restitution.len(), n)?;
    check_len("v⁺", v_plus.len(), n)?;
    if n > ws.capacity() {
        return Err(ConstraintError::CapacityExceeded {
            rows: n,
            capacity: ws.capacity(),
        });
    }
    if let Some(row) = (0..n).find(|&i| !(0.0..=1.0).contains(&restitution[i])) {
        return Err(ConstraintError::BadRow {
            row,
            what: "the coefficient of restitution must be in [0, 1]",
        });
    }
    let mut b = std::mem::take(&mut ws.impulse_rhs);
    for i in 0..n {
        let approach = if kinds.get(i) == Some(&RowKind::Unilateral) {
            v_minus[i].min(0.0)
        } else {
            0.0
        };
        b[i] = v_minus[i] + restitution[i] * approach;
    }
    let result = solve_lcp(a, &b[..n], kinds, ws, p);
    if result.is_ok() {
        for (i, w) in ws.accelerations().iter().enumerate() {
            v_plus[i] = w - (b[i] - v_minus[i]);
        }
    }
    ws.impulse_rhs = b;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    fn impulses(
        j: &[f64],
        bodies: usize,
        masses: &[f64],
        v_minus: &[f64],
        e: f64,
    ) -> (Vec<f64>, Vec<f64>) {
        let rows = v_minus.len();
        let j = DMatrix::from_row_slice(rows, bodies, j);
        let m_inv = DMatrix::from_diagonal(&nalgebra::DVector::from_iterator(
            bodies,
            masses.iter().map(|m| 1.0 / m),
        ));
        let a = &j * m_inv * j.transpose();
        let mut ws = LcpWorkspace::new(rows);
        let (mut p, mut v_plus) = (vec![0.0; rows], vec![0.0; rows]);
        let kinds = vec![RowKind::Unilateral; rows];
        solve_impulses(
            a.as_view(),
            v_minus,
            &vec![e; rows],
            &kinds,
            &mut ws,
            &mut p,
            &mut v_plus,
        )
        .unwrap();
        (p, v_plus)
    }

    #[test]
    fn ball_bounces_with_restitution() {
        // 0.5 kg ball hits the ground at 3 m/s, e = 0.8: p = m (1 + e) 3 = 2.7 N·s, v⁺ = 2.4 m/s.
        let (p, v_plus) = impulses(&[1.0], 1, &[0.5], &[-3.0], 0.8);
        assert!((p[0] - 2.7).abs() < 1e-14);
        assert!((v_plus[0] - 2.4).abs() < 1e-14);
    }

    #[test]
    fn equal_balls_exchange_velocities() {
        // Ball 1 (1 kg, 2 m/s) hits ball 2 (1 kg, at rest); row: gap rate u₂ − u₁ = −2.
        // e = 1: p = m v = 2, ball 1 stops, ball 2 leaves at 2 m/s.
        let (p, v_plus) = impulses(&[-1.0, 1.0], 2, &[1.0, 1.0], &[-2.0], 1.0);
        assert!((p[0] - 2.0).abs() < 1e-14 && (v_plus[0] - 2.0).abs() < 1e-14);
        // e = 0.8: v⁺ = 1.6 and momentum 2 → u₁ = 0.2, u₂ = 1.8; p = 1.8.
        let (p, v_plus) = impulses(&[-1.0, 1.0], 2, &[1.0, 1.0], &[-2.0], 0.8);
        assert!((p[0] - 1.8).abs() < 1e-14 && (v_plus[0] - 1.6).abs() < 1e-14);
    }

    #[test]
    fn three_balls_simultaneous() {
        // Ball 1 at v = 3 m/s hits balls 2–3, touching and at rest; rows u₂ − u₁ and u₃ − u₂.
        // A = [2 −1; −1 2], b = (−2v, 0) → p = (4v/3, 2v/3): u = (−v/3, 2v/3, 2v/3), energy kept.
        let (p, v_plus) = impulses(
            &[-1.0, 1.0, 0.0, 0.0, -1.0, 1.0],
            3,
            &[1.0; 3],
            &[-3.0, 0.0],
            1.0,
        );
        assert!((p[0] - 4.0).abs() < 1e-14 && (p[1] - 2.0).abs() < 1e-14);
        assert!((v_plus[0] - 3.0).abs() < 1e-14 && v_plus[1].abs() < 1e-14);
    }

    #[test]
    fn separating_row_gets_no_impulse() {
        let (p, v_plus) = impulses(&[1.0], 1, &[1.0], &[1.5], 0.8);
        assert_eq!((p[0], v_plus[0]), (0.0, 1.5));
    }

    #[test]
    fn restitution_out_of_range_is_refused() {
        let mut ws = LcpWorkspace::new(1);
        let a = DMatrix::from_element(1, 1, 1.0);
        let (mut p, mut v) = ([0.0], [0.0]);
        let err = solve_impulses(
            a.as_view(),
            &[-1.0],
            &[1.5],
            &[RowKind::Unilateral],
            &mut ws,
            &mut p,
            &mut v,
        );
        assert!(matches!(err, Err(ConstraintError::BadRow { row: 0, .. })));
    }
}
