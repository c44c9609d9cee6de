//! Axis ranges from data, and tick labels.

/// Largest magnitude an axis end may have. Keeps `hi − lo` finite (no overflow to infinity) so the
/// data → pixel mapping stays well defined even for values near `f64::MAX`.
const AXIS_LIMIT: f64 = 1e300;

/// Running minimum and maximum of the finite values seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    /// Smallest finite value seen (+∞ when none).
    pub min: f64,
    /// Largest finite value seen (−∞ when none).
    pub max: f64,
}

impl Default for Extent {
    fn default() -> Self {
        Self {
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl Extent {
    /// Includes `x` when finite; non-finite values are ignored.
    pub fn add(&mut self, x: f64) {
        if x.is_finite() {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
    }

    /// True when at least one finite value was added.
    pub fn is_set(&self) -> bool {
        self.min <= self.max
    }
}

/// The time axis: exactly the data's extent (a time plot should start and end with the run);
/// `[t, t + 1]` for a single instant and `[0, 1]` without data.
pub fn time_range(extent: Extent) -> (f64, f64) {
    if !extent.is_set() {
        return (0.0, 1.0);
    }
    let lo = extent.min.clamp(-AXIS_LIMIT, AXIS_LIMIT);
    let hi = extent.max.clamp(-AXIS_LIMIT, AXIS_LIMIT);
    let min_span = lo.abs().max(hi.abs()) * 1e-12;
    if hi - lo > min_span {
        (lo, hi)
    } else {
        let half = (0.5 * min_span).max(0.5);
        let center = 0.5 * lo + 0.5 * hi;
        (center - half, center + half)
    }
}

/// The value axis: the data's extent widened by 5 % of its span on each side so that lines do not
/// run along the frame. Constant data `c` gets `c ± 10 % |c|` (`±1` for zero); spans below 1e-9 of
/// the magnitude are widened to that (beyond double precision's use on a plot). Without data: `[−1, 1]`.
pub fn value_range(extent: Extent) -> (f64, f64) {
    if !extent.is_set() {
        return (-1.0, 1.0);
    }
    let lo = extent.min.clamp(-AXIS_LIMIT, AXIS_LIMIT);
    let hi = extent.max.clamp(-AXIS_LIMIT, AXIS_LIMIT);
    let center = 0.5 * lo + 0.5 * hi;
    let mut half = 0.5 * hi - 0.5 * lo;
    if half == 0.0 {
        half = if center == 0.0 {
            1.0
        } else {
            0.1 * center.abs()
        };
    }
    // 1e-200 keeps the axis arithmetic away from subnormal numbers.
    half = half.max(1e-9 * center.abs()).max(1e-200);
    half *= 1.05;
    (center - half, center + half)
}

/// Formats the tick labels of an axis spanning `[lo, hi]` with at most `ticks` labels, placed where
/// plotters places them (multiples of 1, 2 or 5 × 10ᵏ): as many decimals as that spacing needs and
/// no more (ticks 1 apart read "1", "2", not "1.0", "2.0"); scientific notation when the magnitude
/// is ≥ 1e5 or the labels would need more than 4 decimals, with trailing zeros of the mantissa
/// dropped ("5e-6", "1e-5", "1.5e5").
#[derive(Clone, Copy, Debug)]
pub struct TickFormat {
    /// Distance between ticks.
    step: f64,
    scientific: bool,
    /// Decimals in plain notation, or mantissa decimals in scientific notation.
    decimals: usize,
}

impl TickFormat {
    /// A format for an axis `[lo, hi]` (finite, `lo < hi`) with at most `ticks` (≥ 1) labels.
    pub fn new(lo: f64, hi: f64, ticks: usize) -> Self {
        let step = tick_step(lo, hi, ticks);
        // The spacing is 1, 2 or 5 × 10ᵏ up to round-off (0.1 may come out as 0.0999…9).
        let step_exponent = if step > 0.0 && step.is_finite() {
            (step.log10() + 1e-9).floor()
        } else {
            0.0
        };
        let magnitude = lo.abs().max(hi.abs());
        let magnitude_exponent = if magnitude > 0.0 {
            magnitude.log10().floor()
        } else {
            0.0
        };
        let plain_decimals = (-step_exponent).max(0.0) as usize;
        let scientific = magnitude_exponent >= 5.0 || plain_decimals > 4;
        let decimals = if scientific {
            (magnitude_exponent - step_exponent).clamp(0.0, 12.0) as usize
        } else {
            plain_decimals
        };
        Self {
            step,
            scientific,
            decimals,
        }
    }

    /// The label of the tick at `x`.
    pub fn format(&self, x: f64) -> String {
        // A tick meant to be zero may come out as ±1e-17 from the tick arithmetic.
        let x = if x.abs() < 1e-9 * self.step { 0.0 } else { x };
        if self.scientific && x != 0.0 {
            let text = format!("{x:.*e}", self.decimals);
            match text.split_once('e') {
                Some((mantissa, exponent)) if mantissa.contains('.') => {
                    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
                    format!("{mantissa}e{exponent}")
                }
                _ => text,
            }
        } else if self.scientific {
            "0".to_string()
        } else {
            format!("{x:.*}", self.decimals)
        }
    }
}

/// The spacing of the ticks plotters draws on `[lo, hi]` when asked for at most `ticks`; the rough
/// `(hi − lo) / ticks` when it draws fewer than two.
fn tick_step(lo: f64, hi: f64, ticks: usize) -> f64 {
    use plotters::coord::ranged1d::Ranged;
    use plotters::coord::types::RangedCoordf64;
    let rough = ((hi - lo) / ticks.max(1) as f64).abs();
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return rough;
    }
    let points = RangedCoordf64::from(lo..hi).key_points(ticks.max(1));
    match points[..] {
        [a, b, ..] if b > a => b - a,
        _ => rough,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(values: &[f64]) -> Extent {
        let mut e = Extent::default();
        values.iter().for_each(|&v| e.add(v));
        e
    }

    #[test]
    fn value_range_has_five_percent_margin() {
        // Data [−2, 8]: span 10, half 5, widened to 5.25 around 3 → [−2.25, 8.25].
        let (lo, hi) = value_range(extent(&[-2.0, 8.0, 3.0]));
        assert!(
            (lo + 2.25).abs() < 1e-12 && (hi - 8.25).abs() < 1e-12,
            "{lo} {hi}"
        );
    }

    #[test]
    fn degenerate_value_ranges() {
        assert_eq!(value_range(extent(&[])), (-1.0, 1.0));
        assert_eq!(value_range(extent(&[f64::NAN, f64::INFINITY])), (-1.0, 1.0));
        let (lo, hi) = value_range(extent(&[0.0, 0.0]));
        assert!((lo + 1.05).abs() < 1e-12 && (hi - 1.05).abs() < 1e-12);
        // Constant 10: ±1 widened by 5 % → [8.95, 11.05].
        let (lo, hi) = value_range(extent(&[10.0]));
        assert!((lo - 8.95).abs() < 1e-12 && (hi - 11.05).abs() < 1e-12);
        let (lo, hi) = value_range(extent(&[-f64::MAX, f64::MAX]));
        assert!(lo.is_finite() && hi.is_finite() && (hi - lo).is_finite() && lo < hi);
        let (lo, hi) = value_range(extent(&[1e-310]));
        assert!(lo < hi && (hi - lo) >= 1e-200);
    }

    #[test]
    fn time_range_cases() {
        assert_eq!(time_range(extent(&[0.0, 5.0])), (0.0, 5.0));
        assert_eq!(time_range(extent(&[2.0])), (1.5, 2.5));
        assert_eq!(time_range(extent(&[])), (0.0, 1.0));
    }

    #[test]
    fn tick_labels() {
        // [0, 5] with at most 10 labels: plotters puts them 1 apart, so no decimals.
        let f = TickFormat::new(0.0, 5.0, 10);
        assert_eq!(f.format(2.0), "2");
        assert_eq!(f.format(1e-17), "0");
        // At most 11: 0.5 apart, one decimal.
        let f = TickFormat::new(0.0, 5.0, 11);
        assert_eq!(f.format(2.5), "2.5");
        assert_eq!(f.format(1.0), "1.0");
        let f = TickFormat::new(0.0, 100.0, 10);
        assert_eq!(f.format(40.0), "40");
        // A penetration axis: ticks 0.001 apart read "0.002", not "0.0020".
        let f = TickFormat::new(-0.0001, 0.0028, 4);
        assert_eq!(f.format(0.002), "0.002");
        // Ticks 0.1 apart (the step comes out as 0.0999…): one decimal.
        let f = TickFormat::new(0.38, 1.02, 8);
        assert_eq!(f.format(0.9), "0.9");
        let f = TickFormat::new(-2e-6, 2e-6, 4);
        assert_eq!(f.format(1e-6), "1e-6");
        let f = TickFormat::new(1e5, 3e5, 5);
        assert_eq!(f.format(1.5e5), "1.5e5");
        assert_eq!(f.format(2e5), "2e5");
        // Mixed exponents without padded mantissas: "-5e-6", "-1e-5".
        let f = TickFormat::new(-1.2e-5, 1e-6, 4);
        assert_eq!(f.format(-5e-6), "-5e-6");
        assert_eq!(f.format(-1e-5), "-1e-5");
    }
}
