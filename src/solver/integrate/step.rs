//! The per-step pieces of the loop: the first stage, the starting step, the trial step of either
//! kind of method, and the restarts after events.

use super::super::error::SolverStats;
use super::super::events::location_tolerance;
use super::super::finite::first_non_finite;
use super::super::iteration_matrix::ImplicitFailure;
use super::super::newton_matrix::MAX_IMPLICIT_STATES;
use super::super::options::Method;
use super::super::rk_step::{rk_trial_step, StepBuffers};
use super::super::step_control::{initial_step_final, initial_step_h0, weighted_norm};
use super::super::{SolverError, System};
use super::state::Solver;

/// Why a trial step failed.
pub(super) enum TrialFailure {
    /// A stage derivative or the new state was not finite at (t, component).
    NonFinite(f64, usize),
    /// An implicit method's Newton iteration did not converge.
    Newton,
    /// An implicit method's Jacobian at time t needs the dense path above
    /// [`MAX_IMPLICIT_STATES`](crate::solver::MAX_IMPLICIT_STATES) states.
    DenseRefused(f64),
}

impl Solver {
    /// Evaluates k₁ = f(t, x) into stage slot 0.
    pub(super) fn eval_start<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        stats: &mut SolverStats,
    ) -> Result<(), SolverError> {
        let n = self.x.len();
        system.derivatives(t, &self.x, &mut self.k[..n]);
        stats.function_evaluations += 1;
        self.k_first_exact = true;
        match first_non_finite(&self.k[..n]) {
            Some(index) => {
                system.non_finite_derivative(t, &self.x);
                Err(SolverError::NonFinite { t, index })
            }
            None => Ok(()),
        }
    }

    /// The step to try first (after k₁ is known): the user's `initial_step` or Hairer's
    /// heuristic (see `step_control`).
    pub(super) fn starting_step<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        h_max: f64,
        stats: &mut SolverStats,
    ) -> f64 {
        if self.options.method == Method::Rk4 {
            return self.options.fixed_step;
        }
        if self.options.initial_step > 0.0 {
            return self.options.initial_step.min(h_max);
        }
        let (rel, abs) = (self.options.rel_tol, self.options.abs_tol);
        let n = self.x.len();
        let d0 = weighted_norm(&self.x, &self.x, rel, abs);
        let d1 = weighted_norm(&self.k[..n], &self.x, rel, abs);
        let h0 = initial_step_h0(d0, d1, h_max);
        for i in 0..n {
            self.x_stage[i] = self.x[i] + h0 * self.k[i];
        }
        let (f0, rest) = self.k.split_at_mut(n);
        let f1 = &mut rest[..n];
        system.derivatives(t + h0, &self.x_stage, f1);
        stats.function_evaluations += 1;
        for i in 0..n {
            f1[i] -= f0[i];
        }
        let d2 = weighted_norm(f1, &self.x, rel, abs) / h0;
        initial_step_final(h0, d1, d2, self.tableau.order, h_max)
    }

    /// g(t, x) into the crossing tracker's `g_end` and, when a function that fired is at its
    /// crossing, the slope probe; then the tracker forgets the functions the system redefined
    /// ([`System::redefined_crossings`]) and restarts. The probe is taken after every event,
    /// whatever the handlers reported (`_state_changed` is not trusted to skip it): a handler
    /// may redefine a crossing function without reporting a change (the mechanism's rigid mode
    /// counts), and only the probe sees that such a function was reversed.
    pub(super) fn restart_crossings<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        _state_changed: bool,
        stats: &mut SolverStats,
    ) {
        if self.zc.len() == 0 {
            return;
        }
        system.zero_crossings(t, &self.x, &mut self.zc.g_end);
        stats.crossing_evaluations += 1;
        let probed = self.zc.needs_probe();
        if probed {
            let eta = location_tolerance(t);
            let n = self.x.len();
            for i in 0..n {
                self.x_stage[i] = self.x[i] + eta * self.k[i];
            }
            system.zero_crossings(t + eta, &self.x_stage, &mut self.zc.g_trial);
            stats.crossing_evaluations += 1;
        }
        let zc = &mut self.zc;
        system.redefined_crossings(&mut |k| zc.forget(k));
        self.zc.restart(probed);
    }

    /// One trial step (t, x) → (t_new, x_new) of size h with the error estimate in `err`; k₁ is
    /// in stage slot 0.
    pub(super) fn trial_step<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        h: f64,
        t_new: f64,
        stats: &mut SolverStats,
    ) -> Result<(), TrialFailure> {
        let active = self.implicit_active();
        let buffers = StepBuffers {
            x: &self.x,
            k: &mut self.k,
            x_stage: &mut self.x_stage,
            x_new: &mut self.x_new,
            err: &mut self.err,
        };
        let tolerances = (self.options.rel_tol, self.options.abs_tol);
        if let Some(rosenbrock) = self.rosenbrock.as_deref_mut() {
            let k_first_exact = self.k_first_exact;
            rosenbrock
                .trial_step(system, (t, h, t_new), buffers, k_first_exact, stats)
                .map_err(TrialFailure::from)?;
            return match first_non_finite(&self.x_new) {
                Some(i) => Err(TrialFailure::NonFinite(t_new, i)),
                None => Ok(()),
            };
        }
        if let Some(rkc) = self.rkc.as_deref_mut() {
            let radius_before = rkc.radius_evaluations();
            let stepped = rkc.trial_step(
                system,
                (t, h, t_new),
                buffers,
                &mut stats.function_evaluations,
            );
            stats.radius_evaluations += rkc.radius_evaluations() - radius_before;
            stats.rkc_max_stages = stats.rkc_max_stages.max(rkc.last_stages());
            stepped.map_err(|(t, i)| TrialFailure::NonFinite(t, i))?;
            return match first_non_finite(&self.x_new) {
                Some(i) => Err(TrialFailure::NonFinite(t_new, i)),
                None => Ok(()),
            };
        }
        match self.implicit.as_deref_mut().filter(|_| active) {
            None => rk_trial_step(
                self.tableau,
                system,
                t,
                h,
                t_new,
                buffers,
                &mut stats.function_evaluations,
            )
            .map_err(|(t, i)| TrialFailure::NonFinite(t, i)),
            Some(implicit) => implicit
                .trial_step(system, t, h, t_new, buffers, tolerances, stats)
                .map_err(TrialFailure::from),
        }?;
        match first_non_finite(&self.x_new) {
            Some(i) => Err(TrialFailure::NonFinite(t_new, i)),
            None => Ok(()),
        }
    }

    /// After a rejected trial step ending at (t_new, x_new) of size `h_try`: when a zero-crossing
    /// function fired within it, the next trial ends just past the secant estimate of the crossing
    /// (θ·h_try·1.001) if that is shorter than `h`, the controller's proposal. A step across a kink
    /// of f (a contact's onset) is rejected for the kink's sake, and the controller alone would
    /// need several more rejections to get near it. Costs one evaluation of g.
    pub(super) fn shorten_to_crossing<S: System>(
        &mut self,
        system: &mut S,
        t_new: f64,
        h_try: f64,
        h: f64,
        stats: &mut SolverStats,
    ) -> f64 {
        if self.zc.len() == 0 {
            return h;
        }
        system.zero_crossings(t_new, &self.x_new, &mut self.zc.g_end);
        stats.crossing_evaluations += 1;
        match self.zc.crossing_fraction() {
            Some(theta) => h.min((1.001 * theta * h_try).max(0.01 * h_try)),
            None => h,
        }
    }

    /// The error of a run whose implicit method's Jacobian at `t` needed the dense path above
    /// [`MAX_IMPLICIT_STATES`](crate::solver::MAX_IMPLICIT_STATES) states.
    pub(super) fn dense_refused(&self, t: f64) -> SolverError {
        let method = self.options.stiff_method();
        SolverError::InvalidOptions(dense_refusal(method, self.x.len(), Some(t)))
    }

    /// After an event changed the state: what the method keeps of the dynamics is made again
    /// (an implicit method's Jacobian, RKC's spectral radius, ros34pw2's Jacobian).
    pub(super) fn restart_method(&mut self) {
        if let Some(implicit) = self.implicit.as_deref_mut() {
            implicit.restart();
        }
        if let Some(rkc) = self.rkc.as_deref_mut() {
            rkc.restart();
        }
        if let Some(rosenbrock) = self.rosenbrock.as_deref_mut() {
            rosenbrock.restart();
        }
    }

    /// After a rejected step (error test or non-finite f): RKC estimates its spectral radius
    /// again before the retry; ros34pw2 counts the rejections in a row (`rosenbrock`).
    pub(super) fn method_rejected(&mut self) {
        if let Some(rkc) = self.rkc.as_deref_mut() {
            rkc.rejected();
        }
        if let Some(rosenbrock) = self.rosenbrock.as_deref_mut() {
            rosenbrock.rejected();
        }
    }

    /// After a step of an explicit method or ros34pw2 was accepted with error norm `err_norm`.
    pub(super) fn method_accepted(&mut self, err_norm: f64) {
        if let Some(rkc) = self.rkc.as_deref_mut() {
            rkc.accepted();
        }
        if let Some(rosenbrock) = self.rosenbrock.as_deref_mut() {
            rosenbrock.accepted(err_norm);
        }
    }

    /// After a located crossing that changed no state: a contact opened or closed, so auto's
    /// implicit phase forms its Jacobian again and RKC estimates its spectral radius again
    /// (ros34pw2 keeps its W: `rosenbrock`).
    pub(super) fn restart_after_crossing(&mut self, implicit_active: bool) {
        if self.auto.is_some() && implicit_active {
            self.restart_method();
        } else if let Some(rkc) = self.rkc.as_deref_mut() {
            rkc.restart();
        }
    }

    /// The largest step the method can take stably, when it has one below `max_step` (RKC: at
    /// its most stages; ∞ for the others, whose steps the error control keeps stable).
    pub(super) fn stable_step_limit(&self) -> f64 {
        self.rkc
            .as_deref()
            .map_or(f64::INFINITY, |rkc| rkc.stable_step_limit())
    }
}

impl From<ImplicitFailure> for TrialFailure {
    fn from(e: ImplicitFailure) -> Self {
        match e {
            ImplicitFailure::NonFinite(t, i) => TrialFailure::NonFinite(t, i),
            ImplicitFailure::Newton => TrialFailure::Newton,
            ImplicitFailure::DenseRefused(t) => TrialFailure::DenseRefused(t),
        }
    }
}

/// Why an implicit `method` cannot run n states on the dense path (at time `t`, when a
/// Jacobian there needed it).
pub(super) fn dense_refusal(method: Method, n: usize, t: Option<f64>) -> String {
    let at = t.map_or(String::new(), |t| {
        format!(" at t = {t} (its sparsity pattern is too dense for the sparse LU)")
    });
    format!(
        "method \"{}\" needs a dense {n} × {n} Jacobian and its LU ({:.1} GB) for the model's {n} states{at}; the limit of an implicit method is {MAX_IMPLICIT_STATES} states with a dense Jacobian (a sparse one has no limit): use method = \"dopri5\" (or \"auto\", which stays explicit above it)",
        method.name(),
        17.0 * (n as f64).powi(2) / 1e9
    )
}
