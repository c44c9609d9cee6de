//! Progress of a run on stderr: a bar on a terminal, a line every few seconds otherwise, both
//! with the current step size (and, under `method = "auto"`, the method in use) and a hint when
//! the pace projects a very long run (a stiff model creeping forward; the solver's stall detection
//! ends it once it passes the step budget).

use crate::solver::Method;
use std::time::{Duration, Instant};

/// A run shows progress once it has taken this long (short runs stay quiet).
const QUIET_FOR: Duration = Duration::from_secs(1);
/// Without a terminal, one line per this interval.
const LINE_EVERY: Duration = Duration::from_secs(5);
/// The bar is redrawn at most this often.
const BAR_EVERY: Duration = Duration::from_millis(50);
/// The pace is measured over intervals of this length.
const PACE_EVERY: Duration = Duration::from_secs(2);
/// A run whose pace projects more than this to its end gets the stall hint.
const SLOW_RUN: Duration = Duration::from_secs(600);

/// What the reporter knows about the run so far.
struct Pace {
    stop_time: f64,
    started: Instant,
    /// The last time reported and the last positive difference between reported times: the
    /// reports come at every step end, so that difference is the step size.
    last_t: f64,
    step: f64,
    /// Start of the current pace interval (simulated time, wall-clock time).
    interval: (f64, Instant),
    /// Wall-clock seconds to the stop time at the last interval's pace.
    remaining: Option<f64>,
    /// Under `method = "auto"`: the method in use.
    method: Option<Method>,
}

impl Pace {
    fn new(stop_time: f64) -> Self {
        let now = Instant::now();
        Self {
            stop_time,
            started: now,
            last_t: 0.0,
            step: 0.0,
            interval: (0.0, now),
            remaining: None,
            method: None,
        }
    }

    fn observe(&mut self, t: f64, method: Option<Method>, now: Instant) {
        self.method = method;
        if t > self.last_t {
            self.step = t - self.last_t;
        }
        self.last_t = t;
        let (t0, w0) = self.interval;
        let wall = now.duration_since(w0);
        if wall >= PACE_EVERY {
            self.remaining = (t > t0)
                .then(|| wall.as_secs_f64() * (self.stop_time - t) / (t - t0))
                .or(Some(f64::INFINITY));
            self.interval = (t, now);
        }
    }

    /// "step 3.2e-9 s" ("step 3.2e-9 s (trbdf2)" under auto) and, when the pace projects a long
    /// run, the stall hint.
    fn describe(&self) -> String {
        let mut s = format!("step {:.1e} s", self.step);
        if let Some(method) = self.method {
            s.push_str(&format!(" ({})", method.name()));
        }
        if let Some(remaining) = self.remaining.filter(|&r| r > SLOW_RUN.as_secs_f64()) {
            s.push_str(&format!(
                "; stalling? {} to go at this pace: a stiff model may need method = \"trbdf2\" or gentler parameters",
                human_duration(remaining)
            ));
        }
        s
    }
}

/// "45 s", "12 min", "3.4 h", "forever".
pub fn human_duration(seconds: f64) -> String {
    if !seconds.is_finite() {
        "forever".into()
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The progress callback for a run to `stop_time` (see `RunOptions::progress`): a bar when
/// stderr is a `terminal`, else a line every 5 s once the run has taken more than that.
pub fn reporter(stop_time: f64, terminal: bool) -> crate::sim::ProgressFn {
    let mut pace = Pace::new(stop_time);
    if !terminal {
        let mut next_line = pace.started + LINE_EVERY;
        return Box::new(move |t: f64, method: Option<Method>| {
            let now = Instant::now();
            pace.observe(t, method, now);
            if now >= next_line && t < stop_time {
                next_line = now + LINE_EVERY;
                eprintln!(
                    "progress: t = {t:.6} of {stop_time} s ({:.1} %), {} elapsed, {}",
                    100.0 * t / stop_time,
                    human_duration(now.duration_since(pace.started).as_secs_f64()),
                    pace.describe()
                );
            }
        });
    }
    let mut last_update = pace.started;
    let mut bar: Option<indicatif::ProgressBar> = None;
    Box::new(move |t: f64, method: Option<Method>| {
        let now = Instant::now();
        pace.observe(t, method, now);
        let finished = t >= stop_time;
        if now.duration_since(last_update) < BAR_EVERY && !finished {
            return;
        }
        last_update = now;
        if bar.is_none() && now.duration_since(pace.started) > QUIET_FOR {
            let b = indicatif::ProgressBar::new(1000);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] simulated {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position(((t / stop_time) * 1000.0).clamp(0.0, 1000.0) as u64);
            b.set_message(format!("{t:.3} / {stop_time} s, {}", pace.describe()));
            if finished {
                b.finish_and_clear();
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_is_the_last_advance_and_a_slow_pace_gets_the_hint() {
        let mut pace = Pace::new(1.0);
        let t0 = pace.started;
        pace.observe(1e-9, None, t0);
        pace.observe(1e-9, None, t0); // an event: the time repeats, the step stays
        pace.observe(3e-9, None, t0);
        assert_eq!(pace.describe(), "step 2.0e-9 s");
        // Under auto, the method in use.
        pace.observe(3e-9, Some(Method::Trbdf2), t0);
        assert_eq!(pace.describe(), "step 2.0e-9 s (trbdf2)");
        // 3e-9 s simulated in 2 s of wall-clock time: about 21 years to go.
        pace.observe(3e-9, None, t0 + PACE_EVERY);
        let text = pace.describe();
        assert!(text.starts_with("step 2.0e-9 s; stalling? "), "{text}");
        assert!(text.contains(" h to go at this pace"), "{text}");
        assert!(text.contains("method = \"trbdf2\""), "{text}");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_duration(45.2), "45 s");
        assert_eq!(human_duration(720.0), "12 min");
        assert_eq!(human_duration(12_240.0), "3.4 h");
        assert_eq!(human_duration(f64::INFINITY), "forever");
    }
}
