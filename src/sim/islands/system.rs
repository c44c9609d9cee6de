//! One island as a [`System`]: its states only, evaluated over the island's part of the
//! diagram.
//!
//! The island's solver sees x_I (the island's states, a gather of the global x by an index
//! list). Each evaluation scatters x_I into a global vector whose other entries hold the other
//! islands' states as the island's run began, and evaluates the engine on it, restricted to the
//! island (the coordinator calls `Engine::restrict_to_island` around the island's run: the
//! mechanism's trees, the group's pairs and the blocks of the island only): between
//! synchronisations no force crosses islands, so ẋ_I depends on x_I alone. The other islands'
//! zero-crossing functions are not evaluated and keep their values meanwhile, so every
//! function of the diagram is handed to every island's solver and only the island's own can
//! change sign. Event handlers run on the whole diagram. Rows are recorded by the coordinator
//! at synchronisations, not here.

use crate::sim::Engine;
use crate::solver::{Direction, EventOutcome, Method, System};

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
}

impl System for IslandSystem<'_, '_> {
    fn state_dim(&self) -> usize {
        self.states.len()
    }

    fn zero_crossing_dim(&self) -> usize {
        self.engine.zero_crossing_dim()
    }

    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.engine.zero_crossing_direction(index)
    }

    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.scatter(x);
        self.engine.derivatives(t, self.x, self.dx);
        for (&k, d) in self.states.iter().zip(dxdt) {
            *d = self.dx[k];
        }
    }

    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.scatter(x);
        self.engine.zero_crossings(t, self.x, g);
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
        let outcome = self
            .engine
            .handle_events(t, self.x, crossed, time_event && !at_sync);
        self.gather(x);
        self.x.copy_from_slice(self.base);
        EventOutcome {
            state_changed: outcome.state_changed,
            stop: outcome.stop || at_sync,
        }
    }

    fn project(&mut self, t: f64, x: &mut [f64]) -> bool {
        self.scatter(x);
        let changed = self.engine.project(t, self.x);
        if changed {
            self.gather(x);
        }
        self.x.copy_from_slice(self.base);
        changed
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
