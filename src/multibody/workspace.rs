//! Preallocated buffers for the dynamics algorithms: sized once per mechanism, reused every call.

use super::joint::JointState;
use super::mechanism::Mechanism;
use super::spatial::{ArticulatedInertia, PluckerTransform, SpatialForce, SpatialMotion};
use nalgebra::Matrix6;

/// Scratch and result buffers for one [`Mechanism`]. After [`forward_kinematics`],
/// [`forward_dynamics`], [`inverse_dynamics`] the body poses and velocities of the last call's state
/// are available through [`body_pose`] and [`body_velocity`].
///
/// [`forward_kinematics`]: super::kinematics::forward_kinematics
/// [`forward_dynamics`]: super::aba::forward_dynamics
/// [`inverse_dynamics`]: super::rnea::inverse_dynamics
/// [`body_pose`]: super::kinematics::body_pose
/// [`body_velocity`]: super::kinematics::body_velocity
#[derive(Clone, Debug)]
pub struct Workspace {
    /// `i_X_parent(i)` per body.
    pub(crate) x_up: Vec<PluckerTransform>,
    /// `i_X_world` per body (index 0: identity).
    pub(crate) x_world: Vec<PluckerTransform>,
    /// Spatial velocity of each body, in its own frame.
    pub(crate) v: Vec<SpatialMotion>,
    /// Velocity-product acceleration `c_J + v × v_J`, body frame.
    pub(crate) c: Vec<SpatialMotion>,
    /// Spatial acceleration (with the fictitious −g of the base), body frame.
    pub(crate) a: Vec<SpatialMotion>,
    /// Articulated (ABA) or composite (CRBA) inertias.
    pub(crate) ia: Vec<ArticulatedInertia>,
    /// Bias forces (ABA) or body forces (RNEA).
    pub(crate) pa: Vec<SpatialForce>,
    /// Joint transform, motion subspace, joint velocity and bias of each inbound joint.
    pub(crate) joint: Vec<JointState>,
    /// `U = IA S` columns.
    pub(crate) u_cols: Vec<[SpatialForce; 6]>,
    /// `D⁻¹` (first nv×nv block; identity-padded).
    pub(crate) d_inv: Vec<Matrix6<f64>>,
    /// `u = τ − Sᵀ pA`.
    pub(crate) u: Vec<[f64; 6]>,
    /// A vector of nv zeros.
    pub(crate) zeros_v: Vec<f64>,
    /// The prescribed accelerations `a_ref` (nv; read at the prescribed coordinates only, m/s² or
    /// rad/s²; see [`super::prescribed`]). Zero until set with [`Workspace::set_prescribed_accelerations`].
    pub(crate) a_ref: Vec<f64>,
}

impl Workspace {
    /// Buffers sized for `m`.
    pub fn new(m: &Mechanism) -> Self {
        let n = m.num_bodies();
        Self {
            x_up: vec![PluckerTransform::IDENTITY; n],
            x_world: vec![PluckerTransform::IDENTITY; n],
            v: vec![SpatialMotion::ZERO; n],
            c: vec![SpatialMotion::ZERO; n],
            a: vec![SpatialMotion::ZERO; n],
            ia: vec![ArticulatedInertia::default(); n],
            pa: vec![SpatialForce::ZERO; n],
            joint: vec![JointState::default(); n],
            u_cols: vec![[SpatialForce::ZERO; 6]; n],
            d_inv: vec![Matrix6::identity(); n],
            u: vec![[0.0; 6]; n],
            zeros_v: vec![0.0; m.nv()],
            a_ref: vec![0.0; m.nv()],
        }
    }

    /// Sets the accelerations of the prescribed coordinates (nv values, others ignored) that the
    /// dynamics use from now on.
    pub fn set_prescribed_accelerations(&mut self, a_ref: &[f64]) {
        self.a_ref.copy_from_slice(a_ref);
    }

    /// Number of bodies this workspace is sized for.
    pub fn num_bodies(&self) -> usize {
        self.v.len()
    }
}
