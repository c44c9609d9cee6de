//! The command line's work, as library calls: `src/main.rs` parses the arguments and formats
//! what these return.

pub mod import;
pub mod linearize;
pub mod run;
pub mod sweep;
