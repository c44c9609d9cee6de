//! The output budget: a run's CSV volume projected before the run, and refused past
//! `[output] max_bytes` (default [`DEFAULT_MAX_OUTPUT_BYTES`], 10 GB).
//!
//! The projection is a lower bound, so that no run that fits is refused: rows × columns ×
//! [`CSV_BYTES_PER_VALUE`], where the rows are
//! - with `sample_time = dt`: ⌊stop_time / dt⌋ + 1 (events add more);
//! - otherwise: the steps `max_step` (rk4: `fixed_step`) forces over the stop time, times
//!   `refine` (the default rows add more; without a `max_step` the steps are not known: one).
//!
//! A run past the bound would write more than the budget whatever its steps; a run under it can
//! still grow larger (an adaptive run with tiny steps), which the size warning reports as it goes.

use crate::diagram::Diagram;
use crate::output::{OutputRows, DEFAULT_MAX_OUTPUT_BYTES};

/// Bytes a CSV value takes, for estimates: a full-precision number (17 digits, a sign, a point
/// or an exponent) and its comma.
pub const CSV_BYTES_PER_VALUE: f64 = 20.0;

/// A run's projected output past its budget: what [`check`] finds (the run reports it as
/// [`SimError::OutputBudget`](super::SimError::OutputBudget)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverBudget {
    /// The least output the run would write.
    pub projection: Projection,
    /// The budget, bytes.
    pub budget: f64,
}

/// The least output a run will write.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Rows, at least.
    pub rows: f64,
    /// Columns, the time included.
    pub columns: usize,
    /// Bytes, at least.
    pub bytes: f64,
    /// Where the rows come from, for messages.
    pub from: &'static str,
}

/// The least output of a run of `d` to `stop_time` that records `columns` columns (the time not
/// included) as `rows` says.
pub fn project(d: &Diagram, rows: OutputRows, columns: usize, stop_time: f64) -> Projection {
    let solver = &d.run.solver;
    let step = if solver.method == crate::solver::Method::Rk4 {
        solver.fixed_step
    } else {
        solver.max_step
    };
    let forced = if step > 0.0 {
        (stop_time / step).ceil().max(1.0)
    } else {
        1.0
    };
    let (rows, from) = match rows {
        OutputRows::SampleTime(dt) => ((stop_time / dt).floor() + 1.0, "stop_time / sample_time"),
        OutputRows::Refine(n) => (forced * n as f64, "the steps max_step forces × refine"),
        OutputRows::Smooth => (forced, "the steps max_step forces"),
    };
    let columns = columns + 1;
    Projection {
        rows,
        columns,
        bytes: rows * columns as f64 * CSV_BYTES_PER_VALUE,
        from,
    }
}

/// The run's budget, bytes: `[output] max_bytes`, else the default.
pub fn budget(d: &Diagram) -> f64 {
    d.run.output.max_bytes.unwrap_or(DEFAULT_MAX_OUTPUT_BYTES)
}

/// [`OverBudget`] when a run recording `columns` columns would pass the budget.
pub fn check(
    d: &Diagram,
    rows: OutputRows,
    columns: usize,
    stop_time: f64,
) -> Result<(), OverBudget> {
    if columns == 0 {
        return Ok(());
    }
    let projection = project(d, rows, columns, stop_time);
    let budget = budget(d);
    // A NaN projection is refused too.
    if projection.bytes > budget || projection.bytes.is_nan() {
        return Err(OverBudget { projection, budget });
    }
    Ok(())
}

/// Bytes as GB for a message, to 4 significant digits.
pub(crate) fn gb(bytes: &f64) -> String {
    let gb = bytes / 1e9;
    if gb < 1e6 {
        format!("{}", four_digits(gb))
    } else {
        format!("{gb:.3e}")
    }
}

/// A budget that would take `bytes`, rounded up to two significant digits.
pub(crate) fn suggest(bytes: &f64) -> f64 {
    let scale = 10f64.powf(bytes.log10().floor() - 1.0);
    (bytes / scale).ceil() * scale
}

/// `x` rounded to 4 significant digits (a projection is no more precise).
pub(crate) fn four_digits(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(3 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(output: &str) -> Diagram {
        let text = format!("connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 10.0\n[output]\n{output}\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.s]\ntype = \"Scope\"\n");
        crate::load_model_str("m.toml", &text, &[]).unwrap()
    }

    #[test]
    fn sample_time_rows_are_counted_exactly() {
        let d = model("sample_time = 0.5");
        let p = project(&d, d.run.output.rows, 1, 10.0);
        assert_eq!((p.rows, p.columns), (21.0, 2));
        assert!(check(&d, d.run.output.rows, 1, 10.0).is_ok());
        let d = model("sample_time = 1e-300");
        let e = crate::sim::SimError::from(check(&d, d.run.output.rows, 1, 10.0).unwrap_err());
        assert!(e.to_string().contains("output budget"), "{e}");
    }
}
