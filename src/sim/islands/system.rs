//! One island as a [`System`]: its states only, evaluated over the island's part of the
//! diagram.
//!
//! The island's solver sees x_I (the island's states, a gather of the global x by an index
//! list). Each evaluation scatters x_I into a global vector whose other entries hold the other
//! islands' states as the island's run began, and evaluates the engine on it, restricted to the
//! island (the coordinator calls `Engine::restrict_to_island` around the island's run: the
//! mechanism's trees, the group's pairs and the blocks of the island only): between
//! synchronisations no force crosses islands, so ẋ_I depends on x_I alone. The island's solver
//! sees its own zero-crossing functions only, at the local positions of its [`CrossingMap`]
//! list (the engine evaluates them all into a global buffer; the list gathers the island's),
//! and hands the crossed ones to the engine by their global indices. Event handlers run on the
//! whole diagram, and the map is refreshed after each (the groups may have chosen other
//! watched pairs). An event after which a watched pair spans two islands (a body came within
//! the margin of another island's) stops the run there ([`IslandSystem::cut`]): the
//! coordinator ends the stretch for every island at that time and merges them. Rows are
//! recorded by the coordinator at synchronisations, not here; an accepted point is checked
//! for a watched pair in contact across islands while one spans two islands.

use super::crossings::CrossingMap;
use super::Partition;
use crate::sim::Engine;
use crate::solver::{Direction, EventOutcome, Method, RecordKind, System};

/// An island of the engine between two synchronisations.
pub(super) struct IslandSystem<'a, 'd> {
    pub engine: &'a mut Engine<'d>,
    /// The island's states (indices into the global x), ascending.
    pub states: &'a [usize],
    /// The global state the evaluations see: the island's entries are written per call.
    pub x: &'a mut [f64],
    /// The global state as the island's run began (what `x`'s other entries go back to after a
    /// projection or an event handler touched them).
    pub base: &'a [f64],
    /// The global derivative buffer.
    pub dx: &'a mut [f64],
    /// The synchronisation this run stops at (a time event that ends it without handlers).
    pub sync: f64,
    /// Every island's zero-crossing functions; this one's are `crossings.lists[island]`.
    pub crossings: &'a mut CrossingMap,
    pub island: usize,
    /// The partition the map attributes functions by.
    pub partition: &'a Partition,
    /// The engine's values of every zero-crossing function (global indices).
    pub g: &'a mut [f64],
    /// The island state (a prefix of the buffer) at which `g` was last evaluated, at time
    /// `g_time`.
    pub g_state: &'a mut [f64],
    /// The time (s) of `g`'s last evaluation in this run, while `g` still holds the functions'
    /// values there: `None` before the first and after every handler (a handler may choose
    /// other watched pairs, so the same point's functions differ). A projection changes no work
    /// slot: it moves `g_state` with the point (see `project`).
    pub g_time: Option<f64>,
    /// Room for the crossed functions' global indices.
    pub crossed: &'a mut Vec<usize>,
    /// The first accepted point (an accepted step's end or a located event, time in s) at
    /// which a watched pair across islands was in contact ([`CrossingMap::contact_across`]);
    /// trial points (rejected steps, a location's iterates, a look past a cut) do not count.
    pub contact_across: Option<f64>,
    /// The zero-crossing evaluations made for that check (none while no watched pair spans
    /// two islands, nor at a point where the solver's own check just evaluated them).
    pub contact_checks: usize,
    /// The time (s) of the event after which one of its group's watched pairs spans two
    /// islands (a cross-island approach: the pair came within the margin): the run stopped
    /// there, and the coordinator ends every island's stretch at that time.
    pub cut: Option<f64>,
}

impl IslandSystem<'_, '_> {
    fn scatter(&mut self, x_island: &[f64]) {
        for (&k, &v) in self.states.iter().zip(x_island) {
            self.x[k] = v;
        }
    }

    fn gather(&self, x_island: &mut [f64]) {
        for (&k, v) in self.states.iter().zip(x_island) {
            *v = self.x[k];
        }
    }

    /// Every zero-crossing function at (t, x_island) into `g`, noting the point.
    fn evaluate_g(&mut self, t: f64, x_island: &[f64]) {
        self.scatter(x_island);
        self.engine.zero_crossings(t, self.x, self.g);
        self.g_state[..x_island.len()].copy_from_slice(x_island);
        self.g_time = Some(t);
    }

    /// Whether `g` holds the functions' values at (t, x_island): its last evaluation was at
    /// that point, bit for bit, and no handler or projection ran since.
    fn g_is_at(&self, t: f64, x_island: &[f64]) -> bool {
        self.g_time == Some(t)
            && self.g_state[..x_island.len()]
                .iter()
                .zip(x_island)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl System for IslandSystem<'_, '_> {
    fn state_dim(&self) -> usize {
        self.states.len()
    }

    fn zero_crossing_dim(&self) -> usize {
        self.crossings.lists[self.island].local.len()
    }

    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.crossings.direction(self.engine, index)
    }

    /// The function at local position `index`'s (a free position never fires: false).
    fn crossing_keeps_dynamics(&self, index: usize) -> bool {
        self.crossings.lists[self.island]
            .global(index)
            .is_some_and(|g| self.engine.crossing_keeps_dynamics(g))
    }

    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.scatter(x);
        self.engine.derivatives(t, self.x, self.dx);
        for (&k, d) in self.states.iter().zip(dxdt) {
            *d = self.dx[k];
        }
    }

    /// The island's functions; a free position reads the constant 1.
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.evaluate_g(t, x);
        let local = &self.crossings.lists[self.island].local;
        for (gk, &k) in g.iter_mut().zip(local) {
            *gk = self.g.get(k as usize).copied().unwrap_or(1.0);
        }
    }

    /// The island's positions given to another function since its solver last asked (after
    /// the map's refreshes: at this island's events and at the synchronisations).
    fn redefined_crossings(&mut self, redefined: &mut dyn FnMut(usize)) {
        self.crossings.lists[self.island].take_redefined(redefined);
    }

    /// The engine's time events before the synchronisation, and the synchronisation itself.
    fn next_time_event(&self, t: f64) -> Option<f64> {
        let sync = (self.sync > t).then_some(self.sync);
        match (self.engine.next_time_event(t), sync) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// At the synchronisation the run stops (the coordinator handles its time events for all
    /// islands at once); before it, the engine's handlers run as in a global run.
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        let at_sync = time_event && t >= self.sync;
        if at_sync && crossed.is_empty() {
            return EventOutcome {
                state_changed: false,
                stop: true,
            };
        }
        self.scatter(x);
        let list = &self.crossings.lists[self.island];
        self.crossed.clear();
        self.crossed
            .extend(crossed.iter().filter_map(|&k| list.global(k)));
        self.g_time = None;
        let outcome = self
            .engine
            .handle_events(t, self.x, self.crossed, time_event && !at_sync);
        self.crossings.refresh(self.engine, self.partition);
        self.gather(x);
        self.x.copy_from_slice(self.base);
        // A watched pair across islands: the islands are coupled from here on, so the run
        // stops and the coordinator merges them at t (a synchronisation there).
        let cut = !at_sync && self.crossings.spans_islands();
        if cut {
            self.cut = Some(t);
        }
        EventOutcome {
            state_changed: outcome.state_changed,
            stop: outcome.stop || at_sync || cut,
        }
    }

    /// After an accepted step the solver projects its end (a free joint's quaternion back to
    /// unit norm) before recording it: when `g` was evaluated at the unprojected end, it stands
    /// for the projected one too (the two differ by the round-off of the norm; the check reads
    /// whether a function is at or below zero), so the record's check reads it.
    fn project(&mut self, t: f64, x: &mut [f64]) -> bool {
        let g_at_x = self.g_is_at(t, x);
        self.scatter(x);
        let changed = self.engine.project(t, self.x);
        if changed {
            self.gather(x);
            if g_at_x {
                self.g_state[..x.len()].copy_from_slice(x);
            }
        }
        self.x.copy_from_slice(self.base);
        changed
    }

    /// Checks an accepted point (the end of every accepted step is exactly one `Step`,
    /// `EventBefore` or `Final` record) for a watched pair in contact across islands: only
    /// while one spans two islands. The functions' values are those the solver's crossing
    /// check just evaluated at that point when it did (an accepted step's end), else one
    /// evaluation of every function (counted). Records no row (the coordinator records at
    /// synchronisations).
    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        let accepted = matches!(
            kind,
            RecordKind::Step | RecordKind::EventBefore | RecordKind::Final
        );
        if !accepted || self.contact_across.is_some() || !self.crossings.spans_islands() {
            return;
        }
        if !self.g_is_at(t, x) {
            self.evaluate_g(t, x);
            self.contact_checks += 1;
        }
        if self.crossings.contact_across(self.g) {
            self.contact_across = Some(t);
        }
    }

    fn non_finite_derivative(&mut self, t: f64, x: &[f64]) {
        self.scatter(x);
        self.engine.non_finite_derivative(t, self.x);
    }

    fn method_changed(&mut self, t: f64, method: Method) {
        self.engine.method_changed(t, method);
    }

    fn interrupted(&self) -> bool {
        self.engine.interrupted()
    }
}
