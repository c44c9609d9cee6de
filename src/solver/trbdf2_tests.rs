//! The implicit methods (TR-BDF2 and ESDIRK 4(3)) against closed forms and reference solutions
//! (unit tests of `trbdf2`).

use super::problems::{Problem, Robertson, VanDerPol};
use super::{FnSystem, Method, Solver, SolverOptions, SolverStats, System};

/// The implicit methods.
const IMPLICIT: [Method; 2] = [Method::Trbdf2, Method::Esdirk43];

fn options_for(method: Method, rel_tol: f64, abs_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        abs_tol,
        ..Default::default()
    }
}

fn options(rel_tol: f64, abs_tol: f64) -> SolverOptions {
    options_for(Method::Trbdf2, rel_tol, abs_tol)
}

fn run_problem(problem: Problem, options: SolverOptions) -> (f64, SolverStats) {
    let n = problem.dim();
    let (mut x0, mut exact) = (vec![0.0; n], vec![0.0; n]);
    problem.exact(0.0, &mut x0);
    problem.exact(problem.t_end(), &mut exact);
    let mut solver = Solver::new(n, 0, options).unwrap();
    let mut system = problem;
    let stats = solver
        .integrate(&mut system, 0.0, &x0, problem.t_end())
        .unwrap();
    let error = solver
        .state()
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    (error, stats)
}

/// Every shared problem against its closed form. The controller bounds the error per step, so
/// the global error of this 2nd-order method is at most about (number of steps)·rel_tol·|x|:
/// ≤ 3e-5 for the ≤ 3000 steps these take at rel_tol 1e-8 (measured: 6e-6 at worst, the
/// oscillator over ten radians).
#[test]
fn matches_every_closed_form() {
    for problem in Problem::ALL {
        let (error, stats) = run_problem(problem, options(1e-8, 1e-10));
        assert!(error < 3e-5, "{problem:?}: error {error:e}, {stats:?}");
        assert!(stats.jacobian_evaluations >= 1, "{stats:?}");
    }
}

/// ESDIRK 4(3) on the same problems at rel_tol 1e-8: the global error is at most about (number of
/// steps)·rel_tol·|x| (≤ 1e-5 for the few hundred steps these take), and the 4th-order method
/// takes fewer steps than TR-BDF2 on every problem.
#[test]
fn esdirk43_matches_every_closed_form_in_fewer_steps() {
    for problem in Problem::ALL {
        let (error, stats) = run_problem(problem, options_for(Method::Esdirk43, 1e-8, 1e-10));
        assert!(error < 1e-5, "{problem:?}: error {error:e}, {stats:?}");
        let (_, trbdf2) = run_problem(problem, options(1e-8, 1e-10));
        assert!(
            stats.steps < trbdf2.steps,
            "{problem:?}: {stats:?} vs {trbdf2:?}"
        );
    }
}

/// The observed order of `method` on uniform steps `h`: rel_tol = abs_tol = 1e3 accepts every
/// step, so the step is initial_step = max_step = h throughout. The oscillator and the stiff
/// linear problem are linear, so Newton with the difference Jacobian solves each stage to ~1e-8
/// relative at its first iteration: the error is the method's. Halving h must divide it by
/// 2^order (± `slack` in the exponent).
fn assert_observed_order(method: Method, h: [f64; 3], order: f64, slack: f64) {
    for problem in [Problem::HarmonicOscillator, Problem::Chain] {
        let errors: Vec<f64> = h
            .iter()
            .map(|&h| {
                let o = SolverOptions {
                    initial_step: h,
                    max_step: h,
                    ..options_for(method, 1e3, 1e3)
                };
                let (error, stats) = run_problem(problem, o);
                assert_eq!(stats.rejected_steps, 0, "{method:?} {problem:?}");
                error
            })
            .collect();
        for pair in errors.windows(2) {
            let p = (pair[0] / pair[1]).log2();
            assert!(
                (p - order).abs() < slack,
                "{method:?} {problem:?}: order {p} ({errors:?})"
            );
        }
    }
}

#[test]
fn trbdf2_observed_order_is_two() {
    assert_observed_order(Method::Trbdf2, [0.1, 0.05, 0.025], 2.0, 0.3);
}

#[test]
fn esdirk43_observed_order_is_four() {
    assert_observed_order(Method::Esdirk43, [0.2, 0.1, 0.05], 4.0, 0.4);
}

/// L-stability at work: once x₂' = −1000·x₂ has decayed, steps grow past the explicit stability
/// limit (dopri5: h·1000 ≤ 3.3, so at least 300 steps on [0, 1]) while x₂ stays damped. Here the
/// step is limited by the accuracy of x₁ (about 90 steps at rel_tol 1e-3 for TR-BDF2); error ≤
/// 1e-3 as for the other problems (the number of steps times rel_tol·|x|, with margin).
#[test]
fn stiff_component_is_damped_at_large_steps() {
    for method in IMPLICIT {
        let (error, stats) = run_problem(Problem::StiffLinear, options_for(method, 1e-3, 1e-6));
        assert!(error < 1e-3, "{method:?}: error {error:e}");
        assert!(stats.steps < 150, "{method:?}: {stats:?}");
    }
}

fn relative_errors(x: &[f64], reference: &[f64]) -> Vec<f64> {
    x.iter()
        .zip(reference)
        .map(|(a, b)| ((a - b) / b).abs())
        .collect()
}

/// Robertson to t = 1e5 at rel_tol 1e-6 against scipy's reference: every component within 1e-3
/// relative. abs_tol 1e-12 because y₂ is about 1e-5 to 1e-8: a larger abs_tol would leave y₂
/// uncontrolled (measured: about 1.4e-4 relative).
#[test]
fn robertson_to_1e5() {
    for method in IMPLICIT {
        let mut solver = Solver::new(3, 0, options_for(method, 1e-6, 1e-12)).unwrap();
        let stats = solver
            .integrate(&mut Robertson, 0.0, &Robertson::INITIAL, 1e5)
            .unwrap();
        let errors = relative_errors(solver.state(), &Robertson::AT_1E5);
        assert!(
            errors.iter().all(|&e| e <= 1e-3),
            "{method:?}: {errors:?} {stats:?}"
        );
        // Mass is conserved by the equations (Σy' = 0) and by any Runge–Kutta method (linear
        // invariant), to rounding and the Newton error.
        let mass: f64 = solver.state().iter().sum();
        assert!((mass - 1.0).abs() < 1e-9, "{method:?}: mass {mass}");
    }
}

/// Van der Pol at μ = 1000 over one period from (2, 0), the period ended by the located maximum
/// of x (zero crossing of y, Falling): T within 1e-3 relative and x(T) within 1e-3 of scipy's.
#[test]
fn van_der_pol_one_period() {
    for method in IMPLICIT {
        let mut system = VanDerPol::new(1000.0);
        let mut solver = Solver::new(2, 1, options_for(method, 1e-6, 1e-8)).unwrap();
        let stats = solver
            .integrate(&mut system, 0.0, &[2.0, 0.0], 2000.0)
            .unwrap();
        let period = VanDerPol::PERIOD_MU_1000;
        assert!(
            ((system.first_maximum - period) / period).abs() <= 1e-3,
            "{method:?}: period {} {stats:?}",
            system.first_maximum
        );
        assert_eq!(stats.final_time, system.first_maximum);
        let x = solver.state()[0];
        assert!(
            (x - VanDerPol::X_MAX_MU_1000).abs() <= 1e-3,
            "{method:?}: x(T) = {x}"
        );
        assert_eq!(system.state_dim(), 2);
    }
}

/// The chain of lags declares its lower-bidiagonal pattern: its Jacobians cost 2 grouped
/// evaluations (plus f(t, x)) instead of 5, and the run is otherwise the same step for step as
/// with the same equations given as a closure without a pattern (the quotients are equal bit for
/// bit, see `jacobian`).
#[test]
fn the_chain_groups_its_jacobian_columns() {
    let problem = Problem::Chain;
    let n = problem.dim();
    let mut x0 = vec![0.0; n];
    problem.exact(0.0, &mut x0);
    let mut solver = Solver::new(n, 0, options(1e-6, 1e-8)).unwrap();
    let mut sparse = problem;
    let grouped = solver
        .integrate(&mut sparse, 0.0, &x0, problem.t_end())
        .unwrap();
    let x_grouped = solver.state().to_vec();
    let mut dense = FnSystem::new(n, |t, x: &[f64], d: &mut [f64]| {
        Problem::Chain.derivatives(t, x, d)
    });
    let plain = solver
        .integrate(&mut dense, 0.0, &x0, problem.t_end())
        .unwrap();
    assert_eq!(solver.state(), &x_grouped[..]);
    assert_eq!(grouped.steps, plain.steps);
    assert_eq!(grouped.jacobian_evaluations, plain.jacobian_evaluations);
    assert_eq!(
        plain.function_evaluations - grouped.function_evaluations,
        grouped.jacobian_evaluations * (n - 2),
        "{grouped:?} {plain:?}"
    );
}
