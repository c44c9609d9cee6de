//! The peers' contact problems (`../shared/bench/peers.md`) as blockdyn models, timed per run.
//!
//! ball_drop: models/ball_drop.toml (plots and CSV off), at several tolerances; accuracy is the
//! first rebound apex against 0.4599056 m. box_slide: models/box_on_incline.toml; accuracy is
//! x(1 s) against the compliant model's converged 1.1767749 m. Each configuration prints its
//! evaluations and error once, then criterion times whole runs. Target (ISSUE 4): at least 20×
//! faster than Drake's continuous-time MultibodyPlant at equal or better accuracy
//! (Drake: ball_drop 26 ms at 2.7e-5, 77 ms at 7.9e-7; box_slide 33 ms / 58 ms at 1.6e-3).
//! Run: `cargo bench --bench peers`.

use blockdyn::output::Recording;
use blockdyn::{load_model, simulate, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;

fn column(rec: &Recording, name: &str) -> Vec<f64> {
    rec.column_values(rec.column_index(name).expect(name))
        .collect()
}

fn apex_error(rec: &Recording) -> f64 {
    let events: Vec<usize> = (1..rec.len())
        .filter(|&i| rec.times[i] == rec.times[i - 1])
        .collect();
    let (z, v) = (column(rec, "free.p[2]"), column(rec, "free.v[2]"));
    let end = events[1];
    z[end] + v[end] * v[end] / (2.0 * 9.81) - 0.4599056
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("peers");
    g.sample_size(20);
    for tol in ["1e-5", "1e-6", "1e-7", "1e-8"] {
        let sets = vec![
            format!("solver.rel_tol={tol}"),
            "solver.abs_tol=1e-12".to_string(),
        ];
        let d = load_model(
            Path::new("models/ball_drop.toml"),
            &blockdyn::Override::parse_all(&sets).unwrap(),
        )
        .expect("ball_drop");
        let r = simulate(&d, RunOptions::default()).expect("run");
        println!(
            "ball_drop rel_tol {tol}: {} steps, {} evaluations, apex error {:+.2e} m",
            r.stats.steps,
            r.stats.function_evaluations,
            apex_error(&r.recording)
        );
        g.bench_function(format!("ball_drop_rtol_{tol}"), |b| {
            b.iter(|| simulate(&d, RunOptions::default()).expect("run"))
        });
    }
    for tol in ["1e-4", "1e-6"] {
        let sets = vec![format!("solver.rel_tol={tol}")];
        let d = load_model(
            Path::new("models/box_on_incline.toml"),
            &blockdyn::Override::parse_all(&sets).unwrap(),
        )
        .expect("box");
        let r = simulate(&d, RunOptions::default()).expect("run");
        let x = column(&r.recording, "free.p[0]");
        println!(
            "box_slide rel_tol {tol}: {} steps, {} evaluations, x(1 s) − 1.1767749 = {:+.2e} m (− rigid 1.178144: {:+.2e})",
            r.stats.steps,
            r.stats.function_evaluations,
            x[x.len() - 1] - 1.1767749,
            x[x.len() - 1] - 1.178144
        );
        g.bench_function(format!("box_slide_rtol_{tol}"), |b| {
            b.iter(|| simulate(&d, RunOptions::default()).expect("run"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
