//! A crossing foreseen one step ahead (`solver::crossing_forecast`): a falling point whose
//! height is a zero-crossing function that keeps the dynamics. Its height is a quadratic in t,
//! which the quadratic through the last three step ends extrapolates exactly, so the step
//! before the crossing is cut to end just short of it, and the crossing is found on that step's
//! continued dense output: no step straddles it, none is redone.

use blockdyn::solver::{Direction, EventOutcome, Method, Solver, SolverOptions, System};

/// ẋ = (v, −g0) from height 0.5 m at rest; g = height (falling); the event changes nothing.
struct Fall {
    keeps_dynamics: bool,
    events: Vec<f64>,
}

const G0: f64 = 9.81;
const H0: f64 = 0.5;

impl System for Fall {
    fn state_dim(&self) -> usize {
        2
    }
    fn zero_crossing_dim(&self) -> usize {
        1
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Falling
    }
    fn crossing_keeps_dynamics(&self, _index: usize) -> bool {
        self.keeps_dynamics
    }
    fn derivatives(&mut self, _t: f64, x: &[f64], dxdt: &mut [f64]) {
        dxdt[0] = x[1];
        dxdt[1] = -G0;
    }
    fn zero_crossings(&mut self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
    }
    fn handle_events(
        &mut self,
        t: f64,
        _x: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        self.events.push(t);
        EventOutcome::default()
    }
}

fn fall(keeps_dynamics: bool, method: Method) -> (Fall, blockdyn::solver::SolverStats) {
    let mut system = Fall {
        keeps_dynamics,
        events: Vec::new(),
    };
    let options = SolverOptions {
        method,
        ..Default::default()
    };
    let mut solver = Solver::new(2, 1, options).unwrap();
    let stats = solver.integrate(&mut system, 0.0, &[H0, 0.0], 0.4).unwrap();
    (system, stats)
}

/// The closed form: the height reaches 0 at sqrt(2·h0/g0). dopri5's dense output (order 4)
/// reproduces a quadratic exactly, continued past the step end too, so only the event
/// tolerance (1e-12·max(1, t)) and round-off remain: 1e-10 s bounds both with room (as
/// tests/group_onsets.rs).
fn t_star() -> f64 {
    (2.0 * H0 / G0).sqrt()
}

#[test]
fn a_foreseen_crossing_needs_no_redone_step_and_is_at_the_closed_form() {
    for method in [Method::Dopri5, Method::Bs23, Method::Auto] {
        let (system, s) = fall(true, method);
        assert_eq!(system.events.len(), 1, "{method:?}: {s:?}");
        assert_eq!(
            (s.redone_steps, s.crossings_ahead),
            (0, 1),
            "{method:?}: {s:?}"
        );
        // One crossing, foreseen exactly (the quadratic is the height itself): one step cut
        // before it, and no miss (its crossing was found just past the cut step's end).
        assert_eq!(
            (s.foreseen_steps, s.forecast_misses),
            (1, 0),
            "{method:?}: {s:?}"
        );
        let t = system.events[0];
        assert!(
            (t - t_star()).abs() <= 1e-10,
            "{method:?}: crossing at {} s, located at {t} s",
            t_star()
        );
    }
}

/// The same fall with a crossing that does not declare that it keeps the dynamics: nothing is
/// foreseen, the straddling step is redone and a further step located onto the crossing, as
/// before the forecast; the crossing is at the same closed-form time.
#[test]
fn a_crossing_that_changes_the_dynamics_is_not_foreseen() {
    let (system, s) = fall(false, Method::Dopri5);
    assert_eq!(system.events.len(), 1, "{s:?}");
    assert!(s.redone_steps >= 1 && s.crossings_ahead == 0, "{s:?}");
    assert_eq!((s.foreseen_steps, s.forecast_misses), (0, 0), "{s:?}");
    assert!((system.events[0] - t_star()).abs() <= 1e-10);
}

/// The fall to a stop time `t_end` (dopri5, default tolerances).
fn fall_to(t_end: f64) -> (Fall, blockdyn::solver::SolverStats) {
    let mut system = Fall {
        keeps_dynamics: true,
        events: Vec::new(),
    };
    let mut solver = Solver::new(2, 1, SolverOptions::default()).unwrap();
    let stats = solver
        .integrate(&mut system, 0.0, &[H0, 0.0], t_end)
        .unwrap();
    (system, stats)
}

/// A forecast that misses: with the stop time at the crossing itself, the step before it is
/// cut, and nothing is found past its end (the run ends at the crossing, where g is 0 and
/// fires nothing): one cut step, one miss, no crossing found ahead and no event, so that
/// foreseen − missed = the crossings found past a cut step's end (0).
#[test]
fn a_crossing_at_the_stop_time_is_a_forecast_miss() {
    let (system, s) = fall_to(t_star());
    assert_eq!((s.foreseen_steps, s.forecast_misses), (1, 1), "{s:?}");
    assert_eq!(s.foreseen_steps - s.forecast_misses, s.crossings_ahead);
    assert!(system.events.is_empty(), "{:?}", system.events);
}
