//! The group's narrow phase for one pair: the contact manifold and the penalty force over it,
//! computed as the SpatialContactForce computes it for a pair (`contact_points = "manifold"`;
//! `spatial_contact/manifold_eval.rs`), with the same operations in the same order, so that a
//! group of two geometries gives the pair block's wrenches bit for bit.
//!
//! Per manifold point i (World): v_n = n·v_rel at the point's velocity point, v_t the tangential
//! part of v_rel at the point, f_n = share·law(d̂, −v_n), f_t = friction(f_n, v_t), and the
//! follower receives F = Σ (n·f_n + f_t) and the moment Σ x_i × (n·f_n + f_t) about the World
//! origin; the base receives the opposite.

use crate::blocks::multibody::FrameMotion;
use crate::contact::friction::FrictionLaw;
use crate::contact::manifold_force::point_normal_force;
use crate::contact::normal_force::NormalForceLaw;
use crate::geometry::query::manifold::{contact_manifold_with, ContactManifold};
use crate::geometry::{QueryWorkspace, Shape};
use nalgebra::{Isometry3, Vector3};

/// The buffers of the narrow phase, sized once for every pair of the group's shapes.
#[derive(Clone, Debug)]
pub(super) struct Narrow {
    workspace: QueryWorkspace,
    manifold: ContactManifold,
    normal_velocity: Vec<f64>,
    tangential_velocity: Vec<Vector3<f64>>,
    slip_speed: Vec<f64>,
}

/// One side of a pair: its shape, motion and pose (World ← geometry frame), and whether it is
/// fixed to the World (its material velocity is then zero).
pub(super) struct PairSide<'a> {
    pub(super) shape: &'a Shape,
    pub(super) motion: &'a FrameMotion,
    pub(super) pose: &'a Isometry3<f64>,
    pub(super) fixed: bool,
}

/// What one pair gives: its separation (m) and the wrench on the follower about the World
/// origin (moment N·m, force N); zero wrench when apart.
pub(super) struct PairResult {
    pub(super) separation: f64,
    pub(super) in_contact: bool,
    pub(super) moment: Vector3<f64>,
    pub(super) force: Vector3<f64>,
}

impl Narrow {
    /// Buffers for every pair among `shapes`.
    pub(super) fn for_shapes<'a>(shapes: impl IntoIterator<Item = &'a Shape>) -> Self {
        let manifold = ContactManifold::for_shapes(shapes);
        let n = manifold.capacity();
        Narrow {
            workspace: QueryWorkspace::new(),
            manifold,
            normal_velocity: vec![0.0; n],
            tangential_velocity: vec![Vector3::zeros(); n],
            slip_speed: vec![0.0; n],
        }
    }

    /// The pair's separation only (m): the same number [`Narrow::eval`] gives (the same
    /// manifold), without the forces; `None` for a pair the geometry table does not support.
    pub(super) fn separation(&mut self, base: &PairSide, follower: &PairSide) -> Option<f64> {
        contact_manifold_with(
            &mut self.workspace,
            base.shape,
            base.pose,
            follower.shape,
            follower.pose,
            &mut self.manifold,
        )
        .ok()?;
        Some(self.manifold.separation())
    }

    /// The pair's separation and the wrench on `follower` under `normal` and `friction`; `None`
    /// for a pair the geometry table does not support (never asked: the group skips them).
    pub(super) fn eval(
        &mut self,
        normal: &NormalForceLaw,
        friction: &FrictionLaw,
        base: &PairSide,
        follower: &PairSide,
    ) -> Option<PairResult> {
        let separation = self.separation(base, follower)?;
        let n: Vector3<f64> = self.manifold.normal().into_inner();
        let m = self.manifold.points().len().min(self.normal_velocity.len());
        if !(separation < 0.0 && m > 0) {
            return Some(PairResult {
                separation,
                in_contact: false,
                moment: Vector3::zeros(),
                force: Vector3::zeros(),
            });
        }
        // The follower's material velocity relative to the base's at p (World, m/s).
        let (mb, mf) = (base.motion, follower.motion);
        let relative = |p: &Vector3<f64>| {
            if base.fixed {
                mf.point_velocity(p)
            } else {
                mf.point_velocity(p) - mb.point_velocity(p)
            }
        };
        let points = self.manifold.points();
        for (i, p) in points[..m].iter().enumerate() {
            let vn = n.dot(&relative(&p.velocity_point.coords));
            let v_rel = relative(&p.point.coords);
            let vt = v_rel - n * n.dot(&v_rel);
            self.normal_velocity[i] = vn;
            self.tangential_velocity[i] = vt;
            self.slip_speed[i] = vt.norm_squared();
        }
        for v in self.slip_speed[..m].iter_mut() {
            *v = v.sqrt();
        }
        let (mut moment, mut force) = (Vector3::zeros(), Vector3::zeros());
        for (i, p) in points[..m].iter().enumerate() {
            let f_n = point_normal_force(normal, p, -self.normal_velocity[i]);
            let f_t =
                friction.force_at_speed(f_n, &self.tangential_velocity[i], self.slip_speed[i]);
            let x = p.point.coords;
            let f = n * f_n + f_t;
            moment += x.cross(&f);
            force += f;
        }
        Some(PairResult {
            separation,
            in_contact: true,
            moment,
            force,
        })
    }
}
