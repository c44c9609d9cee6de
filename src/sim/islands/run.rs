//! The coordinator's loop ([`Islands::integrate`]): from one synchronisation to the next, a
//! stretch integrated island by island (`stretch.rs`), then the synchronisation that ends it
//! (`sync.rs`), to the stop time; and its setup ([`Islands::new`]).

use super::coordinator::{rebuild, Islands};
use super::crossings::CrossingMap;
use super::sync::{deliver_samples, Stretch, Synced};
use super::{IslandStats, NoIslands, Partition};
use crate::output::OutputRows;
use crate::output::SMOOTH_ROWS;
use crate::sim::Engine;
use crate::solver::{RecordKind, SolverError, SolverOptions, SolverStats, System};

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
            base_work: engine.run.work.clone(),
            dx: vec![0.0; x0.len()],
            steps_per_island: Vec::with_capacity(x0.len()),
            crossings,
            g: vec![0.0; n_crossings],
            g_state: vec![0.0; x0.len()],
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
}
