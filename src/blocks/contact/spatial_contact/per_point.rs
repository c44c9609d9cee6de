//! One contact per point: the single-point pair (`contact_points = "single"`, or a pair with a
//! point) and point clouds (one contact per cloud point, each with its own normal and law).

use nalgebra::Vector3;

use super::force::{Scratch, Sides, SpatialContactForce};
use super::outputs::{
    CONTACT, FRICTION_FORCE, NORMAL_FORCE, NORMAL_VELOCITY, PENETRATION, SEPARATION,
};
use super::sensed::{contact_axes, write_frame_outputs, SensedContact, UsedOutputs};
use crate::block::Io;
use crate::contact::normal_force::NormalForceLaw;
use crate::geometry::{query_point_cloud_with, query_with};

impl SpatialContactForce {
    /// Queries the geometry, computes every point's forces and writes the outputs. Returns the
    /// wrench on the follower about the World origin (moment, force), or `None` when the query
    /// failed.
    pub(super) fn eval_per_point(
        &self,
        io: &mut Io,
        s: &mut Scratch,
        sides: &Sides,
        used: &UsedOutputs,
    ) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let (base, follower) = (self.base.as_ref()?, self.follower.as_ref()?);
        let (mb, mf) = (sides.base, sides.follower);
        let (pose_b, pose_f) = (sides.pose_base, sides.pose_follower);
        if self.cloud {
            query_point_cloud_with(
                &mut s.workspace,
                &base.shape,
                pose_b,
                &follower.shape,
                pose_f,
                &mut s.geometry,
            )
            .ok()?;
        } else {
            s.geometry[0] = query_with(
                &mut s.workspace,
                &base.shape,
                pose_b,
                &follower.shape,
                pose_f,
            )
            .ok()?;
        }
        let points = self.points;
        let geometry = &s.geometry[..points];
        {
            let (signals, _, outs) = io.raw();
            let at = outs[SEPARATION].offset as usize;
            for (out, g) in signals[at..at + points].iter_mut().zip(geometry) {
                *out = g.separation;
            }
        }
        let mut moment = Vector3::zeros();
        let mut force_sum = Vector3::zeros();
        let mut in_contact_count = 0usize;
        // Pass 1, kinematics: the relative velocity split into v_n and v_t. Every per-point
        // slice is cut to `points` first, so that the compiler drops the index checks below.
        let normal_velocity = &mut s.normal_velocity[..points];
        let tangential_velocity = &mut s.tangential_velocity[..points];
        let slip_speed = &mut s.slip_speed[..points];
        for i in 0..points {
            let g = &geometry[i];
            // A NaN separation counts as no contact, as in the outputs below.
            let in_contact = g.separation < 0.0;
            in_contact_count += usize::from(in_contact);
            if !in_contact && !used.velocity_sensing {
                slip_speed[i] = 0.0;
                continue;
            }
            let n: Vector3<f64> = g.normal.into_inner();
            let v_rel = self.relative_velocity(mb, mf, &g.point.coords);
            let vn = n.dot(&v_rel);
            let vt = v_rel - n * vn;
            normal_velocity[i] = vn;
            tangential_velocity[i] = vt;
            slip_speed[i] = vt.norm_squared();
        }
        // Pass 2: |v_t| for all points at once.
        for v in slip_speed.iter_mut() {
            *v = v.sqrt();
        }
        // Pass 3, forces of the points in contact, and their wrench about the World origin.
        let normal_force = &mut s.normal_force[..points];
        let friction_force = &mut s.friction_force[..points];
        for i in 0..points {
            let g = &geometry[i];
            // A NaN separation counts as no contact.
            let in_contact = g.separation < 0.0;
            if !in_contact {
                normal_force[i] = 0.0;
                friction_force[i] = Vector3::zeros();
                continue;
            }
            let n: Vector3<f64> = g.normal.into_inner();
            let p = g.point.coords;
            let f_n = match self.fn_input {
                Some(k) => NormalForceLaw::input_magnitude(io.input(k)[i]),
                None => self.normal.magnitude(-g.separation, -normal_velocity[i]),
            };
            let f_t = match self.ff_input {
                Some(k) => {
                    let axes = contact_axes(&n, &mb.rotation);
                    let ff = io.input(k);
                    axes.column(0) * ff[2 * i] + axes.column(1) * ff[2 * i + 1]
                }
                None => self
                    .friction
                    .force_at_speed(f_n, &tangential_velocity[i], slip_speed[i]),
            };
            normal_force[i] = f_n;
            friction_force[i] = f_t;
            let force = n * f_n + f_t;
            moment += p.cross(&force);
            force_sum += force;
            if used.want_resultant {
                s.resultant.add_force(p, n, force);
            }
        }
        // Pass 4, the sensed outputs, only when something reads them: the scalar ones output by
        // output, the ones that need the contact frame or the poses point by point.
        if used.any_sensing {
            self.write_scalar_sensing(io, s, used);
        }
        let frame_points = if used.frame_sensing { points } else { 0 };
        for i in 0..frame_points {
            let g = &s.geometry[i];
            let contact = SensedContact {
                in_contact: g.separation < 0.0,
                depth: (-g.separation).max(0.0),
                normal: g.normal.into_inner(),
                point: g.point.coords,
                normal_velocity: s.normal_velocity[i],
                tangential_velocity: s.tangential_velocity[i],
                normal_force: s.normal_force[i],
                friction_force: 0.0, // written by write_scalar_sensing
            };
            write_frame_outputs(io, used, i, &contact, mb, mf);
        }
        self.write_point_count(io, in_contact_count);
        Some((moment, force_sum))
    }

    /// The per-point scalar sensing outputs that are read (`contact`, `penetration`,
    /// `normal_force`, `friction_force`, `normal_velocity`), each written for all points at once.
    /// A point not in contact reports 0 (its normal velocity times 0).
    fn write_scalar_sensing(&self, io: &mut Io, s: &Scratch, used: &UsedOutputs) {
        let points = self.points;
        let in_contact = |i: usize| s.geometry[i].separation < 0.0;
        if used.get(CONTACT) {
            let out = &mut io.output(CONTACT)[..points];
            for (i, o) in out.iter_mut().enumerate() {
                *o = if in_contact(i) { 1.0 } else { 0.0 };
            }
        }
        if used.get(PENETRATION) {
            let out = &mut io.output(PENETRATION)[..points];
            for (o, g) in out.iter_mut().zip(&s.geometry) {
                *o = (-g.separation).max(0.0);
            }
        }
        if used.get(NORMAL_FORCE) {
            io.output(NORMAL_FORCE)[..points].copy_from_slice(&s.normal_force[..points]);
        }
        if used.get(FRICTION_FORCE) {
            let out = &mut io.output(FRICTION_FORCE)[..points];
            for (o, f) in out.iter_mut().zip(&s.friction_force) {
                *o = f.norm();
            }
        }
        if used.get(NORMAL_VELOCITY) {
            let out = &mut io.output(NORMAL_VELOCITY)[..points];
            for (i, o) in out.iter_mut().enumerate() {
                let flag = if in_contact(i) { 1.0 } else { 0.0 };
                *o = flag * s.normal_velocity[i];
            }
        }
    }
}
