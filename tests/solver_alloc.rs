//! `Solver::integrate` allocates nothing: a counting global allocator around one run of a system
//! with zero crossings, events and time events, for every method.

use blockdyn::solver::problems::BouncingBall;
use blockdyn::solver::{Direction, EventOutcome, Method, Solver, SolverOptions, System};

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
    fn jacobian_sparsity(&self, pattern: &mut [bool]) -> bool {
        pattern[1] = true;
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
