//! `Method::Auto`: stiffness detection and switching between dopri5 and an implicit method.
//!
//! **To the implicit method** (Hairer & Wanner, *Solving ODE II*, Section IV.2, as in Hairer's
//! DOPRI5 code): after an accepted dopri5 step, ρ = ‖k₇ − k₆‖/‖y₇ − y₆‖ from the two last stages
//! (both at t + h, y₇ = x_new) estimates the dominant eigenvalue |λ| of ∂f/∂x along the error's
//! direction, in the error test's weighted norm (the eigenvalues of W·J·W⁻¹ are J's). h·ρ above
//! [`STIFF_H_RHO`] says the step was held near dopri5's stability boundary (about 3.3 on the
//! negative real axis), not by accuracy: a stiff step. After `stiff_needed` stiff steps (at first
//! [`STIFF_STEPS`]), not interrupted by [`NONSTIFF_RESET`] non-stiff ones in a row, the run
//! switches to the implicit method. Hairer's code takes 3.25; on the stiff box_slide at tight
//! tolerances dopri5's steps sit at h·|λ| ≈ 2.9 while this estimate reads 1.8–3.3 (the difference
//! k₇ − k₆ is not along the stiff eigenvector alone), so 3.25 let dopri5 creep for hundreds of
//! steps; at 2.5 no non-stiff example model switches (docs/solver.md).
//!
//! **Back to dopri5** (DifferentialEquations.jl's `AutoSwitch`; LSODA's comparison of the step
//! each method could take, weighed by its cost): the implicit method estimates the spectral
//! radius ρ(J) of every Jacobian it forms (power iteration, `trbdf2`). After an accepted implicit
//! step, with h its next step (the controller's proposal, at most `max_step`) and ē its
//! evaluations per step in this phase (Jacobians, rejections and Newton iterations included; the
//! first step, with the Jacobian of the switch, left out), dopri5 is the better method when
//! h·ρ(J) ≤ max([`BACK_H_RHO`], 0.55·[`COST_MARGIN`]·ē): either dopri5 could take that step
//! stably with a margin of 2 (the motion is no longer stiff), or dopri5 held at its stability
//! limit 3.3/ρ, at 6 evaluations per step, costs less than [`COST_MARGIN`] times the implicit
//! method's ē/h per unit time (a mildly stiff problem, where the implicit step is only a few
//! times dopri5's). After `patience` such steps in a row (at first [`BACK_STEPS`]) the run
//! switches back.
//!
//! **Hysteresis.** Both switches need a run of steps, and the thresholds differ. A dopri5 phase
//! that turns stiff again without ever having had [`NONSTIFF_RESET`] non-stiff steps in a row
//! shows that the last switch back was premature: the patience doubles (up to
//! [`MAX_PATIENCE`]); a phase that did resets it. An implicit phase that cost more per unit time
//! than dopri5's stiff steps before it (evaluations over simulated time) quadruples the stiff
//! steps the next switch needs (up to [`MAX_STIFF_STEPS`]); one that cost less resets them. So a
//! problem on the edge of stiffness settles on one method instead of flip-flopping, and one whose
//! stiffness comes and goes (a ball bouncing on a stiff floor) still switches every time.
//!
//! **At a switch** (always at the start of a step, never inside one: the dense output, samples,
//! refined rows and event location of every step are those of the method that took it): the
//! other method's step-size controller takes over with a fresh history; the step carries over
//! (dopri5's last proposal into the implicit method, [`TO_IMPLICIT_STEP_FACTOR`] times larger; the
//! implicit method's proposal into dopri5); the implicit method forms its Jacobian afresh; dopri5
//! evaluates f(t, x) afresh (the implicit method's first-same-as-last slope comes from the stage
//! relation, accurate only to the Newton tolerance). In the implicit phase, a located zero
//! crossing (a contact opening or closing) renews the Jacobian, so that ρ(J) describes the new
//! mode.

use super::options::Method;
use super::step_control::PiController;

/// A dopri5 step with h·ρ above this is stiff (Hairer's DOPRI5 uses 3.25; see the module
/// documentation).
pub(crate) const STIFF_H_RHO: f64 = 2.5;
/// Stiff dopri5 steps (not interrupted by a few non-stiff ones in a row) that switch
/// to the implicit method at first (Hairer's DOPRI5 reports stiffness after 15).
pub const STIFF_STEPS: u32 = 15;
/// The most stiff steps a switch may need (after implicit phases that did not pay).
pub(crate) const MAX_STIFF_STEPS: u32 = 16 * 256;
/// Non-stiff dopri5 steps in a row that clear the stiff count (Hairer's DOPRI5: 6).
pub(crate) const NONSTIFF_RESET: u32 = 6;
/// An implicit step h with h·ρ(J) at or below this counts towards switching back: half of
/// dopri5's stability boundary 3.3, for the uncertainty of ρ and the margin dopri5 needs.
pub(crate) const BACK_H_RHO: f64 = DOPRI5_BOUNDARY / 2.0;
/// Implicit steps in a row that dopri5 would take more cheaply that switch back, at first.
pub(crate) const BACK_STEPS: u32 = 3;
/// The most implicit steps in a row that a switch back may wait for.
pub(crate) const MAX_PATIENCE: u32 = 48;
/// The implicit method's first step is dopri5's proposal times this (its step is not bounded by
/// stability; the controller grows it further, at most 10× per step; DifferentialEquations.jl's
/// `dtfac`).
pub(crate) const TO_IMPLICIT_STEP_FACTOR: f64 = 2.0;
/// Dopri5's stability boundary on the negative real axis (about 3.3) over its evaluations per step
/// (6): dopri5 held at h = 3.3/ρ costs 6ρ/3.3 evaluations per unit time, an implicit method at h
/// with ē evaluations per step ē/h; dopri5 is cheaper when h·ρ < 0.55·ē.
const DOPRI5_BOUNDARY_PER_EVALUATION: f64 = DOPRI5_BOUNDARY / 6.0;
/// [`Method::stability_boundary`] of dopri5 (3.3).
const DOPRI5_BOUNDARY: f64 = Method::Dopri5.stability_boundary().unwrap();
/// Switching back for cost needs dopri5 cheaper than the implicit method by this factor.
pub(crate) const COST_MARGIN: f64 = 0.8;

/// What `Method::Auto` carries from step to step (and in a checkpoint).
#[derive(Clone, Debug)]
pub(crate) struct AutoSwitch {
    /// The implicit method is in use.
    pub(crate) stiff: bool,
    /// The step-size controller of the method not in use.
    pub(crate) spare: PiController,
    /// A switch is due before the next trial step (decided at the end of an accepted step, made
    /// at the start of the next: a checkpoint taken between the two keeps it).
    pub(crate) pending: bool,
    /// Dopri5 phase: stiff steps counted, non-stiff steps in a row, and the count that switches.
    stiff_count: u32,
    nonstiff_run: u32,
    stiff_needed: u32,
    /// (t, evaluations) at the end of the last accepted step, and where the current run of stiff
    /// dopri5 steps started.
    last: (f64, usize),
    window: (f64, usize),
    /// Implicit phase: steps in a row that dopri5 could take stably.
    back_run: u32,
    /// How many such steps switch back.
    patience: u32,
    /// Accepted steps of the current phase, and (t, evaluations) when it started and after its
    /// first step (whose evaluations include the Jacobian of the switch).
    phase_steps: u64,
    phase_start: (f64, usize),
    after_first: usize,
    /// Evaluations per unit time of dopri5's stiff steps before the last switch to the implicit
    /// method (NaN: not measured).
    explicit_cost: f64,
    /// The run has switched back to dopri5 at least once.
    switched_back: bool,
    /// The current dopri5 phase has had [`NONSTIFF_RESET`] non-stiff steps in a row.
    was_nonstiff: bool,
    /// The run's evaluation count last seen, and the evaluations since the run started (what
    /// the (t, evaluations) pairs above hold): a resumed run counts its evaluations from 0.
    seen: usize,
    total: usize,
}

/// What [`AutoSwitch`] says after an accepted step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Keep the method in use.
    Keep,
    /// Switch to the other method.
    Switch,
}

impl AutoSwitch {
    /// A run starts with dopri5; `spare` is the implicit method's controller.
    pub(crate) fn new(spare: PiController) -> Self {
        let mut auto = Self {
            stiff: false,
            spare,
            pending: false,
            stiff_count: 0,
            nonstiff_run: 0,
            stiff_needed: STIFF_STEPS,
            last: (0.0, 0),
            window: (0.0, 0),
            back_run: 0,
            patience: BACK_STEPS,
            phase_steps: 0,
            phase_start: (0.0, 0),
            after_first: 0,
            explicit_cost: f64::NAN,
            switched_back: false,
            was_nonstiff: false,
            seen: 0,
            total: 0,
        };
        auto.start_run(0.0);
        auto
    }

    /// Forgets the counts of a previous run (the caller puts dopri5 back in use).
    pub(crate) fn start_run(&mut self, t0: f64) {
        self.pending = false;
        self.stiff_count = 0;
        self.nonstiff_run = 0;
        self.stiff_needed = STIFF_STEPS;
        self.last = (t0, 0);
        self.window = self.last;
        self.back_run = 0;
        self.patience = BACK_STEPS;
        self.phase_steps = 0;
        self.phase_start = self.last;
        self.after_first = 0;
        self.explicit_cost = f64::NAN;
        self.switched_back = false;
        self.was_nonstiff = false;
        self.seen = 0;
        self.total = 0;
    }

    /// A run resumes from a checkpoint: its evaluation count starts from 0 again.
    pub(crate) fn resumed(&mut self) {
        self.seen = 0;
    }

    /// The evaluations since the run started, from the run's count `evals`.
    fn tally(&mut self, evals: usize) -> usize {
        self.total += evals.saturating_sub(self.seen);
        self.seen = evals;
        self.total
    }

    /// After an accepted dopri5 step with h·ρ = `h_rho` (NaN when ρ is undefined: y₇ = y₆),
    /// ending at `t` after `evals` evaluations in the run (or since it resumed).
    pub(crate) fn explicit_step(&mut self, h_rho: f64, t: f64, evals: usize) -> Verdict {
        let evals = self.tally(evals);
        self.phase_steps += 1;
        let mut verdict = Verdict::Keep;
        if h_rho > STIFF_H_RHO {
            self.nonstiff_run = 0;
            if self.stiff_count == 0 {
                self.window = self.last;
            }
            self.stiff_count += 1;
            if self.stiff_count >= self.stiff_needed {
                let (t0, e0) = self.window;
                self.explicit_cost = (evals - e0) as f64 / (t - t0);
                verdict = Verdict::Switch;
            }
        } else {
            self.nonstiff_run += 1;
            if self.nonstiff_run >= NONSTIFF_RESET {
                self.stiff_count = 0;
                self.was_nonstiff = true;
            }
        }
        self.last = (t, evals);
        verdict
    }

    /// After an accepted implicit step ending at `t`: `h_next` the step it would take next,
    /// `radius` ρ(J) (NaN before the first Jacobian), `evals` the run's evaluations so far.
    pub(crate) fn implicit_step(
        &mut self,
        t: f64,
        h_next: f64,
        radius: f64,
        evals: usize,
    ) -> Verdict {
        let evals = self.tally(evals);
        self.phase_steps += 1;
        self.last = (t, evals);
        if self.phase_steps == 1 {
            self.after_first = evals;
            return Verdict::Keep;
        }
        // Evaluations per step since the first (Jacobians, rejections and Newton failures
        // included), and the h·ρ below which dopri5, held at 3.3/ρ, costs less.
        let per_step = (evals - self.after_first) as f64 / (self.phase_steps - 1) as f64;
        let bound = BACK_H_RHO.max(DOPRI5_BOUNDARY_PER_EVALUATION * COST_MARGIN * per_step);
        if h_next * radius <= bound {
            self.back_run += 1;
            if self.back_run >= self.patience {
                return Verdict::Switch;
            }
        } else {
            self.back_run = 0;
        }
        Verdict::Keep
    }

    /// The switch happened at (t, evals) (the caller swapped the controllers and the tableau).
    pub(crate) fn switched(&mut self, t: f64, evals: usize) {
        let evals = self.tally(evals);
        if self.stiff {
            self.switched_back = true;
            // Did the implicit phase cost less per unit time than dopri5's stiff steps before
            // it? If not, wait for more stiff steps before the next one.
            let (t0, e0) = self.phase_start;
            let cost = (evals - e0) as f64 / (t - t0);
            self.stiff_needed = if cost < self.explicit_cost {
                STIFF_STEPS
            } else {
                (4 * self.stiff_needed).min(MAX_STIFF_STEPS)
            };
        } else if self.switched_back {
            // Dopri5 turned stiff again. If it never got clear of stiffness since the last
            // switch back, that switch was premature: wait twice as long next time.
            self.patience = if self.was_nonstiff {
                BACK_STEPS
            } else {
                (2 * self.patience).min(MAX_PATIENCE)
            };
        }
        self.pending = false;
        self.stiff = !self.stiff;
        self.stiff_count = 0;
        self.nonstiff_run = 0;
        self.back_run = 0;
        self.phase_steps = 0;
        self.phase_start = (t, evals);
        self.last = (t, evals);
        self.was_nonstiff = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `count` dopri5 steps of size `h` with h·ρ = `h_rho` at 6 evaluations each; returns
    /// the verdict of the last.
    fn explicit(
        a: &mut AutoSwitch,
        t: &mut f64,
        evals: &mut usize,
        h_rho: f64,
        count: u32,
    ) -> Verdict {
        let mut verdict = Verdict::Keep;
        for _ in 0..count {
            assert_eq!(verdict, Verdict::Keep, "switched early");
            *t += 1e-3;
            *evals += 6;
            verdict = a.explicit_step(h_rho, *t, *evals);
        }
        verdict
    }

    /// Feeds `count` implicit steps of size `h` at 4 evaluations each with ρ(J) = `radius`.
    fn implicit(
        a: &mut AutoSwitch,
        t: &mut f64,
        evals: &mut usize,
        h: f64,
        radius: f64,
        count: u32,
    ) -> Verdict {
        let mut verdict = Verdict::Keep;
        for _ in 0..count {
            assert_eq!(verdict, Verdict::Keep, "switched early");
            *t += h;
            *evals += 4;
            verdict = a.implicit_step(*t, h, radius, *evals);
        }
        verdict
    }

    #[test]
    fn counts_thresholds_and_hysteresis() {
        let mut a = AutoSwitch::new(PiController::new(2));
        let (mut t, mut e) = (0.0, 0);
        // 14 stiff steps with 5 non-stiff ones (not enough to reset: a NaN and h·ρ exactly at the
        // threshold among them), then one more: the switch.
        assert_eq!(explicit(&mut a, &mut t, &mut e, 3.0, 7), Verdict::Keep);
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 1.0, NONSTIFF_RESET - 3),
            Verdict::Keep
        );
        assert_eq!(explicit(&mut a, &mut t, &mut e, f64::NAN, 1), Verdict::Keep);
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, STIFF_H_RHO, 1),
            Verdict::Keep
        );
        assert_eq!(explicit(&mut a, &mut t, &mut e, 3.0, 7), Verdict::Keep);
        assert_eq!(explicit(&mut a, &mut t, &mut e, 3.0, 1), Verdict::Switch);
        a.switched(t, e);
        assert!(a.stiff);
        // Back after BACK_STEPS steps in a row at h·ρ ≤ 1.65 (4 evaluations per step: the cost
        // bound 0.55·0.8·4 = 1.76 is the larger); the first step (the Jacobian's) is not judged,
        // a stiff step breaks the run, NaN (no ρ) counts as stiff.
        assert_eq!(implicit(&mut a, &mut t, &mut e, 0.1, 0.0, 1), Verdict::Keep);
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, 17.0, 2),
            Verdict::Keep
        );
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, 100.0, 1),
            Verdict::Keep
        );
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, f64::NAN, 1),
            Verdict::Keep
        );
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, 17.0, BACK_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        assert!(!a.stiff);
        // That implicit phase (40 evaluations/s) cost less than dopri5 (6000/s): the next switch
        // needs 15 stiff steps again. Six non-stiff steps reset the count: 14 + 6 + 15.
        assert_eq!(explicit(&mut a, &mut t, &mut e, 3.0, 14), Verdict::Keep);
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 0.5, NONSTIFF_RESET),
            Verdict::Keep
        );
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 3.0, STIFF_STEPS),
            Verdict::Switch
        );
        // That dopri5 phase had been clear of stiffness: the patience stays.
        a.switched(t, e);
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, 0.0, 1 + BACK_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        // Stiff at once: the switch back was premature, the next one waits twice as long.
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 3.0, STIFF_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 0.1, 0.0, 1 + 2 * BACK_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        // Stiff at once again: twice as long again. And the cost test: implicit steps of 1e-4 at
        // 4 evaluations (40000/s) against dopri5's 6000/s, h·ρ = 1e-4·2e4 = 2 > 1.76: the implicit
        // phase goes on (ρ says stiff) but does not pay, so once back, the next switch needs
        // 4 × 15 stiff steps.
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 3.0, STIFF_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 1e-4, 2e4, 20),
            Verdict::Keep
        );
        assert_eq!(
            implicit(&mut a, &mut t, &mut e, 1e-4, 0.0, 4 * BACK_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 3.0, 4 * STIFF_STEPS),
            Verdict::Switch
        );
    }

    #[test]
    fn a_mildly_stiff_problem_goes_back_for_cost() {
        // ESDIRK 4(3)-like cost, 13 evaluations per step at h·ρ = 4.6 (custom_force: k = 1e5,
        // ρ ≈ 316, h ≈ 0.0147): dopri5 at 3.3/ρ costs less (4.6 < 0.55·0.8·13 = 5.7).
        let mut a = AutoSwitch::new(PiController::new(3));
        let (mut t, mut e) = (0.0, 0);
        assert_eq!(
            explicit(&mut a, &mut t, &mut e, 3.0, STIFF_STEPS),
            Verdict::Switch
        );
        a.switched(t, e);
        let mut verdict = Verdict::Keep;
        for k in 0..=BACK_STEPS {
            assert_eq!(verdict, Verdict::Keep, "step {k}");
            t += 0.0147;
            e += 13;
            verdict = a.implicit_step(t, 0.0147, 316.0, e);
        }
        assert_eq!(verdict, Verdict::Switch);
    }
}
