//! An event reads the outputs recorded just before it instead of evaluating them again, and
//! the record after it reads them when nothing changed them (`Engine::handle_events`,
//! `Engine::settle`); a diagram whose outputs depend on the evaluations before (rigid
//! constraints) keeps whole evaluations for its zero crossings and its events.

use super::crossing_tests::{engine_counting, engine_passthrough, Counting};
use super::*;
use crate::solver::{Direction, EventOutcome, RecordKind, Solver, System};
use std::sync::atomic::Ordering::Relaxed;

/// The engine as the solver sees it, checking every row it records (but refined rows, which
/// are evaluated apart: `Engine::enter_interior`): the signals recorded and the zero-crossing
/// functions read at that point are, bit for bit, those of a fresh evaluation there. Counts
/// the group's evaluations inside `handle_events`.
struct Recorded<'e, 'd> {
    engine: &'e mut Engine<'d>,
    group: &'d Counting<'d>,
    recorded: Vec<f64>,
    g_read: Vec<f64>,
    g_fresh: Vec<f64>,
    /// Rows checked, and those whose signals or functions were stale (should be none).
    rows: usize,
    stale: usize,
    /// Events, and the group's evaluations inside them.
    events: usize,
    event_evaluations: usize,
}

impl System for Recorded<'_, '_> {
    engine_passthrough!();
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.engine.zero_crossings(t, x, g)
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        let before = self.group.evaluations.load(Relaxed);
        let outcome = self.engine.handle_events(t, x, crossed, time_event);
        self.events += 1;
        self.event_evaluations += self.group.evaluations.load(Relaxed) - before;
        outcome
    }
    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        self.engine.record(t, x, kind);
        if kind == RecordKind::Refined {
            return;
        }
        self.recorded.copy_from_slice(&self.engine.run.signals);
        // What the solver would read next at this point (from the outputs when current).
        self.engine.zero_crossings(t, x, &mut self.g_read);
        // The check's fresh evaluation below must not hand the run outputs it did not make:
        // the run's own outputs and whether it holds them current are put back after it.
        let evaluated_at = self.engine.evaluated_at;
        self.engine.forget_outputs();
        self.engine.outputs_at(t, x);
        self.engine.zero_crossings(t, x, &mut self.g_fresh);
        let same = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(p, q)| p.to_bits() == q.to_bits());
        let fresh =
            same(&self.recorded, &self.engine.run.signals) && same(&self.g_read, &self.g_fresh);
        self.rows += 1;
        self.stale += usize::from(!fresh);
        self.engine.run.signals.copy_from_slice(&self.recorded);
        self.engine.evaluated_at = evaluated_at;
    }
}

/// The sphere pile to 0.155 s (see `crossing_tests`: pairs come into contact and the watched
/// pairs change at events). Every row recorded (steps, both sides of every event, the end)
/// holds the signals a fresh evaluation at its point gives, and the zero-crossing functions
/// read there are a fresh evaluation's, bit for bit (tolerance 0: the outputs are functions of
/// (t, x) and the work slots, so a row read from outputs that were not current would differ,
/// e.g. an event's row after the group chose other watched pairs, whose separations the
/// functions read). The events evaluate the group fewer times than there are events (it was
/// two per event before: the handler's evaluation and `settle`'s).
#[test]
fn rows_read_from_current_outputs_are_those_of_a_fresh_evaluation() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sphere_pile.toml");
    let d = crate::load_model(&path, &[]).unwrap();
    let pile = (d.blocks.iter().position(|b| b.name == "pile")).expect("the group");
    let counting = Counting::new(&*d.blocks[pile].block);
    let mut engine = engine_counting(&d, pile, &counting);
    let x0 = engine.initialize(0.0);
    let (n, m) = (d.num_states, d.zero_crossing_directions.len());
    let signals = engine.run.signals.len();
    let options = crate::sim::solver_options(&d);
    let mut solver = Solver::new(n, m, options).unwrap();
    let mut recorded = Recorded {
        engine: &mut engine,
        group: &counting,
        recorded: vec![0.0; signals],
        g_read: vec![0.0; m],
        g_fresh: vec![0.0; m],
        rows: 0,
        stale: 0,
        events: 0,
        event_evaluations: 0,
    };
    let stats = solver.integrate(&mut recorded, 0.0, &x0, 0.155).unwrap();
    assert!(stats.zero_crossings > 0, "no event: {stats:?}");
    assert!(recorded.events > 10, "only {} events", recorded.events);
    assert_eq!(recorded.stale, 0, "of {} rows", recorded.rows);
    assert!(
        recorded.event_evaluations < recorded.events,
        "{} evaluations of the group in {} events",
        recorded.event_evaluations,
        recorded.events
    );
}

/// A ball on a RigidContact beside two balls in a penalty group with zero crossings: the
/// mechanism solves its rigid contact warm-started from its last solve, with the force inputs
/// the last evaluation left, so the engine gives up the crossing functions from the inputs
/// (which skip the group's forces) and the events' reuse of outputs: every zero-crossing
/// evaluation of the run is a whole one. The same scene without the rigid contact keeps them.
#[test]
fn rigid_constraints_keep_zero_crossings_and_events_whole() {
    let model = |rigid: bool| {
        let contact = if rigid {
            "\"floor.G -- contact.B\", \"ball.G -- contact.F\","
        } else {
            ""
        };
        let block = if rigid {
            "[blocks.contact]\ntype = \"RigidContact\"\nrestitution = 0.5\n"
        } else {
            ""
        };
        format!(
            r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R",
  "world.W -- j1.B", "j1.F -- b1.R", "world.W -- j2.B", "j2.F -- b2.R", {contact}]
[model]
stop_time = 0.3
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.1 }}
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.3]
[blocks.j1]
type = "SixDofJoint"
position = [2.0, 0.0, 0.5]
velocity = [0.0, 0.0, -1.0]
[blocks.b1]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.j2]
type = "SixDofJoint"
position = [2.0, 0.0, 0.3]
[blocks.b2]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.group]
type = "ContactGroup"
members = ["b1", "b2"]
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }}
{block}"#
        )
    };
    for rigid in [false, true] {
        let d = crate::load_model_str("rigid.toml", &model(rigid), &[]).unwrap();
        let group = (d.blocks.iter().position(|b| b.name == "group")).expect("the group");
        let counting = Counting::new(&*d.blocks[group].block);
        let mut engine = engine_counting(&d, group, &counting);
        assert_eq!(engine.declares_rigid_constraints(), rigid);
        let x0 = engine.initialize(0.0);
        assert_eq!(engine.crossing_steps.is_some(), !rigid, "rigid: {rigid}");
        let options = crate::sim::solver_options(&d);
        let (n, m) = (d.num_states, d.zero_crossing_directions.len());
        let mut solver = Solver::new(n, m, options).unwrap();
        let stats = solver.integrate(&mut engine, 0.0, &x0, 0.3).unwrap();
        // b1, thrown down at 1 m/s, falls onto b2, dropped from rest 0.2 m below it (a gap of
        // 0.1 m, closing at 1 m/s: both fall alike): their pair crosses at 0.1 s.
        assert!(stats.zero_crossings > 0, "rigid: {rigid}: {stats:?}");
        let cheap = counting.from_inputs.load(Relaxed);
        if rigid {
            assert_eq!(cheap, 0, "g from the inputs beside a rigid contact");
        } else {
            assert!(cheap > 0, "no g from the inputs without a rigid contact");
        }
    }
}
