//! Implicit methods above `MAX_IMPLICIT_STATES` (4,000 states): a sparse model runs on the
//! sparse LU alone; a Jacobian that needs the dense path is refused at its first need, naming
//! the time, with nothing dense allocated; without the sparse path the refusal is at build.

use blockdyn::solver::{
    Direction, EventOutcome, Method, Solver, SolverError, SolverOptions, SparsityPattern, System,
    MAX_IMPLICIT_STATES,
};

/// `pairs` copies of a stiff linear pair, pair k scaled by s_k = 1 + k/pairs:
/// x₀' = −x₀ + x₁, x₁' = −1000·x₁, (x₀, x₁)(0) = s_k·(1, 1), with the closed form
/// x₁ = s_k·e^(−1000t), x₀ = s_k·((1 + 1/999)·e^(−t) − e^(−1000t)/999).
/// `pattern`: what `jacobian_sparsity` declares.
struct StiffPairs {
    pairs: usize,
    pattern: Declared,
}

#[derive(Clone, Copy, PartialEq)]
enum Declared {
    /// Each pair's 2 × 2 block (3 entries).
    Pairs,
    /// No pattern (`jacobian_sparsity` returns false): a dense Jacobian.
    Nothing,
    /// Each state reads `width` states around it: a banded pattern denser than the sparse
    /// path takes (1/8 of n²).
    Band(usize),
}

impl StiffPairs {
    fn scale(&self, k: usize) -> f64 {
        1.0 + k as f64 / self.pairs as f64
    }

    fn exact(&self, t: f64) -> Vec<f64> {
        let (slow, fast) = ((-t).exp(), (-1000.0 * t).exp());
        (0..self.pairs)
            .flat_map(|k| {
                let s = self.scale(k);
                [s * ((1.0 + 1.0 / 999.0) * slow - fast / 999.0), s * fast]
            })
            .collect()
    }
}

impl System for StiffPairs {
    fn state_dim(&self) -> usize {
        2 * self.pairs
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, x: &[f64], dxdt: &mut [f64]) {
        for (x, d) in x.chunks_exact(2).zip(dxdt.chunks_exact_mut(2)) {
            d[0] = -x[0] + x[1];
            d[1] = -1000.0 * x[1];
        }
    }
    fn zero_crossings(&mut self, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    fn handle_events(
        &mut self,
        _t: f64,
        _x: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        EventOutcome::default()
    }
    fn jacobian_sparsity(&self, pattern: &mut SparsityPattern) -> bool {
        let n = self.state_dim();
        match self.pattern {
            Declared::Pairs => {
                for k in 0..self.pairs {
                    pattern.depends(2 * k, 2 * k);
                    pattern.depends(2 * k, 2 * k + 1);
                    pattern.depends(2 * k + 1, 2 * k + 1);
                }
                true
            }
            Declared::Nothing => false,
            Declared::Band(width) => {
                for i in 0..n {
                    let from = i.saturating_sub(width / 2).min(n - width);
                    pattern.depends_on_range(i, from..from + width);
                }
                true
            }
        }
    }
}

/// 2,101 pairs: 4,202 states, just past the limit.
const PAIRS: usize = 2101;

fn options(method: Method) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol: 1e-6,
        abs_tol: 1e-8,
        ..Default::default()
    }
}

/// Both implicit methods integrate 4,202 states over [0, 1] with every factorisation sparse
/// (was refused at build), to within 4e-5 of the closed form: each step's local error is held
/// below rel_tol·|x| ≈ 1e-6 · 2 (the largest state is 2), the slow mode (decay rate 1/s) keeps
/// most of what accumulates over the span, and a tolerance-controlled run's global error is a
/// small multiple of that; the bound allows 20 (measured: 1.15e-5 for trbdf2 over 361 steps). A
/// wrong solve (a stale or mis-scattered Jacobian converging to a wrong stage) is off by far
/// more; the closed form is independent of the code.
#[test]
fn a_sparse_model_above_the_limit_runs_on_the_sparse_lu_alone() {
    const { assert!(2 * PAIRS > MAX_IMPLICIT_STATES) };
    for method in [Method::Trbdf2, Method::Esdirk43] {
        let mut system = StiffPairs {
            pairs: PAIRS,
            pattern: Declared::Pairs,
        };
        let x0 = system.exact(0.0);
        let mut solver = Solver::new(2 * PAIRS, 0, options(method)).unwrap();
        let stats = solver.integrate(&mut system, 0.0, &x0, 1.0).unwrap();
        assert_eq!(stats.final_time, 1.0);
        assert!(stats.lu_factorizations > 0);
        assert_eq!(
            stats.sparse_lu_factorizations, stats.lu_factorizations,
            "{method:?}: {stats:?}"
        );
        let exact = system.exact(1.0);
        let error = solver
            .state()
            .iter()
            .zip(&exact)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(error < 4e-5, "{method:?}: error {error:e}, {stats:?}");
    }
}

/// A dense Jacobian above the limit (no pattern declared; or a band of 700 of the 4,202
/// columns per row, 17 % of n², above the sparse path's 1/8) is refused at the first Jacobian,
/// at t = 0, before any step: the error names the method, the size and the time, and the state
/// is still the initial one.
#[test]
fn a_dense_jacobian_above_the_limit_is_refused_at_its_first_need() {
    for pattern in [Declared::Nothing, Declared::Band(700)] {
        let mut system = StiffPairs {
            pairs: PAIRS,
            pattern,
        };
        let x0 = system.exact(0.0);
        let mut solver = Solver::new(2 * PAIRS, 0, options(Method::Trbdf2)).unwrap();
        let err = solver.integrate(&mut system, 0.0, &x0, 1.0).unwrap_err();
        let SolverError::InvalidOptions(message) = &err else {
            panic!("{err:?}")
        };
        assert!(
            message.contains("method \"trbdf2\" needs a dense 4202 × 4202 Jacobian")
                && message.contains("at t = 0 ")
                && message.contains("the limit of an implicit method is 4000 states"),
            "{message}"
        );
        assert_eq!(solver.state(), x0.as_slice());
    }
}

/// Without the sparse path (`sparse_lu = false`) every Jacobian is dense: refused at build.
#[test]
fn without_the_sparse_path_the_refusal_is_at_build() {
    let options = SolverOptions {
        sparse_lu: false,
        ..options(Method::Esdirk43)
    };
    let Err(err) = Solver::new(2 * PAIRS, 0, options) else {
        panic!("built without the sparse path")
    };
    assert!(
        err.to_string()
            .contains("method \"esdirk43\" needs a dense 4202 × 4202 Jacobian")
            && err.to_string().contains("(sparse_lu = false)"),
        "{err}"
    );
}
