//! Collisions: the impulse problem over the touching points at a located impact (see the
//! [module documentation](super)).
//!
//! Rows are the normals of every touching point and, for contact points of pairs with friction,
//! their two tangents. Serial resolution (the default) repeatedly takes
//! the pair whose point approaches fastest and solves the impulse problem of that pair's points
//! alone (all of them at once, so a face landing flat does not spin), with Newton's law
//! `v⁺ = −e·v⁻` per point (e = 0 for points arriving slower than the pair's `rest_velocity`),
//! until no touching point approaches: a ball striking a row of touching balls passes its
//! velocity down the row (Newton's cradle). Pairs that ask for simultaneous resolution are solved
//! together in one problem. A round without friction is the velocity-level problem of
//! [`solve_impulses`] (Newton's law per row); a round with friction is the two-phase problem of
//! [`solve_frictional_impulses`] (compression with friction, then restitution to Newton's target
//! with friction, capped so that kinetic energy never grows). The velocities jump by `M⁻¹ Jᵀ p`.

use super::candidates::find_candidates;
use super::problem::gather;
use super::resting::describe;
use super::workspace::RigidWorkspace;
use super::{ImpactOrder, RigidConstraint};
use crate::multibody::constraints::{
    solve_frictional_impulses, solve_impulses, ContactRow, FrictionalContact, RowKind,
};
use crate::multibody::kinematics::forward_kinematics;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::workspace::Workspace;

/// Touching points approaching slower than this (m/s) are left as they are: they rest.
pub const IMPACT_VELOCITY_TOLERANCE: f64 = 1e-9;

/// Rounds of serial resolution per pair before the rest is settled plastically in one problem.
const ROUNDS_PER_PAIR: usize = 50;

/// Resolves the impacts at `(q, v)`: changes `v` so that no touching point approaches, and writes
/// each pair's total normal impulse (N·s, friction impulses not included) to `rw.pair_impulse`. Returns whether `v` changed.
///
/// # Errors
/// A message naming the pair when an impulse problem cannot be solved.
pub fn resolve_impacts(
    m: &Mechanism,
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &[f64],
    v: &mut [f64],
) -> Result<bool, String> {
    forward_kinematics(m, q, v, ws);
    find_candidates(pairs, ws, q, v, rw);
    impact_rows(pairs, rw);
    rw.pair_impulse.iter_mut().for_each(|p| *p = 0.0);
    if rw.rows.is_empty() {
        return Ok(false);
    }
    rw.fit_rows(m, rw.rows.len());
    if let Err(e) = rw.constraint_rows.rows_matrix(m, q, &rw.rows, ws) {
        return Err(describe(e, pairs, rw));
    }
    let mut changed = false;
    let rounds = ROUNDS_PER_PAIR * pairs.len().max(1);
    for round in 0..=rounds {
        row_velocities(rw, v);
        rw.drop_ineffective_rows(true);
        let Some(fastest) = fastest_approach(rw) else {
            break;
        };
        let plastic = round == rounds;
        let pair = rw.candidates[rw.row_candidate[fastest]].owner;
        select_rows(pairs, rw, pair, plastic);
        solve_round(pairs, rw, plastic)?;
        for (x, d) in v.iter_mut().zip(&rw.dv) {
            *x += d;
        }
        changed = true;
    }
    Ok(changed)
}

/// The rows of an impact: every touching candidate's normal row and, for a contact point of a
/// pair with friction, its two tangent rows (the contact in `rw.contacts`).
fn impact_rows(pairs: &[RigidConstraint], rw: &mut RigidWorkspace) {
    rw.rows.clear();
    rw.kinds.clear();
    rw.contacts.clear();
    rw.row_candidate.clear();
    for (i, c) in rw.candidates.iter().enumerate() {
        if !c.touching() {
            continue;
        }
        let normal_row = rw.rows.len();
        rw.rows.push(c.row);
        rw.kinds.push(c.kind());
        rw.row_candidate.push(i);
        let mu = pairs[c.owner].friction();
        if let (
            ContactRow::Point {
                body_a,
                body_b,
                point,
                ..
            },
            true,
        ) = (c.row, mu > 0.0)
        {
            for t in c.tangents {
                rw.rows.push(ContactRow::point(body_a, body_b, point, t));
                rw.kinds.push(RowKind::Tangent);
                rw.row_candidate.push(i);
            }
            rw.contacts
                .push(FrictionalContact::sticking(normal_row, 2, mu));
        }
    }
}

/// `rw.velocities = J v` for the rows of the last `rows_matrix`.
fn row_velocities(rw: &mut RigidWorkspace, v: &[f64]) {
    let j = rw.constraint_rows.jacobian();
    for r in 0..rw.rows.len() {
        rw.velocities[r] = (0..v.len()).map(|k| j[(r, k)] * v[k]).sum();
    }
}

/// The row approaching fastest, if any approaches faster than the tolerance.
fn fastest_approach(rw: &RigidWorkspace) -> Option<usize> {
    (0..rw.rows.len())
        .filter(|&r| rw.kinds[r] == RowKind::Unilateral)
        .filter(|&r| rw.velocities[r] < -IMPACT_VELOCITY_TOLERANCE)
        .min_by(|&a, &b| rw.velocities[a].total_cmp(&rw.velocities[b]))
}

/// The rows of this round: `pair`'s (serial), every simultaneous pair's, or all (`plastic`).
fn select_rows(pairs: &[RigidConstraint], rw: &mut RigidWorkspace, pair: usize, plastic: bool) {
    rw.sub_rows.clear();
    let together = pairs[pair].impacts() == ImpactOrder::Simultaneous;
    for r in 0..rw.rows.len() {
        let k = rw.candidates[rw.row_candidate[r]].owner;
        // Loop closures take part in every impact (their velocities must stay consistent).
        let take = plastic
            || k == pair
            || rw.kinds[r] == RowKind::Bilateral
            || (together && pairs[k].impacts() == ImpactOrder::Simultaneous);
        if take {
            rw.sub_rows.push(r);
        }
    }
}

/// Solves the impulse problem of `rw.sub_rows` and leaves the velocity jump in `rw.dv`.
fn solve_round(
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    plastic: bool,
) -> Result<(), String> {
    let n = rw.sub_rows.len();
    {
        gather(
            rw.constraint_rows.matrix(),
            &rw.sub_rows,
            &mut rw.sub_matrix,
        );
        for (i, &ri) in rw.sub_rows.iter().enumerate() {
            let c = &rw.candidates[rw.row_candidate[ri]];
            let pair = &pairs[c.owner];
            let v_minus = rw.velocities[ri];
            rw.sub_velocities[i] = v_minus;
            rw.sub_restitution[i] = if !plastic && -v_minus > pair.rest_velocity {
                pair.restitution
            } else {
                0.0
            };
            rw.sub_kinds[i] = rw.kinds[ri];
        }
    }
    // The frictional contacts of this round, numbered in its rows (`sub_rows` is ascending).
    let buffers = &mut rw.impact;
    buffers.contacts.clear();
    for c in &rw.contacts {
        if let Ok(local) = rw.sub_rows.binary_search(&c.normal_row) {
            buffers.contacts.push(FrictionalContact {
                normal_row: local,
                ..*c
            });
        }
    }
    let solved = if buffers.contacts.is_empty() {
        solve_impulses(
            rw.sub_matrix.view((0, 0), (n, n)),
            &rw.sub_velocities[..n],
            &rw.sub_restitution[..n],
            &rw.sub_kinds[..n],
            &mut rw.lcp,
            &mut rw.sub_impulses[..n],
            &mut rw.sub_after[..n],
        )
        .map(|_| ())
    } else {
        solve_frictional_impulses(
            rw.sub_matrix.view((0, 0), (n, n)),
            &rw.sub_velocities[..n],
            &rw.sub_restitution[..n],
            &rw.sub_kinds[..n],
            &buffers.contacts,
            &mut buffers.solver,
            &mut rw.sub_impulses[..n],
            &mut rw.sub_after[..n],
        )
        .map(|_| ())
    };
    if let Err(e) = solved {
        // Name the pair of the sub-problem's row.
        let row = e.row().and_then(|r| rw.sub_rows.get(r).copied());
        let label = row
            .map(|r| {
                pairs[rw.candidates[rw.row_candidate[r]].owner]
                    .label
                    .as_str()
            })
            .unwrap_or("?");
        return Err(format!("rigid contact '{label}': impact: {e}"));
    }
    let rows = rw.rows.len();
    rw.forces[..rows].iter_mut().for_each(|f| *f = 0.0);
    for (i, &r) in rw.sub_rows.iter().enumerate() {
        rw.forces[r] = rw.sub_impulses[i];
        if rw.kinds[r] != RowKind::Tangent {
            let pair = rw.candidates[rw.row_candidate[r]].owner;
            rw.pair_impulse[pair] += rw.sub_impulses[i];
        }
    }
    rw.constraint_rows
        .velocity_change(&rw.forces[..rows], &mut rw.dv)
        .map_err(|e| describe(e, pairs, rw))
}
