//! RKC (`method = "rkc"`) against closed forms: the scalar decay y' = −λy over six decades of
//! λ (error and the evaluations growing as √λ), the 1-D heat equation against its
//! eigen-decomposition, second-order convergence on a fixed step sequence, and the bouncing
//! ball's impacts located as dopri5 locates them.

use blockdyn::solver::{FnSystem, Method, SolverOptions};

mod solver_common;
use solver_common::run;

fn rkc(rel_tol: f64, abs_tol: f64) -> SolverOptions {
    solver_common::options(Method::Rkc, rel_tol, abs_tol)
}

/// y' = −λy, y(0) = 1 to t = 1 at rel_tol 1e-4, abs_tol 1e-8: y(1) = e^{−λ} within the
/// tolerance abs_tol + rel_tol·e^{−λ} (measured: λ = 1 2.4e-5 against 3.7e-5; for λ ≥ 1e2 the
/// transient's error is damped away, below 1e-17), for λ = 1 … 1e6. Once the transient has
/// decayed the steps are held by max_step (1/50) and each takes s ≈ √(1.54·1.2·λ/50) stages, so
/// 100× λ costs up to 10× the evaluations (measured: λ = 1: 112 evaluations, 1e2: 519, 1e4:
/// 1,465, 1e6: 10,687 with at most 193 stages: 7.3× from 1e4 to 1e6, the transient's share
/// fixed), where an explicit method of fixed stability needs λ/3.3 steps at least (dopri5 at
/// λ = 1e4: 18,296 evaluations; 1.8e6 at λ = 1e6).
#[test]
fn scalar_decay_is_accurate_and_costs_root_lambda() {
    let mut evaluations = Vec::new();
    for lambda in [1.0f64, 1e2, 1e4, 1e6] {
        let mut system = FnSystem::new(1, move |_t, x: &[f64], dxdt: &mut [f64]| {
            dxdt[0] = -lambda * x[0]
        });
        let (rel, abs) = (1e-4, 1e-8);
        let (x, stats) = run(&mut system, rkc(rel, abs), &[1.0], 1.0);
        let exact = (-lambda).exp();
        let error = (x[0] - exact).abs();
        assert!(
            error <= 10.0 * (abs + rel * exact),
            "λ = {lambda}: y(1) = {} against {exact}",
            x[0]
        );
        println!(
            "λ = {lambda:e}: steps {}, rejected {}, evaluations {} (ρ: {}), most stages {}, error {error:.2e}",
            stats.steps,
            stats.rejected_steps,
            stats.function_evaluations,
            stats.radius_evaluations,
            stats.rkc_max_stages
        );
        evaluations.push(stats.function_evaluations as f64);
        // At t = 1 a stiff λ's e^{−λ} is far below abs_tol, so the bound above only shows that
        // nothing blew up: also at t = 2/λ, where y = e^{−2} = 0.135 still, the error relative to
        // y within 10× rel_tol (abs_tol/y = 7e-8 is negligible there).
        if lambda >= 1e2 {
            let t_mid = 2.0 / lambda;
            let (x, _) = run(&mut system, rkc(rel, abs), &[1.0], t_mid);
            let exact = (-lambda * t_mid).exp();
            let relative = (x[0] - exact).abs() / exact;
            println!("λ = {lambda:e}: at t = 2/λ relative error {relative:.2e}");
            assert!(
                relative <= 10.0 * rel,
                "λ = {lambda}: y(2/λ) = {} against {exact}",
                x[0]
            );
        }
    }
    // From λ = 1e4 to 1e6 (100×): between 4× and 15× the evaluations (√100 = 10), and far below
    // the stability bound of any classical explicit method (λ/3.3 = 3e5 steps).
    let growth = evaluations[3] / evaluations[2];
    assert!((4.0..15.0).contains(&growth), "growth {growth}");
    assert!(evaluations[3] < 3e4, "{}", evaluations[3]);
}

/// rel_tol = 0 is legal with abs_tol > 0: the tolerance is then absolute, and the stage cap
/// comes from max(rel_tol, abs_tol) (s_max = ⌊√(1e-8/(10ε))⌋ = 2,122 here). It used to give
/// s_max = 2, a step cap of 0 and `TimeDoesNotAdvance` after the first step. y' = −λy, y(0) = 1
/// to t = 1 at abs_tol 1e-8, for λ = 1e2, 1e4, 1e6: at t = 1, |y − e^{−λ}| within 10× abs_tol
/// (the transient's error is damped away); at t = 2/λ, before the decay (the same problem for
/// every λ in λt), within steps × abs_tol, the sum of local errors each within the tolerance
/// carried by a contraction e^{−λh} < 1 (measured 8.2e-7 after 499 steps, bound 5e-6).
#[test]
fn zero_rel_tol_runs_on_the_absolute_tolerance() {
    let abs = 1e-8;
    for lambda in [1e2f64, 1e4, 1e6] {
        let mut system = FnSystem::new(1, move |_t, x: &[f64], dxdt: &mut [f64]| {
            dxdt[0] = -lambda * x[0]
        });
        for t_end in [2.0 / lambda, 1.0] {
            let (x, stats) = run(&mut system, rkc(0.0, abs), &[1.0], t_end);
            let exact = (-lambda * t_end).exp();
            let error = (x[0] - exact).abs();
            println!(
                "rel_tol 0, λ = {lambda:e}, t = {t_end:e}: steps {}, evaluations {}, most stages {}, error {error:.2e}",
                stats.steps, stats.function_evaluations, stats.rkc_max_stages
            );
            assert_eq!(stats.final_time, t_end);
            let bound = if t_end == 1.0 {
                10.0 * abs
            } else {
                stats.steps as f64 * abs
            };
            assert!(
                error <= bound,
                "λ = {lambda}: y({t_end}) = {} against {exact}",
                x[0]
            );
        }
    }
}

/// The heat equation u_t = u_xx on (0, 1), u = 0 at both ends, on N = 50 interior points
/// (Δx = 1/51): u' = A·u with A the second-difference matrix, whose eigenvectors are
/// v_k,i = sin(kπ·i·Δx) with eigenvalues −(4/Δx²)·sin²(kπΔx/2) (k = 1..50; ρ ≈ 1.04e4). From a hat
/// u(x, 0) = 1 − |2x − 1| the exact u(t) = Σ c_k·e^{λ_k t}·v_k with c from the discrete sine
/// transform. At t = 0.05 the error in the max norm is within 10× (abs_tol + rel_tol·max|u|),
/// at rel_tol 1e-4 and 1e-6 (abs_tol 1e-2·rel_tol; the global error of this strongly damped
/// problem stays at the local tolerance's scale). Measured: rel_tol 1e-4: 285 evaluations
/// (at most 5 stages), error 4.8e-6; 1e-6: 436, 2.4e-6 (against 2.5e-5 and 5.0e-7 tolerated
/// before the 10×); dopri5 takes 962 and 992 evaluations, its steps held by h·ρ ≤ 3.3.
#[test]
fn heat_equation_matches_its_eigen_decomposition() {
    for rel_tol in [1e-4, 1e-6] {
        let abs_tol = rel_tol * 1e-2;
        let (error, scale, stats) = solver_common::heat_error(rkc(rel_tol, abs_tol));
        println!(
            "heat, rel_tol {rel_tol:e}: steps {}, rejected {}, evaluations {}, most stages {}, error {error:.2e} (max |u| {scale:.3})",
            stats.steps, stats.rejected_steps, stats.function_evaluations, stats.rkc_max_stages
        );
        assert!(
            error <= 10.0 * (abs_tol + rel_tol * scale),
            "rel_tol {rel_tol}: error {error}"
        );
    }
}

/// Second order: y' = λ·(y − sin t) + cos t, y(0) = 1, λ = −10, exact y = sin t + e^{λt}, to t = 1
/// on fixed steps h = 1/10 … 1/80 (max_step = initial_step = h; a rel_tol of 1e3 accepts every
/// step). h·ρ ≤ 1.2 keeps s = 2 throughout, so the same formula is refined. Each halving divides
/// the error at t = 1 by about 4: the observed orders are 2.07, 2.05, 2.24 (errors 3.9e-4,
/// 9.3e-5, 2.2e-5, 4.7e-6), asserted within 0.3 of 2.
#[test]
fn converges_at_second_order_on_fixed_steps() {
    let lambda: f64 = -10.0;
    let mut errors = Vec::new();
    for h in [0.1, 0.05, 0.025, 0.0125] {
        let mut system = FnSystem::new(1, move |t, y: &[f64], dy: &mut [f64]| {
            dy[0] = lambda * (y[0] - t.sin()) + t.cos()
        });
        let options = SolverOptions {
            max_step: h,
            initial_step: h,
            ..rkc(1e3, 1e3)
        };
        let (y, stats) = run(&mut system, options, &[1.0], 1.0);
        assert_eq!(stats.rejected_steps, 0);
        assert_eq!(stats.rkc_max_stages, 2);
        let exact = 1f64.sin() + lambda.exp();
        errors.push((y[0] - exact).abs());
    }
    for pair in errors.windows(2) {
        let order = (pair[0] / pair[1]).log2();
        assert!(
            (order - 2.0).abs() < 0.3,
            "errors {errors:?}: order {order}"
        );
    }
}

/// The bouncing ball (problems.rs; drop from 10 m, e = 0.8): the first 6 impacts are located at the
/// closed-form times to 1e-9 s, as dopri5 locates them (the location tolerance is
/// 1e-12·max(1, t); the flight is a parabola, which both methods integrate exactly up to
/// rounding, so the gap is the bracketing's and the time sum's rounding).
#[test]
fn bouncing_ball_impacts_are_located_as_dopri5_locates_them() {
    solver_common::assert_impacts_as_dopri5(Method::Rkc);
}
