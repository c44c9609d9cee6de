//! Whether gravity can move a mechanism at all: a model whose every hinge turns about the
//! vertical (or whose every slider runs horizontally) is not moved by gravity, and with nothing
//! else driving it the run shows nothing happening. `check` and `run` warn about it.
//!
//! Gravity moves a joint where the generalized gravity force G(q) = C(q, v = 0) (the bias forces
//! at rest: RNEA with zero velocity and acceleration, N or N·m per coordinate) is non-zero. G ≡ 0
//! over the whole configuration space when the potential energy −Σ mᵢ·g·pᵢ(q) does not depend on
//! q. It is evaluated at the initial configuration and at [`SAMPLES`] pseudo-random ones (each
//! coordinate moved by up to ±1 rad or m, quaternions renormalised): a mechanism that gravity
//! moves anywhere in a neighbourhood of its start shows it at one of them.

use super::mechanism::{normalize_quaternions, Mechanism};
use super::rnea::bias_forces;
use super::workspace::Workspace;

/// The configurations tried besides the initial one.
pub const SAMPLES: usize = 8;

/// |G| below this fraction of (total weight × 1 m) counts as zero: round-off, not a lever.
const ZERO: f64 = 1e-9;

/// True when gravity has a component along some joint's motion at the initial configuration or
/// at one of the sampled ones; also true for a mechanism without mass or gravity (nothing to say).
pub fn gravity_moves_a_joint(m: &Mechanism) -> bool {
    let weight = m.gravity().norm()
        * (0..m.num_bodies())
            .map(|b| m.body_inertia(b).mass)
            .sum::<f64>();
    if weight.is_nan() || weight <= 0.0 || m.nv() == 0 {
        return true;
    }
    let (mut q0, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
    m.initial_state(&mut q0, &mut v);
    v.fill(0.0);
    let mut ws = Workspace::new(m);
    let mut g = vec![0.0; m.nv()];
    let mut q = q0.clone();
    for sample in 0..=SAMPLES {
        if sample > 0 {
            for (k, (qk, q0k)) in q.iter_mut().zip(&q0).enumerate() {
                *qk = q0k + spread(sample * 131 + k);
            }
            normalize_quaternions(m, &mut q);
        }
        bias_forces(m, &q, &v, &[], &mut ws, &mut g);
        if g.iter().any(|x| !x.is_finite() || x.abs() > ZERO * weight) {
            return true;
        }
    }
    false
}

/// A deterministic value in [−1, 1) (a Weyl sequence on the golden ratio).
fn spread(i: usize) -> f64 {
    let x = (i as f64 * 0.618_033_988_749_894_9).fract();
    2.0 * x - 1.0
}
