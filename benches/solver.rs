//! Solver benchmarks: `cargo bench --bench solver`.
//!
//! - the 5-s bouncing ball (h0 = 10 m, e = 0.8) as a plain `System`, Dormand–Prince, defaults;
//! - a 100-state linear chain x₀' = −x₀, xᵢ' = −xᵢ + xᵢ₋₁ (hand-written `FnSystem`) to 10 s at
//!   rel_tol 1e-6.

use blockdyn::solver::problems::BouncingBall;
use blockdyn::solver::{FnSystem, Solver, SolverOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn bouncing_ball(c: &mut Criterion) {
    let mut solver = Solver::new(2, 1, SolverOptions::default()).unwrap();
    let mut ball = BouncingBall::new(0.8, 16);
    c.bench_function("dopri5 bouncing ball 5 s", |b| {
        b.iter(|| {
            ball.impact_times.clear();
            let stats = solver
                .integrate(&mut ball, 0.0, black_box(&[10.0, 0.0]), 5.0)
                .unwrap();
            black_box(stats)
        })
    });
}

fn linear_chain(c: &mut Criterion) {
    const N: usize = 100;
    let options = SolverOptions {
        rel_tol: 1e-6,
        ..Default::default()
    };
    let mut solver = Solver::new(N, 0, options).unwrap();
    let mut chain = FnSystem::new(N, |_t, x: &[f64], d: &mut [f64]| {
        d[0] = -x[0];
        for i in 1..N {
            d[i] = -x[i] + x[i - 1];
        }
    });
    let mut x0 = [0.0; N];
    x0[0] = 1.0;
    c.bench_function("dopri5 linear chain 100 states 10 s rtol 1e-6", |b| {
        b.iter(|| {
            black_box(
                solver
                    .integrate(&mut chain, 0.0, black_box(&x0), 10.0)
                    .unwrap(),
            )
        })
    });
}

criterion_group!(benches, bouncing_ball, linear_chain);
criterion_main!(benches);
