//! The stiff method against the explicit default on stiff problems: same answer, far fewer steps.

use blockdyn::solver::problems::{Robertson, VanDerPol};
use blockdyn::solver::{Method, Solver, SolverOptions, SolverStats};

fn options(method: Method, rel_tol: f64, abs_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        abs_tol,
        ..Default::default()
    }
}

/// Robertson on [0, 40] (dopri5 cannot reach 1e5 in reasonable time: about 3e8 steps): both
/// methods within 1e-3 relative of Hairer & Wanner's y(40) at rel_tol 1e-6, abs_tol 1e-12; dopri5
/// pays its stability limit (h ≤ 3.3e-4 once the fast eigenvalue ≈ −1e4 appears: ≥ 1e5 steps),
/// trbdf2 only accuracy.
#[test]
fn robertson_step_counts() {
    let mut stats = Vec::new();
    for method in [Method::Dopri5, Method::Trbdf2] {
        let mut solver = Solver::new(3, 0, options(method, 1e-6, 1e-12)).unwrap();
        let s = solver
            .integrate(&mut Robertson, 0.0, &Robertson::INITIAL, 40.0)
            .unwrap();
        for (y, r) in solver.state().iter().zip(Robertson::AT_40) {
            assert!(((y - r) / r).abs() <= 1e-3, "{method:?}: {y} vs {r}");
        }
        eprintln!("Robertson [0, 40], {method:?}: {s:?}");
        stats.push(s);
    }
    assert!(stats[0].steps > 30 * stats[1].steps, "{stats:?}");
}

fn van_der_pol(method: Method) -> (f64, f64, SolverStats) {
    let mut system = VanDerPol::new(1000.0);
    let mut solver = Solver::new(2, 1, options(method, 1e-6, 1e-8)).unwrap();
    let stats = solver
        .integrate(&mut system, 0.0, &[2.0, 0.0], 2000.0)
        .unwrap();
    (system.first_maximum, solver.state()[0], stats)
}

/// Van der Pol at μ = 1000 over one period (ended by the located maximum of x): both methods find
/// the period and x(T) within 1e-3 of scipy's; dopri5's steps are bounded by stability on the
/// slow branches (|λ| ≈ μ·(x² − 1) ≈ 1000–3000), trbdf2's by accuracy.
#[test]
fn van_der_pol_step_counts() {
    let period = VanDerPol::PERIOD_MU_1000;
    let mut stats = Vec::new();
    for method in [Method::Dopri5, Method::Trbdf2] {
        let (t, x, s) = van_der_pol(method);
        assert!(((t - period) / period).abs() <= 1e-3, "{method:?}: T = {t}");
        assert!(
            (x - VanDerPol::X_MAX_MU_1000).abs() <= 1e-3,
            "{method:?}: x = {x}"
        );
        eprintln!("Van der Pol μ = 1000, one period, {method:?}: {s:?}");
        stats.push(s);
    }
    assert!(stats[0].steps > 30 * stats[1].steps, "{stats:?}");
}

/// Failure modes under trbdf2 are errors, not panics: a persistent NaN is reported with its
/// component near where it starts (the Jacobian's difference quotients probe states up to
/// sqrt(ε·|x|) ≈ 1e-8 ahead, hence 1e-6 instead of dopri5's 1e-12), and a blow-up ends in a step
/// underflow or a non-finite state near the singularity.
#[test]
fn failures_are_reported() {
    use blockdyn::solver::{FnSystem, SolverError};
    let mut nan = FnSystem::new(2, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = 1.0;
        d[1] = if x[0] > 0.5 { f64::NAN } else { 0.0 };
    });
    let mut solver = Solver::new(2, 0, options(Method::Trbdf2, 1e-3, 1e-6)).unwrap();
    match solver.integrate(&mut nan, 0.0, &[0.0, 0.0], 1.0) {
        Err(SolverError::NonFinite { t, index: 1 }) => assert!((t - 0.5).abs() < 1e-6, "{t}"),
        other => panic!("expected NonFinite, got {other:?}"),
    }
    // x₁' = x₁², x₁(0) = 1: x₁ = 1/(1 − t).
    let mut blow_up = FnSystem::new(1, |_t, x: &[f64], d: &mut [f64]| d[0] = x[0] * x[0]);
    let mut solver = Solver::new(1, 0, options(Method::Trbdf2, 1e-3, 1e-6)).unwrap();
    match solver.integrate(&mut blow_up, 0.0, &[1.0], 2.0) {
        Err(SolverError::StepSizeUnderflow { t, .. } | SolverError::NonFinite { t, .. }) => {
            assert!((t - 1.0).abs() < 1e-2, "t = {t}")
        }
        other => panic!("expected a failure near t = 1, got {other:?}"),
    }
}

/// A chain of `n` first-order lags as a diagram: x₁' = −x₁, x_k' = x_{k−1} − x_k, x₁(0) = 1, so
/// x_k(t) = t^{k−1}/(k−1)!·e^{−t} (the Poisson probabilities).
fn lag_chain(n: usize) -> String {
    let mut connect = vec![
        "\"x1.out -> k1.in\"".to_string(),
        "\"k1.out -> x1.in\"".into(),
    ];
    let mut blocks = String::from(
        "[blocks.x1]\ntype = \"Integrator\"\ninitial = 1.0\n[blocks.k1]\ntype = \"Gain\"\ngain = -1.0\n",
    );
    for k in 2..=n {
        connect.push(format!("\"x{}.out -> s{k}.in1\"", k - 1));
        connect.push(format!("\"x{k}.out -> s{k}.in2\""));
        connect.push(format!("\"s{k}.out -> x{k}.in\""));
        blocks.push_str(&format!(
            "[blocks.x{k}]\ntype = \"Integrator\"\n[blocks.s{k}]\ntype = \"Sum\"\nsigns = \"+-\"\n"
        ));
    }
    format!(
        "connect = [{}]\n[model]\nstop_time = 2.0\n[solver]\nmethod = \"trbdf2\"\nrel_tol = 1e-8\nabs_tol = 1e-10\n{blocks}",
        connect.join(", ")
    )
}

/// The same system with the Jacobian's sparsity withheld: every difference Jacobian then costs
/// one evaluation per state.
struct Dense<'a>(blockdyn::sim::Engine<'a>);

impl blockdyn::solver::System for Dense<'_> {
    fn state_dim(&self) -> usize {
        self.0.state_dim()
    }
    fn zero_crossing_dim(&self) -> usize {
        self.0.zero_crossing_dim()
    }
    fn zero_crossing_direction(&self, index: usize) -> blockdyn::solver::Direction {
        self.0.zero_crossing_direction(index)
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.0.derivatives(t, x, dxdt)
    }
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.0.zero_crossings(t, x, g)
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> blockdyn::solver::EventOutcome {
        self.0.handle_events(t, x, crossed, time_event)
    }
}

/// trbdf2 on a 40-lag chain built from blocks: the Jacobian's pattern comes from the wiring
/// (lower bidiagonal: each lag reads its upstream neighbour), so its columns fall into 2 groups
/// and a Jacobian costs 2 evaluations instead of 40, with the same answer. Both runs meet the
/// closed form to 1e-6 (rel_tol 1e-8: the global error of an L-stable second-order method over
/// ~100 steps stays well inside that) and agree with each other to 1e-9 (the same steps up to
/// round-off in the Jacobian, which only moves Newton's iterates).
#[test]
fn diagram_jacobian_uses_the_wiring_sparsity() {
    use blockdyn::sim::{Engine, Recorder};
    let n = 40;
    let d = blockdyn::load_model_str("lags.toml", &lag_chain(n), &[]).unwrap();
    let options = blockdyn::sim::solver_options(&d);
    assert_eq!(options.method, Method::Trbdf2);
    let mut results = Vec::new();
    for sparse in [true, false] {
        let engine = Engine::new(&d, Recorder::new(&d));
        let mut solver = Solver::new(d.num_states(), 0, options.clone()).unwrap();
        let stats = if sparse {
            let mut e = engine;
            let x0 = e.initialize(0.0);
            solver.integrate(&mut e, 0.0, &x0, 2.0).unwrap()
        } else {
            let mut e = Dense(engine);
            let x0 = e.0.initialize(0.0);
            solver.integrate(&mut e, 0.0, &x0, 2.0).unwrap()
        };
        let x = solver.state().to_vec();
        for k in 1..=n {
            let b = d.block_index(&format!("x{k}")).unwrap();
            let i = d.blocks()[b].states.start;
            let exact =
                2f64.powi(k as i32 - 1) / (1..k).map(|j| j as f64).product::<f64>() * (-2f64).exp();
            assert!((x[i] - exact).abs() <= 1e-6, "x{k}: {} vs {exact}", x[i]);
        }
        eprintln!("lag chain n = {n}, sparse Jacobian {sparse}: {stats:?}");
        results.push((x, stats));
    }
    let ((sparse_x, sparse), (dense_x, dense)) = (&results[0], &results[1]);
    for (a, b) in sparse_x.iter().zip(dense_x) {
        assert!((a - b).abs() <= 1e-9, "{a} vs {b}");
    }
    // The same steps and Jacobians; a dense Jacobian costs n evaluations, a grouped one 2.
    assert!(sparse.jacobian_evaluations > 0);
    assert_eq!(
        (sparse.steps, sparse.jacobian_evaluations),
        (dense.steps, dense.jacobian_evaluations)
    );
    assert_eq!(
        dense.function_evaluations - sparse.function_evaluations,
        (n - 2) * sparse.jacobian_evaluations,
        "sparse {sparse:?}\ndense {dense:?}"
    );
}
