//! Loop closures: a joint that closes a kinematic loop (a *cut* joint, chosen when the frame
//! network is compiled to a tree) has no coordinates; what it forbids becomes bilateral rows of the
//! constraint problem, solved with the rigid contacts.
//!
//! With `B` and `F` the cut joint's base and follower frames (on bodies a and b), `p_B`, `p_F` their
//! origins and `x_B, y_B, z_B`, `z_F` their axes (World):
//!
//! - every cut joint keeps the origins together: three point rows at `p_F` along the World axes
//!   `e_i`, `J v = e_i·(v_b(p_F) − v_a(p_F))`, closure error `e_i·(p_F − p_B)` (m);
//! - a revolute cut joint also keeps `z_F` along `z_B`: two rotation rows along `x_B` and `y_B`,
//!   `J v = d·(ω_b − ω_a)`, closure error `d·(z_B × z_F)` (rad, the small rotation taking `z_B` to
//!   `z_F`), with the bias `ḋ·(ω_b − ω_a)`, `ḋ = ω_a × d` (the directions turn with body a).
//!
//! A planar loop gives redundant rows (its out-of-plane rows repeat each other); the solvers
//! handle redundant bilateral rows. The drift projection after accepted steps brings the closure
//! errors below [`super::POSITION_TOLERANCE`].
//!
//! A cut joint still reports its relative motion ([`cut_joint_state`]): a revolute joint its angle
//! about `z_B`, continued through full turns (the branch nearest the angle it last reported), and
//! its rate; a spherical joint the quaternion of F in B and the angular
//! velocity of F relative to B, resolved in F.

use super::motion::BodyMotion;
use super::workspace::{Candidate, PairContact, RigidWorkspace};
use crate::multibody::constraints::ContactRow;
use crate::multibody::joint::JointKind;
use crate::multibody::kinematics::body_pose;
use crate::multibody::mechanism::CutJoint;
use crate::multibody::workspace::Workspace;
use nalgebra::{Isometry3, Rotation3, UnitQuaternion, Vector3};

/// The World poses of the cut joint's frames B and F.
fn frame_poses(cut: &CutJoint, ws: &Workspace) -> (Isometry3<f64>, Isometry3<f64>) {
    let pose = |(body, placement): (usize, Isometry3<f64>)| body_pose(ws, body) * placement;
    (pose(cut.base), pose(cut.follower))
}

/// The closure rows of constraint `k` (cut joint `cut`) at the kinematics in `ws`.
pub fn closure_candidates(k: usize, cut: &CutJoint, ws: &Workspace, rw: &mut RigidWorkspace) {
    let (a, b) = (cut.base.0, cut.follower.0);
    let (pose_b, pose_f) = frame_poses(cut, ws);
    let (motion_a, motion_b) = (BodyMotion::of(ws, a), BodyMotion::of(ws, b));
    let p_f = pose_f.translation.vector;
    let offset = p_f - pose_b.translation.vector;
    let relative = motion_b.point_velocity(&p_f) - motion_a.point_velocity(&p_f);
    let first = rw.candidates.len();
    let mut worst = 0.0f64;
    let mut push = |rw: &mut RigidWorkspace, c: Candidate| {
        worst = worst.max(c.gap.abs());
        if rw.candidates.len() < rw.candidates.capacity() {
            rw.candidates.push(c);
        }
    };
    for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
        let c = Candidate {
            owner: k,
            slot: rw.candidates.len() - first,
            row: ContactRow::point(a, b, p_f, axis),
            tangents: [Vector3::zeros(); 2],
            gap: axis.dot(&offset),
            relative_velocity: relative,
            normal_velocity: axis.dot(&relative),
            bias: 0.0,
            tangent_bias: Vector3::zeros(),
            bilateral: true,
        };
        push(rw, c);
    }
    if cut.kind == JointKind::Revolute {
        let (z_b, z_f) = (pose_b * Vector3::z(), pose_f * Vector3::z());
        let misalignment = z_b.cross(&z_f);
        let spin = motion_b.angular - motion_a.angular;
        for d in [pose_b * Vector3::x(), pose_b * Vector3::y()] {
            let c = Candidate {
                owner: k,
                slot: rw.candidates.len() - first,
                row: ContactRow::Rotation {
                    body_a: a,
                    body_b: b,
                    direction: d,
                },
                tangents: [Vector3::zeros(); 2],
                gap: d.dot(&misalignment),
                relative_velocity: spin,
                normal_velocity: d.dot(&spin),
                bias: motion_a.angular.cross(&d).dot(&spin),
                tangent_bias: Vector3::zeros(),
                bilateral: true,
            };
            push(rw, c);
        }
    }
    rw.pairs[k] = PairContact {
        separation: worst,
        crossing: 1.0,
        first,
        count: rw.candidates.len() - first,
    };
}

/// Writes the relative motion of a cut joint's frames (its state as its block sees it: positions,
/// then velocities) from the kinematics in `ws`. A revolute joint's angle is taken on the branch
/// nearest `last_angle` (rad, updated), so that it counts full turns as a tree joint's does.
pub fn cut_joint_state(cut: &CutJoint, ws: &Workspace, last_angle: &mut f64, out: &mut [f64]) {
    let (pose_b, pose_f) = frame_poses(cut, ws);
    let relative: Rotation3<f64> =
        (pose_b.rotation.inverse() * pose_f.rotation).to_rotation_matrix();
    let (motion_a, motion_b) = (
        BodyMotion::of(ws, cut.base.0),
        BodyMotion::of(ws, cut.follower.0),
    );
    let spin = motion_b.angular - motion_a.angular;
    match cut.kind {
        JointKind::Revolute => {
            let m = relative.matrix();
            let principal = m[(1, 0)].atan2(m[(0, 0)]);
            let turns = if last_angle.is_finite() {
                ((*last_angle - principal) / std::f64::consts::TAU).round()
            } else {
                0.0
            };
            out[0] = principal + turns * std::f64::consts::TAU;
            *last_angle = out[0];
            out[1] = (pose_b * Vector3::z()).dot(&spin);
        }
        _ => {
            let q = UnitQuaternion::from_rotation_matrix(&relative);
            out[..4].copy_from_slice(&[q.w, q.i, q.j, q.k]);
            let w_in_f = pose_f.rotation.inverse() * spin;
            out[4..7].copy_from_slice(w_in_f.as_slice());
        }
    }
}
