//! Run output: the recorded time series, CSV, run statistics, and whole-or-nothing file writing.

pub(crate) mod atomic;
pub(crate) mod csv;
pub(crate) mod plot_rows;
pub(crate) mod recording;
pub(crate) mod staged;
pub mod stats;

#[cfg(test)]
pub(crate) mod test_dirs;

pub use atomic::{check_outputs, check_target, write_atomically, OutputError};
pub use csv::{write_csv, write_csv_to, CsvNumber, CsvStream};
pub use plot_rows::PlotRows;
pub use recording::{Column, Recording};
pub use staged::{commit_all, remove_staged_files, StagedFile};
pub use stats::RunSummary;
