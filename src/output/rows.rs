//! Which rows a run records (`[output] refine`, `sample_time`, or neither) and the output
//! budget: run settings the model reads and the simulation follows.

/// The output budget without `[output] max_bytes`: 10 GB of CSV.
pub const DEFAULT_MAX_OUTPUT_BYTES: f64 = 1e10;

/// Which rows a run records: `[output] refine = N`, `[output] sample_time = dt`, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum OutputRows {
    /// Neither: each step's end, plus rows from the step's dense output so that no two rows are
    /// more than stop_time / [`SMOOTH_ROWS`] apart (at most [`SMOOTH_MAX_REFINE`] rows per step).
    /// Short steps (contacts, events) add nothing; long smooth steps are drawn as curves.
    #[default]
    Smooth,
    /// `refine = N`: N rows per step, N − 1 of them from the dense output inside the step.
    Refine(usize),
    /// `sample_time = dt`: rows at t = k·dt (k = 0, 1, ...) instead of at steps, plus the two rows
    /// of each located event and the final row.
    SampleTime(f64),
}

/// Without `refine` or `sample_time`, rows are at most stop_time / SMOOTH_ROWS apart.
pub const SMOOTH_ROWS: usize = 1000;
/// Without `refine` or `sample_time`, at most this many rows per step: with the default
/// max_step (stop_time / 50) 20 rows keep the stop_time / SMOOTH_ROWS spacing; a larger
/// max_step gets wider gaps rather than unbounded rows per step.
pub const SMOOTH_MAX_REFINE: usize = 32;
/// The largest `refine` accepted.
pub const MAX_REFINE: usize = 1000;
