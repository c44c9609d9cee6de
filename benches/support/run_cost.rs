//! Whole runs of a model (as `simulate` does them: every row kept in memory, no files), repeated,
//! for instruction counts under callgrind:
//!
//! ```text
//! cargo build --release --example run_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/run_cost \
//!     models/box_on_incline.toml 5 solver.rel_tol=1e-6 solver.abs_tol=1e-8
//! ```
//!
//! Prints the last run's steps, evaluations and final state, so that a change can be checked to
//! take the same steps.

use blockdyn::{load_model, simulate, RunOptions};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, model, runs, sets @ ..] = &args[..] else {
        eprintln!("usage: run_cost MODEL RUNS [SET…]");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("RUNS is a whole number");
    let d = load_model(
        Path::new(model),
        &blockdyn::Override::parse_all(sets).unwrap(),
    )
    .expect("the model loads");
    let mut last = None;
    for _ in 0..runs {
        last = Some(simulate(&d, RunOptions::default()).expect("runs"));
    }
    if let Some(r) = last {
        println!(
            "{} steps ({} rejected), {} evaluations, {} Jacobians, {} rows, x_end = {:?}",
            r.stats.steps,
            r.stats.rejected_steps,
            r.stats.function_evaluations,
            r.stats.jacobian_evaluations,
            r.recording.len(),
            r.final_state
        );
    }
}
