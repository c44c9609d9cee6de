//! The sensing outputs of one contact (a pair's, or one cloud point's): which are read, the contact
//! frame, and writing them.

use nalgebra::{Matrix3, Vector3};

use super::outputs::*;
use crate::block::Io;
use crate::blocks::multibody::FrameMotion;

/// Which user outputs are read (connected or logged); unread ones are not computed.
pub(super) struct UsedOutputs {
    flags: [bool; NUM_USER_OUTPUTS],
    /// Some output needs the contact frame's x and y axes.
    pub(super) need_axes: bool,
    /// Some per-contact sensing output is read.
    pub(super) any_sensing: bool,
    /// Some per-contact output that reads the relative velocity of a point not in contact is
    /// read (`normal_velocity`, `tangential_velocity`: 0 times the velocity there); the other
    /// sensing outputs of such a point do not need its velocity.
    pub(super) velocity_sensing: bool,
    /// Some per-contact output that needs the contact frame or the frames' poses is read
    /// (`tangential_velocity`, the rotations and translations).
    pub(super) frame_sensing: bool,
    /// Some resultant output is read.
    pub(super) want_resultant: bool,
}

impl UsedOutputs {
    pub(super) fn new(used: &[bool], friction_by_input: bool) -> Self {
        let mut flags = [true; NUM_USER_OUTPUTS];
        for (o, flag) in flags.iter_mut().enumerate() {
            *flag = used.get(o).copied().unwrap_or(true);
        }
        let any = |list: &[usize]| list.iter().any(|&o| flags[o]);
        Self {
            need_axes: friction_by_input
                || any(&[TANGENTIAL_VELOCITY, BASE_ROTATION, FOLLOWER_ROTATION]),
            any_sensing: any(&[
                CONTACT,
                PENETRATION,
                NORMAL_FORCE,
                FRICTION_FORCE,
                NORMAL_VELOCITY,
                TANGENTIAL_VELOCITY,
                BASE_ROTATION,
                BASE_TRANSLATION,
                FOLLOWER_ROTATION,
                FOLLOWER_TRANSLATION,
            ]),
            velocity_sensing: any(&[NORMAL_VELOCITY, TANGENTIAL_VELOCITY]),
            frame_sensing: any(&[
                TANGENTIAL_VELOCITY,
                BASE_ROTATION,
                BASE_TRANSLATION,
                FOLLOWER_ROTATION,
                FOLLOWER_TRANSLATION,
            ]),
            want_resultant: any(&[RESULTANT_FORCE, RESULTANT_TORQUE, RESULTANT_POINT]),
            flags,
        }
    }
    #[inline]
    pub(super) fn get(&self, output: usize) -> bool {
        self.flags[output]
    }
}

/// Orthonormal contact-frame axes (x, y, z = n), all in World: x is the base frame's x axis
/// projected onto the contact plane (its y axis when x is nearly normal), y = z × x.
#[inline]
pub(super) fn contact_axes(n: &Vector3<f64>, base_rotation: &Matrix3<f64>) -> Matrix3<f64> {
    let bx = base_rotation.column(0).into_owned();
    let mut x = bx - n * n.dot(&bx);
    if x.norm_squared() < 1e-2 {
        let by = base_rotation.column(1).into_owned();
        x = by - n * n.dot(&by);
    }
    let x = x.normalize();
    let y = n.cross(&x);
    Matrix3::from_columns(&[x, y, *n])
}

/// What the sensing outputs report for one contact.
pub(super) struct SensedContact {
    pub(super) in_contact: bool,
    /// Penetration depth (m, ≥ 0).
    pub(super) depth: f64,
    /// Contact normal (World, unit, base → follower).
    pub(super) normal: Vector3<f64>,
    /// Contact point (World, m).
    pub(super) point: Vector3<f64>,
    /// Normal relative velocity (m/s).
    pub(super) normal_velocity: f64,
    /// Tangential relative velocity (World, m/s).
    pub(super) tangential_velocity: Vector3<f64>,
    /// Normal force magnitude (N).
    pub(super) normal_force: f64,
    /// Friction force magnitude (N).
    pub(super) friction_force: f64,
}

/// Writes the sensing outputs of contact `i` (0 for a pair; the cloud point's index for a cloud).
pub(super) fn write_sensed(
    io: &mut Io,
    used: &UsedOutputs,
    i: usize,
    c: &SensedContact,
    base: &FrameMotion,
    follower: &FrameMotion,
) {
    let flag = if c.in_contact { 1.0 } else { 0.0 };
    if used.get(CONTACT) {
        io.output(CONTACT)[i] = flag;
    }
    if used.get(PENETRATION) {
        io.output(PENETRATION)[i] = c.depth;
    }
    if used.get(NORMAL_FORCE) {
        io.output(NORMAL_FORCE)[i] = c.normal_force;
    }
    if used.get(FRICTION_FORCE) {
        io.output(FRICTION_FORCE)[i] = c.friction_force;
    }
    if used.get(NORMAL_VELOCITY) {
        io.output(NORMAL_VELOCITY)[i] = flag * c.normal_velocity;
    }
    if used.frame_sensing {
        write_frame_outputs(io, used, i, c, base, follower);
    }
}

/// The sensing outputs of contact `i` that need the contact frame or the frames' poses
/// (`tangential_velocity`, the rotations and translations); the rest of [`write_sensed`].
pub(super) fn write_frame_outputs(
    io: &mut Io,
    used: &UsedOutputs,
    i: usize,
    c: &SensedContact,
    base: &FrameMotion,
    follower: &FrameMotion,
) {
    let axes = if c.in_contact && used.need_axes {
        contact_axes(&c.normal, &base.rotation)
    } else {
        Matrix3::identity()
    };
    let flag = if c.in_contact { 1.0 } else { 0.0 };
    if used.get(TANGENTIAL_VELOCITY) {
        let out = &mut io.output(TANGENTIAL_VELOCITY)[2 * i..2 * i + 2];
        out[0] = flag * axes.column(0).dot(&c.tangential_velocity);
        out[1] = flag * axes.column(1).dot(&c.tangential_velocity);
    }
    for (o, o_t, motion) in [
        (BASE_ROTATION, BASE_TRANSLATION, base),
        (FOLLOWER_ROTATION, FOLLOWER_TRANSLATION, follower),
    ] {
        if !(used.get(o) || used.get(o_t)) {
            continue;
        }
        let rt = motion.rotation.transpose();
        if used.get(o) {
            let r = if c.in_contact {
                rt * axes
            } else {
                Matrix3::identity()
            };
            io.output(o)[9 * i..9 * i + 9].copy_from_slice(r.as_slice());
        }
        if used.get(o_t) {
            let t = if c.in_contact {
                rt * (c.point - motion.position)
            } else {
                Vector3::zeros()
            };
            io.output(o_t)[3 * i..3 * i + 3].copy_from_slice(t.as_slice());
        }
    }
}
