//! The mechanism block's motion inputs and drive outputs (issue 31).
//!
//! **Motion inputs.** A joint with `motion` sends `[q_ref; w_ref; a_ref]` (3·nv values, its own
//! coordinate order) through a hidden input. The mechanism evaluates everything — body kinematics,
//! joint outputs, dynamics, rigid constraints — at the *effective* state: its state `x = [q; v]`
//! with the prescribed coordinates replaced by `q_ref` and `w_ref`, so a driven coordinate follows
//! its reference to round-off. The prescribed accelerations go to the hybrid ABA
//! ([`crate::multibody::prescribed`]). The prescribed coordinates keep their places in the state
//! (checkpoints and parameter sets see the same layout) with `q̇ = w_ref`, `v̇ = a_ref`, and are
//! set to the reference at the start and at every event.
//!
//! **Drive outputs.** Per joint, a hidden output `drive_<j>` = `[τ_act (nv); f (3); n (3)]`: the
//! actuator force of each prescribed axis (the residual of its equation of motion, see
//! [`crate::multibody::prescribed`]; zero on free axes) and the reaction wrench
//! ([`crate::multibody::reaction`]) in the frame the joint asked for. It depends on every input.
//! Computed only when some joint reads it: one RNEA over the solved accelerations.

use crate::block::Io;
use crate::multibody::rigid::{ConstraintKind, RigidConstraint, RigidWorkspace};
use crate::multibody::rotation_vector::rotation_vector_to_quaternion;
use crate::multibody::weld::weld_reaction;
use crate::multibody::{
    body_pose, forward_dynamics, inverse_dynamics, joint_reaction, passive_forces, FrameId,
    JointId, Mechanism, ReactionFrame, SpatialForce, Workspace,
};
use nalgebra::Vector3;
use std::ops::Range;

/// What a hidden input of the mechanism carries.
#[derive(Clone, Debug)]
pub(super) enum InputRole {
    /// Actuation of the joint whose velocity coordinates are `range`.
    Actuation(Range<usize>),
    /// A wrench on body `b`, applied at the frame (if known) it was connected to.
    Wrench(usize, Option<FrameId>),
    /// A joint's motion reference (see `mechanism_drive.rs`).
    Motion,
}

/// One driven joint's motion input.
#[derive(Clone, Debug)]
pub(super) struct MotionInput {
    /// The mechanism input carrying `[q_ref; w_ref; a_ref]`.
    pub input: usize,
    /// The joint's coordinates in q and v.
    pub q: Range<usize>,
    pub v: Range<usize>,
    /// Which of the joint's axes are prescribed.
    pub axes: Vec<bool>,
    /// For a quaternion joint: the offset of its rotational triple in the joint's v (and in
    /// the reference's each part, which holds the rotation vector there) and of its quaternion
    /// in the joint's q (see [`crate::multibody::rotation_vector`]).
    pub rotation: Option<(usize, usize)>,
    /// The joint.
    pub joint: JointId,
}

/// One joint's drive output.
#[derive(Clone, Debug)]
pub(super) struct DriveOutput {
    /// The joint.
    pub joint: JointId,
    /// The mechanism output.
    pub output: usize,
    /// The frame its reaction is resolved in.
    pub frame: ReactionFrame,
    /// Whether some block reads it.
    pub used: bool,
}

/// Buffers of the motion inputs and drive outputs (sized once, never reallocated). Each group
/// is sized only for a mechanism that uses it, empty otherwise: the motion inputs' (`effective`,
/// `a_ref`, `raw`, `drift`, `last_ref`) when it has motion inputs, the drive outputs' (`vdot`,
/// `tau_id`, `passive`, `f_total`) when a drive output is read. A 20,000-joint URDF chain has
/// neither, and its two groups were 2.4 MB in each engine (`check` makes two; issue 28, part 3).
#[derive(Clone, Debug)]
pub(super) struct DriveScratch {
    /// The effective state [q; v].
    pub effective: Vec<f64>,
    /// Prescribed accelerations (nv; zero elsewhere).
    pub a_ref: Vec<f64>,
    /// Solved accelerations when no rigid constraint solves them (nv).
    pub vdot: Vec<f64>,
    /// Inverse dynamics and passive forces (nv each).
    pub tau_id: Vec<f64>,
    pub passive: Vec<f64>,
    /// Applied wrenches with the rigid constraints' forces (one per body).
    pub f_total: Vec<SpatialForce>,
    /// The raw state `effective` was last made from (to tell whether it is the accepted point's).
    pub raw: Vec<f64>,
    /// Per motion input: the total and the largest per-step distance (m or rad) between the
    /// driven positions integrated from `w_ref` and `q_ref` at the accepted points, and the
    /// distance `q_ref` itself travelled between them.
    pub drift: Vec<Drift>,
    /// The driven positions (q_ref) at the last accepted point (NaN before the first).
    pub last_ref: Vec<f64>,
}

/// How far a motion input's integrated positions moved from `q_ref` over a run (see
/// [`sync_to_references`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Drift {
    /// Sum over the accepted steps of the largest gap |q − q_ref| (m or rad).
    pub total: f64,
    /// The largest gap of one step.
    pub largest: f64,
    /// Sum over the accepted steps of the largest |Δq_ref| (m or rad): the reference's path.
    pub path: f64,
}

impl DriveScratch {
    /// Buffers for `m` with `motions` motion inputs, and for its drive outputs when
    /// `outputs_read` (some drive output is read: [`write_drive_outputs`] runs).
    pub fn new(m: &Mechanism, motions: usize, outputs_read: bool) -> Self {
        let (nq, nv) = (m.nq(), m.nv());
        let driven = |n: usize| if motions > 0 { n } else { 0 };
        let read = |n: usize| if outputs_read { n } else { 0 };
        Self {
            raw: vec![0.0; driven(nq + nv)],
            drift: vec![Drift::default(); motions],
            last_ref: vec![f64::NAN; driven(nq)],
            effective: vec![0.0; driven(nq + nv)],
            a_ref: vec![0.0; driven(nv)],
            vdot: vec![0.0; read(nv)],
            tau_id: vec![0.0; read(nv)],
            passive: vec![0.0; read(nv)],
            f_total: vec![SpatialForce::ZERO; read(m.num_bodies())],
        }
    }
}

/// Writes into `effective` the state `states` with each prescribed coordinate replaced by its
/// reference, and the prescribed accelerations into `ws`. A quaternion joint's prescribed
/// rotational triple (all three axes or none) takes its quaternion from the rotation vector in
/// `q_ref` and its velocity coordinates `ω` (F in B, resolved in F) from `w_ref` as they are.
/// Does not allocate.
pub(super) fn effective_state(
    motions: &[MotionInput],
    nq: usize,
    states: &[f64],
    io: &Io,
    d: &mut DriveScratch,
    ws: &mut Workspace,
) {
    d.effective.copy_from_slice(states);
    d.raw.copy_from_slice(states);
    for mi in motions {
        let u = io.input(mi.input);
        let n = mi.axes.len();
        for (k, _) in mi.axes.iter().enumerate().filter(|(_, p)| **p) {
            match mi.rotation {
                // The rotational triple's positions are one quaternion (below).
                Some((r, _)) if (r..r + 3).contains(&k) => {}
                _ => d.effective[mi.q.start + k] = u[k],
            }
            d.effective[nq + mi.v.start + k] = u[n + k];
            d.a_ref[mi.v.start + k] = u[2 * n + k];
        }
        if let Some((r, qo)) = mi.rotation.filter(|(r, _)| mi.axes[*r]) {
            let quat = rotation_vector_to_quaternion(&u[r..r + 3]);
            d.effective[mi.q.start + qo..mi.q.start + qo + 4].copy_from_slice(&quat);
        }
    }
    ws.set_prescribed_accelerations(&d.a_ref);
}

/// How far (m or rad, summed over the run's accepted steps) the driven positions integrated from
/// `w_ref` may move from `q_ref` before the run says so, at least; and the fraction of the
/// reference's own path ([`DRIFT_FRACTION`]) the drift must also exceed.
pub(super) const DRIFT_NOTE: f64 = 1e-6;

/// The drift, as a fraction of the distance q_ref travelled, above which w_ref is taken for not
/// being q_ref's derivative. Consistent references leave only the integrator's error of ∫w_ref dt:
/// measured on models/vibrating_plate.toml (0.76 m of plate travel in 2 s) at the default
/// rel_tol 1e-3, 4e-6 of the path under dopri5 and 3.4e-3 under trbdf2 (whose trapezoidal stage
/// integrates the 30 rad/s sine coarsely); a w_ref 1 rad/s off a 15 rad/s crank is 6.7e-2.
pub(super) const DRIFT_FRACTION: f64 = 0.02;

/// At an accepted point whose outputs were just evaluated (`d.raw` is `states`, bit for bit),
/// resets the driven coordinates of `states` to their references (`d.effective`) so that the loop
/// closures are projected where every evaluation puts the mechanism, and adds each motion input's
/// distance between the integrated and the reference positions to `d.drift`. Returns whether
/// `states` changed; does nothing (false) when `d.raw` is another state's. Does not allocate.
pub(super) fn sync_to_references(
    motions: &[MotionInput],
    states: &mut [f64],
    d: &mut DriveScratch,
) -> bool {
    if !same_bits(&d.raw, states) {
        return false;
    }
    for (mi, drift) in motions.iter().zip(d.drift.iter_mut()) {
        let gap = largest_gap(mi, states, &d.effective);
        let moved = largest_gap(mi, &d.effective, &d.last_ref);
        drift.total += gap;
        drift.largest = drift.largest.max(gap);
        drift.path += moved;
    }
    let nq = d.last_ref.len();
    d.last_ref.copy_from_slice(&d.effective[..nq]);
    let changed = !same_bits(&d.effective, states);
    states.copy_from_slice(&d.effective);
    changed
}

/// The run's note on the motion inputs whose integrated positions drifted from `q_ref` by more
/// than [`DRIFT_NOTE`] in total and by more than [`DRIFT_FRACTION`] of the reference's path
/// (`label` names a motion input's joint).
pub(super) fn drift_note(
    motions: &[MotionInput],
    d: &DriveScratch,
    label: impl Fn(usize) -> String,
) -> Option<String> {
    let (k, drift) = d
        .drift
        .iter()
        .enumerate()
        .filter(|(_, d)| d.total > DRIFT_NOTE && d.total > DRIFT_FRACTION * d.path)
        .max_by(|a, b| a.1.total.total_cmp(&b.1.total))?;
    let (total, largest, path) = (drift.total, drift.largest, drift.path);
    Some(format!(
        "the driven coordinates of joint '{}', integrated from w_ref, moved {total:.3e} (m or rad, summed over the steps; largest {largest:.3e} in one step; q_ref itself moved {path:.3e}) away from q_ref: w_ref is not the derivative of q_ref. Each step's driven positions were reset to q_ref and the loop closed there, but the velocities are w_ref's\n  help: feed w_ref = dq_ref/dt and a_ref = dw_ref/dt, or use motion = \"input_filtered\" (q_ref alone)",
        label(motions[k].joint)
    ))
}

/// The largest |a − b| over motion input `mi`'s position coordinates (non-finite differences,
/// before a first reference, left out); a quaternion counts as its nearer sign, since q and −q
/// are one orientation (a reference wrapped to |φ| ≤ π flips the quaternion's sign).
fn largest_gap(mi: &MotionInput, a: &[f64], b: &[f64]) -> f64 {
    let quaternion = mi
        .rotation
        .map(|(_, q_offset)| mi.q.start + q_offset..mi.q.start + q_offset + 4);
    let plain = (mi.q.clone())
        .filter(|k| !quaternion.as_ref().is_some_and(|r| r.contains(k)))
        .map(|k| (a[k] - b[k]).abs())
        .filter(|g| g.is_finite())
        .fold(0.0, f64::max);
    let Some(r) = quaternion else {
        return plain;
    };
    let sign = |s: f64| {
        r.clone()
            .map(|k| (a[k] - s * b[k]).abs())
            .fold(0.0, f64::max)
    };
    let turned = sign(1.0).min(sign(-1.0));
    if turned.is_finite() {
        plain.max(turned)
    } else {
        plain
    }
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Adds to `f_total` (World-resolved, about the World origin) the forces of the rigid constraints
/// last solved in `rw`: `f n` on body b at the row's point and `−f n` on body a; a rotation row's
/// couple likewise. Coordinate rows (limits) act inside their joint and add nothing here.
fn add_constraint_forces(rw: &RigidWorkspace, f_total: &mut [SpatialForce]) {
    for c in 0..rw.candidates.len() {
        if let Some((a, b, w)) = row_wrench(rw, c) {
            f_total[b] += w;
            f_total[a] -= w;
        }
    }
}

/// Candidate `c`'s last solved force as (body a, body b, the wrench on b, World-resolved, about
/// the World origin; −it acts on a): a point row's force at its point, a rotation row's couple.
/// `None` for a coordinate row (a limit acts inside its joint).
fn row_wrench(rw: &RigidWorkspace, c: usize) -> Option<(usize, usize, SpatialForce)> {
    use crate::multibody::constraints::ContactRow;
    match rw.candidates[c].row {
        ContactRow::Point {
            body_a,
            body_b,
            point,
            ..
        } => Some((
            body_a,
            body_b,
            SpatialForce::from_force_at_point(rw.point_force[c], point),
        )),
        ContactRow::Rotation {
            body_a,
            body_b,
            direction,
        } => Some((
            body_a,
            body_b,
            SpatialForce::new(direction * rw.row_force[c], Vector3::zeros()),
        )),
        ContactRow::Coordinate { .. } => None,
    }
}

/// The reaction of loop-closing joint `j` (its closure rows' forces on the follower's body,
/// about F's origin where the point rows act) in `frame`.
fn cut_reaction(
    m: &Mechanism,
    rw: &RigidWorkspace,
    ws: &Workspace,
    j: JointId,
    frame: ReactionFrame,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    use crate::multibody::constraints::ContactRow;
    let k = m.cut_of(j)?;
    let cut = &m.cut_joints()[k];
    let (mut force, mut torque) = (Vector3::zeros(), Vector3::zeros());
    for (c, cand) in rw.candidates.iter().enumerate() {
        if cand.owner != k {
            continue;
        }
        match cand.row {
            ContactRow::Point { .. } => force += rw.point_force[c],
            ContactRow::Rotation { direction, .. } => torque += direction * rw.row_force[c],
            ContactRow::Coordinate { .. } => {}
        }
    }
    let rot = match frame {
        ReactionFrame::World => return Some((force, torque)),
        ReactionFrame::Follower => (body_pose(ws, cut.follower.0) * cut.follower.1).rotation,
        ReactionFrame::Base => (body_pose(ws, cut.base.0) * cut.base.1).rotation,
    };
    Some((rot.inverse() * force, rot.inverse() * torque))
}

/// What the drive outputs read of the mechanism block: a view of its parts, handed down by the
/// block (the drive does not reach back into it).
pub(super) struct DriveView<'a> {
    /// The compiled mechanism.
    pub(super) mechanism: &'a Mechanism,
    /// What each hidden input of the block carries, by input index.
    pub(super) roles: &'a [InputRole],
    /// The rigid constraints (contact pairs, limits, loop closures), by owner index.
    pub(super) rigid: &'a [RigidConstraint],
    /// The drive outputs, one per joint that has one.
    pub(super) drives: &'a [DriveOutput],
}

impl DriveView<'_> {
    /// The wrench inputs whose frame is known: (input index, frame).
    fn wrench_frames(&self) -> impl Iterator<Item = (usize, FrameId)> + '_ {
        self.roles.iter().enumerate().filter_map(|(i, r)| match r {
            InputRole::Wrench(_, Some(f)) => Some((i, *f)),
            _ => None,
        })
    }
    /// The wrenches applied to the summed side of weld `j` (see
    /// [`crate::multibody::weld`]; World-resolved, about the World origin): the wrench inputs
    /// whose frame is there and the forces of the loop closures whose frame on the weld's body
    /// is there. `None` when a rigid contact acts on the weld's body (its
    /// rows do not say which frame they act on). Does not allocate.
    fn weld_applied(
        &self,
        m: &Mechanism,
        j: JointId,
        io: &Io,
        rw: Option<&RigidWorkspace>,
    ) -> Option<SpatialForce> {
        let body = m.weld_split(j)?.body;
        let mut applied = SpatialForce::ZERO;
        for (i, frame) in self.wrench_frames() {
            if m.on_weld_summed_side(j, frame) {
                let u = io.input(i);
                applied += SpatialForce::new(
                    Vector3::new(u[0], u[1], u[2]),
                    Vector3::new(u[3], u[4], u[5]),
                );
            }
        }
        let Some(rw) = rw else {
            return Some(applied);
        };
        for (c, cand) in rw.candidates.iter().enumerate() {
            let Some((a, b, w)) = row_wrench(rw, c) else {
                continue;
            };
            if a != body && b != body {
                continue;
            }
            // The constraint's frame on the weld's body (its other frame is on another body).
            let frame = match &self.rigid[cand.owner].kind {
                ConstraintKind::Loop(cut) if cut.base.0 == body => cut.frames.0,
                ConstraintKind::Loop(cut) => cut.frames.1,
                // A contact between two parts of the welded body: which part each row pushes
                // is not told apart; the reaction is NaN (the mechanism warns).
                ConstraintKind::Contact(pair) => {
                    match (pair.base.body == body, pair.follower.body == body) {
                        (true, false) => pair.base.frame,
                        (false, true) => pair.follower.frame,
                        _ => return None,
                    }
                }
                ConstraintKind::Limit(_) => return None,
            };
            if m.on_weld_summed_side(j, frame) {
                applied += if b == body { w } else { -w };
            }
        }
        Some(applied)
    }
}

/// Writes the drive outputs of `view` that are read, at the effective state `(q, v)` whose rigid
/// constraints (if any) were just solved into `rigid_vdot` and `rw`; `tau` and `f_ext` are
/// the gathered inputs. Does not allocate.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_drive_outputs(
    view: &DriveView<'_>,
    io: &mut Io,
    (q, v): (&[f64], &[f64]),
    (tau, f_ext): (&[f64], &[SpatialForce]),
    rigid: Option<(&[f64], &RigidWorkspace)>,
    d: &mut DriveScratch,
    ws: &mut Workspace,
) {
    let m = view.mechanism;
    let DriveScratch {
        vdot,
        tau_id,
        passive,
        f_total,
        ..
    } = d;
    f_total.copy_from_slice(f_ext);
    let vdot: &[f64] = match rigid {
        Some((solved, rw)) => {
            add_constraint_forces(rw, f_total);
            solved
        }
        None => {
            forward_dynamics(m, q, v, tau, f_ext, ws, vdot);
            vdot
        }
    };
    inverse_dynamics(m, q, v, vdot, f_total, ws, tau_id);
    passive_forces(m, q, v, passive);
    for drive in view.drives.iter().filter(|d| d.used) {
        let out = io.output(drive.output);
        // The joint's degrees of freedom as its block sees them (a loop-closing joint has
        // none in v, and no actuator force).
        let nv = m.joint_state_sizes(drive.joint).1;
        out[..nv].fill(0.0);
        let r = m.joint_v_range(drive.joint);
        for (k, o) in r.clone().zip(out.iter_mut()) {
            *o = if m.prescribed()[k] {
                tau_id[k] - tau[k] - passive[k]
            } else {
                0.0
            };
        }
        let reaction = match (rigid, m.weld_split(drive.joint)) {
            (_, Some(split)) => view
                .weld_applied(m, split.joint, io, rigid.map(|r| r.1))
                .and_then(|applied| weld_reaction(m, ws, split, &applied, drive.frame))
                .or(Some((Vector3::repeat(f64::NAN), Vector3::repeat(f64::NAN)))),
            (Some((_, rw)), None) if m.cut_of(drive.joint).is_some() => {
                cut_reaction(m, rw, ws, drive.joint, drive.frame)
            }
            _ => joint_reaction(m, ws, drive.joint, drive.frame),
        };
        let out = io.output(drive.output);
        let (f, n) = reaction.unwrap_or((Vector3::zeros(), Vector3::zeros()));
        out[nv..nv + 3].copy_from_slice(f.as_slice());
        out[nv + 3..nv + 6].copy_from_slice(n.as_slice());
    }
}

/// Motion inputs on joints of one closed loop over-constrain it when the loop leaves them fewer
/// degrees of freedom than they prescribe: the rank of the loop closures' Jacobian `J` drops when
/// the prescribed columns are removed (`rank J_f < rank J`: some combination of the prescribed
/// velocities violates a closure whatever the free ones do). Ranks by singular values above
/// `1e-9·σ_max`, at a generic configuration near the initial one.
///
/// # Errors
/// A message naming the driven joints of the loop and saying what to write instead.
pub(super) fn check_driven_loops(
    m: &Mechanism,
    constraints: &[crate::multibody::rigid::RigidConstraint],
) -> Result<(), crate::block::BlockError> {
    use crate::multibody::constraints::ConstraintRows;
    use crate::multibody::forward_kinematics;
    use crate::multibody::rigid::{candidates::find_candidates, ConstraintKind};
    if !m.has_prescribed() || m.cut_joints().is_empty() {
        return Ok(());
    }
    let closures: Vec<_> = constraints
        .iter()
        .filter(|c| matches!(c.kind, ConstraintKind::Loop(_)))
        .cloned()
        .collect();
    let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
    m.initial_state(&mut q, &mut v);
    // The prescribed positions are not known before the run, and a special configuration (every
    // coordinate zero) can hide a column: the ranks are taken at a generic one, the initial
    // positions moved by deterministic offsets of up to 0.3 (m or rad) on the scalar coordinates.
    for jt in 0..m.num_joints() {
        if m.joint_kind(jt).quaternion_offset().is_none() {
            for k in m.joint_q_range(jt) {
                q[k] += 0.3 * (0.1 + 0.618_033_988_7 * (k as f64 + 1.0)).fract();
            }
        }
    }
    let mut ws = Workspace::new(m);
    forward_kinematics(m, &q, &v, &mut ws);
    let mut rw = RigidWorkspace::new(m, &closures);
    find_candidates(&closures, &ws, &q, &v, &mut rw);
    let rows: Vec<_> = rw.candidates.iter().map(|c| c.row).collect();
    let mut cr = ConstraintRows::new(m, rows.len());
    if rows.is_empty() || cr.rows_matrix(m, &q, &rows, &mut ws).is_err() {
        return Ok(());
    }
    let j = cr.jacobian().into_owned();
    let mut j_free = j.clone();
    for (k, p) in m.prescribed().iter().enumerate() {
        if *p {
            j_free.column_mut(k).fill(0.0);
        }
    }
    let rank = |a: &nalgebra::DMatrix<f64>| {
        let s = a.clone().svd(false, false).singular_values;
        let top = s.max();
        s.iter().filter(|x| **x > 1e-9 * top).count()
    };
    if rank(&j_free) >= rank(&j) {
        return Ok(());
    }
    let driven: Vec<String> = (0..m.num_joints())
        .filter(|&jt| {
            m.joint_v_range(jt)
                .any(|k| m.prescribed()[k] && j.column(k).iter().any(|x| x.abs() > 0.0))
        })
        .map(|jt| format!("'{}'", m.joint_label(jt)))
        .collect();
    Err(crate::block::BlockError::Other {
        message: format!(
            "the motion inputs of joints {} over-constrain their closed loop: the loop leaves them fewer degrees of freedom than they prescribe; drive one joint of the loop with motion = \"input\" and leave the others free (motion = \"none\"), or drive the others with actuation = \"input\" (a force)",
            driven.join(", ")
        ),
    })
}
