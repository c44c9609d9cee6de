//! The mechanism block: owns the joint states, exposes body kinematics, and integrates the
//! articulated-body dynamics under actuation and external wrenches.
//!
//! State x = [q; v] (all joints, in the mechanism's order). Outputs (hidden, World frame):
//! `body_<b>` (18×1 kinematics, see [`crate::block::physical`]) per body and `joint_<j>`
//! ((nq + nv)×1) per joint. They depend on the state only, so contact forces computed from them
//! never form an algebraic loop. Inputs (hidden): joint actuation and wrenches, used by the
//! derivatives only.
//!
//! Rigid contacts (RigidContact blocks, see [`crate::multibody::rigid`]) are solved here: their
//! forces depend on accelerations, so the mechanism solves the complementarity problem at every
//! evaluation, with its inputs. Each pair adds a hidden output (`rigid_<k>`, the pair's solved
//! contact: it depends on every input, so the schedule evaluates the mechanism again after the
//! blocks that apply forces), a falling zero crossing (impacts), and a work slot (the last
//! impulse). The solution is kept in the scratch, keyed by time, state and inputs, so that
//! `derivatives` reuses it instead of solving again.

use super::mechanism_drive::{
    drift_note, effective_state, sync_to_references, write_drive_outputs, DriveOutput,
    DriveScratch, DriveView, InputRole, MotionInput,
};
use crate::block::physical::{KINEMATICS_LEN, WRENCH_LEN};
use crate::block::{
    same_bits, Block, BlockError, Ctx, HiddenPort, MechanismLowering, PortDecl, Setup, Shape,
    ShapeSpec,
};
use crate::multibody::constraints::ContactRow;
use crate::multibody::rigid::{
    self, candidates::find_candidates, impact::resolve_impacts, resting::constrained_accelerations,
    ConstraintKind, RigidConstraint, RigidWorkspace,
};
use crate::multibody::ReactionFrame;
use crate::multibody::{
    body_position, body_rotation, body_velocity, forward_dynamics,
    forward_dynamics_after_kinematics, forward_dynamics_of_bodies, forward_kinematics,
    forward_kinematics_of_bodies, project_quaternions, qdot_from_v_of_bodies, FrameId, Mechanism,
    SpatialForce, Workspace,
};
use crate::solver::Direction;
use nalgebra::Vector3;
use std::any::Any;
use std::sync::Arc;

/// A loop-closure error at the initial positions above this (m or rad) is reported as a warning.
const CLOSURE_WARNING: f64 = 1e-6;

/// The compiled mechanism as a block.
pub struct MechanismBlock {
    mechanism: Arc<Mechanism>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    roles: Vec<InputRole>,
    /// Whether any body-kinematics output is read (else forward kinematics is skipped: the
    /// dynamics compute their own).
    bodies_used: bool,
    /// Rigid contact pairs and joint limits, in the order of their outputs, zero crossings and
    /// work slots.
    rigid: Vec<RigidConstraint>,
    /// The output of each rigid constraint (not contiguous: joints' drive outputs are added
    /// between them as the blocks are wired).
    rigid_outputs: Vec<usize>,
    /// Motion inputs and drive outputs (see `mechanism_drive.rs`).
    motions: Vec<MotionInput>,
    pub(super) drives: Vec<DriveOutput>,
}

/// The mechanism's scratch. Besides workspace it keeps, from one evaluation or event to the
/// next, the rigid contacts' mode counts (in `rigid`) and the cut joints' continued angles, so a
/// copy is a true clone (see [`Block::clone_scratch`]).
#[derive(Clone)]
struct Scratch {
    ws: Workspace,
    tau: Vec<f64>,
    f_ext: Vec<SpatialForce>,
    rigid: RigidWorkspace,
    /// The constrained accelerations of the last solve, and what they were solved for: time,
    /// state and inputs (bit patterns), or empty when nothing is current.
    vdot: Vec<f64>,
    solved_for: Vec<f64>,
    key: Vec<f64>,
    /// The angle each revolute cut joint last reported (rad; NaN before the first).
    cut_angles: Vec<f64>,
    /// Effective state and drive-output buffers.
    drive: DriveScratch,
    /// What an interior evaluation ([`Ctx::interior`]: a recorded row inside a step) uses in
    /// place of the run's buffers, swapped in and out, so that recording leaves the run's warm
    /// starts, mode counts, `slipping` flags, solve cache, kinematics, inputs, cut-joint angles
    /// and effective (driven) state as they were. Only a mechanism with rigid constraints solves
    /// anything an interior evaluation could disturb (see `evaluate`): without them, `None`,
    /// which halves the run's workspace (a 20,000-joint chain's second workspace was 90 MB).
    interior: Option<InteriorSolve>,
}

/// The buffers of interior evaluations (see [`Scratch`]): every buffer an evaluation of the
/// outputs writes and the run reads later.
#[derive(Clone)]
struct InteriorSolve {
    ws: Workspace,
    tau: Vec<f64>,
    f_ext: Vec<SpatialForce>,
    rigid: RigidWorkspace,
    vdot: Vec<f64>,
    solved_for: Vec<f64>,
    cut_angles: Vec<f64>,
    drive: DriveScratch,
}

impl Scratch {
    /// Exchanges the run's buffers with the interior evaluations' (a swap of buffers: nothing
    /// is allocated).
    fn swap_interior(&mut self) {
        let Some(i) = self.interior.as_mut() else {
            return;
        };
        std::mem::swap(&mut self.ws, &mut i.ws);
        std::mem::swap(&mut self.tau, &mut i.tau);
        std::mem::swap(&mut self.f_ext, &mut i.f_ext);
        std::mem::swap(&mut self.rigid, &mut i.rigid);
        std::mem::swap(&mut self.vdot, &mut i.vdot);
        std::mem::swap(&mut self.solved_for, &mut i.solved_for);
        std::mem::swap(&mut self.cut_angles, &mut i.cut_angles);
        std::mem::swap(&mut self.drive, &mut i.drive);
    }

    /// Swaps the interior buffers in and starts them from the run's: its Lemke warm start (so
    /// that a problem with several solutions, a face's four corners, is split as the run's
    /// solves split it) and its cut joints' last angles (the branch a reported angle continues).
    /// Copies; allocates only when the run's rigid buffers have grown past the interior's
    /// ([`RigidWorkspace::copy_warm_start`] then grows these to hold its warm start).
    fn enter_interior(&mut self) {
        self.swap_interior();
        if let Some(run) = &self.interior {
            self.rigid.copy_warm_start(&run.rigid);
            self.cut_angles.copy_from_slice(&run.cut_angles);
        }
    }
}

impl MechanismBlock {
    /// A block over `mechanism`, with its kinematic outputs and no inputs yet.
    pub fn new(mechanism: Mechanism) -> Self {
        // Every body's and joint's output, and (as the joints are wired) a drive output each.
        let mut outputs = Vec::with_capacity(mechanism.num_bodies() + 2 * mechanism.num_joints());
        for b in 0..mechanism.num_bodies() {
            outputs.push(
                PortDecl::signal(format!("body_{b}"), Shape::vector(KINEMATICS_LEN))
                    .hidden(HiddenPort::Mechanism),
            );
        }
        for j in 0..mechanism.num_joints() {
            let (nq, nv) = mechanism.joint_state_sizes(j);
            let n = nq + nv;
            outputs.push(
                PortDecl::signal(format!("joint_{j}"), Shape::vector(n))
                    .hidden(HiddenPort::Mechanism),
            );
        }
        let closures: Vec<RigidConstraint> = mechanism
            .cut_joints()
            .iter()
            .map(|cut| RigidConstraint::closure(cut.clone(), mechanism.joint_label(cut.joint)))
            .collect();
        let mut block = MechanismBlock {
            mechanism: Arc::new(mechanism),
            inputs: Vec::new(),
            outputs,
            roles: Vec::new(),
            bodies_used: true,
            rigid_outputs: Vec::new(),
            rigid: Vec::new(),
            motions: Vec::new(),
            drives: Vec::new(),
        };
        for closure in closures {
            block.add_rigid_constraint(closure);
        }
        block
    }

    /// With motion inputs, the state the mechanism is evaluated at: `states` with the prescribed
    /// coordinates replaced by their references, taken out of `s.drive.effective` (give it back
    /// after use: no allocation); `None` without motion inputs (use `states` itself).
    fn effective(
        &self,
        states: &[f64],
        io: &crate::block::Io,
        s: &mut Scratch,
    ) -> Option<Vec<f64>> {
        if self.motions.is_empty() {
            return None;
        }
        effective_state(
            &self.motions,
            self.nq(),
            states,
            io,
            &mut s.drive,
            &mut s.ws,
        );
        Some(std::mem::take(&mut s.drive.effective))
    }

    fn nq(&self) -> usize {
        self.mechanism.nq()
    }

    /// The island's bodies an evaluation may restrict itself to ([`Ctx::island`]), when the
    /// mechanism's trees decouple (no rigid constraints, motion inputs or loop closures: what
    /// [`crate::block::BodyCoupling::island_part`] requires) and no drive output is read (those are evaluated for
    /// every joint); `None`: evaluate every body.
    fn island_bodies<'a>(&self, island: Option<&'a [bool]>) -> Option<&'a [bool]> {
        let decoupled = self.rigid.is_empty()
            && self.motions.is_empty()
            && self.mechanism.cut_joints().is_empty()
            && !self.mechanism.has_prescribed()
            && !self.drives.iter().any(|d| d.used);
        island.filter(|_| decoupled)
    }

    /// Sets the prescribed coordinates of the state to their references (at the start and at
    /// events), then projects the rigid constraints (loop closures) at the new positions; returns
    /// whether the state changed.
    fn sync_prescribed(&self, ctx: &mut Ctx) -> bool {
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return false;
        };
        let Some(effective) = self.effective(ctx.states, &ctx.io, s) else {
            return false;
        };
        let changed = !same_bits(&effective, ctx.states);
        if changed {
            ctx.states.copy_from_slice(&effective);
            if !self.rigid.is_empty() {
                let m = &*self.mechanism;
                let (q, v) = ctx.states.split_at_mut(m.nq());
                // Failures at the stale positions no longer matter.
                s.rigid.failure = None;
                rigid::projection::project(m, &self.rigid, &mut s.rigid, &mut s.ws, q, v);
                s.solved_for.clear();
                self.fail_if_open(s, q, v);
            }
        }
        s.drive.effective = effective;
        changed
    }

    /// Motion inputs on two or more joints of one closed loop over-constrain it when the loop
    /// leaves them fewer degrees of freedom than they prescribe: checked at the initial
    /// positions by comparing the rank of the closure rows' Jacobian with and without the
    /// prescribed columns.
    fn check_driven_loops(&self) -> Result<(), BlockError> {
        super::mechanism_drive::check_driven_loops(&self.mechanism, &self.rigid)
    }

    /// Sums the actuation and wrench inputs into the scratch's `tau` and `f_ext`; with
    /// `island` (see [`MechanismBlock::island_bodies`]), the wrenches on its bodies only (the
    /// others' entries are zero, and read by no evaluation of the island).
    fn gather_inputs(&self, io: &crate::block::Io, s: &mut Scratch, island: Option<&[bool]>) {
        s.tau.iter_mut().for_each(|t| *t = 0.0);
        s.f_ext.iter_mut().for_each(|f| *f = SpatialForce::ZERO);
        for (i, role) in self.roles.iter().enumerate() {
            if let (InputRole::Wrench(b, _), Some(mask)) = (role, island) {
                if !mask[*b] {
                    continue;
                }
            }
            let u = io.input(i);
            match role {
                InputRole::Actuation(r) => {
                    for (k, t) in r.clone().zip(u) {
                        s.tau[k] += t;
                    }
                }
                InputRole::Wrench(b, _) => {
                    let f = SpatialForce::new(
                        Vector3::new(u[0], u[1], u[2]),
                        Vector3::new(u[3], u[4], u[5]),
                    );
                    s.f_ext[*b] += f;
                }
                InputRole::Motion => {}
            }
        }
    }

    /// Writes into `s.key` what a rigid-contact solve at this point depends on: time, state and
    /// inputs.
    fn fill_key(&self, t: f64, states: &[f64], io: &crate::block::Io, s: &mut Scratch) {
        s.key.clear();
        s.key.push(t);
        s.key.extend_from_slice(states);
        for i in 0..self.roles.len() {
            s.key.extend_from_slice(io.input(i));
        }
    }

    /// Solves the rigid contacts at the context's time, state and inputs into `s.vdot` and the
    /// candidates' forces, unless the last solve was for the same point. Kinematics must be in
    /// `s.ws` for this state.
    fn solve_rigid(&self, t: f64, states: &[f64], io: &crate::block::Io, s: &mut Scratch) {
        self.fill_key(t, states, io, s);
        if same_bits(&s.key, &s.solved_for) {
            return;
        }
        let m = &*self.mechanism;
        self.gather_inputs(io, s, None);
        let (q, v) = states.split_at(m.nq());
        find_candidates(&self.rigid, &s.ws, q, v, &mut s.rigid);
        let solved = constrained_accelerations(
            m,
            &self.rigid,
            &mut s.rigid,
            &mut s.ws,
            q,
            v,
            &s.tau,
            &s.f_ext,
            &mut s.vdot,
        );
        if let Err(message) = solved {
            s.vdot.iter_mut().for_each(|x| *x = f64::NAN);
            // The first failure explains the run's end; later ones follow from it.
            s.rigid.failure.get_or_insert(message);
        }
        std::mem::swap(&mut s.key, &mut s.solved_for);
    }

    /// Makes the rigid-contact solve current for this time, state and inputs: nothing when the
    /// last solve was for them, else forward kinematics and the solve.
    fn ensure_solved(&self, t: f64, states: &[f64], io: &crate::block::Io, s: &mut Scratch) {
        self.fill_key(t, states, io, s);
        if !same_bits(&s.key, &s.solved_for) {
            let (q, v) = states.split_at(self.nq());
            forward_kinematics(&self.mechanism, q, v, &mut s.ws);
            self.solve_rigid(t, states, io, s);
        }
    }

    /// Mode changes only (no impact) of the constraints whose mode crossing fired in `modes`:
    /// the state is continuous there, so the counts are taken again from which way they
    /// crossed; where points begin to stick, their remaining slip is removed. Returns whether
    /// the velocities changed.
    fn handle_mode_events(
        &self,
        (t, states, io): (f64, &mut [f64], &crate::block::Io),
        s: &mut Scratch,
        modes: &[bool],
    ) -> bool {
        let m = &*self.mechanism;
        self.ensure_solved(t, states, io, s);
        let mut changed = false;
        for (k, _) in modes.iter().enumerate().filter(|(_, c)| **c) {
            if s.rigid.modes.crossed(k) {
                let (q, v) = states.split_at_mut(m.nq());
                changed |= rigid::projection::stop_sliding(
                    m,
                    &self.rigid,
                    &mut s.rigid,
                    &mut s.ws,
                    (q, v),
                    k,
                );
            }
        }
        if changed {
            s.solved_for.clear();
            s.rigid.modes.reset_counts();
        }
        changed
    }

    /// When a loop stays open after the projection (its links cannot reach each other), records
    /// the failure and poisons the velocities, so that the run stops with the message.
    fn fail_if_open(&self, s: &mut Scratch, q: &[f64], v: &mut [f64]) {
        let m = &*self.mechanism;
        let open = rigid::projection::open_loop(m, &self.rigid, &mut s.rigid, &mut s.ws, q, v);
        if let Some((owner, error)) = open {
            s.rigid.failure.get_or_insert(format!(
                "the loop closed by joint '{}' cannot be closed: its frames stay {error:.3e} (m or rad) apart after the projection; check the links' lengths and the initial positions",
                self.rigid[owner].label
            ));
            v.iter_mut().for_each(|x| *x = f64::NAN);
        }
    }

    /// Writes each constraint's output from the last solve (see [`rigid::output`]).
    fn write_rigid_outputs(&self, io: &mut crate::block::Io, work: &[f64], s: &Scratch) {
        use rigid::output::*;
        for (k, pair) in s.rigid.pairs.iter().enumerate() {
            let out = io.output(self.rigid_outputs[k]);
            out.fill(0.0);
            // A point cloud's points all report their separations, candidates or not.
            for (slot, q) in s.rigid.cloud_queries[k].iter().enumerate() {
                out[POINTS + SLOT_LEN * slot + SLOT_SEPARATION] = q.separation;
            }
            let range = pair.first..pair.first + pair.count;
            let points = &s.rigid.candidates[range.clone()];
            let forces = &s.rigid.point_force[range.clone()];
            let row_forces = &s.rigid.row_force[range];
            let mut friction = Vector3::zeros();
            let mut normal = 0.0;
            let mut power = 0.0;
            for ((c, f), fr) in points.iter().zip(forces).zip(row_forces) {
                let slot = &mut out[POINTS + SLOT_LEN * c.slot..][..SLOT_LEN];
                slot[SLOT_CONTACT] = if c.resting() { 1.0 } else { 0.0 };
                slot[SLOT_SEPARATION] = c.gap;
                match c.row {
                    ContactRow::Point { .. } => {
                        let point_friction = f - c.normal() * *fr;
                        normal += fr;
                        friction += point_friction;
                        // The friction force acts on the follower, its opposite on the base.
                        power += point_friction.dot(&c.relative_velocity);
                        slot[SLOT_POINT..SLOT_POINT + 3].copy_from_slice(c.point().as_slice());
                        slot[SLOT_FORCE..SLOT_FORCE + 3].copy_from_slice(f.as_slice());
                        slot[SLOT_NORMAL..SLOT_NORMAL + 3].copy_from_slice(c.normal().as_slice());
                        slot[SLOT_NORMAL_FORCE] = *fr;
                        slot[SLOT_FRICTION_FORCE] = point_friction.norm();
                    }
                    // Positive towards increasing q.
                    ContactRow::Coordinate { sign, .. } => normal += sign * fr,
                    ContactRow::Rotation { .. } => {}
                }
            }
            out[CONTACT] = if points.iter().any(|c| c.resting()) {
                1.0
            } else {
                0.0
            };
            out[SEPARATION] = pair.separation;
            out[NORMAL_FORCE] = normal;
            out[FRICTION_FORCE] = friction.norm();
            out[IMPULSE] = work[k];
            out[FRICTION_POWER] = power;
        }
    }
}

impl MechanismLowering for MechanismBlock {
    fn mechanism(&self) -> &Arc<Mechanism> {
        &self.mechanism
    }

    fn body_output(&self, b: usize) -> usize {
        b
    }

    fn joint_output(&self, j: usize) -> usize {
        self.mechanism.num_bodies() + j
    }

    fn add_actuation_input(&mut self, j: usize) -> usize {
        let r = self.mechanism.joint_v_range(j);
        self.inputs.push(
            PortDecl::signal(format!("tau_{j}"), Shape::vector(r.len()))
                .hidden(HiddenPort::Mechanism),
        );
        self.roles.push(InputRole::Actuation(r));
        self.inputs.len() - 1
    }

    fn add_wrench_input(&mut self, b: usize, frame: Option<FrameId>) -> usize {
        self.inputs.push(
            PortDecl::signal(
                format!("wrench_{}", self.inputs.len()),
                Shape::vector(WRENCH_LEN),
            )
            .hidden(HiddenPort::Mechanism),
        );
        self.roles.push(InputRole::Wrench(b, frame));
        self.inputs.len() - 1
    }

    fn add_motion_input(&mut self, j: usize) -> usize {
        let (q, v) = (
            self.mechanism.joint_q_range(j),
            self.mechanism.joint_v_range(j),
        );
        let axes = self.mechanism.prescribed()[v.clone()].to_vec();
        let kind = self.mechanism.joint_kind(j);
        let rotation = kind.quaternion_offset().map(|qo| (kind.nv() - 3, qo));
        self.inputs.push(
            PortDecl::signal(format!("motion_{j}"), Shape::vector(3 * v.len()))
                .hidden(HiddenPort::Mechanism),
        );
        self.roles.push(InputRole::Motion);
        let input = self.inputs.len() - 1;
        self.motions.push(MotionInput {
            input,
            q,
            v,
            axes,
            rotation,
            joint: j,
        });
        input
    }

    fn add_drive_output(&mut self, j: usize, frame: ReactionFrame) -> usize {
        let nv = self.mechanism.joint_state_sizes(j).1;
        self.outputs.push(
            PortDecl::signal(format!("drive_{j}"), Shape::vector(nv + 6))
                .hidden(HiddenPort::Mechanism),
        );
        let output = self.outputs.len() - 1;
        self.drives.push(DriveOutput {
            joint: j,
            output,
            frame,
            used: true,
        });
        output
    }

    fn add_rigid_constraint(&mut self, mut pair: RigidConstraint) -> usize {
        if let ConstraintKind::Limit(limit) = &mut pair.kind {
            limit.q_index = self.mechanism.joint_q_range(limit.joint).start;
            limit.v_index = self.mechanism.joint_v_range(limit.joint).start;
        }
        self.rigid_outputs.push(self.outputs.len());
        self.outputs.push(
            PortDecl::signal(
                format!("rigid_{}", self.rigid.len()),
                Shape::vector(pair.output_len()),
            )
            .hidden(HiddenPort::Mechanism),
        );
        self.rigid.push(pair);
        self.outputs.len() - 1
    }

    fn finish(mut self: Box<Self>) -> Box<dyn Block> {
        self.inputs.shrink_to_fit();
        self.outputs.shrink_to_fit();
        self.roles.shrink_to_fit();
        self.rigid.shrink_to_fit();
        self.rigid_outputs.shrink_to_fit();
        self.motions.shrink_to_fit();
        self.drives.shrink_to_fit();
        self
    }
}

impl Block for MechanismBlock {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }

    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }

    fn set_used_outputs(&mut self, used: &[bool]) {
        self.bodies_used = used.iter().take(self.mechanism.num_bodies()).any(|u| *u);
        for d in &mut self.drives {
            d.used = used.get(d.output).copied().unwrap_or(true);
        }
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        // A pair's solved contact depends on every force the mechanism receives.
        let pair_outputs = &self.rigid_outputs;
        let mut feedthrough: Vec<(usize, usize)> = (0..self.inputs.len())
            .flat_map(|i| pair_outputs.iter().map(move |&o| (i, o)))
            .collect();
        // A joint's drive output depends on every input; with motion inputs, the kinematic
        // outputs depend on the references too.
        // (Only where read: an unread drive output is not computed, and declaring it would make
        // the schedule evaluate the mechanism again after the blocks that apply forces.)
        for d in self.drives.iter().filter(|d| d.used) {
            feedthrough.extend((0..self.inputs.len()).map(|i| (i, d.output)));
        }
        let kinematic = self.mechanism.num_bodies() + self.mechanism.num_joints();
        for mi in &self.motions {
            feedthrough.extend((0..kinematic).map(|o| (mi.input, o)));
        }
        self.check_driven_loops()?;
        Ok(Setup {
            num_states: self.mechanism.nq() + self.mechanism.nv(),
            num_work: self.rigid.len(),
            // Per constraint: its impacts, then (after all of them) its mode changes.
            zero_crossings: vec![Direction::Falling; 2 * self.rigid.len()],
            feedthrough,
        })
    }

    fn clone_scratch(&self, scratch: &(dyn Any + Send)) -> Box<dyn Any + Send> {
        match scratch.downcast_ref::<Scratch>() {
            Some(s) => Box::new(s.clone()),
            None => self.create_scratch(),
        }
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        let m = &self.mechanism;
        let key_len = 1
            + m.nq()
            + m.nv()
            + self
                .inputs
                .iter()
                .map(|p| match p.shape {
                    ShapeSpec::Fixed(shape) => shape.len(),
                    ShapeSpec::Inherited => 0,
                })
                .sum::<usize>();
        let drives_read = self.drives.iter().any(|d| d.used);
        Box::new(Scratch {
            ws: Workspace::new(m),
            tau: vec![0.0; m.nv()],
            f_ext: vec![SpatialForce::ZERO; m.num_bodies()],
            rigid: RigidWorkspace::new(m, &self.rigid),
            vdot: vec![0.0; m.nv()],
            solved_for: Vec::with_capacity(key_len),
            key: Vec::with_capacity(key_len),
            cut_angles: vec![f64::NAN; m.cut_joints().len()],
            drive: DriveScratch::new(m, self.motions.len(), drives_read),
            interior: (!self.rigid.is_empty()).then(|| InteriorSolve {
                ws: Workspace::new(m),
                tau: vec![0.0; m.nv()],
                f_ext: vec![SpatialForce::ZERO; m.num_bodies()],
                rigid: RigidWorkspace::new(m, &self.rigid),
                vdot: vec![0.0; m.nv()],
                solved_for: Vec::with_capacity(key_len),
                cut_angles: vec![f64::NAN; m.cut_joints().len()],
                drive: DriveScratch::new(m, self.motions.len(), drives_read),
            }),
        })
    }

    fn initialize(&self, ctx: &mut Ctx) {
        let nq = self.nq();
        let (q, v) = ctx.states.split_at_mut(nq);
        self.mechanism.initial_state(q, v);
        ctx.work.fill(0.0);
        if !self.rigid.is_empty() {
            if let Some(s) = ctx.scratch.downcast_mut::<Scratch>() {
                // Bodies placed overlapping start pushed apart, open loops closed.
                s.rigid.failure = None;
                s.rigid.modes.reset_counts();
                s.cut_angles.fill(f64::NAN);
                s.solved_for.clear();
                if !self.motions.is_empty() {
                    // The prescribed positions are known only once the inputs are: the
                    // projection waits for them (`sync_prescribed`, at the start).
                    return;
                }
                let m = &*self.mechanism;
                rigid::projection::project(m, &self.rigid, &mut s.rigid, &mut s.ws, q, v);
                s.solved_for.clear();
                self.fail_if_open(s, q, v);
            }
        }
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let m = &*self.mechanism;
        let nq = self.nq();
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        // An interior evaluation works in its own buffers from here to the end.
        let interior = ctx.interior && !self.rigid.is_empty();
        if interior {
            s.enter_interior();
        }
        let effective = self.effective(ctx.states, &ctx.io, s);
        let states: &[f64] = effective.as_deref().unwrap_or(ctx.states);
        let (q, v) = states.split_at(nq);
        let bodies = if self.bodies_used { m.num_bodies() } else { 0 };
        let island = self.island_bodies(ctx.island);
        if let Some(mask) = island.filter(|_| bodies > 0) {
            forward_kinematics_of_bodies(m, q, v, &mut s.ws, mask);
        } else if bodies > 0 || !self.rigid.is_empty() {
            forward_kinematics(m, q, v, &mut s.ws);
        }
        let ws = &s.ws;
        for b in 0..bodies {
            if island.is_some_and(|mask| !mask[b]) {
                continue; // another island's body: its outputs keep their values
            }
            let r = body_rotation(ws, b);
            let p = body_position(ws, b);
            let (w, vel) = body_velocity(ws, b);
            let out = &mut ctx.io.output(b)[..KINEMATICS_LEN];
            out[..9].copy_from_slice(r.as_slice());
            out[9..12].copy_from_slice(p.as_slice());
            out[12..15].copy_from_slice(w.as_slice());
            out[15..18].copy_from_slice(vel.as_slice());
        }
        let nb = m.num_bodies();
        // Joint outputs: the joint's position coordinates, then its velocity coordinates.
        let (q_all, v_all) = states.split_at(nq);
        for j in 0..m.num_joints() {
            if let (Some(mask), Some(body)) = (island, m.joint_body(j)) {
                if !mask[body] {
                    continue;
                }
            }
            let (qr, vr) = (m.joint_q_range(j), m.joint_v_range(j));
            let out = ctx.io.output(nb + j);
            if let Some(cut) = m.cut_of(j) {
                // The relative motion of a loop-closing joint's frames.
                let last = &mut s.cut_angles[cut];
                rigid::closure::cut_joint_state(&m.cut_joints()[cut], &s.ws, last, out);
                continue;
            }
            let (out_q, out_v) = out.split_at_mut(qr.len());
            out_q.copy_from_slice(&q_all[qr]);
            out_v.copy_from_slice(&v_all[vr]);
        }
        if !self.rigid.is_empty() {
            self.solve_rigid(ctx.t, states, &ctx.io, s);
            self.write_rigid_outputs(&mut ctx.io, ctx.work, s);
        }
        if self.drives.iter().any(|d| d.used) {
            if self.rigid.is_empty() {
                self.gather_inputs(&ctx.io, s, None);
            }
            let rigid = (!self.rigid.is_empty()).then_some((&s.vdot[..], &s.rigid));
            let (q, v) = states.split_at(nq);
            let view = DriveView {
                mechanism: &self.mechanism,
                roles: &self.roles,
                rigid: &self.rigid,
                drives: &self.drives,
            };
            write_drive_outputs(
                &view,
                &mut ctx.io,
                (q, v),
                (&s.tau, &s.f_ext),
                rigid,
                &mut s.drive,
                &mut s.ws,
            );
        }
        if let Some(e) = effective {
            s.drive.effective = e;
        }
        if interior {
            // A failure at a recorded point shows in its outputs (NaN); the run stops only on
            // the failures of its own evaluations.
            s.rigid.failure = None;
            s.swap_interior();
        }
    }

    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let m = &*self.mechanism;
        let nq = self.nq();
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let effective = self.effective(ctx.states, &ctx.io, s);
        let states: &[f64] = effective.as_deref().unwrap_or(ctx.states);
        let (q, v) = states.split_at(nq);
        let (qdot, vdot) = dxdt.split_at_mut(nq);
        let island = self.island_bodies(ctx.island);
        qdot_from_v_of_bodies(m, q, v, qdot, island);
        if !self.rigid.is_empty() {
            // outputs_eval solved at this point (or, if the engine skipped the outputs, this
            // solves now).
            self.ensure_solved(ctx.t, states, &ctx.io, s);
            vdot.copy_from_slice(&s.vdot);
        } else {
            self.gather_inputs(&ctx.io, s, island);
            if let Some(mask) = island {
                // One island's trees (as outputs_eval evaluated their kinematics when bodies
                // are used): the other trees' accelerations keep their values.
                let forces = (&s.tau[..], &s.f_ext[..]);
                let mask = (mask, !self.bodies_used);
                forward_dynamics_of_bodies(m, (q, v), forces, &mut s.ws, vdot, mask);
            } else if self.bodies_used {
                // outputs_eval ran forward kinematics at this very state (the engine evaluates
                // the outputs before it asks for derivatives), so the workspace already holds them.
                forward_dynamics_after_kinematics(m, q, v, &s.tau, &s.f_ext, &mut s.ws, vdot);
            } else {
                forward_dynamics(m, q, v, &s.tau, &s.f_ext, &mut s.ws, vdot);
            }
        }
        if let Some(e) = effective {
            s.drive.effective = e;
        }
    }

    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        if let Some(s) = ctx.scratch.downcast_mut::<Scratch>() {
            let (impacts, modes) = g.split_at_mut(self.rigid.len());
            for (gk, pair) in impacts.iter_mut().zip(&s.rigid.pairs) {
                *gk = pair.crossing;
            }
            for (k, gk) in modes.iter_mut().enumerate() {
                *gk = s.rigid.modes.crossing(k);
            }
        }
    }

    fn samples_at_start(&self) -> bool {
        !self.motions.is_empty()
    }

    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _time_event: bool) -> bool {
        let synced = self.sync_prescribed(ctx);
        if self.rigid.is_empty() || !crossed.iter().any(|c| *c) {
            return synced;
        }
        let m = &*self.mechanism;
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return false;
        };
        let (impacts, modes) = crossed.split_at(self.rigid.len());
        if !impacts.iter().any(|c| *c) {
            return synced | self.handle_mode_events((ctx.t, &mut *ctx.states, &ctx.io), s, modes);
        }
        // After impacts every mode is taken again from the new velocities.
        s.rigid.modes.reset_counts();
        let (q, v) = ctx.states.split_at_mut(m.nq());
        match resolve_impacts(m, &self.rigid, &mut s.rigid, &mut s.ws, q, v) {
            Ok(changed) => {
                for (w, p) in ctx.work.iter_mut().zip(&s.rigid.pair_impulse) {
                    if *p > 0.0 {
                        *w = *p;
                    }
                }
                s.solved_for.clear();
                changed | synced
            }
            Err(message) => {
                // The first failure explains the run's end; later ones follow from it.
                s.rigid.failure.get_or_insert(message);
                v.iter_mut().for_each(|x| *x = f64::NAN);
                true
            }
        }
    }

    fn warnings(&self) -> Vec<String> {
        let mut warnings = self.weld_contact_warnings();
        warnings.extend(self.closure_warnings());
        warnings
    }

    fn state_name(&self, k: usize) -> String {
        let m = &self.mechanism;
        let nq = m.nq();
        let (what, index) = if k < nq {
            ("position", k)
        } else {
            ("velocity", k - nq)
        };
        match m.coordinate_joint(index, k >= nq) {
            Some((j, offset)) => format!("{what} {offset} of joint '{}'", m.joint_label(j)),
            None => format!("x[{k}]"),
        }
    }
    fn advice(&self) -> Option<&dyn crate::block::Advice> {
        Some(self)
    }
    fn constrained_states(&self) -> Option<&dyn crate::block::ConstrainedStates> {
        Some(self)
    }
    fn body_coupling(&self) -> Option<&dyn crate::block::BodyCoupling> {
        Some(self)
    }
}

impl crate::block::Advice for MechanismBlock {
    fn text(&self, _total_mass: f64, _gravity: f64) -> Option<String> {
        let m = &self.mechanism;
        Some(format!(
            "{} moving bodies, {} joints, {} position and {} velocity coordinates, total mass {:.6} kg, gravity {:?} m/s²",
            m.num_bodies() - 1,
            m.num_joints(),
            m.nq(),
            m.nv(),
            crate::multibody::total_mass(m),
            m.gravity().as_slice()
        ))
    }
}

impl crate::block::ConstrainedStates for MechanismBlock {
    fn project_states(&self, states: &mut [f64], scratch: &mut (dyn Any + Send)) -> bool {
        let m = &*self.mechanism;
        let mut changed = false;
        if self.projects_at_inputs() {
            if let Some(s) = scratch.downcast_mut::<Scratch>() {
                // The driven loop is closed at the references, where every evaluation puts it.
                changed |= sync_to_references(&self.motions, states, &mut s.drive);
            }
        }
        if !m.quaternion_offsets().is_empty() {
            changed |= project_quaternions(m, &mut states[..self.nq()]);
        }
        if !self.rigid.is_empty() {
            if let Some(s) = scratch.downcast_mut::<Scratch>() {
                // A step was accepted: failures of rejected trial stages no longer matter.
                s.rigid.failure = None;
                // It ended without an event: a mode crossing at or below zero there is stuck.
                s.rigid.modes.recount_fallen();
                let (q, v) = states.split_at_mut(m.nq());
                if rigid::projection::project(m, &self.rigid, &mut s.rigid, &mut s.ws, q, v) {
                    s.solved_for.clear();
                    changed = true;
                    self.fail_if_open(s, q, v);
                }
            }
        }
        changed
    }

    fn projects_at_inputs(&self) -> bool {
        !self.motions.is_empty() && !self.rigid.is_empty()
    }

    fn failure(&self, scratch: &(dyn Any + Send)) -> Option<String> {
        scratch
            .downcast_ref::<Scratch>()
            .and_then(|s| s.rigid.failure.clone())
    }

    fn run_note(&self, scratch: &(dyn Any + Send)) -> Option<String> {
        let s = scratch.downcast_ref::<Scratch>()?;
        drift_note(&self.motions, &s.drive, |j| {
            self.mechanism.joint_label(j).to_string()
        })
    }
}

impl crate::block::BodyCoupling for MechanismBlock {
    /// Islands need every state on one tree and nothing coupling trees but wrenches: no loop
    /// closures, rigid constraints (contacts, limits) or motion inputs.
    fn island_part(&self) -> crate::block::IslandPart {
        let m = &*self.mechanism;
        if self.rigid.is_empty()
            && self.motions.is_empty()
            && m.cut_joints().is_empty()
            && !m.has_prescribed()
        {
            crate::block::IslandPart::Mechanism
        } else {
            crate::block::IslandPart::Other
        }
    }

    fn port_body(&self, input: bool, port: usize) -> Option<usize> {
        let m = &*self.mechanism;
        if input {
            return match self.roles.get(port)? {
                InputRole::Actuation(range) => {
                    let (j, _) = m.coordinate_joint(range.start, true)?;
                    m.joint_body(j)
                }
                InputRole::Wrench(b, _) => Some(*b),
                InputRole::Motion => None,
            };
        }
        let bodies = m.num_bodies();
        if port < bodies {
            return Some(port);
        }
        if port < bodies + m.num_joints() {
            return m.joint_body(port - bodies);
        }
        let drive = self.drives.iter().find(|d| d.output == port)?;
        m.joint_body(drive.joint)
    }
}

impl MechanismBlock {
    /// A weld whose reaction is read on a body a rigid contact acts on with both its sides: the
    /// contact's rows do not say which of the two parts each pushes, so the reaction is NaN. (A
    /// contact with one side on the body counts on the part its geometry's frame is on.)
    fn weld_contact_warnings(&self) -> Vec<String> {
        let m = &*self.mechanism;
        let mut out = Vec::new();
        for d in self.drives.iter().filter(|d| d.used) {
            let Some(split) = m.weld_split(d.joint) else {
                continue;
            };
            let touching = self.rigid.iter().find(|c| match &c.kind {
                ConstraintKind::Contact(p) => {
                    p.base.body == split.body && p.follower.body == split.body
                }
                _ => false,
            });
            if let Some(c) = touching {
                out.push(format!(
                    "the reaction of weld '{}' is NaN: the rigid contact '{}' joins two parts of its welded body, and such a contact's forces are not split between them; read a joint's reaction outside the welded body, or use a penalty contact (contact = \"penalty\") there",
                    m.joint_label(d.joint),
                    c.label
                ));
            }
        }
        out
    }

    /// Initial positions that violate a loop closure are projected onto it at the start; says
    /// so when the correction is more than round-off.
    fn closure_warnings(&self) -> Vec<String> {
        let m = &*self.mechanism;
        // With motion inputs the initial positions of the driven joints come from their inputs,
        // unknown here; the loops are closed at the start.
        if m.cut_joints().is_empty() || !self.motions.is_empty() {
            return Vec::new();
        }
        let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
        m.initial_state(&mut q, &mut v);
        let mut ws = Workspace::new(m);
        forward_kinematics(m, &q, &v, &mut ws);
        let mut rw = RigidWorkspace::new(m, &self.rigid);
        find_candidates(&self.rigid, &ws, &q, &v, &mut rw);
        self.rigid
            .iter()
            .zip(&rw.pairs)
            .filter(|(c, pair)| {
                matches!(c.kind, ConstraintKind::Loop(_)) && pair.separation > CLOSURE_WARNING
            })
            .map(|(c, pair)| {
                format!(
                    "the initial positions open the loop closed by joint '{}' by {:.3e} (m or rad); they are projected onto the loop at the start",
                    c.label, pair.separation
                )
            })
            .collect()
    }
}
