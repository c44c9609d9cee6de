//! Zero-crossing functions from the inputs ([`Block::crossings_from_inputs`]): a contact
//! group's separations at a state whose outputs are not current cost its members' kinematics,
//! not its forces, and are the numbers a full evaluation gives.

use super::*;
use crate::block::{BlockError, PhysicalBlock};
use crate::block::{PortDecl, Setup, Shape};
use crate::solver::{Direction, EventOutcome, Solver, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A block that counts its calls and otherwise is `inner`.
pub(super) struct Counting<'a> {
    pub(super) inner: &'a dyn Block,
    /// Calls of `outputs_eval` and of `zero_crossings_from_inputs`.
    pub(super) evaluations: AtomicUsize,
    pub(super) from_inputs: AtomicUsize,
}

impl<'a> Counting<'a> {
    /// `inner`, counted.
    pub(super) fn new(inner: &'a dyn Block) -> Self {
        Counting {
            inner,
            evaluations: AtomicUsize::new(0),
            from_inputs: AtomicUsize::new(0),
        }
    }
}

/// The engine of `d` with block `counted` wrapped in `counting`.
pub(super) fn engine_counting<'d>(
    d: &'d Diagram,
    counted: usize,
    counting: &'d Counting<'d>,
) -> Engine<'d> {
    let blocks: Vec<&dyn Block> = (0..d.blocks.len())
        .map(|b| {
            if b == counted {
                counting as &dyn Block
            } else {
                &*d.blocks[b].block
            }
        })
        .collect();
    Engine::with_blocks(d, Recorder::new(d), true, blocks, 0)
}

impl Block for Counting<'_> {
    fn inputs(&self) -> &[PortDecl] {
        self.inner.inputs()
    }
    fn outputs(&self) -> &[PortDecl] {
        self.inner.outputs()
    }
    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        unreachable!("wraps a block that is already set up")
    }
    fn create_scratch(&self) -> Box<dyn Any + Send> {
        self.inner.create_scratch()
    }
    fn initialize(&self, ctx: &mut Ctx) {
        self.inner.initialize(ctx)
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        self.evaluations.fetch_add(1, Relaxed);
        self.inner.outputs_eval(ctx)
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        self.inner.zero_crossings(ctx, g)
    }
    fn crossings_from_inputs(&self) -> bool {
        self.inner.crossings_from_inputs()
    }
    fn zero_crossings_from_inputs(&self, ctx: &mut Ctx, g: &mut [f64]) {
        self.from_inputs.fetch_add(1, Relaxed);
        self.inner.zero_crossings_from_inputs(ctx, g)
    }
    fn next_time_event(&self, t: f64, work: &[f64]) -> Option<f64> {
        self.inner.next_time_event(t, work)
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], time_event: bool) -> bool {
        self.inner.handle_event(ctx, crossed, time_event)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        self.inner.settle(ctx)
    }
    fn events_keep_dynamics(&self) -> bool {
        self.inner.events_keep_dynamics()
    }
    fn physical(&self) -> Option<&dyn PhysicalBlock> {
        self.inner.physical()
    }
}

/// The [`System`] methods a test's wrapper around `self.engine` passes through unchanged (the
/// dimensions and directions, the derivatives, the next time event, the projection): the
/// wrapper writes only the methods it checks.
macro_rules! engine_passthrough {
    () => {
        fn state_dim(&self) -> usize {
            self.engine.state_dim()
        }
        fn zero_crossing_dim(&self) -> usize {
            self.engine.zero_crossing_dim()
        }
        fn zero_crossing_direction(&self, index: usize) -> Direction {
            self.engine.zero_crossing_direction(index)
        }
        fn crossing_keeps_dynamics(&self, index: usize) -> bool {
            self.engine.crossing_keeps_dynamics(index)
        }
        fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
            self.engine.derivatives(t, x, dxdt)
        }
        fn next_time_event(&self, t: f64) -> Option<f64> {
            self.engine.next_time_event(t)
        }
        fn project(&mut self, t: f64, x: &mut [f64]) -> bool {
            self.engine.project(t, x)
        }
    };
}
pub(super) use engine_passthrough;

/// The engine as the solver sees it, checking every zero-crossing evaluation: when it was made
/// from the inputs, the group's outputs were not evaluated, and the same functions after a
/// full evaluation at the same point (derivatives, then the functions from the outputs, now
/// current) are the same bits.
struct Checked<'e, 'd> {
    engine: &'e mut Engine<'d>,
    group: &'d Counting<'d>,
    full_g: Vec<f64>,
    dxdt: Vec<f64>,
    /// Evaluations made from the inputs, and the states where they differed (should be none).
    from_inputs: usize,
    differing: usize,
}

impl System for Checked<'_, '_> {
    engine_passthrough!();
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        let (evaluations, cheap) = (&self.group.evaluations, &self.group.from_inputs);
        let (before, cheap_before) = (evaluations.load(Relaxed), cheap.load(Relaxed));
        self.engine.zero_crossings(t, x, g);
        if cheap.load(Relaxed) == cheap_before {
            return; // the outputs were current: g was read from them
        }
        assert_eq!(
            evaluations.load(Relaxed),
            before,
            "g evaluated the group's forces"
        );
        self.from_inputs += 1;
        self.engine.forget_outputs();
        self.engine.derivatives(t, x, &mut self.dxdt);
        self.engine.zero_crossings(t, x, &mut self.full_g);
        let same = g
            .iter()
            .zip(&self.full_g)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        self.differing += usize::from(!same);
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.engine.handle_events(t, x, crossed, time_event)
    }
}

/// The sphere pile (models/sphere_pile.toml: 64 balls dropped into a box, one contact group)
/// to 0.155 s, past the lowest layer's landing at sqrt(2·0.1 m / g) = 0.143 s, so that pairs
/// come into contact, are watched, and the watched pairs change at events. Every zero-crossing
/// evaluation the solver asks at a point whose outputs are not current is made from the
/// inputs, without the group's `outputs_eval`, and equals, bit for bit (tolerance 0: the same
/// functions of the same poses), the functions after a full evaluation there.
#[test]
fn the_group_s_crossings_from_its_inputs_are_its_crossings_after_a_full_evaluation() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sphere_pile.toml");
    let d = crate::load_model(&path, &[]).unwrap();
    let pile = (d.blocks.iter().position(|b| b.name == "pile")).expect("the group");
    let counting = Counting::new(&*d.blocks[pile].block);
    assert!(counting.crossings_from_inputs());
    let mut engine = engine_counting(&d, pile, &counting);
    let stop = 0.155;
    let x0 = engine.initialize(0.0);
    let n = d.num_states;
    let options = crate::sim::solver_options(&d);
    let mut solver = Solver::new(n, d.zero_crossing_directions.len(), options).unwrap();
    let mut checked = Checked {
        engine: &mut engine,
        group: &counting,
        full_g: vec![0.0; d.zero_crossing_directions.len()],
        dxdt: vec![0.0; n],
        from_inputs: 0,
        differing: 0,
    };
    let stats = solver.integrate(&mut checked, 0.0, &x0, stop).unwrap();
    assert!(stats.zero_crossings > 0, "no event: {stats:?}");
    assert!(
        checked.from_inputs > 100,
        "only {} evaluations from the inputs",
        checked.from_inputs
    );
    assert_eq!(
        checked.differing, 0,
        "of {} evaluations from the inputs",
        checked.from_inputs
    );
}
