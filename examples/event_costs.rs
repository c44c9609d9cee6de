//! What a model's run costs, counted: the solver's statistics (steps, redone steps, evaluations
//! of f and of the zero-crossing functions, located crossings, time events, Jacobians and LU
//! factorisations) and the CPU time,
//! for BENCHMARKS.md's event-cost tables (issue 30). The rows are kept in memory, not written.
//!
//! Run: `cargo run --release --example event_costs -- MODEL.toml [--set PATH=VALUE ...]`.

use blockdyn::{load_model, simulate, Override, RunOptions};
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(model) = args.first() else {
        eprintln!("usage: event_costs MODEL.toml [--set PATH=VALUE ...]");
        std::process::exit(2);
    };
    let written: Vec<&String> = args[1..].iter().filter(|a| a.as_str() != "--set").collect();
    let overrides = match Override::parse_all(&written) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let diagram = match load_model(Path::new(model), &overrides) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let start = Instant::now();
    let result = match simulate(&diagram, RunOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let s = &result.stats;
    println!(
        "{model}: {} steps ({} rejected, {} redone), {} evaluations of f, {} of g, {} crossings ({} past a redone step's end), {} time events, {} steps cut before a foreseen crossing ({} missed), {} Jacobians, {} LU factorisations ({} sparse), {:.3} s",
        s.steps,
        s.rejected_steps,
        s.redone_steps,
        s.function_evaluations,
        s.crossing_evaluations,
        s.zero_crossings,
        s.crossings_ahead,
        s.time_events,
        s.foreseen_steps,
        s.forecast_misses,
        s.jacobian_evaluations,
        s.lu_factorizations,
        s.sparse_lu_factorizations,
        start.elapsed().as_secs_f64()
    );
}
