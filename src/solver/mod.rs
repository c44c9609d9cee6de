//! Variable-step ODE integration with zero-crossing location.
//!
//! The solver knows nothing of blocks: it integrates any [`System`]. The engine (`sim`) implements
//! `System` for a compiled diagram; tests implement it for plain ODEs with analytic solutions.
//!
//! # Methods
//!
//! | [`Method`] | scheme | evaluations / step | error control | dense output |
//! |------------|--------|--------------------|---------------|--------------|
//! | `Dopri5` | Dormand–Prince 5(4), FSAL, local extrapolation | 6 | PI, estimator order 4 | Hairer's 4th-order continuous extension |
//! | `Bs23` | Bogacki–Shampine 3(2), FSAL | 3 | PI, estimator order 2 | cubic Hermite |
//! | `Rk4` | classical Runge–Kutta, fixed step | 4 | none | cubic Hermite |
//! | `Trbdf2` | TR-BDF2 (implicit, L-stable, stiffly accurate), FSAL | 2 Newton solves sharing one LU (≈ 2–6 evaluations; n more per Jacobian) | PI, estimator order 2, filtered estimate | cubic Hermite |
//! | `Esdirk43` | ESDIRK 4(3) (implicit, L-stable, stiffly accurate), FSAL | 5 Newton solves sharing one LU | PI, estimator order 3, filtered estimate | cubic Hermite |
//! | `Rkc` | Runge–Kutta–Chebyshev, 2nd order, s stages from h·ρ (`rkc`), FSAL | s (+ a power iteration every 25 steps) | the paper's predictive controller, estimator order 2 | cubic Hermite |
//! | `Ros34pw2` | Rosenbrock W-method 3(2) (linearly implicit, stiffly accurate, L-stable at the LU's own h; `rosenbrock`), FSAL | 4 evaluations and 4 solves with one LU of I − h·γ·W (W kept over many steps; per Jacobian one evaluation per column group, plus one for w, plus one when the step start's f cannot serve) | PI, estimator order 2 | cubic Hermite |
//! | `Auto` | `Dopri5`, switching to `Trbdf2` or `Esdirk43` while stiff (see `auto`) | either's | either's | either's |
//!
//! Tableaux from Hairer, Nørsett & Wanner, *Solving Ordinary Differential Equations I* (2nd ed.,
//! Springer 1993), Table II.5.2 and Section II.6 (Dormand–Prince and its dense output), and
//! Bogacki & Shampine (1989); TR-BDF2 from Hosea & Shampine (1996), its Newton iteration and
//! Jacobian reuse in `trbdf2`. Error norm, PI controller and starting step: see `step_control`
//! (RMS of errᵢ/(abs_tol + rel_tol·max(|xᵢ|, |x_newᵢ|)) ≤ 1). The loop and the order of
//! `record`/`handle_events` calls: see `integrate`. Event semantics (directions, location to
//! 1e-12·max(1, |t|), simultaneous events, behaviour at g = 0 after a reset, chattering):
//! see `events`.
//!
//! # Use
//!
//! ```
//! use blockdyn::solver::{FnSystem, Solver, SolverOptions};
//! // x' = −x, x(0) = 1, to t = 1.
//! let mut system = FnSystem::new(1, |_t, x: &[f64], dxdt: &mut [f64]| dxdt[0] = -x[0]);
//! let mut solver = Solver::new(1, 0, SolverOptions { rel_tol: 1e-8, ..Default::default() })?;
//! let stats = solver.integrate(&mut system, 0.0, &[1.0], 1.0)?;
//! assert!((solver.state()[0] - (-1.0f64).exp()).abs() < 1e-8);
//! assert_eq!(stats.final_time, 1.0);
//! # Ok::<(), blockdyn::solver::SolverError>(())
//! ```
//!
//! [`Solver::new`] allocates every buffer; [`Solver::integrate`] allocates nothing (checked by
//! `tests/solver_alloc.rs`), so one solver can run the same system many times.

/// Which sign changes of a zero-crossing function count as an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From negative to non-negative (g goes up through zero).
    Rising,
    /// From positive to non-positive (g goes down through zero).
    Falling,
    /// Either way.
    Either,
}

/// Why [`System::record`] is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// The initial point, before the first step.
    Initial,
    /// The end of an accepted step.
    Step,
    /// At a located event or time event, before the event handlers ran.
    EventBefore,
    /// At a located event or time event, after the event handlers ran.
    EventAfter,
    /// The final point at the stop time (or where the system asked to stop).
    Final,
    /// Between a step's start and its end (or its located event), from the step's dense output,
    /// when [`System::rows_per_step`] asks for more than one row per step; also the computed end
    /// of a step whose crossing was found on its dense output continued past that end (the step
    /// then ends at the event: see [`System::crossing_keeps_dynamics`]). Each accepted step ends
    /// in exactly one `Step`, `EventBefore` or `Final` record.
    Refined,
}

/// What an event handler did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventOutcome {
    /// The handler changed the state vector or a mode: integration restarts from here.
    pub state_changed: bool,
    /// The system asks the solver to stop at this instant.
    pub stop: bool,
}

/// A dynamic system ẋ = f(t, x) with zero-crossing functions g(t, x) and events.
pub trait System {
    /// Number of continuous states.
    fn state_dim(&self) -> usize;
    /// Number of zero-crossing functions.
    fn zero_crossing_dim(&self) -> usize;
    /// Direction of zero-crossing function `index`.
    fn zero_crossing_direction(&self, index: usize) -> Direction;
    /// True when an event of zero-crossing function `index` keeps the dynamics: its handler
    /// changes neither the state nor f(t, x), only which quantities the functions watch, so f
    /// is the same function of (t, x) before and after the event (a contact group's onsets,
    /// `Block::events_keep_dynamics`; f may have a kink at the crossing, where a penalty force
    /// rises from 0, or a jump, the damping b·ḋ of a linear law). The solver may then locate
    /// such a crossing on the dense output of the step redone to end just before it, continued
    /// past that step's end (the solution is smooth up to the crossing), instead of taking a
    /// further step onto it, or cut the next step short of a crossing foreseen by
    /// extrapolation and locate it on that step's continued output (`crossing_forecast`);
    /// every other crossing is stepped onto. Either shortcut applies only when every function
    /// of the system keeps the dynamics, so this is asked for every function (when a step
    /// straddles a crossing, and before a foreseen crossing cuts a step); must not allocate. The
    /// default: false.
    fn crossing_keeps_dynamics(&self, _index: usize) -> bool {
        false
    }
    /// Writes ẋ = f(t, x) into `dxdt` (one minor step).
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]);
    /// Writes the zero-crossing values g(t, x) into `g`.
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]);
    /// The earliest time event strictly after `t` (a discrete sample hit, a Step's switch time),
    /// which the solver must land on exactly; `None` when there is none.
    fn next_time_event(&self, _t: f64) -> Option<f64> {
        None
    }
    /// Runs the event handlers at `t`: `crossed` lists the zero-crossing indices (ascending) that
    /// fired at this instant, `time_event` says whether a time event is due now. May modify `x`.
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome;
    /// Projects an accepted state back onto the system's manifold (e.g. renormalizes unit
    /// quaternions); called after every ordinary accepted step, before it is recorded. Returns true
    /// when it changed `x`. The solver keeps its first-same-as-last derivative: the projection is
    /// a round-off-sized correction, far below the local error tolerance.
    fn project(&mut self, _t: f64, _x: &mut [f64]) -> bool {
        false
    }
    /// After an event's handlers, before the crossing functions are read again: calls
    /// `redefined(k)` for every zero-crossing function k that now stands for another quantity
    /// than before the event (a position that a system's bookkeeping gave to another function),
    /// so that the solver forgets what it tracked for k (whether k fired, its re-arming after a
    /// reversing reset) and takes k's next value as a fresh start. Each redefinition is
    /// reported once. The default reports none.
    fn redefined_crossings(&mut self, _redefined: &mut dyn FnMut(usize)) {}
    /// Called when `f(t, x)` just returned a non-finite value, before the solver retries with a
    /// smaller step or stops: lets the system find the source (e.g. the block to blame) without
    /// checking every evaluation itself. The last call before a
    /// [`NonFinite`](SolverError::NonFinite) error is the one that stopped the run.
    fn non_finite_derivative(&mut self, _t: f64, _x: &[f64]) {}
    /// Which states each derivative may read, for the difference Jacobian of implicit methods:
    /// declare each entry with `pattern.depends(i, j)` (or [`SparsityPattern::depends_on_range`])
    /// when ẋᵢ may depend on xⱼ (the pattern is empty on entry; order and repeats do not matter;
    /// the diagonal is always taken as present) and return true. Columns that share no row are
    /// then perturbed together (Curtis–Powell–Reid), so a Jacobian costs one evaluation per group
    /// instead of per state. The default returns false: a dense Jacobian. Called once per run,
    /// before the first Jacobian (before every one when [`System::jacobian_sparsity_varies`]).
    /// The cost is O(entries): the solver keeps the buffer. Patterns of at least 128 states and
    /// at most 1/8 of the n² entries also take a sparse LU of the Newton matrix
    /// (`solver::trbdf2`).
    fn jacobian_sparsity(&self, _pattern: &mut SparsityPattern) -> bool {
        false
    }
    /// True when the pattern of [`System::jacobian_sparsity`] depends on the state (the pairs
    /// a broad phase finds near each other): implicit methods then ask for it again before
    /// every Jacobian, instead of once per run, and keep their colouring and symbolic
    /// factorisation while it does not change. The default: false.
    fn jacobian_sparsity_varies(&self) -> bool {
        false
    }
    /// Called when the method in use changes: at the start of a `method = "auto"` run (or its
    /// resumption) with the method it starts with, and at every switch between dopri5 and the
    /// implicit method, at the time `t` of the switch (a step's end). Not called for the other
    /// methods.
    fn method_changed(&mut self, _t: f64, _method: Method) {}
    /// Called at every point the user may want recorded.
    fn record(&mut self, _t: f64, _x: &[f64], _kind: RecordKind) {}
    /// How many rows to record for an accepted step of length `h` (up to its end or its located
    /// event): N ≥ 1 gives N − 1 [`RecordKind::Refined`] rows at equal spacing inside the step,
    /// from its dense output, before the row at its end. The default, 1, records step ends only.
    fn rows_per_step(&self, _h: f64) -> usize {
        1
    }
    /// Checked before every trial step: true stops the run with
    /// [`SolverError::Interrupted`] at the last accepted time (e.g. on Ctrl-C).
    fn interrupted(&self) -> bool {
        false
    }
    /// The next time at which the system wants the solution sampled (animation frames, fixed
    /// output times); `None` when it wants no more. Unlike a time event, a sample time never
    /// shortens a step: the solver evaluates the dense output of the step that covers it. The
    /// times must increase from one call to the next (after each [`System::sample`]); a time
    /// that does not is skipped.
    fn next_sample_time(&self) -> Option<f64> {
        None
    }
    /// Receives x(t) at a time that [`System::next_sample_time`] asked for: the initial state for
    /// times at or before t0, the dense output of the step covering t otherwise (at a located
    /// event, the state before the event handlers run).
    fn sample(&mut self, _t: f64, _x: &[f64]) {}
}

mod auto;
mod column_groups;
mod crossing_forecast;
mod dense_lu;
mod error;
mod events;
mod finite;
mod fn_system;
mod integrate;
mod iteration_matrix;
mod jacobian;
mod newton_matrix;
mod options;
mod pattern;
#[doc(hidden)]
pub mod problems;
mod rk_step;
mod rkc;
mod rosenbrock;
mod sparse_lu;
mod sparse_order;
mod stall;
mod step_control;
mod tableau;
mod trbdf2;

/// Implicit steps in a row that `method = "auto"` needs before it switches back to dopri5 (at
/// first): read by `check`'s work estimate.
pub(crate) use auto::BACK_STEPS as AUTO_BACK_STEPS;
pub use auto::STIFF_STEPS as AUTO_STIFF_STEPS;
pub use error::{SolverError, SolverStats, StallReason};
pub use fn_system::FnSystem;
pub use integrate::{Solver, SolverCheckpoint, MAX_IMPLICIT_STATES};
pub use options::{Method, SolverOptions, AUTO_ESDIRK43_REL_TOL, DEFAULT_MAX_STEPS};
pub use pattern::SparsityPattern;

#[cfg(test)]
mod trbdf2_tests;
