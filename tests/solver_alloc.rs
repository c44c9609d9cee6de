//! `Solver::integrate` allocates nothing: a counting global allocator around one run of a system
//! with zero crossings, events and time events, for every method.

use blockdyn::solver::problems::BouncingBall;
use blockdyn::solver::{Direction, EventOutcome, Method, Solver, SolverOptions, System};
use std::alloc::{GlobalAlloc, Layout, System as SystemAlloc};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts allocations made by the thread that set `COUNTING` (the test harness runs other
/// threads; this file has one test so nothing else allocates while counting).
struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::SeqCst) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { SystemAlloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { SystemAlloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::SeqCst) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { SystemAlloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
        ALLOCATIONS.store(0, Ordering::SeqCst);
        COUNTING.store(true, Ordering::SeqCst);
        let result = solver.integrate(&mut system, 0.0, &[10.0, 0.0], 5.0);
        COUNTING.store(false, Ordering::SeqCst);
        let stats = result.unwrap();
        assert!(
            stats.zero_crossings >= 4 && stats.time_events >= 40,
            "{method:?}: {stats:?}"
        );
        assert_eq!(
            ALLOCATIONS.load(Ordering::SeqCst),
            0,
            "{method:?} allocated during integrate"
        );
    }
}
