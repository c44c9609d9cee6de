//! One trial step of ROS34PW2, a linearly implicit Rosenbrock W-method of order 3 (coefficients
//! and source in `tableau::ros34pw2`), and its policy for the Jacobian and the LU.
//!
//! **Why a W-method.** The pile's dopri5 steps sit at the stability limit h·ρ ≈ 3, with ρ from the
//! regularised friction of loaded contacts (docs/design-notes.md, "A crossing foreseen one step
//! ahead"); TR-BDF2 removes the limit but is of order 2 and solves Newton iterations. A
//! Rosenbrock method replaces Newton by one linear solve per stage with M = I − h·γ·W, and a
//! W-method keeps its order 3 for *any* W (its order conditions hold with W ≠ ∂f/∂x, tested in
//! `tableau::ros34pw2`): one difference Jacobian may serve many steps, and M may be factored for
//! a step h_lu ≠ h (M = I − h_lu·γ·W is the method with W′ = (h_lu/h)·W). W matters only for
//! stability: it must carry the stiff modes. RODAS-type methods (order 4) need the exact
//! Jacobian at every step, which would cost a Jacobian per step.
//!
//! **One step** (stages in the transformed form of Hairer & Wanner (7.25), which needs no
//! product with W), from (t, y) with f₀ = f(t, y) in stage slot 0 (the last step's end: FSAL):
//!
//! ```text
//! Yᵢ = y + Σ_{j<i} aᵢⱼ·uⱼ,   Fᵢ = f(t + αᵢ·h, Yᵢ)   (F₁ = f₀),
//! M·uᵢ = h·γ·(Fᵢ + Σ_{j<i} (cᵢⱼ/h)·uⱼ + h·gᵢ·w),
//! y_new = y + Σ mᵢ·uᵢ,   err = Σ (mᵢ − m̂ᵢ)·uᵢ,
//! ```
//!
//! then f(t + h, y_new) into stage slot 1 (the next step's f₀ and the end slope of the cubic
//! Hermite dense output, located crossings included): 4 evaluations of f, 4 triangular solves.
//!
//! **Non-autonomous f** (the engine's f depends on t through its sources): the method is applied
//! to the autonomised system (y, t)′ = (f, 1), whose W has the column w ≈ ∂f/∂t. w is formed with
//! J, by one forward difference in t (δ = √(ε·max(|t|, 1e-5)), one more evaluation per Jacobian),
//! and is 0 when a time event lies within δ (a source's switch there is a jump, not a slope). Any
//! w keeps the order as h → 0 (it is part of W). In the stiff regime it matters where W differs
//! from ∂f/∂x along the step: with a Jacobian that moves in t, w = 0 costs an order (tested); with
//! W = ∂f/∂x constant (y′ = −λ·(y − cos t) − sin t) both of the method's solutions are independent
//! of w (b and b̂ annihilate its contribution, tested), which is why a moving input alone cannot
//! tell a wrong w.
//!
//! **f(t, x) of the differences.** J's and w's forward differences start from f(t, x): the step
//! start's FSAL slot when it was evaluated at exactly (t, x) (the solver's `k_first_exact`), else
//! (a projection moved x after it, a time event's handlers ran) one evaluation afresh.
//!
//! **Jacobian policy.** J (and w) is formed at a step start: at a run's start, after an event
//! that changed the state ([`Rosenbrock::restart`]), when a step is rejected twice running with a
//! J from an earlier step, when an accepted step's error norm grew more than
//! [`ERROR_GROWTH`]-fold over the last accepted one's (and is above [`ERROR_GROWTH_FLOOR`]), and
//! after [`JACOBIAN_MAX_AGE`] accepted steps (the filtered-estimate trap of `trbdf2`'s
//! `JACOBIAN_MAX_AGE`: M⁻¹ damps the error estimate along the directions W says are stiff; with
//! no age limit the pile at N = 16 took 2.5× the steps). Not after a located crossing that
//! changed no state (a contact opening or closing): on the pile at N = 64 that doubled the
//! Jacobians (2,619 against 1,249, 1.9× the evaluations) for 6 % fewer steps; a W that misses a
//! new contact's stiffness shows in rejections, which the rule above catches.
//!
//! **LU policy.** M is factored for h_lu when J is new or when h/h_lu leaves
//! [[`LU_BAND_LOW`], [`LU_BAND_HIGH`]]: within the band the step uses M as factored.

use super::finite::checked_derivatives;
use super::iteration_matrix::{FStart, ImplicitFailure, IterationMatrix, JacobianState};
use super::jacobian::FdWork;
use super::rk_step::StepBuffers;
use super::tableau::{TransformedStages, ROS34PW2, ROS34PW2_STAGES};
use super::{SolverStats, System};

/// Stages.
const S: usize = ROS34PW2_STAGES;

/// J is formed again after this many accepted steps.
pub(crate) const JACOBIAN_MAX_AGE: usize = 20;
/// J is formed again when an accepted step's error norm exceeds this multiple of the last
/// accepted step's ...
pub(crate) const ERROR_GROWTH: f64 = 10.0;
/// ... and this (below it a growing norm is the controller's margin at work, not a stale W).
pub(crate) const ERROR_GROWTH_FLOOR: f64 = 0.2;
/// M factored for h_lu serves steps h with h/h_lu in [LU_BAND_LOW, LU_BAND_HIGH]: the step
/// sees W′ = (h_lu/h)·W in place of W. The method stays A-stable over the band but is L-stable
/// only at h = h_lu: in the stiff limit its stability function is R(−∞) ≈ −0.40 at the low
/// edge and +0.29 at the high edge (0 at h = h_lu), so a stiff mode loses 60–70 % per step
/// there instead of vanishing. A narrower band ([0.95, 1.053] keeps |R(−∞)| ≤ 0.1) costs more
/// factorisations; not measured on the pile.
pub(crate) const LU_BAND_LOW: f64 = 0.8;
/// See [`LU_BAND_LOW`].
pub(crate) const LU_BAND_HIGH: f64 = 1.25;

/// ROS34PW2's state across steps and its buffers (sized once; a step allocates nothing).
#[derive(Clone, Debug)]
pub(crate) struct Rosenbrock {
    coeffs: TransformedStages,
    linear: IterationMatrix,
    jac_state: JacobianState,
    /// h of the factored M; NaN when M must be factored again.
    h_lu: f64,
    /// w ≈ ∂f/∂t at J's point.
    f_t: Vec<f64>,
    /// f(t, x) afresh for the Jacobian (when the step start's cannot serve), and the difference
    /// quotients' work buffers.
    f_0: Vec<f64>,
    f_pert: Vec<f64>,
    delta: Vec<f64>,
    /// The transformed stages u₁..u₄, S·n.
    u: Vec<f64>,
    /// Accepted steps since J was formed.
    jac_age: usize,
    /// Trial steps rejected in a row.
    rejections: usize,
    /// The last accepted step's error norm (NaN after a restart).
    last_error: f64,
}

impl Rosenbrock {
    /// Buffers for n states.
    pub(crate) fn new(n: usize) -> Self {
        Self {
            coeffs: ROS34PW2.transformed(),
            linear: IterationMatrix::new(n),
            jac_state: JacobianState::Missing,
            h_lu: f64::NAN,
            f_t: vec![0.0; n],
            f_0: vec![0.0; n],
            f_pert: vec![0.0; n],
            delta: vec![0.0; n],
            u: vec![0.0; S * n],
            jac_age: 0,
            rejections: 0,
            last_error: f64::NAN,
        }
    }

    /// Allows (true, the default) or forbids the sparse LU path.
    pub(crate) fn with_sparse_lu(mut self, allowed: bool) -> Self {
        self.linear = self.linear.with_sparse_lu(allowed);
        self
    }

    /// A run starts: J is formed anew and the column groups are asked from the system again.
    pub(crate) fn start_run(&mut self) {
        self.linear.start_run();
        self.restart();
    }

    /// Forgets J (a run starts, or an event changed the state or the modes).
    pub(crate) fn restart(&mut self) {
        self.jac_state = JacobianState::Missing;
        self.h_lu = f64::NAN;
        self.rejections = 0;
        self.last_error = f64::NAN;
    }

    /// A trial step was rejected (error test or non-finite f): the second in a row with a J
    /// from an earlier step start forms J again.
    pub(crate) fn rejected(&mut self) {
        self.rejections += 1;
        if self.rejections >= 2 && self.jac_state == JacobianState::Stale {
            self.jac_state = JacobianState::Missing;
        }
    }

    /// A step was accepted with error norm `err_norm`.
    pub(crate) fn accepted(&mut self, err_norm: f64) {
        self.rejections = 0;
        self.jac_age += 1;
        let worsened = err_norm > ERROR_GROWTH_FLOOR && err_norm > ERROR_GROWTH * self.last_error;
        self.last_error = err_norm;
        if self.jac_age >= JACOBIAN_MAX_AGE || worsened {
            self.jac_state = JacobianState::Missing;
        } else if self.jac_state == JacobianState::Current {
            self.jac_state = JacobianState::Stale;
        }
    }

    /// One trial step (t, x) → (t_new, x_new) of size h with f(t, x) in stage slot 0: x_new, the
    /// error estimate into `err` and f(t_new, x_new) into stage slot 1. `f_start_exact`: slot 0
    /// was evaluated at exactly (t, x) (not carried across a projection or an event), so that a
    /// Jacobian formed here takes it for its f(t, x) instead of evaluating f again.
    pub(crate) fn trial_step<S2: System>(
        &mut self,
        system: &mut S2,
        (t, h, t_new): (f64, f64, f64),
        buf: StepBuffers<'_>,
        f_start_exact: bool,
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        let StepBuffers {
            x,
            k,
            x_stage,
            x_new,
            err,
        } = buf;
        let n = x.len();
        let (f_start, rest) = k.split_at_mut(n);
        let f_end = &mut rest[..n];
        if self.jac_state == JacobianState::Missing {
            let f_start = f_start_exact.then_some(&*f_start);
            self.form_jacobian(system, (t, x, f_start), x_stage, stats)?;
        }
        let ratio = h / self.h_lu;
        if !(LU_BAND_LOW..=LU_BAND_HIGH).contains(&ratio) {
            self.h_lu = f64::NAN;
            self.linear.factor(h * self.coeffs.gamma, stats)?;
            self.h_lu = h;
        }
        for i in 0..S {
            self.stage(system, i, (t, h, t_new), x, f_start, x_stage, stats)?;
        }
        let c = &self.coeffs;
        for idx in 0..n {
            let (mut inc, mut e) = (0.0, 0.0);
            for j in 0..S {
                let uj = self.u[j * n + idx];
                inc += c.m[j] * uj;
                e += c.e[j] * uj;
            }
            x_new[idx] = x[idx] + inc;
            err[idx] = e;
        }
        checked_derivatives(
            system,
            (t_new, x_new),
            f_end,
            &mut stats.function_evaluations,
        )
        .map_err(|(t, i)| ImplicitFailure::NonFinite(t, i))
    }

    /// Stage i: Yᵢ into `x_stage`, Fᵢ = f(t + αᵢh, Yᵢ) (f₀ for i = 0), and uᵢ solved from
    /// M·uᵢ = h·γ·(Fᵢ + Σ_{j<i} (cᵢⱼ/h)·uⱼ + h·gᵢ·w).
    #[allow(clippy::too_many_arguments)]
    fn stage<S2: System>(
        &mut self,
        system: &mut S2,
        i: usize,
        (t, h, t_new): (f64, f64, f64),
        x: &[f64],
        f_start: &[f64],
        x_stage: &mut [f64],
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        let n = x.len();
        let c = &self.coeffs;
        let (done, rest) = self.u.split_at_mut(i * n);
        let u_i = &mut rest[..n];
        if i == 0 {
            u_i.copy_from_slice(f_start);
        } else {
            for idx in 0..n {
                let mut inc = 0.0;
                for j in 0..i {
                    inc += c.a[i][j] * done[j * n + idx];
                }
                x_stage[idx] = x[idx] + inc;
            }
            let ts = if c.alpha_sum[i] == 1.0 {
                t_new
            } else {
                t + c.alpha_sum[i] * h
            };
            checked_derivatives(system, (ts, x_stage), u_i, &mut stats.function_evaluations)
                .map_err(|(t, i)| ImplicitFailure::NonFinite(t, i))?;
        }
        let hg = h * c.gamma;
        let ht = h * c.gamma_sum[i];
        for idx in 0..n {
            let mut r = u_i[idx] + ht * self.f_t[idx];
            for j in 0..i {
                r += c.c[i][j] / h * done[j * n + idx];
            }
            u_i[idx] = hg * r;
        }
        self.linear.solve(u_i);
        Ok(())
    }

    /// J and w at (t, x) (see the module documentation) from f(t, x) given (`f_start`: the step
    /// start's, evaluated there) or evaluated afresh (`None`); M must then be factored again.
    fn form_jacobian<S2: System>(
        &mut self,
        system: &mut S2,
        (t, x, f_start): (f64, &[f64], Option<&[f64]>),
        x_stage: &mut [f64],
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        let work = FdWork {
            x_pert: x_stage,
            f_pert: &mut self.f_pert,
            delta: &mut self.delta,
        };
        let f_0 = match f_start {
            Some(f_start) => {
                let f_0 = FStart::Given(f_start);
                self.linear
                    .form_jacobian(system, (t, x), f_0, work, stats)?;
                f_start
            }
            None => {
                let f_0 = FStart::Evaluate(&mut self.f_0);
                self.linear
                    .form_jacobian(system, (t, x), f_0, work, stats)?;
                &self.f_0
            }
        };
        let t_pert = t + (f64::EPSILON * t.abs().max(1e-5)).sqrt();
        let dt = t_pert - t;
        if system.next_time_event(t).is_some_and(|te| te <= t_pert) {
            self.f_t.fill(0.0);
        } else {
            let evaluations = &mut stats.function_evaluations;
            checked_derivatives(system, (t_pert, x), &mut self.f_t, evaluations)
                .map_err(|(t, i)| ImplicitFailure::NonFinite(t, i))?;
            for (ft, f0) in self.f_t.iter_mut().zip(f_0) {
                *ft = (*ft - f0) / dt;
            }
        }
        self.jac_age = 0;
        self.jac_state = JacobianState::Current;
        self.h_lu = f64::NAN;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::FnSystem;

    /// The Brusselator-like nonlinear pair y₁' = −y₁² + y₂, y₂' = −y₂ + sin t (t enters f, so
    /// w matters too), from (1, 0.5) to t = 1, whose exact Jacobian is [[−2y₁, 1], [0, −1]].
    fn f(t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -y[0] * y[0] + y[1];
        dy[1] = -y[1] + t.sin();
    }

    /// One trial step of `ros` of size h from (t, y) to t_new, f(t, y) in `k`'s slot 0 (J and w
    /// as the caller set them): y_new, with f there in `k`'s slot 1.
    fn trial<S2: System>(
        ros: &mut Rosenbrock,
        system: &mut S2,
        (t, h, t_new): (f64, f64, f64),
        y: &[f64],
        k: &mut [f64],
    ) -> Vec<f64> {
        let n = y.len();
        let (mut x_stage, mut x_new, mut err) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let buf = StepBuffers {
            x: y,
            k,
            x_stage: &mut x_stage,
            x_new: &mut x_new,
            err: &mut err,
        };
        let mut stats = SolverStats::default();
        ros.trial_step(system, (t, h, t_new), buf, true, &mut stats)
            .unwrap();
        x_new
    }

    /// Fixed steps of size h to t = 1 with W from `jacobian(y)` set at every step start and
    /// w = cos t (exact ∂f/∂t: (0, cos t)) scaled by `w_scale`; the final state.
    fn fixed_steps(h: f64, jacobian: &dyn Fn(&[f64]) -> [f64; 4], w_scale: f64) -> [f64; 2] {
        let mut system = FnSystem::new(2, f);
        let mut ros = Rosenbrock::new(2);
        let steps = (1.0 / h).round() as usize;
        let (mut t, mut y) = (0.0f64, [1.0, 0.5]);
        let mut k = [0.0; 4];
        for _ in 0..steps {
            ros.linear.newton.jac_mut().copy_from_slice(&jacobian(&y));
            ros.f_t.copy_from_slice(&[0.0, w_scale * t.cos()]);
            ros.jac_state = JacobianState::Current;
            ros.h_lu = f64::NAN;
            system.derivatives(t, &y, &mut k[..2]);
            let y_new = trial(&mut ros, &mut system, (t, h, t + h), &y, &mut k);
            y.copy_from_slice(&y_new);
            t += h;
        }
        y
    }

    /// Order 3 with the exact Jacobian and with a wrong W (the W-property): W = J + E with
    /// E = [[0.7, −0.4], [0.3, 0.5]] (entries as large as J's), and w = 0 instead of ∂f/∂t.
    /// The reference is the exact-J run at h = 1/640 (its error, about 1e-10 by the observed
    /// constant, is below 1 % of the h = 1/80 error). Each halving divides the error by about
    /// 8: observed orders within 0.35 of 3 on h = 1/10 … 1/80. A method of order 2 for W ≠ J
    /// (a plain Rosenbrock method) would show 2.
    #[test]
    fn order_three_with_the_exact_and_a_wrong_jacobian() {
        let exact_j = |y: &[f64]| [-2.0 * y[0], 1.0, 0.0, -1.0];
        let wrong_j = |y: &[f64]| [-2.0 * y[0] + 0.7, 0.6, 0.3, -0.5];
        let reference = fixed_steps(1.0 / 640.0, &exact_j, 1.0);
        for (name, jac, w_scale) in [
            ("exact J", &exact_j as &dyn Fn(&[f64]) -> [f64; 4], 1.0),
            ("wrong W", &wrong_j, 0.0),
        ] {
            let errors: Vec<f64> = [10.0, 20.0, 40.0, 80.0]
                .iter()
                .map(|steps| {
                    let y = fixed_steps(1.0 / steps, jac, w_scale);
                    (y[0] - reference[0]).hypot(y[1] - reference[1])
                })
                .collect();
            for pair in errors.windows(2) {
                let order = (pair[0] / pair[1]).log2();
                assert!(
                    (order - 3.0).abs() < 0.35,
                    "{name}: errors {errors:?}, order {order}"
                );
            }
        }
    }

    /// x′ = −λ(t)·(x − cos t) − sin t with λ(t) = λ₀·(1 + c·t), whose solution from x(0) = 1 is
    /// x = cos t (Prothero–Robinson's problem; with c = 0 the brief's, λ constant).
    fn prothero_robinson(lambda0: f64, c: f64) -> impl FnMut(f64, &[f64], &mut [f64]) {
        move |t, x, dx| dx[0] = -lambda0 * (1.0 + c * t) * (x[0] - t.cos()) - t.sin()
    }

    /// `steps` fixed steps from x(0) = 1 to t = 1 with J and w formed by the module's
    /// differences at every step start (from the FSAL slot, as the loop does), w set to 0
    /// after forming unless `keep_w`: the final error against cos t.
    fn prothero_robinson_error(lambda0: f64, c: f64, steps: usize, keep_w: bool) -> f64 {
        let mut system = FnSystem::new(1, prothero_robinson(lambda0, c));
        let mut ros = Rosenbrock::new(1);
        let h = 1.0 / steps as f64;
        let (mut t, mut y) = (0.0f64, [1.0]);
        let mut k = [0.0; 2];
        let mut stats = SolverStats::default();
        system.derivatives(t, &y, &mut k[..1]);
        for i in 0..steps {
            let t_new = (i + 1) as f64 * h;
            let start = (t, &y[..], Some(&k[..1]));
            ros.form_jacobian(&mut system, start, &mut [0.0], &mut stats)
                .unwrap();
            if !keep_w {
                ros.f_t[0] = 0.0;
            }
            let y_new = trial(&mut ros, &mut system, (t, h, t_new), &y, &mut k);
            y.copy_from_slice(&y_new);
            k.copy_within(1..2, 0);
            t = t_new;
        }
        (y[0] - t.cos()).abs()
    }

    /// Observed orders log₂(eᵢ/eᵢ₊₁) of errors at halved steps.
    fn orders(errors: &[f64]) -> Vec<f64> {
        errors.windows(2).map(|e| (e[0] / e[1]).log2()).collect()
    }

    /// w, ∂f/∂t's forward difference, is the time derivative of f: at t = 0.7, x = 0.3 on the
    /// moving-λ problem (λ₀ = 1000, c = 1), ∂f/∂t = −λ₀c·(x − cos t) − λ(t)·sin t − cos t
    /// (≈ −317), within the forward difference's own error, δ/2·|∂²f/∂t²| (truncation) plus
    /// 4ε·|f|/δ (f's rounding at both points), δ = √(ε·t): about 7e-5, 2e-7 of |∂f/∂t|. J is
    /// −λ(t) within the same kind of bound in x (∂²f/∂x² = 0: rounding only). Formed from the
    /// FSAL slot it is bit for bit the same and costs one evaluation fewer.
    #[test]
    fn w_is_the_forward_difference_of_f_in_t() {
        let (lambda0, c, t, x) = (1000.0, 1.0, 0.7f64, [0.3]);
        let mut f = prothero_robinson(lambda0, c);
        let mut f_start = [0.0];
        f(t, &x, &mut f_start);
        let exact = -lambda0 * c * (x[0] - t.cos()) - lambda0 * (1.0 + c * t) * t.sin() - t.cos();
        let f_tt = -2.0 * lambda0 * c * t.sin() - lambda0 * (1.0 + c * t) * t.cos() + t.sin();
        let delta = (f64::EPSILON * t).sqrt();
        let bound = delta / 2.0 * f_tt.abs() + 4.0 * f64::EPSILON * f_start[0].abs() / delta;
        let mut formed = Vec::new();
        for given in [None, Some(&f_start[..])] {
            let mut system = FnSystem::new(1, prothero_robinson(lambda0, c));
            let mut ros = Rosenbrock::new(1);
            let mut stats = SolverStats::default();
            ros.form_jacobian(&mut system, (t, &x, given), &mut [0.0], &mut stats)
                .unwrap();
            let w = ros.f_t[0];
            assert!(
                (w - exact).abs() <= bound,
                "w {w}, exact {exact}, bound {bound}"
            );
            let jac = ros.linear.newton.jac_mut()[0];
            let lambda = lambda0 * (1.0 + c * t);
            assert!(
                (jac + lambda).abs() <= 1e-6 * lambda,
                "J {jac}, −λ {}",
                -lambda
            );
            // f afresh, one column, w; or the column and w only.
            let evaluations = if given.is_some() { 2 } else { 3 };
            assert_eq!(stats.function_evaluations, evaluations);
            formed.push((w.to_bits(), jac.to_bits()));
        }
        assert_eq!(formed[0], formed[1]);
    }

    /// The time column w on Prothero–Robinson's problem, fixed steps h = 1/10 … 1/160 to t = 1,
    /// J and w from the differences at every step start.
    /// - λ constant (c = 0): w changes nothing. With W = ∂f/∂x exact and constant, w's
    ///   contribution to the solution and to the estimate is h²·w·bᵀ(I − hλB)⁻¹g, which is
    ///   identically 0 in hλ for ROS34PW2's b and b̂ (B = α + Γ, g the row sums of Γ); so the runs
    ///   with w and with w = 0 agree to rounding (1e-13, against errors of 1e-9 … 1e-5). Order 3
    ///   shows where the problem is not stiff (λ = 1: observed orders 2.96–2.99, within 0.1 of 3);
    ///   at λ = 1000 (hλ = 6 … 100) the errors fall as h² (orders 2.05–2.28, asserted ≥ 1.9), the
    ///   order reduction of Rosenbrock methods on this problem, with or without w.
    /// - λ moving (λ₀ = 1000, c = 1): W, formed at the step start, is not ∂f/∂x at the stages, and
    ///   w carries ∂λ/∂t. With w the observed orders are 3.2–3.4 (asserted within [2.8, 3.7]);
    ///   with w = 0 they fall to 2.2–2.4 (asserted ≤ 2.5) and every error is 50–1000× larger
    ///   (asserted ≥ 30×). A wrong or missing ∂f/∂t difference shows here.
    #[test]
    fn the_time_column_keeps_order_three_where_the_jacobian_moves() {
        let steps = [10, 20, 40, 80, 160];
        let errors = |lambda0: f64, c: f64, keep_w: bool| -> Vec<f64> {
            steps
                .iter()
                .map(|&n| prothero_robinson_error(lambda0, c, n, keep_w))
                .collect()
        };
        for lambda0 in [1.0, 1000.0] {
            let (with_w, without_w) = (errors(lambda0, 0.0, true), errors(lambda0, 0.0, false));
            for (a, b) in with_w.iter().zip(&without_w) {
                assert!(
                    (a - b).abs() <= 1e-13,
                    "λ {lambda0}: {with_w:?} {without_w:?}"
                );
            }
            let observed = orders(&with_w);
            let expected = if lambda0 == 1.0 { 2.9..=3.1 } else { 1.9..=3.1 };
            assert!(
                observed.iter().all(|p| expected.contains(p)),
                "λ {lambda0}: errors {with_w:?}, orders {observed:?}"
            );
        }
        let (with_w, without_w) = (errors(1000.0, 1.0, true), errors(1000.0, 1.0, false));
        let (kept, dropped) = (orders(&with_w), orders(&without_w));
        assert!(
            kept.iter().all(|p| (2.8..=3.7).contains(p)),
            "with w: errors {with_w:?}, orders {kept:?}"
        );
        assert!(
            dropped.iter().all(|&p| p <= 2.5),
            "w = 0: errors {without_w:?}, orders {dropped:?}"
        );
        for (a, b) in with_w.iter().zip(&without_w) {
            assert!(b / a >= 30.0, "with w {with_w:?}, w = 0 {without_w:?}");
        }
    }
}
