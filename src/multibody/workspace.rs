//! Preallocated buffers for the dynamics algorithms: sized once per mechanism, reused every call.

use super::joint::JointState;
use super::mechanism::Mechanism;
use super::spatial::{ArticulatedInertia, PluckerTransform, SpatialForce, SpatialMotion};

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
    /// Joint transform, joint velocity and bias of each inbound joint.
    pub(crate) joint: Vec<JointState>,
    /// The inbound joints' motion subspace columns `S` (body frame), flat by velocity
    /// coordinate like `u_cols`: body i's column k is `s[v_start + k]`, k < nv (see
    /// [`JointState`] for why not six per body).
    pub(crate) s: Vec<SpatialMotion>,
    /// `U = IA S` columns (body frame), stored flat by velocity coordinate: body i's column k is
    /// `u_cols[v_start + k]`, k < nv (its joint's velocity coordinates; with prescribed
    /// coordinates, the free ones in order). Flat rather than six per body: a 1-dof joint uses one.
    pub(crate) u_cols: Vec<SpatialForce>,
    /// `D⁻¹` (`D = Sᵀ U`, dimension m = nv, or with prescribed coordinates the number of free
    /// ones), each body's block row-major at `d_start[i]`: entry (j, k) is
    /// `d_inv[d_start[i] + j·m + k]`, j, k < m (see [`Workspace::store_d_inv`]).
    pub(crate) d_inv: Vec<f64>,
    /// Where body i's `D⁻¹` block starts in `d_inv` (Σ nv² of the bodies before it).
    pub(crate) d_start: Vec<usize>,
    /// `u = τ − Sᵀ pA` (N or N·m per coordinate), flat like `u_cols`: body i's entry k is
    /// `u[v_start + k]`. For a 6-dof joint, its six entries hold the body-frame right-hand side
    /// `S⁻ᵀ τ' − pA` as `[n; f]`.
    pub(crate) u: Vec<f64>,
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
        // Σ nv² before each body, and the total last (n + 1 entries, the last then dropped).
        let mut d_start = Vec::with_capacity(n + 1);
        d_start.push(0);
        for b in &m.bodies {
            let nv = b.kind.nv();
            d_start.push(d_start[d_start.len() - 1] + nv * nv);
        }
        let d_len = d_start.pop().unwrap_or(0);
        Self {
            x_up: vec![PluckerTransform::IDENTITY; n],
            x_world: vec![PluckerTransform::IDENTITY; n],
            v: vec![SpatialMotion::ZERO; n],
            c: vec![SpatialMotion::ZERO; n],
            a: vec![SpatialMotion::ZERO; n],
            ia: vec![ArticulatedInertia::default(); n],
            pa: vec![SpatialForce::ZERO; n],
            joint: vec![JointState::default(); n],
            s: vec![SpatialMotion::ZERO; m.nv()],
            u_cols: vec![SpatialForce::ZERO; m.nv()],
            d_inv: vec![0.0; d_len],
            u: vec![0.0; m.nv()],
            d_start,
            zeros_v: vec![0.0; m.nv()],
            a_ref: vec![0.0; m.nv()],
        }
    }

    /// Sets the accelerations of the prescribed coordinates (nv values, others ignored) that the
    /// dynamics use from now on.
    pub fn set_prescribed_accelerations(&mut self, a_ref: &[f64]) {
        self.a_ref.copy_from_slice(a_ref);
    }

    /// Stores the leading `dim` × `dim` block of `d_inv` (`dim` ≤ body `i`'s nv) as body `i`'s
    /// `D⁻¹`, row-major with row stride `dim`.
    #[inline]
    pub(crate) fn store_d_inv(&mut self, i: usize, dim: usize, d_inv: &nalgebra::Matrix6<f64>) {
        let start = self.d_start[i];
        for j in 0..dim {
            for k in 0..dim {
                self.d_inv[start + j * dim + k] = d_inv[(j, k)];
            }
        }
    }

    /// Number of bodies this workspace is sized for.
    pub fn num_bodies(&self) -> usize {
        self.v.len()
    }
}
