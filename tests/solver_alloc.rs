//! `Solver::integrate` allocates nothing: a counting global allocator around one run of a system
//! with zero crossings, events and time events, for every method.

use blockdyn::solver::problems::BouncingBall;
use blockdyn::solver::{
    Direction, EventOutcome, Method, Solver, SolverOptions, SparsityPattern, System,
};

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

/// The bouncing ball plus a second crossing function (g = v, Either) and time events every 0.1 s.
struct BallWithSamples {
    ball: BouncingBall,
}

impl System for BallWithSamples {
    fn state_dim(&self) -> usize {
        2
    }
    fn zero_crossing_dim(&self) -> usize {
        2
    }
    fn zero_crossing_direction(&self, index: usize) -> Direction {
        if index == 0 {
            Direction::Falling
        } else {
            Direction::Either
        }
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.ball.derivatives(t, x, dxdt)
    }
    fn zero_crossings(&mut self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
        g[1] = x[1];
    }
    /// h' = v, v' = −g: declared, so that trbdf2's grouped Jacobian is counted too.
    fn jacobian_sparsity(&self, pattern: &mut SparsityPattern) -> bool {
        pattern.depends(0, 1);
        true
    }
    fn next_time_event(&self, t: f64) -> Option<f64> {
        Some(((t / 0.1).floor() + 1.0) * 0.1)
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        let floor: &[usize] = if crossed.contains(&0) { &[0] } else { &[] };
        let mut outcome = self.ball.handle_events(t, x, floor, time_event);
        outcome.state_changed |= time_event;
        outcome
    }
}

#[test]
fn integrate_does_not_allocate() {
    for method in Method::ALL {
        let mut system = BallWithSamples {
            ball: BouncingBall::new(0.8, 64),
        };
        let mut solver = Solver::new(
            2,
            2,
            SolverOptions {
                method,
                ..Default::default()
            },
        )
        .unwrap();
        let (result, allocations) = count(|| solver.integrate(&mut system, 0.0, &[10.0, 0.0], 5.0));
        let stats = result.unwrap();
        assert!(
            stats.zero_crossings >= 4 && stats.time_events >= 40,
            "{method:?}: {stats:?}"
        );
        assert_eq!(allocations, 0, "{method:?} allocated during integrate");
    }
}

/// A ball bouncing on a stiff floor with regularised friction (see tests/solver_auto.rs), with a
/// time event every 0.1 s that restarts the method: stiff in contact, so that auto switches to
/// its implicit method (Jacobians, LU, Newton) and back, allocating nothing.
struct StiffFloorBall;

impl System for StiffFloorBall {
    fn state_dim(&self) -> usize {
        4
    }
    fn zero_crossing_dim(&self) -> usize {
        1
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, s: &[f64], d: &mut [f64]) {
        let normal = if s[1] < 0.0 {
            (-1e7 * s[1] - 200.0 * s[3]).max(0.0)
        } else {
            0.0
        };
        d[0] = s[2];
        d[1] = s[3];
        d[2] = -0.5 * normal * (s[2] / 1e-3).tanh();
        d[3] = -9.81 + normal;
    }
    fn zero_crossings(&mut self, _t: f64, s: &[f64], g: &mut [f64]) {
        g[0] = s[1];
    }
    fn next_time_event(&self, t: f64) -> Option<f64> {
        Some(((t / 0.1).floor() + 1.0) * 0.1)
    }
    fn handle_events(
        &mut self,
        _t: f64,
        _s: &mut [f64],
        _c: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        EventOutcome {
            state_changed: time_event,
            stop: false,
        }
    }
}

#[test]
fn auto_switching_does_not_allocate() {
    for rel_tol in [1e-3, 1e-6] {
        let options = SolverOptions {
            method: Method::Auto,
            rel_tol,
            abs_tol: rel_tol * 1e-3,
            ..Default::default()
        };
        let mut solver = Solver::new(4, 1, options).unwrap();
        let x0 = [0.0, 1.0, 1.0, 0.0];
        let (result, allocations) = count(|| solver.integrate(&mut StiffFloorBall, 0.0, &x0, 2.0));
        let stats = result.unwrap();
        assert!(
            stats.method_switches >= 4 && stats.zero_crossings >= 4 && stats.time_events >= 19,
            "{stats:?}"
        );
        assert_eq!(
            allocations, 0,
            "auto at rel_tol {rel_tol} allocated during integrate"
        );
    }
}
