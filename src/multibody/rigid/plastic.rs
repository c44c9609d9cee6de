//! Plastic impulses on chosen rows: what the drift projection, the stop of a slide at its
//! located event and the settle of creeping points (`settle.rs`) share, kept below them.

use super::problem::decouple;
use super::workspace::RigidWorkspace;
use crate::multibody::constraints::{solve_impulses, ContactRow, RowKind};
use crate::multibody::mechanism::Mechanism;
use crate::multibody::workspace::Workspace;

/// The plastic impulse on the rows in `rw` (their velocities in `rw.velocities`, restitution
/// 0): unilateral rows end not approaching, bilateral rows at rest; `v` changes by `M⁻¹Jᵀp`.
/// False (and `v` untouched) when there are no rows or a solve fails.
pub(super) fn plastic_impulse(
    m: &Mechanism,
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &[f64],
    v: &mut [f64],
) -> bool {
    let n = rw.rows.len();
    rw.fit_rows(m, n);
    if n == 0 || rw.constraint_rows.rows_matrix(m, q, &rw.rows, ws).is_err() {
        return false;
    }
    rw.restitution[..n].fill(0.0);
    rw.drop_ineffective_rows(true);
    if solve_velocity_rows(rw, n).is_err()
        || rw
            .constraint_rows
            .velocity_change(&rw.forces[..n], &mut rw.dv)
            .is_err()
    {
        return false;
    }
    for (x, d) in v.iter_mut().zip(&rw.dv) {
        *x += d;
    }
    true
}

/// Brings the point candidates of `rw` that `keep` selects to rest along their normal and
/// tangents (all rows bilateral) with one plastic impulse on `v` (see [`plastic_impulse`]);
/// returns whether `v` changed.
pub(super) fn stop_points(
    m: &Mechanism,
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    (q, v): (&[f64], &mut [f64]),
    keep: impl Fn(&RigidWorkspace, usize) -> bool,
) -> bool {
    rw.rows.clear();
    rw.kinds.clear();
    rw.row_candidate.clear();
    for i in 0..rw.candidates.len() {
        let (row, tangents) = (rw.candidates[i].row, rw.candidates[i].tangents);
        let ContactRow::Point {
            body_a,
            body_b,
            point,
            ..
        } = row
        else {
            continue;
        };
        if !keep(rw, i) {
            continue;
        }
        rw.rows.push(row);
        rw.kinds.push(RowKind::Bilateral);
        rw.row_candidate.push(i);
        for t in tangents {
            rw.rows.push(ContactRow::point(body_a, body_b, point, t));
            rw.kinds.push(RowKind::Bilateral);
            rw.row_candidate.push(i);
        }
    }
    for r in 0..rw.rows.len() {
        let c = &rw.candidates[rw.row_candidate[r]];
        rw.velocities[r] = match rw.rows[r] {
            ContactRow::Point { direction, .. } => direction.dot(&c.relative_velocity),
            _ => 0.0,
        };
    }
    plastic_impulse(m, rw, ws, q, v)
}

/// The plastic impulse problem of the first `n` rows (velocities in `rw.velocities`) into
/// `rw.forces`. Redundant bilateral rows inconsistent with the others by round-off (the
/// tangents of a face's four corners) are decoupled with a zero impulse, and the problem solved
/// again.
fn solve_velocity_rows(
    rw: &mut RigidWorkspace,
    n: usize,
) -> Result<(), crate::multibody::constraints::ConstraintError> {
    use crate::multibody::constraints::ConstraintError;
    rw.sub_matrix
        .view_mut((0, 0), (n, n))
        .copy_from(&rw.constraint_rows.matrix());
    for _ in 0..=n {
        let solved = solve_impulses(
            rw.sub_matrix.view((0, 0), (n, n)),
            &rw.velocities[..n],
            &rw.restitution[..n],
            &rw.kinds,
            &mut rw.lcp,
            &mut rw.forces[..n],
            &mut rw.velocities_after[..n],
        );
        match solved {
            Err(ConstraintError::Infeasible { row }) if rw.kinds[row] == RowKind::Bilateral => {
                decouple(&mut rw.sub_matrix, n, row);
                rw.velocities[row] = 0.0;
            }
            other => return other.map(|_| ()),
        }
    }
    Err(ConstraintError::PivotLimit { row: 0, pivots: n })
}
