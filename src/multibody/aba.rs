//! Forward dynamics by Featherstone's articulated-body algorithm (ABA), O(n) in the bodies.
//!
//! Solves `M(q) v̇ + C(q, v) = τ + τ_passive(q, v)` for `v̇`, where `C` collects Coriolis,
//! centrifugal, gravity and external-force terms and `τ_passive` the joints' internal springs and
//! dampers ([`passive_forces`]). All quantities of body i are in body i's frame (the "local"
//! convention); gravity enters as a fictitious base acceleration `a_0 = [0; −g]`.

use super::joint::{joint_deflection, joint_state, reverse_joint_state};
use super::mechanism::Mechanism;
use super::spatial::{ArticulatedInertia, SpatialForce, SpatialMotion};
use super::workspace::Workspace;
use nalgebra::Matrix6;

/// First pass shared by ABA and kinematics: joint states, transforms, poses, velocities and the
/// velocity-product terms `c_i`.
#[inline]
pub(crate) fn kinematics_pass(m: &Mechanism, q: &[f64], v: &[f64], ws: &mut Workspace) {
    ws.v[0] = SpatialMotion::ZERO;
    for i in 1..m.bodies.len() {
        let b = &m.bodies[i];
        let js = &mut ws.joint[i];
        joint_state(b.kind, &q[b.q_start..], &v[b.v_start..], js);
        if b.reversed {
            reverse_joint_state(b.kind.nv(), js);
        }
        let x_up = js.x_j.compose(&b.x_tree);
        let vi = x_up.apply_motion(&ws.v[b.parent]) + js.v_j;
        ws.c[i] = js.c_j + vi.cross_motion(&js.v_j);
        ws.x_world[i] = x_up.compose(&ws.x_world[b.parent]);
        ws.x_up[i] = x_up;
        ws.v[i] = vi;
    }
}

/// The joints' internal spring and damper forces `τ_passive = −K e(q) − D v` (`out` has nv values;
/// see [`joint`](super::joint) for the deflection `e`).
pub fn passive_forces(m: &Mechanism, q: &[f64], v: &[f64], out: &mut [f64]) {
    out.fill(0.0);
    for b in &m.bodies[1..] {
        if b.has_passive {
            let nv = b.kind.nv();
            let mut e = [0.0; 6];
            joint_deflection(b.kind, &q[b.q_start..b.q_start + b.kind.nq()], &mut e[..nv]);
            for k in 0..nv {
                out[b.v_start + k] = -b.stiffness[k] * e[k] - b.damping[k] * v[b.v_start + k];
            }
        }
    }
}

/// Forward dynamics: joint accelerations `vdot` (nv values) from the state `(q, v)`, the actuation
/// `tau` (nv generalized forces: N·m for rotational, N for translational dofs) and the external
/// forces `f_ext`.
///
/// `f_ext` is either empty (no external forces) or has one [`SpatialForce`] per body
/// (`num_bodies()`, the World entry ignored): force (N) and torque (N·m) acting on that body,
/// resolved in the World frame, the torque taken about the **World origin** (a force `f` applied at
/// the world point `p` contributes `(p × f, f)`, see [`SpatialForce::from_force_at_point`]).
///
/// Gravity, joint springs/dampers and actuation are included. Leaves the body poses and velocities
/// of `(q, v)` in `ws`. Does not allocate. A singular articulated inertia (only possible for a
/// mechanism whose mass distribution degenerates at this configuration) yields non-finite `vdot`.
pub fn forward_dynamics(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    tau: &[f64],
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    vdot: &mut [f64],
) {
    let n = m.bodies.len();
    debug_assert!(q.len() == m.nq && v.len() == m.nv && tau.len() == m.nv && vdot.len() == m.nv);
    debug_assert!(f_ext.is_empty() || f_ext.len() == n);
    kinematics_pass(m, q, v, ws);
    // Rigid-body inertias and velocity-dependent bias forces.
    for i in 1..n {
        let inertia = &m.bodies[i].inertia;
        let vi = ws.v[i];
        ws.ia[i] = ArticulatedInertia::from(*inertia);
        let mut pa = vi.cross_force(&inertia.mul_motion(&vi));
        if !f_ext.is_empty() && !f_ext[i].is_zero() {
            pa -= ws.x_world[i].apply_force(&f_ext[i]);
        }
        ws.pa[i] = pa;
    }
    // Articulated inertias and bias forces, leaves to root.
    for i in (1..n).rev() {
        let b = &m.bodies[i];
        let nv = b.kind.nv();
        let vs = b.v_start;
        let ia = ws.ia[i];
        let pa = ws.pa[i];
        let mut passive = [0.0; 6];
        if b.has_passive {
            let mut e = [0.0; 6];
            joint_deflection(b.kind, &q[b.q_start..b.q_start + b.kind.nq()], &mut e[..nv]);
            for k in 0..nv {
                passive[k] = -b.stiffness[k] * e[k] - b.damping[k] * v[vs + k];
            }
        }
        let js = &ws.joint[i];
        if nv == 1 {
            let s = js.s[0];
            let u_col = ia.mul_motion(&s);
            let d_inv = 1.0 / s.dot(&u_col);
            let u = tau[vs] + passive[0] - s.dot(&pa);
            ws.u_cols[i][0] = u_col;
            ws.d_inv[i][(0, 0)] = d_inv;
            ws.u[i][0] = u;
            if b.parent != 0 {
                let mut ia_a = ia;
                ia_a.sub_outer(&u_col, &(u_col * d_inv));
                let pa_a = pa + ia_a.mul_motion(&ws.c[i]) + u_col * (d_inv * u);
                let x_up = &ws.x_up[i];
                ws.ia[b.parent] += ia_a.to_parent(x_up);
                ws.pa[b.parent] += x_up.inv_apply_force(&pa_a);
            }
        } else {
            let mut d = Matrix6::identity();
            let mut u = [0.0; 6];
            for k in 0..nv {
                let u_col = ia.mul_motion(&js.s[k]);
                ws.u_cols[i][k] = u_col;
                u[k] = tau[vs + k] + passive[k] - js.s[k].dot(&pa);
                for j in 0..nv {
                    d[(j, k)] = js.s[j].dot(&u_col);
                }
            }
            let d_inv = d
                .cholesky()
                .map(|c| c.inverse())
                .unwrap_or_else(|| Matrix6::from_element(f64::NAN));
            ws.d_inv[i] = d_inv;
            ws.u[i] = u;
            if b.parent != 0 {
                let mut ia_a = ia;
                let mut pa_a = pa;
                for k in 0..nv {
                    // W_k = Σ_j U_j D⁻¹_jk ; Ia −= Σ_k U_k W_kᵀ ; pa += Σ_k W_k u_k.
                    let mut w_k = SpatialForce::ZERO;
                    for j in 0..nv {
                        w_k += ws.u_cols[i][j] * d_inv[(j, k)];
                    }
                    ia_a.sub_outer(&ws.u_cols[i][k], &w_k);
                    pa_a += w_k * u[k];
                }
                pa_a += ia_a.mul_motion(&ws.c[i]);
                let x_up = &ws.x_up[i];
                ws.ia[b.parent] += ia_a.to_parent(x_up);
                ws.pa[b.parent] += x_up.inv_apply_force(&pa_a);
            }
        }
    }
    // Accelerations, root to leaves.
    ws.a[0] = SpatialMotion::new(nalgebra::Vector3::zeros(), -m.gravity);
    for i in 1..n {
        let b = &m.bodies[i];
        let nv = b.kind.nv();
        let vs = b.v_start;
        let mut a = ws.x_up[i].apply_motion(&ws.a[b.parent]) + ws.c[i];
        let js = &ws.joint[i];
        if nv == 1 {
            let qdd = ws.d_inv[i][(0, 0)] * (ws.u[i][0] - a.dot(&ws.u_cols[i][0]));
            a += js.s[0] * qdd;
            vdot[vs] = qdd;
        } else {
            let mut r = [0.0; 6];
            for k in 0..nv {
                r[k] = ws.u[i][k] - a.dot(&ws.u_cols[i][k]);
            }
            let d_inv = &ws.d_inv[i];
            for j in 0..nv {
                let mut qdd = 0.0;
                for k in 0..nv {
                    qdd += d_inv[(j, k)] * r[k];
                }
                vdot[vs + j] = qdd;
            }
            for j in 0..nv {
                a += js.s[j] * vdot[vs + j];
            }
        }
        ws.a[i] = a;
    }
}
