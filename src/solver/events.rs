//! Zero-crossing detection and location.
//!
//! # Event semantics (docs-ready summary)
//!
//! **Time events.** Before each step the solver asks `System::next_time_event(t)`. A step that
//! would pass the event time is shortened so that it ends *exactly* on it (t is assigned the
//! event time, never accumulated). There the solver records `EventBefore`, calls
//! `handle_events(t, x, &[], true)`, records `EventAfter` and restarts.
//!
//! **Detection.** After every accepted step each zero-crossing function gᵢ is compared between the
//! step start (its value *after* any event at that instant) and the step end:
//!
//! | direction | fires when                               |
//! |-----------|------------------------------------------|
//! | Rising    | g_start < 0 and g_end ≥ 0                |
//! | Falling   | g_start > 0 and g_end ≤ 0                |
//! | Either    | either of the above                      |
//!
//! A function that *starts* a step exactly at zero therefore never fires by leaving zero; it
//! fires when it *arrives* at or passes zero from its non-zero side. Two sign changes within one
//! step are not seen (the step-size control keeps steps short where g varies fast).
//!
//! **Location.** The earliest crossing inside the step is found on the solver's dense output with
//! the Illinois variant of regula falsi (bisection as a fallback after 40 iterations), evaluating
//! `zero_crossings` at interpolated states, until the bracket is at most
//! 1e-12·max(1, |t|) wide. The event instant is the bracket's *far* side, where the function has
//! already crossed, so after the handler runs it is on its new side. `crossed` lists *all*
//! functions that have crossed by that instant (ascending indices), so simultaneous events of two
//! blocks arrive in one `handle_events` call; it is also the call that carries `time_event = true`
//! when the instant coincides exactly with a time event. The solver records `EventBefore` with
//! the interpolated state, calls the handler, records `EventAfter`, and — when the handler
//! reports `state_changed` — restarts: f is re-evaluated (FSAL is invalid), the step-size history
//! is cleared and the starting-step heuristic picks the next step.
//!
//! **After the handler** a function that fired and is still *numerically at its crossing* —
//! |g_after| no larger than the larger |g| at the two ends of the final bracket, i.e. zero at the
//! location's resolution — is treated as being exactly at zero, so it cannot re-fire by leaving
//! zero. A bouncing ball (g = height, Falling) reset at g ≈ 0 to an upward velocity does not
//! re-fire and fires on its next fall. If, moreover, the handler *reversed* the function (its
//! slope, probed one location tolerance later along f, now points back to the side it came
//! from), the function is *re-armed*: should it come back across its post-event value g₀ in the
//! arrival direction (for the ball: the reset velocity was too small to lift it off, it falls
//! back), it fires again, located as above. This is what turns a Zeno system into a finite
//! sequence of ever closer events that the chattering guard stops instead of letting the ball
//! fall through the floor. A function whose handler did not reverse it (a mode switch, a
//! counter) is not re-armed and continues without re-firing. After an event that changed
//! neither the state nor the dynamics (`EventOutcome::state_changed` false) no function can have
//! been reversed: the probe is not taken. A position that a system gives to another function
//! (`System::redefined_crossings`) is forgotten before the restart: it starts afresh.
//!
//! **Chattering.** Events closer than the *chattering window* 1e-10·max(1, |t|) to the previous
//! event count as consecutive; when more than `max_consecutive_events` (default 1000) occur in a
//! row the run ends with `SolverError::Chattering`, naming the lowest-index function that fired at
//! the last event.

use super::Direction;

/// Width of the location bracket: 1e-12·max(1, |t|).
pub(crate) fn location_tolerance(t: f64) -> f64 {
    1e-12 * t.abs().max(1.0)
}

/// Chattering window: 1e-10·max(1, |t|).
pub(crate) fn chattering_window(t: f64) -> f64 {
    1e-10 * t.abs().max(1.0)
}

/// Illinois iterations before switching to bisection.
const ILLINOIS_ITERATIONS: usize = 40;
/// Hard cap on location iterations (bisection halves a bracket of 1 down to 1e-12 in 40 more).
const MAX_ITERATIONS: usize = 200;

/// Per-function crossing state and the location work buffers (sized once).
#[derive(Clone, Debug)]
pub(crate) struct ZeroCrossings {
    directions: Vec<Direction>,
    /// g at the start of the current step (after events; 0 when snapped).
    g_start: Vec<f64>,
    /// g at the end of the step (also: g after the handler, before [`Self::restart`]).
    pub(crate) g_end: Vec<f64>,
    /// g at a trial point (also: g at the slope probe after an event).
    pub(crate) g_trial: Vec<f64>,
    /// Re-armed after a reversing reset: the arrival orientation (+1 rising, −1 falling), else 0.
    armed: Vec<f64>,
    /// The post-event value g₀ a re-armed function fires on when it comes back across it.
    level: Vec<f64>,
    /// Candidate orientation during location: c = orient·(g − lvl) goes from < 0 to ≥ 0; 0 = not one.
    orient: Vec<f64>,
    lvl: Vec<f64>,
    c_left: Vec<f64>,
    c_right: Vec<f64>,
    c_left_eff: Vec<f64>,
    c_right_eff: Vec<f64>,
    /// |g| resolution of the final bracket of each crossed function.
    band: Vec<f64>,
    /// The functions that fired at the last located event (ascending).
    pub(crate) crossed: Vec<usize>,
    /// The near side of the last location's final bracket: the latest time at which none of them
    /// had crossed yet (the step start when the crossing is within a tolerance of it).
    pub(crate) near_side: f64,
    /// Restarts so far (a run's start, every event, every look past a step end undone): the
    /// values of g before one are not comparable with those after (`crossing_forecast`).
    restarts: u64,
}

impl ZeroCrossings {
    pub(crate) fn new(m: usize) -> Self {
        let v = || vec![0.0; m];
        Self {
            directions: vec![Direction::Either; m],
            g_start: v(),
            g_end: v(),
            g_trial: v(),
            armed: v(),
            level: v(),
            orient: v(),
            lvl: v(),
            c_left: v(),
            c_right: v(),
            c_left_eff: v(),
            c_right_eff: v(),
            band: v(),
            crossed: Vec::with_capacity(m),
            near_side: f64::NEG_INFINITY,
            restarts: 0,
        }
    }

    /// Number of functions.
    pub(crate) fn len(&self) -> usize {
        self.g_start.len()
    }

    /// Starts a run: directions from the system, g at the initial point in `g_end`.
    pub(crate) fn start(&mut self, direction: impl Fn(usize) -> Direction) {
        for i in 0..self.len() {
            self.directions[i] = direction(i);
            self.g_start[i] = self.g_end[i];
            self.armed[i] = 0.0;
            self.level[i] = 0.0;
        }
        self.crossed.clear();
        self.restarts += 1;
    }

    /// g at the start of the current step.
    pub(crate) fn g_start(&self) -> &[f64] {
        &self.g_start
    }

    /// The direction function `i` fires in.
    pub(crate) fn direction(&self, i: usize) -> Direction {
        self.directions[i]
    }

    /// True when a function is re-armed (it fires on its post-event level, not on zero).
    pub(crate) fn any_armed(&self) -> bool {
        self.armed.iter().any(|&a| a != 0.0)
    }

    /// How many times the tracker restarted (see the field).
    pub(crate) fn restarts(&self) -> u64 {
        self.restarts
    }

    /// After a step end with g in `g_end`: finds the functions that fired. True when any did.
    pub(crate) fn detect(&mut self) -> bool {
        // Every buffer cut to the function count first, so that the loop checks no index.
        let n = self.len();
        let (g_start, g_end) = (&self.g_start[..n], &self.g_end[..n]);
        let (armed, level, directions) =
            (&self.armed[..n], &self.level[..n], &self.directions[..n]);
        let (orient, lvl) = (&mut self.orient[..n], &mut self.lvl[..n]);
        let mut any = false;
        for i in 0..n {
            let (g0, g1) = (g_start[i], g_end[i]);
            orient[i] = 0.0;
            if armed[i] != 0.0 {
                let a = armed[i];
                if a * (g1 - level[i]) > 0.0 {
                    orient[i] = a;
                    lvl[i] = level[i];
                }
            } else {
                let rising = g0 < 0.0 && g1 >= 0.0;
                let falling = g0 > 0.0 && g1 <= 0.0;
                let fires = match directions[i] {
                    Direction::Rising => rising,
                    Direction::Falling => falling,
                    Direction::Either => rising || falling,
                };
                if fires {
                    orient[i] = if rising { 1.0 } else { -1.0 };
                    lvl[i] = 0.0;
                }
            }
            any |= orient[i] != 0.0;
        }
        any
    }

    /// Accepts a step without event: the end values become the next start values; a re-armed
    /// function that went clearly back to the side it came from is disarmed.
    pub(crate) fn accept_step(&mut self) {
        let n = self.len();
        let g_end = &self.g_end[..n];
        let (g_start, armed, level) = (
            &mut self.g_start[..n],
            &mut self.armed[..n],
            &mut self.level[..n],
        );
        for i in 0..n {
            g_start[i] = g_end[i];
            if armed[i] * g_end[i] < 0.0 {
                armed[i] = 0.0;
                level[i] = 0.0;
            }
        }
    }

    /// Undoes a look past the accepted step end (after [`Self::accept_step`] and a
    /// [`Self::detect`] whose candidates are not located there): g at the step end is in
    /// `g_end` again, and no candidate is left behind.
    pub(crate) fn restore_end(&mut self) {
        let n = self.len();
        self.g_end[..n].copy_from_slice(&self.g_start[..n]);
        self.orient[..n].iter_mut().for_each(|o| *o = 0.0);
        self.restarts += 1;
    }

    /// After a *rejected* trial step with g at its end in `g_end`: the secant estimate
    /// θ = c_start/(c_start − c_end) ∈ (0, 1] of the earliest crossing, as a fraction of the
    /// step, or `None` when no function fires. Leaves no candidate behind.
    pub(crate) fn crossing_fraction(&mut self) -> Option<f64> {
        if !self.detect() {
            return None;
        }
        let mut earliest: Option<f64> = None;
        for i in 0..self.len() {
            if self.orient[i] != 0.0 {
                let (c0, c1) = (self.c(i, self.g_start[i]), self.c(i, self.g_end[i]));
                let frac = if c1 - c0 > 0.0 { -c0 / (c1 - c0) } else { 1.0 };
                earliest = Some(earliest.map_or(frac, |e| e.min(frac)));
                self.orient[i] = 0.0;
            }
        }
        earliest.map(|f| f.clamp(0.0, 1.0))
    }

    /// True when a function among those that fired at the last location was re-armed (it came
    /// back across its post-event level, see the module documentation).
    pub(crate) fn rearmed_fired(&self) -> bool {
        self.crossed.iter().any(|&i| self.armed[i] != 0.0)
    }

    /// Forgets the last located event (before a time event without crossing).
    pub(crate) fn clear_crossed(&mut self) {
        for &i in &self.crossed {
            self.orient[i] = 0.0;
        }
        self.crossed.clear();
    }

    fn c(&self, i: usize, g: f64) -> f64 {
        self.orient[i] * (g - self.lvl[i])
    }

    /// Locates the earliest crossing in [t_left, t_right] after [`Self::detect`] returned true,
    /// to the event tolerance ([`location_tolerance`]). `eval(t, g)` writes g at the
    /// dense-output state at t. Fills `crossed`.
    pub(crate) fn locate(
        &mut self,
        t_left: f64,
        t_right: f64,
        eval: impl FnMut(f64, &mut [f64]),
    ) -> f64 {
        self.locate_within(t_left, t_right, location_tolerance(t_right), eval)
    }

    /// [`Self::locate`] to a final bracket of at most `width` (s; never below the event
    /// tolerance): the returned far side and [`Self::near_side`](ZeroCrossings::near_side) are
    /// then `width` apart at most, the earliest crossing between them. The loop takes a coarse
    /// bracket (1e-3 of the step) on a straddling step whose crossings all keep the dynamics:
    /// its near side alone places the redone step's end (see `integrate`).
    pub(crate) fn locate_within(
        &mut self,
        t_left: f64,
        t_right: f64,
        width: f64,
        mut eval: impl FnMut(f64, &mut [f64]),
    ) -> f64 {
        let m = self.len();
        let tol = width.max(location_tolerance(t_right));
        let (mut tl, mut tr) = (t_left, t_right);
        for i in 0..m {
            if self.orient[i] != 0.0 {
                self.c_left[i] = self.c(i, self.g_start[i]);
                self.c_right[i] = self.c(i, self.g_end[i]);
            }
        }
        // A re-armed function starts exactly at its level (c = 0): move the left end one
        // tolerance inside, where its slope has taken it to the pre side.
        if (0..m).any(|i| self.orient[i] != 0.0 && self.armed[i] != 0.0) {
            let probe = tl + tol;
            if probe >= tr {
                return self.finish(tl, tr);
            }
            eval(probe, &mut self.g_trial);
            let crossed_at_probe =
                (0..m).any(|i| self.orient[i] != 0.0 && self.c(i, self.g_trial[i]) >= 0.0);
            if crossed_at_probe {
                for i in 0..m {
                    if self.orient[i] != 0.0 {
                        let c = self.c(i, self.g_trial[i]);
                        if c >= 0.0 {
                            self.c_right[i] = c;
                        } else {
                            self.orient[i] = 0.0;
                        }
                    }
                }
                return self.finish(tl, probe);
            }
            tl = probe;
            for i in 0..m {
                if self.orient[i] != 0.0 {
                    self.c_left[i] = self.c(i, self.g_trial[i]);
                }
            }
        }
        for i in 0..m {
            self.c_left_eff[i] = self.c_left[i];
            self.c_right_eff[i] = self.c_right[i];
        }
        // Illinois: regula falsi on the candidate with the earliest secant root; when the same
        // end is kept twice in a row, the stored values at the other end are halved.
        let mut kept_right_last = None;
        for iteration in 0..MAX_ITERATIONS {
            if tr - tl <= tol {
                break;
            }
            let mut t_trial = tr;
            if iteration < ILLINOIS_ITERATIONS {
                for i in 0..m {
                    if self.orient[i] != 0.0 {
                        let (cl, cr) = (self.c_left_eff[i], self.c_right_eff[i]);
                        let frac = if cr - cl > 0.0 { -cl / (cr - cl) } else { 0.5 };
                        t_trial = t_trial.min(tl + frac * (tr - tl));
                    }
                }
            } else {
                t_trial = 0.5 * (tl + tr);
            }
            let margin = 0.25 * tol;
            t_trial = t_trial.clamp(tl + margin, tr - margin);
            eval(t_trial, &mut self.g_trial);
            let any_crossed =
                (0..m).any(|i| self.orient[i] != 0.0 && self.c(i, self.g_trial[i]) >= 0.0);
            if any_crossed {
                tr = t_trial;
                for i in 0..m {
                    if self.orient[i] != 0.0 {
                        let c = self.c(i, self.g_trial[i]);
                        if c >= 0.0 {
                            self.c_right[i] = c;
                            self.c_right_eff[i] = c;
                        } else {
                            self.orient[i] = 0.0; // crosses later than the new right end
                        }
                    }
                }
                if kept_right_last == Some(false) {
                    // The left end was kept on the previous iteration too: halve it.
                    self.c_left_eff.iter_mut().for_each(|c| *c *= 0.5);
                }
                kept_right_last = Some(false);
            } else {
                tl = t_trial;
                for i in 0..m {
                    if self.orient[i] != 0.0 {
                        let c = self.c(i, self.g_trial[i]);
                        self.c_left[i] = c;
                        self.c_left_eff[i] = c;
                    }
                }
                if kept_right_last == Some(true) {
                    self.c_right_eff.iter_mut().for_each(|c| *c *= 0.5);
                }
                kept_right_last = Some(true);
            }
        }
        self.finish(tl, tr)
    }

    fn finish(&mut self, near_side: f64, t: f64) -> f64 {
        self.near_side = near_side;
        self.crossed.clear();
        for i in 0..self.len() {
            if self.orient[i] != 0.0 {
                self.crossed.push(i);
                self.band[i] = self.c_left[i].abs().max(self.c_right[i].abs());
            }
        }
        t
    }

    /// True when a function that fired is numerically at its crossing after the handler (g after
    /// the handler in `g_end`): the caller must then probe g one location tolerance later along f
    /// into `g_trial` before [`Self::restart`].
    pub(crate) fn needs_probe(&self) -> bool {
        self.crossed.iter().any(|&i| self.at_crossing(i))
    }

    fn at_crossing(&self, i: usize) -> bool {
        (self.g_end[i] - self.lvl[i]).abs() <= self.band[i]
    }

    /// Forgets what the tracker holds for function `k`, whose position now reads another
    /// quantity than before (a crossing position reused by another function): it is no longer
    /// re-armed, and if it fired at the last event, that firing was the previous function's.
    /// Call before [`Self::restart`], which then takes its value after the event as its start.
    pub(crate) fn forget(&mut self, k: usize) {
        if k < self.len() {
            self.armed[k] = 0.0;
            self.level[k] = 0.0;
            self.orient[k] = 0.0;
        }
    }

    /// Restarts after an event, with g after the handler in `g_end` and, when
    /// [`Self::needs_probe`] said so and `probed`, the probe in `g_trial`. Without the probe
    /// (`probed` false: the event changed neither the state nor the dynamics, so every function
    /// continues along the trajectory it arrived on) no function counts as reversed. For a time
    /// event without crossing, call [`Self::clear_crossed`] first.
    pub(crate) fn restart(&mut self, probed: bool) {
        self.restarts += 1;
        for i in 0..self.len() {
            let g_after = self.g_end[i];
            if self.orient[i] != 0.0 {
                if self.at_crossing(i) {
                    let slope = self.g_trial[i] - g_after;
                    if probed && self.orient[i] * slope < 0.0 {
                        // Reversed by the handler: re-arm at the post-event value.
                        self.armed[i] = self.orient[i];
                        self.level[i] = g_after;
                    } else {
                        self.armed[i] = 0.0;
                        self.level[i] = 0.0;
                    }
                    self.g_start[i] = 0.0;
                } else {
                    self.armed[i] = 0.0;
                    self.level[i] = 0.0;
                    self.g_start[i] = g_after;
                }
            } else {
                self.g_start[i] = g_after;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Detect + locate for functions of t alone (the "dense output" is exact).
    fn locate_fn(
        dirs: &[Direction],
        g: impl Fn(f64, &mut [f64]),
        t0: f64,
        t1: f64,
    ) -> Option<(f64, Vec<usize>)> {
        let m = dirs.len();
        let mut zc = ZeroCrossings::new(m);
        g(t0, &mut zc.g_end);
        zc.start(|i| dirs[i]);
        g(t1, &mut zc.g_end);
        if !zc.detect() {
            return None;
        }
        let mut evaluations = 0;
        let t = zc.locate(t0, t1, |t, out| {
            evaluations += 1;
            g(t, out)
        });
        assert!(evaluations < 60, "{evaluations} evaluations");
        Some((t, zc.crossed.clone()))
    }

    #[test]
    fn locates_a_nonlinear_root_from_the_far_side() {
        // g = t³ − 0.001 rises through 0 at t = 0.1; the event is on the far side, within 1e-12.
        let (t, crossed) = locate_fn(
            &[Direction::Rising],
            |t, g| g[0] = t * t * t - 1e-3,
            0.0,
            1.0,
        )
        .unwrap();
        assert_eq!(crossed, vec![0]);
        assert!(t >= 0.1 - 1e-15 && t - 0.1 <= 1e-12, "t = {t}");
        assert!(t * t * t - 1e-3 >= 0.0);
    }

    #[test]
    fn earliest_of_several_and_directions() {
        // g0 = t − 0.7 (Rising), g1 = 0.4 − t (Falling at 0.4), g2 = t − 0.2 (Falling: must not fire).
        let dirs = [Direction::Rising, Direction::Falling, Direction::Falling];
        let (t, crossed) = locate_fn(
            &dirs,
            |t, g| {
                g[0] = t - 0.7;
                g[1] = 0.4 - t;
                g[2] = t - 0.2;
            },
            0.0,
            1.0,
        )
        .unwrap();
        assert_eq!(crossed, vec![1]);
        assert!((t - 0.4).abs() <= 1e-12);
    }

    /// A re-armed function's tracker state stays with its position until forgotten: g₀ falls
    /// through 0 (1 → −0.5 over [0, 1], crossing at 2/3), the handler reverses it (the probe
    /// rises), so it is re-armed at its post-event value. Given to another function whose
    /// value is −0.3 (below that level, in the arrival direction), the position would fire at
    /// the next step end for the previous function's arming; forgotten, it starts fresh at
    /// −0.3 and fires only when it rises through 0.
    #[test]
    fn a_forgotten_position_does_not_inherit_its_arming() {
        let run = |forget: bool| -> (bool, bool) {
            let mut zc = ZeroCrossings::new(1);
            zc.g_end[0] = 1.0;
            zc.start(|_| Direction::Either);
            zc.g_end[0] = -0.5;
            assert!(zc.detect());
            let t = zc.locate(0.0, 1.0, |t, g| g[0] = 1.0 - 1.5 * t);
            assert!((t - 2.0 / 3.0).abs() <= 1e-12);
            // After the handler: at the crossing, and the probe one tolerance later rises.
            zc.g_end[0] = 1.0 - 1.5 * t;
            assert!(zc.needs_probe());
            zc.g_trial[0] = zc.g_end[0] + 1e-12;
            zc.restart(true);
            // The next event (a time event): the position now holds another function, at −0.3.
            zc.clear_crossed();
            zc.g_end[0] = -0.3;
            if forget {
                zc.forget(0);
            }
            zc.restart(false);
            // One step on, still at −0.3, then up through 0.
            zc.g_end[0] = -0.3;
            let fired_below = zc.detect();
            zc.accept_step();
            zc.g_end[0] = 0.2;
            (fired_below, zc.detect())
        };
        assert_eq!(run(false), (true, false), "the stale arming fires at −0.3");
        assert_eq!(
            run(true),
            (false, true),
            "forgotten: fires rising through 0 only"
        );
    }

    #[test]
    fn zero_at_the_end_counts_zero_at_the_start_does_not() {
        let rising = [Direction::Rising];
        // Arrives at exactly 0 at the step end: fires there.
        let (t, _) = locate_fn(&rising, |t, g| g[0] = t - 1.0, 0.0, 1.0).unwrap();
        assert!((t - 1.0).abs() <= 1e-12);
        // Leaves exactly 0 at the step start: no event.
        assert!(locate_fn(&rising, |t, g| g[0] = t, 0.0, 1.0).is_none());
    }
}
