//! The rows a plot needs, kept in bounded memory while a run streams its CSV.
//!
//! The time axis [t_start, t_end] is cut into equal buckets: [`MAX_BUCKETS`] (over three per
//! pixel column of a default 1200 px plot) for up to 127 columns, fewer for more columns (see
//! "Memory" below). A bucket keeps its rows as they are while it has at
//! most four; from the fifth row on it keeps four rows only, for every column at once:
//! - the bucket's **first** row and its **last** row, at their own times;
//! - the column-wise **minimum** and **maximum**, as two rows placed at 1/3 and 2/3 of the time
//!   between the first and the last row.
//!
//! Drawn as a polyline, first → min → max → last covers, in the bucket's time span, the same
//! vertical extent as every row would and joins its neighbours at the same points: the M4 scheme
//! of [`crate::plot::decimate`] applied before drawing, except that an extremum is drawn up to a
//! bucket's width (a third of a pixel column with 4096 buckets) from its true time. **Extrema are never
//! lost** and the first and last rows of each bucket are exact.
//!
//! **Event rows** (the two rows of a located event, which share one time and make the jump) and
//! rows holding a non-finite value (drawn as a gap) are kept as they are, up to half of the
//! budget; later ones join their bucket like any row.
//!
//! **Memory**: at most [`PLOT_BUDGET_BYTES`] of values: the number of buckets is chosen from the
//! number of columns so that 4 rows per bucket fill half of it (`buckets = budget / 2 / (4 ·
//! 8 bytes · (columns + 1))`, from 1 to [`MAX_BUCKETS`]); the kept event rows fill at most the
//! other half. [`PlotRows::reserve`] reserves some of the bucket rows up front.

use super::recording::Recording;

/// The most memory the plot's rows take, bytes.
pub const PLOT_BUDGET_BYTES: usize = 32 << 20;
/// The most buckets (4 rows each) along the time axis.
pub const MAX_BUCKETS: usize = 4096;

/// Decimated rows for a plot; see the module documentation.
#[derive(Debug)]
pub struct PlotRows {
    t_start: f64,
    t_end: f64,
    buckets: usize,
    /// Rows kept as they are (events, non-finite values) still allowed.
    special_rows_left: usize,
    /// The bucket being filled, when there is one.
    current: Option<usize>,
    /// Its rows: up to 4 raw rows, or once `reduced`, [first, min, max, last].
    times: Vec<f64>,
    values: Vec<f64>,
    reduced: bool,
}

impl PlotRows {
    /// Rows for a plot of `columns` columns over [t_start, t_end] (t_end > t_start).
    pub fn new(columns: usize, t_start: f64, t_end: f64) -> PlotRows {
        let row_bytes = 8 * (columns + 1);
        let rows = PLOT_BUDGET_BYTES / row_bytes;
        PlotRows {
            t_start,
            t_end,
            buckets: (rows / 8).clamp(1, MAX_BUCKETS),
            special_rows_left: rows / 2,
            current: None,
            times: Vec::with_capacity(4),
            values: Vec::with_capacity(4 * columns),
            reduced: false,
        }
    }

    /// Reserves in `out` room for up to `rows` rows, but no more than the buckets can give (4
    /// each, within half of `PLOT_BUDGET_BYTES`).
    pub fn reserve(&self, out: &mut Recording, rows: usize) {
        let rows = rows.min(4 * self.buckets);
        out.times.reserve(rows);
        out.values.reserve(rows * out.columns.len());
    }

    /// The number of time buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Adds one row; `keep_as_is` for an event row. Finished buckets go into `out`.
    pub fn push(&mut self, out: &mut Recording, time: f64, row: &[f64], keep_as_is: bool) {
        let special = keep_as_is || !(time.is_finite() && row.iter().all(|v| v.is_finite()));
        if special && self.special_rows_left > 0 {
            self.special_rows_left -= 1;
            self.flush(out);
            out.push_row(time, row);
            return;
        }
        let bucket = self.bucket_of(time);
        if self.current != Some(bucket) {
            self.flush(out);
            self.current = Some(bucket);
        }
        if self.reduced {
            self.fold(time, row);
        } else if self.times.len() < 4 {
            self.times.push(time);
            self.values.extend_from_slice(row);
        } else {
            self.reduce(time, row);
        }
    }

    /// Writes the bucket being filled into `out` (call once the run ended).
    pub fn flush(&mut self, out: &mut Recording) {
        let n = out.columns.len();
        if self.reduced {
            let (first, last) = (self.times[0], self.times[3]);
            let span = last - first;
            // The min and max rows lie strictly between first and last (distinct times, so
            // that they never look like an event's jump).
            let times = [first, first + span / 3.0, first + 2.0 * span / 3.0, last];
            for (k, &t) in times.iter().enumerate() {
                if k == 0 || k == 3 || span > 0.0 {
                    out.push_row(t, &self.values[k * n..(k + 1) * n]);
                }
            }
        } else {
            for (k, &t) in self.times.iter().enumerate() {
                out.push_row(t, &self.values[k * n..(k + 1) * n]);
            }
        }
        self.times.clear();
        self.values.clear();
        self.reduced = false;
        self.current = None;
    }

    fn bucket_of(&self, t: f64) -> usize {
        let fraction = (t - self.t_start) / (self.t_end - self.t_start);
        if fraction.is_nan() || fraction <= 0.0 {
            return 0;
        }
        ((fraction * self.buckets as f64) as usize).min(self.buckets - 1)
    }

    /// Turns the 4 raw rows and `row` into [first, min, max, last], in place.
    fn reduce(&mut self, time: f64, row: &[f64]) {
        let n = row.len();
        for (j, &v) in row.iter().enumerate() {
            let raw = [
                self.values[j],
                self.values[n + j],
                self.values[2 * n + j],
                self.values[3 * n + j],
                v,
            ];
            self.values[n + j] = raw.iter().copied().fold(f64::INFINITY, f64::min);
            self.values[2 * n + j] = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            self.values[3 * n + j] = v;
        }
        self.times[3] = time;
        self.reduced = true;
    }

    /// Adds `row` to a reduced bucket.
    fn fold(&mut self, time: f64, row: &[f64]) {
        let n = row.len();
        let (_, rest) = self.values.split_at_mut(n);
        let (min, rest) = rest.split_at_mut(n);
        let (max, last) = rest.split_at_mut(n);
        for (j, &v) in row.iter().enumerate() {
            min[j] = min[j].min(v);
            max[j] = max[j].max(v);
            last[j] = v;
        }
        self.times[3] = time;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Column;

    fn recording(columns: usize) -> Recording {
        let columns = (0..columns)
            .map(|j| Column {
                name: format!("c{j}"),
                unit: None,
                panel: None,
            })
            .collect();
        Recording::new(vec![], columns)
    }

    #[test]
    fn few_rows_are_kept_exactly() {
        let mut out = recording(2);
        let mut rows = PlotRows::new(2, 0.0, 1.0);
        for k in 0..=10 {
            let t = k as f64 / 10.0;
            rows.push(&mut out, t, &[t, -t], false);
        }
        rows.flush(&mut out);
        assert_eq!(out.len(), 11);
        assert_eq!(out.row(7), &[0.7, -0.7]);
    }

    #[test]
    fn a_dense_bucket_keeps_first_last_and_extrema_of_each_column() {
        // 1000 rows of sin and cos over one period, all in bucket 0 of a 1-bucket plot.
        let mut out = recording(2);
        let mut rows = PlotRows::new(2, 0.0, 1.0);
        rows.buckets = 1;
        let tau = std::f64::consts::TAU;
        for k in 0..1000 {
            let t = k as f64 / 999.0;
            rows.push(&mut out, t, &[(tau * t).sin(), (tau * t).cos()], false);
        }
        rows.flush(&mut out);
        assert_eq!(out.times, [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
        // Extrema of the sampled curves: ±1 within the sampling's (1 − cos(π/999)) ≈ 5e-6.
        assert!((out.row(1)[0] + 1.0).abs() < 1e-5 && (out.row(1)[1] + 1.0).abs() < 1e-5);
        assert!((out.row(2)[0] - 1.0).abs() < 1e-5 && out.row(2)[1] == 1.0);
        assert_eq!(out.row(0), &[0.0, 1.0]);
        let last = out.row(3);
        assert!(last[0].abs() < 1e-12 && (last[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn event_rows_stay_whole_and_memory_is_bounded() {
        let mut out = recording(1);
        let mut rows = PlotRows::new(1, 0.0, 10.0);
        let n = 1_000_000;
        for k in 0..n {
            let t = 10.0 * k as f64 / n as f64;
            rows.push(&mut out, t, &[t], false);
            if k == n / 2 {
                rows.push(&mut out, t, &[t], true);
                rows.push(&mut out, t, &[-t], true);
            }
        }
        rows.flush(&mut out);
        // At most 4 rows per bucket (plus the bucket split by the event) and the 2 event rows.
        assert!(out.len() <= 4 * (rows.buckets() + 1) + 2, "{}", out.len());
        // The jump: the "before" row (5) then the "after" row (−5), both at t = 5, as pushed.
        let after = out.values.iter().position(|&v| v == -5.0).unwrap();
        assert_eq!((out.times[after - 1], out.row(after - 1)[0]), (5.0, 5.0));
        assert_eq!(out.times[after], 5.0);
        // The budget: buckets × 4 rows of (1 + 1) values ≤ half of PLOT_BUDGET_BYTES.
        assert_eq!(rows.buckets(), MAX_BUCKETS);
    }

    #[test]
    fn many_columns_get_fewer_buckets() {
        let rows = PlotRows::new(36_864, 0.0, 10.0);
        assert!(rows.buckets() * 4 * 8 * 36_865 <= PLOT_BUDGET_BYTES / 2);
        assert!(rows.buckets() >= 1);
    }
}
