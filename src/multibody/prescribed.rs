//! Prescribed (driven) joint coordinates: hybrid dynamics, the actuator forces a motion requires,
//! and the joints' reaction wrenches.
//!
//! A velocity coordinate `k` is *prescribed* when its joint was given `motion` (see
//! [`JointSpec::motion`](super::JointSpec)): its position, velocity and acceleration come from the
//! outside (`q_ref`, `w_ref`, `a_ref`), and it leaves the mechanism's unknowns. Splitting the
//! coordinates into free `f` and prescribed `p`, the dynamics solved are the reduced ones
//!
//! ```text
//! M_ff a_f = τ_f + τ_passive,f − C_f − M_fp a_p          (the free accelerations)
//! τ_act,p  = M_pf a_f + M_pp a_p + C_p − τ_p − τ_passive,p − (Jᵀ f_c)_p   (the actuator force)
//! ```
//!
//! The first is the articulated-body algorithm with the prescribed joint accelerations folded
//! into each body's velocity-product term (`c'_i = c_i + S_p a_p`, Featherstone's hybrid dynamics,
//! RBDA §9.2): a joint's free columns `S_f` are projected out as usual; a joint without free
//! columns passes its articulated inertia to its parent whole. The second is the residual of the
//! prescribed axes' equations of motion, `inverse_dynamics − every other generalized force`, so
//! every passive force the dynamics add (springs, dampers, and whatever else
//! [`passive_forces`](super::passive_forces) returns) is counted without being re-derived here.
//!
//! The rigid constraints (contacts, limits, loop closures) see the reduced inverse inertia
//! `blockdiag(M_ff⁻¹, 0)`: [`reduce_mass_matrix`] replaces `M` by `blockdiag(M_ff, 1)` and the
//! caller zeroes the prescribed components of `Jᵀ f`, so row forces never move a prescribed
//! coordinate.

use super::mechanism::Mechanism;
use super::spatial::{ArticulatedInertia, SpatialForce, SpatialMotion};
use super::workspace::Workspace;
use nalgebra::{DMatrix, Matrix6};

/// The prescribed part `Σ_{k∈P} S_k a_ref,k` (body frame, m/s² and rad/s²) of body `i`'s joint
/// acceleration.
#[inline]
fn prescribed_acceleration(m: &Mechanism, ws: &Workspace, i: usize) -> SpatialMotion {
    let b = &m.bodies[i];
    let mut a = SpatialMotion::ZERO;
    for k in 0..b.kind.nv() {
        if m.prescribed[b.v_start + k] {
            a += ws.s[b.v_start + k] * ws.a_ref[b.v_start + k];
        }
    }
    a
}

/// The free columns of body `i`'s joint (indices into its `nv`) and their count.
#[inline]
fn free_columns(m: &Mechanism, i: usize) -> ([usize; 6], usize) {
    let b = &m.bodies[i];
    let mut free = [0; 6];
    let mut nf = 0;
    for k in 0..b.kind.nv() {
        if !m.prescribed[b.v_start + k] {
            free[nf] = k;
            nf += 1;
        }
    }
    (free, nf)
}

/// The ABA's backward step for body `i` whose joint has prescribed coordinates: with `U = IA S_f`,
/// `D = S_fᵀ U`, `u = τ_f + τ_passive,f − S_fᵀ pA`, passes `IA − U D⁻¹ Uᵀ` and
/// `pA + IA_a c'_i + U D⁻¹ u` to the parent (`c'_i = c_i + S_p a_p`). `passive` holds the joint's
/// passive forces per dof (N or N·m). Stores `U`, `D⁻¹` (nf × nf) and `u` in `ws` (see
/// [`Workspace::u_cols`]) for [`forward_step`]. Does not allocate.
pub(crate) fn backward_step(
    m: &Mechanism,
    ws: &mut Workspace,
    i: usize,
    tau: &[f64],
    passive: &[f64; 6],
) {
    let b = &m.bodies[i];
    let (free, nf) = free_columns(m, i);
    let ia = ws.ia[i];
    let pa = ws.pa[i];
    let mut d = Matrix6::identity();
    let mut u = [0.0; 6];
    for (kk, &k) in free[..nf].iter().enumerate() {
        let s_k = ws.s[b.v_start + k];
        let u_col = ia.mul_motion(&s_k);
        ws.u_cols[b.v_start + kk] = u_col;
        u[kk] = tau[b.v_start + k] + passive[k] - s_k.dot(&pa);
        for (jj, &j) in free[..nf].iter().enumerate() {
            d[(jj, kk)] = ws.s[b.v_start + j].dot(&u_col);
        }
    }
    let d_inv = if nf == 0 {
        Matrix6::identity()
    } else {
        d.cholesky()
            .map(|c| c.inverse())
            .unwrap_or_else(|| Matrix6::from_element(f64::NAN))
    };
    ws.store_d_inv(i, nf, &d_inv);
    ws.u[b.v_start..b.v_start + nf].copy_from_slice(&u[..nf]);
    if b.parent != 0 {
        let mut ia_a: ArticulatedInertia = ia;
        let mut pa_a = pa;
        for kk in 0..nf {
            let mut w_k = SpatialForce::ZERO;
            for jj in 0..nf {
                w_k += ws.u_cols[b.v_start + jj] * d_inv[(jj, kk)];
            }
            ia_a.sub_outer(&ws.u_cols[b.v_start + kk], &w_k);
            pa_a += w_k * u[kk];
        }
        let c = ws.c[i] + prescribed_acceleration(m, ws, i);
        pa_a += ia_a.mul_motion(&c);
        let x_up = &ws.x_up[i];
        ws.ia[b.parent] += ia_a.to_parent(x_up);
        ws.pa[b.parent] += x_up.inv_apply_force(&pa_a);
    }
}

/// The ABA's forward step for body `i` whose joint has prescribed coordinates: `a' = ⁱX_λ a_λ +
/// c'_i`, `a_f = D⁻¹ (u − Uᵀ a')`, `a_i = a' + S_f a_f`; writes `a_ref` to the prescribed
/// entries of `vdot` and `a_f` to the free ones. Does not allocate.
pub(crate) fn forward_step(m: &Mechanism, ws: &mut Workspace, i: usize, vdot: &mut [f64]) {
    let b = &m.bodies[i];
    let (free, nf) = free_columns(m, i);
    let mut a =
        ws.x_up[i].apply_motion(&ws.a[b.parent]) + ws.c[i] + prescribed_acceleration(m, ws, i);
    for k in 0..b.kind.nv() {
        if m.prescribed[b.v_start + k] {
            vdot[b.v_start + k] = ws.a_ref[b.v_start + k];
        }
    }
    let mut r = [0.0; 6];
    for (kk, rk) in r.iter_mut().enumerate().take(nf) {
        *rk = ws.u[b.v_start + kk] - a.dot(&ws.u_cols[b.v_start + kk]);
    }
    let d_inv = &ws.d_inv[ws.d_start[i]..];
    for (jj, &j) in free[..nf].iter().enumerate() {
        let qdd: f64 = (0..nf).map(|kk| d_inv[jj * nf + kk] * r[kk]).sum();
        vdot[b.v_start + j] = qdd;
    }
    for &j in &free[..nf] {
        a += ws.s[b.v_start + j] * vdot[b.v_start + j];
    }
    ws.a[i] = a;
}

/// Replaces the mass matrix `M` (nv × nv) by `blockdiag(M_ff, 1)`: the prescribed rows and
/// columns zeroed, their diagonal entries set to 1 (kg or kg·m², only there to keep the matrix
/// invertible; the caller keeps the prescribed components of `Jᵀ f` zero, so they never matter).
/// The tree sparsity of `M` is kept, so its LTL factorization has no fill-in. Does not allocate.
pub(crate) fn reduce_mass_matrix(m: &Mechanism, mass: &mut DMatrix<f64>) {
    for (k, _) in m.prescribed.iter().enumerate().filter(|(_, p)| **p) {
        mass.row_mut(k).fill(0.0);
        mass.column_mut(k).fill(0.0);
        mass[(k, k)] = 1.0;
    }
}
