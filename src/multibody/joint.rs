//! Joints: how a joint's follower frame F moves relative to its base frame B.
//!
//! Simscape Multibody's convention: F moves along or about **B's z axis**; at zero position F
//! coincides with B. Each joint has `nq` position coordinates and `nv` velocity coordinates
//! (`nq ≠ nv` only for the quaternion joints). Per joint kind (q, v, and the motion subspace `S`
//! that maps `v` to the spatial velocity of F relative to B, resolved in F):
//!
//! | kind | q | v |
//! |---|---|---|
//! | Weld | – | – (folded into a rigid body) |
//! | Revolute | θ (rad) about z | θ̇ (rad/s) |
//! | Prismatic | d (m) along z | ḋ (m/s) |
//! | Cylindrical | [θ (rad) about z, d (m) along z] (Simscape's Rz then Pz) | [θ̇, ḋ] |
//! | Universal | [α about B's x, β about the intermediate y] (rad): `R_BF = Rx(α) Ry(β)` | [α̇, β̇] |
//! | Spherical | unit quaternion [w, x, y, z] of F in B | angular velocity of F rel. B, resolved in F (rad/s) |
//! | Planar | [x, y] (m) of F's origin in B, θ (rad) about z: `R_BF = Rz(θ)` | [ẋ, ẏ, θ̇] |
//! | SixDof | [p (m, F's origin in B, 3), quaternion [w, x, y, z] of F in B (4)] | [ṗ (m/s, resolved in B, 3), ω (rad/s, F rel. B, resolved in F, 3)] |
//!
//! The SixDof velocity follows the model format (`velocity` in B, `angular_velocity` in F), so its
//! `S` depends on q: `S = [0, 1; R_BFᵀ, 0]`.
//!
//! Internal springs and dampers act per velocity coordinate with equilibrium at q = 0:
//! `τ_passive,k = −K_k e_k − D_k v_k`, where `e` is the position coordinate for scalar dofs and, for
//! the rotational part of Spherical and SixDof joints, the rotation vector of F in B (`θ n`, shortest
//! way). With equal stiffness on the three rotational axes this is the exactly conservative torque of
//! the potential `½ K θ²`.

use super::spatial::{PluckerTransform, SpatialMotion};
use crate::contact::friction::FrictionLaw;
use nalgebra::{Matrix3, Vector3};

/// The kind of a joint. See the module documentation for coordinates and conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointKind {
    /// No relative motion: F coincides with B. Folded into a rigid body when the mechanism is built.
    Weld,
    /// Rotation about B's z axis.
    Revolute,
    /// Translation along B's z axis.
    Prismatic,
    /// Rotation about and translation along B's z axis.
    Cylindrical,
    /// Rotation about B's x axis, then about the intermediate y axis.
    Universal,
    /// Free rotation about B's origin.
    Spherical,
    /// Translation in B's x-y plane and rotation about B's z axis.
    Planar,
    /// Free motion.
    SixDof,
}

impl JointKind {
    /// Number of position coordinates.
    pub const fn nq(self) -> usize {
        match self {
            JointKind::Weld => 0,
            JointKind::Revolute | JointKind::Prismatic => 1,
            JointKind::Cylindrical | JointKind::Universal => 2,
            JointKind::Planar => 3,
            JointKind::Spherical => 4,
            JointKind::SixDof => 7,
        }
    }

    /// Number of velocity coordinates (degrees of freedom).
    pub const fn nv(self) -> usize {
        match self {
            JointKind::Weld => 0,
            JointKind::Revolute | JointKind::Prismatic => 1,
            JointKind::Cylindrical | JointKind::Universal => 2,
            JointKind::Planar | JointKind::Spherical => 3,
            JointKind::SixDof => 6,
        }
    }

    /// Offset of the unit quaternion [w, x, y, z] in this joint's q, if it has one.
    pub const fn quaternion_offset(self) -> Option<usize> {
        match self {
            JointKind::Spherical => Some(0),
            JointKind::SixDof => Some(3),
            _ => None,
        }
    }

    /// The position q at which F coincides with B (identity quaternion for quaternion joints).
    pub fn neutral_position(self) -> Vec<f64> {
        let mut q = vec![0.0; self.nq()];
        if let Some(k) = self.quaternion_offset() {
            q[k] = 1.0;
        }
        q
    }

    /// A human-readable name ("revolute", ...), used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            JointKind::Weld => "weld",
            JointKind::Revolute => "revolute",
            JointKind::Prismatic => "prismatic",
            JointKind::Cylindrical => "cylindrical",
            JointKind::Universal => "universal",
            JointKind::Spherical => "spherical",
            JointKind::Planar => "planar",
            JointKind::SixDof => "six-dof",
        }
    }
}

/// Everything the frame network needs to know about one joint.
#[derive(Clone, Debug, PartialEq)]
pub struct JointSpec {
    /// The joint kind.
    pub kind: JointKind,
    /// Initial position, `kind.nq()` values (quaternions need not be exactly unit: they are
    /// normalized when the mechanism is built).
    pub q0: Vec<f64>,
    /// Initial velocity, `kind.nv()` values.
    pub v0: Vec<f64>,
    /// Spring stiffness per velocity coordinate (N/m or N·m/rad); empty for none.
    pub stiffness: Vec<f64>,
    /// Damping per velocity coordinate (N·s/m or N·m·s/rad); empty for none.
    pub damping: Vec<f64>,
    /// Friction law per velocity coordinate, its limits in N or N·m
    /// ([`joint_friction`](super::joint_friction)); empty for none.
    pub friction: Vec<FrictionLaw>,
    /// Whether the friction of the rotational triple (spherical and six-dof joints) is isotropic
    /// — a *disk*: one torque opposing the relative angular velocity ω with magnitude τ(|ω|) —
    /// rather than each axis's own law (a box, the default). The triple's three laws must then be
    /// equal ([`joint_friction`](super::joint_friction)).
    pub friction_disk: bool,
    /// Whether the joint is actuated by an input (informational for the diagram layer: the
    /// dynamics always add the actuation vector `tau` it is given; pass zeros for passive joints).
    pub actuated: bool,
    /// Which velocity coordinates are prescribed (driven by motion inputs: they leave the
    /// unknowns of the dynamics, see docs/design-notes.md, "Motion inputs"); empty for none. Only joints whose `nq = nv` (not the
    /// quaternion joints) may prescribe coordinates.
    pub motion: Vec<bool>,
}

impl JointSpec {
    /// A joint of `kind` at its neutral position, at rest, with no spring, damper or actuation.
    pub fn new(kind: JointKind) -> Self {
        Self {
            kind,
            q0: kind.neutral_position(),
            v0: vec![0.0; kind.nv()],
            stiffness: Vec::new(),
            damping: Vec::new(),
            friction: Vec::new(),
            friction_disk: false,
            actuated: false,
            motion: Vec::new(),
        }
    }

    /// Sets the initial state (lengths are checked when the mechanism is built).
    pub fn with_state(mut self, q0: &[f64], v0: &[f64]) -> Self {
        self.q0 = q0.to_vec();
        self.v0 = v0.to_vec();
        self
    }

    /// Sets per-dof stiffness and damping (each empty or of length `nv`).
    pub fn with_spring_damper(mut self, stiffness: &[f64], damping: &[f64]) -> Self {
        self.stiffness = stiffness.to_vec();
        self.damping = damping.to_vec();
        self
    }

    /// Sets the friction laws (empty, or one per velocity coordinate; checked when the mechanism
    /// is built).
    pub fn with_friction(mut self, friction: &[FrictionLaw]) -> Self {
        self.friction = friction.to_vec();
        self
    }

    /// Makes the rotational triple's friction isotropic (a disk) instead of per axis (see
    /// [`JointSpec::friction_disk`]; checked when the mechanism is built).
    pub fn with_disk_friction(mut self, disk: bool) -> Self {
        self.friction_disk = disk;
        self
    }

    /// Marks the joint as actuated by an input.
    pub fn with_actuation(mut self, actuated: bool) -> Self {
        self.actuated = actuated;
        self
    }

    /// Prescribes the velocity coordinates flagged in `axes` (empty, or `nv` flags).
    pub fn with_motion(mut self, axes: &[bool]) -> Self {
        self.motion = axes.to_vec();
        self
    }
}

/// Rotation matrix `R_BF` of a quaternion [w, x, y, z]; exactly orthogonal for any non-zero
/// quaternion (it divides by |q|²).
#[inline]
pub fn quaternion_to_rotation(q: &[f64]) -> Matrix3<f64> {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    let s = 2.0 / (w * w + x * x + y * y + z * z);
    let (xs, ys, zs) = (x * s, y * s, z * s);
    let (wx, wy, wz) = (w * xs, w * ys, w * zs);
    let (xx, xy, xz) = (x * xs, x * ys, x * zs);
    let (yy, yz, zz) = (y * ys, y * zs, z * zs);
    Matrix3::new(
        1.0 - (yy + zz),
        xy - wz,
        xz + wy,
        xy + wz,
        1.0 - (xx + zz),
        yz - wx,
        xz - wy,
        yz + wx,
        1.0 - (xx + yy),
    )
}

/// `Q̇ = ½ Q ⊗ (0, ω)` for a quaternion [w, x, y, z] of F in B and ω resolved in F (rad/s).
#[inline]
pub fn quaternion_rate(q: &[f64], w: &[f64], qdot: &mut [f64]) {
    let (qw, qx, qy, qz) = (q[0], q[1], q[2], q[3]);
    let (wx, wy, wz) = (w[0], w[1], w[2]);
    qdot[0] = 0.5 * (-qx * wx - qy * wy - qz * wz);
    qdot[1] = 0.5 * (qw * wx + qy * wz - qz * wy);
    qdot[2] = 0.5 * (qw * wy + qz * wx - qx * wz);
    qdot[3] = 0.5 * (qw * wz + qx * wy - qy * wx);
}

/// The rotation vector `θ n` (rad) of a quaternion [w, x, y, z], taking the shorter way (θ ≤ π).
pub fn quaternion_to_rotation_vector(q: &[f64]) -> Vector3<f64> {
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let sign = if q[0] < 0.0 { -1.0 } else { 1.0 };
    let w = sign * q[0] / norm;
    let xyz = Vector3::new(q[1], q[2], q[3]) * (sign / norm);
    let s = xyz.norm();
    if s < 1e-12 {
        // θ n ≈ 2 xyz (1 + s²/6 ...) for small angles.
        return xyz * 2.0;
    }
    xyz * (2.0 * s.atan2(w) / s)
}

/// Elementary rotation matrices about the coordinate axes (rotation of a frame by `angle`).
#[inline]
fn rot_x(c: f64, s: f64) -> Matrix3<f64> {
    Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c)
}
#[inline]
fn rot_y(c: f64, s: f64) -> Matrix3<f64> {
    Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c)
}

/// Joint kinematics at one state, all resolved in the follower frame F. The motion subspace's
/// columns are kept beside it, `nv` of them ([`joint_state`]): the workspace stores them flat by
/// velocity coordinate, since six per body (288 bytes) cost a 20,000-joint chain of 1-dof joints
/// 4.8 MB of each run's workspace for 48 bytes used.
#[derive(Clone, Copy, Debug, Default)]
pub struct JointState {
    /// `F_X_B`: the joint transform `X_J(q)`.
    pub x_j: PluckerTransform,
    /// Joint velocity `v_J = S v`.
    pub v_j: SpatialMotion,
    /// Velocity-product term `c_J = (∂S/∂q q̇) v` (apparent derivative of S in F).
    pub c_j: SpatialMotion,
}

const EZ_ANG: SpatialMotion = SpatialMotion {
    w: Vector3::new(0.0, 0.0, 1.0),
    v: Vector3::new(0.0, 0.0, 0.0),
};
const EZ_LIN: SpatialMotion = SpatialMotion {
    w: Vector3::new(0.0, 0.0, 0.0),
    v: Vector3::new(0.0, 0.0, 1.0),
};

#[inline]
fn ang(x: f64, y: f64, z: f64) -> SpatialMotion {
    SpatialMotion::new(Vector3::new(x, y, z), Vector3::zeros())
}
#[inline]
fn lin(v: Vector3<f64>) -> SpatialMotion {
    SpatialMotion::new(Vector3::zeros(), v)
}

/// Fills `out` with the joint transform, joint velocity and velocity-product term, and `cols` with
/// the columns of the motion subspace `S(q)` (its first `nv`), for a joint of `kind` at position
/// `q` (`nq` values) and velocity `v` (`nv` values). Weld joints give the identity and no columns.
#[inline]
pub fn joint_state(
    kind: JointKind,
    q: &[f64],
    v: &[f64],
    out: &mut JointState,
    cols: &mut [SpatialMotion],
) {
    match kind {
        JointKind::Weld => {
            out.x_j = PluckerTransform::IDENTITY;
            out.v_j = SpatialMotion::ZERO;
            out.c_j = SpatialMotion::ZERO;
        }
        JointKind::Revolute => {
            let (s, c) = q[0].sin_cos();
            out.x_j.rot = Matrix3::new(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
            out.x_j.trans = Vector3::zeros();
            cols[0] = EZ_ANG;
            out.v_j = ang(0.0, 0.0, v[0]);
            out.c_j = SpatialMotion::ZERO;
        }
        JointKind::Prismatic => {
            out.x_j.rot = Matrix3::identity();
            out.x_j.trans = Vector3::new(0.0, 0.0, q[0]);
            cols[0] = EZ_LIN;
            out.v_j = lin(Vector3::new(0.0, 0.0, v[0]));
            out.c_j = SpatialMotion::ZERO;
        }
        JointKind::Cylindrical => {
            let (s, c) = q[0].sin_cos();
            out.x_j.rot = Matrix3::new(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
            out.x_j.trans = Vector3::new(0.0, 0.0, q[1]);
            cols[0] = EZ_ANG;
            cols[1] = EZ_LIN;
            out.v_j =
                SpatialMotion::new(Vector3::new(0.0, 0.0, v[0]), Vector3::new(0.0, 0.0, v[1]));
            out.c_j = SpatialMotion::ZERO;
        }
        JointKind::Universal => {
            let (s1, c1) = q[0].sin_cos();
            let (s2, c2) = q[1].sin_cos();
            // R_BF = Rx(α) Ry(β); ω (in F) = Ry(β)ᵀ e_x α̇ + e_y β̇.
            out.x_j.rot = (rot_x(c1, s1) * rot_y(c2, s2)).transpose();
            out.x_j.trans = Vector3::zeros();
            cols[0] = ang(c2, 0.0, s2);
            cols[1] = ang(0.0, 1.0, 0.0);
            out.v_j = ang(c2 * v[0], v[1], s2 * v[0]);
            let p = v[0] * v[1];
            out.c_j = ang(-s2 * p, 0.0, c2 * p);
        }
        JointKind::Spherical => {
            out.x_j.rot = quaternion_to_rotation(&q[0..4]).transpose();
            out.x_j.trans = Vector3::zeros();
            cols[0] = ang(1.0, 0.0, 0.0);
            cols[1] = ang(0.0, 1.0, 0.0);
            cols[2] = ang(0.0, 0.0, 1.0);
            out.v_j = ang(v[0], v[1], v[2]);
            out.c_j = SpatialMotion::ZERO;
        }
        JointKind::Planar => {
            let (s, c) = q[2].sin_cos();
            let e = Matrix3::new(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
            out.x_j.rot = e;
            out.x_j.trans = Vector3::new(q[0], q[1], 0.0);
            cols[0] = lin(Vector3::new(c, -s, 0.0));
            cols[1] = lin(Vector3::new(s, c, 0.0));
            cols[2] = EZ_ANG;
            let v_lin = Vector3::new(c * v[0] + s * v[1], -s * v[0] + c * v[1], 0.0);
            let w = Vector3::new(0.0, 0.0, v[2]);
            out.v_j = SpatialMotion::new(w, v_lin);
            out.c_j = lin(-w.cross(&v_lin));
        }
        JointKind::SixDof => {
            // E = R_BFᵀ; S = [0, 1; E, 0] (columns: ṗ in B, then ω in F).
            let e = quaternion_to_rotation(&q[3..7]).transpose();
            out.x_j.rot = e;
            out.x_j.trans = Vector3::new(q[0], q[1], q[2]);
            for k in 0..3 {
                cols[k] = lin(e.column(k).into_owned());
                let mut w = Vector3::zeros();
                w[k] = 1.0;
                cols[k + 3] = SpatialMotion::new(w, Vector3::zeros());
            }
            let w = Vector3::new(v[3], v[4], v[5]);
            let v_lin = e * Vector3::new(v[0], v[1], v[2]);
            out.v_j = SpatialMotion::new(w, v_lin);
            out.c_j = lin(-w.cross(&v_lin));
        }
    }
}

/// Turns the kinematics of F relative to B (resolved in F) into those of B relative to F (resolved
/// in B), for a joint connected with its follower on the World side: with `X = B_X_F = X_J⁻¹`,
/// `S' = −X S`, `v_J' = −X v_J` and, since `d/dt B_X_F = B_X_F (v_J ×)` and `v_J × v_J = 0`,
/// `c_J' = −X c_J`. The coordinates q, v keep their meaning (F relative to B).
#[inline]
pub fn reverse_joint_state(js: &mut JointState, cols: &mut [SpatialMotion]) {
    let x = js.x_j.inverse();
    for col in cols {
        *col = -x.apply_motion(col);
    }
    js.v_j = -x.apply_motion(&js.v_j);
    js.c_j = -x.apply_motion(&js.c_j);
    js.x_j = x;
}

/// `q̇` from `v` for one joint (`qdot` has `nq` values).
#[inline]
pub fn joint_qdot(kind: JointKind, q: &[f64], v: &[f64], qdot: &mut [f64]) {
    match kind {
        JointKind::Spherical => quaternion_rate(&q[0..4], &v[0..3], &mut qdot[0..4]),
        JointKind::SixDof => {
            qdot[0..3].copy_from_slice(&v[0..3]);
            quaternion_rate(&q[3..7], &v[3..6], &mut qdot[3..7]);
        }
        _ => qdot.copy_from_slice(v),
    }
}

/// The spring deflection per velocity coordinate (`nv` values written to `e`): the position
/// coordinate for scalar dofs, the rotation vector for the quaternion part.
#[inline]
pub fn joint_deflection(kind: JointKind, q: &[f64], e: &mut [f64]) {
    match kind {
        JointKind::Spherical => {
            let r = quaternion_to_rotation_vector(&q[0..4]);
            e[0..3].copy_from_slice(r.as_slice());
        }
        JointKind::SixDof => {
            e[0..3].copy_from_slice(&q[0..3]);
            let r = quaternion_to_rotation_vector(&q[3..7]);
            e[3..6].copy_from_slice(r.as_slice());
        }
        _ => e.copy_from_slice(q),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finite-difference check: `X_J(q + q̇ h)` moves F with the velocity `S v`, and
    /// `S(q + q̇ h) v ≈ S v + c_J h`. Central differences with h = 1e-6 give ~1e-10 accuracy
    /// for O(1) states; tolerance 1e-7.
    #[test]
    fn motion_subspace_matches_finite_differences() {
        let cases: Vec<(JointKind, Vec<f64>, Vec<f64>)> = vec![
            (JointKind::Revolute, vec![0.7], vec![1.3]),
            (JointKind::Prismatic, vec![0.2], vec![-0.4]),
            (JointKind::Cylindrical, vec![0.4, -0.3], vec![0.9, 0.5]),
            (JointKind::Universal, vec![0.4, -0.8], vec![1.1, -0.7]),
            (
                JointKind::Spherical,
                {
                    let n = (1.0f64 + 0.04 + 0.09 + 0.16).sqrt();
                    vec![1.0 / n, 0.2 / n, -0.3 / n, 0.4 / n]
                },
                vec![0.3, -1.2, 0.8],
            ),
            (
                JointKind::Planar,
                vec![0.3, -0.2, 0.9],
                vec![0.5, 0.7, -1.1],
            ),
            (
                JointKind::SixDof,
                {
                    let n = (1.0f64 + 0.01 + 0.25 + 0.04).sqrt();
                    vec![0.1, 0.2, -0.3, 0.1 / n, 1.0 / n, 0.5 / n, -0.2 / n]
                },
                vec![0.3, -0.4, 0.5, 1.0, -0.6, 0.2],
            ),
        ];
        let h = 1e-6;
        for (kind, q, v) in cases {
            let nq = kind.nq();
            let mut qdot = vec![0.0; nq];
            joint_qdot(kind, &q, &v, &mut qdot);
            let qp: Vec<f64> = (0..nq).map(|k| q[k] + qdot[k] * h).collect();
            let qm: Vec<f64> = (0..nq).map(|k| q[k] - qdot[k] * h).collect();
            let mut js = JointState::default();
            let mut jp = JointState::default();
            let mut jm = JointState::default();
            let mut cols = [SpatialMotion::ZERO; 6];
            let nv = kind.nv();
            joint_state(kind, &q, &v, &mut js, &mut cols[..nv]);
            joint_state(kind, &qp, &v, &mut jp, &mut [SpatialMotion::ZERO; 6][..nv]);
            joint_state(kind, &qm, &v, &mut jm, &mut [SpatialMotion::ZERO; 6][..nv]);
            // Velocity of F relative to B, resolved in F, from the pose derivative:
            // R_BF = Eᵀ, p = r. ω× = R_BFᵀ Ṙ_BF, v_lin = R_BFᵀ ṗ.
            let r = js.x_j.rot.transpose();
            let rdot = (jp.x_j.rot.transpose() - jm.x_j.rot.transpose()) / (2.0 * h);
            let wx = r.transpose() * rdot;
            let w = Vector3::new(wx[(2, 1)], wx[(0, 2)], wx[(1, 0)]);
            let pdot = (jp.x_j.trans - jm.x_j.trans) / (2.0 * h);
            let vlin = r.transpose() * pdot;
            assert!(
                (w - js.v_j.w).norm() < 1e-7,
                "{kind:?} angular {w} vs {}",
                js.v_j.w
            );
            assert!((vlin - js.v_j.v).norm() < 1e-7, "{kind:?} linear");
            // v_J = S v
            let mut sv = SpatialMotion::ZERO;
            for (s, vk) in cols.iter().zip(&v) {
                sv += *s * *vk;
            }
            assert!((sv.w - js.v_j.w).norm() < 1e-12 && (sv.v - js.v_j.v).norm() < 1e-12);
            // c_J = d/dt(S) v at fixed v.
            let dvj = (jp.v_j - jm.v_j) * (1.0 / (2.0 * h));
            assert!((dvj.w - js.c_j.w).norm() < 1e-7, "{kind:?} c_J angular");
            assert!((dvj.v - js.c_j.v).norm() < 1e-7, "{kind:?} c_J linear");
        }
    }

    #[test]
    fn rotation_vector_round_trip() {
        let axis = Vector3::new(1.0, -2.0, 0.5).normalize();
        for &theta in &[0.0, 1e-8, 0.3, 2.0, 3.1] {
            let (s, c) = (0.5f64 * theta).sin_cos();
            let q = [c, axis.x * s, axis.y * s, axis.z * s];
            let r = quaternion_to_rotation_vector(&q);
            assert!((r - axis * theta).norm() < 1e-12);
            // The negated quaternion is the same rotation.
            let qn = [-q[0], -q[1], -q[2], -q[3]];
            assert!((quaternion_to_rotation_vector(&qn) - axis * theta).norm() < 1e-12);
        }
    }
}
