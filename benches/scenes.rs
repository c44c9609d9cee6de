//! The contact scenes users build (issue 26), under every method. Targets:
//!
//! - `four_coins` (models/four_coins.toml, rel_tol 1e-8): ≤ 20,000 accepted steps under the default
//!   settings (the report: 678,698 under dopri5).
//! - `gripper`, `dominoes`, `seesaw` (models/): under the default settings, no more than 1.5× the
//!   evaluations of the best of dopri5, trbdf2 and esdirk43 chosen by hand.
//! - `puck` (models/puck.toml): runs to rest under every method (it stalled before the level-rim
//!   fix, see docs/contact.md).
//!
//! For each scene it prints, once, the steps, rejected steps and evaluations (deterministic) and
//! the median wall time of 3 runs under the default settings and under each method named by
//! `--set solver.method=…` (a method the build does not know is skipped), with the default's
//! ratio to the best; then criterion times whole default runs. No wall-clock asserts.
//!
//! Run: `cargo bench --bench scenes` (about a minute).

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use blockdyn::{load_model, simulate, Diagram, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};

const SCENES: [&str; 5] = ["puck", "four_coins", "gripper", "dominoes", "seesaw"];
const METHODS: [&str; 4] = ["dopri5", "trbdf2", "esdirk43", "auto"];

fn load(scene: &str, method: Option<&str>) -> Option<Diagram> {
    let path = format!("{}/models/{scene}.toml", env!("CARGO_MANIFEST_DIR"));
    let overrides: Vec<String> = method
        .map(|m| vec![format!("solver.method=\"{m}\"")])
        .unwrap_or_default();
    load_model(
        Path::new(&path),
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .ok()
}

/// Steps, rejected steps, evaluations and the median wall time of 3 runs.
fn measure(d: &Diagram) -> (u64, u64, u64, Duration) {
    let mut times = Vec::new();
    let mut counts = (0, 0, 0);
    for _ in 0..3 {
        let start = Instant::now();
        let r = simulate(d, RunOptions::default()).expect("the scene runs");
        times.push(start.elapsed());
        counts = (
            r.stats.steps as u64,
            r.stats.rejected_steps as u64,
            r.stats.function_evaluations as u64,
        );
    }
    times.sort();
    (counts.0, counts.1, counts.2, times[1])
}

fn report() {
    println!("scene        method     steps  rejected  evaluations   wall (median of 3)");
    for scene in SCENES {
        let mut best = u64::MAX;
        let mut default_evaluations = 0;
        for method in std::iter::once(None).chain(METHODS.iter().map(|m| Some(*m))) {
            let Some(d) = load(scene, method) else {
                continue;
            };
            let (steps, rejected, evaluations, wall) = measure(&d);
            let label = method.unwrap_or("default");
            println!(
                "{scene:<12} {label:<9} {steps:>7} {rejected:>9} {evaluations:>12}   {wall:.2?}"
            );
            match method {
                None => default_evaluations = evaluations,
                Some("auto") => {}
                Some(_) => best = best.min(evaluations),
            }
        }
        println!(
            "{scene:<12} default / best fixed method: {:.2}× the evaluations",
            default_evaluations as f64 / best as f64
        );
    }
}

fn scenes(c: &mut Criterion) {
    report();
    let mut group = c.benchmark_group("scenes");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for scene in SCENES {
        let d = load(scene, None).expect("the scene loads");
        group.bench_function(scene, |b| {
            b.iter(|| black_box(simulate(&d, RunOptions::default()).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, scenes);
criterion_main!(benches);
