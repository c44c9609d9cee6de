//! [`FnSystem`]: a closure x' = f(t, x) as a [`System`] without zero crossings or events.

use super::{Direction, EventOutcome, System};

/// Adapter turning a closure `|t, x, dxdt|` into a [`System`] of dimension `dim` with no
/// zero-crossing functions and no time events (e.g. to benchmark a hand-written ODE against the
/// same model built as a diagram).
pub struct FnSystem<F> {
    dim: usize,
    f: F,
}

impl<F: FnMut(f64, &[f64], &mut [f64])> FnSystem<F> {
    /// `f(t, x, dxdt)` must write all `dim` components of ẋ.
    pub fn new(dim: usize, f: F) -> Self {
        Self { dim, f }
    }
}

impl<F: FnMut(f64, &[f64], &mut [f64])> System for FnSystem<F> {
    fn state_dim(&self) -> usize {
        self.dim
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        (self.f)(t, x, dxdt)
    }
    fn zero_crossings(&mut self, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    fn handle_events(
        &mut self,
        _t: f64,
        _x: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        EventOutcome::default()
    }
}
