//! The block abstraction: ports, shapes, the [`Block`] trait, the registry of block types, and
//! parameters whose default is declared once ([`Param`]).
//!
//! Conventions (Drake's systems framework in spirit):
//! - A block declares its signal inputs and outputs ([`PortDecl`]), and physical (frame/geometry) ports.
//! - After shapes are known, [`Block::setup`] declares continuous states, work slots (modes and
//!   discrete states), zero-crossing functions with their directions, and direct feedthrough *per
//!   (input, output) pair*: an output that depends on an input at the same instant.
//! - At each minor step the engine calls [`Block::outputs`] in schedule order, then
//!   [`Block::derivatives`]. Zero crossings are evaluated after outputs. Event handlers run at located
//!   crossings and time events; [`Block::settle`] then re-checks modes until they are consistent.
//! - A block is immutable while it runs (`&self`): everything that changes lives in the run state
//!   the engine owns (states, work slots, scratch).

pub mod context;
pub mod error;
pub mod kernel;
pub mod members;
pub mod param;
pub mod physical;
pub mod port;
pub mod registry;
pub mod shape;
pub mod units;

pub use context::{same_bits, Ctx, Io, Slot};
pub use error::BlockError;
pub use kernel::{ScalarFunction, ScalarKernel};
pub use members::{ExcludedPair, GeometryMembers, MemberPattern};
pub use param::Param;
pub use physical::{Binding, PhysicalRole, PortBinding};
pub use port::{DrawnAs, HiddenPort, PortDecl, PortKind, ShapeSpec};
pub use registry::{type_markdown, BlockType, ParamDoc, PortDoc};
pub use shape::Shape;
pub use units::{UnitInputs, Units};

/// What makes a block stiff at its last evaluation (see [`Block::stiffness`]).
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

/// A penalty contact's pair overlapping at the start (see [`Block::start_overlap`]).
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
/// [`Block::contact_rates`]). Every field is finite and ≥ 0; 0 means "none" or "not known".
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

use crate::solver::Direction;
use std::any::Any;

/// What a block declares once its port shapes are known.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// Number of continuous states.
    pub num_states: usize,
    /// Number of f64 work slots (modes, discrete states, held values).
    pub num_work: usize,
    /// The zero-crossing functions and their directions.
    pub zero_crossings: Vec<Direction>,
    /// `(input, output)` pairs with direct feedthrough.
    pub feedthrough: Vec<(usize, usize)>,
}

impl Setup {
    /// Every input feeds every output directly (a memoryless block).
    pub fn memoryless(num_inputs: usize, num_outputs: usize) -> Self {
        let feedthrough = (0..num_inputs)
            .flat_map(|i| (0..num_outputs).map(move |o| (i, o)))
            .collect();
        Setup {
            feedthrough,
            ..Default::default()
        }
    }
}

/// A block's linear form, which lets the engine evaluate chains of linear blocks as fused sparse
/// sums instead of calling each block (see `sim::linear`).
#[derive(Clone, Debug, PartialEq)]
pub enum LinearForm {
    /// Memoryless: `y[row] = Σ c·u_input[col]` over its terms (element indices in column-major
    /// order for the final port shapes). The terms are exactly the products the block computes:
    /// one per multiplication, a coefficient that is zero included (a gain of 0, a matrix Gain's
    /// zero entries), so that the fused sums give NaN and infinity where the block would
    /// (0·∞ = NaN). Elements the block does not read (off-diagonal for a scalar gain) have none.
    Memoryless(Vec<LinearTerm>),
    /// A pure integrator: its states are its output (y = x) and ẋ = u (input 0), element by element.
    Integrator,
}

/// One product of a memoryless [`LinearForm`]: `y[row] += c · u_input[col]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearTerm {
    /// The input port.
    pub input: u32,
    /// The output element.
    pub row: u32,
    /// The input element.
    pub col: u32,
    /// The coefficient.
    pub c: f64,
}

impl LinearTerm {
    /// `y[row] += c·u_input[col]`.
    pub fn new(input: usize, row: usize, col: usize, c: f64) -> LinearTerm {
        LinearTerm {
            input: input as u32,
            row: row as u32,
            col: col as u32,
            c,
        }
    }
}

/// A block of the diagram. See the module documentation for the calling conventions.
pub trait Block: Send + Sync {
    /// Signal inputs, in port order.
    fn inputs(&self) -> &[PortDecl];
    /// Signal outputs, in port order.
    fn outputs(&self) -> &[PortDecl];
    /// Frame and geometry ports.
    fn physical_ports(&self) -> &[PortDecl] {
        &[]
    }

    /// The block's part in the physical network, if it has one (see [`physical`]).
    fn physical(&self) -> Option<&PhysicalRole> {
        None
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

    /// Binds a joint or consumer block to the compiled mechanism: afterwards its `inputs()` and
    /// `outputs()` include the hidden ports named in [`physical`]'s conventions
    /// (`kin_<port>` inputs, `wrench_<port>` outputs, a joint's `state` input and `tau` output).
    fn bind(&mut self, _binding: &Binding) -> Result<(), BlockError> {
        Ok(())
    }

    /// Fills in unknown (inherited) port shapes from known ones; called repeatedly until nothing
    /// changes. The default suits element-wise blocks: every inherited port takes the shape of the
    /// first known inherited port. Returns the error when the known shapes contradict each other.
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        let decls = self.inputs().iter().chain(self.outputs().iter());
        let shapes = inputs.iter().chain(outputs.iter());
        let known = decls
            .zip(shapes)
            .find_map(|(d, s)| (d.shape == ShapeSpec::Inherited).then_some(*s).flatten());
        if let Some(k) = known {
            for (d, s) in self
                .inputs()
                .iter()
                .zip(inputs.iter_mut())
                .chain(self.outputs().iter().zip(outputs.iter_mut()))
            {
                if d.shape == ShapeSpec::Inherited {
                    match s {
                        None => *s = Some(k),
                        Some(other) if *other != k && !(other.len() == 1 || k.len() == 1) => {
                            return Err(BlockError::PortsDisagree {
                                port: d.name.to_string(),
                                shape: *other,
                                other: k,
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// The unit of every element of each output, given the inputs' units and shapes (see
    /// [`units`] and the rules in `docs/model-format.md`, "Units of signals"). The default
    /// suits blocks whose outputs' units do not depend on their inputs: each output's declared
    /// [`PortDecl::unit`] or [`PortDecl::element_units`], else none. Called at build time,
    /// repeatedly until the diagram's units settle.
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        (self.outputs().iter().enumerate())
            .map(|(o, port)| Units::declared_for(port, io.outputs.get(o).copied()))
            .collect()
    }

    /// A warning about the inputs' units, e.g. a Sum adding a length to an angle; located at
    /// the block when the model is built. `None` by default.
    fn unit_warning(&self, _io: &UnitInputs<'_>) -> Option<String> {
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
    /// block's `binding`, the World pose of each body by index at the initial state (`body_pose`,
    /// 0 = World), the mechanism's total mass (kg) and gravity (m/s²). `None` for a block that is
    /// not a penalty contact, or whose pair does not overlap.
    fn start_overlap(
        &self,
        _binding: &Binding,
        _body_pose: &dyn Fn(usize) -> nalgebra::Isometry3<f64>,
        _total_mass: f64,
        _gravity: f64,
    ) -> Option<StartOverlap> {
        None
    }

    /// Parameter advice for `blockdyn check` (e.g. a ground contact's static compression and the
    /// step an explicit solver will need), given the mechanism's total mass (kg) and gravity (m/s²).
    fn advice(&self, _total_mass: f64, _gravity: f64) -> Option<String> {
        None
    }

    /// Accepted but questionable parameter values, shown to the user (e.g. μ_dynamic > μ_static).
    /// Asked once the block is bound, before `setup`, and again of a parameter set's instance of
    /// it: it should depend on the block's parameters and binding only.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Tells the block which of its outputs are read (connected or logged), before
    /// [`Block::setup`]; a block may then skip computing the others (an output that nobody reads
    /// costs nothing). The default computes everything.
    fn set_used_outputs(&mut self, _used: &[bool]) {}

    /// Whether the block reads input `input` at all, once told its used outputs: a joint whose
    /// `reaction` and `actuator_force` nobody reads ignores its hidden drive input, and the
    /// mechanism then skips computing it. The default reads every input.
    fn reads_input(&self, _input: usize) -> bool {
        true
    }

    /// Declares states, work slots, zero crossings and feedthrough for the final shapes; the error
    /// when the shapes are not acceptable.
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError>;

    /// Per-run scratch space (e.g. a dynamics workspace), made once when the run state is built.
    fn create_scratch(&self) -> Box<dyn Any + Send> {
        Box::new(())
    }

    /// A copy of `scratch` for a checkpoint or a copied run state. The default makes a fresh
    /// scratch, which is right for scratch that is only workspace (rewritten before it is read
    /// in every evaluation). A block that keeps something in its scratch from one evaluation
    /// or event to the next (a mode count, an angle continued through full turns) returns a true
    /// copy.
    fn clone_scratch(&self, _scratch: &(dyn Any + Send)) -> Box<dyn Any + Send> {
        self.create_scratch()
    }

    /// Sets initial states and work slots at the start time (`ctx.t`). Not called for a block
    /// with neither.
    fn initialize(&self, _ctx: &mut Ctx) {}

    /// Writes the outputs.
    fn outputs_eval(&self, ctx: &mut Ctx);

    /// True when the outputs depend on nothing that changes during a run (no input, state, work
    /// slot or time): the engine then evaluates them at the start and at events only, not at
    /// every minor step (Simulink's constant sample time).
    fn outputs_are_constant(&self) -> bool {
        false
    }

    /// Writes the state derivatives.
    fn derivatives(&self, _ctx: &mut Ctx, _dxdt: &mut [f64]) {}

    /// Writes the zero-crossing values (outputs are current).
    fn zero_crossings(&self, _ctx: &mut Ctx, _g: &mut [f64]) {}

    /// The block's next time event strictly after `t` (sample hit, switch time).
    fn next_time_event(&self, _t: f64, _work: &[f64]) -> Option<f64> {
        None
    }

    /// A periodic block's period (s) and the parameter that sets it (`sample_time`, `period`):
    /// the diagram refuses, at that parameter's line, a period that t cannot resolve near the
    /// stop time or whose time events alone pass the solver's step budget.
    fn period(&self) -> Option<(&'static str, f64)> {
        None
    }

    /// True for blocks with a sample hit at the start time: the engine then calls
    /// `handle_event(ctx, &[], true)` once at `t0`, after the first output evaluation.
    fn samples_at_start(&self) -> bool {
        false
    }

    /// Handles an event at `ctx.t`: `crossed[k]` says whether the block's zero-crossing function `k`
    /// fired; `time_event` whether the block's time event is due. Returns true when states or
    /// work slots changed.
    fn handle_event(&self, _ctx: &mut Ctx, _crossed: &[bool], _time_event: bool) -> bool {
        false
    }

    /// Re-checks modes against current inputs (after events and at the start); returns true when a
    /// mode or state changed, so the engine re-evaluates and asks again.
    fn settle(&self, _ctx: &mut Ctx) -> bool {
        false
    }

    /// True when nothing the block does at its events, at its time events or in
    /// [`Block::settle`] changes the derivative function f(t, x) or any output: it only
    /// re-chooses which of its zero-crossing functions watch what, or when it looks next (a
    /// broad phase's watch list). Such a change is bookkeeping: the engine does not re-evaluate
    /// the diagram for it in `settle`, and does not report it to the solver as a state change,
    /// so the solver keeps its step-size history across the event (it re-reads the
    /// zero-crossing functions) instead of restarting from a starting step.
    fn events_keep_dynamics(&self) -> bool {
        false
    }

    /// For a force block of the physical network bound to several bodies: whether it can say
    /// which pairs of its bodies interact at the moment, from its work slots `work`, and if so
    /// each such pair (body indices of the mechanism) given to `pair`. A pair left out must exert
    /// no force now and until the block's next event (a broad phase's pairs within its margin).
    /// The implicit methods' Jacobian pattern then couples only those bodies' trees
    /// (`sim::sparsity`). Called with empty `work` to ask whether the block reports at all. The
    /// default, false: all the block's bodies interact.
    fn coupled_bodies(&self, _work: &[f64], _pair: &mut dyn FnMut(usize, usize)) -> bool {
        false
    }

    /// The block's linear form for the final shapes, if it is linear (Gain, Sum, a plain
    /// Integrator). The engine then evaluates it without calling it. Called after `setup`.
    /// A block that returns a form has no modes, events or time events: once fused, its
    /// `settle`, `handle_event`, `samples_at_start` and `next_time_event` are never called.
    fn linear_form(&self, _inputs: &[Shape], _outputs: &[Shape]) -> Option<LinearForm> {
        None
    }

    /// The block's arithmetic as a [`ScalarKernel`], when it is memoryless and reads and writes
    /// one element per port for the final shapes: the engine then evaluates the kernel in
    /// place instead of calling [`Block::outputs_eval`] (when linear blocks are fused). Called
    /// after `setup`. The kernel must give exactly the bits `outputs_eval` writes; the block's
    /// zero crossings are still called.
    fn scalar_kernel(&self) -> Option<ScalarKernel<'_>> {
        None
    }

    /// Projects the block's states back onto their manifold after an accepted step (unit
    /// quaternions, contact and closure constraints), with the block's scratch space; returns true
    /// when it changed them.
    fn project_states(&self, _states: &mut [f64], _scratch: &mut (dyn Any + Send)) -> bool {
        false
    }

    /// True when [`Block::project_states`] reads what the block's last output evaluation saw (a
    /// mechanism whose driven loop is closed at its motion inputs' references): the engine then
    /// evaluates the outputs at the accepted point before it projects.
    fn projects_at_inputs(&self) -> bool {
        false
    }

    /// Something the run should tell the user once it ends, read from the block's scratch (a
    /// motion input whose `w_ref` is not the derivative of its `q_ref`). `None`: nothing to say.
    fn run_note(&self, _scratch: &(dyn Any + Send)) -> Option<String> {
        None
    }

    /// Whether the engine records this block's inputs as a plot panel and CSV columns (a Scope).
    fn records_inputs(&self) -> bool {
        false
    }

    /// Why the block's last evaluation failed, when it signalled a failure by non-finite values
    /// (e.g. a rigid contact problem without solution); read from its scratch after the run.
    fn failure(&self, _scratch: &(dyn Any + Send)) -> Option<String> {
        None
    }

    /// The fastest rate (1/s) that the block's last evaluation gives the motion, with what sets it,
    /// read from its scratch: for the stall message, which names the block and mode that bound
    /// an explicit step (a contact's normal, sliding or twisting mode). `None`: nothing to say.
    fn stiffness(&self, _scratch: &(dyn Any + Send)) -> Option<StiffnessNote> {
        None
    }

    /// The rigid constraint this block declares once bound (a RigidContact's pair, a joint's
    /// rigid limit); the mechanism solves it (see [`crate::multibody::rigid`]) and sends it back
    /// through the block's [`HiddenPort::RigidConstraint`] input.
    fn rigid_constraint(&self) -> Option<crate::multibody::rigid::RigidConstraint> {
        None
    }

    /// Names of the continuous states (for messages), default `x[k]`.
    fn state_name(&self, k: usize) -> String {
        format!("x[{k}]")
    }

    /// The block's part in integrating independent islands of bodies separately
    /// (`sim::islands`). The default, [`IslandPart::Other`], is right for any block without
    /// states and zero crossings; a block with either that answers `Other` makes the run
    /// integrate globally.
    fn island_part(&self) -> IslandPart {
        IslandPart::Other
    }

    /// For [`IslandPart::Mechanism`]: the body (mechanism body index, 0 the World) that signal
    /// port `port` (an input when `input`, else an output) carries or acts on: a body's
    /// kinematics, a joint's state or actuation (the joint's follower body), a wrench on a body.
    /// `None` when the port is not tied to one body.
    fn port_body(&self, _input: bool, _port: usize) -> Option<usize> {
        None
    }

    /// For [`IslandPart::ContactGroup`]: calls `pair` with each body pair (mechanism body
    /// indices, the lower first; pairs with the World left out) that may exert a force on each
    /// other before the block's next time event, from the scratch as the last `settle` left it:
    /// every pair whose bounding boxes are within the look-ahead reach, and every pair with an
    /// unbounded member. Pairs not given have exactly zero force until that time event.
    fn island_pairs(&self, _scratch: &(dyn Any + Send), _pair: &mut dyn FnMut(usize, usize)) {}
}

/// What a block is to the island partition (see [`Block::island_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IslandPart {
    /// Neither of the others: sound under islands only without states and zero crossings (its
    /// outputs couple the bodies whose signals it reads to those it drives).
    Other,
    /// The mechanism, when every state belongs to one tree's bodies and no constraint couples
    /// trees (no loop closures, rigid constraints or motion inputs): see [`Block::port_body`].
    Mechanism,
    /// A penalty contact group whose coupling is bounded by its look-ahead: see
    /// [`Block::island_pairs`].
    ContactGroup,
}
