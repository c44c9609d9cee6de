//! Turning one recorded column into the polylines that are drawn.
//!
//! Two jobs:
//! - **Gaps.** A row whose time or value is not finite cannot be drawn; it ends the current polyline
//!   and the next finite row starts a new one, so the plot shows a gap there.
//! - **Decimation.** A recording with far more rows than the plot has pixel columns is reduced per
//!   pixel column ("bucket") to at most four points: the first and the last point of the bucket and
//!   its minimum and maximum, in the order they occur (the M4 scheme). Drawn as a polyline, these
//!   points light the same pixels as all rows would: the vertical extent in each pixel column (the
//!   min/max envelope) and the connections to the neighbouring columns are kept. Event jumps (two rows
//!   at one time) therefore stay visible.
//!
//! Points are `(time in s, value in the column's unit)`.

/// One polyline: consecutive drawable points `(t, value)`.
pub type Polyline = Vec<(f64, f64)>;

/// How to reduce a column: not at all, or to at most four points per bucket, where bucket
/// `b = floor((t − t_start) / (t_end − t_start) · buckets)` (clamped to `0..buckets`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reduction {
    /// Keep every finite row.
    None,
    /// M4 reduction onto `buckets` equal time intervals of `[t_start, t_end]`.
    PerPixelColumn {
        /// Start of the time axis, s.
        t_start: f64,
        /// End of the time axis, s (> `t_start`).
        t_end: f64,
        /// Number of pixel columns of the plotting area (≥ 1).
        buckets: usize,
    },
}

/// The polylines of one column with values `values` (one per row) at times `times`.
///
/// Rows beyond the shorter of the two sequences are ignored. With [`Reduction::None`] every finite
/// row appears; with [`Reduction::PerPixelColumn`] each polyline holds at most four points per bucket.
pub fn polylines(
    times: &[f64],
    values: impl Iterator<Item = f64>,
    reduction: Reduction,
) -> Vec<Polyline> {
    let mut lines = Vec::new();
    let mut current: Polyline = Vec::new();
    let mut bucket = BucketState::default();
    for (&t, v) in times.iter().zip(values) {
        if !(t.is_finite() && v.is_finite()) {
            bucket.flush_into(&mut current);
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            continue;
        }
        match reduction {
            Reduction::None => current.push((t, v)),
            Reduction::PerPixelColumn {
                t_start,
                t_end,
                buckets,
            } => {
                let index = bucket_index(t, t_start, t_end, buckets);
                if bucket.index != Some(index) {
                    bucket.flush_into(&mut current);
                    bucket.index = Some(index);
                }
                bucket.add(t, v);
            }
        }
    }
    bucket.flush_into(&mut current);
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The bucket of time `t`; times outside `[t_start, t_end]` go to the first or last bucket.
fn bucket_index(t: f64, t_start: f64, t_end: f64, buckets: usize) -> usize {
    let fraction = (t - t_start) / (t_end - t_start);
    let index = (fraction * buckets as f64).floor();
    if index.is_nan() || index < 0.0 {
        0
    } else {
        (index as usize).min(buckets.saturating_sub(1))
    }
}

/// A point together with its position in the bucket (to keep the order of occurrence).
#[derive(Clone, Copy, Debug)]
struct Sample {
    order: usize,
    t: f64,
    v: f64,
}

/// The four M4 points of the bucket being filled.
#[derive(Debug, Default)]
struct BucketState {
    index: Option<usize>,
    count: usize,
    first: Option<Sample>,
    last: Option<Sample>,
    min: Option<Sample>,
    max: Option<Sample>,
}

impl BucketState {
    fn add(&mut self, t: f64, v: f64) {
        let sample = Sample {
            order: self.count,
            t,
            v,
        };
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(sample);
        }
        self.last = Some(sample);
        if self.min.is_none_or(|m| v < m.v) {
            self.min = Some(sample);
        }
        if self.max.is_none_or(|m| v > m.v) {
            self.max = Some(sample);
        }
    }

    /// Appends the bucket's points in order of occurrence, without duplicates, and empties it
    /// (the bucket index is kept: a gap ends a bucket's points but not the bucket).
    fn flush_into(&mut self, line: &mut Polyline) {
        let mut points = [self.first, self.min, self.max, self.last];
        points.sort_by_key(|p| p.map_or(usize::MAX, |s| s.order));
        let mut previous_order = None;
        for sample in points.into_iter().flatten() {
            if previous_order != Some(sample.order) {
                line.push((sample.t, sample.v));
                previous_order = Some(sample.order);
            }
        }
        *self = BucketState {
            index: self.index,
            ..BucketState::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_reduction_every_finite_row_is_kept_and_gaps_split() {
        let times = [0.0, 1.0, 2.0, 3.0, 4.0, f64::NAN, 6.0];
        let values = [0.0, 1.0, f64::INFINITY, 3.0, 4.0, 5.0, 6.0];
        let lines = polylines(&times, values.iter().copied(), Reduction::None);
        assert_eq!(
            lines,
            vec![
                vec![(0.0, 0.0), (1.0, 1.0)],
                vec![(3.0, 3.0), (4.0, 4.0)],
                vec![(6.0, 6.0)]
            ]
        );
    }

    #[test]
    fn all_non_finite_gives_no_polyline() {
        let times = [0.0, 1.0];
        let lines = polylines(&times, [f64::NAN, f64::NAN].into_iter(), Reduction::None);
        assert!(lines.is_empty());
    }

    /// 10 000 rows of a sine onto 100 buckets: at most 4 points per bucket, and each bucket's
    /// min and max equal the exact min and max of the rows falling into it (the envelope).
    #[test]
    fn reduction_keeps_per_bucket_envelope() {
        let n = 10_000;
        let times: Vec<f64> = (0..n).map(|i| i as f64 / (n - 1) as f64).collect();
        let values: Vec<f64> = times
            .iter()
            .map(|t| (40.0 * t).sin() + 0.3 * (700.0 * t).sin())
            .collect();
        let reduction = Reduction::PerPixelColumn {
            t_start: 0.0,
            t_end: 1.0,
            buckets: 100,
        };
        let lines = polylines(&times, values.iter().copied(), reduction);
        assert_eq!(lines.len(), 1);
        let line = &lines[0];
        assert!(line.len() <= 4 * 100, "{} points", line.len());
        for b in 0..100 {
            let in_bucket = |t: f64| bucket_index(t, 0.0, 1.0, 100) == b;
            let exact = times
                .iter()
                .zip(&values)
                .filter(|(t, _)| in_bucket(**t))
                .map(|(_, v)| *v);
            let (lo, hi) = exact.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
            let kept = line.iter().filter(|(t, _)| in_bucket(*t)).map(|(_, v)| *v);
            let (klo, khi) = kept.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
            assert_eq!((klo, khi), (lo, hi), "bucket {b}");
        }
        // Points stay in time order.
        assert!(line.windows(2).all(|w| w[0].0 <= w[1].0));
        // First and last rows are kept exactly.
        assert_eq!(line[0], (times[0], values[0]));
        assert_eq!(*line.last().unwrap(), (times[n - 1], values[n - 1]));
    }

    /// An event: two rows at one time with different values (1 before, −1 after, at the end).
    /// Reduction keeps the jump: the value before it is followed by the value after it, which is the
    /// last point, at the event time.
    #[test]
    fn reduction_keeps_event_jump() {
        let mut times: Vec<f64> = (0..1000).map(|i| i as f64 * 1e-3).collect();
        let mut values = vec![1.0; 1000];
        times.push(0.999);
        values.push(-1.0);
        let reduction = Reduction::PerPixelColumn {
            t_start: 0.0,
            t_end: 0.999,
            buckets: 10,
        };
        let lines = polylines(&times, values.iter().copied(), reduction);
        let line = &lines[0];
        let n = line.len();
        assert!(n <= 4 * 10);
        assert_eq!(line[n - 1], (0.999, -1.0));
        assert_eq!(line[n - 2].1, 1.0);
    }

    #[test]
    fn bucket_index_is_clamped() {
        assert_eq!(bucket_index(-1.0, 0.0, 1.0, 10), 0);
        assert_eq!(bucket_index(1.0, 0.0, 1.0, 10), 9);
        assert_eq!(bucket_index(5.0, 0.0, 1.0, 10), 9);
        assert_eq!(bucket_index(0.55, 0.0, 1.0, 10), 5);
    }
}
