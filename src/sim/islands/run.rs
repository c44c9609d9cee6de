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

use super::system::IslandSystem;
use super::{IslandStats, Partition};
use crate::model::OutputRows;
use crate::model::SMOOTH_ROWS;
use crate::sim::Engine;
use crate::solver::{RecordKind, Solver, SolverError, SolverOptions, SolverStats, System};

/// One island's solver and what it integrates.
struct IslandRun {
    /// Its states (indices into the global x), ascending.
    states: Vec<usize>,
    /// Its lowest body: the key of its step count.
    body: usize,
    solver: Solver,
    /// Its state at the start of a fresh run (a gather of the global x).
    x0: Vec<f64>,
    /// Whether the solver has a stopped run to continue (else it starts afresh).
    running: bool,
}

/// Integrates `engine` from (t0, x0) to t_end island by island (see the module documentation);
/// returns the summed solver counts, the island counts and the final state. `x0` is the state
/// [`Engine::initialize_from`] returned (the groups have settled at t0).
pub(crate) fn integrate_islands(
    engine: &mut Engine<'_>,
    partition: &mut Partition,
    options: &SolverOptions,
    t0: f64,
    x0: &[f64],
    t_end: f64,
) -> Result<(SolverStats, IslandStats, Vec<f64>), SolverError> {
    let n = x0.len();
    let mut options = options.clone();
    if options.max_step <= 0.0 {
        // The global run's automatic bound, not (sync − t)/50 per stretch.
        options.max_step = (t_end - t0) / 50.0;
    }
    let grid = match engine.run.recorder.row_setting() {
        OutputRows::SampleTime(_) => f64::INFINITY,
        _ => (t_end - t0) / SMOOTH_ROWS as f64,
    };
    let mut x = x0.to_vec();
    let mut base = x0.to_vec();
    let mut dx = vec![0.0; n];
    let mut stats = SolverStats {
        final_time: t0,
        ..Default::default()
    };
    let mut islands = IslandStats::default();
    engine.record(t0, &x, RecordKind::Initial);
    deliver_samples(engine, t0, &x);
    partition.update(engine);
    let mut runs = Vec::new();
    rebuild(&mut runs, partition, &options, engine.zero_crossing_dim())?;
    islands.initial_islands = runs.len();
    islands.max_islands = runs.len();
    islands.min_islands = runs.len();
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
        base.copy_from_slice(&x);
        for run in runs.iter_mut() {
            let mut system = IslandSystem {
                engine: &mut *engine,
                states: &run.states,
                x: &mut x,
                base: &base,
                dx: &mut dx,
                sync,
            };
            let result = if run.running {
                run.solver.continue_run(&mut system, t_end)
            } else {
                for (v, &k) in run.x0.iter_mut().zip(&run.states) {
                    *v = base[k];
                }
                run.solver.integrate(&mut system, t, &run.x0, t_end)
            };
            let island_stats = result.map_err(|e| global_error(e, &run.states))?;
            add(&mut stats, &island_stats);
            add_steps(&mut islands, run.body, island_stats.steps);
            x.copy_from_slice(&base);
            run.running = island_stats.final_time < t_end;
            if island_stats.final_time != sync {
                // A handler asked to stop (modes that did not settle): the run ends here.
                return Err(SolverError::Interrupted {
                    t: island_stats.final_time,
                });
            }
        }
        // Every island is at `sync`: the global state, then the instant for all blocks.
        for run in &runs {
            for (&k, &v) in run.states.iter().zip(run.solver.state()) {
                x[k] = v;
            }
        }
        t = sync;
        stats.final_time = t;
        islands.syncs += 1;
        if t >= t_end {
            break;
        }
        deliver_samples(engine, t, &x);
        let due = event <= sync;
        let outcome = engine.handle_events(t, &mut x, &[], due);
        engine.record(t, &x, RecordKind::Step);
        if outcome.stop {
            break;
        }
        if partition.update(engine) {
            islands.repartitions += 1;
            rebuild(&mut runs, partition, &options, engine.zero_crossing_dim())?;
            islands.max_islands = islands.max_islands.max(runs.len());
            islands.min_islands = islands.min_islands.min(runs.len());
        }
        if outcome.state_changed {
            runs.iter_mut().for_each(|run| run.running = false);
        }
    }
    engine.record(t, &x, RecordKind::Final);
    islands.final_islands = runs.len();
    Ok((stats, islands, x))
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
/// it (solver, step size, history); the others get a fresh solver.
fn rebuild(
    runs: &mut Vec<IslandRun>,
    partition: &Partition,
    options: &SolverOptions,
    crossings: usize,
) -> Result<(), SolverError> {
    let mut old = std::mem::take(runs);
    for i in 0..partition.islands() {
        let (states, body) = partition.island_states(i);
        let run = match old.iter().position(|r| r.states == states) {
            Some(k) => old.swap_remove(k),
            None => IslandRun {
                solver: Solver::new(states.len(), crossings, options.clone())?,
                x0: vec![0.0; states.len()],
                states,
                body,
                running: false,
            },
        };
        runs.push(run);
    }
    Ok(())
}

/// An island solver's error with its state index made global (zero-crossing indices already
/// are: every island's solver sees all of them).
fn global_error(e: SolverError, states: &[usize]) -> SolverError {
    let global = |index: usize| states.get(index).copied().unwrap_or(index);
    match e {
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
    total.time_events += s.time_events;
    total.jacobian_evaluations += s.jacobian_evaluations;
    total.lu_factorizations += s.lu_factorizations;
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
