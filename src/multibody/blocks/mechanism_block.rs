//! The mechanism block: owns the joint states, exposes body kinematics, and integrates the
//! articulated-body dynamics under actuation and external wrenches.
//!
//! State x = [q; v] (all joints, in the mechanism's order). Outputs (hidden, World frame):
//! `body_<b>` (18×1 kinematics, see [`crate::block::physical`]) per body and `joint_<j>`
//! ((nq + nv)×1) per joint. They depend on the state only, so contact forces computed from them
//! never form an algebraic loop. Inputs (hidden): joint actuation and wrenches, used by the
//! derivatives only.

use crate::block::physical::{KINEMATICS_LEN, WRENCH_LEN};
use crate::block::{Block, Ctx, HiddenPort, PortDecl, Setup, Shape};
use crate::multibody::{
    body_position, body_rotation, body_velocity, forward_dynamics,
    forward_dynamics_after_kinematics, forward_kinematics, normalize_quaternions, qdot_from_v,
    Mechanism, SpatialForce, Workspace,
};
use nalgebra::Vector3;
use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

/// What a hidden input of the mechanism carries.
#[derive(Clone, Debug)]
enum InputRole {
    /// Actuation of the joint whose velocity coordinates are `range`.
    Actuation(Range<usize>),
    /// A wrench on body `b`.
    Wrench(usize),
}

/// The compiled mechanism as a block.
pub struct MechanismBlock {
    mechanism: Arc<Mechanism>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    roles: Vec<InputRole>,
    /// Whether any body-kinematics output is read (else forward kinematics is skipped: the
    /// dynamics compute their own).
    bodies_used: bool,
}

struct Scratch {
    ws: Workspace,
    tau: Vec<f64>,
    f_ext: Vec<SpatialForce>,
}

impl MechanismBlock {
    /// A block over `mechanism`, with its kinematic outputs and no inputs yet.
    pub fn new(mechanism: Mechanism) -> Self {
        let mut outputs = Vec::new();
        for b in 0..mechanism.num_bodies() {
            outputs.push(
                PortDecl::signal(format!("body_{b}"), Shape::vector(KINEMATICS_LEN))
                    .hidden(HiddenPort::Mechanism),
            );
        }
        for j in 0..mechanism.num_joints() {
            let n = mechanism.joint_q_range(j).len() + mechanism.joint_v_range(j).len();
            outputs.push(
                PortDecl::signal(format!("joint_{j}"), Shape::vector(n))
                    .hidden(HiddenPort::Mechanism),
            );
        }
        MechanismBlock {
            mechanism: Arc::new(mechanism),
            inputs: Vec::new(),
            outputs,
            roles: Vec::new(),
            bodies_used: true,
        }
    }

    /// The mechanism.
    pub fn mechanism(&self) -> &Arc<Mechanism> {
        &self.mechanism
    }

    /// Index of the output carrying body `b`'s kinematics.
    pub fn body_output(&self, b: usize) -> usize {
        b
    }

    /// Index of the output carrying joint `j`'s state.
    pub fn joint_output(&self, j: usize) -> usize {
        self.mechanism.num_bodies() + j
    }

    /// Adds an input for joint `j`'s actuation (nv_j values); returns its index.
    pub fn add_actuation_input(&mut self, j: usize) -> usize {
        let r = self.mechanism.joint_v_range(j);
        self.inputs.push(
            PortDecl::signal(format!("tau_{j}"), Shape::vector(r.len()))
                .hidden(HiddenPort::Mechanism),
        );
        self.roles.push(InputRole::Actuation(r));
        self.inputs.len() - 1
    }

    /// Adds an input for a wrench on body `b` (6×1: torque about the World origin, force; World);
    /// returns its index.
    pub fn add_wrench_input(&mut self, b: usize) -> usize {
        self.inputs.push(
            PortDecl::signal(
                format!("wrench_{}", self.inputs.len()),
                Shape::vector(WRENCH_LEN),
            )
            .hidden(HiddenPort::Mechanism),
        );
        self.roles.push(InputRole::Wrench(b));
        self.inputs.len() - 1
    }

    fn nq(&self) -> usize {
        self.mechanism.nq()
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
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, String> {
        Ok(Setup {
            num_states: self.mechanism.nq() + self.mechanism.nv(),
            ..Setup::default()
        })
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        let m = &self.mechanism;
        Box::new(Scratch {
            ws: Workspace::new(m),
            tau: vec![0.0; m.nv()],
            f_ext: vec![SpatialForce::ZERO; m.num_bodies()],
        })
    }

    fn initialize(&self, ctx: &mut Ctx) {
        let nq = self.nq();
        let (q, v) = ctx.states.split_at_mut(nq);
        self.mechanism.initial_state(q, v);
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let m = &*self.mechanism;
        let nq = self.nq();
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let (q, v) = ctx.states.split_at(nq);
        let bodies = if self.bodies_used { m.num_bodies() } else { 0 };
        if bodies > 0 {
            forward_kinematics(m, q, v, &mut s.ws);
        }
        let ws = &s.ws;
        for b in 0..bodies {
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
        let (q_all, v_all) = ctx.states.split_at(nq);
        for j in 0..m.num_joints() {
            let (qr, vr) = (m.joint_q_range(j), m.joint_v_range(j));
            let out = ctx.io.output(nb + j);
            let (out_q, out_v) = out.split_at_mut(qr.len());
            out_q.copy_from_slice(&q_all[qr]);
            out_v.copy_from_slice(&v_all[vr]);
        }
    }

    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let m = &*self.mechanism;
        let nq = self.nq();
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        s.tau.iter_mut().for_each(|t| *t = 0.0);
        s.f_ext.iter_mut().for_each(|f| *f = SpatialForce::ZERO);
        for (i, role) in self.roles.iter().enumerate() {
            let u = ctx.io.input(i);
            match role {
                InputRole::Actuation(r) => {
                    for (k, t) in r.clone().zip(u) {
                        s.tau[k] += t;
                    }
                }
                InputRole::Wrench(b) => {
                    let f = SpatialForce::new(
                        Vector3::new(u[0], u[1], u[2]),
                        Vector3::new(u[3], u[4], u[5]),
                    );
                    s.f_ext[*b] += f;
                }
            }
        }
        let (q, v) = ctx.states.split_at(nq);
        let (qdot, vdot) = dxdt.split_at_mut(nq);
        if self.bodies_used {
            // outputs_eval ran forward kinematics at this very state (the engine evaluates the
            // outputs before it asks for derivatives), so the workspace already holds them.
            forward_dynamics_after_kinematics(m, q, v, &s.tau, &s.f_ext, &mut s.ws, vdot);
        } else {
            forward_dynamics(m, q, v, &s.tau, &s.f_ext, &mut s.ws, vdot);
        }
        qdot_from_v(m, q, v, qdot);
    }

    fn project_states(&self, states: &mut [f64]) -> bool {
        if self.mechanism.quaternion_offsets().is_empty() {
            return false;
        }
        normalize_quaternions(&self.mechanism, &mut states[..self.nq()]);
        true
    }

    fn advice(&self, _total_mass: f64, _gravity: f64) -> Option<String> {
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

    fn state_name(&self, k: usize) -> String {
        let m = &self.mechanism;
        let nq = m.nq();
        for j in 0..m.num_joints() {
            let (qr, vr) = (m.joint_q_range(j), m.joint_v_range(j));
            if qr.contains(&k) {
                return format!("position {} of joint '{}'", k - qr.start, m.joint_label(j));
            }
            if k >= nq && vr.contains(&(k - nq)) {
                return format!(
                    "velocity {} of joint '{}'",
                    k - nq - vr.start,
                    m.joint_label(j)
                );
            }
        }
        format!("x[{k}]")
    }
}
