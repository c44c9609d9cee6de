//! Run statistics: what a run cost, printed as one line.

use std::fmt;
use std::time::Duration;

/// Counters of one simulation run, filled in by the engine/solver driver.
///
/// Displayed as one line, e.g.
/// `simulated 5 s in 1.2 ms wall: 143 steps (3 rejected), 905 evaluations, 4 zero crossings`,
/// followed under `method = "auto"`, when the run switched methods, by
/// `, 4 method switches (dopri5 120 steps, trbdf2 23 steps)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Simulated time span covered by the run (stop time − start time), s.
    pub simulated_time: f64,
    /// Accepted solver steps.
    pub steps: u64,
    /// Rejected (retried) solver steps, not included in `steps`.
    pub rejected_steps: u64,
    /// Evaluations of the system's derivative function f(t, x).
    pub function_evaluations: u64,
    /// Located zero crossings (events), including time events handled as crossings.
    pub zero_crossings: u64,
    /// Wall-clock time the run took.
    pub wall_time: Duration,
    /// Under `method = "auto"`: its switches and the steps each method took.
    pub switches: Option<MethodSwitches>,
    /// Steps cut short before a crossing foreseen one step ahead, and how many of those
    /// forecasts missed (see [`crate::solver::SolverStats::foreseen_steps`]); printed only when
    /// some step was cut.
    pub forecasts: Forecasts,
}

/// The crossing forecast's counts of a run (explicit methods, contact groups' onsets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forecasts {
    /// Steps cut short to end just before a foreseen crossing.
    pub foreseen_steps: u64,
    /// Of those, the forecasts whose crossing was not found just past the cut step's end.
    pub misses: u64,
}

/// What a `method = "auto"` run did: switches between its explicit and its implicit method.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MethodSwitches {
    /// Switches (either way).
    pub count: u64,
    /// The explicit method's name (`dopri5`) and its accepted steps.
    pub explicit: (&'static str, u64),
    /// The implicit method's name (`trbdf2` or `esdirk43`) and its accepted steps.
    pub implicit: (&'static str, u64),
}

impl fmt::Display for RunSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "simulated {} s in {} wall: {} ({} rejected), {}, {}",
            significant(self.simulated_time, 6),
            WallTime(self.wall_time),
            counted(self.steps, "step", "steps"),
            self.rejected_steps,
            counted(self.function_evaluations, "evaluation", "evaluations"),
            counted(self.zero_crossings, "zero crossing", "zero crossings"),
        )?;
        match &self.switches {
            Some(s) if s.count > 0 => write!(
                f,
                ", {} ({} {}, {} {})",
                counted(s.count, "method switch", "method switches"),
                s.explicit.0,
                counted(s.explicit.1, "step", "steps"),
                s.implicit.0,
                counted(s.implicit.1, "step", "steps"),
            )?,
            _ => {}
        }
        let forecasts = self.forecasts;
        if forecasts.foreseen_steps > 0 {
            write!(
                f,
                ", {} before foreseen crossings ({} missed)",
                counted(forecasts.foreseen_steps, "step cut", "steps cut"),
                forecasts.misses,
            )?;
        }
        Ok(())
    }
}

/// `1 step`, `2 steps`.
fn counted(n: u64, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// `x` rounded to `digits` significant digits, without trailing zeros: 5 → "5", 0.1 → "0.1",
/// 4.99999999 → "5", 1234567 → "1234570", 1.5e-9 → "1.5e-9" (scientific below 1e-4 and from 1e9).
fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs();
    if !(1e-4..1e9).contains(&magnitude) {
        let text = format!("{x:.*e}", digits.saturating_sub(1));
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        return format!("{}e{exponent}", trim_zeros(mantissa));
    }
    // Digits after the decimal point so that `digits` significant digits remain.
    let integer_digits = magnitude.log10().floor() as i64 + 1;
    let decimals = (digits as i64 - integer_digits).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if decimals > 0 {
        trim_zeros(&text).to_string()
    } else {
        // Round away digits beyond `digits` in the integer part, e.g. 1234567 → 1234570.
        let scale = 10f64.powi((integer_digits - digits as i64).max(0) as i32);
        format!("{}", (x / scale).round() * scale)
    }
}

/// Removes trailing zeros after a decimal point, and the point itself when nothing is left.
fn trim_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// A duration with 3 significant digits and a unit chosen for it: `850 ns`, `12.3 µs`, `1.2 ms`,
/// `4.56 s`, and `2 min 5.3 s` from one minute on.
pub struct WallTime(pub Duration);

impl fmt::Display for WallTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0.as_secs_f64();
        if seconds >= 60.0 {
            let minutes = (seconds / 60.0).floor();
            return write!(
                f,
                "{minutes} min {} s",
                significant(seconds - 60.0 * minutes, 2)
            );
        }
        let (value, unit) = if seconds >= 1.0 {
            (seconds, "s")
        } else if seconds >= 1e-3 {
            (seconds * 1e3, "ms")
        } else if seconds >= 1e-6 {
            (seconds * 1e6, "µs")
        } else {
            (seconds * 1e9, "ns")
        };
        write!(f, "{} {unit}", significant(value, 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_summary() {
        let summary = RunSummary {
            simulated_time: 5.0,
            steps: 143,
            rejected_steps: 3,
            function_evaluations: 905,
            zero_crossings: 4,
            wall_time: Duration::from_micros(1200),
            switches: None,
            forecasts: Forecasts::default(),
        };
        assert_eq!(
            summary.to_string(),
            "simulated 5 s in 1.2 ms wall: 143 steps (3 rejected), 905 evaluations, 4 zero crossings"
        );
        // Under auto: the switches when there were some, nothing more when there were none.
        let mut switches = MethodSwitches {
            count: 0,
            explicit: ("dopri5", 143),
            implicit: ("trbdf2", 0),
        };
        let auto = RunSummary {
            switches: Some(switches.clone()),
            ..summary.clone()
        };
        assert_eq!(auto.to_string(), summary.to_string());
        switches = MethodSwitches {
            count: 4,
            explicit: ("dopri5", 120),
            implicit: ("trbdf2", 23),
        };
        let auto = RunSummary {
            switches: Some(switches),
            ..summary.clone()
        };
        assert_eq!(
            auto.to_string(),
            "simulated 5 s in 1.2 ms wall: 143 steps (3 rejected), 905 evaluations, 4 zero crossings, 4 method switches (dopri5 120 steps, trbdf2 23 steps)"
        );
        // Steps cut before foreseen crossings: printed when there were some.
        let cut = RunSummary {
            forecasts: Forecasts {
                foreseen_steps: 12,
                misses: 3,
            },
            ..summary.clone()
        };
        assert_eq!(
            cut.to_string(),
            format!("{summary}, 12 steps cut before foreseen crossings (3 missed)")
        );
    }

    #[test]
    fn singular_counts_and_units() {
        let summary = RunSummary {
            simulated_time: 0.1,
            steps: 1,
            rejected_steps: 0,
            function_evaluations: 1,
            zero_crossings: 1,
            wall_time: Duration::from_nanos(850),
            switches: None,
            forecasts: Forecasts::default(),
        };
        assert_eq!(
            summary.to_string(),
            "simulated 0.1 s in 850 ns wall: 1 step (0 rejected), 1 evaluation, 1 zero crossing"
        );
        assert!(!summary.to_string().contains('\n'));
    }

    #[test]
    fn significant_digits() {
        assert_eq!(significant(4.999_999_999, 6), "5");
        assert_eq!(significant(1234567.0, 6), "1234570");
        assert_eq!(significant(0.001_234_567, 3), "0.00123");
        assert_eq!(significant(1.5e-9, 6), "1.5e-9");
        assert_eq!(significant(2.5e12, 6), "2.5e12");
        assert_eq!(significant(0.0, 6), "0");
        assert_eq!(
            WallTime(Duration::from_secs_f64(125.3)).to_string(),
            "2 min 5.3 s"
        );
        assert_eq!(
            WallTime(Duration::from_secs_f64(12.34)).to_string(),
            "12.3 s"
        );
        assert_eq!(WallTime(Duration::from_micros(45)).to_string(), "45 µs");
    }
}
