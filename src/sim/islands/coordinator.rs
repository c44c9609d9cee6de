//! The coordinator: one solver per island, each advanced to the next synchronisation in turn.
//!
//! A synchronisation is the earliest of: the engine's next time event (a contact group's next
//! look among them: its look-ahead bounds the coupling only until then), the next sample time
//! (`sample_time` rows, animation frames), the next point of the row grid (stop_time / 1000, so
//! that the CSV keeps its rows where no group looks often) and the stop time. There every
//! island's state is written into the global x, the engine handles the instant for all blocks
//! at once (time events, then `settle`: the groups choose their watched pairs and next look
//! with every body where it is), one row is recorded, and the partition is worked out again.
//! An island whose states did not change keeps its solver, which continues with its step size
//! and controller history ([`Solver::continue_run`]); an island that merged or split starts a
//! fresh solver there.
//!
//! A stretch also ends where an island's event leaves one of its groups' watched pairs across
//! two islands (a *cut*: a body came within the margin of another island's, which the groups'
//! look-ahead rules out only for bodies moved by gravity and contact): every island is brought
//! to that time (those already past it run the stretch again, see [`Islands::stretch`]), and
//! the synchronisation there merges them before they can touch.
//!
//! Where two islands' bodies are found in contact anyway (a cut too late, or none: a kept
//! island run's accepted point, or the synchronisation with every body where it is), the
//! stretch is thrown away and run again from its start with every island merged into one

use super::crossings::{CrossingMap, IslandCrossings};
use super::Partition;
use crate::sim::Engine;
use crate::solver::{Solver, SolverError, SolverOptions};

/// One island's solver and what it integrates.
pub(super) struct IslandRun {
    /// Its states (indices into the global x), ascending.
    pub(super) states: Vec<usize>,
    /// Its lowest body: the key of its step count.
    pub(super) body: usize,
    /// Its bodies (indexed by body): what its evaluations are restricted to.
    pub(super) bodies: Vec<bool>,
    /// Its share of the moving bodies: the weight of one of its evaluations in
    /// [`IslandStats::evaluation_equivalents`].
    pub(super) share: f64,
    pub(super) solver: Solver,
    /// Its state at the start of a fresh run (a gather of the global x).
    pub(super) x0: Vec<f64>,
    /// Whether the solver has a stopped run to continue (else it starts afresh).
    pub(super) running: bool,
}

/// A run integrated island by island: the partition, one solver per island and the global
/// buffers, all allocated by [`Islands::new`]; [`Islands::integrate`] allocates nothing
/// unless the partition changes (then the new islands' solvers).
pub struct Islands {
    pub(super) partition: Partition,
    pub(super) runs: Vec<IslandRun>,
    pub(super) options: SolverOptions,
    pub(super) t0: f64,
    pub(super) t_end: f64,
    /// The global state (every island's, written back at each synchronisation).
    pub(super) x: Vec<f64>,
    /// The global state as the current stretch began.
    pub(super) base: Vec<f64>,
    /// The blocks' work slots (`RunState::work`: the groups' watched pairs and next look, any
    /// block's modes) as the current stretch began: put back with `base` when the stretch runs
    /// again merged, so that no thrown-away run's handlers reach the run again.
    pub(super) base_work: Vec<f64>,
    pub(super) dx: Vec<f64>,
    /// Room for the step counts per island, taken by [`Islands::integrate`]'s result (an
    /// island's lowest body identifies it: at most one per state).
    pub(super) steps_per_island: Vec<(usize, usize)>,
    /// Which zero-crossing functions each island's solver sees.
    pub(super) crossings: CrossingMap,
    /// Every zero-crossing function's value at an island's evaluation (global indices).
    pub(super) g: Vec<f64>,
    /// The island state `g` was last evaluated at by an island's run (room for the largest
    /// island: the global state's length), so that an accepted point's check can read `g`
    /// instead of evaluating it again there ([`IslandSystem`](super::system::IslandSystem)).
    pub(super) g_state: Vec<f64>,
    /// An island's crossed functions as global indices (room for all).
    pub(super) crossed: Vec<usize>,
    /// Per island, the time its run reached in the current stretch (room for one per state).
    pub(super) reached: Vec<f64>,
    /// Per island, the event-log entries (a range of indices) of its latest run in the
    /// current stretch: the only ones kept when a cut threw earlier runs away.
    pub(super) logged: Vec<(usize, usize)>,
    /// Per island, the first time its latest run in the current stretch found two islands'
    /// bodies in contact ([`IslandSystem::contact_across`]), if it did.
    pub(super) contact: Vec<Option<f64>>,
}

/// The runs for the partition's islands: an island with the states of an existing run keeps
/// it (solver, step size, history, its crossing functions' positions); the others get a fresh
/// solver over their own zero-crossing functions ([`CrossingMap::list_for`]). The map's
/// owners are read back from the lists; the caller refreshes it.
pub(super) fn rebuild(
    runs: &mut Vec<IslandRun>,
    crossings: &mut CrossingMap,
    partition: &Partition,
    options: &SolverOptions,
    engine: &Engine<'_>,
) -> Result<(), SolverError> {
    let mut old = std::mem::take(runs);
    let mut old_lists = std::mem::take(&mut crossings.lists);
    let moving = partition.moving_bodies().max(1) as f64;
    for i in 0..partition.islands() {
        let (states, body) = partition.island_states(i);
        let (run, list) = match old.iter().position(|r| r.states == states) {
            Some(k) => (old.swap_remove(k), old_lists.swap_remove(k)),
            None => {
                let bodies = partition.island_bodies(i);
                let share = bodies.iter().filter(|&&b| b).count() as f64 / moving;
                let list: IslandCrossings = crossings.list_for(engine, &bodies);
                let solver = Solver::new(states.len(), list.local.len(), options.clone())?;
                let run = IslandRun {
                    solver,
                    x0: vec![0.0; states.len()],
                    states,
                    body,
                    bodies,
                    share,
                    running: false,
                };
                (run, list)
            }
        };
        runs.push(run);
        crossings.lists.push(list);
    }
    crossings.reindex();
    Ok(())
}
