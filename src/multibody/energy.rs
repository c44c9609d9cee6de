//! Energy and momentum of the whole mechanism (for tests and sensing). Call after
//! [`forward_kinematics`](super::kinematics::forward_kinematics) (or a dynamics call) at the state
//! of interest.

use super::mechanism::Mechanism;
use super::spatial::SpatialForce;
use super::workspace::Workspace;
use nalgebra::Vector3;

/// Kinetic energy `Σ ½ vᵢ·Iᵢ vᵢ` (J).
pub fn kinetic_energy(m: &Mechanism, ws: &Workspace) -> f64 {
    (1..m.bodies.len())
        .map(|i| 0.5 * ws.v[i].dot(&m.bodies[i].inertia.mul_motion(&ws.v[i])))
        .sum()
}

/// Gravitational potential energy `−Σ mᵢ g·cᵢ` (J), zero at the World origin.
pub fn potential_energy(m: &Mechanism, ws: &Workspace) -> f64 {
    -m.gravity.dot(&first_moment_world(m, ws))
}

/// Total mass (kg).
pub fn total_mass(m: &Mechanism) -> f64 {
    m.bodies[1..].iter().map(|b| b.inertia.mass).sum()
}

/// Centre of mass of the whole mechanism in the World frame (m); the origin if massless.
pub fn center_of_mass(m: &Mechanism, ws: &Workspace) -> Vector3<f64> {
    let mass = total_mass(m);
    if mass > 0.0 {
        first_moment_world(m, ws) / mass
    } else {
        Vector3::zeros()
    }
}

fn first_moment_world(m: &Mechanism, ws: &Workspace) -> Vector3<f64> {
    (1..m.bodies.len())
        .map(|i| {
            let x = &ws.x_world[i];
            let b = &m.bodies[i].inertia;
            x.rot.tr_mul(&b.h) + x.trans * b.mass
        })
        .sum()
}

/// Spatial momentum of the mechanism: angular momentum about the World origin (kg·m²/s, `n`
/// part) and linear momentum (kg·m/s, `f` part), resolved in the World frame.
pub fn spatial_momentum(m: &Mechanism, ws: &Workspace) -> SpatialForce {
    let mut h = SpatialForce::ZERO;
    for i in 1..m.bodies.len() {
        let hi = m.bodies[i].inertia.mul_motion(&ws.v[i]);
        h += ws.x_world[i].inv_apply_force(&hi);
    }
    h
}

/// Elastic energy of the joints' internal springs `Σ ½ K_k e_k²` (J), with the deflections `e` of
/// [`passive_forces`](super::aba::passive_forces). It is the exact potential of the spring forces
/// when a quaternion joint's rotational stiffness is the same on its three axes.
pub fn spring_potential_energy(m: &Mechanism, q: &[f64]) -> f64 {
    let mut total = 0.0;
    for (b, p) in m.bodies[1..]
        .iter()
        .filter_map(|b| Some((b, m.passive_of(b)?)))
    {
        let nv = b.kind.nv();
        let mut e = [0.0; 6];
        super::joint::joint_deflection(
            b.kind,
            &q[b.q_start..b.q_start + b.kind.nq()],
            &mut e[..nv],
        );
        total += e[..nv]
            .iter()
            .zip(&p.stiffness)
            .map(|(e, k)| 0.5 * k * e * e)
            .sum::<f64>();
    }
    total
}
