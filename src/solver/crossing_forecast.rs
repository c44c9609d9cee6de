//! A crossing foreseen one step ahead, so that the step can end just before it.
//!
//! A step that straddles a zero crossing is redone to end just before it (see `integrate`): for
//! a contact onset the straddling step's stages saw the force's kink, and its dense output is
//! polluted past it. The straddling step is then thrown away: on the sphere pile (N = 64) 1,556
//! of 12,567 attempted steps, 12 % of the run's evaluations of f. When the crossing can be seen
//! coming, the step can be cut before it instead: the zero-crossing functions at the last three
//! step ends (two for the first step after a restart) are extrapolated over the next step,
//! by the quadratic (line) through them, and when one is foreseen to fire at a fraction φ of the
//! next step, the step is cut to end at (1 − [`FORECAST_MARGIN`])·φ of it, and the crossing is
//! looked for on its dense output continued up to (1 + [`FORECAST_MARGIN`])·φ (as after a redone
//! step, `Solver::crossing_ahead`). Found there, the step that would have straddled it and its
//! redo are one step. Not found (the extrapolation was off by more than the margin), the cut
//! step is an ordinary step that ended early, and the crossing is met by the next step as
//! before (straddled, redone).
//!
//! Only where the redone step's look past its end is allowed: an adaptive explicit step, every
//! crossing function keeping the dynamics (`System::crossing_keeps_dynamics`), no function
//! re-armed. The forecast itself costs no evaluation of f or g (the values are the step ends'
//! own); the cut step's look past its end costs one evaluation of g on its dense output, as
//! after a redone step.
//!
//! A crossing foreseen closer than [`MIN_CUT_FRACTION`] of the step (or than 10³ of the
//! smallest admissible step) is not cut for: the cut step would be too short to move the time
//! or would collapse the step size; the crossing is met by the next step as before.

use super::events::ZeroCrossings;
use super::Direction;

/// The cut step ends this fraction of the foreseen crossing's distance before it, and the
/// crossing is looked for up to this fraction past it. The quadratic through three step ends
/// errs by O(h³·g‴) over the next step: for a contact onset after free flight (g quadratic) it
/// is exact; measured on the pile, most foreseen crossings lie within 1e-2 of the forecast.
pub(crate) const FORECAST_MARGIN: f64 = 1e-2;

/// A foreseen crossing closer than this fraction of the next step is not cut for (measured on
/// the pile by the pilesteps branch: equal or slightly fewer evaluations than no floor).
pub(crate) const MIN_CUT_FRACTION: f64 = 0.05;

/// Whether a crossing foreseen at the fraction `phi` of a next step of `h_full` (s) is far
/// enough to cut the step for: φ·h_full ≥ max([`MIN_CUT_FRACTION`]·h_full, 10³·`min_step`),
/// `min_step` (s) the smallest step the time resolves there.
pub(crate) fn worth_cutting(phi: f64, h_full: f64, min_step: f64) -> bool {
    phi * h_full >= (MIN_CUT_FRACTION * h_full).max(1e3 * min_step)
}

/// Bisection iterations locating the extrapolation's root (2⁻⁴⁰ of the step).
const ROOT_ITERATIONS: usize = 40;

/// g at the step end before the last (the quadratic's third point) and the step before the last.
#[derive(Clone, Debug)]
pub(crate) struct CrossingForecast {
    g_before: Vec<f64>,
    /// The size of the step that started where `g_before` was taken; NaN when unknown.
    h_before: f64,
    /// [`ZeroCrossings::restarts`] when `g_before` was taken: a restart since (an event, a
    /// redefinition, a look past a step end) makes it unusable.
    generation: u64,
}

impl CrossingForecast {
    /// Buffers for m functions.
    pub(crate) fn new(m: usize) -> Self {
        Self {
            g_before: vec![0.0; m],
            h_before: f64::NAN,
            generation: 0,
        }
    }

    /// Forgets the history (a run starts or resumes).
    pub(crate) fn forget(&mut self) {
        self.h_before = f64::NAN;
    }

    /// After an accepted step of size `h_last` with g at its start and end in `zc` (before
    /// [`ZeroCrossings::accept_step`]): when `allowed`, the fraction φ ∈ (0, 1] of a next step of
    /// size `h_next` at which the earliest function is foreseen to fire; `None` when none is (or
    /// a function is re-armed). `usable` false: the step's start values are not its own (the
    /// tracker was restored after a look past its end), so nothing is remembered from it.
    pub(crate) fn foresee(
        &mut self,
        zc: &ZeroCrossings,
        (h_last, h_next): (f64, f64),
        allowed: bool,
        usable: bool,
    ) -> Option<f64> {
        let (g_start, g_end) = (zc.g_start(), zc.g_end.as_slice());
        let quadratic = self.h_before.is_finite() && self.generation == zc.restarts();
        let mut earliest: Option<f64> = None;
        if allowed && h_last > 0.0 && h_next > 0.0 && !zc.any_armed() {
            for i in 0..g_end.len() {
                let (gb, gc) = (g_start[i], g_end[i]);
                // Newton's form through (−h_last − h_before, g_before), (−h_last, gb), (0, gc).
                let d1 = (gc - gb) / h_last;
                let d2 = if quadratic {
                    let d0 = (gb - self.g_before[i]) / self.h_before;
                    (d1 - d0) / (h_last + self.h_before)
                } else {
                    0.0
                };
                let p = |tau: f64| gc + d1 * tau + d2 * tau * (tau + h_last);
                let Some(phi) = first_root(p, gc, zc.direction(i), h_next) else {
                    continue;
                };
                earliest = Some(earliest.map_or(phi, |e: f64| e.min(phi)));
            }
        }
        if usable {
            self.g_before.copy_from_slice(g_start);
            self.h_before = h_last;
            self.generation = zc.restarts();
        } else {
            self.h_before = f64::NAN;
        }
        earliest
    }
}

/// The fraction of `h` at which p (with p(0) = `g0`) first fires in `direction` within (0, h],
/// judged at τ = h and located by bisection; `None` when p(h) is on the same side.
fn first_root(p: impl Fn(f64) -> f64, g0: f64, direction: Direction, h: f64) -> Option<f64> {
    let g1 = p(h);
    let rising = g0 < 0.0 && g1 >= 0.0;
    let falling = g0 > 0.0 && g1 <= 0.0;
    let fires = match direction {
        Direction::Rising => rising,
        Direction::Falling => falling,
        Direction::Either => rising || falling,
    };
    if !fires {
        return None;
    }
    // Not fired yet: still strictly on g0's side.
    let before = |g: f64| if g0 > 0.0 { g > 0.0 } else { g < 0.0 };
    let (mut lo, mut hi) = (0.0, h);
    for _ in 0..ROOT_ITERATIONS {
        let mid = 0.5 * (lo + hi);
        if before(p(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(hi / h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// g = 1 − t² (falling through 0 at t = 1), read at step ends 0, 0.25, 0.5 (s).
    fn parabola(t: f64) -> f64 {
        1.0 - t * t
    }

    #[test]
    fn the_quadratic_through_three_step_ends_foresees_a_parabolas_crossing_exactly() {
        let mut zc = ZeroCrossings::new(1);
        zc.g_end[0] = parabola(0.0);
        zc.start(|_| Direction::Falling);
        let mut forecast = CrossingForecast::new(1);
        // First step: only a line through two values; 0.75 s ahead nothing is foreseen (the
        // line through (0, 1) and (0.25, 0.9375) reaches 0 at 4 s).
        zc.g_end[0] = parabola(0.25);
        assert_eq!(forecast.foresee(&zc, (0.25, 0.75), true, true), None);
        zc.accept_step();
        // Second step: the quadratic is the parabola itself: the crossing at t = 1, half of a
        // next step of 1 s from t = 0.5. Bisection to 2⁻⁴⁰ of the step; 1e-11 bounds it.
        zc.g_end[0] = parabola(0.5);
        let phi = forecast.foresee(&zc, (0.25, 1.0), true, true).unwrap();
        assert!((phi - 0.5).abs() < 1e-11, "{phi}");
        // Not allowed: nothing foreseen, but the history is kept.
        assert_eq!(forecast.foresee(&zc, (0.25, 1.0), false, true), None);
    }

    #[test]
    fn a_restart_of_the_tracker_leaves_only_the_line() {
        let mut zc = ZeroCrossings::new(1);
        zc.g_end[0] = parabola(0.0);
        zc.start(|_| Direction::Falling);
        let mut forecast = CrossingForecast::new(1);
        zc.g_end[0] = parabola(0.25);
        forecast.foresee(&zc, (0.25, 0.75), true, true);
        zc.accept_step();
        // An event at 0.25 s (nothing crossed): the values before it are not comparable.
        zc.restart(false);
        zc.g_end[0] = parabola(0.5);
        // The line through (0.25, 0.9375) and (0.5, 0.75) falls 0.75 per s: 0 at 1.5 s, i.e. a
        // whole next step of 1 s, not the parabola's half.
        let phi = forecast.foresee(&zc, (0.25, 1.0), true, true).unwrap();
        assert!((phi - 1.0).abs() < 1e-11, "{phi}");
    }

    #[test]
    fn a_crossing_foreseen_at_a_step_ends_doorstep_is_not_cut_for() {
        // g falls 1 per s and ends a step of 0.25 s at 1e-18: the line foresees the crossing
        // 1e-18 s ahead, φ ≈ 1e-18 of a next step of 1 s (bisection to 2⁻⁴⁰ leaves φ ≤ 2⁻⁴⁰).
        let mut zc = ZeroCrossings::new(1);
        zc.g_end[0] = 0.25 + 1e-18;
        zc.start(|_| Direction::Falling);
        let mut forecast = CrossingForecast::new(1);
        zc.g_end[0] = 1e-18;
        let phi = forecast.foresee(&zc, (0.25, 1.0), true, true).unwrap();
        assert!(phi <= 2f64.powi(-40), "{phi}");
        // Declined: below 5 % of the step (and of 10³ smallest steps at t = 1 s, 3.6e-12 s).
        assert!(!worth_cutting(phi, 1.0, 16.0 * f64::EPSILON));
        // Half of a 1 s step ahead is cut for; half of a 1e-12 s step is not (5e-13 s is above
        // 5 % of the step but below 10³ smallest steps, 3.6e-12 s).
        assert!(worth_cutting(0.5, 1.0, 16.0 * f64::EPSILON));
        assert!(!worth_cutting(0.5, 1e-12, 16.0 * f64::EPSILON));
    }

    #[test]
    fn a_quadratic_root_is_found_within_the_bisection() {
        // p(τ) = 1 − τ² falls through 0 at τ = 1, inside a step of 2: φ = 1/2.
        let phi = first_root(|t| 1.0 - t * t, 1.0, Direction::Falling, 2.0).unwrap();
        assert!((phi - 0.5).abs() < 1e-11, "{phi}");
        // The wrong direction, or no crossing within the step: nothing foreseen.
        assert!(first_root(|t| 1.0 - t * t, 1.0, Direction::Rising, 2.0).is_none());
        assert!(first_root(|t| 1.0 - t * t, 1.0, Direction::Either, 0.5).is_none());
    }
}
