//! The bounded probe: `check` runs the model itself for the start of its run, under the model's
//! own solver settings, and counts what the run does there (issue 26, part 3).
//!
//! # Budget
//!
//! The probe integrates from t = 0 to t_p = [`PROBE_FRACTION`] × the stop time T, and stops
//! earlier when it has spent [`PROBE_EVALUATIONS`] evaluations of f (checked before every trial
//! step, so it never hangs: a trial step's own evaluations are bounded). Both limits are counts,
//! never wall-clock time, so the same model gives the same probe on every machine. The
//! method, `rel_tol`, `abs_tol` and the largest step (`max_step`, or T/50 when automatic, the
//! run's own) are the model's; `max_wall_time` is dropped. Nothing is written: the rows go to an
//! in-memory recorder that is thrown away, sample times (animation frames, fixed output rows)
//! and refined rows are not asked for (they never change the steps), and islands are not used
//! (the probe integrates the whole model with one solver).
//!
//! # What it measures
//!
//! The accepted steps S_p up to the time t_p it reached (a step's end, a located event or a
//! time event each end one step), the located events (zero crossings), the time events, the
//! evaluations, and under `auto` the steps each method took and the switches.
//!
//! # How it is combined with the static estimate
//!
//! The rest of the run, T − t_p, is counted at the larger of the pace the probe sustained p_s
//! ([`Probe::sustained_pace`]: the least over the windows of its time after the first, so that
//! the start's transient and an impact inside the probe are not extrapolated) and the static
//! estimate's average pace N_s/T (N_s: the steps the linearisation predicts for the whole run,
//! see the module above):
//!
//! N = S_p + max(p_s, N_s/T)·(T − t_p).
//!
//! The budget and the rule were chosen on the 44 example models (docs/design-notes.md, "check's
//! bounded probe"): the mean pace S_p/t_p instead of p_s put 9 of them past 3× (a box's drop,
//! auto's detection at the start counted for the whole run).
//!
//! The probe sees what the initial state does not show (rigid contact's located events, feet
//! landing, a brick held by static friction on a turning table, points engaging one by one); the
//! static estimate sees what comes later and is predictable (a contact open at t = 0 that will be
//! hit and ring, a Step that applies a force at 1 s).

use crate::diagram::Diagram;
use crate::sim::engine::Engine;
use crate::sim::recorder::{Recorder, StreamTo};
use crate::solver::{
    Direction, EventOutcome, Method, RecordKind, Solver, SolverError, SolverOptions,
    SparsityPattern, System,
};

/// The probe's budget of evaluations of f (see the module documentation): about 0.25 s on the
/// costliest example (64 spheres, 832 states, about 0.12 ms per evaluation).
pub const PROBE_EVALUATIONS: usize = 2000;

/// The probe runs at most this fraction of the stop time.
pub const PROBE_FRACTION: f64 = 0.2;

/// The probe's time is cut into this many equal windows; its sustained pace is the least of the
/// windows after the first (see [`Probe::sustained_pace`]).
pub const PROBE_WINDOWS: usize = 4;

/// How far the probe may run: whichever limit comes first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeBudget {
    /// Evaluations of f (default [`PROBE_EVALUATIONS`]).
    pub evaluations: usize,
    /// The fraction of the stop time (default [`PROBE_FRACTION`]).
    pub fraction: f64,
}

impl Default for ProbeBudget {
    fn default() -> Self {
        ProbeBudget {
            evaluations: PROBE_EVALUATIONS,
            fraction: PROBE_FRACTION,
        }
    }
}

/// Why the probe ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeEnd {
    /// It reached its stop, [`PROBE_FRACTION`] of the run.
    Fraction,
    /// It spent its [`PROBE_EVALUATIONS`] evaluations first.
    Budget,
    /// The run failed there (the message of the error the run would stop with).
    Failed(String),
}

/// What the probe measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The simulated time it reached, t_p (s).
    pub reached: f64,
    /// Accepted steps up to `reached`.
    pub steps: usize,
    /// Each accepted step's end: its time (s) and the evaluations spent up to then, in order.
    pub step_ends: Vec<(f64, usize)>,
    /// Of those, the steps of an implicit method (trbdf2, esdirk43: `auto`'s stiff phases, or
    /// the method the model names).
    pub implicit_steps: usize,
    /// `auto`'s switches between its explicit and implicit method.
    pub switches: usize,
    /// Located zero crossings (event instants).
    pub located_events: usize,
    /// Time events handled.
    pub time_events: usize,
    /// Evaluations of f.
    pub evaluations: usize,
    /// Why it ended.
    pub end: ProbeEnd,
}

impl Probe {
    /// The probe's mean pace, S_p/t_p (steps per simulated second); 0 when it reached no time.
    pub fn pace(&self) -> f64 {
        if self.reached > 0.0 {
            self.steps as f64 / self.reached
        } else {
            0.0
        }
    }

    /// The pace the probe sustained (steps per simulated second): (0, t_p] is cut into
    /// [`PROBE_WINDOWS`] equal windows of length w = t_p/K, and this is the least of
    /// (steps ending in window k)/w over the windows k = 2..K. The first window holds the start's
    /// transient (the starting step, `auto`'s stiffness detection before it switches, a drop's
    /// first impact), and a transient in a later window (an impact, a ring) raises that window
    /// only: the least is the pace that goes on. 0 when the probe reached no time.
    pub fn sustained_pace(&self) -> f64 {
        if self.reached <= 0.0 {
            return 0.0;
        }
        let width = self.reached / PROBE_WINDOWS as f64;
        let mut counts = [0usize; PROBE_WINDOWS];
        for &(t, _) in &self.step_ends {
            let k = ((t / width).ceil() as usize).clamp(1, PROBE_WINDOWS) - 1;
            counts[k] += 1;
        }
        counts[1..]
            .iter()
            .map(|&c| c as f64 / width)
            .fold(f64::INFINITY, f64::min)
    }

    /// Runs the probe on `d` for a run of `duration` (s) under `options` (the model's); `None`
    /// when the solver cannot be built (invalid settings, which the run reports itself) or the
    /// recording cannot be set up.
    pub fn run(d: &Diagram, options: &SolverOptions, duration: f64) -> Option<Probe> {
        Self::with_budget(d, options, duration, ProbeBudget::default())
    }

    /// [`Probe::run`] with another budget.
    pub fn with_budget(
        d: &Diagram,
        options: &SolverOptions,
        duration: f64,
        budget: ProbeBudget,
    ) -> Option<Probe> {
        let mut options = options.clone();
        if options.max_step <= 0.0 {
            options.max_step = duration / 50.0;
        }
        options.max_wall_time = 0.0;
        let stop = budget.fraction.clamp(0.0, 1.0) * duration;
        let mut solver = Solver::new(
            d.num_states,
            d.zero_crossing_directions.len(),
            options.clone(),
        )
        .ok()?;
        // Rows are thrown away: a recorder that keeps none (a model logging many columns would
        // otherwise hold every probe row in memory).
        let keep_nothing = StreamTo {
            csv: None,
            plot: false,
            size_warning: None,
        };
        let mut engine = Engine::new(d, Recorder::streaming(d, keep_nothing).ok()?);
        let x0 = engine.initialize(0.0);
        let method = match options.method {
            Method::Auto => Method::Dopri5,
            m => m,
        };
        let mut system = Counting {
            engine: &mut engine,
            budget: budget.evaluations,
            method,
            probe: Probe {
                reached: 0.0,
                steps: 0,
                step_ends: Vec::with_capacity(budget.evaluations.min(1 << 16)),
                implicit_steps: 0,
                switches: 0,
                located_events: 0,
                time_events: 0,
                evaluations: 0,
                end: ProbeEnd::Fraction,
            },
        };
        let outcome = if system.engine.run.unsettled.is_some() {
            Err(SolverError::InvalidOptions(
                "the modes did not settle at t = 0".into(),
            ))
        } else {
            solver.integrate(&mut system, 0.0, &x0, stop)
        };
        let mut probe = system.probe;
        probe.end = match outcome {
            Ok(_) => ProbeEnd::Fraction,
            Err(SolverError::Interrupted { .. }) => ProbeEnd::Budget,
            Err(e) => ProbeEnd::Failed(e.to_string()),
        };
        Some(probe)
    }
}

/// The engine, counting the probe's steps, events and evaluations (see [`Probe`]); it asks the
/// solver to stop (`interrupted`) once `budget` evaluations are spent.
struct Counting<'a, 'd> {
    engine: &'a mut Engine<'d>,
    budget: usize,
    /// The method in use.
    method: Method,
    probe: Probe,
}

impl System for Counting<'_, '_> {
    fn state_dim(&self) -> usize {
        self.engine.state_dim()
    }

    fn zero_crossing_dim(&self) -> usize {
        self.engine.zero_crossing_dim()
    }

    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.engine.zero_crossing_direction(index)
    }

    fn crossing_keeps_dynamics(&self, index: usize) -> bool {
        self.engine.crossing_keeps_dynamics(index)
    }

    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.probe.evaluations += 1;
        self.engine.derivatives(t, x, dxdt);
    }

    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.engine.zero_crossings(t, x, g);
    }

    fn next_time_event(&self, t: f64) -> Option<f64> {
        self.engine.next_time_event(t)
    }

    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.probe.located_events += usize::from(!crossed.is_empty());
        self.probe.time_events += usize::from(time_event);
        self.engine.handle_events(t, x, crossed, time_event)
    }

    fn project(&mut self, t: f64, x: &mut [f64]) -> bool {
        self.engine.project(t, x)
    }

    fn non_finite_derivative(&mut self, t: f64, x: &[f64]) {
        self.engine.non_finite_derivative(t, x);
    }

    fn jacobian_sparsity(&self, pattern: &mut SparsityPattern) -> bool {
        self.engine.jacobian_sparsity(pattern)
    }

    fn jacobian_sparsity_varies(&self) -> bool {
        self.engine.jacobian_sparsity_varies()
    }

    fn method_changed(&mut self, t: f64, method: Method) {
        if t > 0.0 && method != self.method {
            self.probe.switches += 1;
        }
        self.method = method;
        self.engine.method_changed(t, method);
    }

    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        // Each accepted step ends at a step end, an event (recorded before its handlers) or
        // the stop.
        if matches!(
            kind,
            RecordKind::Step | RecordKind::EventBefore | RecordKind::Final
        ) && t > 0.0
            // A stop (or a stop asked by an event's handler) at the time of the event just
            // recorded ends no new step.
            && !(kind == RecordKind::Final
                && self.probe.step_ends.last().is_some_and(|&(end, _)| end == t))
        {
            self.probe.steps += 1;
            self.probe.step_ends.push((t, self.probe.evaluations));
            self.probe.implicit_steps += usize::from(self.method.is_implicit());
        }
        self.probe.reached = self.probe.reached.max(t);
        self.engine.record(t, x, kind);
    }

    fn interrupted(&self) -> bool {
        self.probe.evaluations >= self.budget || self.engine.interrupted()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A probe that reached `reached` s with steps ending at `ends`.
    fn probe(reached: f64, ends: &[f64]) -> Probe {
        Probe {
            reached,
            steps: ends.len(),
            step_ends: ends.iter().map(|&t| (t, 0)).collect(),
            implicit_steps: 0,
            switches: 0,
            located_events: 0,
            time_events: 0,
            evaluations: 0,
            end: ProbeEnd::Fraction,
        }
    }

    #[test]
    fn the_sustained_pace_is_the_least_window_after_the_first_and_the_rest_is_extrapolated_at_it() {
        // t_p = 0.4 s in four windows of 0.1 s: 50 steps in the first (the start's transient),
        // then 30, 10 and 20: the windows' paces are 300, 100 and 200 steps/s, the least 100.
        let mut ends = Vec::new();
        for (k, n) in [50, 30, 10, 20].into_iter().enumerate() {
            // Inside the window, off its edges (an edge's window depends on round-off).
            ends.extend((1..=n).map(|i| 0.1 * k as f64 + 0.1 * (i as f64 - 0.5) / n as f64));
        }
        let p = probe(0.4, &ends);
        assert_eq!(p.steps, 110);
        // Tolerance: 1e-9, the round-off of whole counts over a width of 0.4/4 s.
        assert!(
            (p.sustained_pace() - 100.0).abs() < 1e-9,
            "{}",
            p.sustained_pace()
        );
        assert!((p.pace() - 275.0).abs() < 1e-9);
        // A run of T = 2 s: S_p = 110, the rest 1.6 s at max(100, N_s/T).
        // With N_s = 50 (25 steps/s): 110 + 100·1.6 = 270; with N_s = 600 (300/s): 110 + 480.
        assert!((crate::sim::work_estimate::with_probe(50.0, &p, 2.0) - 270.0).abs() < 1e-9);
        assert!((crate::sim::work_estimate::with_probe(600.0, &p, 2.0) - 590.0).abs() < 1e-9);
        // A probe that reached no time leaves the static estimate as it is.
        assert_eq!(
            crate::sim::work_estimate::with_probe(600.0, &probe(0.0, &[]), 2.0),
            600.0
        );
    }
}
