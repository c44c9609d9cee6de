//! The forces of resting contacts: Baraff's complementarity problem at the acceleration level
//! (frictionless: [`solve_lcp`]; with Coulomb friction: [`solve_frictional`]), inside the
//! mechanism's forward dynamics.
//!
//! Rows: per resting point its normal (unilateral) and, with friction, two tangents. `b` is the
//! rows' acceleration without contact forces (velocity products included) plus, for normal rows,
//! Baraff's `2 ṅ·v_rel` with `ṅ = ω_B × n` (the normal turning with the base body). The
//! constrained accelerations are `v̇ = v̇_free + M⁻¹ Jᵀ f`.

use super::workspace::RigidWorkspace;
use super::{ConstraintKind, RigidConstraint, SLIDING_VELOCITY};
use crate::multibody::constraints::{
    solve_frictional, solve_lcp, ConstraintError, ContactMotion, ContactRow, FrictionalContact,
    RowKind,
};
use crate::multibody::forward_dynamics;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::spatial::SpatialForce;
use crate::multibody::workspace::Workspace;
use nalgebra::{DMatrixView, Vector3};

/// Builds the rows of the resting candidates in `rw` (after
/// [`find_candidates`](super::candidates::find_candidates)). Returns whether any has friction.
fn resting_rows(constraints: &[RigidConstraint], rw: &mut RigidWorkspace) -> bool {
    rw.rows.clear();
    rw.kinds.clear();
    rw.contacts.clear();
    rw.row_candidate.clear();
    let mut any_friction = false;
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
        ) = (c.row, mu > 0.0)
        {
            any_friction = true;
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
        if *kind != RowKind::Tangent {
            rw.bias[r] += rw.candidates[rw.row_candidate[r]].bias;
        }
    }
    rw.drop_ineffective_rows(false);
    let frictionless_holds = any_friction && frictionless_solution_sticks(rw);
    let a = rw.constraint_rows.matrix();
    let solved = if frictionless_holds {
        Ok(())
    } else if any_friction {
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
        // Sticking problems always have a solution (b = J M⁻¹ F); Lemke's pivoting can still end
        // on a ray on the degenerate cones of faces resting on faces. Then the normal forces come
        // from the frictionless problem and friction from the cones with those normal forces.
        // With a sliding contact the failure may be Painlevé's paradox: reported.
        let all_sticking = rw
            .contacts
            .iter()
            .all(|c| c.motion == ContactMotion::Sticking);
        if !(all_sticking && frictionless_normal_forces(rw) && sticking_friction(rw)) {
            return Err(named(e, rw));
        }
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
        if rw.kinds[r] != RowKind::Tangent {
            rw.row_force[c] = rw.forces[r];
        }
        if let ContactRow::Point { direction, .. } = rw.rows[r] {
            rw.point_force[c] += direction * rw.forces[r];
        }
    }
    Ok(())
}

/// Tries the problem without friction first (Baraff's method, robust to the redundant rows of
/// faces resting on faces): when every frictional contact sticks and the frictionless forces
/// leave every tangential acceleration at zero (within 10⁻⁹ of the problem's scale), they solve
/// the frictional problem too, with zero friction (inside every cone). A stack resting on level
/// ground is solved this way, without Lemke's pivoting on its degenerate polyhedral cones.
/// Leaves the forces in `rw.forces` when it returns true.
fn frictionless_solution_sticks(rw: &mut RigidWorkspace) -> bool {
    if rw
        .contacts
        .iter()
        .any(|c| c.motion != ContactMotion::Sticking)
    {
        return false;
    }
    if !frictionless_normal_forces(rw) {
        return false;
    }
    let n = rw.rows.len();
    let scale = rw.bias[..n].iter().fold(1.0f64, |s, b| s.max(b.abs()));
    let a = rw.constraint_rows.matrix();
    (0..n)
        .filter(|&r| rw.kinds[r] == RowKind::Tangent)
        .all(|r| row_acceleration(a, &rw.forces[..n], rw.bias[r], r).abs() <= 1e-9 * scale)
}

/// `Σ_j A_rj f_j + b_r`.
fn row_acceleration(a: DMatrixView<'_, f64>, f: &[f64], b: f64, r: usize) -> f64 {
    f.iter()
        .enumerate()
        .map(|(j, fj)| a[(r, j)] * fj)
        .sum::<f64>()
        + b
}

/// Solves the normal rows alone (no friction) into `rw.forces` (tangent forces zero).
fn frictionless_normal_forces(rw: &mut RigidWorkspace) -> bool {
    let n = rw.rows.len();
    rw.sub_rows.clear();
    rw.sub_rows
        .extend((0..n).filter(|&r| rw.kinds[r] != RowKind::Tangent));
    let m = rw.sub_rows.len();
    let a = rw.constraint_rows.matrix();
    for (i, &ri) in rw.sub_rows.iter().enumerate() {
        for (j, &rj) in rw.sub_rows.iter().enumerate() {
            rw.sub_matrix[(i, j)] = a[(ri, rj)];
        }
        rw.sub_velocities[i] = rw.bias[ri];
        rw.sub_kinds[i] = rw.kinds[ri];
    }
    let solved = solve_lcp(
        rw.sub_matrix.view((0, 0), (m, m)),
        &rw.sub_velocities[..m],
        &rw.sub_kinds[..m],
        &mut rw.lcp,
        &mut rw.sub_impulses[..m],
    );
    if solved.is_err() {
        return false;
    }
    rw.forces[..n].iter_mut().for_each(|f| *f = 0.0);
    for (i, &ri) in rw.sub_rows.iter().enumerate() {
        rw.forces[ri] = rw.sub_impulses[i];
    }
    true
}

/// Sweeps of [`sticking_friction`].
const FRICTION_SWEEPS: usize = 200;

/// Friction of sticking contacts with the normal forces in `rw.forces` held: projected
/// Gauss–Seidel on the tangent rows, each contact's friction kept in its disk `|f_t| ≤ μ f_n`,
/// until a sweep changes no force by more than 10⁻¹² of the largest. Returns false when it does
/// not settle.
fn sticking_friction(rw: &mut RigidWorkspace) -> bool {
    let n = rw.rows.len();
    let a = rw.constraint_rows.matrix();
    let largest = rw.forces[..n].iter().fold(0.0f64, |m, f| m.max(f.abs()));
    for _ in 0..FRICTION_SWEEPS {
        let mut change = 0.0f64;
        for c in rw.contacts.iter().filter(|c| c.tangent_rows == 2) {
            let (r1, r2) = (c.normal_row + 1, c.normal_row + 2);
            let mut f = [rw.forces[r1], rw.forces[r2]];
            for (k, r) in [r1, r2].into_iter().enumerate() {
                let at = row_acceleration(a, &rw.forces[..n], rw.bias[r], r);
                if a[(r, r)] > 0.0 {
                    f[k] -= at / a[(r, r)];
                }
            }
            let limit = c.mu * rw.forces[c.normal_row];
            let norm = f[0].hypot(f[1]);
            if norm > limit {
                f = [f[0] * limit / norm, f[1] * limit / norm];
            }
            change = change
                .max((f[0] - rw.forces[r1]).abs())
                .max((f[1] - rw.forces[r2]).abs());
            rw.forces[r1] = f[0];
            rw.forces[r2] = f[1];
        }
        if change <= 1e-12 * largest.max(f64::MIN_POSITIVE) {
            return true;
        }
    }
    false
}

/// A solver error as a message naming the RigidContact block of the row concerned.
pub fn describe(
    e: ConstraintError,
    constraints: &[RigidConstraint],
    rw: &RigidWorkspace,
) -> String {
    let owner_of_row = |row: usize| {
        rw.row_candidate
            .get(row)
            .and_then(|&c| rw.candidates.get(c))
            .map(|c| &constraints[c.owner])
    };
    match e.row().and_then(owner_of_row) {
        Some(c) => match c.kind {
            ConstraintKind::Contact(_) => format!("rigid contact '{}': {e}", c.label),
            ConstraintKind::Limit(_) => format!("joint limit of '{}': {e}", c.label),
            ConstraintKind::Loop(_) => format!("loop closed by joint '{}': {e}", c.label),
        },
        None => format!("rigid constraints: {e}"),
    }
}
