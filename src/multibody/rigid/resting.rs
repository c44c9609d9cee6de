//! The forces of resting contacts: Baraff's complementarity problem at the acceleration level
//! (frictionless: `solve_lcp`; with Coulomb friction: `solve_frictional`), inside the
//! mechanism's forward dynamics.
//!
//! Rows: per resting point its normal (unilateral) and, with friction, two tangents. `b` is the
//! rows' acceleration without contact forces (velocity products included) plus, for normal rows,
//! Baraff's `2 ṅ·v_rel` with `ṅ = ω_B × n` (the normal turning with the base body). The
//! constrained accelerations are `v̇ = v̇_free + M⁻¹ Jᵀ f`.

use super::modes::record_modes;
use super::workspace::RigidWorkspace;
use super::{ConstraintKind, RigidConstraint, SLIDING_VELOCITY};
use crate::multibody::constraints::{ConstraintError, ContactRow, FrictionalContact, RowKind};
use crate::multibody::forward_dynamics;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::spatial::SpatialForce;
use crate::multibody::workspace::Workspace;
use nalgebra::Vector3;

/// A resting point separating faster than this (m/s) gets no friction rows: it has lifted off
/// (its normal force is zero, so is its friction), and its tangent rows would only make the
/// friction problem degenerate (Lemke's method then fails on a tipping box's lifted corners).
/// A tenth of [`super::SEPARATING_VELOCITY`]: far above the round-off of resting points.
const FRICTION_SEPARATING_VELOCITY: f64 = 0.1 * super::SEPARATING_VELOCITY;

/// Builds the rows of the resting candidates in `rw` (after
/// [`find_candidates`](super::candidates::find_candidates)).
fn resting_rows(constraints: &[RigidConstraint], rw: &mut RigidWorkspace) {
    rw.rows.clear();
    rw.kinds.clear();
    rw.contacts.clear();
    rw.row_candidate.clear();
    for (i, c) in rw.candidates.iter().enumerate() {
        if !c.resting() {
            continue;
        }
        let mu = constraints[c.owner].friction();
        let normal_row = rw.rows.len();
        rw.rows.push(c.row);
        rw.kinds.push(c.kind());
        rw.row_candidate.push(i);
        let mut tangent_rows = 0;
        if let (
            ContactRow::Point {
                body_a,
                body_b,
                point,
                ..
            },
            true,
        ) = (
            c.row,
            mu > 0.0 && c.normal_velocity <= FRICTION_SEPARATING_VELOCITY,
        ) {
            for t in c.tangents {
                rw.rows.push(ContactRow::point(body_a, body_b, point, t));
                rw.kinds.push(RowKind::Tangent);
                rw.row_candidate.push(i);
            }
            tangent_rows = 2;
        }
        let slip = c.relative_velocity - c.normal() * c.normal_velocity;
        rw.contacts
            .push(if tangent_rows > 0 && slip.norm() > SLIDING_VELOCITY {
                let velocity = [slip.dot(&c.tangents[0]), slip.dot(&c.tangents[1])];
                FrictionalContact::sliding(normal_row, tangent_rows, mu, velocity)
            } else {
                FrictionalContact::sticking(normal_row, tangent_rows, mu)
            });
    }
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
    pairs: &[RigidConstraint],
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
    rw.row_force.iter_mut().for_each(|f| *f = 0.0);
    resting_rows(pairs, rw);
    if rw.rows.is_empty() {
        rw.modes.clear();
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
        if *kind != RowKind::Tangent {
            rw.bias[r] += rw.candidates[rw.row_candidate[r]].bias;
        }
    }
    rw.drop_ineffective_rows(false);
    solve_groups(m, pairs, rw)?;
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
        if rw.kinds[r] != RowKind::Tangent {
            rw.row_force[c] = rw.forces[r];
        }
        if let ContactRow::Point { direction, .. } = rw.rows[r] {
            rw.point_force[c] += direction * rw.forces[r];
        }
    }
    record_modes(rw);
    Ok(())
}

/// Solves the rows of `rw` group by group (rows sharing no moving subtree of the mechanism are
/// independent: `A` is block diagonal over the groups), into `rw.forces`.
fn solve_groups(
    m: &Mechanism,
    constraints: &[RigidConstraint],
    rw: &mut RigidWorkspace,
) -> Result<(), String> {
    let n = rw.rows.len();
    rw.couples.clear();
    for r in 0..n {
        let couple = match rw.rows[r] {
            ContactRow::Point { body_a, body_b, .. }
            | ContactRow::Rotation { body_a, body_b, .. } => {
                [rw.root_of_body[body_a], rw.root_of_body[body_b]]
            }
            ContactRow::Coordinate { index, .. } => [rw.root_of_body[rw.body_of_dof[index]], 0],
        };
        rw.couples.push(couple);
    }
    let groups = rw
        .groups
        .partition(m.num_bodies(), &rw.couples)
        .map_err(|e| describe(e, constraints, rw))?;
    for g in 0..groups {
        let a = rw.constraint_rows.matrix();
        let rows = rw.groups.rows(g);
        let p = &mut rw.problem;
        p.n = rw.groups.gather(g, a, &rw.bias, &mut p.a, &mut p.b);
        p.kinds.clear();
        p.kinds.extend(rows.iter().map(|&r| rw.kinds[r]));
        p.contacts.clear();
        for c in &rw.contacts {
            if let Ok(local) = rows.binary_search(&c.normal_row) {
                p.contacts.push(FrictionalContact {
                    normal_row: local,
                    ..*c
                });
            }
        }
        if let Err(e) = p.solve() {
            let global = e.row().and_then(|r| rows.get(r).copied());
            return Err(describe_row(e, global, constraints, rw));
        }
        rw.groups.scatter(g, &rw.problem.forces, &mut rw.forces);
    }
    Ok(())
}

/// A solver error as a message naming the RigidContact block of the row concerned.
pub fn describe(
    e: ConstraintError,
    constraints: &[RigidConstraint],
    rw: &RigidWorkspace,
) -> String {
    let row = e.row();
    describe_row(e, row, constraints, rw)
}

/// A solver error as a message naming the constraint of problem row `row` (when known).
fn describe_row(
    e: ConstraintError,
    row: Option<usize>,
    constraints: &[RigidConstraint],
    rw: &RigidWorkspace,
) -> String {
    let owner_of_row = |row: usize| {
        rw.row_candidate
            .get(row)
            .and_then(|&c| rw.candidates.get(c))
            .map(|c| &constraints[c.owner])
    };
    match row.and_then(owner_of_row) {
        Some(c) => match c.kind {
            ConstraintKind::Contact(_) => format!("rigid contact '{}': {e}", c.label),
            ConstraintKind::Limit(_) => format!("joint limit of '{}': {e}", c.label),
            ConstraintKind::Loop(_) => format!("loop closed by joint '{}': {e}", c.label),
        },
        None => format!("rigid constraints: {e}"),
    }
}
