//! Inverse dynamics by the recursive Newton–Euler algorithm (RNEA), and the bias forces.

use super::aba::kinematics_pass;
use super::mechanism::Mechanism;
use super::spatial::{SpatialForce, SpatialMotion};
use super::workspace::Workspace;

/// Inverse dynamics: `tau_out = M(q) v̇ + C(q, v)` (nv values), the generalized forces that, added
/// to nothing else, produce the joint accelerations `vdot`. `C` includes Coriolis/centrifugal
/// terms, gravity and the external forces `f_ext` (same convention as
/// [`forward_dynamics`](super::aba::forward_dynamics): empty, or per body, World-resolved, torque
/// about the World origin). Joint springs and dampers are **not** included: the actuation that
/// [`forward_dynamics`](super::aba::forward_dynamics) needs to produce `vdot` is
/// `tau_out − τ_passive` ([`passive_forces`](super::aba::passive_forces)).
pub fn inverse_dynamics(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    vdot: &[f64],
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    tau_out: &mut [f64],
) {
    rnea(m, q, v, Some(vdot), f_ext, ws, tau_out);
}

/// Bias forces `C(q, v)` (nv values): inverse dynamics at `v̇ = 0` (Coriolis, centrifugal,
/// gravity and external forces; no springs or dampers).
pub fn bias_forces(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    c_out: &mut [f64],
) {
    rnea(m, q, v, None, f_ext, ws, c_out);
}

fn rnea(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    vdot: Option<&[f64]>,
    f_ext: &[SpatialForce],
    ws: &mut Workspace,
    tau_out: &mut [f64],
) {
    let n = m.bodies.len();
    kinematics_pass(m, q, v, ws);
    ws.a[0] = SpatialMotion::new(nalgebra::Vector3::zeros(), -m.gravity);
    for i in 1..n {
        let b = &m.bodies[i];
        let mut a = ws.x_up[i].apply_motion(&ws.a[b.parent]) + ws.c[i];
        if let Some(vdot) = vdot {
            for k in 0..b.kind.nv() {
                a += ws.s[b.v_start + k] * vdot[b.v_start + k];
            }
        }
        ws.a[i] = a;
        let inertia = &b.inertia;
        let vi = ws.v[i];
        let mut f = inertia.mul_motion(&a) + vi.cross_force(&inertia.mul_motion(&vi));
        if !f_ext.is_empty() && !f_ext[i].is_zero() {
            f -= ws.x_world[i].apply_force(&f_ext[i]);
        }
        ws.pa[i] = f;
    }
    for i in (1..n).rev() {
        let b = &m.bodies[i];
        let f = ws.pa[i];
        for k in 0..b.kind.nv() {
            tau_out[b.v_start + k] = ws.s[b.v_start + k].dot(&f);
        }
        if b.parent != 0 {
            let fp = ws.x_up[i].inv_apply_force(&f);
            ws.pa[b.parent] += fp;
        }
    }
}
