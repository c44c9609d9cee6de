//! The joint-space mass matrix by the composite-rigid-body algorithm (CRBA).

use super::aba::kinematics_pass;
use super::mechanism::Mechanism;
use super::spatial::ArticulatedInertia;
use super::workspace::Workspace;
use nalgebra::DMatrix;

/// The joint-space mass matrix `M(q)` (nv × nv, symmetric positive definite for a well-posed
/// mechanism), written into `m_out` (which must already be nv × nv; no allocation).
/// Units per entry: kg, kg·m or kg·m² depending on the dofs' kinds.
pub fn mass_matrix(m: &Mechanism, q: &[f64], ws: &mut Workspace, m_out: &mut DMatrix<f64>) {
    let n = m.bodies.len();
    assert_eq!(
        m_out.shape(),
        (m.nv, m.nv),
        "mass_matrix: m_out must be nv × nv"
    );
    let zeros = std::mem::take(&mut ws.zeros_v);
    kinematics_pass(m, q, &zeros, ws);
    ws.zeros_v = zeros;
    for i in 1..n {
        ws.ia[i] = ArticulatedInertia::from(m.bodies[i].inertia);
    }
    for i in (1..n).rev() {
        let p = m.bodies[i].parent;
        if p != 0 {
            let ic = ws.ia[i].to_parent(&ws.x_up[i]);
            ws.ia[p] += ic;
        }
    }
    for i in 1..n {
        let bi = &m.bodies[i];
        for k in 0..bi.kind.nv() {
            let col = bi.v_start + k;
            let mut f = ws.ia[i].mul_motion(&ws.s[col]);
            for kk in 0..bi.kind.nv() {
                m_out[(bi.v_start + kk, col)] = ws.s[bi.v_start + kk].dot(&f);
            }
            let mut j = i;
            while m.bodies[j].parent != 0 {
                f = ws.x_up[j].inv_apply_force(&f);
                j = m.bodies[j].parent;
                let bj = &m.bodies[j];
                for kk in 0..bj.kind.nv() {
                    let val = ws.s[bj.v_start + kk].dot(&f);
                    m_out[(bj.v_start + kk, col)] = val;
                    m_out[(col, bj.v_start + kk)] = val;
                }
            }
        }
    }
}
