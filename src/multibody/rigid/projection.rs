//! Drift correction after accepted steps: resting rows hold accelerations, so the gaps drift by
//! the integration error. Penetrations are pushed out by Gauss–Newton steps on the touching
//! points' gaps (the complementarity problem `A p + gap ≥ 0 ⊥ p ≥ 0` at the position level, the
//! correction `δ = M⁻¹ Jᵀ p` in velocity coordinates mapped to `q`), to [`POSITION_TOLERANCE`];
//! then approach velocities of resting points are removed by a plastic impulse, and resting
//! points that creep are brought to rest ([`super::settle`]).

use super::candidates::find_candidates;
use super::impact::IMPACT_VELOCITY_TOLERANCE;
use super::plastic::{plastic_impulse, stop_points};
use super::workspace::RigidWorkspace;
use super::{RigidConstraint, POSITION_TOLERANCE, SLIDING_VELOCITY};
use crate::multibody::constraints::solve_lcp;
use crate::multibody::kinematics::forward_kinematics;
use crate::multibody::mechanism::{normalize_quaternions, qdot_from_v, Mechanism};
use crate::multibody::workspace::Workspace;

/// Gauss–Newton iterations of the position correction.
const POSITION_ITERATIONS: usize = 4;

/// A loop-closure error left after the projection above this (m or rad) means the loop cannot be
/// closed (its links cannot reach each other): the run stops with an error naming the cut joint.
pub const CLOSURE_FAILURE: f64 = 1e-6;

/// Projects `(q, v)` (see the module documentation); returns whether either changed. A solver
/// failure leaves the state as it is; a loop that stays open is reported by
/// [`open_loop`].
pub fn project(
    m: &Mechanism,
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &mut [f64],
    v: &mut [f64],
) -> bool {
    let mut changed = false;
    // Whether the candidates in `rw` are those of the current (q, v).
    let mut current = false;
    for _ in 0..POSITION_ITERATIONS {
        forward_kinematics(m, q, v, ws);
        find_candidates(pairs, ws, q, v, rw);
        current = true;
        // The deepest penetration, or the largest closure error.
        let deepest = rw
            .candidates
            .iter()
            .filter(|c| c.touching())
            .fold(0.0f64, |d, c| {
                d.max(if c.bilateral { c.gap.abs() } else { -c.gap })
            });
        if deepest <= POSITION_TOLERANCE {
            break;
        }
        rw.normal_rows(|c| c.touching());
        let n = rw.rows.len();
        rw.fit_rows(m, n);
        if rw.constraint_rows.rows_matrix(m, q, &rw.rows, ws).is_err() {
            return changed;
        }
        for r in 0..n {
            rw.bias[r] = rw.candidates[rw.row_candidate[r]].gap;
        }
        rw.drop_ineffective_rows(false);
        let a = rw.constraint_rows.matrix();
        if solve_lcp(
            a,
            &rw.bias[..n],
            &rw.kinds,
            &mut rw.lcp,
            &mut rw.forces[..n],
        )
        .is_err()
        {
            return changed;
        }
        if rw
            .constraint_rows
            .velocity_change(&rw.forces[..n], &mut rw.dv)
            .is_err()
        {
            return changed;
        }
        qdot_from_v(m, q, &rw.dv, &mut rw.dq);
        for (x, d) in q.iter_mut().zip(&rw.dq) {
            *x += d;
        }
        normalize_quaternions(m, q);
        changed = true;
        current = false;
    }
    // Velocities: a plastic impulse on resting points that approach.
    if !current {
        forward_kinematics(m, q, v, ws);
        find_candidates(pairs, ws, q, v, rw);
    }
    let approaching = rw.candidates.iter().any(|c| {
        let v = c.normal_velocity;
        (c.bilateral && v.abs() > IMPACT_VELOCITY_TOLERANCE)
            || (c.resting() && v < -IMPACT_VELOCITY_TOLERANCE)
    });
    if approaching {
        rw.normal_rows(|c| c.resting());
        for r in 0..rw.rows.len() {
            rw.velocities[r] = rw.candidates[rw.row_candidate[r]].normal_velocity;
        }
        if plastic_impulse(m, rw, ws, q, v) {
            changed = true;
            forward_kinematics(m, q, v, ws);
            find_candidates(pairs, ws, q, v, rw);
        }
    }
    // Then resting points that creep are brought to rest (settle.rs).
    super::settle::settle(m, pairs, rw, ws, q, v) || changed
}

/// Ends the sliding of contact pair `pair`'s resting points that slide slower than
/// [`SLIDING_VELOCITY`] (at the located event where they stick): one impulse that brings their
/// tangential velocities to zero (their normal and tangent velocities held at zero). It stands for the last
/// instants of sliding friction, which take the remaining `|v_t| ≤ V` away in `V/(μ g)` (0.3 µs for
/// V = 1e-6 m/s, μ = 0.3): without it the contact would stick with that speed and creep on at it.
/// The normal rows are held too (the points rest: `|v_n| ≤` [`super::SEPARATING_VELOCITY`]), so
/// that the slip is not traded for a rocking motion.
/// The impulse problem is solved again (at most `STOP_PASSES` times) while a slip above
/// `10⁻⁶·V` is left: redundant tangent rows (a face's four corners) are decoupled by round-off
/// and may leave a few per cent of it. Returns whether the velocities changed.
pub fn stop_sliding(
    m: &Mechanism,
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    (q, v): (&[f64], &mut [f64]),
    pair: usize,
) -> bool {
    let mut changed = false;
    for _ in 0..STOP_PASSES {
        if !stop_sliding_once(m, pairs, rw, ws, (q, &mut *v), pair) {
            break;
        }
        changed = true;
    }
    changed
}

/// Passes of [`stop_sliding`].
const STOP_PASSES: usize = 3;

/// One pass of [`stop_sliding`]: false when nothing was left to stop (or the solve failed).
fn stop_sliding_once(
    m: &Mechanism,
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    (q, v): (&[f64], &mut [f64]),
    pair: usize,
) -> bool {
    if pairs[pair].friction() <= 0.0 {
        return false;
    }
    forward_kinematics(m, q, v, ws);
    find_candidates(pairs, ws, q, v, rw);
    stop_points(m, rw, ws, (q, v), |rw, i| {
        let c = &rw.candidates[i];
        let slip = c.slip_speed();
        c.owner == pair
            && c.resting()
            && !(slip <= 1e-6 * SLIDING_VELOCITY || slip > SLIDING_VELOCITY)
    })
}

/// The loop closure with the largest error above [`CLOSURE_FAILURE`] at `(q, v)`, with that
/// error: a loop the projection could not close.
pub fn open_loop(
    m: &Mechanism,
    constraints: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &[f64],
    v: &[f64],
) -> Option<(usize, f64)> {
    if !constraints
        .iter()
        .any(|c| matches!(c.kind, super::ConstraintKind::Loop(_)))
    {
        return None;
    }
    forward_kinematics(m, q, v, ws);
    find_candidates(constraints, ws, q, v, rw);
    rw.candidates
        .iter()
        .filter(|c| c.bilateral && c.gap.abs() > CLOSURE_FAILURE)
        .map(|c| (c.owner, c.gap.abs()))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}
