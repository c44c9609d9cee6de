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
//! ([`Islands::run_merged_again`]): the contact is integrated as the global run does.

use super::crossings::{CrossingMap, IslandCrossings};
use super::system::IslandSystem;
use super::{IslandStats, NoIslands, Partition};
use crate::output::OutputRows;
use crate::output::SMOOTH_ROWS;
use crate::sim::Engine;
use crate::solver::{RecordKind, Solver, SolverError, SolverOptions, SolverStats, System};

/// One island's solver and what it integrates.
struct IslandRun {
    /// Its states (indices into the global x), ascending.
    states: Vec<usize>,
    /// Its lowest body: the key of its step count.
    body: usize,
    /// Its bodies (indexed by body): what its evaluations are restricted to.
    bodies: Vec<bool>,
    /// Its share of the moving bodies: the weight of one of its evaluations in
    /// [`IslandStats::evaluation_equivalents`].
    share: f64,
    solver: Solver,
    /// Its state at the start of a fresh run (a gather of the global x).
    x0: Vec<f64>,
    /// Whether the solver has a stopped run to continue (else it starts afresh).
    running: bool,
}

/// A stretch just integrated, as its synchronisation sees it.
struct Stretch {
    /// Its start (s).
    start: f64,
    /// The time every island reached (s): its synchronisation, or an earlier cut.
    end: f64,
    /// Whether an engine time event is due at `end`.
    time_event: bool,
    /// The event log's length at its start (its entries follow).
    log_start: usize,
    /// The first time (s) a kept island run found two islands' bodies in contact.
    contact: Option<f64>,
}

/// What a synchronisation decided.
enum Synced {
    /// Integrate the stretch again from its start (islands merged).
    Again,
    /// Go on from the stretch's end.
    Continue,
    /// The run ends at the stretch's end (the stop time, or a handler asked to stop).
    Stop,
}

/// A run integrated island by island: the partition, one solver per island and the global
/// buffers, all allocated by [`Islands::new`]; [`Islands::integrate`] allocates nothing
/// unless the partition changes (then the new islands' solvers).
pub struct Islands {
    partition: Partition,
    runs: Vec<IslandRun>,
    options: SolverOptions,
    t0: f64,
    t_end: f64,
    /// The global state (every island's, written back at each synchronisation).
    x: Vec<f64>,
    /// The global state as the current stretch began.
    base: Vec<f64>,
    dx: Vec<f64>,
    /// Room for the step counts per island, taken by [`Islands::integrate`]'s result (an
    /// island's lowest body identifies it: at most one per state).
    steps_per_island: Vec<(usize, usize)>,
    /// Which zero-crossing functions each island's solver sees.
    crossings: CrossingMap,
    /// Every zero-crossing function's value at an island's evaluation (global indices).
    g: Vec<f64>,
    /// An island's crossed functions as global indices (room for all).
    crossed: Vec<usize>,
    /// Per island, the time its run reached in the current stretch (room for one per state).
    reached: Vec<f64>,
    /// Per island, the event-log entries (a range of indices) of its latest run in the
    /// current stretch: the only ones kept when a cut threw earlier runs away.
    logged: Vec<(usize, usize)>,
    /// Per island, the first time its latest run in the current stretch found two islands'
    /// bodies in contact ([`IslandSystem::contact_across`]), if it did.
    contact: Vec<Option<f64>>,
}

impl Islands {
    /// Sets up a run of `engine` from (t0, x0) to t_end with `options`, where `x0` is the state
    /// [`Engine::initialize_from`] returned (the groups have settled at t0): the partition and
    /// a solver per island. `Ok(Err)` says why islands do not apply (then integrate globally):
    /// unsound for the diagram or a single island at t0; `Err` is a solver error (invalid
    /// options).
    pub fn new(
        engine: &mut Engine<'_>,
        options: &SolverOptions,
        t0: f64,
        x0: &[f64],
        t_end: f64,
    ) -> Result<Result<Self, NoIslands>, SolverError> {
        let mut partition = match Partition::new(engine.diagram, engine) {
            Ok(p) => p,
            Err(why) => return Ok(Err(why)),
        };
        partition.update(engine);
        if partition.islands() < 2 {
            return Ok(Err(NoIslands::OneIsland));
        }
        engine.set_island_blocks(partition.block_islands().to_vec(), partition.bodies());
        let mut options = options.clone();
        if options.max_step <= 0.0 {
            // The global run's automatic bound, not (sync − t)/50 per stretch.
            options.max_step = (t_end - t0) / 50.0;
        }
        let mut runs = Vec::new();
        let mut crossings = CrossingMap::new(engine);
        rebuild(&mut runs, &mut crossings, &partition, &options, engine)?;
        crossings.refresh(engine, &partition);
        let n_crossings = engine.zero_crossing_dim();
        Ok(Ok(Islands {
            partition,
            runs,
            options,
            t0,
            t_end,
            x: x0.to_vec(),
            base: x0.to_vec(),
            dx: vec![0.0; x0.len()],
            steps_per_island: Vec::with_capacity(x0.len()),
            crossings,
            g: vec![0.0; n_crossings],
            crossed: Vec::with_capacity(n_crossings),
            reached: Vec::with_capacity(x0.len()),
            logged: Vec::with_capacity(x0.len()),
            contact: Vec::with_capacity(x0.len()),
        }))
    }

    /// The state at the end of the last [`Islands::integrate`].
    pub fn state(&self) -> &[f64] {
        &self.x
    }

    /// Integrates to t_end (see the module documentation); returns the solver counts summed
    /// over the islands and the island counts.
    pub fn integrate(
        &mut self,
        engine: &mut Engine<'_>,
    ) -> Result<(SolverStats, IslandStats), SolverError> {
        let (t0, t_end) = (self.t0, self.t_end);
        let grid = match engine.run.recorder.row_setting() {
            OutputRows::SampleTime(_) => f64::INFINITY,
            _ => (t_end - t0) / SMOOTH_ROWS as f64,
        };
        let mut stats = SolverStats {
            final_time: t0,
            ..Default::default()
        };
        let mut islands = IslandStats {
            initial_islands: self.runs.len(),
            max_islands: self.runs.len(),
            min_islands: self.runs.len(),
            steps_per_island: std::mem::take(&mut self.steps_per_island),
            ..Default::default()
        };
        engine.record(t0, &self.x, RecordKind::Initial);
        deliver_samples(engine, t0, &self.x);
        let mut t = t0;
        let mut k_grid = 1u64;
        while t < t_end {
            while t0 + k_grid as f64 * grid <= t {
                k_grid += 1;
            }
            let event = engine.next_time_event(t).unwrap_or(f64::INFINITY);
            let sample = engine
                .next_sample_time()
                .filter(|&s| s > t)
                .unwrap_or(f64::INFINITY);
            let sync = event.min(sample).min(t0 + k_grid as f64 * grid).min(t_end);
            // `sync`, or earlier where a body came within a group's margin of another island's.
            let log_start = engine.run.events.len();
            let (end, contact) = self.stretch(engine, t, sync, &mut stats, &mut islands)?;
            let stretch = Stretch {
                start: t,
                end,
                time_event: event <= end,
                log_start,
                contact,
            };
            match self.synchronise(engine, &stretch, &mut stats, &mut islands)? {
                Synced::Again => {}
                Synced::Continue => t = end,
                Synced::Stop => {
                    t = end;
                    break;
                }
            }
        }
        engine.record(t, &self.x, RecordKind::Final);
        islands.final_islands = self.runs.len();
        islands.cross_island_crossings = self.crossings.across;
        islands.shared_crossings = self.crossings.shared();
        islands.crossings = engine.zero_crossing_dim();
        Ok((stats, islands))
    }

    /// The synchronisation that ends `stretch`: every island's state is in the global x. Two
    /// islands' bodies found in contact there (by a kept island run, or with every body where
    /// it is) make the stretch run again from its start with the islands merged
    /// ([`Islands::run_merged_again`]); else the engine handles the instant (samples, time
    /// events, the groups' settle), one row is recorded and the partition is worked out again.
    fn synchronise(
        &mut self,
        engine: &mut Engine<'_>,
        stretch: &Stretch,
        stats: &mut SolverStats,
        islands: &mut IslandStats,
    ) -> Result<Synced, SolverError> {
        let t = stretch.end;
        let at_stop = t >= self.t_end;
        // Without a time event due the instant's handling is the groups' settle only: done
        // first (before the samples, which then see the groups settled), so that a contact it
        // reveals is found while the stretch can still be undone. At the stop time nothing is
        // handled: the check sees the groups as the last island's run left them.
        let settled = (!at_stop && !stretch.time_event)
            .then(|| engine.handle_events(t, &mut self.x, &[], false));
        let mut contact = stretch.contact;
        if contact.is_none()
            && (settled.is_some() || at_stop)
            && self.touching_across(engine, t, stats)
        {
            contact = Some(t);
        }
        if contact.is_some() && !self.partition.joins_all() {
            self.run_merged_again(engine, stretch, islands)?;
            return Ok(Synced::Again);
        }
        stats.final_time = t;
        islands.syncs += 1;
        let outcome = if at_stop {
            None
        } else {
            deliver_samples(engine, t, &self.x);
            Some(settled.unwrap_or_else(|| engine.handle_events(t, &mut self.x, &[], true)))
        };
        // After a time event (the groups settled after it; it cannot be undone): two islands'
        // bodies in contact are only noted (docs/solver.md "Islands", what remains).
        if contact.is_none() && stretch.time_event && self.touching_across(engine, t, stats) {
            contact = Some(t);
        }
        if let Some(found) = contact {
            islands.cross_island_contacts += 1;
            let first = islands.first_cross_island_contact.get_or_insert(found);
            *first = first.min(found);
        }
        let Some(outcome) = outcome else {
            return Ok(Synced::Stop);
        };
        engine.record(t, &self.x, RecordKind::Step);
        if outcome.stop {
            return Ok(Synced::Stop);
        }
        self.partition.join_all(false);
        let merged = self.partition.update(engine);
        if t == stretch.start && !merged {
            // A cut at the stretch's start that the synchronisation did not resolve would
            // repeat forever (not expected: a watched pair is within the partition's reach).
            return Err(SolverError::IslandsNotJoined { t });
        }
        if merged {
            self.rebuild_runs(engine, islands)?;
        }
        // The handlers chose the groups' watched pairs again.
        self.crossings.refresh(engine, &self.partition);
        if outcome.state_changed {
            self.runs.iter_mut().for_each(|run| run.running = false);
        }
        Ok(Synced::Continue)
    }

    /// Throws `stretch` away and prepares its run again with every island merged into one (a
    /// global integration over it; the partition splits again at its synchronisation): the
    /// global x back at the stretch's start, the events logged since dropped, and the groups
    /// settled again there (their watched pairs and next look as they were: this undoes the
    /// thrown-away runs' handlers and the settle at the stretch's end). Nothing was delivered
    /// or recorded at the stretch's end yet.
    fn run_merged_again(
        &mut self,
        engine: &mut Engine<'_>,
        stretch: &Stretch,
        islands: &mut IslandStats,
    ) -> Result<(), SolverError> {
        self.x.copy_from_slice(&self.base);
        engine
            .run
            .events
            .retain_from(stretch.log_start, |_, _| false);
        engine.handle_events(stretch.start, &mut self.x, &[], false);
        self.partition.join_all(true);
        self.partition.update(engine);
        self.rebuild_runs(engine, islands)?;
        self.crossings.refresh(engine, &self.partition);
        self.runs.iter_mut().for_each(|run| run.running = false);
        islands.merged_reruns += 1;
        Ok(())
    }

    /// The runs for a changed partition ([`rebuild`]), counted.
    fn rebuild_runs(
        &mut self,
        engine: &Engine<'_>,
        islands: &mut IslandStats,
    ) -> Result<(), SolverError> {
        islands.repartitions += 1;
        let (partition, options) = (&self.partition, &self.options);
        rebuild(
            &mut self.runs,
            &mut self.crossings,
            partition,
            options,
            engine,
        )?;
        islands.max_islands = islands.max_islands.max(self.runs.len());
        islands.min_islands = islands.min_islands.min(self.runs.len());
        Ok(())
    }

    /// Advances every island from `t` to `sync`, one after the other, or to an earlier cut,
    /// and writes their states into the global x; returns the time reached (`sync`, or the
    /// earliest cut: `t` itself when an island's event at the stretch's start cut it) and the
    /// first accepted point at which a kept island run found two islands' bodies in contact, if
    /// one did. An island whose run stops at a cross-island approach ([`IslandSystem::cut`])
    /// ends the stretch there for every island: the islands not yet run go to the cut, and
    /// those already past it go again from `t` (a fresh solver from the stretch's start state,
    /// after the engine settled at `t` again: the cutting island's handlers chose the groups'
    /// watched pairs and next look where it was). A re-run that cuts earlier still moves the
    /// end again, until every island is at the same time.
    fn stretch(
        &mut self,
        engine: &mut Engine<'_>,
        t: f64,
        sync: f64,
        stats: &mut SolverStats,
        islands: &mut IslandStats,
    ) -> Result<(f64, Option<f64>), SolverError> {
        self.base.copy_from_slice(&self.x);
        let mut end = sync;
        // Per island, the time its run reached in this stretch (`t`: not run yet).
        self.reached.clear();
        self.reached.resize(self.runs.len(), t);
        let log_start = engine.run.events.len();
        self.logged.clear();
        self.logged.resize(self.runs.len(), (log_start, log_start));
        self.contact.clear();
        self.contact.resize(self.runs.len(), None);
        let mut settle_again = false;
        let mut reran = false;
        // The island whose event at `t` itself cut the stretch (it ran, and stays at `t`).
        let mut cut_at_start = None;
        while let Some(island) = (0..self.runs.len()).find(|&i| self.reached[i] != end) {
            let past = self.reached[island] > end;
            if end == t {
                // Cut at the stretch's start: an island past it is simply back at its start
                // state (its run thrown away, its events dropped below); a fresh solver next.
                // Its handlers' effects on the blocks (the groups' watched pairs and next look)
                // are undone by the synchronisation's settle at `t`, which follows at once.
                self.runs[island].running = false;
                self.reached[island] = t;
                self.logged[island] = (log_start, log_start);
                self.contact[island] = None;
                reran = true;
                continue;
            }
            if settle_again {
                // The groups' watched pairs and next look as they were at t (x is the base).
                let outcome = engine.handle_events(t, &mut self.x, &[], false);
                debug_assert!(
                    !outcome.state_changed,
                    "settling again at the stretch's start changed the dynamics"
                );
                self.crossings.refresh(engine, &self.partition);
                settle_again = false;
            }
            let first = engine.run.events.len();
            let reached = self.run_island(engine, island, (t, end), past, stats, islands)?;
            self.logged[island] = (first, engine.run.events.len());
            self.reached[island] = reached;
            if past {
                islands.reruns += 1;
                reran = true;
            }
            if reached < end {
                end = reached;
                islands.cuts += 1;
                settle_again = true;
                if reached == t {
                    cut_at_start = Some(island);
                }
            }
        }
        // Only the accepted runs' events stay (a run thrown away by a cut logged events past
        // the end, or before it a second time), in time order as a global run logs them.
        let logged = &self.logged;
        engine.run.events.retain_from(log_start, |i, time| {
            !reran || (time <= end && logged.iter().any(|&(a, b)| (a..b).contains(&i)))
        });
        // Every island's state at the end (x is the stretch's start state here): an island
        // that did not run in this stretch (a cut at its start) stays there.
        for (i, (run, &reached)) in self.runs.iter().zip(&self.reached).enumerate() {
            if reached > t || cut_at_start == Some(i) {
                for (&k, &v) in run.states.iter().zip(run.solver.state()) {
                    self.x[k] = v;
                }
            }
        }
        let contact = self.contact.iter().flatten().copied().reduce(f64::min);
        Ok((end, contact))
    }

    /// Whether two islands' bodies touch at `t` with every body where it is (the global x): a
    /// function of a group's watched pair across two islands of the current partition at or
    /// below zero. Evaluates the crossing functions only when some pair spans two islands
    /// (after a cut, or a contact the cuts missed); allocates nothing.
    fn touching_across(
        &mut self,
        engine: &mut Engine<'_>,
        t: f64,
        stats: &mut SolverStats,
    ) -> bool {
        if !self.crossings.any_across(engine, &self.partition) {
            return false;
        }
        engine.zero_crossings(t, &self.x, &mut self.g);
        stats.crossing_evaluations += 1;
        self.crossings
            .touching_across(engine, &self.partition, &self.g)
    }

    /// Runs island `island` over `span` = (the stretch's start, its end): a fresh solver from
    /// the stretch's start state when it has no stopped run to continue or when it went `past`
    /// the end; returns the time its run reached (the end, or an earlier cut). The global x is
    /// the stretch's start state again afterwards.
    fn run_island(
        &mut self,
        engine: &mut Engine<'_>,
        island: usize,
        (t, end): (f64, f64),
        past: bool,
        stats: &mut SolverStats,
        islands: &mut IslandStats,
    ) -> Result<f64, SolverError> {
        let run = &mut self.runs[island];
        let seen = self.crossings.lists[island].local.len();
        islands.max_island_crossings = islands.max_island_crossings.max(seen);
        let mut system = IslandSystem {
            engine: &mut *engine,
            states: &run.states,
            x: &mut self.x,
            base: &self.base,
            dx: &mut self.dx,
            sync: end,
            crossings: &mut self.crossings,
            island,
            partition: &self.partition,
            g: &mut self.g,
            crossed: &mut self.crossed,
            contact_across: None,
            contact_checks: 0,
            cut: None,
        };
        system.engine.restrict_to_island(Some(&run.bodies));
        let result = if run.running && !past {
            run.solver.continue_run(&mut system, self.t_end)
        } else {
            for (v, &k) in run.x0.iter_mut().zip(&run.states) {
                *v = self.base[k];
            }
            run.solver.integrate(&mut system, t, &run.x0, self.t_end)
        };
        let (contact_across, cut) = (system.contact_across, system.cut);
        stats.crossing_evaluations += system.contact_checks;
        engine.restrict_to_island(None);
        self.contact[island] = contact_across;
        let list = &self.crossings.lists[island];
        let island_stats = result.map_err(|e| global_error(e, &run.states, list))?;
        add(stats, &island_stats);
        islands.evaluation_equivalents += run.share * island_stats.function_evaluations as f64;
        add_steps(islands, run.body, island_stats.steps);
        self.x.copy_from_slice(&self.base);
        run.running = island_stats.final_time < self.t_end;
        let reached = island_stats.final_time;
        if reached == end || (cut == Some(reached) && reached < end) {
            Ok(reached)
        } else {
            // A handler asked to stop (modes that did not settle): the run ends here.
            Err(SolverError::Interrupted { t: reached })
        }
    }
}

/// Hands the engine its sample times at or before `t` (rows at `sample_time`, frames).
fn deliver_samples(engine: &mut Engine<'_>, t: f64, x: &[f64]) {
    let mut last = f64::NEG_INFINITY;
    while let Some(ts) = engine.next_sample_time().filter(|&ts| ts <= t && ts > last) {
        last = ts;
        engine.sample(ts, x);
    }
}

/// The runs for the partition's islands: an island with the states of an existing run keeps
/// it (solver, step size, history, its crossing functions' positions); the others get a fresh
/// solver over their own zero-crossing functions ([`CrossingMap::list_for`]). The map's
/// owners are read back from the lists; the caller refreshes it.
fn rebuild(
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

/// An island solver's error with its state and zero-crossing indices made global.
fn global_error(e: SolverError, states: &[usize], crossings: &IslandCrossings) -> SolverError {
    let global = |index: usize| states.get(index).copied().unwrap_or(index);
    match e {
        SolverError::Chattering { t, index, count } => SolverError::Chattering {
            t,
            index: crossings.global(index).unwrap_or(index),
            count,
        },
        SolverError::NonFinite { t, index } => SolverError::NonFinite {
            t,
            index: global(index),
        },
        SolverError::StepSizeUnderflow { t, step, index } => SolverError::StepSizeUnderflow {
            t,
            step,
            index: index.map(global),
        },
        SolverError::Stalled {
            t,
            step,
            reason,
            index,
        } => SolverError::Stalled {
            t,
            step,
            reason,
            index: index.map(global),
        },
        other => other,
    }
}

/// Adds an island run's counts to the run's (not `final_time`).
fn add(total: &mut SolverStats, s: &SolverStats) {
    total.steps += s.steps;
    total.rejected_steps += s.rejected_steps;
    total.redone_steps += s.redone_steps;
    total.function_evaluations += s.function_evaluations;
    total.zero_crossings += s.zero_crossings;
    total.crossings_ahead += s.crossings_ahead;
    total.foreseen_steps += s.foreseen_steps;
    total.forecast_misses += s.forecast_misses;
    total.crossing_evaluations += s.crossing_evaluations;
    total.time_events += s.time_events;
    total.jacobian_evaluations += s.jacobian_evaluations;
    total.lu_factorizations += s.lu_factorizations;
    total.sparse_lu_factorizations += s.sparse_lu_factorizations;
    total.sparse_analyses += s.sparse_analyses;
    total.method_switches += s.method_switches;
    total.explicit_steps += s.explicit_steps;
    total.implicit_steps += s.implicit_steps;
}

/// Adds `steps` to the count of the island whose lowest body is `body` (sorted by body; grows
/// only when an island first appears).
fn add_steps(islands: &mut IslandStats, body: usize, steps: usize) {
    let list = &mut islands.steps_per_island;
    match list.binary_search_by_key(&body, |e| e.0) {
        Ok(k) => list[k].1 += steps,
        Err(k) => list.insert(k, (body, steps)),
    }
}
