//! Run output: the recorded time series, CSV, run statistics, and whole-or-nothing file writing.

pub mod animation;
pub(crate) mod atomic;
pub(crate) mod csv;
pub mod error;
pub mod image;
pub(crate) mod plot_rows;
pub(crate) mod recording;
pub mod rows;
pub mod sink;
pub(crate) mod staged;
pub mod stats;
pub mod target;

#[cfg(test)]
pub(crate) mod test_dirs;

pub use animation::{AnimationSettings, DrawFrames};
pub use csv::{write_csv, write_csv_to, CsvNumber, CsvStream};
pub use error::OutputError;
pub use plot_rows::PlotRows;
pub use recording::{quantity, Column, Recording};
pub use rows::{OutputRows, DEFAULT_MAX_OUTPUT_BYTES, MAX_REFINE, SMOOTH_MAX_REFINE, SMOOTH_ROWS};
pub use sink::{FileSink, DISK_FULL_AFTER_VAR};
pub use staged::{
    commit_all, commit_run_outputs, remove_staged_files, write_atomically, StagedFile,
};
pub use stats::RunSummary;
pub use target::{check_not_input, check_outputs, check_target, InputFiles};
