//! Solver configuration: the integration method and its tolerances.

use super::error::SolverError;

/// The integration method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Dormand–Prince 5(4): explicit, 7 stages (6 evaluations per step thanks to FSAL), local
    /// extrapolation (the 5th-order solution is propagated), 4th-order dense output.
    Dopri5,
    /// Bogacki–Shampine 3(2): explicit, 4 stages (3 evaluations per step, FSAL), cubic Hermite dense output.
    Bs23,
    /// Classical 4th-order Runge–Kutta with the fixed step [`SolverOptions::fixed_step`]; no error
    /// control. Steps are still shortened to land on time events, crossings and the stop time.
    Rk4,
    /// TR-BDF2 (Hosea & Shampine 1996; MATLAB's `ode23tb`): the stiff method. Implicit, L-stable,
    /// one-step, 2nd order with a 3rd-order embedded error estimate; a trapezoidal stage and a
    /// BDF2 stage share one LU of I − h·d·J (J by finite differences, reused across steps);
    /// cubic Hermite dense output. For stiff systems (penalty contact, fast damping), where the
    /// explicit methods' steps are limited by stability rather than accuracy.
    Trbdf2,
    /// ESDIRK 4(3) (Kennedy & Carpenter 2003, the implicit part of `ARK4(3)6L[2]SA`): a second
    /// stiff method. Implicit, L-stable, stiffly accurate, 4th order with a 3rd-order embedded
    /// error estimate; five implicit stages share one LU of I − h·J/4, with TR-BDF2's Newton
    /// iteration, Jacobian reuse and cubic Hermite dense output. Costs more per step than
    /// TR-BDF2 and takes far fewer steps at tight tolerances (rel_tol ≲ 1e-5).
    Esdirk43,
    /// RKC (Sommeijer, Shampine & Verwer 1998): an explicit, 2nd-order, stabilised
    /// Runge–Kutta–Chebyshev method whose number of stages s grows with the step times the
    /// spectral radius ρ of the Jacobian (estimated by a power iteration on f, no Jacobian), so
    /// that its stability interval on the negative real axis, ≈ 0.65·s², covers h·ρ: a stiff
    /// problem whose fast modes are real and damped (diffusion, a regularised friction law) costs
    /// √ρ evaluations per unit time instead of ρ. The paper's error estimate and controller;
    /// cubic Hermite dense output. Loses to dopri5 on oscillatory or non-stiff problems (see
    /// docs/solver.md).
    Rkc,
    /// ROS34PW2 (Rang & Angermann 2005): a linearly implicit Rosenbrock W-method, 3rd order with
    /// a 2nd-order embedded estimate, L-stable and stiffly accurate. Each step takes 4
    /// evaluations of f and 4 solves with one LU of I − h·γ·W, no Newton iteration; W is a
    /// difference Jacobian (column groups and sparse LU as the implicit methods) kept over many
    /// steps, which a W-method allows without losing its order (`rosenbrock`). Cubic Hermite
    /// dense output. For stiff problems at moderate tolerances where TR-BDF2's second order
    /// holds its steps (see docs/solver.md).
    Ros34pw2,
    /// Stiffness detection and switching (`auto`, module `auto`): starts with [`Method::Dopri5`],
    /// switches to an L-stable implicit method ([`SolverOptions::stiff_method`]: TR-BDF2 at loose
    /// tolerances, ESDIRK 4(3) at tight ones) while Hairer's test finds dopri5's steps bounded by
    /// its stability, and back to dopri5 when the implicit method's steps times the spectral
    /// radius of its Jacobian fall well inside dopri5's stability region.
    #[default]
    Auto,
}

impl Method {
    /// Every method, in the order of [`Method::NAMES`].
    pub const ALL: [Method; 8] = [
        Method::Dopri5,
        Method::Bs23,
        Method::Rk4,
        Method::Trbdf2,
        Method::Esdirk43,
        Method::Rkc,
        Method::Ros34pw2,
        Method::Auto,
    ];
    /// The name of each method in a model's `[solver] method` (the one list the model reader and
    /// the docs use).
    pub const NAMES: [&'static str; 8] = [
        "dopri5", "bs23", "rk4", "trbdf2", "esdirk43", "rkc", "ros34pw2", "auto",
    ];

    /// The method's name in a model file.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dopri5 => Self::NAMES[0],
            Method::Bs23 => Self::NAMES[1],
            Method::Rk4 => Self::NAMES[2],
            Method::Trbdf2 => Self::NAMES[3],
            Method::Esdirk43 => Self::NAMES[4],
            Method::Rkc => Self::NAMES[5],
            Method::Ros34pw2 => Self::NAMES[6],
            Method::Auto => Self::NAMES[7],
        }
    }

    /// Whether the method is implicit (its stages solved by Newton's iteration with a Jacobian).
    pub fn is_implicit(self) -> bool {
        matches!(self, Method::Trbdf2 | Method::Esdirk43)
    }

    /// Whether a run may form Jacobians: an implicit method, [`Method::Ros34pw2`] (linearly
    /// implicit), or [`Method::Auto`] (whose stiff phases use one). The engine then works out the
    /// Jacobian's sparsity from the wiring.
    pub fn may_use_jacobian(self) -> bool {
        self.is_implicit() || matches!(self, Method::Ros34pw2 | Method::Auto)
    }

    /// The method called `name` in a model file, if any.
    pub fn from_name(name: &str) -> Option<Method> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// How far an explicit method's stability region reaches: a step h is stable for
    /// h·|λ| below about this, for λ on the negative real axis or near the imaginary axis
    /// (the boundary on the negative real axis: dopri5 3.307, bs23 2.513, rk4 2.785; rk4 reaches
    /// 2√2 ≈ 2.83 along the imaginary axis). `None` for the implicit methods and ros34pw2
    /// (L-stable: no bound),
    /// for [`Method::Rkc`] (its interval grows with the stages it takes) and for [`Method::Auto`],
    /// whose explicit phase is dopri5's and which leaves the boundary.
    pub const fn stability_boundary(self) -> Option<f64> {
        match self {
            Method::Dopri5 => Some(3.3),
            Method::Bs23 => Some(2.5),
            Method::Rk4 => Some(2.785),
            Method::Trbdf2 | Method::Esdirk43 | Method::Rkc | Method::Ros34pw2 | Method::Auto => {
                None
            }
        }
    }

    /// The h·|λ| an explicit method's step controller settles at when stability bounds the step:
    /// [`Method::stability_boundary`] less the margin the error controller keeps below it (about
    /// 10 %; dopri5's steps are measured at h·|λ| ≈ 2.9–3.0). It is what the contact advice and
    /// `check`'s work estimate divide by a rate to get a step. `None` where the boundary is.
    pub const fn stable_step_reach(self) -> Option<f64> {
        match self {
            Method::Dopri5 => Some(3.0),
            Method::Bs23 => Some(2.3),
            Method::Rk4 => Some(2.5),
            Method::Trbdf2 | Method::Esdirk43 | Method::Rkc | Method::Ros34pw2 | Method::Auto => {
                None
            }
        }
    }

    /// The h·|λ| the explicit steps this method's advice speaks of settle at when stability
    /// bounds them: [`Method::stable_step_reach`] for an explicit method, dopri5's (3.0) for the
    /// implicit methods and auto (no bound of their own; an advice says what an explicit run
    /// would need, and auto's explicit phase is dopri5's). A rate |λ| (1/s) gives the explicit
    /// step reach/|λ| (s): the contact advice's and `check`'s estimates.
    pub const fn stability_reach(self) -> f64 {
        match self.stable_step_reach() {
            Some(reach) => reach,
            None => match Method::Dopri5.stable_step_reach() {
                Some(reach) => reach,
                None => unreachable!(),
            },
        }
    }
}

/// Options of a [`Solver`](super::Solver). Times in the unit of the system's `t` (seconds in blockdyn).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverOptions {
    /// The integration method (default: [`Method::default`], [`Method::Auto`]).
    pub method: Method,
    /// Relative tolerance of the local error (default 1e-3).
    pub rel_tol: f64,
    /// Absolute tolerance of the local error, in the unit of each state (default 1e-6).
    pub abs_tol: f64,
    /// Largest step. `0.0` means automatic: (t_end − t0) / 50.
    pub max_step: f64,
    /// First step (and the step after each event). `0.0` means automatic: Hairer's starting-step
    /// heuristic (one extra evaluation of f).
    pub initial_step: f64,
    /// Step of [`Method::Rk4`] (default 1e-3).
    pub fixed_step: f64,
    /// Chattering guard: more than this many consecutive events, each within the chattering window
    /// of the previous one, is an error (default 1000). See the `events` module.
    pub max_consecutive_events: usize,
    /// Step budget of one run: trial steps (accepted and rejected) that a run may take, and the
    /// projection the stall detection compares against (default [`DEFAULT_MAX_STEPS`]). A run
    /// whose recent step rate projects past it stops with [`SolverError::Stalled`]; a `max_step`
    /// or `fixed_step` that alone forces more steps is refused before the run. See `stall`.
    pub max_steps: u64,
    /// Wall-clock budget of one run in seconds; `0.0` (the default) means none. A run whose
    /// elapsed time, or its recent pace projected to the stop time, passes it stops with
    /// [`SolverError::Stalled`]. Off by default: a limit in seconds makes the same model succeed
    /// on one machine and fail on a slower one, which the step budget never does.
    pub max_wall_time: f64,
    /// Integrate independent islands of bodies separately (default false): read by the run loop
    /// (`sim::islands`), not by the solver itself. Each island gets its own solver, with these
    /// options, between synchronisations; see docs/solver.md, "Islands".
    pub islands: bool,
    /// Implicit methods factor the Newton matrix I − h·d·J with a sparse LU when the system's
    /// Jacobian pattern is large and sparse enough (`trbdf2`: at least 128 states, at most 1/8 of
    /// the entries, the factors' fill at most 1/4); false keeps the dense LU always (default
    /// true). The two give the same Newton solutions to rounding.
    pub sparse_lu: bool,
}

/// The default step budget: ten million trial steps, a few minutes for a mechanism with contact
/// and far beyond what the example models need (the longest takes about 1e5).
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

impl Default for SolverOptions {
    fn default() -> Self {
        Self {
            method: Method::default(),
            rel_tol: 1e-3,
            abs_tol: 1e-6,
            max_step: 0.0,
            initial_step: 0.0,
            fixed_step: 1e-3,
            max_consecutive_events: 1000,
            max_steps: DEFAULT_MAX_STEPS,
            max_wall_time: 0.0,
            islands: false,
            sparse_lu: true,
        }
    }
}

/// [`Method::Auto`] takes [`Method::Esdirk43`] for its stiff phases at `rel_tol` at or below
/// this, [`Method::Trbdf2`] above (measured in docs/solver.md, "`auto`").
pub const AUTO_ESDIRK43_REL_TOL: f64 = 1e-6;

impl SolverOptions {
    /// The implicit method [`Method::Auto`] uses while the problem is stiff: ESDIRK 4(3) at
    /// rel_tol ≤ [`AUTO_ESDIRK43_REL_TOL`] (4th order: far fewer steps at tight tolerances),
    /// TR-BDF2 above (2nd order, cheaper steps). For the other methods, the method itself.
    pub fn stiff_method(&self) -> Method {
        match self.method {
            Method::Auto if self.rel_tol <= AUTO_ESDIRK43_REL_TOL => Method::Esdirk43,
            Method::Auto => Method::Trbdf2,
            m => m,
        }
    }

    /// Checks every field; the message names the offending field and value.
    pub fn validate(&self) -> Result<(), SolverError> {
        let bad = |name: &str, rule: &str, value: f64| {
            Err(SolverError::InvalidOptions(format!(
                "{name} must be {rule}, got {value}"
            )))
        };
        for (name, value) in [("rel_tol", self.rel_tol), ("abs_tol", self.abs_tol)] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(name, "finite and >= 0", value);
            }
        }
        if self.rel_tol == 0.0 && self.abs_tol == 0.0 {
            return Err(SolverError::InvalidOptions(
                "rel_tol and abs_tol are both 0: the error norm would divide by zero".into(),
            ));
        }
        if self.rel_tol > 0.0 && self.rel_tol < 10.0 * f64::EPSILON {
            return Err(SolverError::InvalidOptions(format!(
                "rel_tol = {:e} is below 10·machine epsilon ({:.1e}): unreachable",
                self.rel_tol,
                10.0 * f64::EPSILON
            )));
        }
        for (name, value) in [
            ("max_step", self.max_step),
            ("initial_step", self.initial_step),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(name, "finite and >= 0 (0 = automatic)", value);
            }
        }
        if !(self.fixed_step.is_finite() && self.fixed_step > 0.0) {
            return bad("fixed_step", "finite and > 0", self.fixed_step);
        }
        if self.max_steps == 0 {
            return Err(SolverError::InvalidOptions(
                "max_steps must be >= 1, got 0".into(),
            ));
        }
        if !(self.max_wall_time.is_finite() && self.max_wall_time >= 0.0) {
            return bad(
                "max_wall_time",
                "finite and >= 0 (0 = none)",
                self.max_wall_time,
            );
        }
        if self.max_consecutive_events == 0 {
            return Err(SolverError::InvalidOptions(
                "max_consecutive_events must be >= 1, got 0".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reach an advice divides a rate by: the explicit method's own, inside its stability
    /// region (below the boundary on the negative real axis: dopri5 3.307, bs23 2.513, rk4 2.785,
    /// the classical values), and dopri5's for a method without a bound.
    #[test]
    fn stability_reach_is_the_explicit_reach_inside_the_region() {
        for m in Method::ALL {
            let reach = m.stability_reach();
            match (m.stable_step_reach(), m.stability_boundary()) {
                (Some(own), Some(boundary)) => {
                    assert_eq!(reach, own, "{m:?}");
                    assert!(reach < boundary, "{m:?}: {reach} ≥ {boundary}");
                }
                (None, None) => assert_eq!(reach, 3.0, "{m:?} takes dopri5's"),
                other => panic!("{m:?}: reach and boundary disagree on explicitness: {other:?}"),
            }
        }
    }

    #[test]
    fn defaults_are_valid_and_as_documented() {
        let o = SolverOptions::default();
        assert_eq!(o.method, Method::Auto);
        assert_eq!((o.rel_tol, o.abs_tol, o.fixed_step), (1e-3, 1e-6, 1e-3));
        assert_eq!(o.max_consecutive_events, 1000);
        assert_eq!((o.max_steps, o.max_wall_time), (10_000_000, 0.0));
        assert!(o.validate().is_ok());
    }

    #[test]
    fn names_round_trip() {
        for (m, name) in Method::ALL.into_iter().zip(Method::NAMES) {
            assert_eq!(m.name(), name);
            assert_eq!(Method::from_name(name), Some(m));
        }
        assert_eq!(Method::from_name("ode45"), None);
    }

    #[test]
    fn invalid_fields_are_named() {
        let cases = [
            SolverOptions {
                rel_tol: -1.0,
                ..Default::default()
            },
            SolverOptions {
                abs_tol: f64::NAN,
                ..Default::default()
            },
            SolverOptions {
                rel_tol: 0.0,
                abs_tol: 0.0,
                ..Default::default()
            },
            SolverOptions {
                max_step: -0.1,
                ..Default::default()
            },
            SolverOptions {
                fixed_step: 0.0,
                ..Default::default()
            },
            SolverOptions {
                max_consecutive_events: 0,
                ..Default::default()
            },
            SolverOptions {
                max_steps: 0,
                ..Default::default()
            },
            SolverOptions {
                max_wall_time: -1.0,
                ..Default::default()
            },
        ];
        for o in cases {
            match o.validate() {
                Err(SolverError::InvalidOptions(msg)) => assert!(!msg.is_empty()),
                other => panic!("expected InvalidOptions for {o:?}, got {other:?}"),
            }
        }
    }
}
