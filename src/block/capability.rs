//! What some blocks do beyond dataflow, one trait per concept, each reached through one
//! accessor of [`Block`] that answers `None` for every other block:
//!
//! | trait | accessor | implemented by |
//! |---|---|---|
//! | [`PhysicalBlock`] | [`Block::physical`], [`Block::physical_mut`] | the frame, solid and geometry blocks, joints, sensors, spring-dampers, the contact blocks |
//! | [`Advice`] | [`Block::advice`] | the mechanism, GroundContact, SpatialContactForce, ContactGroup |
//! | [`ConstrainedStates`] | [`Block::constrained_states`] | the mechanism |
//! | [`BodyCoupling`] | [`Block::body_coupling`] | the mechanism, ContactGroup |
//!
//! The diagram asks [`Block::physical`] once to find the physical network; the engine asks
//! [`Block::constrained_states`] after each accepted step; `blockdyn check` and the stall
//! message ask [`Block::advice`]; the island partition and the Jacobian's sparsity ask
//! [`Block::body_coupling`].
//!
//! [`Block`]: super::Block
//! [`Block::advice`]: super::Block::advice
//! [`Block::body_coupling`]: super::Block::body_coupling
//! [`Block::constrained_states`]: super::Block::constrained_states
//! [`Block::physical`]: super::Block::physical
//! [`Block::physical_mut`]: super::Block::physical_mut

use super::{Binding, BlockError, GeometryMembers, PhysicalRole};
use crate::multibody::rigid::RigidConstraint;
use std::any::Any;

/// A block's part in the physical network: its role, its binding to the compiled mechanism, the
/// geometries it gathers by name, and the rigid constraint it hands the mechanism to solve.
pub trait PhysicalBlock: Send + Sync {
    /// What the block is in the frame network (see [`super::physical`]).
    fn role(&self) -> &PhysicalRole;

    /// Binds a joint or consumer block to the compiled mechanism: afterwards its
    /// [`Block::inputs`](super::Block::inputs) and [`Block::outputs`](super::Block::outputs)
    /// include the hidden ports named in [`super::physical`]'s conventions (body kinematics and wrenches, a joint's state and
    /// actuation). The default binds nothing (frames, solids and geometries).
    fn bind(&mut self, _binding: &Binding) -> Result<(), BlockError> {
        Ok(())
    }

    /// For a block that gathers geometries by name (a ContactGroup): its `members` patterns and
    /// `exclude` pairs, which the builder expands against the model's Solid and geometry blocks
    /// before the physical network is elaborated. `None` for every other block.
    fn geometry_members(&self) -> Option<&GeometryMembers> {
        None
    }

    /// Gives a block that gathers geometries its members after expansion (block names, in
    /// `members` order): it declares one geometry port per member, named after it, which the
    /// builder then connects to the member's `G` port.
    fn set_members(&mut self, _members: &[String]) {}

    /// The rigid constraint this block declares once bound (a RigidContact's pair, a joint's
    /// rigid limit); the mechanism solves it (see [`crate::multibody::rigid`]) and sends it back
    /// through the block's [`super::HiddenPort::RigidConstraint`] input.
    fn rigid_constraint(&self) -> Option<RigidConstraint> {
        None
    }

    /// Every rigid constraint this block declares once bound, in the order of its
    /// [`super::HiddenPort::RigidConstraint`] inputs (the k-th input receives the k-th
    /// constraint's solution): a ContactGroup with `contact = "rigid"` declares one per pair of
    /// members. The default is [`PhysicalBlock::rigid_constraint`]'s, if any. A constraint's
    /// label, when not empty, names it within the block (the binding prefixes the block's name).
    fn rigid_constraints(&self) -> Vec<RigidConstraint> {
        self.rigid_constraint().into_iter().collect()
    }

    /// Whether [`PhysicalBlock::rigid_constraints`] is not empty, without copying the
    /// constraints (their shapes included): what the parameter sets ask of every block.
    fn has_rigid_constraints(&self) -> bool {
        self.rigid_constraint().is_some()
    }
}

/// What a block tells the user about its parameters and the step they need: `blockdyn check`'s
/// advice, and for a penalty contact its linearised rates, its overlap at the start and what
/// makes it stiff at the last evaluation (the stall message). Every method defaults to "nothing
/// to say".
pub trait Advice: Send + Sync {
    /// Parameter advice for `blockdyn check` (e.g. a ground contact's static compression and the
    /// step an explicit solver will need), given the mechanism's total mass (kg) and gravity
    /// (m/s²).
    fn text(&self, _total_mass: f64, _gravity: f64) -> Option<String> {
        None
    }

    /// A penalty contact's linearised modes in its resting regime, given the mechanism's total
    /// mass (kg) and gravity (m/s²): carrying the weight of the body it supports (the whole
    /// mechanism's when that is unknown). A fixed-step method is unstable above a step of about
    /// (its stability reach)/[`ContactRates::normal_rate`] (the diagram warns when rk4's
    /// `fixed_step` is), and `blockdyn check` estimates the work of a run from them.
    fn contact_rates(&self, _total_mass: f64, _gravity: f64) -> Option<ContactRates> {
        None
    }

    /// How deep this contact's pair overlaps at the start, against the depth at which it would
    /// rest (issue 28: a body started 8 cm inside a stiff floor is launched metres up). Given the
    /// block's `binding`, the World pose of each body by index at the initial state
    /// (`body_pose`, 0 = World), the mechanism's total mass (kg) and gravity (m/s²). `None` for a
    /// pair that does not overlap.
    fn start_overlap(
        &self,
        _binding: &Binding,
        _body_pose: &dyn Fn(usize) -> nalgebra::Isometry3<f64>,
        _total_mass: f64,
        _gravity: f64,
    ) -> Option<StartOverlap> {
        None
    }

    /// The fastest rate (1/s) that the block's last evaluation gives the motion, with what sets
    /// it, read from its scratch: for the stall message, which names the block and mode that
    /// bound an explicit step (a contact's normal, sliding or twisting mode). `None`: nothing to
    /// say.
    fn stiffness(&self, _scratch: &(dyn Any + Send)) -> Option<StiffnessNote> {
        None
    }
}

/// A block whose states live on a manifold (unit quaternions, closed loops, rigid contacts): the
/// engine projects them back after each accepted step, and asks after the run why an evaluation
/// failed and what to note.
pub trait ConstrainedStates: Send + Sync {
    /// Projects the block's states back onto their manifold after an accepted step, with the
    /// block's scratch space; returns true when it changed them.
    fn project_states(&self, states: &mut [f64], scratch: &mut (dyn Any + Send)) -> bool;

    /// True when [`ConstrainedStates::project_states`] reads what the block's last output
    /// evaluation saw (a mechanism whose driven loop is closed at its motion inputs'
    /// references): the engine then evaluates the outputs at the accepted point before it
    /// projects.
    fn projects_at_inputs(&self) -> bool {
        false
    }

    /// Why the block's last evaluation failed, when it signalled a failure by non-finite values
    /// (e.g. a rigid contact problem without solution); read from its scratch after the run.
    fn failure(&self, _scratch: &(dyn Any + Send)) -> Option<String> {
        None
    }

    /// Something the run should tell the user once it ends, read from the block's scratch (a
    /// motion input whose `w_ref` is not the derivative of its `q_ref`). `None`: nothing to say.
    fn run_note(&self, _scratch: &(dyn Any + Send)) -> Option<String> {
        None
    }
}

/// Which bodies a block couples, for integrating independent islands of bodies separately
/// (`sim::islands`) and for the implicit methods' Jacobian pattern (`sim::sparsity`). A block
/// without this capability is [`IslandPart::Other`] and couples all the bodies it is bound to.
pub trait BodyCoupling: Send + Sync {
    /// The block's part in the island partition. A block with states or zero crossings that
    /// answers [`IslandPart::Other`] makes the run integrate globally.
    fn island_part(&self) -> IslandPart;

    /// For [`IslandPart::Mechanism`] (and the sparsity pattern): the body (mechanism body index,
    /// 0 the World) that signal port `port` (an input when `input`, else an output) carries or
    /// acts on: a body's kinematics, a joint's state or actuation (the joint's follower body), a
    /// wrench on a body. `None` when the port is not tied to one body.
    fn port_body(&self, _input: bool, _port: usize) -> Option<usize> {
        None
    }

    /// For [`IslandPart::ContactGroup`]: calls `pair` with each body pair (mechanism body
    /// indices, the lower first; pairs with the World left out) that may exert a force on each
    /// other before the block's next time event, from the scratch as the last `settle` left it:
    /// every pair whose bounding boxes are within the look-ahead reach, and every pair with an
    /// unbounded member. Pairs not given have exactly zero force until that time event.
    fn island_pairs(&self, _scratch: &(dyn Any + Send), _pair: &mut dyn FnMut(usize, usize)) {}

    /// For [`IslandPart::ContactGroup`]: calls `crossing(k, a, b)` for each of the block's
    /// zero-crossing functions k that depends on the motion of bodies a and b alone (mechanism
    /// body indices, 0 the World; a function that is constant now with `(0, 0)`), as its work
    /// slots (`work`) say after the last `settle`. A function not given may depend on any body:
    /// every island's solver sees it. The functions given must be the same at every call (only
    /// their bodies may change), and [`BodyCoupling::island_crossings`] bounds how many of them
    /// can lie on one island.
    fn crossing_bodies(&self, _work: &[f64], _crossing: &mut dyn FnMut(usize, usize, usize)) {}

    /// For [`IslandPart::ContactGroup`]: the most functions [`BodyCoupling::crossing_bodies`]
    /// can ever give with both bodies among those `island` marks (indexed by mechanism body) or
    /// the World, over every choice of its work slots.
    fn island_crossings(&self, _island: &[bool]) -> usize {
        0
    }

    /// For a force block bound to several bodies: whether it can say which pairs of its bodies
    /// interact at the moment, from its work slots `work`, and if so each such pair (body
    /// indices of the mechanism) given to `pair`. A pair left out must exert no force now and
    /// until the block's next event (a broad phase's pairs within its margin). The implicit
    /// methods' Jacobian pattern then couples only those bodies' trees (`sim::sparsity`). Called
    /// with empty `work` to ask whether the block reports at all. The default, false: all the
    /// block's bodies interact.
    fn coupled_bodies(&self, _work: &[f64], _pair: &mut dyn FnMut(usize, usize)) -> bool {
        false
    }
}

/// What a block is to the island partition (see [`BodyCoupling::island_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IslandPart {
    /// Neither of the others: sound under islands only without states and zero crossings (its
    /// outputs couple the bodies whose signals it reads to those it drives).
    Other,
    /// The mechanism, when every state belongs to one tree's bodies and no constraint couples
    /// trees (no loop closures, rigid constraints or motion inputs): see
    /// [`BodyCoupling::port_body`].
    Mechanism,
    /// A penalty contact group whose coupling is bounded by its look-ahead: see
    /// [`BodyCoupling::island_pairs`].
    ContactGroup,
}

/// What makes a block stiff at its last evaluation (see [`Advice::stiffness`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StiffnessNote {
    /// The magnitude of the fastest eigenvalue it gives the motion (1/s); an explicit method's
    /// step must stay below about 3/rate.
    pub rate: f64,
    /// What sets it, e.g. "its twisting mode: friction's slope … over 8 points".
    pub what: String,
    /// What to change in the model to make it gentler.
    pub help: String,
    /// How fast the contact travels over the moving body's surface at that evaluation (m/s):
    /// the bodies' relative rotation rate times the largest distance of a point in contact from
    /// the moving body's frame origin. A loaded contact that travels (rolling, spinning) keeps
    /// changing its support and its normal mode ringing; one at rest, or sliding without
    /// turning, does not (`sim::work_estimate`). A heuristic: a top spinning on its tip also
    /// "travels" by this measure although its support does not change.
    pub surface_speed: f64,
    /// For a block of many pairs (a ContactGroup): its moving members that its contacts do not
    /// hold up at that evaluation (the upward part of their net contact force is below half
    /// their weight, and they are not within the group's margin above another member), which
    /// will fall and strike (`sim::work_estimate`); 0 for a block of one pair. A group with no
    /// pair in contact reports them in a note of rate 0 (which no stall message names).
    pub free_members: usize,
}

/// A penalty contact's pair overlapping at the start (see [`Advice::start_overlap`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StartOverlap {
    /// The two geometries, as the user names them (`box.G` and `floor.G`, or `toe.G` and the
    /// ground).
    pub pair: String,
    /// The deepest overlap at the start (m), > 0.
    pub depth: f64,
    /// The depth (m) at which the contact carries the whole mechanism's weight at rest; `None`
    /// when its law has no stiffness to carry it.
    pub static_depth: Option<f64>,
    /// How `static_depth` follows from the law, with its numbers (e.g. `m·g/k = 98.1 N / 1e6 N/m`).
    pub static_law: String,
}

/// A penalty contact's linearised modes while it carries a weight at rest (see
/// [`Advice::contact_rates`]). Every field is finite and ≥ 0; 0 means "none" or "not known".
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactRates {
    /// |λ|max of the normal motion about the static depth (1/s).
    pub normal_rate: f64,
    /// The normal mode's natural frequency ω = sqrt(k_eff/m) (rad/s).
    pub natural_frequency: f64,
    /// The normal mode's damping ratio ζ = b_eff/(2·sqrt(k_eff·m)).
    pub damping_ratio: f64,
    /// The regularised friction's sliding rate c_f/m while the contact sticks (1/s).
    pub friction_rate: f64,
}

impl ContactRates {
    /// The fastest of the contact's rates (1/s): what an explicit step must resolve.
    pub fn fastest(&self) -> f64 {
        self.normal_rate.max(self.friction_rate)
    }
}
