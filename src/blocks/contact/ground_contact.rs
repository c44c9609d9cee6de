//! The GroundContact block: spatial_v2's compliant ground (`gcontact`, seed 001) acting on the
//! points of a connected Point or PointCloud geometry.
//!
//! 3-D (`dimension = 3`): the ground is the World x-y plane, z up; each point has a 2-D tangential
//! deflection state u. 2-D (`dimension = 2`): the ground is the World x axis, y up, u has one
//! component, the point's z is ignored and its forces have no z part. The per-point law is
//! [`crate::contact::ground_law`]; this block owns the u states, applies each point's force to the
//! body carrying the cloud (at the point), and declares two zero-crossing signals per point — the
//! contact function (on/off) and the stick function (stick/slip) — so the solver never steps across
//! a change of a point's state. With μ = 0 there are no u states and no stick/slip signals.

use crate::block::{
    Binding, Block, BlockError, BlockType, ContactRates, Ctx, DrawnAs, Param, PhysicalRole,
    PortDecl, PortDoc, Required, Setup, Shape, StartOverlap, StiffnessNote,
};
use crate::blocks::multibody::{write_wrench, FrameMotion};
use crate::contact::ground_law::GroundContactLaw;
use crate::geometry::Shape as Geometry;
use crate::params::{ParamError, Params};
use crate::solver::Direction;
use nalgebra::{Isometry3, Point3, Vector1, Vector2, Vector3};
use std::any::Any;

const FORCE: usize = 0;
const STATUS: usize = 1;
const CONE_RATIO: usize = 2;
const DEFLECTION: usize = 3;
const ROLE: PhysicalRole = PhysicalRole::Consumer;

/// The GroundContact block.
pub struct GroundContact {
    law: GroundContactLaw,
    planar: bool,
    /// Declare the per-point state-change signals (contact on/off, stick/slip) as zero crossings.
    zero_crossings: bool,
    physical: Vec<PortDecl>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    /// Which outputs are read (unread ones are not written).
    used: Vec<bool>,
    /// The points in their geometry frame, and that frame's placement in the body.
    points: Vec<Point3<f64>>,
    placement: Isometry3<f64>,
    /// The mass of the body that carries the points (kg; NaN before binding).
    body_mass: f64,
}

/// Per-run buffers: the zero-crossing functions computed with the outputs.
struct Scratch {
    contact: Vec<f64>,
    stick: Vec<f64>,
    /// u̇, computed with the outputs.
    rate: Vec<f64>,
    /// Each point's depth below the ground (m, > 0 in contact) and the speed at which the
    /// body's rotation carries it (m/s), at the last evaluation.
    depth: Vec<f64>,
    surface_speed: Vec<f64>,
}

impl GroundContact {
    /// The normal mode of the points in contact at the last evaluation, on the body's mass: each
    /// point at depth d linearises to a spring 1.5·K·d^½ and a damper D·d^½ (see
    /// [`GroundContactLaw::explicit_step_estimate`]); |λ|max of m·δd̈ = −Σk·δd − Σc·δḋ.
    /// `None` when no point is in contact.
    fn stiffness_note(&self, s: &Scratch) -> Option<StiffnessNote> {
        let mass = self.body_mass;
        let (mut spring, mut damper, mut points, mut surface_speed) = (0.0, 0.0, 0, 0.0f64);
        for (i, &depth) in s.depth.iter().enumerate() {
            if s.contact[i] > 0.0 && depth > 0.0 {
                spring += 1.5 * self.law.stiffness() * depth.sqrt();
                damper += self.law.damping() * depth.sqrt();
                points += 1;
                surface_speed = surface_speed.max(s.surface_speed[i]);
            }
        }
        if points == 0 || mass.is_nan() || mass <= 0.0 {
            return None;
        }
        let discriminant = damper * damper - 4.0 * mass * spring;
        let rate = if discriminant >= 0.0 {
            (damper + discriminant.sqrt()) / (2.0 * mass)
        } else {
            (spring / mass).sqrt()
        };
        (rate.is_finite() && rate > 0.0).then(|| StiffnessNote {
            rate,
            what: format!(
                "normal mode: {} N/m and {} N·s/m over {points} point(s) in contact on {} kg",
                super::advice_text::sig(spring),
                super::advice_text::sig(damper),
                super::advice_text::sig(mass)
            ),
            help: "lower the ground's stiffness or damping".to_string(),
            surface_speed,
            free_members: 0,
        })
    }

    fn tangent_dim(&self) -> usize {
        if self.planar {
            1
        } else {
            2
        }
    }
    fn num_states(&self) -> usize {
        if self.law.has_deflection_states() {
            self.tangent_dim() * self.points.len()
        } else {
            0
        }
    }
    /// The static compression, time constant and stiffness-limited step for a supported weight
    /// (N) shared equally by the points, for `blockdyn check`.
    pub fn advice_for(&self, supported_weight: f64, supported_mass: f64) -> String {
        let n = self.points.len().max(1) as f64;
        let load = supported_weight / n;
        let d = self.law.static_compression(load);
        let step = self.law.explicit_step_estimate(supported_mass / n, load);
        format!(
            "ground contact, assuming it carries the whole mechanism's weight: K = {} N/m^1.5, D = {} N·s/m^1.5; supported weight {supported_weight:.4} N over {} points ⇒ static compression (load/K)^(2/3) = {d:.3e} m per point; time constant D/K = {:.3e} s; an explicit solver needs steps of about {step:.2e} s in contact",
            self.law.stiffness(),
            self.law.damping(),
            self.points.len(),
            self.law.time_constant()
        )
    }
}

impl Block for GroundContact {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        &self.physical
    }
    fn propagate_shapes(
        &self,
        _inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        let n = self.points.len();
        outputs[FORCE] = Some(Shape::new(3, n));
        outputs[STATUS] = Some(Shape::new(1, n));
        outputs[CONE_RATIO] = Some(Shape::new(1, n));
        outputs[DEFLECTION] = Some(Shape::new(2, n));
        Ok(())
    }

    fn set_used_outputs(&mut self, used: &[bool]) {
        self.used = used.to_vec();
    }

    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        if self.points.is_empty() {
            return Err(BlockError::MissingGeometry {
                needs: "a Point or PointCloud at its F port",
            });
        }
        let per_point = if self.law.has_deflection_states() {
            2
        } else {
            1
        };
        let count = if self.zero_crossings {
            per_point * self.points.len()
        } else {
            0
        };
        let zero_crossings = vec![Direction::Either; count];
        Ok(Setup {
            num_states: self.num_states(),
            zero_crossings,
            ..Setup::memoryless(self.inputs.len(), self.outputs.len())
        })
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        let n = self.points.len();
        Box::new(Scratch {
            contact: vec![0.0; n],
            stick: vec![0.0; n],
            rate: vec![0.0; 2 * n],
            depth: vec![0.0; n],
            surface_speed: vec![0.0; n],
        })
    }

    fn state_name(&self, k: usize) -> String {
        let t = self.tangent_dim();
        format!("deflection u[{}] of point {}", k % t, k / t)
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        if self.inputs.is_empty() {
            return;
        }
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let states: &[f64] = ctx.states;
        let (sig, ins, outs) = ctx.io.raw();
        let frame = FrameMotion::of(&sig[ins[0].range()], &self.placement);
        let t = self.tangent_dim();
        let stateful = self.law.has_deflection_states();
        // Output offsets in the signal buffer; `None` for outputs nobody reads.
        let at = |o: usize| {
            self.used
                .get(o)
                .copied()
                .unwrap_or(true)
                .then_some(outs[o].offset as usize)
        };
        let (force_at, status_at, cone_at, deflection_at) =
            (at(FORCE), at(STATUS), at(CONE_RATIO), at(DEFLECTION));
        let mut total_force = Vector3::zeros();
        let mut total_moment = Vector3::zeros();
        for (i, local) in self.points.iter().enumerate() {
            let p = frame.position + frame.rotation * local.coords;
            let v = frame.point_velocity(&p);
            s.depth[i] = if self.planar { -p.y } else { -p.z };
            s.surface_speed[i] = frame.angular_velocity.norm() * (p - frame.position).norm();
            let (force, status, cone, u) = if self.planar {
                let u = if stateful { states[i] } else { 0.0 };
                let r = self
                    .law
                    .evaluate(p.y, v.y, &Vector1::new(v.x), &Vector1::new(u));
                s.contact[i] = r.contact_function;
                s.stick[i] = r.stick_function;
                s.rate[i] = r.deflection_rate[0];
                (r.force_world(), r.status.code(), r.cone_ratio, [u, 0.0])
            } else {
                let u = if stateful {
                    Vector2::new(states[t * i], states[t * i + 1])
                } else {
                    Vector2::zeros()
                };
                let r = self.law.evaluate(p.z, v.z, &Vector2::new(v.x, v.y), &u);
                s.contact[i] = r.contact_function;
                s.stick[i] = r.stick_function;
                s.rate[t * i] = r.deflection_rate[0];
                s.rate[t * i + 1] = r.deflection_rate[1];
                (r.force_world(), r.status.code(), r.cone_ratio, [u.x, u.y])
            };
            if let Some(o) = force_at {
                sig[o + 3 * i..o + 3 * i + 3].copy_from_slice(force.as_slice());
            }
            if let Some(o) = status_at {
                sig[o + i] = status;
            }
            if let Some(o) = cone_at {
                sig[o + i] = cone;
            }
            if let Some(o) = deflection_at {
                sig[o + 2 * i..o + 2 * i + 2].copy_from_slice(&u);
            }
            total_force += force;
            total_moment += p.cross(&force);
        }
        let w = outs[DEFLECTION + 1].offset as usize;
        write_wrench(
            &mut sig[w..w + 6],
            &Vector3::zeros(),
            &total_force,
            &total_moment,
        );
    }

    /// u̇ per point, computed with the outputs at this state (the engine always evaluates the
    /// outputs at the state it then asks derivatives for).
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        if let Some(s) = ctx.scratch.downcast_mut::<Scratch>() {
            dxdt.copy_from_slice(&s.rate[..dxdt.len()]);
        }
    }

    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let n = self.points.len();
        g[..n].copy_from_slice(&s.contact);
        if g.len() == 2 * n {
            g[n..].copy_from_slice(&s.stick);
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

impl crate::block::PhysicalBlock for GroundContact {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        let (pb, shape, label) = binding.geometry("F")?;
        self.points = match &shape {
            Geometry::Point => vec![Point3::origin()],
            Geometry::PointCloud(c) => c.points().to_vec(),
            other => {
                return Err(BlockError::GeometryNotAccepted {
                    geometry: label,
                    kind: other.kind(),
                    accepts: "GroundContact acts on points",
                    instead: "connect a Point or PointCloud block's G port (for solids, use a SpatialContactForce with an InfinitePlane)",
                })
            }
        };
        if pb.body == 0 {
            return Err(BlockError::FixedToWorld { geometry: label });
        }
        self.placement = pb.placement;
        self.body_mass = pb.body_inertia.mass;
        self.inputs.push(PortDecl::body_kinematics("F"));
        self.outputs.push(PortDecl::body_wrench("F"));
        Ok(())
    }
}

impl crate::block::Advice for GroundContact {
    fn text(&self, total_mass: f64, gravity: f64) -> Option<String> {
        Some(self.advice_for(total_mass * gravity, total_mass))
    }

    fn contact_rates(&self, total_mass: f64, gravity: f64) -> Option<ContactRates> {
        // The law's step estimate is 2/|λ|max (its stability reach taken as 2); the frequency
        // and damping ratio of its mode are not separated from it.
        let n = self.points.len().max(1) as f64;
        let h = self
            .law
            .explicit_step_estimate(total_mass / n, total_mass * gravity / n);
        (h.is_finite() && h > 0.0).then(|| ContactRates {
            normal_rate: 2.0 / h,
            natural_frequency: 2.0 / h,
            ..ContactRates::default()
        })
    }

    /// The deepest point below the ground at the start, d = −z (−y in 2-D) of the lowest point,
    /// against the static compression d₀ = (W/K)^(2/3) of one point carrying the mechanism's whole
    /// weight W = m·g (the largest a point rests at: a rolling rim touches with one point).
    fn start_overlap(
        &self,
        binding: &Binding,
        body_pose: &dyn Fn(usize) -> Isometry3<f64>,
        total_mass: f64,
        gravity: f64,
    ) -> Option<StartOverlap> {
        let bound = binding.port("F")?;
        let pose = body_pose(bound.body) * self.placement;
        let up = if self.planar { 1 } else { 2 };
        let (k, depth) = self
            .points
            .iter()
            .map(|p| -(pose * p)[up])
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        if depth.is_nan() || depth <= 0.0 {
            return None;
        }
        let weight = total_mass * gravity;
        let label = bound.geometry.as_deref().map_or("F", |(_, l)| l.as_str());
        let point = if self.points.len() > 1 {
            format!(" (point {k})")
        } else {
            String::new()
        };
        Some(StartOverlap {
            pair: format!("{label}{point} and the ground"),
            depth,
            static_depth: Some(self.law.static_compression(weight)),
            static_law: format!(
                "(W/K)^(2/3) with the mechanism's whole weight W = {weight:.4} N on one point, K = {} N/m^1.5",
                self.law.stiffness()
            ),
        })
    }

    fn stiffness(&self, scratch: &(dyn Any + Send)) -> Option<StiffnessNote> {
        self.stiffness_note(scratch.downcast_ref::<Scratch>()?)
    }
}

impl GroundContact {
    /// The block's law (for advice and tests).
    pub fn law(&self) -> &GroundContactLaw {
        &self.law
    }
}

/// The parameters, each written once (see [`Param`] and [`Required`]).
const STIFFNESS: Required<f64> = crate::param!(
    "stiffness",
    "N/m^1.5",
    required,
    "K: a point loaded by F sinks d = (F/K)^(2/3)"
);
const DAMPING: Required<f64> = crate::param!(
    "damping",
    "N·s/m^1.5",
    required,
    "D; D/K is the ground's recovery time constant"
);
const FRICTION: Param<f64> = crate::param!(
    "friction",
    "",
    0,
    "μ; 0 = frictionless (no deflection states)"
);
const DIMENSION: Param<usize> = crate::param!(
    "dimension",
    "",
    3,
    "3 (ground = x-y plane) or 2 (ground = x axis, y up; planar mechanisms)"
);
const ZERO_CROSSINGS: Param<bool> = crate::param!(
    "zero_crossings",
    "",
    true,
    "locate every change of a point's state (contact on/off, stick/slip)"
);

fn build(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let k = STIFFNESS.read(p)?;
    let d = DAMPING.read(p)?;
    let mu = FRICTION.read(p)?;
    let dim = DIMENSION.read(p)?;
    p.ensure(
        dim == 2 || dim == 3,
        "dimension",
        "must be 2 or 3",
        "write dimension = 3 (ground = x-y plane, z up) or 2 (ground = x axis, y up)",
    )?;
    let zero_crossings = ZERO_CROSSINGS.read(p)?;
    let law = GroundContactLaw::new(k, d, mu).map_err(|e| p.table_error(e.to_string()))?;
    Ok(Box::new(GroundContact {
        law,
        planar: dim == 2,
        zero_crossings,
        physical: vec![PortDecl::geometry("F")],
        inputs: vec![],
        outputs: vec![
            PortDecl::inherited("force")
                .unit("N")
                .drawn(DrawnAs::PointForces),
            PortDecl::inherited("status"),
            PortDecl::inherited("cone_ratio"),
            PortDecl::inherited("deflection").unit("m"),
        ],
        used: vec![],
        points: vec![],
        placement: Isometry3::identity(),
        body_mass: f64::NAN,
    }))
}

pub static GROUND_CONTACT: BlockType = BlockType {
    name: "GroundContact",
    category: "Contact",
    summary: "spatial_v2's compliant ground (gcontact) acting on the points of a Point or PointCloud: nonlinear normal force f_n = √(−z)·(−K z − D ż) (in contact exactly when f_n > 0), tangential deflection states u per point with a friction cone (stick/slip), relaxation of u out of contact. Ground = World x-y plane, z up (dimension 3) or x axis, y up (dimension 2). Zero crossings at every change of a point's state. `blockdyn check` reports the static compression, time constant D/K and the step the explicit solver will need.",
    params: &[
        STIFFNESS.doc,
        DAMPING.doc,
        FRICTION.doc,
        DIMENSION.doc,
        ZERO_CROSSINGS.doc,
    ],
    ports: &[
        PortDoc { name: "F", kind: "geometry", shape: "", unit: "", doc: "a Point or PointCloud geometry" },
        PortDoc { name: "force", kind: "output", shape: "3×N", unit: "N", doc: "ground force on each point, World" },
        PortDoc { name: "status", kind: "output", shape: "1×N", unit: "", doc: "0 not in contact, 1 sticking, 2 slipping" },
        PortDoc { name: "cone_ratio", kind: "output", shape: "1×N", unit: "", doc: "|f_t,stick|/(μ f_n) in contact; 2 when not in contact" },
        PortDoc { name: "deflection", kind: "output", shape: "2×N", unit: "m", doc: "tangential deflection u (2-D: second row 0)" },
    ],
    build,
};
