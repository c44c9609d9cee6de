//! The log of a run's located zero crossings: when, and which block's crossing it was.
//!
//! The engine notes each block whose crossing fired at an event (one entry per block per event;
//! a block with several crossings firing at once gives one entry). The log lives in the run
//! state and reserves its room when the engine is built, so a run with up to
//! [`EventLog::RESERVED`] events does not allocate for it; past that it grows by doubling, up to
//! [`EventLog::MAX`] entries, after which events are only counted (memory stays bounded on a run
//! that chatters for hours).

use crate::diagram::Diagram;

/// One located zero crossing, as a run reports it ([`crate::RunResult::events`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedEvent {
    /// The located time of the crossing, s.
    pub time: f64,
    /// The name of the block whose zero crossing it was.
    pub block: String,
}

/// The engine's event log: (time, block index) pairs and a count of those not kept.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    entries: Vec<(f64, usize)>,
    dropped: usize,
}

impl EventLog {
    /// Entries reserved when the engine is built (16 KiB).
    pub const RESERVED: usize = 1024;
    /// Entries kept at most (16 MiB); later events are counted in [`EventLog::dropped`].
    pub const MAX: usize = 1 << 20;

    /// An empty log with [`EventLog::RESERVED`] entries' room.
    pub fn new() -> EventLog {
        EventLog {
            entries: Vec::with_capacity(Self::RESERVED),
            dropped: 0,
        }
    }

    /// Notes that block `block`'s crossing was located at `time`.
    pub fn push(&mut self, time: f64, block: usize) {
        if self.entries.len() < Self::MAX {
            self.entries.push((time, block));
        } else {
            self.dropped += 1;
        }
    }

    /// Forgets the entries (a new run), keeping the memory.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.dropped = 0;
    }

    /// Keeps, of the entries from index `from` on, those for which `keep(index, time)` holds
    /// (the index counts from the start of the log, as before the call), then sorts them by
    /// time (ties by block): what the island coordinator commits of a stretch whose runs were
    /// thrown away by a cut. Allocates nothing.
    pub(crate) fn retain_from(&mut self, from: usize, mut keep: impl FnMut(usize, f64) -> bool) {
        let mut kept = from;
        for i in from..self.entries.len() {
            if keep(i, self.entries[i].0) {
                self.entries[kept] = self.entries[i];
                kept += 1;
            }
        }
        self.entries.truncate(kept);
        self.entries[from..].sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// Number of entries kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no event was kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Events located after the log was full (not kept).
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The kept entries with the blocks' names from `diagram`.
    pub fn located(&self, diagram: &Diagram) -> Vec<LocatedEvent> {
        self.entries
            .iter()
            .map(|&(time, b)| LocatedEvent {
                time,
                block: diagram.blocks[b].name.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_at_most_max_entries_and_counts_the_rest() {
        let mut log = EventLog::new();
        for k in 0..EventLog::MAX + 3 {
            log.push(k as f64, 0);
        }
        assert_eq!(log.len(), EventLog::MAX);
        assert_eq!(log.dropped(), 3);
        log.clear();
        assert!(log.is_empty());
        assert_eq!(log.dropped(), 0);
    }
}
