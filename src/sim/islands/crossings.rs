//! Each island's own zero-crossing functions.
//!
//! An island's solver sees only the functions that can change sign while it runs: those of
//! its own bodies. A block attributes its functions to bodies ([`BodyCoupling::crossing_bodies`]: a
//! contact group's always-pairs and watch slots, by their pair's bodies); a function on bodies
//! of island I (or of I and the World) belongs to I, one on the World alone (an empty watch
//! slot, a constant) to no island, one on two islands' bodies (a watched pair across islands:
//! only after an unforeseen approach, the look-ahead's assumption broken) to none either; its
//! group's approach function and every function a block does not attribute are *shared*: every
//! island's solver sees them (each evaluates them over its own restricted evaluation).
//!
//! Island I's solver has `L_I = S + C_I` functions, S the shared ones (local positions 0..S,
//! fixed) and `C_I` = Σ over the blocks of [`BodyCoupling::island_crossings`] (the most attributed
//! functions that can ever lie on I's bodies), so no reassignment can overflow it. Local
//! position p of I reads global function `local[p]`, or the constant 1 when the position is
//! free (a constant never crosses). The watch slots change pairs at events (the engine's
//! `settle`), so the map is refreshed after every event handler and at every
//! synchronisation: a function whose island did not change keeps its local position (the
//! solver's crossing state stays with it, as a global run's stays with a watch slot), one that
//! changed island leaves its old position free and takes a free one of its new island. The
//! solver reads every function again after an event and at a continued run's start
//! ([`crate::solver::Solver::continue_run`]), so a function's new position is read before it
//! is compared. The shared functions keep their directions; every attributed function must be
//! [`Direction::Either`] to move between positions (one that is not is shared instead).
//! Refreshing allocates nothing; new islands' lists are made when the partition changes.
//!
//! [`BodyCoupling::crossing_bodies`]: crate::block::BodyCoupling::crossing_bodies
//! [`BodyCoupling::island_crossings`]: crate::block::BodyCoupling::island_crossings

use super::Partition;
use crate::sim::Engine;
use crate::solver::{Direction, System};

/// No island / a free local position.
const NONE: u32 = u32::MAX;

/// One island's functions: the global index at each local position.
pub(super) struct IslandCrossings {
    /// Per local position, the global function it reads ([`NONE`]: free, the constant 1). The
    /// shared functions come first.
    pub(super) local: Vec<u32>,
    /// The free positions (a stack; room for every position).
    free: Vec<u32>,
    /// The positions given to a function since the island's solver last read them
    /// ([`IslandCrossings::take_redefined`]): what the solver tracked there (a firing, a
    /// re-arming) was the previous function's. Room for every position.
    redefined: Vec<u32>,
    /// Per local position: whether it is in `redefined` (each is listed once).
    pending: Vec<bool>,
}

impl IslandCrossings {
    /// Hands `redefined` each local position given to another function since the last call
    /// (once each), for the island's solver to forget what it tracked there
    /// ([`crate::solver::System::redefined_crossings`]).
    pub(super) fn take_redefined(&mut self, redefined: &mut dyn FnMut(usize)) {
        for p in self.redefined.drain(..) {
            self.pending[p as usize] = false;
            redefined(p as usize);
        }
    }

    /// The global index of local function `k` (`None` for a free position).
    pub(super) fn global(&self, k: usize) -> Option<usize> {
        self.local
            .get(k)
            .copied()
            .filter(|&g| g != NONE)
            .map(|g| g as usize)
    }
}

/// The map from the diagram's zero-crossing functions to the islands' solvers.
pub(super) struct CrossingMap {
    /// The functions every island sees (ascending global indices).
    shared: Vec<u32>,
    /// Per global function: whether a block attributes it to bodies (and it may move).
    attributed: Vec<bool>,
    /// The blocks that attribute functions, with their first global index.
    blocks: Vec<(usize, usize)>,
    /// Per global function: its island ([`NONE`]: in no island's list) and its local position.
    owner: Vec<u32>,
    position: Vec<u32>,
    /// Working buffer: each attributed function's island after the last `settle`.
    next: Vec<u32>,
    /// Per island (the partition's numbering): its functions.
    pub(super) lists: Vec<IslandCrossings>,
    /// Attributed functions on two islands' bodies at the last refresh, summed over refreshes.
    pub(super) across: usize,
    /// The attributed functions on two islands' bodies now (room for all).
    across_now: Vec<u32>,
}

impl CrossingMap {
    /// Which functions the blocks attribute (from the work slots as they are now) and which
    /// are shared; no island lists yet ([`CrossingMap::rebuild`]).
    pub(super) fn new(engine: &Engine<'_>) -> Self {
        let n = engine.zero_crossing_dim();
        let d = engine.diagram;
        let mut attributed = vec![false; n];
        let mut blocks = Vec::new();
        for (b, blk) in d.blocks.iter().enumerate() {
            if blk.zero_crossings.is_empty() {
                continue;
            }
            let first = blk.zero_crossings.start;
            let mut any = false;
            let Some(coupling) = engine.block_with_scratch(b).0.body_coupling() else {
                continue;
            };
            coupling.crossing_bodies(engine.block_work(b), &mut |k, _, _| {
                if engine.zero_crossing_direction(first + k) == Direction::Either {
                    attributed[first + k] = true;
                    any = true;
                }
            });
            if any {
                blocks.push((b, first));
            }
        }
        let shared = (0..n as u32).filter(|&g| !attributed[g as usize]).collect();
        CrossingMap {
            shared,
            attributed,
            blocks,
            owner: vec![NONE; n],
            position: vec![NONE; n],
            next: vec![NONE; n],
            lists: Vec::new(),
            across: 0,
            across_now: Vec::with_capacity(n),
        }
    }

    /// Number of shared functions (the first local positions of every island).
    pub(super) fn shared(&self) -> usize {
        self.shared.len()
    }

    /// A new island's list: the shared functions, then room for the most attributed functions
    /// its bodies `island` can hold, all free.
    pub(super) fn list_for(&self, engine: &Engine<'_>, island: &[bool]) -> IslandCrossings {
        let room: usize = self
            .blocks
            .iter()
            .filter_map(|&(b, _)| engine.block_with_scratch(b).0.body_coupling())
            .map(|c| c.island_crossings(island))
            .sum();
        let s = self.shared.len();
        let mut local = self.shared.clone();
        local.resize(s + room, NONE);
        IslandCrossings {
            local,
            free: (s..s + room).rev().map(|p| p as u32).collect(),
            redefined: Vec::with_capacity(room),
            pending: vec![false; s + room],
        }
    }

    /// After the islands' lists were rebuilt (kept islands keep their lists, in the
    /// partition's new numbering): who owns what, read back from the lists.
    pub(super) fn reindex(&mut self) {
        self.owner.fill(NONE);
        self.position.fill(NONE);
        for (i, list) in self.lists.iter().enumerate() {
            for (p, &g) in list.local.iter().enumerate().skip(self.shared.len()) {
                if g != NONE {
                    self.owner[g as usize] = i as u32;
                    self.position[g as usize] = p as u32;
                }
            }
        }
    }

    /// Moves every attributed function to the island its bodies are on now (after a
    /// `settle`: an event handler or a synchronisation). Allocates nothing.
    pub(super) fn refresh(&mut self, engine: &Engine<'_>, partition: &Partition) {
        let Self {
            attributed,
            blocks,
            owner,
            position,
            next,
            lists,
            across,
            across_now,
            ..
        } = self;
        across_now.clear();
        let island = |body: usize| partition.body_island.get(body).copied().unwrap_or(NONE);
        for &(b, first) in blocks.iter() {
            let Some(coupling) = engine.block_with_scratch(b).0.body_coupling() else {
                continue;
            };
            coupling.crossing_bodies(engine.block_work(b), &mut |k, a, c| {
                next[first + k] = match (island(a), island(c)) {
                    (NONE, i) | (i, NONE) => i,
                    (i, j) if i == j => i,
                    _ => {
                        *across += 1;
                        across_now.push((first + k) as u32);
                        NONE
                    }
                };
            });
        }
        for g in 0..owner.len() {
            let (from, to) = (owner[g], next[g]);
            if !attributed[g] || from == to || from == NONE {
                continue;
            }
            let list = &mut lists[from as usize];
            list.local[position[g] as usize] = NONE;
            list.free.push(position[g]);
            owner[g] = NONE;
        }
        for g in 0..owner.len() {
            let to = next[g];
            if !attributed[g] || to == NONE || owner[g] == to {
                continue;
            }
            let list = &mut lists[to as usize];
            // `list_for` made room for every function the island's bodies can hold.
            let Some(p) = list.free.pop() else {
                debug_assert!(false, "island {to} has no room for crossing function {g}");
                continue;
            };
            list.local[p as usize] = g as u32;
            if !list.pending[p as usize] {
                list.pending[p as usize] = true;
                list.redefined.push(p);
            }
            owner[g] = to;
            position[g] = p;
        }
    }

    /// Whether any function on two islands' bodies (see [`CrossingMap::across_now`]) is at or
    /// below zero in `g` (every function's value, global indices): a watched pair of two
    /// islands' members in contact (a group's separation), which the look-ahead rules out for
    /// bodies moved by gravity and contact. Allocates nothing; nothing to scan when no watched
    /// pair spans two islands.
    pub(super) fn contact_across(&self, g: &[f64]) -> bool {
        self.across_now.iter().any(|&k| g[k as usize] <= 0.0)
    }

    /// Whether some attributed function lies on two islands' bodies of `partition` as the blocks'
    /// work slots are now (after a synchronisation's `settle`, before the partition is worked
    /// out again) and is at or below zero in `g` (every function's value, global indices): two
    /// islands' bodies found in contact with every body where it is. Reads the map's blocks
    /// only (changes nothing); allocates nothing.
    pub(super) fn touching_across(
        &self,
        engine: &Engine<'_>,
        partition: &Partition,
        g: &[f64],
    ) -> bool {
        let mut touching = false;
        self.for_each_across(engine, partition, &mut |k| touching |= g[k] <= 0.0);
        touching
    }

    /// Whether some attributed function lies on two islands' bodies of `partition` as the
    /// blocks' work slots are now (see [`CrossingMap::touching_across`]).
    pub(super) fn any_across(&self, engine: &Engine<'_>, partition: &Partition) -> bool {
        let mut any = false;
        self.for_each_across(engine, partition, &mut |_| any = true);
        any
    }

    /// Calls `across` with the global index of every function the blocks give on two islands'
    /// bodies of `partition` (as their work slots are now).
    fn for_each_across(
        &self,
        engine: &Engine<'_>,
        partition: &Partition,
        across: &mut dyn FnMut(usize),
    ) {
        let island = |body: usize| partition.body_island.get(body).copied().unwrap_or(NONE);
        for &(b, first) in &self.blocks {
            let Some(coupling) = engine.block_with_scratch(b).0.body_coupling() else {
                continue;
            };
            coupling.crossing_bodies(engine.block_work(b), &mut |k, a, c| {
                let (i, j) = (island(a), island(c));
                if i != NONE && j != NONE && i != j {
                    across(first + k);
                }
            });
        }
    }

    /// Whether, at the last refresh, some attributed function lay on two islands' bodies (a
    /// watched pair across islands: a body came within its group's margin of another island's
    /// body, so the islands are coupled from then on).
    pub(super) fn spans_islands(&self) -> bool {
        !self.across_now.is_empty()
    }

    /// The direction of local function `k` (of any island): a shared function's own, else
    /// [`Direction::Either`] (every attributed function's).
    pub(super) fn direction(&self, engine: &Engine<'_>, k: usize) -> Direction {
        match self.shared.get(k) {
            Some(&g) => engine.zero_crossing_direction(g as usize),
            None => Direction::Either,
        }
    }
}
