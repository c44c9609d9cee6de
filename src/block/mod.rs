//! The block abstraction: ports, shapes, the [`Block`] trait (dataflow only), the capability
//! traits of the blocks that do more ([`capability`]: the physical network, advice, constrained
//! states, body coupling), the mechanism's lowering hook ([`lowering`]), the registry of block
//! types, and parameters whose default is declared once ([`Param`]).
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

pub mod capability;
pub mod check;
pub mod context;
pub mod error;
pub mod kernel;
pub mod lowering;
pub mod members;
pub mod param;
pub mod physical;
pub mod port;
pub mod registry;
pub mod shape;
pub mod units;

pub use capability::{
    Advice, BodyCoupling, ConstrainedStates, ContactRates, IslandPart, PhysicalBlock, StartOverlap,
    StiffnessNote,
};
pub use check::{Check, Rule};
pub use context::{same_bits, Ctx, Io, Slot};
pub use error::BlockError;
pub use kernel::{ScalarFunction, ScalarKernel};
pub use lowering::{LowerFn, MechanismLowering};
pub use members::{ExcludedPair, GeometryMembers, MemberPattern};
pub use param::{Param, Required};
pub use physical::{Binding, PhysicalRole, PortBinding};
pub use port::{DrawnAs, HiddenPort, PortDecl, PortKind, ShapeSpec};
pub use registry::{type_markdown, BlockType, ParamDoc, PortDoc};
pub use shape::Shape;
pub use units::{UnitInputs, Units};

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

    /// Writes the outputs. Not called for a block with nothing to evaluate (no inputs, outputs,
    /// states, work slots or zero crossings, and the default `()` scratch: a frame-network
    /// block), as [`Block::initialize`] is not: such a block has no effect to compute.
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

    /// True when [`Block::zero_crossings_from_inputs`] gives the zero-crossing values from the
    /// inputs, states and work slots alone. The engine then answers a request for the
    /// zero-crossing functions at a state whose outputs are not current by evaluating only the
    /// blocks upstream of such a block's inputs, not the block's outputs nor anything
    /// downstream (a contact group's forces cost far more than its separations).
    fn crossings_from_inputs(&self) -> bool {
        false
    }

    /// Writes the zero-crossing values when [`Block::crossings_from_inputs`]: the inputs, states
    /// and work slots are current, the outputs and whatever [`Block::outputs_eval`] leaves in the
    /// scratch space are not (they hold an earlier evaluation's). The values must be the same
    /// numbers, bit for bit, as [`Block::zero_crossings`] gives after [`Block::outputs_eval`] at
    /// the same point. Allocates nothing.
    fn zero_crossings_from_inputs(&self, ctx: &mut Ctx, g: &mut [f64]) {
        self.zero_crossings(ctx, g);
    }

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

    /// Whether the engine records this block's inputs as a plot panel and CSV columns (a Scope).
    fn records_inputs(&self) -> bool {
        false
    }

    /// Names of the continuous states (for messages), default `x[k]`.
    fn state_name(&self, k: usize) -> String {
        format!("x[{k}]")
    }

    /// The block's part in the physical network (its role, its binding to the mechanism, the
    /// geometries it gathers, its rigid constraint); `None` for a signal block.
    fn physical(&self) -> Option<&dyn PhysicalBlock> {
        None
    }

    /// [`Block::physical`] for binding and expanding members; `Some` exactly when it is.
    fn physical_mut(&mut self) -> Option<&mut dyn PhysicalBlock> {
        None
    }

    /// What stands for this block in the built diagram once the mechanism holds its values, or
    /// `None` to keep the block itself (the default). A RigidTransform answers a stand-in
    /// without its pose: nothing reads a frame's pose after the mechanism is compiled (a
    /// parameter set makes the block again from its table), and a 20,000-joint URDF chain has
    /// 80,000 of them (issue 28, part 3).
    fn lowered(&self) -> Option<Box<dyn Block>> {
        None
    }

    /// What the block advises about its parameters and step (`blockdyn check`, the stall
    /// message); `None` when it has nothing to say.
    fn advice(&self) -> Option<&dyn Advice> {
        None
    }

    /// For a block whose states live on a manifold (the mechanism): their projection after each
    /// accepted step, and its failure and run notes.
    fn constrained_states(&self) -> Option<&dyn ConstrainedStates> {
        None
    }

    /// Which bodies the block couples, for islands and the Jacobian's sparsity; `None`: it is
    /// [`IslandPart::Other`].
    fn body_coupling(&self) -> Option<&dyn BodyCoupling> {
        None
    }
}

impl dyn Block + '_ {
    /// The block's role in the physical network, `None` for a signal block: the
    /// [`PhysicalBlock::role`] of [`Block::physical`].
    pub fn role(&self) -> Option<&PhysicalRole> {
        self.physical().map(|p| p.role())
    }

    /// The patterns of a block that gathers geometries by name:
    /// [`PhysicalBlock::geometry_members`] of [`Block::physical`].
    pub fn geometry_members(&self) -> Option<&GeometryMembers> {
        self.physical().and_then(|p| p.geometry_members())
    }

    /// The block's part in the island partition: [`BodyCoupling::island_part`], or
    /// [`IslandPart::Other`] for a block without [`Block::body_coupling`].
    pub fn island_part(&self) -> IslandPart {
        self.body_coupling()
            .map_or(IslandPart::Other, |c| c.island_part())
    }
}
