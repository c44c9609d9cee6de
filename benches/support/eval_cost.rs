//! One model's derivative evaluated many times at one state, for instruction counts per
//! evaluation under callgrind (the clock of a shared 2-core machine cannot resolve them):
//!
//! ```text
//! cargo build --release --example eval_cost
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/eval.out target/release/examples/eval_cost \
//!     models/ball_drop.toml 100000 free.position=[0,0,0.0999]
//! ```
//!
//! Prints the evaluations and the state it evaluated at. Each call gets a new time, so the engine's
//! output cache never short-cuts an evaluation. Divide the instructions counted between two
//! runs with different counts by their difference to get the cost of one evaluation alone.

use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::System;
use std::hint::black_box;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: eval_cost MODEL EVALUATIONS [PATH=VALUE ...]");
        std::process::exit(2);
    }
    let evaluations: usize = args[2].parse().expect("EVALUATIONS is a whole number");
    let d = blockdyn::load_model(
        Path::new(&args[1]),
        &blockdyn::Override::parse_all(&args[3..]).unwrap(),
    )
    .expect("the model loads");
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x = engine.initialize(0.0);
    let mut dxdt = vec![0.0; x.len()];
    let mut t = 0.0;
    for _ in 0..evaluations {
        t += 1e-9;
        engine.derivatives(black_box(t), black_box(&x), &mut dxdt);
        black_box(&dxdt);
    }
    println!("{evaluations} evaluations at x = {x:?}, dx/dt = {dxdt:?}");
}
