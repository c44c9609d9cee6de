//! Streaming a run's rows (issue 12, part 2): the streamed CSV is the same file as the one written
//! from memory, the plot's decimated rows keep every column's extrema and the event jumps, and a
//! CSV passing its size gets one warning. Files go into a fresh temporary directory.

use blockdyn::output::{commit_all, write_csv, StagedFile};
use blockdyn::sim::{SizeWarning, StreamTo};
use blockdyn::{load_model, simulate, RunOptions};
use std::path::Path;
use std::sync::{Arc, Mutex};
mod cli_common;
use cli_common::temp_dir;

fn ball_drop() -> blockdyn::Diagram {
    load_model(Path::new("models/ball_drop.toml"), &[]).expect("ball_drop")
}

fn streamed(csv: &Path, warning: Option<SizeWarning>) -> blockdyn::RunResult {
    let options = RunOptions {
        stream: Some(StreamTo {
            csv: Some(StagedFile::create(csv, "CSV").unwrap()),
            plot: true,
            size_warning: warning,
        }),
        ..RunOptions::default()
    };
    let mut run = simulate(&ball_drop(), options).expect("runs");
    commit_all(run.csv.take().into_iter().collect()).unwrap();
    run
}

#[test]
fn the_streamed_csv_is_the_csv_written_from_memory() {
    let dir = temp_dir("same");
    let (from_memory, from_stream) = (dir.join("memory.csv"), dir.join("stream.csv"));
    let whole = simulate(&ball_drop(), RunOptions::default()).unwrap();
    write_csv(&whole.recording, &from_memory).unwrap();
    let run = streamed(&from_stream, None);
    assert_eq!(run.rows, whole.recording.len());
    assert_eq!(
        std::fs::read(&from_stream).unwrap(),
        std::fs::read(&from_memory).unwrap()
    );

    // The plot's rows: fewer, with each column's extremes over the run exactly, and every event
    // jump (two rows at one time) of the full recording.
    let plot = &run.recording;
    assert!(plot.len() <= whole.recording.len());
    for j in 0..plot.columns.len() {
        let extremes = |values: Vec<f64>| {
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            (min, max)
        };
        assert_eq!(
            extremes(plot.column_values(j).collect()),
            extremes(whole.recording.column_values(j).collect()),
            "column {}",
            plot.columns[j].name
        );
    }
    let jumps = |rec: &blockdyn::output::Recording| -> Vec<f64> {
        rec.times
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect()
    };
    assert_eq!(jumps(plot), jumps(&whole.recording));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_csv_passing_its_size_warns_once() {
    let dir = temp_dir("warning");
    let csv = dir.join("ball.csv");
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = said.clone();
    let warning = SizeWarning::new(
        20_000,
        Box::new(move |message| sink.lock().unwrap().push(message)),
    );
    streamed(&csv, Some(warning));
    let said = said.lock().unwrap();
    assert_eq!(said.len(), 1, "{said:?}");
    let message = &said[0];
    assert!(
        message.contains("the CSV passed 0.00002 GB at t = "),
        "{message}"
    );
    assert!(
        message.contains("help: set [output] sample_time"),
        "{message}"
    );
    // The projection (size so far × stop_time / t) against the final size: ball_drop's rows are
    // spread over the run, denser during contacts, so within a factor of 3 either way.
    let projected: f64 = message
        .split("about ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a projected size");
    let size = std::fs::metadata(&csv).unwrap().len() as f64 / 1e9;
    assert!(
        projected / size < 3.0 && size / projected < 3.0,
        "projected {projected} GB, final {size} GB"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sample_time_rows_are_estimated_before_the_run() {
    // The estimate is rows × (columns + the time) × 20 bytes, with rows = the 30000 multiples
    // of 1e-4 s before the stop time 3 s, and the final row: 30001.
    let dir = temp_dir("estimate");
    let csv = dir.join("ball.csv");
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = said.clone();
    let d = load_model(
        Path::new("models/ball_drop.toml"),
        &["output.sample_time=1e-4".parse().unwrap()],
    )
    .unwrap();
    let options = RunOptions {
        stream: Some(StreamTo {
            csv: Some(StagedFile::create(&csv, "CSV").unwrap()),
            plot: false,
            size_warning: Some(SizeWarning::new(
                1_000_000,
                Box::new(move |message| sink.lock().unwrap().push(message)),
            )),
        }),
        ..RunOptions::default()
    };
    let run = simulate(&d, options).unwrap();
    let said = said.lock().unwrap();
    assert_eq!(said.len(), 1, "{said:?}");
    let columns = run.recording.columns.len() + 1;
    let estimate = 30001.0 * columns as f64 * 20.0 / 1e9;
    assert!(
        said[0].contains(&format!(
            "30001 rows (stop_time / sample_time) × {columns} columns"
        )),
        "{}",
        said[0]
    );
    let stated: f64 = said[0]
        .split("about ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        (stated / estimate - 1.0).abs() < 1e-3,
        "{stated} against {estimate}"
    );
    drop(run);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_plot_from_decimated_rows_looks_like_the_plot_from_every_row() {
    // bouncing_ball with refine = 400: 59 steps × 400 = 23,600 rows over 5 s, about 6 per
    // bucket of the plot's 4096, so the streamed run keeps 4 rows per bucket instead.
    let d = load_model(
        Path::new("models/bouncing_ball.toml"),
        &["output.refine=400".parse().unwrap()],
    )
    .unwrap();
    let whole = simulate(&d, RunOptions::default()).unwrap();
    let options = RunOptions {
        stream: Some(StreamTo {
            csv: None,
            plot: true,
            size_warning: None,
        }),
        ..RunOptions::default()
    };
    let decimated = simulate(&d, options).unwrap();
    assert_eq!(decimated.rows, whole.recording.len());
    assert!(
        decimated.recording.len() < whole.recording.len() * 3 / 4,
        "{} of {} rows kept",
        decimated.recording.len(),
        whole.recording.len()
    );
    let plot = blockdyn::plot::PlotOptions::default();
    let path = Path::new("unused.png");
    let a = blockdyn::plot::render_rgb(&whole.recording, path, &plot).unwrap();
    let b = blockdyn::plot::render_rgb(&decimated.recording, path, &plot).unwrap();
    assert_eq!((a.width, a.height), (b.width, b.height));
    let differing = a
        .pixels
        .chunks(3)
        .zip(b.pixels.chunks(3))
        .filter(|(p, q)| p != q)
        .count();
    // An extremum may move by a third of a pixel column, and anti-aliased edges with it: a few
    // pixels along the curves, far below 0.1 % of the 960,000.
    assert!(differing < 960, "{differing} pixels differ");
}
