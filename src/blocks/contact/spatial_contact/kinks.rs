//! The normal law's kinks as zero-crossing functions of the block (`contact::law_kinks`).
//!
//! Layout after the separations: one group of `law.kink_count()` functions per contact point —
//! each cloud point, or the single point of a pair. A pair evaluated over its manifold has one
//! group, live while the manifold has exactly one point (a sphere on a plane, a box on a corner,
//! a tilted coin on its rim) and [`APART`] otherwise.
//!
//! Manifolds of several points (faces, rims, edges) have no kink functions yet. Tried and left
//! out: one group per manifold slot (the points at a face's boundary hover at zero depth while the
//! face rests, where k·d + b·ḋ is an integration-noise-sized number of either sign), the deepest
//! point's group (it jumps when the deepest point changes), and the largest clip function over the
//! points (continuous, but a coin settling flat grazed zero with it and, with the solver's
//! re-arming of functions that turn back at their crossing, fired it a thousand times at one
//! instant). Locating those kinks needs per-point bookkeeping of the manifold (follow-up).

use super::force::{Scratch, SpatialContactForce};
use crate::contact::law_kinks;

pub(super) use law_kinks::APART;

impl SpatialContactForce {
    /// Contact points that carry kink functions (see the module documentation).
    fn kink_slots(&self) -> usize {
        if self.use_manifold {
            1
        } else {
            self.points
        }
    }

    /// Number of kink functions the block declares (0 without zero crossings or kinks).
    pub(super) fn kink_function_count(&self) -> usize {
        if self.zero_crossings && self.kink_crossings {
            self.normal.kink_count() * self.kink_slots()
        } else {
            0
        }
    }

    /// Writes the kink functions into `out` from the depths and normal velocities the last
    /// `outputs_eval` left in the scratch (called for the zero crossings only, which the engine
    /// always asks for right after the outputs at the same state).
    pub(super) fn fill_kinks(&self, s: &Scratch, out: &mut [f64]) {
        let count = self.normal.kink_count();
        if out.is_empty() || count == 0 {
            return;
        }
        out.fill(APART);
        if self.base.is_none() || self.follower.is_none() {
            return; // never evaluated (not reachable for a bound block)
        }
        if self.use_manifold {
            let separation = s.manifold.separation();
            if separation.is_nan() || separation >= 0.0 {
                return;
            }
            if let ([p], Some(&vn)) = (s.manifold.points(), s.normal_velocity.first()) {
                self.normal
                    .kink_values(p.effective_depth, -vn, &mut out[..count]);
            }
        } else {
            for ((g, vn), out) in s
                .geometry
                .iter()
                .zip(&s.normal_velocity)
                .zip(out.chunks_exact_mut(count))
            {
                // Normal velocities are current for every point in contact.
                self.normal.kink_values(-g.separation, -vn, out);
            }
        }
    }
}
