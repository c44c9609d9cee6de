//! Every integrator on every reference problem, checked against the closed form; convergence;
//! event location, directions, simultaneous events, time events, chattering.

use blockdyn::solver::problems::Problem;
use blockdyn::solver::{Method, Solver, SolverOptions};

fn run(problem: Problem, options: SolverOptions) -> (Vec<f64>, blockdyn::solver::SolverStats) {
    let mut x0 = vec![0.0; problem.dim()];
    problem.exact(0.0, &mut x0);
    let mut solver = Solver::new(problem.dim(), 0, options).unwrap();
    let mut system = problem;
    let stats = solver
        .integrate(&mut system, 0.0, &x0, problem.t_end())
        .unwrap();
    assert_eq!(stats.final_time, problem.t_end());
    (solver.state().to_vec(), stats)
}

fn max_error(problem: Problem, x: &[f64]) -> f64 {
    let mut exact = vec![0.0; problem.dim()];
    problem.exact(problem.t_end(), &mut exact);
    x.iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Every method on every problem. Tolerances: the global error of a tolerance-controlled run is a
/// small multiple of the tolerance times the span (errors accumulate roughly linearly over the
/// ≤ 10 s spans here); RK4 with h = 1e-3 has global error O(h⁴) ≈ 1e-12·C.
#[test]
fn every_method_matches_every_closed_form() {
    for problem in Problem::ALL {
        let cases = [
            (
                Method::Dopri5,
                SolverOptions {
                    rel_tol: 1e-8,
                    abs_tol: 1e-10,
                    ..Default::default()
                },
                1e-6,
            ),
            (
                Method::Bs23,
                SolverOptions {
                    method: Method::Bs23,
                    rel_tol: 1e-7,
                    abs_tol: 1e-9,
                    ..Default::default()
                },
                2e-5,
            ),
            (
                Method::Rk4,
                SolverOptions {
                    method: Method::Rk4,
                    fixed_step: 1e-3,
                    ..Default::default()
                },
                1e-9,
            ),
        ];
        for (method, options, tol) in cases {
            let (x, stats) = run(problem, options);
            let e = max_error(problem, &x);
            assert!(
                e < tol,
                "{method:?} on {problem:?}: error {e:e} (tol {tol:e}), {stats:?}"
            );
        }
    }
}

/// Tighter tolerance → smaller global error (Dopri5 and Bs23), on every problem.
#[test]
fn global_error_shrinks_with_tolerance() {
    for method in [Method::Dopri5, Method::Bs23] {
        for problem in Problem::ALL {
            let mut errors = Vec::new();
            for tol in [1e-4, 1e-6, 1e-8] {
                // max_step = the span, so that the tolerance, not the step cap, limits the step.
                let options = SolverOptions {
                    method,
                    rel_tol: tol,
                    abs_tol: tol * 1e-2,
                    max_step: problem.t_end(),
                    ..Default::default()
                };
                let (x, _) = run(problem, options);
                errors.push(max_error(problem, &x));
            }
            assert!(
                errors[2] < errors[0] * 1e-2,
                "{method:?} on {problem:?}: errors {errors:?} do not shrink with tolerance"
            );
        }
    }
}

/// Observed order on uniform steps: with rel_tol = abs_tol = 1e3 every step is accepted and the
/// step equals initial_step = max_step = h. Halving h divides the global error by 2^p.
/// Harmonic oscillator over [0, 10]; the ratio must lie within ±0.3 of the theoretical order.
#[test]
fn observed_orders_on_uniform_steps() {
    let problem = Problem::HarmonicOscillator;
    for (method, order) in [
        (Method::Dopri5, 5.0),
        (Method::Bs23, 3.0),
        (Method::Rk4, 4.0),
    ] {
        let mut errors = Vec::new();
        for h in [0.1, 0.05, 0.025] {
            let options = SolverOptions {
                method,
                rel_tol: 1e3,
                abs_tol: 1e3,
                initial_step: h,
                max_step: h,
                fixed_step: h,
                ..Default::default()
            };
            let (x, stats) = run(problem, options);
            assert_eq!(stats.rejected_steps, 0);
            errors.push(max_error(problem, &x));
        }
        for pair in errors.windows(2) {
            let p = (pair[0] / pair[1]).log2();
            assert!(
                (p - order).abs() < 0.3,
                "{method:?}: observed order {p} (errors {errors:?})"
            );
        }
    }
}
