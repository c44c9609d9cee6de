//! The physical network's lowering hook: the interface through which the diagram builder turns
//! the compiled [`Mechanism`] into one block and wires the joint and consumer blocks to it,
//! without naming the block type that does it (the library's multibody blocks provide it,
//! `crate::blocks::multibody::lower_mechanism`, and the registry hands it to the builder).
//!
//! Ports of the lowered block, all hidden signals in the World frame and SI units (see
//! [`super::physical`] for the layouts): one kinematics output per body and one state output
//! per joint from the start; each `add_*` call appends one input or output and returns its
//! index among the block's inputs or outputs.

use super::Block;
use crate::multibody::rigid::RigidConstraint;
use crate::multibody::{FrameId, Mechanism, ReactionFrame};
use std::sync::Arc;

/// Makes the block that integrates `mechanism`, with its kinematic outputs and no inputs yet.
pub type LowerFn = fn(Mechanism) -> Box<dyn MechanismLowering>;

/// The mechanism's block while the builder wires the physical network to it.
pub trait MechanismLowering: Block {
    /// The mechanism it integrates (states x = [q; v]).
    fn mechanism(&self) -> &Arc<Mechanism>;

    /// Index of the output carrying body `b`'s kinematics (18×1).
    fn body_output(&self, b: usize) -> usize;

    /// Index of the output carrying joint `j`'s state (nq_j + nv_j values).
    fn joint_output(&self, j: usize) -> usize;

    /// Adds an input for joint `j`'s actuation (nv_j values: N or N·m per velocity coordinate);
    /// returns its index.
    fn add_actuation_input(&mut self, j: usize) -> usize;

    /// Adds an input for a wrench on body `b` (6×1: torque about the World origin (N·m), then
    /// force (N), both in World) applied by a block connected to `frame` (a weld's reaction
    /// needs to know which side of the weld it acts on; `None` if unknown); returns its index.
    fn add_wrench_input(&mut self, b: usize, frame: Option<FrameId>) -> usize;

    /// Adds an input for joint `j`'s motion reference `[q_ref; w_ref; a_ref]` (3·nv_j values;
    /// read on the joint's prescribed axes only); returns its index.
    fn add_motion_input(&mut self, j: usize) -> usize;

    /// Adds joint `j`'s drive output `[τ_act (nv_j); force (3, N); torque (3, N·m)]`, its
    /// reaction resolved in `frame`; returns its index.
    fn add_drive_output(&mut self, j: usize, frame: ReactionFrame) -> usize;

    /// Adds a rigid contact pair or joint limit for the mechanism to solve; returns the index of
    /// its output (the solved constraint, [`RigidConstraint::output_len`] values laid out as
    /// [`crate::multibody::rigid::output`] says).
    fn add_rigid_constraint(&mut self, constraint: RigidConstraint) -> usize;

    /// The block once every joint and consumer is wired, with the unused capacity of its port
    /// lists freed (they grow by one push per joint; at 20,000 joints the doubled capacity was
    /// tens of megabytes held for the whole run).
    fn finish(self: Box<Self>) -> Box<dyn Block>;
}
