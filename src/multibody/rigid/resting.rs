//! The forces of resting contacts: Baraff's complementarity problem at the acceleration level
//! (frictionless: [`solve_lcp`]; with Coulomb friction: [`solve_frictional`]), inside the
//! mechanism's forward dynamics.
//!
//! Rows: per resting point its normal (unilateral) and, with friction, two tangents. `b` is the
//! rows' acceleration without contact forces (velocity products included) plus, for normal rows,
//! Baraff's `2 ṅ·v_rel` with `ṅ = ω_B × n` (the normal turning with the base body). The
//! constrained accelerations are `v̇ = v̇_free + M⁻¹ Jᵀ f`.

use super::workspace::RigidWorkspace;
use super::{RigidPair, SLIDING_VELOCITY};
use crate::multibody::constraints::{
    solve_frictional, solve_lcp, ConstraintError, ContactRow, FrictionalContact, RowKind,
};
use crate::multibody::forward_dynamics;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::spatial::SpatialForce;
use crate::multibody::workspace::Workspace;
use nalgebra::Vector3;

/// Builds the rows of the resting candidates in `rw` (after
/// [`find_candidates`](super::candidates::find_candidates)). Returns whether any has friction.
fn resting_rows(pairs: &[RigidPair], rw: &mut RigidWorkspace) -> bool {
    rw.rows.clear();
    rw.kinds.clear();
    rw.contacts.clear();
    rw.row_candidate.clear();
    let mut any_friction = false;
    for (i, c) in rw.candidates.iter().enumerate() {
        if !c.resting() {
            continue;
        }
        let pair = &pairs[c.pair];
        let (a, b) = (pair.base.body, pair.follower.body);
        let normal_row = rw.rows.len();
        rw.rows.push(ContactRow::point(a, b, c.point, c.normal));
        rw.kinds.push(RowKind::Unilateral);
        rw.row_candidate.push(i);
        let tangent_rows = if pair.friction > 0.0 {
            any_friction = true;
            for t in c.tangents {
                rw.rows.push(ContactRow::point(a, b, c.point, t));
                rw.kinds.push(RowKind::Tangent);
                rw.row_candidate.push(i);
            }
            2
        } else {
            0
        };
        let slip = c.relative_velocity - c.normal * c.normal_velocity;
        rw.contacts.push(if slip.norm() > SLIDING_VELOCITY {
            let velocity = [slip.dot(&c.tangents[0]), slip.dot(&c.tangents[1])];
            FrictionalContact::sliding(normal_row, tangent_rows, pair.friction, velocity)
        } else {
            FrictionalContact::sticking(normal_row, tangent_rows, pair.friction)
        });
    }
    any_friction
}

/// The constrained accelerations `vdot` (nv) at `(q, v)` under the actuation `tau` and external
/// wrenches `f_ext` (as [`forward_dynamics`] takes them), with the resting contacts of `rw`'s
/// candidates; the contact force of each candidate goes to `rw.point_force`.
///
/// # Errors
/// A message naming the pair (its block) when the problem has no solution the solvers find
/// (Painlevé's paradox, inconsistent constraints) or is ill-posed.
#[allow(clippy::too_many_arguments)]
pub fn constrained_accelerations(
    m: &Mechanism,
    pairs: &[RigidPair],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &[f64],
    v: &[f64],
    tau: &[f64],
    f_ext: &[SpatialForce],
    vdot: &mut [f64],
) -> Result<(), String> {
    rw.point_force
        .iter_mut()
        .for_each(|f| *f = Vector3::zeros());
    let any_friction = resting_rows(pairs, rw);
    if rw.rows.is_empty() {
        forward_dynamics(m, q, v, tau, f_ext, ws, vdot);
        return Ok(());
    }
    let n = rw.rows.len();
    let named = |e: ConstraintError, rw: &RigidWorkspace| describe(e, pairs, rw);
    if let Err(e) = rw.constraint_rows.rows_matrix(m, q, &rw.rows, ws) {
        return Err(named(e, rw));
    }
    if let Err(e) = rw
        .constraint_rows
        .rows_acceleration_bias(m, q, v, tau, f_ext, &rw.rows, ws)
    {
        return Err(named(e, rw));
    }
    rw.bias[..n].copy_from_slice(rw.constraint_rows.bias());
    for (r, kind) in rw.kinds.iter().enumerate() {
        if *kind == RowKind::Unilateral {
            let c = &rw.candidates[rw.row_candidate[r]];
            let n_dot = c.base_angular_velocity.cross(&c.normal);
            rw.bias[r] += 2.0 * n_dot.dot(&c.relative_velocity);
        }
    }
    let a = rw.constraint_rows.matrix();
    let solved = if any_friction {
        solve_frictional(
            a,
            &rw.bias[..n],
            &rw.kinds,
            &rw.contacts,
            &mut rw.friction,
            &mut rw.forces[..n],
        )
        .map(|_| ())
    } else {
        solve_lcp(
            a,
            &rw.bias[..n],
            &rw.kinds,
            &mut rw.lcp,
            &mut rw.forces[..n],
        )
        .map(|_| ())
    };
    if let Err(e) = solved {
        return Err(named(e, rw));
    }
    vdot.copy_from_slice(rw.constraint_rows.free_acceleration());
    if let Err(e) = rw
        .constraint_rows
        .velocity_change(&rw.forces[..n], &mut rw.dv)
    {
        return Err(named(e, rw));
    }
    for (x, d) in vdot.iter_mut().zip(&rw.dv) {
        *x += d;
    }
    for r in 0..n {
        let c = rw.row_candidate[r];
        let direction = match rw.rows[r] {
            ContactRow::Point { direction, .. } => direction,
            ContactRow::Coordinate { .. } => continue,
        };
        rw.point_force[c] += direction * rw.forces[r];
    }
    Ok(())
}

/// A solver error as a message naming the RigidContact block of the row concerned.
pub fn describe(e: ConstraintError, pairs: &[RigidPair], rw: &RigidWorkspace) -> String {
    let pair_of_row = |row: usize| {
        rw.row_candidate
            .get(row)
            .and_then(|&c| rw.candidates.get(c))
            .map(|c| pairs[c.pair].label.as_str())
    };
    match e.row().and_then(pair_of_row) {
        Some(label) => format!("rigid contact '{label}': {e}"),
        None => format!("rigid contact: {e}"),
    }
}
