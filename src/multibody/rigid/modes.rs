//! Contact modes as located events: lift-off, slip onset and the sticking/sliding switch.
//!
//! The resting forces come from a complementarity problem solved at every evaluation, so the
//! right-hand side changes piece at the points where a contact's mode changes: a normal force
//! reaching zero while the contact starts to separate (lift-off), a sticking friction force
//! reaching the cone while the contact starts to slide (slip onset), and a slip speed crossing
//! [`SLIDING_VELOCITY`], where static friction (the polyhedral cone) and dynamic friction (the
//! exact isotropic law along the slip) take over from each other. Each is a kink or a jump of
//! the accelerations; a step that straddles one has its error estimate spoiled and is rejected,
//! often several times. Here each becomes a zero crossing, so that steps end at mode changes and
//! within a step the mode is fixed and the right-hand side smooth.
//!
//! # Indicators
//!
//! For every resting point, from the solved forces `f` and accelerations `a = A f + b`:
//!
//! - **normal** `φ_n = f_n − a_n / A_nn + τ` (N). Complementarity keeps `f_n ≥ 0`, `a_n ≥ 0`,
//!   `f_n·a_n = 0`, so `φ_n` is positive while the point is clamped (pressing) and negative once
//!   it separates, and — the forces and accelerations being continuous in the state — it changes
//!   sign exactly at lift-off (or at a landing without impact);
//! - **cone** (sticking contacts with friction) `φ_c = μ f_n − ‖f_t‖_P − ‖a_t‖ / A_tt + τ` (N),
//!   with `‖·‖_P` the gauge of the friction polygon (`max_m f_t·e_m / cos(π/k)` over its edge
//!   normals `e_m`, the disk's `|f_t|` for a planar contact): positive while the contact holds
//!   inside the cone, negative once it is on the cone and accelerating along it;
//! - **speed** (resting contacts with friction) `φ_s = |v_t| / V − 1` with `V` =
//!   [`SLIDING_VELOCITY`].
//!
//! `τ` = [`MODE_TOLERANCE`] × the pair's force scale (the largest `|f_n|` and `|b_n| / A_nn` of its
//! points) keeps the degenerate zero-force rows of a redundant contact (one corner of a box
//! resting on four, whose force the pivoting leaves at zero with `a_n` zero to round-off), and a
//! contact sticking exactly at the cone, on the clamped side instead of flickering with the
//! round-off.
//!
//! # One crossing per pair
//!
//! Points of a manifold carry no identity from one evaluation to the next (the manifold is
//! computed again and may list its corners in another order), so the indicators are used through
//! their order statistics, which do not depend on the order: per family, sorted decreasingly,
//! with `N` the number that were positive at the last event,
//!
//! ```text
//! g_family = min(φ_(N), −φ_(N+1))        (φ_(0) = +∞, φ_(count+1) = −∞)
//! g_pair   = min over the three families
//! ```
//!
//! `g_pair` is continuous while the indicators are, positive while every family has its `N`
//! positive values, and falls through zero as soon as a family's count changes — one value
//! falling through zero (`φ_(N)`) or one rising (`φ_(N+1)`), several at once (the two back
//! corners of a tipping box) included. At the event the counts are taken again (lazily, at the
//! next evaluation of the crossing: the solver evaluates it at the event's state right after the
//! event). Infinite values are reported as ±1.

use super::workspace::RigidWorkspace;
use super::SLIDING_VELOCITY;
use crate::multibody::constraints::{ContactMotion, RowKind};

/// The indicators' dead band, relative to the pair's force scale (see the module documentation):
/// round-off of `A f + b` is ~10⁻¹³ of it, and a force this small is no force.
pub const MODE_TOLERANCE: f64 = 1e-9;

/// The families of indicators.
const FAMILIES: usize = 3;
const NORMAL: usize = 0;
const CONE: usize = 1;
const SPEED: usize = 2;

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
    values: [Vec<f64>; FAMILIES],
    /// Per pair, each family's span.
    spans: Vec<[Span; FAMILIES]>,
    /// Per pair and family, the number of positive values at the last event (`None`: count at
    /// the next evaluation of the crossing).
    counts: Vec<[Option<usize>; FAMILIES]>,
    /// Per pair and family, which way its values crossed at the last event.
    heading: Vec<[Heading; FAMILIES]>,
}

impl ModeIndicators {
    /// Buffers for `pairs` constraints with `points` candidate points in all.
    pub fn new(pairs: usize, points: usize) -> Self {
        ModeIndicators {
            values: std::array::from_fn(|_| Vec::with_capacity(points)),
            spans: vec![[(0, 0); FAMILIES]; pairs],
            counts: vec![[None; FAMILIES]; pairs],
            heading: vec![[Heading::Unknown; FAMILIES]; pairs],
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
    fn push_held(&mut self, family: usize, push: f64, scale: f64) {
        if scale > 0.0 {
            self.values[family].push(1.0 - push / (MODE_TOLERANCE * scale));
        }
    }

    /// Pair `k`'s mode crossing (see the module documentation); takes the counts if they were
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
        if g.is_infinite() {
            g.signum()
        } else {
            g
        }
    }
}

/// Computes the mode indicators of the resting rows just solved in `rw` (rows, kinds, contacts,
/// forces, the right-hand side `rw.bias` and `A`). Does not allocate.
pub fn record_modes(rw: &mut RigidWorkspace) {
    let RigidWorkspace {
        modes,
        rows,
        kinds,
        contacts,
        row_candidate,
        candidates,
        forces,
        bias,
        constraint_rows,
        ..
    } = rw;
    modes.clear();
    let n = rows.len();
    let a = constraint_rows.matrix();
    let acceleration = |r: usize| (0..n).map(|j| a[(r, j)] * forces[j]).sum::<f64>() + bias[r];
    let mut contact_of_row = contacts.iter().peekable();
    let mut r = 0;
    while r < n {
        // The rows of one pair are contiguous: find its scale first.
        let owner = candidates[row_candidate[r]].owner;
        let end = (r..n)
            .find(|&j| candidates[row_candidate[j]].owner != owner)
            .unwrap_or(n);
        let scale = (r..end)
            .filter(|&j| kinds[j] == RowKind::Unilateral && a[(j, j)] > 0.0)
            .map(|j| forces[j].abs().max(bias[j].abs() / a[(j, j)]))
            .fold(0.0f64, f64::max);
        let starts: [usize; FAMILIES] = std::array::from_fn(|f| modes.values[f].len());
        for j in r..end {
            if kinds[j] != RowKind::Unilateral || a[(j, j)] <= 0.0 {
                continue;
            }
            modes.push_held(NORMAL, acceleration(j) / a[(j, j)], scale);
            while contact_of_row.peek().is_some_and(|c| c.normal_row < j) {
                contact_of_row.next();
            }
            let Some(contact) = contact_of_row.peek().filter(|c| c.normal_row == j) else {
                continue;
            };
            if contact.tangent_rows == 0 || contact.mu <= 0.0 {
                continue;
            }
            let slip = candidates[row_candidate[j]].slip_speed();
            modes.values[SPEED].push((slip - SLIDING_VELOCITY) / (slip + SLIDING_VELOCITY));
            if contact.motion == ContactMotion::Sticking {
                let (mut a_t, mut diagonal) = (0.0f64, 0.0f64);
                for t in j + 1..j + 1 + contact.tangent_rows {
                    a_t += acceleration(t).powi(2);
                    diagonal = diagonal.max(a[(t, t)]);
                }
                if diagonal > 0.0 {
                    modes.push_held(CONE, a_t.sqrt() / diagonal, scale);
                }
            }
        }
        for (family, &start) in starts.iter().enumerate() {
            let values = &mut modes.values[family][start..];
            values.sort_unstable_by(|x, y| y.total_cmp(x));
            modes.spans[owner][family] = (start, values.len());
        }
        r = end;
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
