//! The implicit methods' sparse LU path against closed forms and against the dense path, and
//! its allocation: a stiff chain of masses (N masses between two walls, springs k between
//! neighbours, damping c on each mass), whose pattern is tridiagonal by blocks.

use blockdyn::solver::{
    Direction, EventOutcome, Method, Solver, SolverOptions, SolverStats, SparsityPattern, System,
};

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

/// x = (q₁..q_N, v₁..v_N): q̇ⱼ = vⱼ, v̇ⱼ = k·(qⱼ₋₁ − 2qⱼ + qⱼ₊₁) − c·vⱼ (q₀ = q_{N+1} = 0, unit
/// masses).
struct Chain {
    n: usize,
    k: f64,
    c: f64,
}

impl Chain {
    /// Mode m (1..=N): shape sin(j·m·π/(N+1)), eigenvalue of the stiffness
    /// ω_m² = 2k·(1 − cos(m·π/(N+1))) (the path graph's Laplacian with fixed ends).
    fn omega2(&self, m: usize) -> f64 {
        2.0 * self.k * (1.0 - (m as f64 * std::f64::consts::PI / (self.n + 1) as f64).cos())
    }

    fn shape(&self, m: usize, j: usize) -> f64 {
        ((j + 1) as f64 * m as f64 * std::f64::consts::PI / (self.n + 1) as f64).sin()
    }

    /// The closed form from q(0) = Σ a_m·shape_m, v(0) = 0: each mode a damped oscillator
    /// ä + c·ȧ + ω²·a = 0, a(t) = a₀·e^(−ct/2)·(cos ω_d t + (c/2ω_d)·sin ω_d t) underdamped, and
    /// a₀·(r₁e^(r₂t) − r₂e^(r₁t))/(r₁ − r₂) with the real roots r₁,₂ overdamped.
    fn exact(&self, modes: &[(usize, f64)], t: f64, q: &mut [f64]) {
        q.fill(0.0);
        for &(m, a0) in modes {
            let (w2, h) = (self.omega2(m), self.c / 2.0);
            let a = if w2 > h * h {
                let wd = (w2 - h * h).sqrt();
                a0 * (-h * t).exp() * ((wd * t).cos() + h / wd * (wd * t).sin())
            } else {
                let s = (h * h - w2).sqrt();
                let (r1, r2) = (-h + s, -h - s);
                a0 * (r1 * (r2 * t).exp() - r2 * (r1 * t).exp()) / (r1 - r2)
            };
            for (j, qj) in q.iter_mut().enumerate() {
                *qj += a * self.shape(m, j);
            }
        }
    }
}

impl System for Chain {
    fn state_dim(&self) -> usize {
        2 * self.n
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, x: &[f64], d: &mut [f64]) {
        let (q, v) = x.split_at(self.n);
        for j in 0..self.n {
            let left = if j > 0 { q[j - 1] } else { 0.0 };
            let right = if j + 1 < self.n { q[j + 1] } else { 0.0 };
            d[j] = v[j];
            d[self.n + j] = self.k * (left - 2.0 * q[j] + right) - self.c * v[j];
        }
    }
    fn zero_crossings(&mut self, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    fn handle_events(&mut self, _: f64, _: &mut [f64], _: &[usize], _: bool) -> EventOutcome {
        EventOutcome::default()
    }
    fn jacobian_sparsity(&self, pattern: &mut SparsityPattern) -> bool {
        let n = self.n;
        for j in 0..n {
            pattern.depends(j, n + j);
            pattern.depends_on_range(n + j, j.saturating_sub(1)..(j + 2).min(n));
            pattern.depends(n + j, n + j);
        }
        true
    }
}

const MODES: [(usize, f64); 2] = [(1, 0.01), (7, 0.002)];

fn run(chain: &mut Chain, method: Method, sparse_lu: bool, t_end: f64) -> (Vec<f64>, usize) {
    let options = SolverOptions {
        method,
        rel_tol: 1e-6,
        abs_tol: 1e-9,
        sparse_lu,
        ..Default::default()
    };
    let n = chain.n;
    let mut x0 = vec![0.0; 2 * n];
    chain.exact(&MODES, 0.0, &mut x0[..n]);
    let mut solver = Solver::new(2 * n, 0, options).unwrap();
    let stats = solver.integrate(chain, 0.0, &x0, t_end).unwrap();
    (solver.state().to_vec(), stats.sparse_lu_factorizations)
}

/// 100 masses (200 states, 598 + 200 entries in J's pattern: sparse), k = 1e4 N/m, c = 20 N·s/m:
/// the stiffest mode (ω ≈ 200 s⁻¹) is overdamped-ish and fast, the slowest slow. Under trbdf2
/// and esdirk43 the sparse path is taken (its factorisation counted) and gives q(0.5 s) within
/// 1e-6 m of the closed form (the runs' own error at rel_tol 1e-6 on amplitudes of 1e-2 m is
/// about 1e-7 m; 1e-6 leaves room for its accumulation over ~100 steps), and within 1e-10 m of
/// the dense path's (the same Newton iterates up to the two LUs' rounding, 1e-13 relative, which
/// the step control may amplify only through accept/reject decisions near the threshold).
#[test]
fn the_sparse_path_matches_the_closed_form_and_the_dense_path() {
    for method in [Method::Trbdf2, Method::Esdirk43] {
        let mut chain = Chain {
            n: 100,
            k: 1e4,
            c: 20.0,
        };
        let t_end = 0.5;
        let (sparse, sparse_count) = run(&mut chain, method, true, t_end);
        let (dense, dense_count) = run(&mut chain, method, false, t_end);
        assert!(
            sparse_count > 0,
            "{method:?}: the sparse path was not taken"
        );
        assert_eq!(dense_count, 0, "{method:?}");
        let mut exact = vec![0.0; chain.n];
        chain.exact(&MODES, t_end, &mut exact);
        for j in 0..chain.n {
            assert!(
                (sparse[j] - exact[j]).abs() < 1e-6,
                "{method:?} mass {j}: {} vs {}",
                sparse[j],
                exact[j]
            );
            assert!(
                (sparse[j] - dense[j]).abs() < 1e-10,
                "{method:?} mass {j}: sparse {} dense {}",
                sparse[j],
                dense[j]
            );
        }
    }
}

/// After a first run has analysed the pattern (the symbolic factorisation allocates once per
/// pattern), a second run of the same solver allocates nothing: Jacobians, sparse
/// factorisations and solves all work in buffers sized by the first.
#[test]
fn the_sparse_path_allocates_nothing_after_its_analysis() {
    // Stiff enough (ω up to 2000 s⁻¹) that auto switches to its implicit method.
    let mut chain = Chain {
        n: 80,
        k: 1e6,
        c: 200.0,
    };
    let n = chain.n;
    let mut x0 = vec![0.0; 2 * n];
    chain.exact(&MODES, 0.0, &mut x0[..n]);
    for method in [Method::Trbdf2, Method::Auto] {
        let options = SolverOptions {
            method,
            rel_tol: 1e-6,
            ..Default::default()
        };
        let mut solver = Solver::new(2 * n, 0, options).unwrap();
        let first = solver.integrate(&mut chain, 0.0, &x0, 0.3).unwrap();
        let (second, allocations) = count(|| solver.integrate(&mut chain, 0.0, &x0, 0.3));
        let second = second.unwrap();
        assert!(first.sparse_lu_factorizations > 0, "{method:?}: {first:?}");
        // The second run finds the pattern it analysed already: no new analysis.
        assert_eq!((first.sparse_analyses, second.sparse_analyses), (1, 0));
        let second = SolverStats {
            sparse_analyses: 1,
            ..second
        };
        assert_eq!(first, second, "{method:?}: the runs differ");
        assert_eq!(allocations, 0, "{method:?} allocated in its second run");
    }
}
