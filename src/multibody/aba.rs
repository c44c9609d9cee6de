//! Forward dynamics by Featherstone's articulated-body algorithm (ABA), O(n) in the bodies.
//!
//! Solves `M(q) v̇ + C(q, v) = τ + τ_passive(q, v)` for `v̇`, where `C` collects Coriolis,
//! centrifugal, gravity and external-force terms and `τ_passive` the joints' internal springs and
//! dampers ([`passive_forces`]). All quantities of body i are in body i's frame (the "local"
//! convention); gravity enters as a fictitious base acceleration `a_0 = [0; −g]`.

use super::joint::{joint_deflection, joint_state, reverse_joint_state, JointKind};
use super::mechanism::{BodyModel, Mechanism};
use super::spatial::{ArticulatedInertia, SpatialForce, SpatialMotion};
use super::workspace::Workspace;
use nalgebra::{Matrix6, Vector3};

/// First pass shared by ABA and kinematics: joint states, transforms, poses, velocities and the
/// velocity-product terms `c_i`.
#[inline]
pub(crate) fn kinematics_pass(m: &Mechanism, q: &[f64], v: &[f64], ws: &mut Workspace) {
    kinematics_pass_over(m, q, v, ws, None);
}

/// [`kinematics_pass`] over the bodies marked in `bodies` only (all when `None`): see
/// [`forward_dynamics_of_bodies`] for what a mask must satisfy. The other bodies' entries of
/// `ws` keep their values.
#[inline]
pub(crate) fn kinematics_pass_over(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    ws: &mut Workspace,
    bodies: Option<&[bool]>,
) {
    ws.v[0] = SpatialMotion::ZERO;
    for i in 1..m.bodies.len() {
        if bodies.is_some_and(|mask| !mask[i]) {
            continue;
        }
        let b = &m.bodies[i];
        let (js, s) = (
            &mut ws.joint[i],
            &mut ws.s[b.v_start..b.v_start + b.kind.nv()],
        );
        joint_state(b.kind, &q[b.q_start..], &v[b.v_start..], js, s);
        if b.reversed {
            reverse_joint_state(js, s);
        }
        let x_up = js.x_j.compose(&b.x_tree);
        let vi = x_up.apply_motion(&ws.v[b.parent]) + js.v_j;
        ws.c[i] = js.c_j + vi.cross_motion(&js.v_j);
        ws.x_world[i] = x_up.compose(&ws.x_world[b.parent]);
        ws.x_up[i] = x_up;
        ws.v[i] = vi;
    }
}

/// The joints' internal spring, damper and friction forces `τ_passive = −K e(q) − D v + τ_f(v)`
/// (`out` has nv values; see [`joint`](super::joint) for the deflection `e`,
/// [`joint_friction`](super::joint_friction) for the friction τ_f).
pub fn passive_forces(m: &Mechanism, q: &[f64], v: &[f64], out: &mut [f64]) {
    out.fill(0.0);
    for b in &m.bodies[1..] {
        let nv = b.kind.nv();
        let passive = joint_passive_force(m, b, q, v);
        out[b.v_start..b.v_start + nv].copy_from_slice(&passive[..nv]);
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
    kinematics_pass(m, q, v, ws);
    forward_dynamics_after_kinematics(m, q, v, tau, f_ext, ws, vdot);
}

/// [`forward_dynamics`] without its first pass: `ws` must already hold the kinematics of exactly
/// this `(q, v)` (from [`forward_kinematics`](super::kinematics::forward_kinematics) or a previous
/// dynamics call). The mechanism block uses it when its kinematic outputs were just evaluated at
/// the same state. Does not allocate.
pub fn forward_dynamics_after_kinematics(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    tau: &[f64],
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    vdot: &mut [f64],
) {
    dynamics_passes(m, (q, v), (tau, f_ext), ws, vdot, None);
}

/// [`forward_dynamics`] over the bodies marked in `bodies` (indexed by body, the World's entry
/// ignored) when `ws` does not yet hold their kinematics (`kinematics` true), or
/// [`forward_dynamics_after_kinematics`] over them when it does. The mask must be a union of
/// whole trees (every body of a tree whose root's parent is the World marked, or none):
/// ABA's three passes only ever pass quantities between a body and its parent, and a root
/// passes nothing to the World, so the trees decouple and each marked tree's accelerations are
/// exactly (bit for bit) those of the whole mechanism's evaluation at the same state and
/// forces. The entries of `vdot` and `ws` of unmarked bodies keep their values. Used by the
/// island integration (`sim::islands`), whose islands are unions of trees. Does not allocate.
pub fn forward_dynamics_of_bodies(
    m: &Mechanism,
    (q, v): (&[f64], &[f64]),
    (tau, f_ext): (&[f64], &[SpatialForce]),
    ws: &mut Workspace,
    vdot: &mut [f64],
    (bodies, kinematics): (&[bool], bool),
) {
    if kinematics {
        kinematics_pass_over(m, q, v, ws, Some(bodies));
    }
    dynamics_passes(m, (q, v), (tau, f_ext), ws, vdot, Some(bodies));
}

/// ABA's second and third passes (the first is [`kinematics_pass_over`]) over the bodies
/// marked in `bodies` (all when `None`).
fn dynamics_passes(
    m: &Mechanism,
    (q, v): (&[f64], &[f64]),
    (tau, f_ext): (&[f64], &[SpatialForce]),
    ws: &mut Workspace,
    vdot: &mut [f64],
    bodies: Option<&[bool]>,
) {
    let n = m.bodies.len();
    debug_assert!(q.len() == m.nq && v.len() == m.nv && tau.len() == m.nv && vdot.len() == m.nv);
    debug_assert!(f_ext.is_empty() || f_ext.len() == n);
    rigid_body_pass(m, f_ext, ws, bodies);
    articulated_pass(m, (q, v), tau, ws, bodies);
    acceleration_pass(m, ws, vdot, bodies);
}

/// Whether body `i` is left out of an evaluation over the `bodies` mask (`None`: none is).
#[inline(always)]
fn skipped(bodies: Option<&[bool]>, i: usize) -> bool {
    bodies.is_some_and(|mask| !mask[i])
}

/// The second pass's start values: each body's rigid-body inertia as the start of its
/// articulated inertia `ws.ia`, and its velocity-dependent bias force less the external force as
/// the start of its bias force `ws.pa`.
#[inline(always)]
fn rigid_body_pass(
    m: &Mechanism,
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    bodies: Option<&[bool]>,
) {
    for i in 1..m.bodies.len() {
        if skipped(bodies, i) {
            continue;
        }
        let b = &m.bodies[i];
        let inertia = &b.inertia;
        let vi = ws.v[i];
        // A 6-dof leaf with a closed-form inverse (a free body) never reads its articulated
        // inertia: the last pass uses the inverse, and no child adds to it. Not writing it
        // saves a 27-value store per free body and evaluation.
        if !(b.kind == JointKind::SixDof && b.leaf_inverse.is_some() && !b.any_prescribed) {
            ws.ia[i] = ArticulatedInertia::from(*inertia);
        }
        let mut pa = vi.cross_force(&inertia.mul_motion(&vi));
        if !f_ext.is_empty() && !f_ext[i].is_zero() {
            pa -= ws.x_world[i].apply_force(&f_ext[i]);
        }
        ws.pa[i] = pa;
    }
}

/// Second pass, leaves to root: each joint's passive force, its `U`, `D⁻¹` and `u` terms, and
/// the articulated inertia and bias force it passes to its parent.
#[inline(always)]
fn articulated_pass(
    m: &Mechanism,
    (q, v): (&[f64], &[f64]),
    tau: &[f64],
    ws: &mut Workspace,
    bodies: Option<&[bool]>,
) {
    for i in (1..m.bodies.len()).rev() {
        if skipped(bodies, i) {
            continue;
        }
        let b = &m.bodies[i];
        let passive = joint_passive_force(m, b, q, v);
        if b.any_prescribed {
            super::prescribed::backward_step(m, ws, i, tau, &passive);
        } else if b.kind.nv() == 1 {
            backward_one_dof(b, i, tau, &passive, ws);
        } else if b.kind == JointKind::SixDof {
            backward_six_dof(b, i, tau, &passive, ws);
        } else {
            backward_multi_dof(b, i, tau, &passive, ws);
        }
    }
}

/// The spring, damper and friction forces of body `b`'s joint (its nv first values; zeros
/// without them).
#[inline(always)]
fn joint_passive_force(m: &Mechanism, b: &BodyModel, q: &[f64], v: &[f64]) -> [f64; 6] {
    let nv = b.kind.nv();
    let vs = b.v_start;
    let mut passive = [0.0; 6];
    if let Some(p) = m.passive_of(b) {
        let mut e = [0.0; 6];
        joint_deflection(b.kind, &q[b.q_start..b.q_start + b.kind.nq()], &mut e[..nv]);
        let mut friction = [0.0; 6];
        p.friction_forces(&v[vs..vs + nv], &mut friction);
        for k in 0..nv {
            passive[k] = -p.stiffness[k] * e[k] - p.damping[k] * v[vs + k] + friction[k];
        }
    }
    passive
}

/// The second pass for body `i` (`b`) on a one-dof joint.
#[inline(always)]
fn backward_one_dof(b: &BodyModel, i: usize, tau: &[f64], passive: &[f64; 6], ws: &mut Workspace) {
    let vs = b.v_start;
    let pa = ws.pa[i];
    let ia = ws.ia[i];
    let s = ws.s[vs];
    // U = IA S; S = e_z (angular or linear) for non-reversed revolute/prismatic joints.
    let u_col = match (b.kind, b.reversed) {
        (JointKind::Revolute, false) => {
            SpatialForce::new(ia.a.column(2).into_owned(), ia.b.row(2).transpose())
        }
        (JointKind::Prismatic, false) => {
            SpatialForce::new(ia.b.column(2).into_owned(), ia.c.column(2).into_owned())
        }
        _ => ia.mul_motion(&s),
    };
    let d_inv = 1.0 / s.dot(&u_col);
    let u = tau[vs] + passive[0] - s.dot(&pa);
    ws.u_cols[vs] = u_col;
    ws.d_inv[ws.d_start[i]] = d_inv;
    ws.u[vs] = u;
    if b.parent != 0 {
        let mut ia_a = ia;
        ia_a.sub_outer(&u_col, &(u_col * d_inv));
        let pa_a = pa + ia_a.mul_motion(&ws.c[i]) + u_col * (d_inv * u);
        let x_up = &ws.x_up[i];
        ws.ia[b.parent] += ia_a.to_parent(x_up);
        ws.pa[b.parent] += x_up.inv_apply_force(&pa_a);
    }
}

/// The second pass for body `i` (`b`) on a 6-dof joint. It transmits only its actuation: with S
/// invertible, the articulated inertia passed to the parent vanishes and the bias force passed
/// is S⁻ᵀ τ'. The body's acceleration is a = IA⁻¹ (S⁻ᵀ τ' − pA) (solved in the third pass).
#[inline(always)]
fn backward_six_dof(b: &BodyModel, i: usize, tau: &[f64], passive: &[f64; 6], ws: &mut Workspace) {
    let vs = b.v_start;
    let pa = ws.pa[i];
    let mut u = [0.0; 6];
    for k in 0..6 {
        u[k] = tau[vs + k] + passive[k];
    }
    let f_act = if b.reversed {
        six_dof_s_inv_t(&ws.s[vs..vs + 6], &u)
    } else {
        // S = [0, 1; E, 0] (columns ṗ in B, ω in F): Sᵀ F = τ ⇔ F = [τ_ω; E τ_p].
        let e = &ws.joint[i].x_j.rot;
        SpatialForce::new(
            Vector3::new(u[3], u[4], u[5]),
            e * Vector3::new(u[0], u[1], u[2]),
        )
    };
    let rhs = f_act - pa;
    ws.u[vs..vs + 6].copy_from_slice(&rhs.to_array());
    if b.parent != 0 {
        let x_up = &ws.x_up[i];
        ws.pa[b.parent] += x_up.inv_apply_force(&f_act);
    }
}

/// The second pass for body `i` (`b`) on a joint of 2 to 5 dofs: D = Sᵀ U inverted by Cholesky
/// (NaN when singular).
#[inline(always)]
fn backward_multi_dof(
    b: &BodyModel,
    i: usize,
    tau: &[f64],
    passive: &[f64; 6],
    ws: &mut Workspace,
) {
    let nv = b.kind.nv();
    let vs = b.v_start;
    let pa = ws.pa[i];
    let ia = ws.ia[i];
    let mut d = Matrix6::identity();
    let mut u = [0.0; 6];
    for k in 0..nv {
        let u_col = ia.mul_motion(&ws.s[vs + k]);
        ws.u_cols[vs + k] = u_col;
        u[k] = tau[vs + k] + passive[k] - ws.s[vs + k].dot(&pa);
        for j in 0..nv {
            d[(j, k)] = ws.s[vs + j].dot(&u_col);
        }
    }
    let d_inv = d
        .cholesky()
        .map(|c| c.inverse())
        .unwrap_or_else(|| Matrix6::from_element(f64::NAN));
    ws.store_d_inv(i, nv, &d_inv);
    ws.u[vs..vs + nv].copy_from_slice(&u[..nv]);
    if b.parent != 0 {
        let mut ia_a = ia;
        let mut pa_a = pa;
        for k in 0..nv {
            // W_k = Σ_j U_j D⁻¹_jk ; Ia −= Σ_k U_k W_kᵀ ; pa += Σ_k W_k u_k.
            let mut w_k = SpatialForce::ZERO;
            for j in 0..nv {
                w_k += ws.u_cols[vs + j] * d_inv[(j, k)];
            }
            ia_a.sub_outer(&ws.u_cols[vs + k], &w_k);
            pa_a += w_k * u[k];
        }
        pa_a += ia_a.mul_motion(&ws.c[i]);
        let x_up = &ws.x_up[i];
        ws.ia[b.parent] += ia_a.to_parent(x_up);
        ws.pa[b.parent] += x_up.inv_apply_force(&pa_a);
    }
}

/// Third pass, root to leaves: each body's spatial acceleration `ws.a` and its joint's
/// accelerations `vdot`.
#[inline(always)]
fn acceleration_pass(m: &Mechanism, ws: &mut Workspace, vdot: &mut [f64], bodies: Option<&[bool]>) {
    ws.a[0] = SpatialMotion::new(nalgebra::Vector3::zeros(), -m.gravity);
    for i in 1..m.bodies.len() {
        if skipped(bodies, i) {
            continue;
        }
        let b = &m.bodies[i];
        let nv = b.kind.nv();
        let vs = b.v_start;
        if b.any_prescribed {
            super::prescribed::forward_step(m, ws, i, vdot);
            continue;
        }
        let mut a = ws.x_up[i].apply_motion(&ws.a[b.parent]) + ws.c[i];
        if nv == 1 {
            let qdd = ws.d_inv[ws.d_start[i]] * (ws.u[vs] - a.dot(&ws.u_cols[vs]));
            a += ws.s[vs] * qdd;
            vdot[vs] = qdd;
        } else if b.kind == JointKind::SixDof {
            a = forward_six_dof(m, b, i, a, ws, vdot);
        } else {
            forward_multi_dof(b, i, &mut a, ws, vdot);
        }
        ws.a[i] = a;
    }
}

/// The third pass for body `i` (`b`) on a 6-dof joint, whose parent side gives it the
/// acceleration `a`: its own, a = IA⁻¹ (S⁻ᵀ τ' − pA), which it returns, and v̇ = S⁻¹ (a − a').
#[inline(always)]
fn forward_six_dof(
    m: &Mechanism,
    b: &BodyModel,
    i: usize,
    a: SpatialMotion,
    ws: &Workspace,
    vdot: &mut [f64],
) -> SpatialMotion {
    let vs = b.v_start;
    let a_body = if let Some((inv_mass, c, i_c_inv)) = m.leaf_inverse_of(b) {
        // A leaf's articulated inertia is its rigid inertia, with a closed-form inverse:
        // [n; f] = I [α; a] ⇔ α = I_c⁻¹ (n − c × f), a = f/m + c × α.
        let u = &ws.u[vs..vs + 6];
        let (n, f) = (
            Vector3::new(u[0], u[1], u[2]),
            Vector3::new(u[3], u[4], u[5]),
        );
        let alpha = i_c_inv * (n - c.cross(&f));
        SpatialMotion::new(alpha, f * *inv_mass + c.cross(&alpha))
    } else {
        let rhs = nalgebra::Vector6::from_column_slice(&ws.u[vs..vs + 6]);
        let a_body = ws.ia[i]
            .to_matrix()
            .cholesky()
            .map(|c| c.solve(&rhs))
            .unwrap_or_else(|| nalgebra::Vector6::from_element(f64::NAN));
        SpatialMotion::new(
            a_body.fixed_rows::<3>(0).into(),
            a_body.fixed_rows::<3>(3).into(),
        )
    };
    let rel = a_body - a;
    if b.reversed {
        six_dof_s_inv(&ws.s[vs..vs + 6], &rel, &mut vdot[vs..vs + 6]);
    } else {
        let p_ddot = ws.joint[i].x_j.rot.tr_mul(&rel.v);
        vdot[vs..vs + 3].copy_from_slice(p_ddot.as_slice());
        vdot[vs + 3..vs + 6].copy_from_slice(rel.w.as_slice());
    }
    a_body
}

/// The third pass for body `i` (`b`) on a joint of 2 to 5 dofs: v̇ = D⁻¹ (u − Uᵀ a), then the
/// body's acceleration `a` (its parent side's on entry) gains S v̇.
#[inline(always)]
fn forward_multi_dof(
    b: &BodyModel,
    i: usize,
    a: &mut SpatialMotion,
    ws: &Workspace,
    vdot: &mut [f64],
) {
    let nv = b.kind.nv();
    let vs = b.v_start;
    let mut r = [0.0; 6];
    for (k, rk) in r.iter_mut().enumerate().take(nv) {
        *rk = ws.u[vs + k] - a.dot(&ws.u_cols[vs + k]);
    }
    let d_inv = &ws.d_inv[ws.d_start[i]..ws.d_start[i] + nv * nv];
    for j in 0..nv {
        let mut qdd = 0.0;
        for k in 0..nv {
            qdd += d_inv[j * nv + k] * r[k];
        }
        vdot[vs + j] = qdd;
    }
    for j in 0..nv {
        *a += ws.s[vs + j] * vdot[vs + j];
    }
}

/// For a 6-dof joint connected follower-toward-World (S invertible, its six columns `s`): the force
/// `F` with `Sᵀ F = τ`, by a 6×6 solve (the forward-connected case has a closed form, inline).
#[inline]
fn six_dof_s_inv_t(s: &[SpatialMotion], tau: &[f64; 6]) -> SpatialForce {
    let s = s_matrix(s);
    let f = s
        .transpose()
        .lu()
        .solve(&nalgebra::Vector6::from_column_slice(tau))
        .unwrap_or_else(|| nalgebra::Vector6::from_element(f64::NAN));
    SpatialForce::from_array([f[0], f[1], f[2], f[3], f[4], f[5]])
}

/// For a reversed 6-dof joint of columns `s`: `v̇ = S⁻¹ m` written to `out` (6 values).
#[inline]
fn six_dof_s_inv(s: &[SpatialMotion], m: &SpatialMotion, out: &mut [f64]) {
    let s = s_matrix(s);
    let x = s
        .lu()
        .solve(&nalgebra::Vector6::from_column_slice(&m.to_array()))
        .unwrap_or_else(|| nalgebra::Vector6::from_element(f64::NAN));
    out.copy_from_slice(x.as_slice());
}

#[inline]
fn s_matrix(columns: &[SpatialMotion]) -> Matrix6<f64> {
    let mut s = Matrix6::zeros();
    for (k, column) in columns.iter().enumerate().take(6) {
        let col = column.to_array();
        for r in 0..6 {
            s[(r, k)] = col[r];
        }
    }
    s
}
