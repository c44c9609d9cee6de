//! Running a diagram: the engine (a [`System`](crate::solver::System) over the diagram), the
//! recorder, and [`simulate`], which drives the solver from the start to the stop time.

pub(crate) mod animation;
pub mod budget;
pub mod engine;
mod error;
pub(crate) mod events;
mod island_map;
pub mod islands;
pub mod linear;
pub mod linearize;
pub mod recorder;
mod run_setup;
mod solver_error_text;
pub(crate) mod sparse_sum;
pub mod sparsity;
mod steps;
pub mod work_estimate;

pub use engine::{Engine, EngineCheckpoint, NonFiniteSource, NonFiniteValue, RunState};
pub use error::{readable_time, RunOptionsError, SimError};
pub use events::{EventLog, LocatedEvent};
pub use islands::{IslandStats, Islands, NoIslands};
pub use recorder::{Recorder, SizeWarning, StreamTo, CSV_WARNING_BYTES};
pub use run_setup::{solver_options, ProgressFn};
pub(crate) use solver_error_text::map_solver_error;

use crate::diagram::parameters::ParameterSet;
use crate::diagram::Diagram;
use crate::output::{OutputError, Recording, StagedFile};
use crate::render::Animation;
use crate::solver::{Solver, SolverCheckpoint, SolverError, SolverStats};
use animation::FrameSampler;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of one run that are not part of the model.
#[derive(Default)]
pub struct RunOptions {
    /// Overrides `[model] stop_time`, s.
    pub stop_time: Option<f64>,
    /// Called with the simulated time at each recorded point (e.g. a progress bar) and, under
    /// `method = "auto"`, the method in use (dopri5, or the implicit method while the model is
    /// stiff); `None` for the other methods.
    pub progress: Option<ProgressFn>,
    /// Call every block, even linear ones that the engine would otherwise fuse (for comparisons).
    pub unfused: bool,
    /// Take animation frames at this many per second of simulated time (see
    /// `FrameSampler`); `None` for none. A model without a mechanism gives none.
    pub animation_rate: Option<f64>,
    /// Stream the rows into a CSV and keep only the plot's rows in memory (see
    /// [`Recorder::streaming`]); `None` keeps every row in [`RunResult::recording`].
    pub stream: Option<StreamTo>,
    /// The run stops (with [`SimError::Interrupted`], its rows kept) once this is set.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Start at this time (≥ 0) instead of t = 0, s (blocks initialize at it; time-dependent
    /// sources read it).
    pub start_time: Option<f64>,
    /// Start from this state vector instead of the blocks' initial conditions (the layout of
    /// [`crate::Diagram::num_states`] states, block by block): it replaces the states before the
    /// first outputs, start-time samples and settling (see [`Engine::initialize_from`]).
    pub initial_state: Option<Vec<f64>>,
    /// End the run at its first located zero crossing, after the event's handlers ran, with a
    /// [`RunResult::checkpoint`] to continue from.
    pub stop_at_crossing: bool,
    /// Start from this checkpoint (taken on the same diagram) instead of t = 0: the run takes
    /// the steps the stopped run would have taken had it gone on. See [`Checkpoint`].
    pub resume_from: Option<Arc<Checkpoint>>,
    /// Run with these parameter values instead of the model's, without building the diagram
    /// again: a set compiled by [`crate::Blueprint::parameters`] for this diagram. A run resumed from a
    /// checkpoint keeps the parameters of the run that took it; giving another set is an error.
    pub parameters: Option<Arc<ParameterSet>>,
}

/// A run stopped at an event, to continue from: the engine's run state and the solver's state at
/// that instant (Drake's Context, MuJoCo's mjData, with the integrator's memory). A run resumed
/// from it with the same options takes the same steps, bit for bit, as the run that stopped
/// would have taken had it gone on (`tests/checkpoint.rs`); any number of runs can start from
/// one checkpoint, on any threads. The recording is not part of it: a resumed run records from
/// the checkpoint's time on.
pub struct Checkpoint {
    engine: EngineCheckpoint,
    solver: SolverCheckpoint,
    /// The parameter set of the run that took it.
    parameters: Option<Arc<ParameterSet>>,
}

impl Checkpoint {
    /// The time it was taken at, s.
    pub fn time(&self) -> f64 {
        self.solver.time()
    }

    /// The state vector at that time (after the event's handlers).
    pub fn state(&self) -> &[f64] {
        self.solver.state()
    }
}

/// What a run produced.
pub struct RunResult {
    /// Every row, or with [`RunOptions::stream`] the plot's decimated rows (none without a plot).
    pub recording: Recording,
    /// With [`RunOptions::stream`]: the CSV with every row, staged (not yet committed).
    pub csv: Option<StagedFile>,
    /// Rows recorded (also those streamed and not kept in memory).
    pub rows: usize,
    /// The time of the last row, if any.
    pub last_time: Option<f64>,
    /// The solver's counts: steps, rejections, evaluations, Jacobians, crossings (under
    /// islands, summed over the islands' solvers).
    pub stats: SolverStats,
    /// With `[solver] islands = true`: the island counts when the run integrated islands
    /// separately (`Ok`), or why it integrated globally (`Err`); `None` with islands off.
    pub islands: Option<Result<IslandStats, NoIslands>>,
    /// Wall-clock time spent in the solver loop.
    pub wall_time: Duration,
    /// The continuous state at the end.
    pub final_state: Vec<f64>,
    /// The animation frames, when [`RunOptions::animation_rate`] asked for them.
    pub animation: Option<Animation>,
    /// Where the run stopped at a crossing, to continue from ([`RunOptions::stop_at_crossing`]);
    /// `None` when it ran to its stop time.
    pub checkpoint: Option<Checkpoint>,
    /// Each located zero crossing, in order: its time and the block whose crossing it was (one
    /// entry per block per event). Time events (samples, periods) are not listed. At most
    /// [`EventLog::MAX`] are kept; `events_dropped` counts the rest.
    pub events: Vec<LocatedEvent>,
    /// Located crossings after the first [`EventLog::MAX`] (not in `events`).
    pub events_dropped: usize,
    /// The first recorded NaN or infinity (a signal that reaches only a Scope or a log stops no
    /// run); `None` when every recorded value was finite.
    pub non_finite_row: Option<recorder::NonFiniteRow>,
    /// What blocks have to tell the user about the run (block name, message), e.g. a motion
    /// input whose velocity reference is not its position reference's derivative.
    pub notes: Vec<(String, String)>,
}

/// Runs a built diagram from t = 0 to its stop time.
pub fn simulate(d: &Diagram, options: RunOptions) -> Result<RunResult, SimError> {
    simulate_keeping_rows(d, options).map_err(|failed| failed.error)
}

/// A run that failed part-way, with what it had recorded until then.
#[derive(Debug)]
pub struct FailedRun {
    /// Why the run stopped.
    pub error: SimError,
    /// The rows recorded up to the failure (every accepted step and event before it); empty when
    /// the run failed before its first row. With [`RunOptions::stream`], the plot's rows.
    pub recording: Recording,
    /// With [`RunOptions::stream`]: the CSV of the rows up to the failure, staged.
    pub csv: Option<StagedFile>,
    /// Why the streamed CSV could not be written as well (a full disk), when it could not: then
    /// `csv` is `None` and no output of the run should be committed.
    pub output_error: Option<OutputError>,
    /// Rows recorded before the failure.
    pub rows: usize,
    /// The time of the last row, if any.
    pub last_time: Option<f64>,
    /// The animation frames taken before the failure, when asked for.
    pub animation: Option<Animation>,
    /// The zero crossings located before the failure (see [`RunResult::events`]).
    pub events: Vec<LocatedEvent>,
}

/// [`simulate`], keeping the rows recorded before a failure (chattering, a non-finite state, a
/// step-size underflow, unsettled modes) so that they can still be written.
pub fn simulate_keeping_rows(
    d: &Diagram,
    mut options: RunOptions,
) -> Result<RunResult, Box<FailedRun>> {
    let stop_time = options.stop_time.unwrap_or(d.run.stop_time);
    check_start(d, &options).map_err(|e| FailedRun::early(e.into()))?;
    let recorder = start_recorder(d, &mut options, stop_time)?;
    let parameters = match &options.resume_from {
        Some(checkpoint) => checkpoint.parameters.clone(),
        None => options.parameters.clone(),
    };
    let mut engine = start_engine(d, recorder, &mut options, parameters.as_deref(), stop_time);
    let mut solver = Solver::new(
        d.num_states,
        d.zero_crossing_directions.len(),
        solver_options(d),
    )
    .map_err(|e| FailedRun::early(SimError::InvalidOptions(e.to_string())))?;
    let started = Instant::now();
    let mut islands = IslandRun::default();
    let outcome = integrate(&mut engine, &mut solver, &options, stop_time, &mut islands)
        .map_err(FailedRun::early)?;
    let outcome = match (outcome, engine.run.unsettled.take()) {
        (_, Some((block, t))) => Err(SimError::Unsettled { block, t }),
        (outcome, None) => outcome.map_err(|e| map_solver_error(d, &engine, e)),
    };
    let checkpoint = match &outcome {
        Ok(_) => solver.checkpoint().map(|solver| Checkpoint {
            engine: engine.checkpoint(solver.time()),
            solver,
            parameters: parameters.clone(),
        }),
        Err(_) => None,
    };
    let wall_time = started.elapsed();
    let recorded = Recorded::take(d, &mut engine);
    let notes = run_notes(d, &engine, &islands.counts);
    match (outcome, recorded.finished) {
        (Ok(stats), Ok(csv)) => Ok(RunResult {
            recording: recorded.recording,
            csv,
            rows: recorded.rows,
            last_time: recorded.last_time,
            stats,
            islands: islands.counts,
            wall_time,
            final_state: islands
                .final_state
                .unwrap_or_else(|| solver.state().to_vec()),
            animation: recorded.animation,
            checkpoint,
            events: recorded.events,
            events_dropped: recorded.events_dropped,
            non_finite_row: recorded.non_finite_row,
            notes,
        }),
        (Ok(_), Err(e)) => Err(FailedRun::early(e.into())),
        (Err(error), finished) => {
            // A CSV that could not be written is dropped (its temporary removed); the run's own
            // error comes first, the CSV's is kept beside it.
            let (csv, output_error) = match finished {
                Ok(csv) => (csv, None),
                Err(e) => (None, Some(e)),
            };
            Err(Box::new(FailedRun {
                error,
                recording: recorded.recording,
                csv,
                output_error,
                rows: recorded.rows,
                last_time: recorded.last_time,
                animation: recorded.animation,
                events: recorded.events,
            }))
        }
    }
}

impl FailedRun {
    /// A run that failed before its first row: nothing recorded.
    fn early(error: SimError) -> Box<FailedRun> {
        Box::new(FailedRun {
            error,
            recording: Recording::default(),
            csv: None,
            output_error: None,
            rows: 0,
            last_time: None,
            animation: None,
            events: Vec::new(),
        })
    }
}

/// The run's recorder (streaming to `options.stream` if given, which it takes), once the
/// recording's size is within the budget; warns when the output will be large, and hands it
/// `options.interrupt` (taken too).
fn start_recorder(
    d: &Diagram,
    options: &mut RunOptions,
    stop_time: f64,
) -> Result<Recorder, Box<FailedRun>> {
    let mut recorder = match options.stream.take() {
        Some(to) => Recorder::streaming(d, to),
        None => Ok(Recorder::new(d)),
    }
    .map_err(FailedRun::early)?;
    recorder.set_stop_time(stop_time);
    budget::check(d, recorder.row_setting(), recorder.num_columns(), stop_time)
        .map_err(|over| FailedRun::early(over.into()))?;
    recorder.warn_if_too_large();
    if let Some(flag) = options.interrupt.take() {
        recorder.set_interrupt(flag);
    }
    Ok(recorder)
}

/// The run's engine over `d` with `recorder` and `parameters` (the diagram's own when `None`):
/// fused unless `options.unfused`, reporting progress to `options.progress` (taken), taking
/// animation frames at `options.animation_rate` until `stop_time` (s), and stopping at the first
/// crossing if `options.stop_at_crossing`.
fn start_engine<'d>(
    d: &'d Diagram,
    recorder: Recorder,
    options: &mut RunOptions,
    parameters: Option<&'d ParameterSet>,
    stop_time: f64,
) -> Engine<'d> {
    let mut engine = Engine::with_parameters(d, recorder, !options.unfused, parameters);
    engine.run.progress = options.progress.take();
    engine.run.frames = options.animation_rate.and_then(|rate| {
        let scene = parameters.and_then(|p| p.scene()).or(d.scene.as_ref());
        FrameSampler::new(d, scene, stop_time, rate)
    });
    engine.run.stop_at_crossing = options.stop_at_crossing;
    engine
}

/// What integrating by islands gave: the island counts (or why the run integrated globally;
/// `None` with islands off) and, when it did, the final state.
#[derive(Default)]
struct IslandRun {
    counts: Option<Result<IslandStats, NoIslands>>,
    final_state: Option<Vec<f64>>,
}

/// Runs the solver to `stop_time`: resumed from `options.resume_from`, or started at
/// `options.start_time` (from `options.initial_state` if given), by islands when they apply (see
/// [`island_setup`]), globally otherwise; nothing to integrate when the start left modes
/// unsettled. The outer error is a checkpoint that cannot be restored (before any row).
fn integrate(
    engine: &mut Engine<'_>,
    solver: &mut Solver,
    options: &RunOptions,
    stop_time: f64,
    islands: &mut IslandRun,
) -> Result<Result<SolverStats, SolverError>, SimError> {
    if let Some(checkpoint) = &options.resume_from {
        engine.restore(&checkpoint.engine)?;
        return Ok(solver.resume(engine, &checkpoint.solver, stop_time));
    }
    let t0 = options.start_time.unwrap_or(0.0);
    let x0 = engine.initialize_from(t0, options.initial_state.as_deref());
    Ok(if engine.run.unsettled.is_some() {
        Ok(SolverStats::default())
    } else if let Some(mut by_islands) = island_setup(
        engine,
        options.stop_at_crossing,
        t0,
        &x0,
        stop_time,
        &mut islands.counts,
    ) {
        by_islands.integrate(engine).map(|(stats, counts)| {
            islands.counts = Some(Ok(counts));
            islands.final_state = Some(by_islands.state().to_vec());
            stats
        })
    } else {
        solver.integrate(engine, t0, &x0, stop_time)
    })
}

/// What the run recorded, taken from the engine once it ended: the rows kept (and the CSV's
/// outcome), the animation frames and the located events.
struct Recorded {
    rows: usize,
    last_time: Option<f64>,
    non_finite_row: Option<recorder::NonFiniteRow>,
    /// The streamed CSV, staged, or why it could not be written.
    finished: Result<Option<StagedFile>, OutputError>,
    recording: Recording,
    animation: Option<Animation>,
    events: Vec<LocatedEvent>,
    events_dropped: usize,
}

impl Recorded {
    /// Finishes the engine's recorder and takes what it and the engine recorded.
    fn take(d: &Diagram, engine: &mut Engine<'_>) -> Recorded {
        let recorder = &mut engine.run.recorder;
        let (rows, last_time) = (recorder.rows(), recorder.last_time());
        let non_finite_row = recorder.first_non_finite();
        let finished = recorder.finish();
        let recording = std::mem::take(&mut recorder.recording);
        Recorded {
            rows,
            last_time,
            non_finite_row,
            finished,
            recording,
            animation: engine.run.frames.take().map(FrameSampler::into_animation),
            events: engine.run.events.located(d),
            events_dropped: engine.run.events.dropped(),
        }
    }
}

/// What the blocks have to tell the user about the run (block name, message), and the islands'
/// note when bodies of two islands touched between synchronisations.
fn run_notes(
    d: &Diagram,
    engine: &Engine<'_>,
    island_counts: &Option<Result<IslandStats, NoIslands>>,
) -> Vec<(String, String)> {
    let mut notes: Vec<(String, String)> = (0..d.blocks.len())
        .filter_map(|b| engine.block_note(b).map(|n| (d.blocks[b].name.clone(), n)))
        .collect();
    if let Some(Ok(s)) = island_counts {
        if let Some(t_found) = s.first_cross_island_contact {
            notes.push((
                "islands".to_string(),
                format!(
                    "bodies of two islands touched between synchronisations (in {} stretch(es), first found at t = {t_found} s): a force other than gravity and contact (an actuator, a spring, an external force) moved a body into another island faster than the contact groups' look-ahead allows, and each island felt that contact late or with the other body held where the other island's last evaluation left it; the results may differ from the global integration by more than the tolerances: run with [solver] islands = false",
                    s.cross_island_contacts
                ),
            ));
        }
    }
    notes
}

/// The islands of the run, when `[solver] islands = true` and they apply (sound for the model
/// and the run options, and at least two islands at the start); `outcome` is set to why not
/// otherwise (it stays `None` with islands off). A run stopping at a crossing integrates
/// globally: a checkpoint holds one solver's state.
fn island_setup(
    engine: &mut Engine<'_>,
    stop_at_crossing: bool,
    t0: f64,
    x0: &[f64],
    stop_time: f64,
    outcome: &mut Option<Result<IslandStats, NoIslands>>,
) -> Option<Islands> {
    let solver = solver_options(engine.diagram);
    if !solver.islands {
        return None;
    }
    let islands = if stop_at_crossing {
        Err(NoIslands::Checkpoints)
    } else {
        // Invalid options fail the same way in the global solver, which reports them.
        Islands::new(engine, &solver, t0, x0, stop_time).ok()?
    };
    match islands {
        Ok(islands) => Some(islands),
        Err(why) => {
            *outcome = Some(Err(why));
            None
        }
    }
}

/// The start options agree with each other and the model: a resumed run takes its time and
/// state from its checkpoint; a given state has the model's size; time starts at 0 or later.
fn check_start(d: &Diagram, options: &RunOptions) -> Result<(), RunOptionsError> {
    if options.resume_from.is_some()
        && (options.start_time.is_some() || options.initial_state.is_some())
    {
        return Err(RunOptionsError::ResumeWithStart);
    }
    if let Some(set) = &options.parameters {
        if !set.fits(d) {
            return Err(RunOptionsError::ForeignParameters);
        }
        if let Some(checkpoint) = &options.resume_from {
            let same = checkpoint
                .parameters
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(c, set) || c.assignments() == set.assignments());
            if !same {
                return Err(RunOptionsError::ResumeWithOtherParameters);
            }
        }
    }
    if let Some(start_time) = options.start_time {
        if !(start_time.is_finite() && start_time >= 0.0) {
            return Err(RunOptionsError::BadStartTime { start_time });
        }
    }
    if let Some(x) = &options.initial_state {
        if x.len() != d.num_states {
            return Err(RunOptionsError::StateLength {
                given: x.len(),
                states: d.num_states,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_in_messages_are_readable() {
        assert_eq!(super::readable_time(&0.0), "0");
        assert_eq!(super::readable_time(&0.25), "0.25");
        assert_eq!(super::readable_time(&4e-298), "4e-298");
        assert_eq!(super::readable_time(&1e9), "1e9");
    }
}
