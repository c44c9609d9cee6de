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
use crate::multibody::constraints::{
    ConstraintError, ContactMotion, ContactRow, FrictionalContact, RowKind,
};
use crate::multibody::forward_dynamics;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::spatial::SpatialForce;
use crate::multibody::workspace::Workspace;
use nalgebra::Vector3;

/// A pair is loaded when a contact's normal force exceeds this fraction of the largest normal
/// force of its solve (the solve's relative tolerance; a tie's force is at rounding).
const LOADED_FRACTION: f64 = 1e-9;

/// A resting point that sticks and separates faster than this (m/s) gets no friction rows: it
/// is lifting off (its normal force about to vanish), and its polygon's variables would only
/// make the friction problem degenerate (Lemke's method then fails on a tipping box's lifted
/// corners). A tenth of [`super::SEPARATING_VELOCITY`]: far above the round-off of resting
/// points. A *sliding* point keeps its friction whatever its normal velocity: the exact law adds
/// no variable, and such a point can still carry a normal force — on the turntable, a corner of
/// the sliding block rising at 2·10⁻⁷ m/s carried 5 N without friction, so the other corners'
/// friction turned the block against the table (issue 27's spin reversal).
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
        let slip = c.relative_velocity - c.normal() * c.normal_velocity;
        let sliding = slip.norm() > SLIDING_VELOCITY;
        // A sliding point always gets its friction (the exact law adds no variable, and while
        // it carries a normal force its friction is μ·f_n); a sticking one only while it is not
        // separating (see FRICTION_SEPARATING_VELOCITY).
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
            mu > 0.0 && (sliding || c.normal_velocity <= FRICTION_SEPARATING_VELOCITY),
        ) {
            for t in c.tangents {
                rw.rows.push(ContactRow::point(body_a, body_b, point, t));
                rw.kinds.push(RowKind::Tangent);
                rw.row_candidate.push(i);
            }
            tangent_rows = 2;
        }
        rw.contacts.push(if tangent_rows > 0 && sliding {
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
    rw.slipping.fill(false);
    rw.loaded.fill(false);
    if rw.rows.is_empty() {
        rw.modes.clear();
        forward_dynamics(m, q, v, tau, f_ext, ws, vdot);
        return Ok(());
    }
    let n = rw.rows.len();
    rw.fit_rows(m, n);
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
        let c = &rw.candidates[rw.row_candidate[r]];
        match (kind, rw.rows[r]) {
            (RowKind::Tangent, ContactRow::Point { direction, .. }) => {
                rw.bias[r] += direction.dot(&c.tangent_bias);
            }
            (RowKind::Tangent, _) => {}
            _ => rw.bias[r] += c.bias,
        }
    }
    rw.drop_ineffective_rows(false);
    orient_friction_polygons(rw);
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

/// A pair's free tangential acceleration at most this fraction of its largest free acceleration
/// (`‖b‖∞` of its rows) is round-off: its polygons keep their default orientation, so that a
/// symmetric scene is not turned by noise.
const HEADING_NOISE: f64 = 1e-9;

/// Turns each sticking contact's friction polygon so that its first direction points along the
/// friction its pair needs: against the mean over the pair's points of the free relative
/// tangential acceleration `b_t = b_{t₁}·t₁ + b_{t₂}·t₂` (m/s², World), the acceleration the
/// follower would have relative to the base there without contact forces. Along that direction
/// the polygon's cap is the exact `μ f_n`, so a contact driven one way (a block on a turntable
/// spun up, a box on a slope, a pushed box) starts to slip where the friction circle says, not
/// up to `1 − cos(π/k)` earlier (1.9 % early in time on the turntable with k = 8). The mean is
/// over the pair, not per point, so that a face's corners share one polygon. Does not allocate.
fn orient_friction_polygons(rw: &mut RigidWorkspace) {
    let tangent = |rw: &RigidWorkspace, r: usize| match rw.rows[r] {
        ContactRow::Point { direction, .. } => direction,
        _ => Vector3::zeros(),
    };
    let owner = |rw: &RigidWorkspace, r: usize| rw.candidates[rw.row_candidate[r]].owner;
    let spatial_sticking =
        |c: &FrictionalContact| c.tangent_rows == 2 && c.motion == ContactMotion::Sticking;
    for i in 0..rw.contacts.len() {
        let c = rw.contacts[i];
        if !spatial_sticking(&c) {
            continue;
        }
        let pair = owner(rw, c.normal_row);
        let (mut sum, mut scale) = (Vector3::zeros(), 0.0f64);
        for other in rw.contacts.iter().filter(|o| spatial_sticking(o)) {
            let r = other.normal_row;
            if owner(rw, r) != pair {
                continue;
            }
            for t in [r + 1, r + 2] {
                sum += tangent(rw, t) * rw.bias[t];
            }
            scale = (r..r + 3).fold(scale, |s, t| s.max(rw.bias[t].abs()));
        }
        if sum.norm() <= HEADING_NOISE * scale {
            continue;
        }
        let r = c.normal_row;
        let heading = [-sum.dot(&tangent(rw, r + 1)), -sum.dot(&tangent(rw, r + 2))];
        rw.contacts[i] = c.with_heading(heading);
    }
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
        let p = &rw.problem;
        // A tie comes back with a normal force at rounding (1e-16 of the largest): loaded means
        // above the solve's relative tolerance of the group's largest normal force.
        let f_max = p
            .contacts
            .iter()
            .map(|c| p.forces[c.normal_row])
            .fold(0.0, f64::max);
        for c in &p.contacts {
            let owner = rw.candidates[rw.row_candidate[rows[c.normal_row]]].owner;
            if c.mu > 0.0 && c.tangent_rows > 0 && !p.holds_friction(c) {
                rw.slipping[owner] = true;
            }
            if p.forces[c.normal_row] > LOADED_FRACTION * f_max {
                rw.loaded[owner] = true;
            }
        }
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
