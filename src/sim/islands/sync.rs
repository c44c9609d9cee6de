//! The synchronisation that ends a stretch: every island's state in the global x, a contact
//! across islands found there (or by a kept island run) throws the stretch away and runs it
//! again merged; else the engine handles the instant, one row is recorded and the partition is
//! worked out again.

use super::coordinator::{rebuild, Islands};
use super::IslandStats;
use crate::sim::Engine;
use crate::solver::{RecordKind, SolverError, SolverStats, System};

/// A stretch just integrated, as its synchronisation sees it.
pub(super) struct Stretch {
    /// Its start (s).
    pub(super) start: f64,
    /// The time every island reached (s): its synchronisation, or an earlier cut.
    pub(super) end: f64,
    /// Whether an engine time event is due at `end`.
    pub(super) time_event: bool,
    /// The event log's length at its start (its entries follow).
    pub(super) log_start: usize,
    /// The first time (s) a kept island run found two islands' bodies in contact.
    pub(super) contact: Option<f64>,
}

/// What a synchronisation decided.
pub(super) enum Synced {
    /// Integrate the stretch again from its start (islands merged).
    Again,
    /// Go on from the stretch's end.
    Continue,
    /// The run ends at the stretch's end (the stop time, or a handler asked to stop).
    Stop,
}

impl Islands {
    /// The synchronisation that ends `stretch`: every island's state is in the global x. Two
    /// islands' bodies found in contact there (by a kept island run, or with every body where
    /// it is) make the stretch run again from its start with the islands merged
    /// ([`Islands::run_merged_again`]); else the engine handles the instant (samples, time
    /// events, the groups' settle), one row is recorded and the partition is worked out again.
    pub(super) fn synchronise(
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
    /// global x and every block's work slots back as they were at the stretch's start (the
    /// thrown-away runs' handlers and the settle at the stretch's end undone: a group's watched
    /// pairs in the same slots, any block's modes), the events logged since dropped, and the
    /// engine settled again there (which refreshes the blocks' next time events from the work
    /// put back). Nothing was delivered or recorded at the stretch's end yet.
    pub(super) fn run_merged_again(
        &mut self,
        engine: &mut Engine<'_>,
        stretch: &Stretch,
        islands: &mut IslandStats,
    ) -> Result<(), SolverError> {
        self.x.copy_from_slice(&self.base);
        engine.run.work.copy_from_slice(&self.base_work);
        // The work changed behind the engine's back: outputs it holds as current at the
        // stretch's start were made with the thrown-away slots (a group's watched pairs), so the
        // settle below must evaluate them again.
        engine.forget_outputs();
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
}

/// Hands the engine its sample times at or before `t` (rows at `sample_time`, frames).
pub(super) fn deliver_samples(engine: &mut Engine<'_>, t: f64, x: &[f64]) {
    let mut last = f64::NEG_INFINITY;
    while let Some(ts) = engine.next_sample_time().filter(|&ts| ts <= t && ts > last) {
        last = ts;
        engine.sample(ts, x);
    }
}
