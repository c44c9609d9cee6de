//! Joint reaction wrenches from the backward pass of the recursive Newton–Euler algorithm.
//!
//! After [`inverse_dynamics`](super::inverse_dynamics) at the solved accelerations `v̇` with every
//! applied wrench (user wrenches and contact forces; gravity enters as the base's fictitious
//! acceleration), `ws.pa[i]` holds `f_i = I_i a_i + v_i ×* I_i v_i − f_ext,i + Σ_children f_c`:
//! the spatial force that body i's parent exerts on body i (and the subtree beyond it) through body
//! i's inbound joint, resolved in body i's frame, about its origin. That is the joint's total
//! transmitted wrench — constraint force, actuation, springs, dampers and limits together.
//!
//! A joint's *reaction* is the wrench its base side exerts on its follower side, about the follower
//! frame F's origin: `f_i` itself when body i's frame is F, and `−F_X_B* f_i` when the joint is
//! connected the other way round (body i's frame is then B, and `f_i` is what the follower side
//! exerts on the base side).

use super::mechanism::{JointId, Mechanism};
use super::spatial::SpatialForce;
use super::workspace::Workspace;
use nalgebra::Vector3;

/// The frame a reaction wrench is resolved in (its moment is always about F's origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReactionFrame {
    /// The joint's follower frame F.
    Follower,
    /// The joint's base frame B.
    Base,
    /// The World frame.
    World,
}

/// The reaction of tree joint `j` (see the module docs), as (force N, torque N·m about F's
/// origin) resolved in `frame`; `None` for a weld or a loop-closing joint. `ws` must hold the
/// backward pass of an [`inverse_dynamics`](super::inverse_dynamics) call. Does not allocate.
pub fn joint_reaction(
    m: &Mechanism,
    ws: &Workspace,
    j: JointId,
    frame: ReactionFrame,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    let i = m.joint_body(j)?;
    let b = &m.bodies[i];
    let x_j = &ws.joint[i].x_j;
    let e_world = &ws.x_world[i].rot;
    // In F's coordinates, about F's origin.
    let f_f: SpatialForce = if b.reversed {
        -x_j.inv_apply_force(&ws.pa[i])
    } else {
        ws.pa[i]
    };
    // The rotation taking F-resolved vectors to the requested frame.
    let rot = match (frame, b.reversed) {
        (ReactionFrame::Follower, _) => nalgebra::Matrix3::identity(),
        (ReactionFrame::Base, false) => x_j.rot.transpose(),
        (ReactionFrame::Base, true) => x_j.rot,
        (ReactionFrame::World, false) => e_world.transpose(),
        (ReactionFrame::World, true) => e_world.transpose() * x_j.rot,
    };
    Some((rot * f_f.f, rot * f_f.n))
}
