//! Engine overhead: a diagram against the same ODE hand-written as a closure, fusion against
//! calling every block, and the cost of building a diagram.
//!
//! Targets (ISSUE 2): the 100-stage chain built as a diagram takes at most 1.25× the hand-written
//! closure's time on the same solver and tolerances; a 1000-block diagram's minor step costs at
//! most 15 ns per block. Issue 13: the running-sums chain (n = 1000) fused is no slower than
//! called; a 1000-block diagram of non-linear blocks costs at most 8 ns per block per minor step;
//! building grows linearly (10 000-block chain, 2 000-stage running sums, each at two sizes).
//! Run: `cargo bench --bench diagram` (a group alone: `cargo bench --bench diagram -- build`).

use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::{FnSystem, Solver, System};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[path = "../tests/linear_models/mod.rs"]
mod linear_models;
use linear_models::{chain_model, nonlinear_model, running_sums_model};

fn bench(c: &mut Criterion) {
    let stages = 100;
    let (stop, rtol) = (10.0, 1e-6);
    let d = blockdyn::load_model_str("chain.toml", &chain_model(stages, stop, rtol, 1e-9), &[])
        .expect("chain model");
    let options = blockdyn::sim::solver_options(&d);
    let mut g = c.benchmark_group("chain100");
    // Built once, like the closure below; each iteration re-initializes and runs it.
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let mut solver = Solver::new(
        d.num_states(),
        d.zero_crossing_directions().len(),
        options.clone(),
    )
    .expect("solver");
    g.bench_function("diagram", |b| {
        b.iter(|| {
            let x0 = engine.initialize(0.0);
            black_box(solver.integrate(&mut engine, 0.0, &x0, stop).expect("run"))
        })
    });
    let mut unfused = Engine::with_fusion(&d, Recorder::new(&d), false);
    g.bench_function("diagram_unfused", |b| {
        b.iter(|| {
            let x0 = unfused.initialize(0.0);
            black_box(solver.integrate(&mut unfused, 0.0, &x0, stop).expect("run"))
        })
    });
    // The same ODE by hand. Like the diagram, the system and its solver are built once; each
    // iteration runs from the initial state.
    let mut closure = FnSystem::new(stages, |_t: f64, x: &[f64], dx: &mut [f64]| {
        let mut prev = 1.0;
        for i in 0..x.len() {
            dx[i] = 1.0 * prev - x[i];
            prev = x[i];
        }
    });
    let mut closure_solver = Solver::new(stages, 0, options.clone()).expect("solver");
    let zeros = vec![0.0; stages];
    g.bench_function("closure", |b| {
        b.iter(|| {
            black_box(
                closure_solver
                    .integrate(&mut closure, 0.0, &zeros, stop)
                    .expect("run"),
            )
        })
    });
    // One evaluation of f(t, x) each: where the difference between the two runs comes from.
    let x: Vec<f64> = (0..stages).map(|i| 1.0 / (1.0 + i as f64)).collect();
    let mut dx = vec![0.0; stages];
    let mut t = 0.5;
    engine.initialize(0.0);
    g.bench_function("evaluation_diagram", |b| {
        b.iter(|| {
            t += 1e-9;
            engine.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
    g.bench_function("initialize_diagram", |b| {
        b.iter(|| black_box(engine.initialize(0.0)))
    });
    g.bench_function("evaluation_closure", |b| {
        b.iter(|| {
            t += 1e-9;
            closure.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
    g.finish();

    // 1000 blocks: 333 stages of 3 blocks plus the source.
    let big = blockdyn::load_model_str("chain1000.toml", &chain_model(333, 1.0, 1e-6, 1e-9), &[])
        .expect("model");
    assert_eq!(big.blocks().len(), 1000);
    let mut engine = Engine::new(&big, Recorder::new(&big));
    let x = engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    let mut t = 0.5;
    c.bench_function("minor_step_1000_blocks", |b| {
        b.iter(|| {
            // A new time each call, so that the engine's output cache cannot skip the evaluation.
            t += 1e-9;
            engine.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
    // The same diagram with every block called (no linear fusion): the per-block dispatch cost.
    let mut unfused = Engine::with_fusion(&big, Recorder::new(&big), false);
    let x = unfused.initialize(0.0);
    c.bench_function("minor_step_1000_blocks_unfused", |b| {
        b.iter(|| {
            t += 1e-9;
            unfused.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
}

/// One minor step (outputs and derivatives at a new time) of `d`, fused or with every block called.
fn minor_step(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    d: &blockdyn::diagram::Diagram,
    fuse: bool,
) {
    let mut engine = Engine::with_fusion(d, Recorder::new(d), fuse);
    let x = engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    let mut t = 0.5;
    g.bench_function(name, |b| {
        b.iter(|| {
            t += 1e-9;
            engine.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
}

/// Issue 13: shapes that used to make fusion slower, and non-linear blocks.
fn shapes(c: &mut Criterion) {
    let sums = blockdyn::load_model_str("sums.toml", &running_sums_model(1000, 1.0), &[])
        .expect("running sums");
    let mut g = c.benchmark_group("running_sums1000");
    minor_step(&mut g, "fused", &sums, true);
    minor_step(&mut g, "called", &sums, false);
    g.finish();
    let nonlinear =
        blockdyn::load_model_str("nl.toml", &nonlinear_model(250, 1.0), &[]).expect("non-linear");
    assert_eq!(nonlinear.blocks().len(), 1001);
    let mut g = c.benchmark_group("nonlinear1000");
    minor_step(&mut g, "fused", &nonlinear, true);
    minor_step(&mut g, "called", &nonlinear, false);
    g.finish();
}

/// Parsing and building a diagram, then its fusion plan, at two sizes of each shape.
fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    let cases = [
        ("chain_10000_blocks", chain_model(3333, 1.0, 1e-6, 1e-9)),
        ("chain_20002_blocks", chain_model(6667, 1.0, 1e-6, 1e-9)),
        ("running_sums_2000_stages", running_sums_model(2000, 1.0)),
        ("running_sums_4000_stages", running_sums_model(4000, 1.0)),
    ];
    for (name, text) in &cases {
        g.bench_function(*name, |b| {
            b.iter(|| {
                let d = blockdyn::load_model_str("m.toml", text, &[]).expect("model");
                let plan = blockdyn::sim::linear::LinearPlan::build(&d);
                black_box((d.blocks().len(), plan.fused))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, shapes, build);
criterion_main!(benches);
