//! Forward kinematics: body and frame poses and velocities in the World frame.

use super::aba::kinematics_pass;
use super::mechanism::{BodyIndex, FrameId, Mechanism};
use super::workspace::Workspace;
use nalgebra::{Isometry3, Matrix3, Vector3};

/// Computes every body's pose in the World frame and its spatial velocity from `(q, v)`.
/// (The dynamics functions do this too, as their first pass.) Does not allocate.
pub fn forward_kinematics(m: &Mechanism, q: &[f64], v: &[f64], ws: &mut Workspace) {
    kinematics_pass(m, q, v, ws);
}

/// [`forward_kinematics`] of the bodies marked in `bodies` only (indexed by body; a union of
/// whole trees, see [`forward_dynamics_of_bodies`](super::forward_dynamics_of_bodies)): the
/// other bodies' poses and velocities in `ws` keep their values. Does not allocate.
pub fn forward_kinematics_of_bodies(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    ws: &mut Workspace,
    bodies: &[bool],
) {
    super::aba::kinematics_pass_over(m, q, v, ws, Some(bodies));
}

/// Orientation of body `b` in the World frame (`R_WB`: maps body-resolved vectors to World-resolved).
#[inline]
pub fn body_rotation(ws: &Workspace, b: BodyIndex) -> Matrix3<f64> {
    ws.x_world[b].rot.transpose()
}

/// Position of body `b`'s frame origin in the World frame (m).
#[inline]
pub fn body_position(ws: &Workspace, b: BodyIndex) -> Vector3<f64> {
    ws.x_world[b].trans
}

/// Pose of body `b`'s frame in the World frame.
pub fn body_pose(ws: &Workspace, b: BodyIndex) -> Isometry3<f64> {
    ws.x_world[b].to_pose()
}

/// Velocity of body `b`: (angular velocity (rad/s), linear velocity of the body frame's origin
/// (m/s)), both resolved in the World frame.
#[inline]
pub fn body_velocity(ws: &Workspace, b: BodyIndex) -> (Vector3<f64>, Vector3<f64>) {
    let e = &ws.x_world[b].rot;
    (e.tr_mul(&ws.v[b].w), e.tr_mul(&ws.v[b].v))
}

/// Pose of `frame` in the World frame (after [`forward_kinematics`] or a dynamics call).
pub fn frame_pose(m: &Mechanism, ws: &Workspace, frame: FrameId) -> Isometry3<f64> {
    let (b, placement) = m.frame_placement(frame);
    body_pose(ws, b) * placement
}

/// Velocity of `frame`: (angular velocity (rad/s), linear velocity of the frame's origin (m/s)),
/// both resolved in the World frame.
pub fn frame_velocity(
    m: &Mechanism,
    ws: &Workspace,
    frame: FrameId,
) -> (Vector3<f64>, Vector3<f64>) {
    let (b, placement) = m.frame_placement(frame);
    let (w, v_origin) = body_velocity(ws, b);
    let offset_world = body_rotation(ws, b) * placement.translation.vector;
    (w, v_origin + w.cross(&offset_world))
}
