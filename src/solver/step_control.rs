//! Local error norm, PI step-size control and the starting-step heuristic.
//!
//! **Error norm.** For a trial step x → x_new with error estimate err (see `tableau`):
//!
//! ‖err‖ = sqrt( (1/n)·Σᵢ (errᵢ / scᵢ)² ),  scᵢ = abs_tol + rel_tol·max(|xᵢ|, |x_newᵢ|).
//!
//! A step is accepted when ‖err‖ ≤ 1.
//!
//! **PI controller** (Gustafsson; Hairer & Wanner, *Solving ODE I*, Section IV.2, as in DOPRI5):
//! with q the order of the error estimator, α = 1/(q+1) − 0.75·β and β = 0.04,
//! h_new = h · clamp( safety · ‖err‖^(−α) · ‖err_prev‖^β, 1/5, 10 ), safety = 0.9, where err_prev
//! is the norm of the last accepted step (at least 1e-4). After a rejection h_new ≤ h and only the
//! I-part is used: h_new = h · max(1/5, safety·‖err‖^(−1/(q+1))).
//!
//! **Starting step** (Hairer, Nørsett & Wanner, Section II.4, `HINIT`): d₀ = ‖x₀‖, d₁ = ‖f₀‖ in the
//! weighted RMS norm above; h₀ = 0.01·d₀/d₁ (1e-6 when either is below 1e-10); one explicit Euler
//! step gives d₂ = ‖f(t₀+h₀, x₀+h₀f₀) − f₀‖/h₀; h₁ = (0.01/max(d₁, d₂))^(1/p) (p the method's
//! order; max(1e-6, 1e-3·h₀) when both are ≤ 1e-15); h = min(100·h₀, h₁, h_max).

/// The weighted RMS norm of `err` and the index of the component with the largest scaled error.
pub(crate) fn error_norm(
    err: &[f64],
    x: &[f64],
    x_new: &[f64],
    rel_tol: f64,
    abs_tol: f64,
) -> (f64, usize) {
    let mut sum = 0.0;
    let mut worst = (0.0_f64, 0usize);
    for i in 0..err.len() {
        let sc = abs_tol + rel_tol * x[i].abs().max(x_new[i].abs());
        let r = err[i] / sc;
        sum += r * r;
        // NaN compares false: a NaN component is reported as the worst one.
        if r.is_nan() || r.abs() > worst.0 {
            worst = (if r.is_nan() { f64::INFINITY } else { r.abs() }, i);
        }
    }
    let n = err.len().max(1) as f64;
    ((sum / n).sqrt(), worst.1)
}

/// Weighted RMS norm of a vector `v` with weights from `x` only (used by the starting step).
pub(crate) fn weighted_norm(v: &[f64], x: &[f64], rel_tol: f64, abs_tol: f64) -> f64 {
    // Scaled by the largest term before squaring (as Hairer's codes do with their scaled sums),
    // so that terms beyond 1e154 (a state of 1e150, or abs_tol = 1e-300) do not overflow to ∞.
    let term = |i: usize| v[i] / (abs_tol + rel_tol * x[i].abs());
    let largest = (0..v.len()).fold(0.0f64, |m, i| m.max(term(i).abs()));
    if largest == 0.0 || !largest.is_finite() {
        return largest;
    }
    let mut sum = 0.0;
    for i in 0..v.len() {
        let r = term(i) / largest;
        sum += r * r;
    }
    largest * (sum / v.len().max(1) as f64).sqrt()
}

/// Starting-step heuristic. `f0` = f(t0, x0); `f1` = f(t0 + h0, x0 + h0·f0) once `h0` is known
/// (the caller evaluates it between [`initial_step_h0`] and this function).
pub(crate) fn initial_step_h0(d0: f64, d1: f64, h_max: f64) -> f64 {
    let h0 = if d0 < 1e-10 || d1 < 1e-10 {
        1e-6
    } else {
        0.01 * d0 / d1
    };
    h0.min(h_max)
}

/// Second half of the heuristic: `d1` = ‖f0‖, `d2` = ‖f1 − f0‖/h0, `order` of the method.
pub(crate) fn initial_step_final(h0: f64, d1: f64, d2: f64, order: u32, h_max: f64) -> f64 {
    let der = d1.max(d2);
    let h1 = if !der.is_finite() {
        h0
    } else if der <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / der).powf(1.0 / order as f64)
    };
    (100.0 * h0).min(h1).min(h_max)
}

/// PI step-size controller.
#[derive(Clone, Debug)]
pub(crate) struct PiController {
    alpha: f64,
    beta: f64,
    inv_order: f64,
    err_prev: f64,
    /// The RKC paper's predictive variant ([`PiController::rkc`]): the last accepted step (NaN
    /// after a reset); `None` for the PI controller.
    h_prev: Option<f64>,
}

/// The RKC controller's safety factor and its bounds on a step's change (Sommeijer, Shampine &
/// Verwer 1998, the code RKC.f).
const RKC_SAFETY: f64 = 0.8;
const RKC_FAC_MIN: f64 = 0.1;

/// Safety factor on the optimal step.
const SAFETY: f64 = 0.9;
/// Largest step decrease per step (factor 1/5) and increase (factor 10).
const FAC_MIN: f64 = 0.2;
const FAC_MAX: f64 = 10.0;
/// The PI controller's β (Hairer's DOPRI5 default).
const BETA: f64 = 0.04;

impl PiController {
    /// Controller for an error estimator of order `error_order` (q).
    pub(crate) fn new(error_order: u32) -> Self {
        let inv_order = 1.0 / (error_order as f64 + 1.0);
        Self {
            alpha: inv_order - 0.75 * BETA,
            beta: BETA,
            inv_order,
            err_prev: 1e-4,
            h_prev: None,
        }
    }

    /// The step-size controller of the RKC paper (Sommeijer, Shampine & Verwer 1998, §3, for an
    /// error estimate of order 2, O(h³)): after an accepted step h with norm err, following one
    /// of size h_prev with norm err_prev,
    /// h_new = h · clamp(0.8·(h/h_prev)·err_prev^(1/3)/err^(2/3), 0.1, 10) (a predictive,
    /// Gustafsson-type rule), and 0.8·err^(−1/3) in place of the fraction after a reset; after a
    /// rejection h_new = h · max(0.1, 0.8·err^(−1/3)).
    pub(crate) fn rkc() -> Self {
        Self {
            h_prev: Some(f64::NAN),
            ..Self::new(2)
        }
    }

    /// Forgets the history (after an event: the next step is a fresh start).
    pub(crate) fn reset(&mut self) {
        self.err_prev = 1e-4;
        if let Some(h_prev) = self.h_prev.as_mut() {
            *h_prev = f64::NAN;
        }
    }

    /// Step to try after an accepted step of size `h` with error norm `err` (≤ 1).
    pub(crate) fn accept(&mut self, h: f64, err: f64, last_rejected: bool) -> f64 {
        let err = err.max(1e-10);
        if let Some(h_prev) = self.h_prev {
            let fac = if h_prev.is_nan() {
                RKC_SAFETY * err.powf(-self.inv_order)
            } else {
                RKC_SAFETY * (h / h_prev) * self.err_prev.powf(self.inv_order)
                    / err.powf(2.0 * self.inv_order)
            };
            self.h_prev = Some(h);
            self.err_prev = err;
            return h * fac.clamp(RKC_FAC_MIN, FAC_MAX);
        }
        let fac = SAFETY * err.powf(-self.alpha) * self.err_prev.powf(self.beta);
        self.err_prev = err.max(1e-4);
        let mut h_new = h * fac.clamp(FAC_MIN, FAC_MAX);
        if last_rejected {
            h_new = h_new.min(h);
        }
        h_new
    }

    /// Step to retry after a rejected step of size `h` with error norm `err` (> 1 or NaN).
    pub(crate) fn reject(&self, h: f64, err: f64) -> f64 {
        if self.h_prev.is_some() {
            let fac = RKC_SAFETY * err.powf(-self.inv_order);
            return h * if fac.is_nan() {
                RKC_FAC_MIN
            } else {
                fac.clamp(RKC_FAC_MIN, 1.0)
            };
        }
        let fac = if err.is_finite() {
            SAFETY * err.powf(-self.inv_order)
        } else {
            FAC_MIN
        };
        h * fac.clamp(FAC_MIN, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_norm_is_weighted_rms() {
        // sc = 1e-6 + 1e-3·max(|x|,|x_new|): component 0 → 1e-6 + 1e-3·2 = 2.001e-3.
        let (norm, worst) = error_norm(&[2.001e-3, 0.0], &[1.0, 0.0], &[2.0, 0.0], 1e-3, 1e-6);
        assert!((norm - (0.5f64).sqrt()).abs() < 1e-12);
        assert_eq!(worst, 0);
        let (_, worst) = error_norm(&[0.0, f64::NAN], &[1.0, 1.0], &[1.0, 1.0], 1e-3, 1e-6);
        assert_eq!(worst, 1);
    }

    #[test]
    fn controller_limits_and_shape() {
        let mut c = PiController::new(4);
        // Tiny error: growth is capped at 10×.
        assert_eq!(c.accept(1.0, 0.0, false), 10.0);
        // After a rejection the step may not grow.
        assert!(c.accept(1.0, 1e-6, true) <= 1.0);
        // Rejection shrinks, at most 5×.
        assert_eq!(c.reject(1.0, 1e12), 0.2);
        let r = c.reject(1.0, 2.0);
        assert!((r - 0.9 * 2f64.powf(-0.2)).abs() < 1e-15);
        assert_eq!(c.reject(1.0, f64::NAN), 0.2);
    }

    /// The RKC paper's controller: 0.8·err^(−1/3) after a reset, then the predictive rule.
    #[test]
    fn rkc_controller_follows_the_paper() {
        let mut c = PiController::rkc();
        // err = 0.125: 0.8·2 = 1.6.
        assert!((c.accept(1.0, 0.125, false) - 1.6).abs() < 1e-12);
        // h = 2 after h_prev = 1 (err_prev 0.125), err = 0.064: 0.8·2·0.5/0.16 = 5.
        assert!((c.accept(2.0, 0.064, false) - 10.0).abs() < 1e-12);
        // A rejection with err = 8: 0.8/2 = 0.4; a huge one is held at 0.1.
        assert!((c.reject(1.0, 8.0) - 0.4).abs() < 1e-12);
        assert_eq!(c.reject(1.0, 1e30), 0.1);
        assert_eq!(c.reject(1.0, f64::NAN), 0.1);
        c.reset();
        assert!((c.accept(1.0, 0.125, false) - 1.6).abs() < 1e-12);
    }
}
