//! A stretch: every island advanced from one synchronisation to the next, one after the
//! other, or to an earlier cut (islands already past it run the stretch again).

use super::coordinator::Islands;
use super::crossings::IslandCrossings;
use super::system::IslandSystem;
use super::IslandStats;
use crate::sim::Engine;
use crate::solver::{SolverError, SolverStats, System};

impl Islands {
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
    pub(super) fn stretch(
        &mut self,
        engine: &mut Engine<'_>,
        t: f64,
        sync: f64,
        stats: &mut SolverStats,
        islands: &mut IslandStats,
    ) -> Result<(f64, Option<f64>), SolverError> {
        self.base.copy_from_slice(&self.x);
        self.base_work.copy_from_slice(&engine.run.work);
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
            g_state: &mut self.g_state,
            g_time: None,
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

/// Adds an island run's counts to the run's (not `final_time`; the largest RKC stage count is
/// the largest of any island's). Every field is named, so a count added to `SolverStats` fails
/// to compile here until it is added up.
fn add(total: &mut SolverStats, s: &SolverStats) {
    let SolverStats {
        steps,
        rejected_steps,
        redone_steps,
        function_evaluations,
        zero_crossings,
        crossings_ahead,
        foreseen_steps,
        forecast_misses,
        crossing_evaluations,
        time_events,
        final_time: _,
        jacobian_evaluations,
        lu_factorizations,
        sparse_lu_factorizations,
        sparse_analyses,
        method_switches,
        explicit_steps,
        implicit_steps,
        rkc_max_stages,
        radius_evaluations,
    } = *s;
    total.steps += steps;
    total.rejected_steps += rejected_steps;
    total.redone_steps += redone_steps;
    total.function_evaluations += function_evaluations;
    total.zero_crossings += zero_crossings;
    total.crossings_ahead += crossings_ahead;
    total.foreseen_steps += foreseen_steps;
    total.forecast_misses += forecast_misses;
    total.crossing_evaluations += crossing_evaluations;
    total.time_events += time_events;
    total.jacobian_evaluations += jacobian_evaluations;
    total.lu_factorizations += lu_factorizations;
    total.sparse_lu_factorizations += sparse_lu_factorizations;
    total.sparse_analyses += sparse_analyses;
    total.method_switches += method_switches;
    total.explicit_steps += explicit_steps;
    total.implicit_steps += implicit_steps;
    total.rkc_max_stages = total.rkc_max_stages.max(rkc_max_stages);
    total.radius_evaluations += radius_evaluations;
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
