//! The Spatial Contact Force block (Simscape Multibody's, seed 000): penalty normal force with
//! smoothing (or MapleSim's laws, or by input), friction (smooth stick-slip, Stribeck, none, or by
//! input), every sensing output, point clouds, and zero crossings on the separation distance.
//!
//! Conventions, per contact point i (a single pair has one point; a point cloud one per cloud point,
//! in the cloud's order):
//! - The contact frame's z axis n is the base geometry's outward normal (pointing from base into
//!   follower); its x axis is the base frame's x axis projected onto the contact plane (its y axis
//!   when x is nearly normal), y = z × x. Continuous as bodies slide over smooth surfaces.
//! - separation s (m): signed distance, negative when penetrating; penetration d = max(0, −s).
//! - v_rel = velocity of the follower's material point at the contact point minus the base's (World);
//!   normal velocity = n·v_rel (negative while approaching); penetration rate ḋ = −n·v_rel.
//! - Normal force magnitude f_n from the law (`input`: the `fn` input clipped at zero), applied only
//!   while in contact (s < 0). Friction f_t opposes the tangential part of v_rel (`input`: the `ff`
//!   input's x and y components in the contact frame).
//! - The force on the follower is F = f_n·n + f_t, on the base −F, both at the contact point: the
//!   two wrenches cancel exactly about any point.
//! - Outputs for a point not in contact (s ≥ 0): `contact` 0; penetration, forces, velocities 0;
//!   rotations identity and translations zero — except `separation`, which always reports the
//!   distance (so zero crossings and users can watch it).
//! - Point-cloud arrays: `1×N` scalars, `2×N` tangential velocity, `3×N` translations, and the N
//!   rotation matrices side by side as `3×3N` (matrix i in columns 3i..3i+2), all column-major.

use super::laws_params::{read_friction_law, read_normal_law};
use crate::block::{
    Binding, Block, BlockError, BlockType, ContactRates, Ctx, Param, ParamDoc, PhysicalRole,
    PortDecl, Setup, Shape, StartOverlap, StiffnessNote,
};
use crate::blocks::multibody::{write_wrench, FrameMotion};
use crate::contact::resultant::ResultantCalculator;
use crate::geometry::query::manifold::ContactManifold;
use crate::geometry::{pair_supported, ContactGeometry, QueryWorkspace, Shape as Geometry};
use crate::param;
use crate::params::{ParamError, Params};
use crate::solver::Direction;
use nalgebra::{Isometry3, Point3, Vector3};
use sensed::UsedOutputs;
use side::Side;
use static_base::StaticBase;
use std::any::Any;

mod force;
mod kinks;
mod manifold_eval;
mod outputs;
mod per_point;
mod sensed;
mod side;
mod start_overlap;
mod static_base;
mod stiffness;

use outputs::*;

pub use force::{ContactPoints, SpatialContactForce};
use force::{Scratch, Sides};

/// The round-off of a separation (m), in machine epsilons times the larger of 1 m and the
/// geometries' distances from the World origin (1.8e-15 m near the origin): the separation's zero
/// crossing is located where it passes minus this, so that round-off about zero does not cross.
const SEPARATION_RESOLUTION: f64 = 8.0 * f64::EPSILON;

/// The parameters with defaults, each written once (see [`Param`]).
const ZERO_CROSSINGS: Param<bool> = param!(
    "zero_crossings",
    "",
    true,
    "locate sign changes of the separation distance (per point for clouds)"
);
const KINK_CROSSINGS: Param<bool> = param!("kink_crossings", "", true, "with zero_crossings, also locate the kinks of the normal law per contact point: the clip point where the law's force falls to 0 while the bodies still overlap (k·d + b·ḋ = 0 for the spring-damper laws), and the limited damper's switch (b·ḋ = k·d); steps then never straddle a kink (see docs/contact.md)");
const CONTACT_POINTS: Param<&str> = param!("contact_points", "", "manifold", "\"manifold\": every point of the contact manifold (a face touches at its corners, a cylinder on its side along its length; the law is applied to the pair as a whole and spread over the points, friction per point) | \"single\": Simscape's one deepest point per pair. Point clouds always have one contact per cloud point");

const ROLE: PhysicalRole = PhysicalRole::Consumer;

impl Block for SpatialContactForce {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        &self.physical
    }
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        let n = self.points;
        for (o, port) in OUTPUTS.iter().enumerate() {
            outputs[o] = Some(port.size.shape(n));
        }
        if let Some(i) = self.fn_input {
            inputs[i] = Some(FN_INPUT.size.shape(n));
        }
        if let Some(i) = self.ff_input {
            inputs[i] = Some(FF_INPUT.size.shape(n));
        }
        Ok(())
    }

    fn set_used_outputs(&mut self, used: &[bool]) {
        self.used = used.to_vec();
        self.used_outputs = UsedOutputs::new(&self.used, self.ff_input.is_some());
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.base.is_none() {
            return Err(BlockError::MissingGeometry {
                needs: "two geometries",
            });
        }
        let zero_crossings = if self.zero_crossings {
            // Separations either way; the law's kinks falling (see `contact::law_kinks`).
            let mut d = vec![Direction::Either; self.points];
            d.resize(self.points + self.kink_function_count(), Direction::Falling);
            d
        } else {
            vec![]
        };
        // Kinematics feed everything; forces given by input feed only the force outputs, so that a
        // custom law may be computed from this block's own sensed penetration and velocities.
        let (kin_b, kin_f) = self.kin_inputs();
        let all = 0..self.outputs.len();
        let mut feedthrough: Vec<(usize, usize)> =
            all.clone().flat_map(|o| [(kin_b, o), (kin_f, o)]).collect();
        let force_outputs = [
            NORMAL_FORCE,
            FRICTION_FORCE,
            RESULTANT_FORCE,
            RESULTANT_TORQUE,
            RESULTANT_POINT,
            NUM_USER_OUTPUTS,
            NUM_USER_OUTPUTS + 1,
        ];
        for input in [self.fn_input, self.ff_input].into_iter().flatten() {
            feedthrough.extend(force_outputs.iter().map(|&o| (input, o)));
        }
        Ok(Setup {
            zero_crossings,
            feedthrough,
            ..Setup::default()
        })
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        let empty = ContactGeometry {
            separation: f64::INFINITY,
            point: Point3::origin(),
            normal: Vector3::z_axis(),
        };
        let manifold = match (&self.base, &self.follower, self.use_manifold) {
            (Some(b), Some(f), true) => ContactManifold::for_pair(&b.shape, &f.shape),
            _ => ContactManifold::for_pair(&Geometry::Point, &Geometry::Point),
        };
        // Per-point buffers serve the cloud's points or the manifold's, whichever is more.
        let n = self.points.max(if self.use_manifold {
            manifold.capacity()
        } else {
            0
        });
        Box::new(Scratch {
            geometry: vec![empty; self.points],
            workspace: QueryWorkspace::new(),
            manifold,
            resultant: ResultantCalculator::with_capacity(n),
            normal_velocity: vec![0.0; n],
            tangential_velocity: vec![Vector3::zeros(); n],
            slip_speed: vec![0.0; n],
            normal_force: vec![0.0; n],
            friction_force: vec![Vector3::zeros(); n],
            pose_base: Isometry3::identity(),
            pose_follower: Isometry3::identity(),
            motion_base: FrameMotion::AT_REST,
            motion_follower: FrameMotion::AT_REST,
        })
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (Some(base), Some(follower)) = (&self.base, &self.follower) else {
            return;
        };
        let (kin_b, kin_f) = self.kin_inputs();
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let kin = ctx.io.input(kin_b);
        let derived;
        let (mb, pose_b) = match self.static_base.as_ref().and_then(|b| b.for_signal(kin)) {
            Some(side) => side,
            None => {
                let mb = FrameMotion::of(kin, &base.placement);
                derived = (mb.isometry(), mb);
                (&derived.1, &derived.0)
            }
        };
        let mf = FrameMotion::of(ctx.io.input(kin_f), &follower.placement);
        let pose_f = mf.isometry();
        (s.pose_base, s.pose_follower) = (*pose_b, pose_f);
        (s.motion_base, s.motion_follower) = (*mb, mf);
        let sides = Sides {
            base: mb,
            follower: &mf,
            pose_base: pose_b,
            pose_follower: &pose_f,
        };
        let used = &self.used_outputs;
        s.resultant.clear();
        let wrench = if self.use_manifold {
            self.eval_manifold(&mut ctx.io, s, &sides, used)
        } else {
            self.eval_per_point(&mut ctx.io, s, &sides, used)
        };
        let Some((moment, force)) = wrench else {
            // Not reachable for pairs accepted when the block was bound; never apply stale forces.
            let (sig, _, outs) = ctx.io.raw();
            for o in [SEPARATION, NUM_USER_OUTPUTS, NUM_USER_OUTPUTS + 1] {
                sig[outs[o].range()].fill(if o == SEPARATION { f64::INFINITY } else { 0.0 });
            }
            return;
        };
        if used.want_resultant {
            let r = if s.resultant.is_empty() {
                None
            } else {
                Some(s.resultant.compute())
            };
            let (f, t, p) = r.map_or(
                (Vector3::zeros(), Vector3::zeros(), Vector3::zeros()),
                |r| (r.force, r.torque, r.point),
            );
            ctx.io.output(RESULTANT_FORCE).copy_from_slice(f.as_slice());
            ctx.io
                .output(RESULTANT_TORQUE)
                .copy_from_slice(t.as_slice());
            ctx.io.output(RESULTANT_POINT).copy_from_slice(p.as_slice());
        }
        // Equal and opposite: the follower gets [Σ p×F; ΣF], the base its negative.
        let (wb, wf) = (NUM_USER_OUTPUTS, NUM_USER_OUTPUTS + 1);
        write_wrench(ctx.io.output(wf), &Vector3::zeros(), &force, &moment);
        write_wrench(ctx.io.output(wb), &Vector3::zeros(), &-force, &-moment);
    }

    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        // The separations were just computed by outputs_eval, and the kinks are worked out from
        // what it left in the scratch (only here: most evaluations do not ask for them).
        let (separations, kinks) = g.split_at_mut(self.points);
        separations.copy_from_slice(&ctx.io.output_value(SEPARATION)[..self.points]);
        if let Some(s) = ctx.scratch.downcast_ref::<Scratch>() {
            // The crossing is located where the separation passes −δ, δ its round-off
            // (SEPARATION_RESOLUTION): a body started exactly touching (a cylinder on its rim at
            // z = r) measured 2.8e-17 m and 0 by turns, and each return to 0 was a located
            // crossing (corpus seed 277 chattered 1000 times at t = 3e-9 s). An onset is then
            // located δ inside contact (δ/v later: 1.8e-15 s at 1 m/s), so the force law has
            // switched on at the located instant, as before.
            let scale = 1f64
                .max(s.pose_base.translation.vector.norm())
                .max(s.pose_follower.translation.vector.norm());
            let resolution = SEPARATION_RESOLUTION * scale;
            for g in separations.iter_mut() {
                *g += resolution;
            }
            self.fill_kinks(s, kinks);
        }
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn advice(&self) -> Option<&dyn crate::block::Advice> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for SpatialContactForce {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        let side = |port: &str| -> Result<Side, BlockError> {
            let (bound, shape, label) = binding.geometry(port)?;
            Ok(Side {
                shape,
                placement: bound.placement,
                label,
                inertia: bound.body_inertia,
            })
        };
        let base = side("B")?;
        let follower = side("F")?;
        let (kb, kf) = (base.shape.kind(), follower.shape.kind());
        if !pair_supported(kb, kf) {
            return Err(BlockError::UnsupportedPair {
                base: base.label,
                base_kind: kb,
                follower: follower.label,
                follower_kind: kf,
            });
        }
        let b_body = binding.port("B").map(|p| p.body);
        let f_body = binding.port("F").map(|p| p.body);
        self.base_static = b_body == Some(0);
        self.static_base = self.base_static.then(|| StaticBase::at(&base.placement));
        if b_body == f_body {
            return Err(BlockError::SameBody {
                base: base.label,
                follower: follower.label,
            });
        }
        self.points = match (&base.shape, &follower.shape) {
            (Geometry::PointCloud(c), _) | (_, Geometry::PointCloud(c)) => c.len(),
            _ => 1,
        };
        self.cloud = matches!(base.shape, Geometry::PointCloud(_))
            || matches!(follower.shape, Geometry::PointCloud(_));
        self.use_manifold = self.contact_points == ContactPoints::Manifold && !self.cloud;
        self.base = Some(base);
        self.follower = Some(follower);
        self.inputs.push(PortDecl::body_kinematics("B"));
        self.inputs.push(PortDecl::body_kinematics("F"));
        self.outputs.push(PortDecl::body_wrench("B"));
        self.outputs.push(PortDecl::body_wrench("F"));
        Ok(())
    }
}

impl crate::block::Advice for SpatialContactForce {
    fn text(&self, total_mass: f64, gravity: f64) -> Option<String> {
        // The pair carries its follower body's weight (a box on a table, a coin on a table among
        // other coins); the whole mechanism's when that body's mass is not known.
        let mass = self.supported_mass(total_mass);
        super::advice_text::spatial_contact_advice(
            &self.normal,
            &self.friction,
            mass * gravity,
            mass,
        )
    }

    fn contact_rates(&self, total_mass: f64, gravity: f64) -> Option<ContactRates> {
        let mass = self.supported_mass(total_mass);
        super::rates::contact_rates(&self.normal, &self.friction, mass * gravity, mass)
    }

    /// The pair's overlap at the start against its static depth: see [`start_overlap`].
    fn start_overlap(
        &self,
        binding: &Binding,
        body_pose: &dyn Fn(usize) -> Isometry3<f64>,
        total_mass: f64,
        gravity: f64,
    ) -> Option<StartOverlap> {
        let (base, follower) = (self.base.as_ref()?, self.follower.as_ref()?);
        start_overlap::start_overlap(
            [base, follower],
            &self.normal,
            binding,
            body_pose,
            total_mass,
            gravity,
        )
    }

    fn stiffness(&self, scratch: &(dyn Any + Send)) -> Option<StiffnessNote> {
        self.stiffness_note(scratch.downcast_ref::<Scratch>()?)
    }
}

fn build(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let normal = read_normal_law(p)?;
    let (friction, warnings) = read_friction_law(p)?;
    let zero_crossings = ZERO_CROSSINGS.read(p)?;
    let kink_crossings = KINK_CROSSINGS.read(p)?;
    let contact_points = p.choice_value(
        CONTACT_POINTS.name(),
        &ContactPoints::ALL.map(|c| (c.name(), c)),
        ContactPoints::default(),
    )?;
    let mut inputs = Vec::new();
    let mut fn_input = None;
    let mut ff_input = None;
    if normal.is_input() {
        fn_input = Some(inputs.len());
        inputs.push(FN_INPUT.decl());
    }
    if friction.is_input() {
        ff_input = Some(inputs.len());
        inputs.push(FF_INPUT.decl());
    }
    let outputs = OUTPUTS.iter().map(Port::decl).collect();
    Ok(Box::new(SpatialContactForce {
        normal,
        friction,
        zero_crossings,
        kink_crossings,
        contact_points,
        use_manifold: false,
        warnings,
        physical: vec![
            PortDecl::geometry(INPUTS[0].name),
            PortDecl::geometry(INPUTS[1].name),
        ],
        inputs,
        outputs,
        used: vec![true; NUM_USER_OUTPUTS],
        used_outputs: UsedOutputs::new(&[], ff_input.is_some()),
        base: None,
        follower: None,
        points: 1,
        base_static: false,
        static_base: None,
        cloud: false,
        fn_input,
        ff_input,
    }))
}

pub static SPATIAL_CONTACT_FORCE: BlockType = BlockType {
    name: "SpatialContactForce",
    category: "Contact",
    summary: "Contact between a base geometry B and a follower geometry F (Simscape's Spatial Contact Force): penalty normal force (smooth spring-damper, MapleSim's linear, limited-damper and Hunt–Crossley laws, or by input), friction (smooth stick-slip, Stribeck, none, or by input), applied equal and opposite at the contact points: a face resting on a face touches at every corner of the contact manifold (contact_points = \"manifold\"), or at Simscape's single point (\"single\"); every sensing output, per point for point clouds (1×N, 2×N, 3×N, rotations as 3×3N). Zero crossings on the separation distance stop a fast body tunnelling through a stiff, thin transition (without them it can step over the contact).",
    params: &[
        ParamDoc { name: "normal", unit: "", default: "smooth_spring_damper", doc: "{ method = \"smooth_spring_damper\", stiffness (N/m, 1e6), damping (N·s/m, 1e3), transition_width (m, 1e-4) } | { method = \"linear_spring_damper\", stiffness, damping } | { method = \"linear_spring_limited_damper\", stiffness, damping } | { method = \"hunt_crossley\", stiffness (N/mⁿ), damping, exponent n (1.5), velocity_exponent q (1), depth_exponent p (n) } | { method = \"input\" } (input fn)" },
        ParamDoc { name: "friction", unit: "", default: "smooth_stick_slip", doc: "{ method = \"smooth_stick_slip\", static (0.5), dynamic (0.3), critical_velocity (m/s, 1e-3) } | { method = \"stribeck\", static, dynamic, stiction_velocity (m/s, 1e-4) } | { method = \"none\" } | { method = \"input\" } (input ff)" },
        ZERO_CROSSINGS.doc,
        KINK_CROSSINGS.doc,
        CONTACT_POINTS.doc,
    ],
    ports: &PORT_DOCS,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented default of `contact_points` is the one the block uses when it is not
    /// written, and the documentation names both values.
    #[test]
    fn contact_points_default_and_names_are_the_enums() {
        assert_eq!(CONTACT_POINTS.default, ContactPoints::default().name());
        for c in ContactPoints::ALL {
            let quoted = format!("\"{}\":", c.name());
            assert!(CONTACT_POINTS.doc.doc.contains(&quoted), "{quoted}");
        }
    }
}
