//! The mode indicators' buffers and each pair's mode crossing from them (see [`super::modes`],
//! whose documentation states the indicators and the crossing); kept below the workspace that
//! holds them.

/// The indicators' dead band, relative to the pair's force scale (see [`super::modes`]):
/// round-off of `A f + b` is ~10⁻¹³ of it, and a force this small is no force.
pub const MODE_TOLERANCE: f64 = 1e-9;

/// The families of indicators.
pub(super) const FAMILIES: usize = 3;
/// The normal family (lift-off).
pub(super) const NORMAL: usize = 0;
/// The cone family (slip onset).
pub(super) const CONE: usize = 1;
/// The speed family (sliding ↔ sticking).
pub(super) const SPEED: usize = 2;

/// Values this close to zero at an event are crossing with the one that fired (the
/// indicators run from 1 to −1 over the dead band, and through it in far less than the
/// location tolerance near a mode change; see [`ModeIndicators::crossed`]).
const AT_CROSSING: f64 = 1e-6;

/// Which way a family's values crossed at an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Heading {
    /// Its count fell (a value fell through zero).
    Falling,
    /// Its count rose.
    Rising,
    /// No crossing of this family, or counts taken afresh (after an impact).
    Unknown,
}

/// A family's range in its value buffer: `(first, count)`.
type Span = (usize, usize);

/// The mode indicators of the last solve and the counts of the last event, per pair.
#[derive(Clone, Debug)]
pub struct ModeIndicators {
    /// Per family, the values of every pair (each pair's contiguous, sorted decreasingly).
    pub(super) values: [Vec<f64>; FAMILIES],
    /// Per pair, each family's span.
    pub(super) spans: Vec<[Span; FAMILIES]>,
    /// Per pair and family, the number of positive values at the last event (`None`: count at
    /// the next evaluation of the crossing).
    counts: Vec<[Option<usize>; FAMILIES]>,
    /// Per pair and family, which way its values crossed at the last event.
    heading: Vec<[Heading; FAMILIES]>,
    /// Per pair, the crossing's last value ([`ModeIndicators::crossing`]).
    last: Vec<f64>,
}

impl ModeIndicators {
    /// Buffers for `pairs` constraints with `points` candidate points in all.
    pub fn new(pairs: usize, points: usize) -> Self {
        ModeIndicators {
            values: std::array::from_fn(|_| Vec::with_capacity(points)),
            spans: vec![[(0, 0); FAMILIES]; pairs],
            counts: vec![[None; FAMILIES]; pairs],
            heading: vec![[Heading::Unknown; FAMILIES]; pairs],
            last: vec![1.0; pairs],
        }
    }

    /// Forgets the indicators (no resting point anywhere).
    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(Vec::clear);
        self.spans.iter_mut().for_each(|s| *s = [(0, 0); FAMILIES]);
    }

    /// Forgets the counts of the last event: the next crossing evaluation takes them again,
    /// with every value taken by its sign.
    pub fn reset_counts(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = [None; FAMILIES]);
        self.heading
            .iter_mut()
            .for_each(|h| *h = [Heading::Unknown; FAMILIES]);
    }

    /// At an event where pair `k`'s mode crossing fired, at the event's state: notes which way
    /// each family's values were crossing (its count falling or rising), so that values still
    /// within `AT_CROSSING` of zero — points crossing together with the one that fired, by
    /// symmetry, split by round-off — are counted on the side they are heading to; then
    /// forgets the counts. Returns whether sliding points began to stick (the speed family's
    /// count fell).
    pub fn crossed(&mut self, k: usize) -> bool {
        for family in 0..FAMILIES {
            let values = self.family_values(k, family);
            let heading = match self.counts[k][family] {
                Some(n) if n > 0 && values.get(n - 1).is_none_or(|&v| v <= 0.0) => Heading::Falling,
                Some(n) if values.get(n).is_some_and(|&v| v >= 0.0) => Heading::Rising,
                _ => Heading::Unknown,
            };
            self.heading[k][family] = heading;
            self.counts[k][family] = None;
        }
        self.heading[k][SPEED] == Heading::Falling
    }

    fn family_values(&self, k: usize, family: usize) -> &[f64] {
        let (first, count) = self.spans[k][family];
        &self.values[family][first..first + count]
    }

    /// Adds the indicator `1 − push/(MODE_TOLERANCE·scale)` of a resting point whose rows are
    /// held (normal) or stuck (tangential) while `push` (N: the row's acceleration over its
    /// diagonal of `A`) stays within the dead band, and let go beyond it. Nothing when the pair
    /// has no force scale (nothing pushes or presses).
    pub(super) fn push_held(&mut self, family: usize, push: f64, scale: f64) {
        if scale > 0.0 {
            self.values[family].push(1.0 - push / (MODE_TOLERANCE * scale));
        }
    }

    /// Pair `k`'s mode crossing (see [`super::modes`]); takes the counts if they were
    /// reset.
    pub fn crossing(&mut self, k: usize) -> f64 {
        let mut g = f64::INFINITY;
        for family in 0..FAMILIES {
            let heading = self.heading[k][family];
            let (first, count) = self.spans[k][family];
            let values = &self.values[family][first..first + count];
            let positive = *self.counts[k][family].get_or_insert_with(|| {
                let threshold = match heading {
                    Heading::Falling => AT_CROSSING,
                    Heading::Rising => -AT_CROSSING,
                    Heading::Unknown => 0.0,
                };
                values.iter().filter(|&&v| v > threshold).count()
            });
            let above = match positive {
                0 => f64::INFINITY,
                n => values.get(n - 1).copied().unwrap_or(f64::NEG_INFINITY),
            };
            let below = values.get(positive).copied().unwrap_or(f64::NEG_INFINITY);
            g = g.min(above).min(-below);
        }
        let g = if g.is_infinite() { g.signum() } else { g };
        self.last[k] = g;
        g
    }

    /// After an accepted step that ended without an event: forgets the counts of every pair
    /// whose crossing was last evaluated (the solver's look at the step's end) at or below zero,
    /// so that its next evaluation counts every value by its sign and is positive again.
    /// Returns how many pairs were counted again.
    ///
    /// A falling crossing fires when it goes from above zero to zero or below across a step. At
    /// the end of a step without event, one at or below zero did not start the step above zero:
    /// it restarted after an event inside the location band (the solver then takes it as exactly
    /// zero, and it fires no more by leaving zero) or was already below. Stale counts keep it
    /// there: the event that restarted it left a value within `AT_CROSSING` of zero counted on
    /// the side it was heading to (turn26: a cone family of [1.0, 0.29, 0.29, −3.7·10⁻⁷] gave
    /// 3.7·10⁻⁷, snapped to zero), the next mode change then took it below zero, and every later
    /// one went unlocated. Counted again by sign it is positive from the next evaluation, and the
    /// next mode change fires; the one it missed is stepped over under error control.
    pub(crate) fn recount_fallen(&mut self) -> usize {
        let mut recounted = 0;
        for k in 0..self.last.len() {
            if self.last[k] <= 0.0 {
                self.counts[k] = [None; FAMILIES];
                self.heading[k] = [Heading::Unknown; FAMILIES];
                self.last[k] = 1.0;
                recounted += 1;
            }
        }
        recounted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indicators(normal: &[f64]) -> ModeIndicators {
        let mut m = ModeIndicators::new(1, 8);
        m.values[NORMAL].extend_from_slice(normal);
        m.values[NORMAL].sort_unstable_by(|x, y| y.total_cmp(x));
        m.spans[0][NORMAL] = (0, normal.len());
        m
    }

    #[test]
    fn the_crossing_falls_when_a_clamped_point_lets_go() {
        let mut m = indicators(&[3.0, 2.0, -1.0]);
        // Counted at the first evaluation: two clamped, the crossing is min(2, 1) = 1.
        assert_eq!(m.crossing(0), 1.0);
        // Both clamped points' forces fall through zero together (a tipping box's back corners):
        // the count of positives drops by two and the crossing turns negative.
        m.values[NORMAL][..3].copy_from_slice(&[-0.5, -0.5, -1.0]);
        assert_eq!(m.crossing(0), -0.5);
        // Counted again after the event: no clamped point, the crossing is 0.5 and positive.
        m.reset_counts();
        assert_eq!(m.crossing(0), 0.5);
    }

    #[test]
    fn the_crossing_falls_when_a_point_becomes_clamped() {
        let mut m = indicators(&[2.0, -1.0]);
        assert_eq!(m.crossing(0), 1.0);
        m.values[NORMAL][..2].copy_from_slice(&[2.0, 0.25]);
        assert_eq!(m.crossing(0), -0.25);
    }

    #[test]
    fn the_crossing_does_not_depend_on_the_order_of_the_points() {
        let mut m = indicators(&[-1.0, 3.0, 2.0]);
        let g = m.crossing(0);
        let mut reordered = indicators(&[2.0, -1.0, 3.0]);
        assert_eq!(reordered.crossing(0), g);
    }

    #[test]
    fn no_indicator_is_a_positive_crossing() {
        let mut m = ModeIndicators::new(2, 8);
        assert_eq!(m.crossing(1), 1.0);
    }
}
