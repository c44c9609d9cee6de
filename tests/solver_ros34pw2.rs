//! ROS34PW2 (`method = "ros34pw2"`, the Rosenbrock W-method) against closed forms and
//! references: the scalar decay y' = −λy over six decades of λ (error within the tolerance,
//! evaluations flat in λ), a stiff system tracking a moving input (∂f/∂t), Robertson's kinetics
//! and Van der Pol at μ = 1000 against tight references, the 1-D heat equation against its
//! eigen-decomposition, the bouncing ball's impacts located as dopri5 locates them, and a run
//! stopped at every event and resumed from its checkpoints equal to the uninterrupted run.
//! (Order 3 with an exact and a wrong Jacobian, the W-property: `solver::rosenbrock`'s unit
//! test; the order conditions: `solver::tableau::ros34pw2`'s.)

use blockdyn::solver::problems::{Robertson, VanDerPol};
use blockdyn::solver::{Direction, EventOutcome, FnSystem, Method, Solver, SolverOptions, System};

mod solver_common;
use solver_common::run;

fn ros(rel_tol: f64, abs_tol: f64) -> SolverOptions {
    solver_common::options(Method::Ros34pw2, rel_tol, abs_tol)
}

/// y' = −λy, y(0) = 1 at rel_tol 1e-4, abs_tol 1e-8, λ = 1 … 1e6: at t = 2/λ (y = e^{−2}, before
/// the decay) the error relative to y within 10× rel_tol, and at t = 1 within 10× the tolerance
/// abs_tol + rel_tol·e^{−λ}. L-stability: the steps are not bounded by λ. For λ ≥ 1e2 the run is
/// the transient (λt from 0 to ≈ 18, where y reaches abs_tol; the same steps in λt for every λ)
/// and then max_step's 1/50 steps, so the evaluations are flat in λ: asserted within 1.5× of
/// λ = 1e2's at 1e4 and 1e6 (printed; measured 215, 571, 626, 638 evaluations for λ = 1, 1e2, 1e4, 1e6, with 3 to 8
/// Jacobians), where dopri5 needs at least λ/3.3·6
/// (1.8e6 at λ = 1e6).
#[test]
fn scalar_decay_is_accurate_and_costs_the_same_for_every_lambda() {
    let (rel, abs) = (1e-4, 1e-8);
    let mut evaluations = Vec::new();
    for lambda in [1.0f64, 1e2, 1e4, 1e6] {
        let mut system = FnSystem::new(1, move |_t, x: &[f64], dxdt: &mut [f64]| {
            dxdt[0] = -lambda * x[0]
        });
        let t_mid = 2.0 / lambda;
        let (x, _) = run(&mut system, ros(rel, abs), &[1.0], t_mid);
        let exact = (-2.0f64).exp();
        let relative = (x[0] - exact).abs() / exact;
        let (x, stats) = run(&mut system, ros(rel, abs), &[1.0], 1.0);
        let exact = (-lambda).exp();
        let error = (x[0] - exact).abs();
        println!(
            "λ = {lambda:e}: steps {}, rejected {}, evaluations {}, Jacobians {}, LUs {}, error at 2/λ {relative:.2e}, at 1 {error:.2e}",
            stats.steps,
            stats.rejected_steps,
            stats.function_evaluations,
            stats.jacobian_evaluations,
            stats.lu_factorizations
        );
        assert!(
            relative <= 10.0 * rel,
            "λ = {lambda}: y(2/λ) off by {relative:e}"
        );
        assert!(
            error <= 10.0 * (abs + rel * exact),
            "λ = {lambda}: y(1) = {}",
            x[0]
        );
        evaluations.push(stats.function_evaluations as f64);
    }
    for e in &evaluations[2..] {
        assert!(*e <= 1.5 * evaluations[1], "{evaluations:?}");
    }
}

/// A stiff system following a moving input: y' = λ·(y − sin t) + cos t, λ = −1e6, y(0) = 1,
/// exact y = sin t + e^{λt}. Its f depends on t, which the method takes through w ≈ ∂f/∂t
/// (`rosenbrock`): y(1) = sin 1 within 10× (abs_tol + rel_tol·sin 1) at rel_tol 1e-6 (measured
/// 3.2e-12 in 426 steps).
#[test]
fn a_stiff_system_tracks_a_moving_input() {
    let lambda = -1e6;
    let mut system = FnSystem::new(1, move |t, y: &[f64], dy: &mut [f64]| {
        dy[0] = lambda * (y[0] - t.sin()) + t.cos()
    });
    let (rel, abs) = (1e-6, 1e-9);
    let (y, stats) = run(&mut system, ros(rel, abs), &[1.0], 1.0);
    let exact = 1f64.sin();
    let error = (y[0] - exact).abs();
    println!(
        "moving input: steps {}, evaluations {}, error {error:.2e}",
        stats.steps, stats.function_evaluations
    );
    assert!(error <= 10.0 * (abs + rel * exact), "y(1) = {}", y[0]);
    // What this does not check: the ∂f/∂t term w itself. w is a column of W, and a W-method
    // keeps its order with any W, so the error controller holds the error whatever w is: with
    // w = 0 forced (a temporary switch, review24) the run took 430 steps against 426, error
    // 2.5e-12 (with W = ∂f/∂x constant, w drops out of the method's solutions altogether; it
    // shows here only through the LU's h_lu ≠ h and rounding). w's difference quotient and its effect where
    // the Jacobian moves in t are tested in rosenbrock.rs
    // (`w_is_the_forward_difference_of_f_in_t`,
    // `the_time_column_keeps_order_three_where_the_jacobian_moves`).
}

/// Robertson's kinetics to t = 40 (problems.rs: Hairer & Wanner's reference values, to 1e-10
/// relative) at rel_tol 1e-6, abs_tol 1e-10: each component within 10× (abs_tol + rel_tol·|y|)
/// (the global error of a dissipative problem accumulates a few local tolerances: measured
/// 1.3e-7 on y₁ against 7.2e-6, 4.6e-11 on y₂ against 1.0e-9, 1.3e-7 on y₃ against 2.8e-6; 342
/// steps, 101 rejected, 36 Jacobians).
#[test]
fn robertson_matches_its_reference() {
    let (rel, abs) = (1e-6, 1e-10);
    let (y, stats) = run(&mut Robertson, ros(rel, abs), &Robertson::INITIAL, 40.0);
    println!(
        "Robertson: steps {}, rejected {}, evaluations {}, Jacobians {}, LUs {}, y {y:?}",
        stats.steps,
        stats.rejected_steps,
        stats.function_evaluations,
        stats.jacobian_evaluations,
        stats.lu_factorizations
    );
    for (i, (yi, ri)) in y.iter().zip(Robertson::AT_40).enumerate() {
        assert!(
            (yi - ri).abs() <= 10.0 * (abs + rel * ri.abs()),
            "y{} = {yi}, reference {ri}",
            i + 1
        );
    }
}

/// Van der Pol at μ = 1000 from (2, 0) to its next maximum (problems.rs: scipy's period
/// 1614.2916734 and x there 2.0000729660) at rel_tol 1e-6: the period within 1e-3 relative
/// (the period integrates the slow phase's error over 1,600 time units; measured 2.6e-7) and
/// x within 1e-5 (measured 1.5e-7).
#[test]
fn van_der_pol_period_matches_its_reference() {
    let mut vdp = VanDerPol::new(1000.0);
    let (x, stats) = run(&mut vdp, ros(1e-6, 1e-9), &[2.0, 0.0], 3000.0);
    let period = vdp.first_maximum;
    println!(
        "Van der Pol: steps {}, rejected {}, evaluations {}, Jacobians {}, period {period}, x {}",
        stats.steps,
        stats.rejected_steps,
        stats.function_evaluations,
        stats.jacobian_evaluations,
        x[0]
    );
    assert!(
        (period / VanDerPol::PERIOD_MU_1000 - 1.0).abs() < 1e-3,
        "period {period}"
    );
    assert!((x[0] - VanDerPol::X_MAX_MU_1000).abs() < 1e-5, "x {}", x[0]);
}

/// The heat equation u_t = u_xx on (0, 1), u = 0 at both ends, on N = 50 interior points: the
/// exact u(t) from the eigen-decomposition of the second-difference matrix (eigenvectors
/// sin(kπ·i·Δx), eigenvalues −(4/Δx²)·sin²(kπΔx/2), ρ ≈ 1.04e4) from a hat u(x, 0) = 1 − |2x − 1|.
/// At t = 0.05 the max-norm error within 10× (abs_tol + rel_tol·max|u|) at rel_tol 1e-4 and 1e-6
/// (abs_tol 1e-2·rel_tol). Measured: errors 8.0e-8 and 5.9e-8 in 374 and 594 evaluations (3 and 5
/// Jacobians); rkc takes 285 and 436, dopri5 962 and 992.
#[test]
fn heat_equation_matches_its_eigen_decomposition() {
    for rel_tol in [1e-4, 1e-6] {
        let abs_tol = rel_tol * 1e-2;
        let (error, scale, stats) = solver_common::heat_error(ros(rel_tol, abs_tol));
        println!(
            "heat, rel_tol {rel_tol:e}: steps {}, rejected {}, evaluations {}, Jacobians {}, error {error:.2e}",
            stats.steps, stats.rejected_steps, stats.function_evaluations, stats.jacobian_evaluations
        );
        assert!(
            error <= 10.0 * (abs_tol + rel_tol * scale),
            "rel_tol {rel_tol}: error {error}"
        );
        // The smooth decay is integrated far more accurately than asked (the embedded estimate
        // is conservative here): a bound near the measured 8e-8 keeps a loss of accuracy from
        // hiding under the tolerance's.
        assert!(error <= 1e-6, "rel_tol {rel_tol}: error {error}");
    }
}

/// The bouncing ball (problems.rs; drop from 10 m, e = 0.8): the first 6 impacts at the
/// closed-form times to 1e-9 s, as dopri5 locates them (the flight is a parabola, which a
/// 3rd-order method integrates exactly up to rounding; the location tolerance is
/// 1e-12·max(1, t)).
#[test]
fn bouncing_ball_impacts_are_located_as_dopri5_locates_them() {
    solver_common::assert_impacts_as_dopri5(Method::Ros34pw2);
}

/// A stiff relaxation towards a moving level, y' = −1e4·(y − cos t), with a time event every
/// 0.25 s that changes nothing and, in `stopping` mode, stops the run there.
struct StoppingRelaxation {
    stopping: bool,
}

impl System for StoppingRelaxation {
    fn state_dim(&self) -> usize {
        1
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -1e4 * (y[0] - t.cos());
    }
    fn zero_crossings(&mut self, _t: f64, _y: &[f64], _g: &mut [f64]) {}
    fn next_time_event(&self, t: f64) -> Option<f64> {
        Some(((t / 0.25).floor() + 1.0) * 0.25)
    }
    fn handle_events(&mut self, _t: f64, _y: &mut [f64], _c: &[usize], _te: bool) -> EventOutcome {
        EventOutcome {
            state_changed: false,
            stop: self.stopping,
        }
    }
}

/// Stopped at every time event and resumed from the checkpoint, the run ends in the state of the
/// run that never stopped, bit for bit, with the same steps and evaluations (the Jacobian, its
/// age and the factored step travel in the checkpoint).
#[test]
fn resumes_exactly_from_checkpoints() {
    let options = ros(1e-6, 1e-9);
    let mut whole = StoppingRelaxation { stopping: false };
    let (full_x, full) = run(&mut whole, options.clone(), &[0.0], 2.0);
    let mut pieces = StoppingRelaxation { stopping: true };
    let mut solver = Solver::new(1, 0, options).unwrap();
    let mut total = solver.integrate(&mut pieces, 0.0, &[0.0], 2.0).unwrap();
    let mut count = 1;
    while let Some(checkpoint) = solver.checkpoint() {
        let s = solver.resume(&mut pieces, &checkpoint, 2.0).unwrap();
        total.steps += s.steps;
        total.function_evaluations += s.function_evaluations;
        total.jacobian_evaluations += s.jacobian_evaluations;
        count += 1;
    }
    assert_eq!(
        count, 9,
        "stops at 0.25, 0.5, …, 2 (the stop time: nothing left to resume)"
    );
    assert_eq!(solver.state(), &full_x[..]);
    assert_eq!(
        (
            total.steps,
            total.function_evaluations,
            total.jacobian_evaluations
        ),
        (
            full.steps,
            full.function_evaluations,
            full.jacobian_evaluations
        )
    );
}
