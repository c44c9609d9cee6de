//! RKC: the second-order Runge–Kutta–Chebyshev method (B. P. Sommeijer, L. F. Shampine,
//! J. G. Verwer, "RKC: an explicit solver for parabolic PDEs", J. Comput. Appl. Math. 88 (1998)
//! 315–326; J. G. Verwer, W. H. Hundsdorfer, B. P. Sommeijer, Numer. Math. 57 (1990) 157–178).
//!
//! An explicit method for problems whose Jacobian has its eigenvalues near the negative real
//! axis (diffusion, strongly damped modes such as a regularised friction law): each step takes
//! s stages, where s grows with h·ρ (ρ the spectral radius of ∂f/∂x), and the stability interval
//! on the negative real axis grows as β(s) ≈ 0.653·(s² − 1). A step stable for h·ρ thus costs
//! about √(1.54·h·ρ) evaluations: over a fixed interval the cost grows as √ρ, not as ρ (an
//! ordinary explicit method needs h·ρ ≲ 3).
//!
//! **One step** (y_n, f_n = f(t_n, y_n)) → y_{n+1}, with the damped Chebyshev stages of
//! [`ChebyshevStages`]:
//!
//! ```text
//! Y₀ = y_n,   Y₁ = Y₀ + μ̃₁·h·f_n,
//! Yⱼ = (1 − μⱼ − νⱼ)·Y₀ + μⱼ·Yⱼ₋₁ + νⱼ·Yⱼ₋₂ + μ̃ⱼ·h·f(t_n + cⱼ₋₁h, Yⱼ₋₁) + γ̃ⱼ·h·f_n   (j = 2..s),
//! y_{n+1} = Y_s.
//! ```
//!
//! **s** = 1 + ⌊√(1 + 1.54·h·ρ)⌋ (at least 2, at most s_max: round-off grows as s²,
//! so s ≤ √(tol/(10·ε)) as in the paper's code, with tol = max(rel_tol, abs_tol) and s_max ≥ 3,
//! see [`max_stages_for`]); the step is capped at the top of s_max's band
//! ([`Rkc::stable_step_limit`]).
//!
//! **ρ** by the paper's nonlinear power iteration on f (no Jacobian): v is pushed to
//! y_n + δ·(f(v) − f_n)/‖f(v) − f_n‖ with δ = √ε·‖y_n‖ until the ratio ‖f(v) − f_n‖/δ settles to
//! 1 %; ρ = 1.2 × that ratio. It starts from the last direction found (a few evaluations once
//! warm) and is repeated every [`RADIUS_EVERY`] kept steps, after a rejected step (error test
//! or non-finite f; not after a step redone to end before a crossing) and after every located
//! crossing (a contact opening or closing changes ρ).
//!
//! **Error estimate** (the paper's): err = 0.8·(y_n − y_{n+1}) + 0.4·h·(f_n + f_{n+1}), which is
//! O(h³) (estimator order 2), in the solver's weighted RMS norm. f_{n+1} = f(t_{n+1}, y_{n+1}) is
//! the next step's f_n (FSAL) and, with f_n, the end slopes of the cubic Hermite dense output
//! (event location as for the other methods). The step size follows the paper's predictive
//! controller (`step_control`, [`PiController::rkc`](super::step_control::PiController::rkc)).

use super::finite::first_non_finite;
use super::rk_step::StepBuffers;
use super::System;

/// Accepted steps between two estimates of the spectral radius (the paper's code: 25).
pub(crate) const RADIUS_EVERY: usize = 25;

/// The damping of the Chebyshev stages, ε = 2/13 (the paper's choice): the stability polynomial
/// stays below 1 − ε/3 in modulus inside the interval, so that the stages are damped and the
/// region holds a strip around the negative real axis, at a cost of about 2 % of β(s).
const DAMPING: f64 = 2.0 / 13.0;

/// The most iterations of the power iteration (the paper's code: 50, which then fails). When it
/// does not settle (a complex dominant pair, a kink of f within the perturbation) the last ratio
/// is taken, not the largest seen: the first iterates' ratio across a contact's onset or a
/// friction law's kink reached 3.7e11 s⁻¹ on models/dominoes.toml (true ρ ≈ 1e4), and the
/// largest made that run take 660,079 evaluations against 219,050 with the last.
const RADIUS_ITERATIONS: usize = 50;

/// The coefficients of one stage j ≥ 1 of a damped Chebyshev step of s stages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stage {
    /// μⱼ: weight of Yⱼ₋₁.
    pub mu: f64,
    /// νⱼ: weight of Yⱼ₋₂.
    pub nu: f64,
    /// μ̃ⱼ: weight of h·f(Yⱼ₋₁).
    pub mu_tilde: f64,
    /// γ̃ⱼ: weight of h·f(Y₀).
    pub gamma_tilde: f64,
    /// cⱼ₋₁: the time of Yⱼ₋₁ as a fraction of the step (the time f(Yⱼ₋₁) is evaluated at).
    pub c_prev: f64,
    /// cⱼ: the time of Yⱼ (cₛ = 1 up to rounding).
    pub c: f64,
}

/// The damped Chebyshev stages of an s-stage RKC step, computed by recurrence (no table, no
/// allocation: one [`Stage`] per call of `next`, j = 1..s).
///
/// With Tⱼ the Chebyshev polynomials of the first kind (T₀ = 1, T₁ = x,
/// Tⱼ = 2x·Tⱼ₋₁ − Tⱼ₋₂), the stability polynomial is Pₛ(z) = aₛ + bₛ·Tₛ(w₀ + w₁z), with
///
/// ```text
/// w₀ = 1 + ε/s²,   w₁ = T′ₛ(w₀)/T″ₛ(w₀),
/// bⱼ = T″ⱼ(w₀)/T′ⱼ(w₀)²  (j ≥ 2),   b₀ = b₁ = b₂,   aⱼ = 1 − bⱼ·Tⱼ(w₀),
/// μ̃₁ = b₁·w₁,
/// μⱼ = 2w₀·bⱼ/bⱼ₋₁,   νⱼ = −bⱼ/bⱼ₋₂,   μ̃ⱼ = 2w₁·bⱼ/bⱼ₋₁ = μⱼ·w₁/w₀,   γ̃ⱼ = −aⱼ₋₁·μ̃ⱼ,
/// c₁ = μ̃₁,   cⱼ = μⱼ·cⱼ₋₁ + νⱼ·cⱼ₋₂ + μ̃ⱼ + γ̃ⱼ   (c₀ = 0),
/// ```
///
/// which makes every stage Yⱼ second-order consistent at t + cⱼh and the step second order
/// (Verwer, Hundsdorfer & Sommeijer 1990; the formulas of the RKC paper, eq. (2.2)–(2.6)).
/// Tⱼ(w₀), T′ⱼ(w₀), T″ⱼ(w₀) follow from differentiating the three-term recurrence:
/// T′ⱼ = 2x·T′ⱼ₋₁ − T′ⱼ₋₂ + 2Tⱼ₋₁, T″ⱼ = 2x·T″ⱼ₋₁ − T″ⱼ₋₂ + 4T′ⱼ₋₁. T′ₛ/T″ₛ at w₀ is computed in
/// closed form through T = cosh(s·acosh x) (the paper's code does the same).
#[derive(Clone, Debug)]
pub(crate) struct ChebyshevStages {
    s: usize,
    j: usize,
    w0: f64,
    w1: f64,
    /// (Tⱼ₋₁, Tⱼ₋₂), their first and second derivatives at w₀.
    z: (f64, f64),
    dz: (f64, f64),
    d2z: (f64, f64),
    /// (bⱼ₋₁, bⱼ₋₂).
    b: (f64, f64),
    /// (cⱼ₋₁, cⱼ₋₂).
    c: (f64, f64),
}

impl ChebyshevStages {
    /// The stages of an s-stage step (s ≥ 2).
    pub(crate) fn new(s: usize) -> Self {
        assert!(s >= 2, "an RKC step has at least 2 stages, got {s}");
        let sf = s as f64;
        let w0 = 1.0 + DAMPING / (sf * sf);
        let root = (w0 * w0 - 1.0).sqrt();
        let arg = sf * (w0 + root).ln();
        // T′ₛ(w₀)/T″ₛ(w₀) with T = cosh(s·acosh x): T′ = s·sinh/√(x²−1),
        // T″ = s·(s·cosh·√(x²−1) − x·sinh)/(x²−1)^(3/2).
        let w1 = arg.sinh() * (w0 * w0 - 1.0) / (arg.cosh() * sf * root - w0 * arg.sinh());
        let b2 = 1.0 / (4.0 * w0 * w0);
        Self {
            s,
            j: 0,
            w0,
            w1,
            z: (w0, 1.0),
            dz: (1.0, 0.0),
            d2z: (0.0, 0.0),
            b: (b2, b2),
            c: (0.0, 0.0),
        }
    }
}

impl Iterator for ChebyshevStages {
    type Item = Stage;

    fn next(&mut self) -> Option<Stage> {
        if self.j >= self.s {
            return None;
        }
        self.j += 1;
        let w0 = self.w0;
        if self.j == 1 {
            // Y₁ = Y₀ + μ̃₁·h·f₀ with μ̃₁ = b₁·w₁ (b₁ = b₂).
            let mu_tilde = self.b.0 * self.w1;
            self.c = (mu_tilde, 0.0);
            return Some(Stage {
                mu: 0.0,
                nu: 0.0,
                mu_tilde,
                gamma_tilde: 0.0,
                c_prev: 0.0,
                c: mu_tilde,
            });
        }
        let (z1, z2) = self.z;
        let (dz1, dz2) = self.dz;
        let (d2z1, d2z2) = self.d2z;
        let (b1, b2) = self.b;
        let zj = 2.0 * w0 * z1 - z2;
        let dzj = 2.0 * w0 * dz1 - dz2 + 2.0 * z1;
        let d2zj = 2.0 * w0 * d2z1 - d2z2 + 4.0 * dz1;
        let bj = d2zj / (dzj * dzj);
        let a_prev = 1.0 - z1 * b1;
        let mu = 2.0 * w0 * bj / b1;
        let nu = -bj / b2;
        let mu_tilde = mu * self.w1 / w0;
        let gamma_tilde = -a_prev * mu_tilde;
        let (c1, c2) = self.c;
        let cj = mu * c1 + nu * c2 + mu_tilde + gamma_tilde;
        self.z = (zj, z1);
        self.dz = (dzj, dz1);
        self.d2z = (d2zj, d2z1);
        self.b = (bj, b1);
        self.c = (cj, c1);
        Some(Stage {
            mu,
            nu,
            mu_tilde,
            gamma_tilde,
            c_prev: c1,
            c: cj,
        })
    }
}

/// The stages needed for a stable step h·ρ: 1 + ⌊√(1 + 1.54·h·ρ)⌋, at least 2 (the paper's
/// choice: β(s) ≈ 0.653·(s² − 1) then exceeds h·ρ with a margin).
pub(crate) fn stages_for(h_rho: f64) -> usize {
    let s = 1.0 + (1.0 + 1.54 * h_rho.max(0.0)).sqrt().floor();
    if s.is_finite() {
        (s as usize).max(2)
    } else {
        usize::MAX
    }
}

/// The most stages a step may take at tolerances (`rel_tol`, `abs_tol`): √(tol/(10·ε)) with
/// tol = max(rel_tol, abs_tol), at least 3.
///
/// The paper's code takes √(rel_tol/(10·ε)): the round-off of s stages grows as s²·ε relative
/// to the state, and must stay a tenth of the tolerance. rel_tol may be 0 (or below 2e-14) when
/// abs_tol > 0, which gave s_max = 2 and, with the cap taken from s_max − 1, a step cap of 0
/// (`TimeDoesNotAdvance`). Then abs_tol stands for the accuracy asked at the state's unit scale
/// (the scale the models' SI units give): max(rel_tol, abs_tol) is the effective relative
/// tolerance. At least 3, so that the cap h·ρ ≤ (s_max² − 1)/1.54 is at least 5.2 (an ordinary
/// explicit method's reach), never 0.
pub(crate) fn max_stages_for(rel_tol: f64, abs_tol: f64) -> usize {
    let tol = rel_tol.max(abs_tol);
    let s = (tol / (10.0 * f64::EPSILON)).sqrt().floor();
    if s.is_finite() {
        (s as usize).max(3)
    } else {
        3
    }
}

/// RKC's state between steps: the spectral radius, the power iteration's direction and the
/// stage buffers (all sized by [`Rkc::new`]; a step allocates nothing). Cloned into a
/// checkpoint, so that a resumed run estimates ρ when the uninterrupted one does.
#[derive(Clone, Debug)]
pub(crate) struct Rkc {
    /// Yⱼ₋₂, Yⱼ₋₁ and the stage being formed (rotated by swapping).
    y_jm2: Vec<f64>,
    y_jm1: Vec<f64>,
    y_j: Vec<f64>,
    /// f(Yⱼ₋₁), and f(v) in the power iteration.
    f_stage: Vec<f64>,
    /// The power iteration's last direction v − y_n (warm start).
    direction: Vec<f64>,
    /// The spectral radius estimate ρ (1/s); NaN before the first estimate.
    radius: f64,
    /// Kept steps since ρ was estimated.
    steps_since_radius: usize,
    /// ρ must be estimated before the next step (a run's start, a crossing, a rejected step, or
    /// no finite iterate in the last estimate).
    stale: bool,
    /// The most stages a step may take ([`max_stages_for`]).
    max_stages: usize,
    /// The stages of the last trial step.
    last_stages: usize,
    /// Evaluations of f spent on the power iteration.
    radius_evaluations: usize,
}

impl Rkc {
    /// RKC's buffers for n states at tolerances `rel_tol`, `abs_tol`.
    pub(crate) fn new(n: usize, rel_tol: f64, abs_tol: f64) -> Self {
        let max_stages = max_stages_for(rel_tol, abs_tol);
        Self {
            y_jm2: vec![0.0; n],
            y_jm1: vec![0.0; n],
            y_j: vec![0.0; n],
            f_stage: vec![0.0; n],
            direction: vec![0.0; n],
            radius: f64::NAN,
            steps_since_radius: 0,
            stale: true,
            max_stages,
            last_stages: 0,
            radius_evaluations: 0,
        }
    }

    /// The spectral radius last estimated (1/s); NaN before the first.
    #[cfg(test)]
    pub(crate) fn spectral_radius(&self) -> f64 {
        self.radius
    }

    /// The stages of the last trial step.
    pub(crate) fn last_stages(&self) -> usize {
        self.last_stages
    }

    /// Evaluations of f spent on estimating ρ so far.
    pub(crate) fn radius_evaluations(&self) -> usize {
        self.radius_evaluations
    }

    /// After a crossing, an event that changed the state, or at a run's start: ρ is estimated
    /// again before the next step (the last direction is kept as the start).
    pub(crate) fn restart(&mut self) {
        self.stale = true;
    }

    /// A step rejected by the error test or for a non-finite f: ρ may be too small, and is
    /// estimated again before the retry (the paper's code does so after a rejection).
    pub(crate) fn rejected(&mut self) {
        self.stale = true;
    }

    /// An accepted step (by the error test).
    pub(crate) fn accepted(&mut self) {
        self.steps_since_radius += 1;
    }

    /// The accepted step is discarded, to be redone shorter from the same start (it straddled a
    /// crossing): it does not count towards [`RADIUS_EVERY`], and ρ is not estimated again.
    pub(crate) fn discarded(&mut self) {
        self.steps_since_radius = self.steps_since_radius.saturating_sub(1);
    }

    /// The largest step that s_max keeps stable at the last ρ (∞ before the first
    /// estimate): h·ρ ≤ (s_max² − 1)/1.54·(1 − 1e-12), the top of the band where
    /// [`stages_for`] gives s_max (the paper's code caps h at (s_max² − 1)/(1.54·ρ); the factor
    /// keeps ⌊√(1 + 1.54·h·ρ)⌋ at s_max − 1 despite rounding).
    pub(crate) fn stable_step_limit(&self) -> f64 {
        if self.radius.is_finite() && self.radius > 0.0 {
            let m = self.max_stages as f64;
            (m * m - 1.0) / (1.54 * self.radius) * (1.0 - 1e-12)
        } else {
            f64::INFINITY
        }
    }

    /// One trial step (t, x) → (t_new, x_new) of size h, f(t_new, x_new) into stage slot 1 of
    /// `k` (f(t, x) is in slot 0) and the paper's error estimate into `err`. Returns the stage
    /// time and component of the first non-finite derivative, if any.
    pub(crate) fn trial_step<S: System>(
        &mut self,
        system: &mut S,
        (t, h, t_new): (f64, f64, f64),
        buf: StepBuffers<'_>,
        evaluations: &mut usize,
    ) -> Result<(), (f64, usize)> {
        let StepBuffers {
            x,
            k,
            x_stage,
            x_new,
            err,
        } = buf;
        let n = x.len();
        let (f_n, rest) = k.split_at_mut(n);
        let f_end = &mut rest[..n];
        if self.stale || self.steps_since_radius >= RADIUS_EVERY {
            let before = *evaluations;
            self.estimate_radius(system, t, x, f_n, x_stage, evaluations);
            self.radius_evaluations += *evaluations - before;
        }
        let s = stages_for(h * self.radius).min(self.max_stages);
        self.last_stages = s;
        self.y_jm2.copy_from_slice(x);
        for stage in ChebyshevStages::new(s) {
            if stage.nu == 0.0 && stage.mu == 0.0 {
                // Y₁ = Y₀ + μ̃₁·h·f₀.
                let hm = h * stage.mu_tilde;
                for i in 0..n {
                    self.y_jm1[i] = x[i] + hm * f_n[i];
                }
                continue;
            }
            let ts = t + stage.c_prev * h;
            system.derivatives(ts, &self.y_jm1, &mut self.f_stage);
            *evaluations += 1;
            if let Some(i) = first_non_finite(&self.f_stage) {
                system.non_finite_derivative(ts, &self.y_jm1);
                return Err((ts, i));
            }
            let Stage {
                mu,
                nu,
                mu_tilde,
                gamma_tilde,
                ..
            } = stage;
            let w0 = 1.0 - mu - nu;
            let (hm, hg) = (h * mu_tilde, h * gamma_tilde);
            for i in 0..n {
                self.y_j[i] = w0 * x[i]
                    + mu * self.y_jm1[i]
                    + nu * self.y_jm2[i]
                    + hm * self.f_stage[i]
                    + hg * f_n[i];
            }
            // (Yⱼ₋₂, Yⱼ₋₁, Yⱼ) ← (Yⱼ₋₁, Yⱼ, spare).
            std::mem::swap(&mut self.y_jm2, &mut self.y_jm1);
            std::mem::swap(&mut self.y_jm1, &mut self.y_j);
        }
        x_new.copy_from_slice(&self.y_jm1);
        system.derivatives(t_new, x_new, f_end);
        *evaluations += 1;
        if let Some(i) = first_non_finite(f_end) {
            system.non_finite_derivative(t_new, x_new);
            return Err((t_new, i));
        }
        for i in 0..n {
            err[i] = 0.8 * (x[i] - x_new[i]) + 0.4 * h * (f_n[i] + f_end[i]);
        }
        Ok(())
    }

    /// The paper's nonlinear power iteration (`rkcrho`): ρ ≈ 1.2·‖f(t, v) − f_n‖/‖v − y_n‖ with
    /// v − y_n the dominant direction, started from the last one (from f_n the first time).
    /// `v` is a scratch buffer of n values. A non-finite f(v) ends the iteration with the last
    /// finite ratio; with none (the first iterate non-finite) ρ stays as it was and stale, to be
    /// estimated again before the next step (a ratio of 0 would let the step grow unbounded).
    fn estimate_radius<S: System>(
        &mut self,
        system: &mut S,
        t: f64,
        y: &[f64],
        f_n: &[f64],
        v: &mut [f64],
        evaluations: &mut usize,
    ) {
        let norm = |a: &[f64]| a.iter().map(|x| x * x).sum::<f64>().sqrt();
        let sqrt_eps = f64::EPSILON.sqrt();
        if self.radius.is_nan() {
            self.direction.copy_from_slice(f_n);
        }
        let y_norm = norm(y);
        let d_norm = norm(&self.direction);
        let delta = if y_norm > 0.0 {
            y_norm * sqrt_eps
        } else {
            f64::EPSILON
        };
        if d_norm > 0.0 {
            for i in 0..y.len() {
                v[i] = y[i] + self.direction[i] * (delta / d_norm);
            }
        } else {
            // No direction yet (f_n = 0): a perturbation of every component.
            for i in 0..y.len() {
                v[i] = y[i] + delta / (y.len() as f64).sqrt();
            }
        }
        let mut sigma = f64::NAN;
        for iteration in 0..RADIUS_ITERATIONS {
            system.derivatives(t, v, &mut self.f_stage);
            *evaluations += 1;
            let df_norm = self
                .f_stage
                .iter()
                .zip(f_n)
                .map(|(f, f0)| (f - f0) * (f - f0))
                .sum::<f64>()
                .sqrt();
            if !df_norm.is_finite() {
                break;
            }
            let sigma_prev = sigma;
            sigma = df_norm / delta;
            // (sigma_prev is NaN on the first iterate: no convergence test then.)
            if iteration >= 1 && (sigma - sigma_prev).abs() <= 0.01 * sigma.max(1e-12) {
                break;
            }
            if df_norm > 0.0 {
                for i in 0..y.len() {
                    v[i] = y[i] + (self.f_stage[i] - f_n[i]) * (delta / df_norm);
                }
            } else {
                // f does not move along v: flip one component (the paper's code).
                let index = iteration % y.len();
                v[index] = y[index] - (v[index] - y[index]);
            }
        }
        for i in 0..y.len() {
            self.direction[i] = v[i] - y[i];
        }
        if sigma.is_nan() {
            return;
        }
        self.radius = 1.2 * sigma;
        self.steps_since_radius = 0;
        self.stale = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stability polynomial of the recurrence, Pₛ(z), evaluated by running the stages on
    /// y' = λy with h·λ = z.
    fn stability(s: usize, z: f64) -> f64 {
        let (y0, mut y1, mut y2) = (1.0, 0.0, 1.0);
        for stage in ChebyshevStages::new(s) {
            if stage.mu == 0.0 && stage.nu == 0.0 {
                y1 = y0 + stage.mu_tilde * z * y0;
                continue;
            }
            let yj = (1.0 - stage.mu - stage.nu) * y0
                + stage.mu * y1
                + stage.nu * y2
                + stage.mu_tilde * z * y1
                + stage.gamma_tilde * z * y0;
            y2 = y1;
            y1 = yj;
        }
        y1
    }

    /// Second order: Pₛ(z) = 1 + z + z²/2 + O(z³) (the defining conditions, independent of s),
    /// and the last stage sits at the step's end (cₛ = 1 to rounding).
    #[test]
    fn stages_are_second_order_and_end_at_the_step_end() {
        for s in [2, 3, 5, 10, 50, 200] {
            for z in [1e-2, -1e-2] {
                let p = stability(s, z);
                let taylor = 1.0 + z + z * z / 2.0;
                // The z³ term is below |z|³ for these s (a bound, not the coefficient).
                assert!(
                    (p - taylor).abs() < 2.0 * z.abs().powi(3),
                    "s = {s}, z = {z}"
                );
            }
            let c_end = ChebyshevStages::new(s).last().unwrap().c;
            assert!((c_end - 1.0).abs() < 1e-12, "s = {s}: c_s = {c_end}");
        }
    }

    /// The stability interval: |Pₛ(z)| ≤ 1 for z ∈ [−β(s), 0] with β(s) ≥ 0.653·(s² − 1)·0.98
    /// (the paper: β(s) ≈ 0.653·s² with ε = 2/13), and inside it the damping keeps
    /// |Pₛ| ≤ 1 − ε/3 away from the origin (checked at the interval's far half).
    #[test]
    fn stability_interval_grows_as_s_squared() {
        for s in [2usize, 4, 10, 40, 100] {
            let beta = 0.98 * 0.653 * ((s * s) as f64 - 1.0);
            for i in 1..=2000 {
                let z = -beta * i as f64 / 2000.0;
                let p = stability(s, z).abs();
                assert!(p <= 1.0 + 1e-12, "s = {s}: |P({z})| = {p}");
                if z < -beta / 2.0 {
                    assert!(p <= 1.0 - DAMPING / 3.0 + 0.01, "s = {s}: |P({z})| = {p}");
                }
            }
            // The choice of s from h·ρ keeps h·ρ inside the interval.
            let h_rho = (((s - 1) * (s - 1)) as f64 - 1.0) / 1.54;
            assert!(stages_for(h_rho) <= s);
        }
    }

    /// The power iteration on a linear f = A·x with A = diag(−1, −100, −1e4): ρ = 1.2·1e4 (the
    /// paper's 20 % margin) to the 1 % convergence test, warm-started the second time (2
    /// evaluations: one to move, one to confirm).
    #[test]
    fn power_iteration_finds_the_dominant_rate() {
        let rates = [-1.0, -100.0, -1e4];
        let mut system = crate::solver::FnSystem::new(3, move |_t, x: &[f64], dx: &mut [f64]| {
            for i in 0..3 {
                dx[i] = rates[i] * x[i];
            }
        });
        let y = [1.0, 1.0, 1.0];
        let f_n = [-1.0, -100.0, -1e4];
        let mut v = [0.0; 3];
        let mut rkc = Rkc::new(3, 1e-4, 1e-8);
        let mut evaluations = 0;
        rkc.estimate_radius(&mut system, 0.0, &y, &f_n, &mut v, &mut evaluations);
        let rho = rkc.spectral_radius();
        assert!((rho / 1.2e4 - 1.0).abs() < 0.02, "ρ = {rho}");
        let first = evaluations;
        rkc.estimate_radius(&mut system, 0.0, &y, &f_n, &mut v, &mut evaluations);
        assert_eq!(evaluations - first, 2);
        assert!((rkc.spectral_radius() / 1.2e4 - 1.0).abs() < 0.02);
    }

    /// The stage cap: s_max ≥ 3 at any tolerance (rel_tol = 0 takes abs_tol's), and the step
    /// cap is the top of s_max's band: h·ρ there takes exactly s_max stages, and is positive.
    #[test]
    fn step_cap_is_the_top_of_the_largest_band() {
        assert_eq!(max_stages_for(0.0, 1e-8), 2122);
        assert_eq!(max_stages_for(1e-4, 1e-6), 212_216);
        assert_eq!(max_stages_for(5e-15, 0.0), 3);
        assert_eq!(max_stages_for(0.0, 1e-14), 3);
        for (rel_tol, abs_tol) in [(0.0, 1e-8), (1e-14, 1e-16), (1e-4, 1e-6)] {
            let mut rkc = Rkc::new(1, rel_tol, abs_tol);
            rkc.radius = 1e4;
            let limit = rkc.stable_step_limit();
            assert!(limit > 0.0, "{rel_tol}, {abs_tol}");
            assert_eq!(stages_for(limit * rkc.radius), rkc.max_stages);
        }
    }

    /// f non-finite off y_n (a perturbation into a region where f is undefined): the first
    /// estimate leaves ρ unknown and stale rather than 0 (which would lift the step cap), and a
    /// later one keeps the ρ it had.
    #[test]
    fn a_non_finite_power_iterate_keeps_rho() {
        let y = [1.0];
        let mut system = crate::solver::FnSystem::new(1, |_t, x: &[f64], dx: &mut [f64]| {
            dx[0] = if x[0] == 1.0 { -1.0 } else { f64::NAN };
        });
        let f_n = [-1.0];
        let mut v = [0.0];
        let mut rkc = Rkc::new(1, 1e-4, 1e-8);
        let mut evaluations = 0;
        rkc.estimate_radius(&mut system, 0.0, &y, &f_n, &mut v, &mut evaluations);
        assert!(rkc.spectral_radius().is_nan());
        assert!(rkc.stale);
        assert_eq!(rkc.stable_step_limit(), f64::INFINITY);
        rkc.radius = 5.0;
        rkc.stale = true;
        rkc.estimate_radius(&mut system, 0.0, &y, &f_n, &mut v, &mut evaluations);
        assert_eq!(rkc.spectral_radius(), 5.0);
    }

    /// A step discarded to be redone shorter does not count towards the next estimate, and
    /// does not ask for one (only a rejection does).
    #[test]
    fn a_discarded_step_is_not_counted() {
        let mut rkc = Rkc::new(1, 1e-4, 1e-8);
        rkc.stale = false;
        for _ in 0..RADIUS_EVERY - 1 {
            rkc.accepted();
        }
        rkc.accepted();
        rkc.discarded();
        assert_eq!(rkc.steps_since_radius, RADIUS_EVERY - 1);
        assert!(!rkc.stale);
        rkc.rejected();
        assert!(rkc.stale);
    }

    #[test]
    fn stage_count_follows_the_paper() {
        assert_eq!(stages_for(0.0), 2);
        assert_eq!(stages_for(1.0), 2);
        // 1 + ⌊√(1 + 1.54·1000)⌋ = 1 + ⌊39.26⌋ = 40.
        assert_eq!(stages_for(1000.0), 40);
        assert_eq!(stages_for(f64::NAN), 2);
    }
}
