//! The pair's force over its contact manifold (`contact_points = "manifold"`, the default): each
//! point carries the normal law scaled by its share (see [`crate::contact::manifold_force`]),
//! friction per point.
//!
//! The outputs keep their single-pair meaning: `separation` is the pair's signed distance,
//! `penetration` the deepest point's depth, `normal_force` the total, `friction_force` the
//! magnitude of the total friction force, the velocities are those at the centre of pressure
//! `Σ f_i·p_i / Σ f_i`, the translations give the centre of pressure, and the contact frame's z axis is the
//! manifold's shared normal. `points` is the number of manifold points.

use nalgebra::Vector3;

use super::force::{Scratch, Sides, SpatialContactForce};
use super::outputs::SEPARATION;
use super::sensed::{contact_axes, write_sensed, SensedContact, UsedOutputs};
use crate::block::Io;
use crate::blocks::multibody::FrameMotion;
use crate::contact::manifold_force::point_normal_force;
use crate::contact::normal_force::NormalForceLaw;
use crate::geometry::query::manifold::contact_manifold_with;

/// The sums over a manifold's points that the outputs report.
struct ManifoldTotals {
    /// Wrench on the follower about the World origin: moment (N·m), force (N).
    moment: Vector3<f64>,
    force: Vector3<f64>,
    /// Total normal force (N) and total friction force (N, World).
    normal: f64,
    friction: Vector3<f64>,
    /// Centre of pressure (m, World).
    centre: Vector3<f64>,
}

impl SpatialContactForce {
    /// Builds the manifold, computes the forces and writes the outputs. Returns the wrench on the
    /// follower about the World origin (moment, force), or `None` when the query failed (not
    /// reachable for a pair accepted when the block was bound: the only error is an unsupported
    /// pair).
    pub(super) fn eval_manifold(
        &self,
        io: &mut Io,
        s: &mut Scratch,
        sides: &Sides,
        used: &UsedOutputs,
    ) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let (base, follower) = (self.base.as_ref()?, self.follower.as_ref()?);
        let (mb, mf) = (sides.base, sides.follower);
        let (pose_b, pose_f) = (sides.pose_base, sides.pose_follower);
        contact_manifold_with(
            &mut s.workspace,
            &base.shape,
            pose_b,
            &follower.shape,
            pose_f,
            &mut s.manifold,
        )
        .ok()?;
        let separation = s.manifold.separation();
        io.output(SEPARATION)[0] = separation;
        let n: Vector3<f64> = s.manifold.normal().into_inner();
        let m = s.manifold.points().len().min(s.normal_velocity.len());
        if !(separation < 0.0 && m > 0) {
            if used.any_sensing {
                let apart = SensedContact {
                    in_contact: false,
                    depth: 0.0,
                    normal: n,
                    point: Vector3::zeros(),
                    normal_velocity: 0.0,
                    tangential_velocity: Vector3::zeros(),
                    normal_force: 0.0,
                    friction_force: 0.0,
                };
                write_sensed(io, used, 0, &apart, mb, mf);
            }
            self.write_point_count(io, 0);
            return Some((Vector3::zeros(), Vector3::zeros()));
        }
        self.point_kinematics(s, mb, mf, &n, m);
        let totals = self.point_forces(io, s, mb, &n, m, used);
        if used.any_sensing {
            let v_rel = self.relative_velocity(mb, mf, &totals.centre);
            let vn = n.dot(&v_rel);
            let contact = SensedContact {
                in_contact: true,
                depth: s.manifold.max_depth(),
                normal: n,
                point: totals.centre,
                normal_velocity: vn,
                tangential_velocity: v_rel - n * vn,
                normal_force: totals.normal,
                friction_force: totals.friction.norm(),
            };
            write_sensed(io, used, 0, &contact, mb, mf);
        }
        self.write_point_count(io, m);
        Some((totals.moment, totals.force))
    }

    /// The normal rate and slip of the first `m` manifold points, into the scratch: the normal
    /// rate at each point's velocity point (a short rim arc moves with its deepest point), the
    /// slip at the point itself (a spread patch resists pivoting); then the slip speeds in one
    /// pass.
    fn point_kinematics(
        &self,
        s: &mut Scratch,
        mb: &FrameMotion,
        mf: &FrameMotion,
        n: &Vector3<f64>,
        m: usize,
    ) {
        for (i, p) in s.manifold.points()[..m].iter().enumerate() {
            let vn = n.dot(&self.relative_velocity(mb, mf, &p.velocity_point.coords));
            let v_rel = self.relative_velocity(mb, mf, &p.point.coords);
            let vt = v_rel - n * n.dot(&v_rel);
            s.normal_velocity[i] = vn;
            s.tangential_velocity[i] = vt;
            s.slip_speed[i] = vt.norm_squared();
        }
        for v in s.slip_speed[..m].iter_mut() {
            *v = v.sqrt();
        }
    }

    /// Each point's normal force (share · law, or its share of an input total) and friction,
    /// their wrench, totals and centre of pressure; the resultant's forces when it is read.
    fn point_forces(
        &self,
        io: &Io,
        s: &mut Scratch,
        mb: &FrameMotion,
        n: &Vector3<f64>,
        m: usize,
        used: &UsedOutputs,
    ) -> ManifoldTotals {
        let points = s.manifold.points();
        // Forces by input: the given totals (normal; friction x, y in the contact frame) spread
        // over the points by their shares.
        let normal_input = self
            .fn_input
            .map(|k| NormalForceLaw::input_magnitude(io.input(k)[0]));
        let friction_input = self.ff_input.map(|k| {
            let axes = contact_axes(n, &mb.rotation);
            let ff = io.input(k);
            axes.column(0) * ff[0] + axes.column(1) * ff[1]
        });
        let share_total: f64 = points[..m].iter().map(|p| p.share).sum();
        // Each point's part of a total given by input (equal parts if no point has a share).
        let part = |share: f64| {
            if share_total > 0.0 {
                share / share_total
            } else {
                1.0 / m as f64
            }
        };
        let mut totals = ManifoldTotals {
            moment: Vector3::zeros(),
            force: Vector3::zeros(),
            normal: 0.0,
            friction: Vector3::zeros(),
            centre: Vector3::zeros(),
        };
        for (i, p) in points[..m].iter().enumerate() {
            let f_n = match normal_input {
                Some(f) => f * part(p.share),
                None => point_normal_force(&self.normal, p, -s.normal_velocity[i]),
            };
            let f_t = match friction_input {
                Some(f) => f * part(p.share),
                None => {
                    self.friction
                        .force_at_speed(f_n, &s.tangential_velocity[i], s.slip_speed[i])
                }
            };
            let x = p.point.coords;
            let force = n * f_n + f_t;
            totals.moment += x.cross(&force);
            totals.force += force;
            totals.friction += f_t;
            totals.normal += f_n;
            totals.centre += x * f_n;
            if used.want_resultant {
                s.resultant.add_force(x, *n, force);
            }
        }
        // Centre of pressure; the share-weighted centre when no point pushes (separating).
        totals.centre = if totals.normal > 0.0 {
            totals.centre / totals.normal
        } else {
            points[..m]
                .iter()
                .map(|p| p.point.coords * part(p.share))
                .sum()
        };
        totals
    }
}
