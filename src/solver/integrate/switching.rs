//! `Method::Auto` in the loop: the stiffness measures after accepted steps and the switches
//! between dopri5 and the implicit method (the policy and its thresholds are in `auto`).

use super::super::auto::{Verdict, BACK_H_RHO, TO_IMPLICIT_STEP_FACTOR};
use super::super::error::SolverStats;
use super::super::options::Method;
use super::super::{SolverError, System};
use super::state::Solver;

impl Solver {
    /// Auto: a run starts with dopri5 (and its controller), whatever the last run ended with.
    pub(super) fn start_auto<S: System>(&mut self, system: &mut S, t0: f64) {
        let Some(auto) = self.auto.as_mut() else {
            return;
        };
        if auto.stiff {
            std::mem::swap(&mut self.controller, &mut auto.spare);
            auto.stiff = false;
        }
        auto.start_run(t0);
        self.tableau = self.phase_tableau();
        system.method_changed(t0, Method::Dopri5);
    }

    /// Auto, after an accepted step that ended ordinarily (not at a located crossing, not a step
    /// redone to end before one): `h_rho_explicit` is dopri5's h·ρ of that step, `h_next` the
    /// step the method would take next. Marks a switch as due (made before the next trial step).
    pub(super) fn judge_stiffness(
        &mut self,
        implicit_active: bool,
        h_rho_explicit: f64,
        (t, h_next): (f64, f64),
        evals: usize,
    ) {
        let radius = match self.implicit.as_deref() {
            Some(implicit) if implicit_active => implicit.spectral_radius(),
            _ => f64::NAN,
        };
        let Some(auto) = self.auto.as_mut() else {
            return;
        };
        let verdict = if implicit_active {
            auto.implicit_step(t, h_next, radius, evals)
        } else {
            auto.explicit_step(h_rho_explicit, t, evals)
        };
        auto.pending = verdict == Verdict::Switch;
    }

    /// Hairer's stiffness measure of the dopri5 trial step of size `h` just taken:
    /// h·‖k₇ − k₆‖/‖y₇ − y₆‖, with y₆ the 6th stage's state (in `x_stage`), y₇ = x_new, k the
    /// stage derivatives, in the error test's weighted norm. NaN when not under auto or y₇ = y₆.
    pub(super) fn dopri5_stiffness(&self, h: f64) -> f64 {
        if self.auto.as_ref().is_none_or(|a| a.stiff) {
            return f64::NAN;
        }
        let n = self.x.len();
        let (k6, k7) = (&self.k[5 * n..6 * n], &self.k[6 * n..7 * n]);
        let (rel, abs) = (self.options.rel_tol, self.options.abs_tol);
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..n {
            let w = 1.0 / (abs + rel * self.x_new[i].abs());
            let dk = (k7[i] - k6[i]) * w;
            let dy = (self.x_new[i] - self.x_stage[i]) * w;
            num += dk * dk;
            den += dy * dy;
        }
        if den > 0.0 {
            h * (num / den).sqrt()
        } else {
            f64::NAN
        }
    }

    /// Auto: switches between dopri5 and the implicit method at (t, x), the end of the last
    /// accepted step, where `h` is the step the old method would take next. Returns the new
    /// method's first step. The new method gets its own controller with a fresh history; the
    /// implicit method forms its Jacobian at its first step; dopri5 evaluates f(t, x) afresh (the
    /// implicit method's last slope comes from its stage relation).
    pub(super) fn switch_method<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        h: f64,
        stats: &mut SolverStats,
    ) -> Result<f64, SolverError> {
        let Some(auto) = self.auto.as_mut() else {
            return Ok(h);
        };
        std::mem::swap(&mut self.controller, &mut auto.spare);
        self.controller.reset();
        auto.switched(t, stats.function_evaluations);
        stats.method_switches += 1;
        let h = if auto.stiff {
            if let Some(implicit) = self.implicit.as_deref_mut() {
                implicit.restart();
            }
            self.tableau = self.phase_tableau();
            TO_IMPLICIT_STEP_FACTOR * h
        } else {
            // Back to dopri5 at no more than the step its stability allows along the last
            // Jacobian's spectral radius (the cost rule lets the implicit step reach h·ρ of up to
            // 0.44·ē, beyond dopri5's reach of about 3.3).
            let radius = self
                .implicit
                .as_deref()
                .map_or(f64::NAN, |implicit| implicit.spectral_radius());
            self.tableau = self.phase_tableau();
            self.eval_start(system, t, stats)?;
            if radius > 0.0 {
                h.min(BACK_H_RHO / radius)
            } else {
                h
            }
        };
        system.method_changed(t, self.current_method());
        Ok(h)
    }
}
