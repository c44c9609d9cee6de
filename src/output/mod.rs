//! Run output: the recorded time series, CSV, run statistics, and whole-or-nothing file writing.

pub mod atomic;
pub mod csv;
pub mod recording;
pub mod stats;

pub use atomic::{check_outputs, check_target, write_atomically, OutputError};
pub use csv::{write_csv, write_csv_to, CsvNumber};
pub use recording::{Column, Recording};
pub use stats::RunSummary;
