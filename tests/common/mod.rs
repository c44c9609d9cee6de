//! Helpers shared by the model tests: run a model file, read recorded columns.
#![allow(dead_code)]

use blockdyn::output::Recording;
use std::path::Path;

/// Runs `path` with `--set` style overrides; panics with the error's message on failure.
pub fn run(path: &str, overrides: &[&str]) -> blockdyn::RunResult {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let d =
        blockdyn::load_model(Path::new(path), &overrides).unwrap_or_else(|e| panic!("{path}: {e}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The values of the column called `name`.
pub fn column(rec: &Recording, name: &str) -> Vec<f64> {
    let j = rec.column_index(name).unwrap_or_else(|| {
        panic!(
            "no column {name}; have {:?}",
            rec.columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
        )
    });
    rec.column_values(j).collect()
}

/// Value of column `name` at row `i`.
pub fn at(rec: &Recording, name: &str, i: usize) -> f64 {
    let j = rec
        .column_index(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    rec.row(i)[j]
}

/// Rows `i` such that times[i] == times[i-1]: the "after" rows of located events.
pub fn event_rows(rec: &Recording) -> Vec<usize> {
    (1..rec.len())
        .filter(|&i| rec.times[i] == rec.times[i - 1])
        .collect()
}

/// The last row at or before time `t`.
pub fn row_at(rec: &Recording, t: f64) -> usize {
    rec.times.iter().rposition(|&x| x <= t).unwrap_or(0)
}

/// The error message of a model that must be rejected.
pub fn build_error(text: &str) -> String {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Builds and runs a model given as text (in memory: nothing is written).
pub fn run_text(label: &str, text: &str) -> blockdyn::RunResult {
    run_text_with(label, text, &[])
}

/// [`run_text`] with `--set` style overrides (`"block.param=value"`).
pub fn run_text_with(label: &str, text: &str, overrides: &[&str]) -> blockdyn::RunResult {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let d = blockdyn::load_model_str(label, text, &overrides)
        .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{label}: {e}"))
}

/// The error of building the model file `path` (panics when it builds).
pub fn load_error(path: &str) -> String {
    match blockdyn::load_model(Path::new(path), &[]) {
        Ok(_) => panic!("{path} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// Writes `text` to `dir/name` and returns that path as text.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}
