//! A solver's construction ([`Solver::new`]: every buffer a run needs) and the checks of a
//! run's inputs before it starts.

use super::super::auto::AutoSwitch;
use super::super::crossing_forecast::CrossingForecast;
use super::super::error::SolverError;
use super::super::events::ZeroCrossings;
use super::super::finite::first_non_finite;
use super::super::newton_matrix::MAX_IMPLICIT_STATES;
use super::super::options::{Method, SolverOptions};
use super::super::rkc::Rkc;
use super::super::rosenbrock::Rosenbrock;
use super::super::stall::StallWatch;
use super::super::step_control::PiController;
use super::super::tableau::{Tableau, BS23, DOPRI5, ESDIRK43, RK4, RKC, ROS34PW2_LOOP, TRBDF2};
use super::super::trbdf2::Trbdf2;
use super::super::System;
use super::state::Solver;
use super::step::dense_refusal;

impl Solver {
    /// A solver for systems with `state_dim` states and `zero_crossing_dim` zero-crossing
    /// functions. Validates `options` and allocates every buffer the runs need.
    pub fn new(
        state_dim: usize,
        zero_crossing_dim: usize,
        options: SolverOptions,
    ) -> Result<Self, SolverError> {
        options.validate()?;
        let tableau_of = |method: Method| -> &'static Tableau {
            match method {
                Method::Dopri5 | Method::Auto => &DOPRI5,
                Method::Bs23 => &BS23,
                Method::Rk4 => &RK4,
                Method::Trbdf2 => &TRBDF2,
                Method::Esdirk43 => &ESDIRK43,
                Method::Rkc => &RKC,
                Method::Ros34pw2 => &ROS34PW2_LOOP,
            }
        };
        let tableau = tableau_of(options.method);
        let n = state_dim;
        let named_jacobian = options.method.may_use_jacobian() && options.method != Method::Auto;
        if named_jacobian && n > MAX_IMPLICIT_STATES && !options.sparse_lu {
            // Without the sparse path every Jacobian is dense.
            return Err(SolverError::InvalidOptions(format!(
                "{} (sparse_lu = false)",
                dense_refusal(options.method, n, None)
            )));
        }
        // Auto: the implicit method's buffers up front, and its controller as the spare (none
        // above MAX_IMPLICIT_STATES: auto then runs dopri5 only). A named implicit method is
        // built at any size (its dense buffers only up to the limit, `newton_matrix`).
        let stiff_tableau = tableau_of(options.stiff_method());
        let stiff_fits = n <= MAX_IMPLICIT_STATES || options.method.is_implicit();
        let newton = options.method.is_implicit() || options.method == Method::Auto;
        let implicit = (newton && stiff_fits).then(|| {
            let implicit = Trbdf2::new(n, stiff_tableau).with_sparse_lu(options.sparse_lu);
            Box::new(match options.method {
                Method::Auto => implicit.with_radius_estimate(),
                _ => implicit,
            })
        });
        let auto = (options.method == Method::Auto && stiff_fits)
            .then(|| AutoSwitch::new(PiController::new(stiff_tableau.error_order)));
        let stages = tableau.stages.max(stiff_tableau.stages);
        let stall = StallWatch::new(n, options.max_steps, options.max_wall_time);
        let rkc = (options.method == Method::Rkc)
            .then(|| Box::new(Rkc::new(n, options.rel_tol, options.abs_tol)));
        let rosenbrock = (options.method == Method::Ros34pw2)
            .then(|| Box::new(Rosenbrock::new(n).with_sparse_lu(options.sparse_lu)));
        let controller = match rkc {
            Some(_) => PiController::rkc(),
            None => PiController::new(tableau.error_order),
        };
        Ok(Self {
            controller,
            tableau,
            options,
            x: vec![0.0; n],
            x_new: vec![0.0; n],
            x_stage: vec![0.0; n],
            err: vec![0.0; n],
            k: vec![0.0; (stages + 1) * n],
            k_first_exact: false,
            dense: vec![0.0; n],
            x_interp: vec![0.0; n],
            zc: ZeroCrossings::new(zero_crossing_dim),
            forecast: CrossingForecast::new(zero_crossing_dim),
            implicit,
            rkc,
            rosenbrock,
            auto,
            stall,
            stopped: None,
        })
    }

    /// The options this solver was built with.
    pub fn options(&self) -> &SolverOptions {
        &self.options
    }

    /// The state at the end of the last run (where it stopped, also after an error).
    pub fn state(&self) -> &[f64] {
        &self.x
    }

    pub(super) fn check_inputs<S: System>(
        &self,
        system: &S,
        t0: f64,
        x0: &[f64],
        t_end: f64,
    ) -> Result<(), SolverError> {
        let (n, m) = (self.x.len(), self.zc.len());
        if system.state_dim() != n || x0.len() != n {
            return Err(SolverError::InvalidOptions(format!(
                "state dimension mismatch: solver built for {n}, system has {}, x0 has {}",
                system.state_dim(),
                x0.len()
            )));
        }
        if system.zero_crossing_dim() != m {
            return Err(SolverError::InvalidOptions(format!(
                "zero-crossing dimension mismatch: solver built for {m}, system has {}",
                system.zero_crossing_dim()
            )));
        }
        if !(t0.is_finite() && t_end.is_finite() && t_end >= t0) {
            return Err(SolverError::InvalidOptions(format!(
                "time span must be finite with t_end >= t0, got [{t0}, {t_end}]"
            )));
        }
        if let Some(index) = first_non_finite(x0) {
            return Err(SolverError::NonFinite { t: t0, index });
        }
        self.check_step_limits(t0, t_end)
    }

    /// `max_step` (adaptive methods) and `fixed_step` (fixed-step methods) bound the number of
    /// steps from below by (t_end − t0)/step. A step below the resolution of the times reached
    /// would never move t, and a setting that forces more steps than the step budget
    /// (`max_steps`) would only stall: both are refused before the run starts.
    fn check_step_limits(&self, t0: f64, t_end: f64) -> Result<(), SolverError> {
        let (name, step) = if self.tableau.e.is_some() {
            ("max_step", self.options.max_step)
        } else {
            ("fixed_step", self.options.fixed_step)
        };
        if step <= 0.0 || t_end <= t0 {
            return Ok(());
        }
        let resolution = f64::EPSILON * t0.abs().max(t_end.abs());
        if step <= resolution {
            return Err(SolverError::InvalidOptions(format!(
                "{name} = {step:e} s is below the resolution of t near {t_end} s ({resolution:.1e} s): time would not advance; raise it"
            )));
        }
        let forced = (t_end - t0) / step;
        let max_steps = self.options.max_steps;
        if forced > max_steps as f64 {
            return Err(SolverError::InvalidOptions(format!(
                "{name} = {step:e} s over {} s forces {forced:.2e} steps, more than max_steps = {max_steps}; raise {name}, shorten the run or raise max_steps",
                t_end - t0
            )));
        }
        Ok(())
    }
}
