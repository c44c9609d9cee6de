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
//! w keeps the order (it is part of W); a good one keeps a stiff system tracking a moving input
//! (y′ = −λ·(y − sin t), tested).
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
use super::iteration_matrix::{ImplicitFailure, IterationMatrix, JacobianState};
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
    /// f(t, x) afresh for the Jacobian, and the difference quotients' work buffers.
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
    /// error estimate into `err` and f(t_new, x_new) into stage slot 1.
    pub(crate) fn trial_step<S2: System>(
        &mut self,
        system: &mut S2,
        (t, h, t_new): (f64, f64, f64),
        buf: StepBuffers<'_>,
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
        if self.jac_state == JacobianState::Missing {
            self.form_jacobian(system, t, x, x_stage, stats)?;
        }
        let ratio = h / self.h_lu;
        if !(LU_BAND_LOW..=LU_BAND_HIGH).contains(&ratio) {
            self.h_lu = f64::NAN;
            self.linear.factor(h * self.coeffs.gamma, stats)?;
            self.h_lu = h;
        }
        let (f_start, rest) = k.split_at_mut(n);
        let f_end = &mut rest[..n];
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

    /// J and w at (t, x) (see the module documentation); M must then be factored again.
    fn form_jacobian<S2: System>(
        &mut self,
        system: &mut S2,
        t: f64,
        x: &[f64],
        x_stage: &mut [f64],
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        let work = FdWork {
            x_pert: x_stage,
            f_pert: &mut self.f_pert,
            delta: &mut self.delta,
        };
        self.linear
            .form_jacobian(system, (t, x), &mut self.f_0, work, stats)?;
        let t_pert = t + (f64::EPSILON * t.abs().max(1e-5)).sqrt();
        let dt = t_pert - t;
        if system.next_time_event(t).is_some_and(|te| te <= t_pert) {
            self.f_t.fill(0.0);
        } else {
            let evaluations = &mut stats.function_evaluations;
            checked_derivatives(system, (t_pert, x), &mut self.f_t, evaluations)
                .map_err(|(t, i)| ImplicitFailure::NonFinite(t, i))?;
            for (ft, f0) in self.f_t.iter_mut().zip(&self.f_0) {
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

    /// Fixed steps of size h to t = 1 with W from `jacobian(y)` set at every step start and
    /// w = cos t (exact ∂f/∂t: (0, cos t)) scaled by `w_scale`; the final state.
    fn fixed_steps(h: f64, jacobian: &dyn Fn(&[f64]) -> [f64; 4], w_scale: f64) -> [f64; 2] {
        let mut system = FnSystem::new(2, f);
        let mut ros = Rosenbrock::new(2);
        let steps = (1.0 / h).round() as usize;
        let (mut t, mut y) = (0.0f64, [1.0, 0.5]);
        let (mut k, mut x_stage, mut x_new, mut err) = ([0.0; 4], [0.0; 2], [0.0; 2], [0.0; 2]);
        let mut stats = SolverStats::default();
        for _ in 0..steps {
            ros.linear.newton.jac_mut().copy_from_slice(&jacobian(&y));
            ros.f_t.copy_from_slice(&[0.0, w_scale * t.cos()]);
            ros.jac_state = JacobianState::Current;
            ros.h_lu = f64::NAN;
            system.derivatives(t, &y, &mut k[..2]);
            let buf = StepBuffers {
                x: &y,
                k: &mut k,
                x_stage: &mut x_stage,
                x_new: &mut x_new,
                err: &mut err,
            };
            ros.trial_step(&mut system, (t, h, t + h), buf, &mut stats)
                .unwrap();
            y = x_new;
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
}
