//! Event semantics: location accuracy, directions, simultaneous events, time events, call order,
//! stop requests, the bouncing ball against its closed form, and the chattering guard.

use blockdyn::solver::problems::BouncingBall;
use blockdyn::solver::{
    Direction, EventOutcome, Method, RecordKind, Solver, SolverError, SolverOptions, System,
};
use std::f64::consts::PI;

type Rhs = Box<dyn FnMut(f64, &[f64], &mut [f64])>;
type Handler = Box<dyn FnMut(f64, &mut [f64], &[usize], bool) -> EventOutcome>;

/// A system assembled from closures that logs every handler call and record.
struct Scripted {
    n: usize,
    directions: Vec<Direction>,
    f: Rhs,
    g: Rhs,
    handler: Handler,
    time_events: Vec<f64>,
    /// (t, crossed, time_event) of each handle_events call.
    calls: Vec<(f64, Vec<usize>, bool)>,
    records: Vec<(f64, RecordKind)>,
}

impl Scripted {
    fn new(n: usize, directions: Vec<Direction>, f: Rhs, g: Rhs) -> Self {
        Self {
            n,
            directions,
            f,
            g,
            handler: Box::new(|_, _, _, _| EventOutcome::default()),
            time_events: Vec::new(),
            calls: Vec::new(),
            records: Vec::new(),
        }
    }
    fn event_times(&self) -> Vec<f64> {
        self.calls.iter().map(|c| c.0).collect()
    }
}

impl System for Scripted {
    fn state_dim(&self) -> usize {
        self.n
    }
    fn zero_crossing_dim(&self) -> usize {
        self.directions.len()
    }
    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.directions[index]
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        (self.f)(t, x, dxdt)
    }
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        (self.g)(t, x, g)
    }
    fn next_time_event(&self, t: f64) -> Option<f64> {
        self.time_events.iter().copied().find(|&te| te > t)
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.calls.push((t, crossed.to_vec(), time_event));
        (self.handler)(t, x, crossed, time_event)
    }
    fn record(&mut self, t: f64, _x: &[f64], kind: RecordKind) {
        self.records.push((t, kind));
    }
}

fn integrate(
    system: &mut Scripted,
    x0: &[f64],
    t_end: f64,
    options: SolverOptions,
) -> Result<blockdyn::solver::SolverStats, SolverError> {
    let mut solver = Solver::new(system.n, system.directions.len(), options)?;
    solver.integrate(system, 0.0, x0, t_end)
}

/// Location tolerance of the solver: 1e-12·max(1, |t|).
const LOC_TOL: f64 = 1e-12;

#[test]
fn ramp_crossing_located_to_1e_12() {
    // x' = 1, x(0) = 0, g = x − 0.3 Rising: the event is at t = 0.3 exactly.
    for options in all_methods() {
        let mut s = Scripted::new(
            1,
            vec![Direction::Rising],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(|_, x, g| g[0] = x[0] - 0.3),
        );
        let stats = integrate(&mut s, &[0.0], 1.0, options.clone()).unwrap();
        assert_eq!(s.calls.len(), 1, "{:?}: {:?}", options.method, s.calls);
        assert!(
            (s.calls[0].0 - 0.3).abs() <= LOC_TOL,
            "{:?}: t = {}",
            options.method,
            s.calls[0].0
        );
        assert_eq!(s.calls[0].1, vec![0]);
        assert_eq!(stats.zero_crossings, 1);
    }
}

/// The error-controlled methods every accuracy test runs with: the default, the stiff ones, RKC
/// and ROS34PW2.
const ADAPTIVE: [Method; 5] = [
    Method::Dopri5,
    Method::Trbdf2,
    Method::Esdirk43,
    Method::Rkc,
    Method::Ros34pw2,
];

fn all_methods() -> Vec<SolverOptions> {
    vec![
        SolverOptions::default(),
        SolverOptions {
            method: Method::Bs23,
            ..Default::default()
        },
        SolverOptions {
            method: Method::Rk4,
            fixed_step: 1e-2,
            ..Default::default()
        },
        SolverOptions {
            method: Method::Trbdf2,
            ..Default::default()
        },
        SolverOptions {
            method: Method::Esdirk43,
            ..Default::default()
        },
    ]
}

fn oscillator(direction: Direction) -> Scripted {
    // x = cos t, v = −sin t; g = x.
    Scripted::new(
        2,
        vec![direction],
        Box::new(|_, x, d| {
            d[0] = x[1];
            d[1] = -x[0];
        }),
        Box::new(|_, x, g| g[0] = x[0]),
    )
}

#[test]
fn oscillator_crossings_and_directions() {
    for method in ADAPTIVE {
        // cos t falls through 0 at π/2 + 2kπ and rises at 3π/2 + 2kπ. The located instant is
        // within the location tolerance of the zero of the *numerical* solution, whose own error at
        // rel_tol 1e-10 is ≈ 1e-9 in t for dopri5; we assert 1e-8. The 2nd-order trbdf2's global
        // error shrinks only as rel_tol^(2/3) (5e-8 in t at 1e-10, 1.1e-8 at 1e-12 by 5π/2): it
        // runs at 1e-13, and so does the 2nd-order rkc (7e-8 in t at 1e-10).
        let rel_tol = if matches!(method, Method::Trbdf2 | Method::Rkc) {
            1e-13
        } else {
            1e-10
        };
        let options = SolverOptions {
            method,
            rel_tol,
            abs_tol: 1e-2 * rel_tol,
            ..Default::default()
        };
        let t_end = 8.0;
        let falling = [PI / 2.0, 5.0 * PI / 2.0];
        let rising = [3.0 * PI / 2.0];
        for (direction, expected) in [
            (Direction::Falling, falling.to_vec()),
            (Direction::Rising, rising.to_vec()),
            (
                Direction::Either,
                vec![PI / 2.0, 3.0 * PI / 2.0, 5.0 * PI / 2.0],
            ),
        ] {
            let mut s = oscillator(direction);
            integrate(&mut s, &[1.0, 0.0], t_end, options.clone()).unwrap();
            let times = s.event_times();
            assert_eq!(times.len(), expected.len(), "{direction:?}: {times:?}");
            for (t, e) in times.iter().zip(&expected) {
                assert!(
                    (t - e).abs() < 1e-8,
                    "{direction:?}: event at {t}, expected {e}"
                );
            }
        }
    }
}

#[test]
fn far_side_convention() {
    for method in ADAPTIVE {
        // After location the function has crossed: g(t_event) ≥ 0 for Rising, checked at EventBefore
        // through the state the handler receives.
        let mut s = Scripted::new(
            1,
            vec![Direction::Rising],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(|_, x, g| g[0] = x[0] - 0.3),
        );
        s.handler = Box::new(|_, x, _, _| {
            assert!(x[0] - 0.3 >= 0.0, "handler sees g = {}", x[0] - 0.3);
            EventOutcome::default()
        });
        integrate(
            &mut s,
            &[0.0],
            1.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.calls.len(), 1);
    }
}

#[test]
fn leaving_exact_zero_does_not_fire() {
    for method in ADAPTIVE {
        // g = x starts at exactly 0 and rises: no Rising event (it left zero, it did not arrive).
        let mut s = Scripted::new(
            1,
            vec![Direction::Either],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(|_, x, g| g[0] = x[0]),
        );
        integrate(
            &mut s,
            &[0.0],
            1.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(s.calls.is_empty(), "{:?}", s.calls);
    }
}

#[test]
fn simultaneous_crossings_in_one_call() {
    for method in ADAPTIVE {
        // g0 = x − 0.5 and g1 = 2x − 1 cross together at t = 0.5; g2 = x − 0.7 later, alone.
        let mut s = Scripted::new(
            1,
            vec![Direction::Rising, Direction::Either, Direction::Rising],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(|_, x, g| {
                g[0] = x[0] - 0.5;
                g[1] = 2.0 * x[0] - 1.0;
                g[2] = x[0] - 0.7;
            }),
        );
        let stats = integrate(
            &mut s,
            &[0.0],
            1.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.calls.len(), 2, "{:?}", s.calls);
        assert_eq!(s.calls[0].1, vec![0, 1]);
        assert!((s.calls[0].0 - 0.5).abs() <= LOC_TOL);
        assert_eq!(s.calls[1].1, vec![2]);
        assert!((s.calls[1].0 - 0.7).abs() <= LOC_TOL);
        assert_eq!(stats.zero_crossings, 2);
    }
}

#[test]
fn time_events_are_hit_bitwise() {
    for options in all_methods() {
        let mut s = Scripted::new(
            1,
            vec![],
            Box::new(|_, x, d| d[0] = -x[0]),
            Box::new(|_, _, _| {}),
        );
        // 0.1·k computed as the engine would; 0.5 among them.
        s.time_events = (1..10).map(|k| k as f64 * 0.1).collect();
        let stats = integrate(&mut s, &[1.0], 1.0, options.clone()).unwrap();
        let times = s.event_times();
        assert_eq!(times, s.time_events, "{:?}", options.method);
        assert!(times.contains(&0.5));
        assert!(s.calls.iter().all(|c| c.2 && c.1.is_empty()));
        assert_eq!(stats.time_events, 9);
        // The solution is unaffected by the forced step ends: x(1) = e^(−1).
        let _ = stats;
    }
}

#[test]
fn time_event_coinciding_with_crossing_is_one_call() {
    for method in ADAPTIVE {
        // g = t − 0.5 crosses exactly at the time event 0.5: a single call with both.
        let mut s = Scripted::new(
            1,
            vec![Direction::Rising],
            Box::new(|_, _, d| d[0] = 0.0),
            Box::new(|t, _, g| g[0] = t - 0.5),
        );
        s.time_events = vec![0.5];
        integrate(
            &mut s,
            &[0.0],
            1.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.calls, vec![(0.5, vec![0], true)]);
    }
}

#[test]
fn record_call_order() {
    for method in ADAPTIVE {
        let mut s = oscillator(Direction::Falling);
        s.time_events = vec![0.25];
        integrate(
            &mut s,
            &[1.0, 0.0],
            3.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let r = &s.records;
        assert_eq!(r.first().unwrap(), &(0.0, RecordKind::Initial));
        assert_eq!(r.last().unwrap(), &(3.0, RecordKind::Final));
        assert_eq!(r.iter().filter(|k| k.1 == RecordKind::Final).count(), 1);
        for w in r.windows(2) {
            assert!(w[1].0 >= w[0].0, "time went back: {w:?}");
            if w[0].1 == RecordKind::EventBefore {
                assert_eq!(w[1].1, RecordKind::EventAfter);
                assert_eq!(w[1].0, w[0].0);
            }
        }
        // max_step = 3 s / 50 is honoured by every step (events only shorten steps).
        for w in r.windows(2) {
            assert!(
                w[1].0 - w[0].0 <= 3.0 / 50.0 + 1e-15,
                "step {w:?} longer than max_step"
            );
        }
        let befores: Vec<f64> = r
            .iter()
            .filter(|k| k.1 == RecordKind::EventBefore)
            .map(|k| k.0)
            .collect();
        assert_eq!(befores.len(), 2);
        assert_eq!(befores[0], 0.25);
        assert!((befores[1] - PI / 2.0).abs() < 1e-3);
    }
}

#[test]
fn stop_request_ends_at_the_event() {
    for method in ADAPTIVE {
        let mut s = Scripted::new(
            1,
            vec![Direction::Rising],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(|_, x, g| g[0] = x[0] - 0.3),
        );
        s.handler = Box::new(|_, _, _, _| EventOutcome {
            state_changed: false,
            stop: true,
        });
        let stats = integrate(
            &mut s,
            &[0.0],
            1.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        assert!((stats.final_time - 0.3).abs() <= LOC_TOL);
        let n = s.records.len();
        assert_eq!(s.records[n - 1], (stats.final_time, RecordKind::Final));
        assert_eq!(s.records[n - 2].1, RecordKind::EventAfter);
    }
}

/// Bouncing ball h0 = 10 m, e = 0.8, g = 9.81 m/s²: impacts at t₁ = sqrt(2h₀/g) = 1.42784 s,
/// then flights of 2·eᵏ·v₁/g. The trajectory between impacts is a quadratic, which Dormand–Prince
/// and its 4th-order dense output reproduce up to rounding, so the impact times must match to 1e-9.
#[test]
fn bouncing_ball_impact_times() {
    for method in ADAPTIVE {
        let h0 = 10.0;
        let mut ball = BouncingBall::new(0.8, 64);
        let mut solver = Solver::new(
            2,
            1,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let stats = solver.integrate(&mut ball, 0.0, &[h0, 0.0], 5.0).unwrap();
        let exact = ball.exact_impact_times(h0, ball.impact_times.len());
        assert!(
            (exact[0] - 1.42784).abs() < 1e-5 && (exact[1] - 3.71239).abs() < 1e-5,
            "{exact:?}"
        );
        assert_eq!(
            ball.impact_times.len(),
            2,
            "impacts before 5 s: {:?}",
            ball.impact_times
        );
        for (t, e) in ball.impact_times.iter().zip(&exact) {
            assert!((t - e).abs() < 1e-9, "impact at {t}, exact {e}");
        }
        assert_eq!(stats.zero_crossings, 2);
        eprintln!("bouncing ball 5 s, default options: {stats:?}");
    }
}

/// Run to 20 s the ball is a Zeno system: impacts accumulate at
/// t∞ = t₁·(1 + 2e/(1 − e)) = 9·t₁ ≈ 12.85 s. The solver must end with Chattering (after
/// max_consecutive_events impacts closer than the chattering window) near t∞, having first
/// reproduced many impacts exactly.
#[test]
fn zeno_ball_ends_with_chattering() {
    for method in ADAPTIVE {
        let h0 = 10.0;
        let mut ball = BouncingBall::new(0.8, 4096);
        let mut solver = Solver::new(
            2,
            1,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let result = solver.integrate(&mut ball, 0.0, &[h0, 0.0], 20.0);
        let t_inf = 9.0 * (2.0 * h0 / 9.81f64).sqrt();
        match result {
            Err(SolverError::Chattering { t, index, count }) => {
                assert_eq!(index, 0);
                assert_eq!(count, 1001);
                assert!(
                    (t - t_inf).abs() < 1e-6,
                    "chattering at {t}, Zeno time {t_inf}"
                );
            }
            other => panic!("expected Chattering, got {other:?}"),
        }
        let exact = ball.exact_impact_times(h0, 20);
        for (t, e) in ball.impact_times.iter().zip(&exact) {
            assert!((t - e).abs() < 1e-9, "impact at {t}, exact {e}");
        }
        // The ball never fell through the floor by more than the location resolution.
        assert!(
            solver.state()[0] > -1e-9,
            "final height {}",
            solver.state()[0]
        );
    }
}

#[test]
fn either_direction_reset_does_not_refire() {
    for method in ADAPTIVE {
        // The ball with an Either-direction floor: the reset leaves it at g ≈ 0 moving up, which
        // must not count as a Rising crossing.
        let mut s = Scripted::new(
            2,
            vec![Direction::Either],
            Box::new(|_, x, d| {
                d[0] = x[1];
                d[1] = -9.81;
            }),
            Box::new(|_, x, g| g[0] = x[0]),
        );
        s.handler = Box::new(|_, x, _, _| {
            x[1] *= -0.8;
            EventOutcome {
                state_changed: true,
                stop: false,
            }
        });
        integrate(
            &mut s,
            &[10.0, 0.0],
            5.0,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let ball = BouncingBall::new(0.8, 0);
        let exact = ball.exact_impact_times(10.0, 2);
        let times = s.event_times();
        assert_eq!(times.len(), 2, "{times:?}");
        for (t, e) in times.iter().zip(&exact) {
            assert!((t - e).abs() < 1e-9);
        }
    }
}

/// A ball starting exactly on the floor (g = 0) moving up at 5 m/s does not fire on leaving; it
/// fires when it lands, at t = 2·v/g.
#[test]
fn ball_leaving_the_floor_fires_only_on_landing() {
    for method in ADAPTIVE {
        let mut ball = BouncingBall::new(0.8, 8);
        let mut solver = Solver::new(
            2,
            1,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        solver.integrate(&mut ball, 0.0, &[0.0, 5.0], 1.5).unwrap();
        assert_eq!(ball.impact_times.len(), 1, "{:?}", ball.impact_times);
        assert!((ball.impact_times[0] - 2.0 * 5.0 / 9.81).abs() < 1e-9);
    }
}

/// The Zeno ball ends with Chattering for every method (bounded work).
#[test]
fn zeno_ball_ends_with_chattering_for_every_method() {
    for options in all_methods() {
        let mut ball = BouncingBall::new(0.8, 0);
        let mut solver = Solver::new(2, 1, options.clone()).unwrap();
        let result = solver.integrate(&mut ball, 0.0, &[10.0, 0.0], 20.0);
        assert!(
            matches!(result, Err(SolverError::Chattering { index: 0, .. })),
            "{:?}: {result:?}",
            options.method
        );
    }
}

/// A crossing where f jumps (x₁' switches from 0 to 1000 when x₀ = t passes 0.3): the step that
/// straddled it is redone to end just before the crossing, so no stage sees the jump before the
/// event, and x₁ follows the exact 1000·(t − 0.3) afterwards. The loose default tolerances would
/// otherwise leave the stages' view of the jump in the state (a stage past 0.3 in a step of a few
/// hundredths adds an error of order b·h·1000 ≈ 1). Errors allowed: 1e-6 of x₁(1) = 700 (the
/// remaining steps are exact for these piecewise linear solutions, up to the location tolerance
/// of 1e-12 s times the slope 1000 and rounding).
#[test]
fn a_jump_in_f_at_a_crossing_is_not_smeared() {
    for method in ADAPTIVE {
        let mut s = Scripted::new(
            2,
            vec![Direction::Rising],
            Box::new(|_, x, d| {
                d[0] = 1.0;
                d[1] = if x[0] >= 0.3 { 1000.0 } else { 0.0 };
            }),
            Box::new(|_, x, g| g[0] = x[0] - 0.3),
        );
        let mut solver = Solver::new(
            2,
            1,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let stats = solver.integrate(&mut s, 0.0, &[0.0, 0.0], 1.0).unwrap();
        assert_eq!(s.calls.len(), 1, "{method:?}");
        let x1 = solver.state()[1];
        assert!(
            (x1 - 700.0).abs() < 7e-4,
            "{method:?}: x₁(1) = {x1}, {stats:?}"
        );
        assert!(stats.redone_steps >= 1, "{method:?}: {stats:?}");
    }
}

/// A time event whose handler changes no state but redefines a zero-crossing function (a broad
/// phase's watch list) keeps the step and re-reads g at the event: the redefined function is
/// compared from its own value at the event, so it fires once, where it crosses (x' = 1: at
/// t = 0.7), and not at the first step after the event (where the stale value, x + 10 > 0 at
/// the event, and the new one, x − 0.7 < 0 after it, would differ in sign).
#[test]
fn a_time_event_that_redefines_g_without_a_state_change_rereads_it() {
    use std::cell::Cell;
    use std::rc::Rc;
    for options in all_methods() {
        let level = Rc::new(Cell::new(-10.0));
        let (g_level, h_level) = (level.clone(), level.clone());
        let mut s = Scripted::new(
            1,
            vec![Direction::Either],
            Box::new(|_, _, d| d[0] = 1.0),
            Box::new(move |_, x, g| g[0] = x[0] - g_level.get()),
        );
        s.time_events = vec![0.5];
        s.handler = Box::new(move |_, _, _, time_event| {
            if time_event {
                // Watch the crossing at 0.7 from now on (it was at −10: out of reach).
                h_level.set(0.7);
            }
            EventOutcome::default()
        });
        let stats = integrate(&mut s, &[0.0], 1.0, options.clone()).unwrap();
        let method = options.method;
        assert_eq!(s.calls.len(), 2, "{method:?}: {:?}", s.calls);
        assert_eq!(s.calls[0], (0.5, vec![], true), "{method:?}");
        assert!(
            (s.calls[1].0 - 0.7).abs() <= LOC_TOL,
            "{method:?}: t = {}",
            s.calls[1].0
        );
        assert_eq!(s.calls[1].1, vec![0], "{method:?}");
        assert_eq!(stats.zero_crossings, 1, "{method:?}");
    }
}
