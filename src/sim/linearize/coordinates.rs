//! The linearization's states: the diagram's continuous states, with a mechanism's quaternions
//! replaced by their tangent space (a minimal set).
//!
//! A mechanism's states `[q; v]` (nq + nv) become `[q̃; v]` (nv + nv): each joint's position
//! coordinates are numbered as its velocity coordinates are, and are named `JOINT.q[i]`,
//! `JOINT.v[i]`. Coordinates that are not part of a quaternion are kept (`q̃ᵢ = qᵢ`). A
//! quaternion `Q` [w, x, y, z] (Spherical joints, the rotation of SixDof joints) becomes three
//! tangent coordinates `δ` (rad) about its operating value `Q₀`: `Q = Q₀ ⊗ Exp(δ)`, with
//! `Exp(δ) = [cos(θ/2), sin(θ/2)·δ/θ]`, `θ = |δ|`, so `δ` is a rotation vector resolved in the
//! joint's follower frame F, as the joint's angular velocity ω is. From `Q̇ = ½ Q ⊗ (0, ω)`,
//! `δ̇ = J_r⁻¹(δ)·ω` with `J_r⁻¹(δ) = I + ½[δ]× + (1/θ² − (1 + cos θ)/(2θ sin θ))·[δ]×²`
//! (the inverse right Jacobian of SO(3)); at the operating point δ = 0. Every other block's
//! states are kept as they are, named `BLOCK.NAME` with the block's own state names
//! (`integrator.x[0]`).

use crate::diagram::Diagram;
use nalgebra::Vector3;

/// A quaternion of the diagram's state and its three tangent coordinates.
#[derive(Clone, Copy, Debug)]
struct Quaternion {
    /// Offset of its w in the diagram's state vector.
    x: usize,
    /// Offset of its first tangent coordinate in the linearization's state.
    z: usize,
    /// Offset of the joint's angular velocity ω (3, resolved in F) in the diagram's state.
    omega: usize,
}

/// How the linearization's states map to the diagram's.
#[derive(Clone, Debug)]
pub(super) struct Coordinates {
    /// The name of each linearization state.
    pub names: Vec<String>,
    /// `(z, x)`: linearization state `z` is the diagram's state `x`.
    plain: Vec<(usize, usize)>,
    quaternions: Vec<Quaternion>,
    /// The diagram's state count.
    full: usize,
}

impl Coordinates {
    /// The coordinates of `d`'s states; see the module documentation.
    pub fn of(d: &Diagram) -> Coordinates {
        let mut c = Coordinates {
            names: Vec::new(),
            plain: Vec::new(),
            quaternions: Vec::new(),
            full: d.num_states,
        };
        let mechanism = d.scene.as_ref().map(|s| s.mechanism_block);
        for (b, blk) in d.blocks.iter().enumerate() {
            if Some(b) == mechanism {
                c.add_mechanism(d, b);
                continue;
            }
            for k in 0..blk.states.len() {
                c.plain.push((c.names.len(), blk.states.start + k));
                c.names
                    .push(format!("{}.{}", blk.name, blk.block.state_name(k)));
            }
        }
        c
    }

    /// The mechanism block `b`'s states `[q̃; v]`.
    fn add_mechanism(&mut self, d: &Diagram, b: usize) {
        let Some(scene) = d.scene.as_ref() else {
            return;
        };
        let m = &scene.mechanism;
        let (nq, nv) = (m.nq(), m.nv());
        let x0 = d.blocks[b].states.start;
        let z0 = self.names.len();
        let mut names = vec![String::new(); 2 * nv];
        let mut k = 0;
        while k < nq {
            // Joint j's coordinates start at its v offset; its own position coordinates and
            // velocity coordinates are numbered alike (p then the quaternion's tangent).
            let Some((j, offset)) = m.coordinate_joint(k, false) else {
                k += 1;
                continue;
            };
            let v_index = m.joint_v_range(j).start + offset;
            let label = m.joint_label(j);
            if m.quaternion_offsets().contains(&k) {
                self.quaternions.push(Quaternion {
                    x: x0 + k,
                    z: z0 + v_index,
                    omega: x0 + nq + v_index,
                });
                for i in 0..3 {
                    names[v_index + i] = format!("{label}.q[{}]", offset + i);
                }
                k += 4;
            } else {
                self.plain.push((z0 + v_index, x0 + k));
                names[v_index] = format!("{label}.q[{offset}]");
                k += 1;
            }
        }
        for i in 0..nv {
            self.plain.push((z0 + nv + i, x0 + nq + i));
            let name = match m.coordinate_joint(i, true) {
                Some((j, offset)) => format!("{}.v[{offset}]", m.joint_label(j)),
                None => format!("{}.v[{i}]", d.blocks[b].name),
            };
            names[nv + i] = name;
        }
        for (i, name) in names.iter_mut().enumerate().take(nv) {
            if name.is_empty() {
                *name = format!("{}.q[{i}]", d.blocks[b].name);
            }
        }
        self.names.extend(names);
    }

    /// Number of linearization states.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The linearization state at the operating point `x0` (δ = 0 for the quaternions).
    pub fn reduce_state(&self, x0: &[f64]) -> Vec<f64> {
        let mut z = vec![0.0; self.len()];
        for &(zi, xi) in &self.plain {
            z[zi] = x0[xi];
        }
        z
    }

    /// The diagram's state `x` at `z0 + dz` (`z0` the operating point's, `x0` the diagram's).
    pub fn expand(&self, x0: &[f64], dz: &[f64], x: &mut [f64]) {
        debug_assert_eq!(x.len(), self.full);
        x.copy_from_slice(x0);
        for &(zi, xi) in &self.plain {
            x[xi] = x0[xi] + dz[zi];
        }
        for q in &self.quaternions {
            let delta = Vector3::new(dz[q.z], dz[q.z + 1], dz[q.z + 2]);
            let exp = exp_quaternion(&delta);
            let product = quaternion_product(&x0[q.x..q.x + 4], &exp);
            x[q.x..q.x + 4].copy_from_slice(&product);
        }
    }

    /// The linearization state's derivative `ż` at `z0 + dz`, from the diagram's state `x` there
    /// and its derivative `xdot`.
    pub fn reduce_rate(&self, x: &[f64], dz: &[f64], xdot: &[f64], zdot: &mut [f64]) {
        for &(zi, xi) in &self.plain {
            zdot[zi] = xdot[xi];
        }
        for q in &self.quaternions {
            let delta = Vector3::new(dz[q.z], dz[q.z + 1], dz[q.z + 2]);
            let omega = Vector3::new(x[q.omega], x[q.omega + 1], x[q.omega + 2]);
            let rate = inverse_right_jacobian(&delta, &omega);
            zdot[q.z..q.z + 3].copy_from_slice(rate.as_slice());
        }
    }
}

/// `Exp(δ) = [cos(θ/2), sin(θ/2)·δ/θ]`, θ = |δ| (a unit quaternion [w, x, y, z]).
fn exp_quaternion(delta: &Vector3<f64>) -> [f64; 4] {
    let theta = delta.norm();
    // sin(θ/2)/θ → ½ − θ²/48 as θ → 0.
    let s = if theta < 1e-6 {
        0.5 - theta * theta / 48.0
    } else {
        (0.5 * theta).sin() / theta
    };
    [(0.5 * theta).cos(), s * delta.x, s * delta.y, s * delta.z]
}

/// The Hamilton product `a ⊗ b` of quaternions [w, x, y, z].
fn quaternion_product(a: &[f64], b: &[f64; 4]) -> [f64; 4] {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

/// `J_r⁻¹(δ)·ω` (see the module documentation).
fn inverse_right_jacobian(delta: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    let theta = delta.norm();
    // 1/θ² − (1 + cos θ)/(2θ sin θ) → 1/12 + θ²/720 as θ → 0.
    let c = if theta < 1e-4 {
        1.0 / 12.0 + theta * theta / 720.0
    } else {
        1.0 / (theta * theta) - (1.0 + theta.cos()) / (2.0 * theta * theta.sin())
    };
    let cross = delta.cross(omega);
    omega + 0.5 * cross + c * delta.cross(&cross)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// δ̇ = J_r⁻¹(δ)·ω is the rate of the tangent coordinates of Q(t) = Q₀ ⊗ Exp(δ(t)) moving
    /// as Q̇ = ½ Q ⊗ (0, ω): checked by a central difference of Log(Q₀⁻¹ ⊗ Q(t ± h)) where
    /// Q(t ± h) = Q ⊗ Exp(±h·ω) (ω constant in F over the step). The difference's error is
    /// O(h²·|ω|³) ≈ 1e-12 with h = 1e-5; the tolerance 1e-8 leaves room for its rounding
    /// (ε/h ≈ 2e-11 times |δ|).
    #[test]
    fn the_tangent_rate_is_the_derivative_of_the_rotation_vector() {
        let delta = Vector3::new(0.3, -0.2, 0.5);
        let omega = Vector3::new(0.7, 0.1, -0.4);
        let q = exp_quaternion(&delta);
        let h = 1e-5;
        let log_after = |sign: f64| {
            let step = exp_quaternion(&(omega * (sign * h)));
            let moved = quaternion_product(&q, &step);
            crate::multibody::joint::quaternion_to_rotation_vector(&moved)
        };
        let fd = (log_after(1.0) - log_after(-1.0)) / (2.0 * h);
        let rate = inverse_right_jacobian(&delta, &omega);
        assert!((fd - rate).norm() < 1e-8, "{fd} against {rate}");
    }
}
