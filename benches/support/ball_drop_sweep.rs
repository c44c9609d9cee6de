//! The 64-point sweep of models/ball_drop.toml (8 contact stiffnesses × 8 dampings of
//! `contact.normal`) that examples/sweep_threads.rs, tests/sweep.rs and benches/sweep.rs share:
//! the model parsed once, every point run serially or over threads, and the bit-for-bit
//! comparison of two sweeps' recordings.
#![allow(dead_code)]

use blockdyn::sweep::{PointRun, RunSettings, Sweep, SweepPlan};
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

/// The varied stiffnesses (N/m), slowest-varying axis.
pub const STIFFNESSES: &str =
    "contact.normal.stiffness=2.5e4,5e4,7.5e4,1e5,1.25e5,1.5e5,1.75e5,2e5";
/// The varied dampings (N·s/m), fastest-varying axis.
pub const DAMPINGS: &str = "contact.normal.damping=25,50,75,100,125,150,175,200";

/// The sweep: models/ball_drop.toml parsed once, 64 points.
pub fn sweep() -> Sweep {
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/ball_drop.toml");
    let plan = SweepPlan::parse(&[STIFFNESSES, DAMPINGS]).expect("the plan reads");
    Sweep::load(&model, Vec::new(), plan).expect("ball_drop loads")
}

/// Runs every point on `jobs` threads (1: serially, on the calling thread), every row kept.
pub fn run(sweep: &Sweep, jobs: usize) -> Vec<PointRun> {
    let settings = RunSettings::with_jobs(NonZeroUsize::new(jobs).expect("jobs ≥ 1"));
    let points: Vec<usize> = (0..sweep.plan().len()).collect();
    sweep.check(&points, &settings).expect("every point builds");
    sweep
        .run_in_memory(&points, &settings)
        .expect("every point runs")
}

/// [`run`], timed.
pub fn timed_run(sweep: &Sweep, jobs: usize) -> (Vec<PointRun>, Duration) {
    let started = Instant::now();
    let runs = run(sweep, jobs);
    (runs, started.elapsed())
}

/// `Ok` when both sweeps ran the same points to the same recordings, bit for bit (times,
/// values, columns) with the same solver counts; else what differs first.
pub fn identical(a: &[PointRun], b: &[PointRun]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} points against {}", a.len(), b.len()));
    }
    for (x, y) in a.iter().zip(b) {
        let (Ok(rx), Ok(ry)) = (&x.result, &y.result) else {
            return Err(format!("point {} or {} failed", x.index, y.index));
        };
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
        let (p, q) = (&rx.recording, &ry.recording);
        if x.index != y.index
            || p.columns != q.columns
            || bits(&p.times) != bits(&q.times)
            || bits(&p.values) != bits(&q.values)
        {
            return Err(format!("point {} recorded different rows", x.index));
        }
        let counts = |r: &blockdyn::RunResult| {
            let s = &r.stats;
            (
                s.steps,
                s.rejected_steps,
                s.function_evaluations,
                s.zero_crossings,
            )
        };
        if counts(rx) != counts(ry) || bits(&rx.final_state) != bits(&ry.final_state) {
            return Err(format!("point {} took different steps", x.index));
        }
    }
    Ok(())
}
