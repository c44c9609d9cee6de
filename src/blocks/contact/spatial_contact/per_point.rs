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
use crate::geometry::{query_point_cloud_with, query_with, ContactGeometry};

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
        self.query_points(s, sides)?;
        let points = self.points;
        write_separations(io, &s.geometry[..points]);
        let in_contact_count = self.per_point_kinematics(s, sides, used);
        let wrench = self.per_point_forces(io, s, sides, used);
        // Pass 4, the sensed outputs, only when something reads them: the scalar ones output by
        // output, the ones that need the contact frame or the poses point by point.
        if used.any_sensing {
            self.write_scalar_sensing(io, s, used);
        }
        if used.frame_sensing {
            self.write_frame_sensing(io, s, sides, used);
        }
        self.write_point_count(io, in_contact_count);
        Some(wrench)
    }

    /// Queries the pair's geometry into `s.geometry`: one point per cloud point, or the single
    /// point. `None` when the query failed (or a side has no shape).
    #[inline]
    fn query_points(&self, s: &mut Scratch, sides: &Sides) -> Option<()> {
        let (base, follower) = (self.base.as_ref()?, self.follower.as_ref()?);
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
        Some(())
    }

    /// Passes 1 and 2, kinematics: each point's relative velocity split into the normal
    /// velocity v_n (m/s) and the tangential velocity v_t, and the slip speed |v_t|, into `s`;
    /// for the points in contact, or all of them when a velocity is sensed (a point skipped gets
    /// a slip speed of 0). Returns the number of points in contact.
    #[inline]
    fn per_point_kinematics(&self, s: &mut Scratch, sides: &Sides, used: &UsedOutputs) -> usize {
        let points = self.points;
        let geometry = &s.geometry[..points];
        let mut in_contact_count = 0usize;
        // Every per-point slice is cut to `points` first, so that the compiler drops the index
        // checks below.
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
            let v_rel = self.relative_velocity(sides.base, sides.follower, &g.point.coords);
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
        in_contact_count
    }

    /// Pass 3: the normal force magnitude (N) and friction force of each point in contact (0
    /// for the others) into `s`, from the laws or the force inputs, and their wrench about the
    /// World origin (moment, force), also added to `s.resultant` when it is read.
    #[inline]
    fn per_point_forces(
        &self,
        io: &mut Io,
        s: &mut Scratch,
        sides: &Sides,
        used: &UsedOutputs,
    ) -> (Vector3<f64>, Vector3<f64>) {
        let points = self.points;
        let geometry = &s.geometry[..points];
        let normal_velocity = &s.normal_velocity[..points];
        let tangential_velocity = &s.tangential_velocity[..points];
        let slip_speed = &s.slip_speed[..points];
        let mut moment = Vector3::zeros();
        let mut force_sum = Vector3::zeros();
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
                    let axes = contact_axes(&n, &sides.base.rotation);
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
        (moment, force_sum)
    }

    /// The sensed outputs that need the contact frame or the poses, point by point.
    fn write_frame_sensing(&self, io: &mut Io, s: &Scratch, sides: &Sides, used: &UsedOutputs) {
        for i in 0..self.points {
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
            write_frame_outputs(io, used, i, &contact, sides.base, sides.follower);
        }
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

/// Writes each point's separation (m) into the `separation` output.
#[inline]
fn write_separations(io: &mut Io, geometry: &[ContactGeometry]) {
    let (signals, _, outs) = io.raw();
    let at = outs[SEPARATION].offset as usize;
    for (out, g) in signals[at..at + geometry.len()].iter_mut().zip(geometry) {
        *out = g.separation;
    }
}
