//! The group's broad phase: a World-axis-aligned bounding box per bounded member, updated at
//! every evaluation from the member's pose, and a sort-and-sweep along one axis that lists the
//! pairs whose boxes come within a distance of each other.
//!
//! The box of member k at pose (R, p) (World ← geometry frame) is exact for its convex shape:
//! along World axis a, with d = Rᵀ·e_a the axis in the geometry frame and h(d) = max over the
//! shape of x·d its support value, `hi_a = p_a + h(d)` and `lo_a = p_a − h(−d)`. Support values
//! are continuous in the pose, so the boxes and the gap below are too.
//!
//! The gap of two boxes is `max over axes of max(lo_b − hi_a, lo_a − hi_b)` (m): negative when
//! they overlap, and a lower bound on the distance between the two shapes (the shapes cannot
//! touch while it is positive). The sweep keeps the members sorted by `lo` along its axis
//! (insertion sort: the order changes little from one evaluation to the next, so a sort is about
//! linear) and, for each member, walks forward while the next one's `lo` is within reach.

use crate::blocks::multibody::FrameMotion;
use crate::geometry::Shape;
use nalgebra::Vector3;

/// One pair of members (lower index first) found by the sweep, with the gap of their boxes (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct NearPair {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) gap: f64,
}

/// The support value h(d) = max over the shape of x·d (m) for a direction d in the shape's frame.
fn support_value(shape: &Shape, d: &Vector3<f64>) -> f64 {
    shape.support(d).map_or(0.0, |p| p.coords.dot(d))
}

/// The box of a bounded shape whose frame moves with `motion`: (lo, hi), World, m.
pub(super) fn bounding_box(shape: &Shape, motion: &FrameMotion) -> ([f64; 3], [f64; 3]) {
    if let Shape::Sphere(sphere) = shape {
        // Centred at its frame's origin: h(d) = r for every unit d.
        let (p, r) = (&motion.position, sphere.radius());
        return ([p.x - r, p.y - r, p.z - r], [p.x + r, p.y + r, p.z + r]);
    }
    let (mut lo, mut hi) = ([0.0; 3], [0.0; 3]);
    for a in 0..3 {
        // Row a of R_WF: World axis a resolved in the geometry frame.
        let d: Vector3<f64> = motion.rotation.row(a).transpose();
        hi[a] = motion.position[a] + support_value(shape, &d);
        lo[a] = motion.position[a] - support_value(shape, &-d);
    }
    (lo, hi)
}

/// The half size of a bounded shape's box in its own frame, along its largest axis (m): what
/// the default margin is scaled from.
pub(super) fn half_size(shape: &Shape) -> f64 {
    (0..3)
        .map(|a| {
            let e = Vector3::ith(a, 1.0);
            0.5 * (support_value(shape, &e) + support_value(shape, &-e))
        })
        .fold(0.0, f64::max)
}

/// A bounded shape's smallest width along its frame's axes (m).
pub(super) fn thickness(shape: &Shape) -> f64 {
    (0..3)
        .map(|a| {
            let e = Vector3::ith(a, 1.0);
            support_value(shape, &e) + support_value(shape, &-e)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The radius of a bounded shape's box about its frame's origin (m): no point of the shape is
/// further from the origin.
pub(super) fn radius(shape: &Shape) -> f64 {
    (0..3)
        .map(|a| {
            let e = Vector3::ith(a, 1.0);
            support_value(shape, &e)
                .max(support_value(shape, &-e))
                .powi(2)
        })
        .sum::<f64>()
        .sqrt()
}

/// The gap between two boxes (m): negative when they overlap.
#[inline]
pub(super) fn box_gap(lo_a: &[f64; 3], hi_a: &[f64; 3], lo_b: &[f64; 3], hi_b: &[f64; 3]) -> f64 {
    let mut gap = f64::NEG_INFINITY;
    for k in 0..3 {
        gap = gap.max(lo_b[k] - hi_a[k]).max(lo_a[k] - hi_b[k]);
    }
    gap
}

/// A World-axis-aligned box: its lower and upper corners (m).
pub(super) type Aabb = ([f64; 3], [f64; 3]);

/// The sweep's order and axis, kept from one evaluation to the next.
#[derive(Clone, Debug)]
pub(super) struct Sweep {
    /// The bounded members, sorted by `lo[axis]` at the last sweep.
    order: Vec<u32>,
    /// The axis swept along (0, 1, 2 = World x, y, z).
    axis: usize,
}

impl Sweep {
    /// A sweep over the members `bounded`.
    pub(super) fn new(bounded: &[u32]) -> Self {
        Sweep {
            order: bounded.to_vec(),
            axis: 0,
        }
    }

    /// Sweeps along the axis over which the boxes' lower corners spread most (chosen again at
    /// each call; the pairs found do not depend on it, only the work does).
    fn choose_axis(&mut self, lo: &[[f64; 3]]) {
        let (mut min, mut max) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for &k in &self.order {
            let corner = &lo[k as usize];
            for (a, x) in corner.iter().enumerate() {
                min[a] = min[a].min(*x);
                max[a] = max[a].max(*x);
            }
        }
        let mut best = (0.0, self.axis);
        for (a, (l, h)) in min.iter().zip(&max).enumerate() {
            if h - l > best.0 {
                best = (h - l, a);
            }
        }
        self.axis = best.1;
    }

    /// Every pair of bounded members whose boxes' gap is at most `reach` (m) and that `allowed`
    /// accepts, appended to `out` (cleared first) in no particular order. With a `window`
    /// (lo, hi: a box, World, m), only pairs with a member whose box lies inside it can be
    /// accepted (an island's evaluation, whose `allowed` wants a member of the island: the
    /// window is the box around the island's members), so the walk covers the members within
    /// reach of the window along the sweep's axis only, and the axis is kept (it decides only
    /// the work). No allocation once `out` has grown to the number of such pairs.
    pub(super) fn pairs_within(
        &mut self,
        lo: &[[f64; 3]],
        hi: &[[f64; 3]],
        (reach, window): (f64, Option<Aabb>),
        allowed: impl Fn(u32, u32) -> bool,
        out: &mut Vec<NearPair>,
    ) {
        out.clear();
        if window.is_none() {
            self.choose_axis(lo);
        }
        let axis = self.axis;
        // A pair (a, b), b after a (lo_b ≥ lo_a), with a member inside the window needs
        // hi_a ≥ window_lo − reach (else b's gap along the axis exceeds reach whichever is
        // inside) and lo_a ≤ window_hi + reach (else neither is inside).
        let (from, to) = window.map_or((f64::NEG_INFINITY, f64::INFINITY), |(l, h)| {
            (l[axis] - reach, h[axis] + reach)
        });
        let key = |k: u32| lo[k as usize][axis];
        // Insertion sort: nearly linear for an order that changed little since the last call.
        for i in 1..self.order.len() {
            let item = self.order[i];
            let mut j = i;
            while j > 0 && key(self.order[j - 1]) > key(item) {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = item;
        }
        for (i, &a) in self.order.iter().enumerate() {
            let (lo_a, hi_a) = (&lo[a as usize], &hi[a as usize]);
            if lo_a[axis] > to {
                break;
            }
            if hi_a[axis] < from {
                continue;
            }
            for &b in &self.order[i + 1..] {
                let lo_b = &lo[b as usize];
                // Sorted by lo: every later member starts further along the axis.
                if lo_b[axis] - hi_a[axis] > reach {
                    break;
                }
                let gap = box_gap(lo_a, hi_a, lo_b, &hi[b as usize]);
                let (a, b) = (a.min(b), a.max(b));
                if gap <= reach && allowed(a, b) {
                    out.push(NearPair { a, b, gap });
                }
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use nalgebra::Matrix3;

    /// A member's motion at rest at (x, y, z) m, World axes (the grid's tests use it too).
    pub(in crate::blocks::contact::group) fn at(x: f64, y: f64, z: f64) -> FrameMotion {
        FrameMotion {
            rotation: Matrix3::identity(),
            position: Vector3::new(x, y, z),
            angular_velocity: Vector3::zeros(),
            velocity: Vector3::zeros(),
        }
    }

    #[test]
    fn a_rotated_brick_has_its_exact_box() {
        // A 2×1×1 brick turned 90° about z spans 1 m along x and 2 m along y.
        let brick = Shape::brick([2.0, 1.0, 1.0]).unwrap();
        let mut m = at(1.0, 0.0, 0.0);
        m.rotation =
            *nalgebra::Rotation3::from_axis_angle(&Vector3::z_axis(), 0.5 * std::f64::consts::PI)
                .matrix();
        let (lo, hi) = bounding_box(&brick, &m);
        for (got, want) in lo
            .iter()
            .zip([0.5, -1.0, -0.5])
            .chain(hi.iter().zip([1.5, 1.0, 0.5]))
        {
            assert!((got - want).abs() < 1e-12, "{lo:?} {hi:?}");
        }
    }

    /// The sweep finds exactly the pairs a test of all pairs finds, whatever the axis.
    #[test]
    fn the_sweep_finds_every_pair_within_reach() {
        let ball = Shape::sphere(0.5).unwrap();
        // A 6×6 grid of unit balls 1.2 m apart, with a jitter: neighbours' boxes are 0.2 m apart
        // (± the jitter), diagonal ones further.
        let mut lo = vec![];
        let mut hi = vec![];
        for i in 0..36u32 {
            let jitter = 0.05 * ((i * 7 % 5) as f64 - 2.0);
            let m = at(1.2 * (i % 6) as f64 + jitter, 1.2 * (i / 6) as f64, 0.0);
            let (l, h) = bounding_box(&ball, &m);
            lo.push(l);
            hi.push(h);
        }
        let bounded: Vec<u32> = (0..36).collect();
        let mut sweep = Sweep::new(&bounded);
        let mut out = vec![];
        for reach in [0.0, 0.15, 0.3, 1.0] {
            sweep.pairs_within(&lo, &hi, (reach, None), |_, _| true, &mut out);
            let mut found: Vec<(u32, u32)> = out.iter().map(|p| (p.a, p.b)).collect();
            found.sort_unstable();
            let mut want = vec![];
            for a in 0..36u32 {
                for b in a + 1..36 {
                    if box_gap(
                        &lo[a as usize],
                        &hi[a as usize],
                        &lo[b as usize],
                        &hi[b as usize],
                    ) <= reach
                    {
                        want.push((a, b));
                    }
                }
            }
            assert_eq!(found, want, "reach {reach}");
        }
    }
}
