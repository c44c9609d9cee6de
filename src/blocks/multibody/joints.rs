//! Joint blocks: RevoluteJoint, PrismaticJoint, CylindricalJoint, UniversalJoint, SphericalJoint,
//! PlanarJoint, SixDofJoint, WeldJoint.
//!
//! A joint moves its follower frame `F` relative to its base frame `B` along/about `B`'s z axis
//! (coordinates in [`crate::multibody::joint`]). Its states live in the mechanism block; the joint
//! block reads them through a hidden `state` input and exposes the sensing outputs. With
//! `actuation = "input"` its input `t` (force or torque per degree of freedom) is passed to the
//! mechanism through a hidden `tau` output — a direct feedthrough only from `t` to `tau`, so a
//! controller may close a loop from `q` to `t`.

use super::joint_effort::{read_effort_limit, saturate};
use super::joint_friction::{JointFriction, FRICTION_DOC};
use super::joint_limits::{read_limits, JointLimits, LimitMethod};
use super::joint_motion::{self, MotionSpec};
use super::port_lists::{self, PortList};
use crate::block::{
    Binding, Block, BlockError, BlockType, Ctx, HiddenPort, Param, ParamDoc, PhysicalRole,
    PortDecl, PortDoc, Setup, Shape,
};
use crate::multibody::rigid::{output as rigid_output, RigidConstraint};
use crate::multibody::{JointKind, JointSpec};
use crate::param;
use crate::params::{ParamError, Params};
use crate::solver::Direction;

/// A joint block.
pub struct JointBlock {
    role: PhysicalRole,
    kind: JointKind,
    /// The base `B` and follower `F` frames: every joint's, shared ([`JOINT_PORTS`]).
    physical: &'static [PortDecl],
    /// Shared with the joints whose lists are equal once bound (`port_lists::share`).
    inputs: PortList,
    outputs: PortList,
    /// Per user output: (offset, length) in the joint's state vector [q; v].
    sources: Vec<(usize, usize)>,
    /// Which user outputs are read (connected or logged): the others are not copied. Empty until
    /// the diagram says (then all are).
    read: Vec<bool>,
    actuated: bool,
    /// Limits (RevoluteJoint, PrismaticJoint), with the `limit_force` output's index. Boxed, as
    /// `friction` is: most joints have neither, and inline they cost every joint block (at
    /// 20,000 URDF joints, ~3 MB of the diagram).
    limits: Option<Box<JointLimits>>,
    limit_output: Option<usize>,
    /// Friction on the joint's axes (computed by the mechanism; the block outputs it and locates
    /// stick and slip), with the `friction_force` output's index.
    friction: Option<Box<JointFriction>>,
    friction_output: Option<usize>,
    /// `effort_limit` per axis (N or N·m): the input `t` is saturated to ±effort; empty for none.
    effort: Vec<f64>,
    /// Hidden ports once bound: the state input, the solved rigid limit's input, the actuation
    /// output; and the joint's index in the mechanism.
    state_input: Option<usize>,
    limit_input: Option<usize>,
    tau_output: Option<usize>,
    joint: usize,
    /// Accepted but questionable parameters (see [`Block::warnings`]).
    warnings: Vec<String>,
    /// Motion inputs, reaction and actuator force (see `joint_motion.rs`).
    drive: joint_motion::JointDrive,
    /// A weld on a cycle of rigid connections: its reaction is refused (statically
    /// indeterminate).
    weld_on_rigid_cycle: bool,
}

/// A joint's physical ports, the same for every kind and shared by every joint block: a list
/// per block (two ports and their names, about 300 bytes and three allocations) was kept by each
/// of a 20,000-joint URDF chain's joints.
static JOINT_PORTS: std::sync::LazyLock<[PortDecl; 2]> =
    std::sync::LazyLock::new(|| [PortDecl::frame("B"), PortDecl::frame("F")]);

fn sensing_outputs(kind: JointKind) -> Vec<(&'static str, usize, usize, &'static str)> {
    // (name, offset in [q; v], length, unit)
    let (nq, nv) = (kind.nq(), kind.nv());
    match kind {
        JointKind::Weld => vec![],
        JointKind::Revolute => vec![("q", 0, 1, "rad"), ("w", 1, 1, "rad/s")],
        JointKind::Prismatic => vec![("q", 0, 1, "m"), ("w", 1, 1, "m/s")],
        JointKind::Spherical => vec![("Q", 0, 4, ""), ("w", 4, 3, "rad/s")],
        JointKind::SixDof => vec![
            ("p", 0, 3, "m"),
            ("Q", 3, 4, ""),
            ("v", 7, 3, "m/s"),
            ("w", 10, 3, "rad/s"),
        ],
        _ => vec![("q", 0, nq, ""), ("w", nq, nv, "")],
    }
}

/// Per-element units of a joint's mixed `q` and `w` outputs (their coordinate order:
/// cylindrical [θ, z], planar [x, y, θ]); `None` where one unit fits all.
fn element_units(kind: JointKind, name: &str) -> Option<&'static [&'static str]> {
    match (kind, name) {
        (JointKind::Cylindrical, "q") => Some(&["rad", "m"]),
        (JointKind::Cylindrical, "w") => Some(&["rad/s", "m/s"]),
        (JointKind::Universal, "q") => Some(&["rad", "rad"]),
        (JointKind::Universal, "w") => Some(&["rad/s", "rad/s"]),
        (JointKind::Planar, "q") => Some(&["m", "m", "rad"]),
        (JointKind::Planar, "w") => Some(&["m/s", "m/s", "rad/s"]),
        _ => None,
    }
}

impl JointBlock {
    /// Shares the port lists once binding has added the hidden ports (a chain keeps one block
    /// per joint, most with equal lists; a grown vector also held up to twice its ports).
    fn shrink_ports(&mut self) {
        port_lists::share(&mut self.inputs);
        port_lists::share(&mut self.outputs);
    }

    /// With limits: adds the `limit_force` output.
    fn with_limits(mut self, limits: Option<JointLimits>) -> Self {
        if limits.is_some() {
            let unit = if self.kind == JointKind::Revolute {
                "N·m"
            } else {
                "N"
            };
            self.limit_output = Some(self.outputs.len());
            self.outputs
                .to_mut()
                .push(PortDecl::signal("limit_force", Shape::SCALAR).unit(unit));
        }
        self.limits = limits.map(Box::new);
        self
    }

    /// With friction (the laws of `spec.friction`): adds the `friction_force` output.
    fn with_friction(mut self) -> Self {
        let PhysicalRole::Joint { spec } = &self.role else {
            return self;
        };
        let disk = spec.friction_disk.then_some(spec.kind);
        self.friction = JointFriction::from_laws(&spec.friction, disk).map(Box::new);
        if self.friction.is_some() {
            self.friction_output = Some(self.outputs.len());
            self.outputs.to_mut().push(JointFriction::port(self.kind));
        }
        self
    }

    /// With an `effort_limit` (see [`read_effort_limit`]).
    fn with_effort(mut self, effort: Vec<f64>) -> Self {
        self.effort = effort;
        self
    }

    /// Whether the joint sends forces to the mechanism (actuation, or a penalty limit).
    fn sends_forces(&self) -> bool {
        self.actuated
            || matches!(
                self.limits.as_deref().map(|l| l.method),
                Some(LimitMethod::SpringDamper { .. })
            )
    }

    fn new(kind: JointKind, spec: JointSpec) -> Self {
        let actuated = spec.actuated;
        let sensing = sensing_outputs(kind);
        let mut outputs = Vec::new();
        // Kept by the block: sized to its outputs, not grown (a chain keeps one per joint).
        let mut sources = Vec::with_capacity(sensing.len());
        for (name, offset, len, unit) in sensing {
            let mut p = PortDecl::signal(name, Shape::vector(len));
            if !unit.is_empty() {
                p = p.unit(unit);
            }
            if let Some(units) = element_units(kind, name) {
                p = p.element_units(units);
            }
            outputs.push(p);
            sources.push((offset, len));
        }
        let mut inputs = Vec::new();
        if actuated {
            inputs.push(PortDecl::signal("t", Shape::vector(kind.nv())));
        }
        JointBlock {
            role: PhysicalRole::Joint {
                spec: Box::new(spec),
            },
            kind,
            physical: &*JOINT_PORTS,
            inputs: inputs.into(),
            outputs: outputs.into(),
            sources,
            read: Vec::new(),
            actuated,
            limits: None,
            limit_output: None,
            friction: None,
            friction_output: None,
            effort: Vec::new(),
            state_input: None,
            limit_input: None,
            tau_output: None,
            joint: 0,
            warnings: Vec::new(),
            drive: joint_motion::JointDrive::default(),
            weld_on_rigid_cycle: false,
        }
    }

    /// With motion inputs and the reaction (and actuator force) outputs.
    fn with_drive(
        mut self,
        motion: Option<MotionSpec>,
        frame: crate::multibody::ReactionFrame,
    ) -> Self {
        self.drive = joint_motion::JointDrive::new(
            self.kind,
            motion,
            frame,
            self.actuated,
            self.inputs.to_mut(),
            self.outputs.to_mut(),
        );
        self
    }
}

impl Block for JointBlock {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        self.physical
    }
    fn set_used_outputs(&mut self, used: &[bool]) {
        self.read = used.to_vec();
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn reads_input(&self, input: usize) -> bool {
        self.drive.reads_input(input, &self.read)
    }

    fn initialize(&self, ctx: &mut Ctx) {
        ctx.states.fill(0.0);
    }

    fn samples_at_start(&self) -> bool {
        self.drive.filtered().is_some()
    }

    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], time_event: bool) -> bool {
        // The start: the motion filter at rest at q_ref(0).
        time_event && crossed.is_empty() && self.drive.start_filter(ctx)
    }

    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        self.drive.derivatives(ctx, dxdt);
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        let reaction_read = self
            .drive
            .reaction_output()
            .is_some_and(|o| self.read.get(o).copied().unwrap_or(true));
        if self.weld_on_rigid_cycle && reaction_read {
            return Err(BlockError::other(
                "this weld's 'reaction' cannot be computed: the weld lies on a closed cycle of rigid connections (another weld, rigid transform or '--' connection joins its two sides too), so how the load splits between the weld and the other path is statically indeterminate; read the reaction of a weld that is the only rigid connection between two parts (remove the redundant connection, or read a joint outside the cycle)",
            ));
        }
        let mut feedthrough = Vec::new();
        if let Some(s) = self.state_input {
            feedthrough.extend((0..self.sources.len()).map(|o| (s, o)));
            let penalty = self.limit_input.is_none() && self.limits.is_some();
            for o in [self.limit_output, self.tau_output].into_iter().flatten() {
                if penalty {
                    feedthrough.push((s, o));
                }
            }
        }
        if let (Some(i), Some(o)) = (self.limit_input, self.limit_output) {
            feedthrough.push((i, o));
        }
        if let (true, Some(o)) = (self.actuated, self.tau_output) {
            feedthrough.push((0, o));
        }
        let penalty_limits = matches!(
            self.limits.as_deref().map(|l| l.method),
            Some(LimitMethod::SpringDamper { .. })
        );
        let mut zero_crossings = if penalty_limits {
            vec![Direction::Either; 2]
        } else {
            Vec::new()
        };
        if let (Some(f), Some(s)) = (&self.friction, self.state_input) {
            zero_crossings.resize(zero_crossings.len() + f.crossing_count(), Direction::Either);
            feedthrough.extend(self.friction_output.map(|o| (s, o)));
        }
        self.drive
            .feedthrough(self.actuated, &self.read, &mut feedthrough);
        Ok(Setup {
            num_states: self.drive.num_states(),
            feedthrough,
            zero_crossings,
            ..Setup::default()
        })
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let Some(state) = self.state_input else {
            // A weld: only its reaction.
            self.drive
                .outputs_eval(ctx, self.actuated, &self.read, &self.effort);
            return;
        };
        for (o, &(offset, len)) in self.sources.iter().enumerate() {
            if !self.read.get(o).copied().unwrap_or(true) {
                continue; // nobody reads it
            }
            let (source, out) = ctx.io.input_output(state, o);
            out[..len].copy_from_slice(&source[offset..offset + len]);
        }
        let mut penalty = 0.0;
        if let Some(limits) = self.limits.as_deref() {
            let (q, rate) = (ctx.input(state)[0], ctx.input(state)[1]);
            penalty = limits.penalty_force(q, rate);
            let force = match self.limit_input {
                Some(i) => ctx.input(i)[rigid_output::NORMAL_FORCE],
                None => penalty,
            };
            if let Some(o) = self.limit_output {
                ctx.output(o)[0] = force;
            }
        }
        if let (Some(f), Some(o)) = (self.friction.as_deref(), self.friction_output) {
            if self.read.get(o).copied().unwrap_or(true) {
                let (state, out) = ctx.io.input_output(state, o);
                f.forces(&state[self.kind.nq()..], out);
            }
        }
        if let Some(tau) = self.tau_output {
            let nv = self.kind.nv();
            if self.actuated {
                let (u, out) = ctx.io.input_output(0, tau);
                out[..nv].copy_from_slice(&u[..nv]);
                saturate(&self.effort, &mut out[..nv]);
            } else {
                ctx.output(tau)[..nv].fill(0.0);
            }
            if nv > 0 {
                ctx.output(tau)[0] += penalty;
            }
            self.drive.clear_prescribed(ctx.output(tau));
        }
        self.drive
            .outputs_eval(ctx, self.actuated, &self.read, &self.effort);
    }

    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let Some(state) = self.state_input else {
            return;
        };
        let friction = self.friction.as_ref().map_or(0, |f| f.crossing_count());
        let (g, g_friction) = g.split_at_mut(g.len() - friction);
        if let Some(limits) = self.limits.as_deref() {
            let crossings = limits.crossings(ctx.input(state)[0]);
            g.copy_from_slice(&crossings[..g.len()]);
        }
        if let Some(f) = &self.friction {
            f.crossings(&ctx.input(state)[self.kind.nq()..], g_friction);
        }
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for JointBlock {
    fn role(&self) -> &crate::block::PhysicalRole {
        &self.role
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        let (joint, nq, nv) = binding.joint.ok_or(BlockError::NotAJoint)?;
        self.joint = joint;
        if self.kind == JointKind::Weld {
            self.weld_on_rigid_cycle = binding.weld_on_rigid_cycle;
            self.drive
                .bind(nv, self.inputs.to_mut(), self.outputs.to_mut());
            self.shrink_ports();
            return Ok(());
        }
        self.state_input = Some(self.inputs.len());
        self.inputs
            .to_mut()
            .push(PortDecl::signal("state", Shape::vector(nq + nv)).hidden(HiddenPort::JointState));
        if matches!(
            self.limits.as_deref().map(|l| l.method),
            Some(LimitMethod::Rigid { .. })
        ) {
            self.limit_input = Some(self.inputs.len());
            let len = self
                .rigid_constraint()
                .map_or(rigid_output::POINTS, |c| c.output_len());
            self.inputs.to_mut().push(
                PortDecl::signal("limit", Shape::vector(len)).hidden(HiddenPort::RigidConstraint),
            );
        }
        if self.sends_forces() {
            self.tau_output = Some(self.outputs.len());
            self.outputs.to_mut().push(
                PortDecl::signal("tau", Shape::vector(nv)).hidden(HiddenPort::JointActuation),
            );
        }
        self.drive
            .bind(nv, self.inputs.to_mut(), self.outputs.to_mut());
        self.shrink_ports();
        Ok(())
    }

    fn rigid_constraint(&self) -> Option<RigidConstraint> {
        (self.limits.as_deref()).and_then(|l| l.rigid_constraint(self.joint))
    }
}

fn read_common(
    p: &Params,
    kind: JointKind,
    q0: Vec<f64>,
    v0: Vec<f64>,
) -> Result<JointSpec, ParamError> {
    let nv = kind.nv();
    let stiffness = per_dof(p, &STIFFNESS, nv)?;
    let damping = per_dof(p, &DAMPING, nv)?;
    let actuated = ACTUATION.read(p)? == "input";
    let motion = joint_motion::read_motion(p, kind)?;
    if let (Some(m), true) = (&motion, actuated) {
        if m.axes.iter().all(|a| *a) {
            return Err(p
                .error("actuation", "a joint driven by a motion input on every axis takes no force input")
                .hint("remove actuation = \"input\": the force the motion needs is the actuator_force output"));
        }
    }
    let friction = JointFriction::read(p, kind)?;
    Ok(JointSpec::new(kind)
        .with_state(&q0, &v0)
        .with_spring_damper(&stiffness, &damping)
        .with_friction(friction.as_ref().map_or(&[], |f| f.laws()))
        .with_disk_friction(friction.as_ref().is_some_and(|f| f.is_disk()))
        .with_actuation(actuated)
        .with_motion(motion.as_ref().map_or(&[][..], |m| &m.axes)))
}

/// Reads the joint's motion and reaction parameters and adds their ports to `block`.
fn with_drive(p: &Params, block: JointBlock) -> Result<JointBlock, ParamError> {
    let motion = joint_motion::read_motion(p, block.kind)?;
    if motion.is_some() && block.limits.is_some() {
        return Err(p
            .error(
                "limits",
                "a joint driven by a motion input takes no limits (the input sets its position)",
            )
            .hint("remove 'limits', or keep q_ref within them"));
    }
    let frame = joint_motion::read_reaction_frame(p)?;
    let filtered = matches!(
        motion.as_ref().map(|m| &m.mode),
        Some(joint_motion::MotionMode::Filtered(_))
    );
    let mut block = block.with_drive(motion, frame);
    if p.has("motion_filter") && !filtered {
        block.warnings.push(
            "'motion_filter' has no effect here: it is the time constant of motion = \"input_filtered\"; write that, or remove 'motion_filter'"
                .to_string(),
        );
    }
    Ok(block)
}

/// A per-dof parameter: one number for all dofs or one per dof; when absent, its default for
/// every dof (none at all when the default is 0: the joint then has no such element).
fn per_dof(p: &Params, param: &Param<f64>, nv: usize) -> Result<Vec<f64>, ParamError> {
    let key = param.name();
    match p.vector(key)? {
        None if param.default == 0.0 => Ok(Vec::new()),
        None => Ok(vec![param.default; nv]),
        Some(v) if v.len() == 1 => {
            p.ensure(
                v[0] >= 0.0,
                key,
                "must not be negative",
                "write zero or a positive value",
            )?;
            Ok(vec![v[0]; nv])
        }
        Some(v) if v.len() == nv => {
            p.ensure(
                v.iter().all(|x| *x >= 0.0),
                key,
                "must not be negative",
                "write zero or positive values",
            )?;
            Ok(v)
        }
        Some(v) => Err(p
            .error(
                key,
                format!(
                    "'{key}' has {} values but the joint has {nv} degrees of freedom",
                    v.len()
                ),
            )
            .hint(format!("write one number, or {nv}"))),
    }
}

/// `q0` of a scalar joint whose position is in `unit`.
const fn initial_position(unit: &'static str) -> Param<f64> {
    param!("q0", unit, 0, "initial position")
}

/// `w0` of a scalar joint whose velocity is in `unit`.
const fn initial_velocity(unit: &'static str) -> Param<f64> {
    param!("w0", unit, 0, "initial velocity")
}

fn build_scalar(p: &Params, kind: JointKind) -> Result<Box<dyn Block>, ParamError> {
    let (unit, rate_unit) = if kind == JointKind::Revolute {
        ("rad", "rad/s")
    } else {
        ("m", "m/s")
    };
    let q0 = initial_position(unit).read(p)?;
    let w0 = initial_velocity(rate_unit).read(p)?;
    let spec = read_common(p, kind, vec![q0], vec![w0])?;
    let limits = read_limits(p, unit)?;
    if let Some(l) = &limits {
        p.ensure(
            (l.lower..=l.upper).contains(&q0),
            "q0",
            "the initial position is outside the joint's limits",
            &format!("start with q0 between {} and {}", l.lower, l.upper),
        )?;
    }
    let effort = read_effort_limit(p, kind, spec.actuated)?;
    let block = JointBlock::new(kind, spec)
        .with_limits(limits)
        .with_friction()
        .with_effort(effort);
    let mut block = with_drive(p, block)?;
    if kind == JointKind::Revolute {
        block.warnings.extend(angle_warning(q0));
    }
    Ok(Box::new(block))
}

/// A revolute joint's `q0` (rad) beyond a full turn is accepted (a joint may start wound up),
/// but is most likely degrees.
fn angle_warning(q0: f64) -> Option<String> {
    (q0.abs() > std::f64::consts::TAU).then(|| {
        format!(
            "q0 = {q0} rad is more than a full turn: joint angles are in radians; if you meant {q0}°, write q0 = {:.10}",
            q0.to_radians()
        )
    })
}

fn build_vector(p: &Params, kind: JointKind) -> Result<Box<dyn Block>, ParamError> {
    let q0 = p
        .fixed_vector("q0", kind.nq())?
        .unwrap_or_else(|| kind.neutral_position());
    let w0 = p
        .fixed_vector("w0", kind.nv())?
        .unwrap_or_else(|| vec![0.0; kind.nv()]);
    let spec = read_common(p, kind, q0, w0)?;
    let effort = read_effort_limit(p, kind, spec.actuated)?;
    let block = JointBlock::new(kind, spec)
        .with_friction()
        .with_effort(effort);
    Ok(Box::new(with_drive(p, block)?))
}

fn quaternion(p: &Params, param: &Param<[f64; 4]>) -> Result<Vec<f64>, ParamError> {
    let key = param.name();
    let q = param.read(p)?;
    let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    p.ensure(
        norm > 1e-9,
        key,
        "must be a non-zero quaternion [w, x, y, z]",
        "write e.g. [1.0, 0.0, 0.0, 0.0] (no rotation)",
    )?;
    Ok(q.iter().map(|x| x / norm).collect())
}

fn build_spherical(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let q0 = quaternion(p, &SPHERICAL_ORIENTATION)?;
    let w0 = ANGULAR_VELOCITY.read(p)?;
    let spec = read_common(p, JointKind::Spherical, q0, w0)?;
    let effort = read_effort_limit(p, JointKind::Spherical, spec.actuated)?;
    let block = JointBlock::new(JointKind::Spherical, spec)
        .with_friction()
        .with_effort(effort);
    Ok(Box::new(with_drive(p, block)?))
}

fn build_six_dof(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let mut q0 = POSITION.read(p)?;
    q0.extend(quaternion(p, &SIX_DOF_ORIENTATION)?);
    let mut v0 = VELOCITY.read(p)?;
    v0.extend(ANGULAR_VELOCITY.read(p)?);
    let spec = read_common(p, JointKind::SixDof, q0, v0)?;
    let effort = read_effort_limit(p, JointKind::SixDof, spec.actuated)?;
    let block = JointBlock::new(JointKind::SixDof, spec)
        .with_friction()
        .with_effort(effort);
    Ok(Box::new(with_drive(p, block)?))
}

fn build_weld(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let frame = joint_motion::read_reaction_frame(p)?;
    let block = JointBlock::new(JointKind::Weld, JointSpec::new(JointKind::Weld));
    Ok(Box::new(block.with_drive(None, frame)))
}

const FRAMES: [PortDoc; 2] = [
    PortDoc {
        name: "B",
        kind: "frame",
        shape: "",
        unit: "",
        doc: "base frame",
    },
    PortDoc {
        name: "F",
        kind: "frame",
        shape: "",
        unit: "",
        doc: "follower frame, moved relative to B",
    },
];

const STIFFNESS: Param<f64> = param!(
    "stiffness",
    "N/m or N·m/rad",
    0,
    "internal spring per degree of freedom (one number or one per dof), equilibrium at q = 0"
);
const DAMPING: Param<f64> = param!(
    "damping",
    "N·s/m or N·m·s/rad",
    0,
    "internal damper per degree of freedom"
);
const ACTUATION: Param<&str> = param!(
    "actuation",
    "",
    "none",
    "\"none\" or \"input\" (adds input t: force/torque per degree of freedom)"; one_of["none", "input"],
);
const SPRING: [ParamDoc; 3] = [STIFFNESS.doc, DAMPING.doc, ACTUATION.doc];
/// `friction` and `effort_limit`, documented on every joint with axes.
const AXIS_EXTRAS: [ParamDoc; 2] = [
    ParamDoc {
        name: "friction",
        unit: "N·m or N per axis",
        default: "none",
        doc: FRICTION_DOC,
    },
    super::joint_effort::EFFORT_LIMIT_DOC,
];
/// The `friction_force` output, documented on every joint with axes.
const FRICTION_PORT: PortDoc = PortDoc {
    name: "friction_force",
    kind: "output",
    shape: "one per axis",
    unit: "N·m or N",
    doc: "joint friction along each axis, positive towards increasing q (with friction)",
};

const SPHERICAL_ORIENTATION: Param<[f64; 4]> = param!(
    "orientation",
    "",
    [1, 0, 0, 0],
    "initial quaternion [w, x, y, z] of F in B (normalized)"
);
const SIX_DOF_ORIENTATION: Param<[f64; 4]> = param!(
    "orientation",
    "",
    [1, 0, 0, 0],
    "initial quaternion [w, x, y, z] of F in B"
);
const ANGULAR_VELOCITY: Param<[f64; 3]> = param!(
    "angular_velocity",
    "rad/s",
    [0, 0, 0],
    "initial angular velocity of F relative to B, resolved in F"
);
const POSITION: Param<[f64; 3]> = param!(
    "position",
    "m",
    [0, 0, 0],
    "initial position of F's origin in B"
);
const VELOCITY: Param<[f64; 3]> = param!(
    "velocity",
    "m/s",
    [0, 0, 0],
    "initial velocity of F's origin, resolved in B"
);

macro_rules! scalar_joint {
    ($name:ident, $ty:literal, $kind:expr, $summary:literal, $q:literal, $w:literal) => {
        pub static $name: BlockType = BlockType {
            name: $ty,
            category: "Joints",
            summary: $summary,
            params: &[
                initial_position($q).doc,
                initial_velocity($w).doc,
                SPRING[0],
                SPRING[1],
                SPRING[2],
                AXIS_EXTRAS[0],
                AXIS_EXTRAS[1],
                ParamDoc {
                    name: "limits",
                    unit: $q,
                    default: "none",
                    doc: "{ lower, upper, method = \"rigid\" (default), restitution (0), rest_velocity (1e-3) } | { lower, upper, method = \"spring_damper\", stiffness, damping (0) }: either bound may be omitted; rigid bounds are unilateral constraints solved with the rigid contacts (impacts ω⁺ = −e·ω⁻), penalty bounds a spring-damper beyond the bound with a zero crossing there",
                },
                joint_motion::SCALAR_PARAMS[0],
                joint_motion::SCALAR_PARAMS[1],
                joint_motion::SCALAR_PARAMS[2],
            ],
            ports: &[
                FRAMES[0],
                FRAMES[1],
                PortDoc {
                    name: "q",
                    kind: "output",
                    shape: "1×1",
                    unit: $q,
                    doc: "position",
                },
                PortDoc {
                    name: "limit_force",
                    kind: "output",
                    shape: "1×1",
                    unit: "N·m or N",
                    doc: "force/torque of the limits along the axis, positive towards increasing q (with limits)",
                },
                FRICTION_PORT,
                PortDoc {
                    name: "w",
                    kind: "output",
                    shape: "1×1",
                    unit: $w,
                    doc: "velocity",
                },
                PortDoc {
                    name: "t",
                    kind: "input",
                    shape: "1×1",
                    unit: "",
                    doc: "actuation force/torque (when actuation = \"input\")",
                },
                joint_motion::PORTS[0],
                joint_motion::PORTS[1],
                joint_motion::PORTS[2],
                joint_motion::PORTS[3],
                joint_motion::PORTS[4],
            ],
            build: |p| build_scalar(p, $kind),
        };
    };
}

scalar_joint!(
    REVOLUTE,
    "RevoluteJoint",
    JointKind::Revolute,
    "Rotation of F about B's z axis by q.",
    "rad",
    "rad/s"
);
scalar_joint!(
    PRISMATIC,
    "PrismaticJoint",
    JointKind::Prismatic,
    "Translation of F along B's z axis by q.",
    "m",
    "m/s"
);

macro_rules! vector_joint {
    ($name:ident, $ty:literal, $kind:expr, $summary:literal, $n:literal) => {
        pub static $name: BlockType = BlockType {
            name: $ty,
            category: "Joints",
            summary: $summary,
            params: &[
                ParamDoc {
                    name: "q0",
                    unit: "m, rad",
                    default: "zeros",
                    doc: "initial position coordinates",
                },
                ParamDoc {
                    name: "w0",
                    unit: "m/s, rad/s",
                    default: "zeros",
                    doc: "initial velocity coordinates",
                },
                SPRING[0],
                SPRING[1],
                SPRING[2],
                AXIS_EXTRAS[0],
                AXIS_EXTRAS[1],
                joint_motion::SCALAR_PARAMS[0],
                joint_motion::SCALAR_PARAMS[1],
                joint_motion::MOTION_AXES,
                joint_motion::SCALAR_PARAMS[2],
            ],
            ports: &[
                FRAMES[0],
                FRAMES[1],
                FRICTION_PORT,
                PortDoc {
                    name: "q",
                    kind: "output",
                    shape: $n,
                    unit: "m, rad",
                    doc: "position coordinates",
                },
                PortDoc {
                    name: "w",
                    kind: "output",
                    shape: $n,
                    unit: "m/s, rad/s",
                    doc: "velocity coordinates",
                },
                PortDoc {
                    name: "t",
                    kind: "input",
                    shape: $n,
                    unit: "N, N·m",
                    doc: "actuation (when actuation = \"input\")",
                },
                joint_motion::PORTS[0],
                joint_motion::PORTS[1],
                joint_motion::PORTS[2],
                joint_motion::PORTS[3],
                joint_motion::PORTS[4],
            ],
            build: |p| build_vector(p, $kind),
        };
    };
}

vector_joint!(
    CYLINDRICAL,
    "CylindricalJoint",
    JointKind::Cylindrical,
    "Rotation about and translation along B's z axis: q = [θ, d].",
    "2×1"
);
vector_joint!(UNIVERSAL, "UniversalJoint", JointKind::Universal, "Rotation about B's x axis, then about the intermediate y axis: q = [α, β], R_BF = Rx(α)·Ry(β).", "2×1");
vector_joint!(
    PLANAR,
    "PlanarJoint",
    JointKind::Planar,
    "Translation in B's x-y plane and rotation about B's z axis: q = [x, y, θ].",
    "3×1"
);

pub static SPHERICAL: BlockType = BlockType {
    name: "SphericalJoint",
    category: "Joints",
    summary: "Free rotation of F about B's origin; unit-quaternion state (kept unit by projection after every accepted step).",
    params: &[
        SPHERICAL_ORIENTATION.doc,
        ANGULAR_VELOCITY.doc,
        SPRING[0],
        SPRING[1],
        SPRING[2],
        AXIS_EXTRAS[0],
        AXIS_EXTRAS[1],
        joint_motion::SCALAR_PARAMS[0],
        joint_motion::SCALAR_PARAMS[1],
        joint_motion::MOTION_AXES,
        joint_motion::SCALAR_PARAMS[2],
    ],
    ports: &[
        FRAMES[0],
        FRAMES[1],
        FRICTION_PORT,
        joint_motion::QUATERNION_PORTS[0],
        joint_motion::QUATERNION_PORTS[1],
        joint_motion::QUATERNION_PORTS[2],
        joint_motion::PORTS[3],
        joint_motion::REACTION,
        PortDoc { name: "Q", kind: "output", shape: "4×1", unit: "", doc: "quaternion [w, x, y, z] of F in B" },
        PortDoc { name: "w", kind: "output", shape: "3×1", unit: "rad/s", doc: "angular velocity of F relative to B, resolved in F" },
        PortDoc { name: "t", kind: "input", shape: "3×1", unit: "N·m", doc: "actuation torque, resolved in F (when actuation = \"input\")" },
    ],
    build: build_spherical,
};

pub static SIX_DOF: BlockType = BlockType {
    name: "SixDofJoint",
    category: "Joints",
    summary: "Free motion of F relative to B: position and unit-quaternion orientation.",
    params: &[
        POSITION.doc,
        SIX_DOF_ORIENTATION.doc,
        VELOCITY.doc,
        ANGULAR_VELOCITY.doc,
        SPRING[0],
        SPRING[1],
        SPRING[2],
        AXIS_EXTRAS[0],
        AXIS_EXTRAS[1],
        joint_motion::SCALAR_PARAMS[0],
        joint_motion::SCALAR_PARAMS[1],
        joint_motion::MOTION_AXES,
        joint_motion::SCALAR_PARAMS[2],
    ],
    ports: &[
        FRAMES[0],
        FRAMES[1],
        FRICTION_PORT,
        joint_motion::QUATERNION_PORTS[0],
        joint_motion::QUATERNION_PORTS[1],
        joint_motion::QUATERNION_PORTS[2],
        joint_motion::PORTS[3],
        joint_motion::REACTION,
        PortDoc {
            name: "p",
            kind: "output",
            shape: "3×1",
            unit: "m",
            doc: "position of F in B",
        },
        PortDoc {
            name: "Q",
            kind: "output",
            shape: "4×1",
            unit: "",
            doc: "quaternion of F in B",
        },
        PortDoc {
            name: "v",
            kind: "output",
            shape: "3×1",
            unit: "m/s",
            doc: "velocity of F's origin, resolved in B",
        },
        PortDoc {
            name: "w",
            kind: "output",
            shape: "3×1",
            unit: "rad/s",
            doc: "angular velocity of F relative to B, resolved in F",
        },
        PortDoc {
            name: "t",
            kind: "input",
            shape: "6×1",
            unit: "N, N·m",
            doc: "actuation [force in B; torque in F] (when actuation = \"input\")",
        },
    ],
    build: build_six_dof,
};

pub static WELD: BlockType = BlockType {
    name: "WeldJoint",
    category: "Joints",
    summary: "No relative motion: F is fixed to B.",
    params: &[joint_motion::REACTION_FRAME.doc],
    ports: &[FRAMES[0], FRAMES[1], joint_motion::WELD_REACTION],
    build: build_weld,
};

#[cfg(test)]
mod tests {
    use super::super::joint_limits::{LIMIT_DEFAULTS, LIMIT_METHOD};
    use super::*;
    use crate::block::param::quotes_default;

    /// The `limits` table is documented in one line of prose: it quotes each sub-parameter's
    /// default as declared (the value `read_limits` uses).
    #[test]
    fn the_limits_doc_quotes_the_declared_defaults() {
        for joint in [&REVOLUTE, &PRISMATIC] {
            let doc = joint
                .params
                .iter()
                .find(|p| p.name == "limits")
                .unwrap()
                .doc;
            let method = format!("method = {} (default)", LIMIT_METHOD.doc.default);
            assert!(doc.contains(&method), "{doc}");
            for p in LIMIT_DEFAULTS {
                assert!(quotes_default(doc, &p.doc), "{}: {doc}", p.name());
            }
        }
    }
}
