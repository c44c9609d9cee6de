//! Stall detection: ends runs that would take practically forever, and says which state is to
//! blame.
//!
//! Stiff or fast dynamics under an explicit method (a ground stiffness of 1e15, poles at 5e7, a
//! body started deep inside the floor) creep forward with steps that each meet the tolerances:
//! the step size never underflows, and the run would take hours. The watch counts trial steps
//! (accepted and rejected) in windows of `max_steps / 100` (at least 100). At the end of each
//! window it projects the run's total from the window's pace,
//! `taken + (t_end − t) · window / (t − t_window_start)`. When that passes `max_steps` at the end
//! of two consecutive windows, the run stops with [`SolverError::Stalled`]. Two windows, and the
//! recent pace rather than the average since t0, so that a short hard transient (an impact, a
//! body pushed out of the floor) that the next window leaves behind does not end a run that
//! would finish. A run also stops when it has taken `max_steps` steps, whatever the projection.
//!
//! The wall-clock budget (`max_wall_time`, off by default) works the same way with seconds in
//! place of steps, plus a direct check of the elapsed time every 1024 trial steps.
//!
//! The stiffest component: at each error-controlled trial step, the component with the largest
//! scaled error (the one that sets the step size) is counted; the one counted most often over the
//! last window is reported. The engine maps it to the block that owns the state.

use super::error::{SolverError, StallReason};
use std::time::Instant;

/// The step budget is looked at in this many windows.
const WINDOWS_PER_BUDGET: u64 = 100;
/// The smallest window (trial steps), so that a small budget still averages over some steps.
const MIN_WINDOW: u64 = 100;
/// How often the elapsed time is read when a wall-clock budget is set (trial steps).
const WALL_CHECK_EVERY: u64 = 1024;

/// The stall detector of one [`Solver`](super::Solver); its buffers are sized once.
pub(crate) struct StallWatch {
    max_steps: u64,
    /// Seconds; 0 = no wall-clock budget.
    max_wall_time: f64,
    /// Trial steps per window.
    window: u64,
    t_end: f64,
    /// Trial steps taken in this run.
    taken: u64,
    /// Trial steps left in the current window.
    window_left: u64,
    /// Time at the start of the current window.
    window_t0: f64,
    /// The mean step of the last complete window (s); 0 before the first.
    recent_step: f64,
    /// Whether the last window's projection passed the step budget.
    steps_over: bool,
    /// Whether the last window's projection passed the wall-clock budget.
    wall_over: bool,
    /// When the run started and when the window started (only with a wall-clock budget).
    clock: Option<(Instant, Instant)>,
    /// How often each state component was the worst one in the current window.
    worst_counts: Vec<u32>,
    /// The component counted most often in the last complete window.
    stiffest: Option<usize>,
}

impl StallWatch {
    /// A watch for systems of `state_dim` states with the given budgets.
    pub(crate) fn new(state_dim: usize, max_steps: u64, max_wall_time: f64) -> Self {
        let window = (max_steps / WINDOWS_PER_BUDGET).max(MIN_WINDOW);
        Self {
            max_steps,
            max_wall_time,
            window,
            t_end: 0.0,
            taken: 0,
            window_left: window,
            window_t0: 0.0,
            recent_step: 0.0,
            steps_over: false,
            wall_over: false,
            clock: None,
            worst_counts: vec![0; state_dim],
            stiffest: None,
        }
    }

    /// Starts watching a run from `t0` to `t_end`.
    pub(crate) fn start(&mut self, t0: f64, t_end: f64) {
        self.t_end = t_end;
        self.taken = 0;
        self.window_left = self.window;
        self.window_t0 = t0;
        self.recent_step = 0.0;
        self.steps_over = false;
        self.wall_over = false;
        self.worst_counts.fill(0);
        self.stiffest = None;
        self.clock = (self.max_wall_time > 0.0).then(|| {
            let now = Instant::now();
            (now, now)
        });
    }

    /// Notes the component with the largest scaled error of an error-controlled trial step.
    pub(crate) fn note_worst(&mut self, index: usize) {
        if let Some(count) = self.worst_counts.get_mut(index) {
            *count = count.saturating_add(1);
        }
    }

    /// Counts one trial step starting at `t`; an error when the run passes a budget.
    pub(crate) fn attempt(&mut self, t: f64) -> Result<(), SolverError> {
        self.taken += 1;
        if self.taken > self.max_steps {
            let projected = self.taken as f64 + self.remaining_steps(t);
            return Err(self.stalled(t, self.steps_reason(projected)));
        }
        if self.taken % WALL_CHECK_EVERY == 0 {
            if let Some((started, _)) = self.clock {
                let elapsed = started.elapsed().as_secs_f64();
                if elapsed > self.max_wall_time {
                    return Err(self.stalled(t, self.wall_reason(elapsed, elapsed)));
                }
            }
        }
        self.window_left -= 1;
        if self.window_left == 0 {
            self.end_window(t)?;
        }
        Ok(())
    }

    /// Steps still needed at the last window's pace (∞ when time stood still).
    fn remaining_steps(&self, t: f64) -> f64 {
        if self.recent_step > 0.0 {
            (self.t_end - t) / self.recent_step
        } else {
            f64::INFINITY
        }
    }

    fn end_window(&mut self, t: f64) -> Result<(), SolverError> {
        let span = t - self.window_t0;
        self.recent_step = span / self.window as f64;
        self.stiffest = argmax(&self.worst_counts).or(self.stiffest);
        self.worst_counts.fill(0);
        let projected = self.taken as f64 + self.remaining_steps(t);
        let over = projected > self.max_steps as f64;
        if over && self.steps_over {
            return Err(self.stalled(t, self.steps_reason(projected)));
        }
        self.steps_over = over;
        if let Some((started, window_started)) = self.clock {
            let now = Instant::now();
            let elapsed = (now - started).as_secs_f64();
            let window_secs = (now - window_started).as_secs_f64();
            let projected = if span > 0.0 {
                elapsed + window_secs * (self.t_end - t) / span
            } else {
                f64::INFINITY
            };
            let over = projected > self.max_wall_time;
            if over && self.wall_over {
                return Err(self.stalled(t, self.wall_reason(elapsed, projected)));
            }
            self.wall_over = over;
            self.clock = Some((started, now));
        }
        self.window_t0 = t;
        self.window_left = self.window;
        Ok(())
    }

    fn steps_reason(&self, projected: f64) -> StallReason {
        StallReason::Steps {
            taken: self.taken,
            projected,
            max_steps: self.max_steps,
        }
    }

    fn wall_reason(&self, elapsed: f64, projected: f64) -> StallReason {
        StallReason::WallTime {
            elapsed,
            projected,
            max_wall_time: self.max_wall_time,
        }
    }

    fn stalled(&self, t: f64, reason: StallReason) -> SolverError {
        // Mid-window (a small budget spent before the first window ends): the pace so far.
        let step = if self.recent_step > 0.0 {
            self.recent_step
        } else {
            let steps_in_window = self.window - self.window_left;
            (t - self.window_t0) / steps_in_window.max(1) as f64
        };
        SolverError::Stalled {
            t,
            step,
            reason,
            index: self.stiffest.or_else(|| argmax(&self.worst_counts)),
        }
    }
}

/// The index of the largest non-zero count (the first of equal ones).
fn argmax(counts: &[u32]) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (i, &c) in counts.iter().enumerate() {
        if c > 0 && best.is_none_or(|(_, b)| c > b) {
            best = Some((i, c));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run creeping at 1e-6 s per step towards t_end = 1 with a budget of 10,000 steps: the
    /// first window (100 steps) projects 1e6 steps, the second confirms it, and the run stops
    /// after exactly 200 steps with the component counted most often.
    #[test]
    fn a_creeping_run_stops_after_two_windows() {
        let mut w = StallWatch::new(3, 10_000, 0.0);
        w.start(0.0, 1.0);
        let mut result = Ok(());
        let mut k = 0u64;
        while result.is_ok() {
            w.note_worst(if k % 3 == 0 { 0 } else { 2 });
            result = w.attempt(k as f64 * 1e-6);
            k += 1;
        }
        assert_eq!(k, 200);
        match result {
            Err(SolverError::Stalled {
                index,
                reason:
                    StallReason::Steps {
                        taken,
                        projected,
                        max_steps,
                    },
                step,
                ..
            }) => {
                assert_eq!((index, taken, max_steps), (Some(2), 200, 10_000));
                assert!((step - 1e-6).abs() < 1e-12, "{step}");
                assert!((projected - (200.0 + (1.0 - 199e-6) / 1e-6)).abs() < 1.0);
            }
            other => panic!("{other:?}"),
        }
    }

    /// One slow window followed by a fast one does not stop the run (a transient).
    #[test]
    fn a_short_transient_does_not_stop_the_run() {
        let mut w = StallWatch::new(1, 10_000, 0.0);
        w.start(0.0, 1.0);
        let mut t = 0.0;
        for k in 0..1000 {
            w.attempt(t).unwrap();
            t += if k < 100 { 1e-7 } else { 1e-3 };
        }
    }

    /// The budget itself is a hard limit: step max_steps + 1 is refused.
    #[test]
    fn the_budget_is_a_hard_limit() {
        let mut w = StallWatch::new(1, 150, 0.0);
        w.start(0.0, 1.0);
        for k in 0..150 {
            w.attempt(k as f64 * 1e-3).unwrap();
        }
        assert!(matches!(
            w.attempt(0.15),
            Err(SolverError::Stalled {
                reason: StallReason::Steps { taken: 151, .. },
                index: None,
                ..
            })
        ));
    }
}
