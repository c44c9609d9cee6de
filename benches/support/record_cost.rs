//! One way of recording a model's run, repeated, for instruction counts under callgrind (the CPU
//! clock of a shared machine cannot resolve the few per cent the streaming target is about):
//!
//! ```text
//! cargo build --release --example record_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/record_cost \
//!     models/bouncing_ball.toml memory 5
//! ```
//!
//! Ways: `memory` (every row kept, then the CSV written), `stream` (the CSV streamed to a staged
//! file), `stream-plot` (also the plot's decimated rows). Files go to the system's temporary
//! directory and are removed.

use blockdyn::output::{commit_all, write_csv, StagedFile};
use blockdyn::sim::StreamTo;
use blockdyn::{load_model, simulate, RunOptions};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, model, way, runs] = &args[..] else {
        eprintln!("usage: record_cost MODEL memory|stream|stream-plot RUNS");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("RUNS is a whole number");
    let d = load_model(Path::new(model), &[]).expect("the model loads");
    let csv = std::env::temp_dir().join(format!("blockdyn-record-cost-{}.csv", std::process::id()));
    for _ in 0..runs {
        match way.as_str() {
            "memory" => {
                let run = simulate(&d, RunOptions::default()).expect("runs");
                write_csv(&run.recording, &csv).expect("CSV");
            }
            "stream" | "stream-plot" => {
                let options = RunOptions {
                    stream: Some(StreamTo {
                        csv: Some(StagedFile::create(&csv, "CSV").expect("staged")),
                        plot: way == "stream-plot",
                        size_warning: None,
                    }),
                    ..RunOptions::default()
                };
                let run = simulate(&d, options).expect("runs");
                commit_all(run.csv.into_iter().collect()).expect("committed");
            }
            other => panic!("unknown way {other}"),
        }
    }
    let _ = std::fs::remove_file(&csv);
}
