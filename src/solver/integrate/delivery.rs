//! What a step hands the system besides its end: the rows inside it
//! ([`System::rows_per_step`]) and the sample times it passes ([`System::next_sample_time`]),
//! both from its dense output, and the first row of a run. They never change the steps taken.

use super::super::rk_step::DenseStep;
use super::super::{RecordKind, System};
use super::state::Solver;

/// Hands the system its requested sample times in (t_start, t_upto] (see
/// [`System::next_sample_time`]), each from the dense output of `step`, which starts at
/// `t_start`; `out` is scratch of length n. A time that does not increase ends the delivery.
pub(super) fn deliver_samples<S: System>(
    system: &mut S,
    step: &DenseStep<'_>,
    t_start: f64,
    t_upto: f64,
    out: &mut [f64],
) {
    let mut last = f64::NEG_INFINITY;
    while let Some(ts) = system
        .next_sample_time()
        .filter(|&ts| ts <= t_upto && ts > last)
    {
        last = ts;
        step.interpolate(((ts - t_start) / step.h).clamp(0.0, 1.0), out);
        system.sample(ts, out);
    }
}

/// Records the N − 1 rows inside (t_start, t_upto) that [`System::rows_per_step`] asks for, at
/// t_start + k·(t_upto − t_start)/N, from the dense output of `step` (which starts at t_start);
/// `out` is scratch of length n.
pub(super) fn deliver_refined<S: System>(
    system: &mut S,
    step: &DenseStep<'_>,
    t_start: f64,
    t_upto: f64,
    out: &mut [f64],
) {
    let span = t_upto - t_start;
    let rows = system.rows_per_step(span);
    for k in 1..rows {
        let ts = t_start + span * (k as f64 / rows as f64);
        step.interpolate(((ts - t_start) / step.h).clamp(0.0, 1.0), out);
        system.record(ts, out, RecordKind::Refined);
    }
}

impl Solver {
    /// The first row of a run at (t0, self.x), and the sample times at or before t0.
    pub(super) fn record_start<S: System>(&mut self, system: &mut S, t0: f64) {
        system.record(t0, &self.x, RecordKind::Initial);
        while let Some(ts) = system.next_sample_time().filter(|&ts| ts <= t0) {
            system.sample(ts, &self.x);
            if system.next_sample_time() == Some(ts) {
                break;
            }
        }
    }
}
