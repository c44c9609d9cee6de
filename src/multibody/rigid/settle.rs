//! Resting contacts end every accepted step exactly at rest (issue 27, part 3): the creep of a
//! stack.
//!
//! Resting rows hold *accelerations* (`a_n = 0`, and `a_t = 0` while sticking), so a resting
//! point's normal and tangential velocities are only kept constant, never brought back to zero,
//! and the complementarity solvers accept accelerations of order 10⁻⁹ of the problem's scale
//! (10⁻⁸ m/s² under gravity). On a single body on the floor that is harmless; between two
//! *moving* bodies (a stack) the residual is amplified: three bricks at rest had their velocities
//! grow from 10⁻¹⁶ to 10⁻⁸ m/s by 1.5 s, exponentially (e-folding 0.05–0.08 s), under every
//! integration method. A point that rests and sticks has, in the rigid model, exactly zero
//! relative velocity; after each accepted step [`settle`] restores that: one plastic impulse
//! with the normal and both tangent rows of every such point held at zero velocity (bilateral
//! rows; a face's redundant corners are decoupled by the impulse solver).
//!
//! Which points: touching ones whose normal velocity and slip are both at most
//! [`CREEP_VELOCITY`] (10⁻⁸ m/s, a hundredth of the resting and sliding thresholds). A real
//! lift-off or slip leaves that band within its first step (a corner rising with 1 m/s² passes
//! 10⁻⁸ m/s in 10 ns), so only velocities that no force drives are removed; the impulse per
//! point is at most `m·10⁻⁸` N·s. Frictionless pairs are left alone: their sliding is free, and
//! holding their normal rows alone let a frictionless stack's top brick lift off. Pairs whose last
//! resting solve had a contact sliding or with its friction on the polygon's edge
//! ([`RigidWorkspace::slipping`]) are left alone too: a contact that has just reached its cone
//! slips from zero speed (k (t − t_s)²/2m for a ramped push), below `CREEP_VELOCITY` for its first
//! tens of microseconds, and settling it would hold it back from the slip that the
//! sliding-switch event (`modes.rs`) locates. Pairs whose last resting solve gave none of
//! their contacts a positive normal force ([`RigidWorkspace::loaded`]) are left alone as well: a
//! touching point without load (lifting off slowly) has nothing to hold it. Nothing is done while every such velocity is below [`SETTLED_VELOCITY`] (round-off),
//! so a scene at rest does not restart the integrator at every step.

use super::plastic::stop_points;
use super::workspace::{Candidate, RigidWorkspace};
use super::RigidConstraint;
use crate::multibody::constraints::ContactRow;
use crate::multibody::mechanism::Mechanism;
use crate::multibody::workspace::Workspace;

/// A touching point moving (normally or tangentially) at most this fast is creeping (m/s).
pub const CREEP_VELOCITY: f64 = 1e-8;
/// Velocities at most this are round-off: nothing to settle (m/s).
pub const SETTLED_VELOCITY: f64 = 1e-14;

/// Whether a candidate is a creeping point of a frictional contact pair (see the module
/// documentation): its pair has friction (`friction` = μ > 0), is neither `slipping` nor
/// without load (`loaded`: a positive normal force on one of its contacts in the last resting
/// solve), and the point touches, is not a closure row, and both its normal velocity and its
/// slip are at most [`CREEP_VELOCITY`].
fn creeping(friction: f64, slipping: bool, loaded: bool, c: &Candidate) -> bool {
    friction > 0.0
        && !slipping
        && loaded
        && !c.bilateral
        && matches!(c.row, ContactRow::Point { .. })
        && c.touching()
        && c.normal_velocity.abs() <= CREEP_VELOCITY
        && c.slip_speed() <= CREEP_VELOCITY
}

/// [`creeping`] for candidate `c` of `rw`'s pairs.
fn creeping_in(pairs: &[RigidConstraint], rw: &RigidWorkspace, c: &Candidate) -> bool {
    creeping(
        pairs[c.owner].friction(),
        rw.slipping[c.owner],
        rw.loaded[c.owner],
        c,
    )
}

/// Brings the creeping points among `rw`'s candidates (found at `(q, v)`) to rest with one
/// plastic impulse on `v`; returns whether `v` changed. A solver failure leaves `v` as it is.
pub fn settle(
    m: &Mechanism,
    pairs: &[RigidConstraint],
    rw: &mut RigidWorkspace,
    ws: &mut Workspace,
    q: &[f64],
    v: &mut [f64],
) -> bool {
    let largest = rw
        .candidates
        .iter()
        .filter(|c| creeping_in(pairs, rw, c))
        .fold(0.0f64, |s, c| {
            s.max(c.normal_velocity.abs()).max(c.slip_speed())
        });
    if largest <= SETTLED_VELOCITY {
        return false;
    }
    stop_points(m, rw, ws, (q, v), |rw, i| {
        creeping_in(pairs, rw, &rw.candidates[i])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    /// A point of the floor (World, body 0) under body 1, touching (gap 0), moving at `v` (m/s,
    /// World; the normal is +z).
    fn point(v: Vector3<f64>) -> Candidate {
        let n = Vector3::z();
        Candidate {
            owner: 0,
            slot: 0,
            row: ContactRow::Point {
                body_a: 0,
                body_b: 1,
                point: Vector3::zeros(),
                direction: n,
            },
            tangents: [Vector3::x(), Vector3::y()],
            gap: 0.0,
            relative_velocity: v,
            normal_velocity: v.dot(&n),
            bias: 0.0,
            tangent_bias: Vector3::zeros(),
            bilateral: false,
        }
    }

    #[test]
    fn only_a_loaded_sticking_frictional_point_creeping_slowly_is_settled() {
        // Creeping: 5e-9 m/s slip and 5e-9 m/s normal drift, both within 1e-8 m/s.
        let slow = point(Vector3::new(5e-9, 0.0, -5e-9));
        assert!(creeping(0.5, false, true, &slow));
        // Issue 27's review: a touching point with no normal force (slowly lifting off, or
        // touching without load) must not get the (bilateral) impulse.
        assert!(!creeping(0.5, false, false, &slow));
        // Frictionless pairs and pairs about to slip are left alone.
        assert!(!creeping(0.0, false, true, &slow));
        assert!(!creeping(0.5, true, true, &slow));
        // Faster than the band, normally or tangentially (2e-8 m/s): real motion.
        assert!(!creeping(
            0.5,
            false,
            true,
            &point(Vector3::new(2e-8, 0.0, 0.0))
        ));
        assert!(!creeping(
            0.5,
            false,
            true,
            &point(Vector3::new(0.0, 0.0, 2e-8))
        ));
        // Not touching (a gap of 1 mm), or a closure row.
        let apart = Candidate { gap: 1e-3, ..slow };
        assert!(!creeping(0.5, false, true, &apart));
        let closure = Candidate {
            bilateral: true,
            ..slow
        };
        assert!(!creeping(0.5, false, true, &closure));
    }
}
