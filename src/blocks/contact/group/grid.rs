//! The group's broad phase for a whole evaluation: a uniform grid (a spatial hash) over the
//! bounded members' boxes, which lists the pairs within reach in (lower member, higher member)
//! order at a cost linear in the number of members.
//!
//! Each bounded member k has a box radius ρ_k (m; no point of its shape is further from its
//! frame's origin), so its World-aligned box is at most 2ρ_k wide along every World axis. The
//! members with ρ_k ≤ 4·median(ρ) are *small*; the cell edge is
//! `h = (2·max small ρ + reach)·(1 + 10⁻⁹)` (m). Two small boxes whose gap is at most `reach`
//! have centres at most `w_a + w_b + reach ≤ h` apart along each axis (w the half widths), so
//! their cells `⌊c/h⌋` differ by at most one along each axis: each small member meets its
//! partners among the small members in the 27 cells around its own. The cells are hashed into
//! a table of `2^⌈log₂ 2n⌉` buckets (n small members) and the members counting-sorted into
//! them (O(n) per evaluation); a bucket may hold several cells, so a member found there counts
//! only if its own cell is the one looked at (which also keeps a pair from being found twice).
//! (The cells and their buckets: `cells.rs`.) The other members are handled apart: a big member (a floor made of a box, a wall) against
//! every bounded member, an infinite plane fixed to the World against every bounded member by
//! the distance of the box's lowest corner (as `plane_pairs_within` computes it).
//!
//! The pairs come out sorted by (a, b): member a in index order, its partners b > a sorted (a
//! handful each). The narrow phase then needs no sort of the pair list, and the sums over pairs
//! are made in the order the sort-and-sweep gave after its sort: the same numbers.
//!
//! **The grid is searched only when a box has moved far** (a Verlet list). A search lists the
//! pairs within `reach + 4·skin` (the cells are sized for that reach; two boxes only within
//! `reach + 2·skin` plus round-off, all their gap can change by) and keeps each box's
//! corners; an evaluation whose boxes all lie within `skin` (per corner coordinate, m) of the
//! kept ones tests only the listed pairs. That misses nothing: moving every corner by at most
//! s changes a box gap (the largest separation along an axis) by at most 2s and a plane's gap
//! `n·c − n·o − Σ_a |n_a|·h_a` by at most `Σ_a 2|n_a|·s ≤ 2√3·s < 4s`, so a pair within
//! `reach` now was within `reach + 4·skin` at the search. Each listed pair's gap is computed
//! from the current boxes by the same function as before, and the list is in (a, b) order, so
//! the pairs and gaps given are exactly those a search would give now.
//!
//! **Most listed pairs are not even tested.** The list keeps each pair's gap at the search,
//! and each evaluation that keeps the list notes how far each box has moved since (d_k, the
//! largest change of a corner coordinate, found while checking the skin). A pair's box gap
//! has changed by at most d_a + d_b since (a plane's gap by at most 2√3·d_k < 4·d_k), so a
//! pair whose gap then exceeded the reach by more than that, plus a round-off allowance
//! (`skip_margin`), is beyond the reach now and is passed over without computing its gap. In
//! a settling pile most listed pairs (those within `reach + 4·skin` but not `reach`) are
//! passed over; the pairs given are the same, bit for bit.

use super::broad_phase::{box_gap, NearPair};
use super::cells::Cells;
use crate::blocks::multibody::FrameMotion;
use nalgebra::Vector3;

/// What the grid does with a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A bounded member hashed into the grid.
    Small,
    /// A bounded member wider than the cells: tested against every bounded member.
    Big,
    /// An infinite plane fixed to the World: tested against every bounded member.
    Plane,
    /// Not broad-phased (a grid surface, a moving plane: always evaluated).
    Other,
}

/// The grid and its buffers, sized once.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    /// The small members' cells (a spatial hash of their box centres).
    cells: Cells,
    role: Vec<Role>,
    /// The bounded members (indices, ascending), the small ones and the big ones.
    bounded: Vec<u32>,
    small: Vec<u32>,
    big: Vec<u32>,
    /// The planes fixed to the World, and per plane its unit normal n (World) and n·origin (m).
    planes: Vec<u32>,
    plane_frames: Vec<(Vector3<f64>, f64)>,
    /// The reach asked for (m) and how far a box corner may move before a new search (m).
    reach: f64,
    skin: f64,
    /// The pairs within `reach + 4·skin` at the last search, sorted by (a, b), each with its
    /// plane's slot in `planes` (`u32::MAX`: two boxes), the boxes and plane frames then, and
    /// whether a search was made.
    listed: Vec<Listed>,
    listed_lo: Vec<[f64; 3]>,
    listed_hi: Vec<[f64; 3]>,
    listed_planes: Vec<(Vector3<f64>, f64)>,
    searched: bool,
    /// Per member: how far its box has moved since the search (m), the largest change of a
    /// corner coordinate; a bound on the change of each listed pair's gap (module docs).
    moved: Vec<f64>,
    /// A bound on the round-off of a gap and of the test that skips a pair (m), from the
    /// largest coordinate at the search (`skip_margin`).
    round_off: f64,
    /// The searches made (one per evaluation without the list).
    searches: u64,
}

/// A pair listed at the search: members a < b, the plane's slot in `planes` for a plane pair
/// (`BOXES` for two boxes) and the pair's gap at the search (m).
#[derive(Clone, Copy, Debug)]
struct Listed {
    a: u32,
    b: u32,
    plane: u32,
    gap: f64,
}

/// Plane slot of a listed pair of two boxes.
const BOXES: u32 = u32::MAX;

impl Grid {
    /// A grid over `m` members: `bounded` (ascending) with box radii `radius(k)` (m), `planes`
    /// (ascending) the infinite planes fixed to the World, for pairs within `reach` (m), with
    /// room for `pairs` listed pairs (more grow the list once).
    pub(super) fn new(
        m: usize,
        bounded: &[u32],
        planes: &[u32],
        radius: impl Fn(u32) -> f64,
        (reach, pairs): (f64, usize),
    ) -> Self {
        let mut radii: Vec<f64> = bounded.iter().map(|&k| radius(k)).collect();
        radii.sort_unstable_by(f64::total_cmp);
        let median = radii.get(radii.len() / 2).copied().unwrap_or(0.0);
        let mut role = vec![Role::Other; m];
        let (mut small, mut big) = (Vec::new(), Vec::new());
        let mut widest = 0.0f64;
        for &k in bounded {
            let r = radius(k);
            if r <= 4.0 * median {
                role[k as usize] = Role::Small;
                small.push(k);
                widest = widest.max(r);
            } else {
                role[k as usize] = Role::Big;
                big.push(k);
            }
        }
        for &p in planes {
            role[p as usize] = Role::Plane;
        }
        let reach = reach.max(0.0);
        // Half the reach, or a twentieth of the widest small box when the reach is smaller: a
        // settled member then keeps the list for good, and a ball at 3 m/s for ~40 of the
        // pile's steps (reach 12.5 mm, h ≈ 5e-5 s); a wider skin lists more pairs to test.
        let skin = (0.5 * reach).max(0.1 * widest);
        let cell = (2.0 * widest + reach + 4.0 * skin) * (1.0 + 1e-9);
        Grid {
            cells: Cells::new(m, small.len(), bounded.len(), cell),
            role,
            bounded: bounded.to_vec(),
            small,
            big,
            planes: planes.to_vec(),
            plane_frames: vec![(Vector3::zeros(), 0.0); planes.len()],
            reach,
            skin,
            listed: Vec::with_capacity(pairs),
            listed_lo: vec![[0.0; 3]; m],
            listed_hi: vec![[0.0; 3]; m],
            listed_planes: vec![(Vector3::zeros(), 0.0); planes.len()],
            searched: false,
            moved: vec![0.0; m],
            round_off: f64::INFINITY,
            searches: 0,
        }
    }

    /// The grid searches made so far (the other evaluations used the list).
    #[cfg(test)]
    pub(super) fn searches(&self) -> u64 {
        self.searches
    }

    /// Whether the listed pairs still hold every pair within the reach: each bounded member's
    /// box corners within `skin` of the searched ones (a NaN fails) and the planes unmoved.
    ///
    /// The planes compare by exact f64 equality on purpose. A plane here is fixed to the World,
    /// so its frame is recomputed each evaluation from the same inputs by the same operations
    /// and comes out bit-identical: exact costs no list reuse. A frame that differs at all
    /// means the plane moved, and the skin argument (module documentation) bounds only the
    /// boxes' motion: a tilt δ of the normal moves a corner's plane gap by up to δ·|corner|,
    /// unbounded in the corner's distance from the origin, so no fixed tolerance keeps the
    /// bound. Searching again then is the correct answer.
    ///
    /// Also keeps each bounded member's displacement since the search in `moved` (the largest
    /// change of a corner coordinate, m; meaningful only when the list holds).
    fn list_holds(&mut self, lo: &[[f64; 3]], hi: &[[f64; 3]]) -> bool {
        if !(self.searched && self.plane_frames == self.listed_planes) {
            return false;
        }
        let mut holds = true;
        for &k in &self.bounded {
            let k = k as usize;
            let (mut moved, mut nan) = (0.0f64, false);
            for a in 0..3 {
                let d_lo = (lo[k][a] - self.listed_lo[k][a]).abs();
                let d_hi = (hi[k][a] - self.listed_hi[k][a]).abs();
                // `max` drops a NaN: it is noted apart (and fails the list, as it did).
                moved = moved.max(d_lo).max(d_hi);
                nan |= d_lo.is_nan() | d_hi.is_nan();
            }
            self.moved[k] = moved;
            if nan || moved > self.skin {
                holds = false;
                break;
            }
        }
        holds
    }

    /// Every pair of broad-phased members whose gap is at most the grid's reach (m) and that
    /// `allowed` accepts (which must not change over the grid's life: the list keeps its
    /// answers), written to `out` (cleared first) sorted by (a, b), each with its gap: box to
    /// box (`box_gap`), or for a plane the signed distance from the plane to the box's lowest
    /// corner. The grid is searched only when a box has moved more than the skin since the
    /// last search; otherwise the listed pairs are tested. No allocation once `out` and the
    /// list have grown to the number of such pairs.
    pub(super) fn pairs_sorted(
        &mut self,
        (lo, hi): (&[[f64; 3]], &[[f64; 3]]),
        motions: &[FrameMotion],
        allowed: impl Fn(u32, u32) -> bool,
        out: &mut Vec<NearPair>,
    ) {
        out.clear();
        for (frame, &p) in self.plane_frames.iter_mut().zip(&self.planes) {
            let plane = &motions[p as usize];
            let n: Vector3<f64> = plane.rotation.column(2).into_owned();
            *frame = (n, n.dot(&plane.position));
        }
        if !self.list_holds(lo, hi) {
            self.search((lo, hi), allowed);
        }
        let reach = self.reach;
        // A pair whose gap at the search exceeds the reach by more than its members' moves
        // since can change (plus round-off) is beyond the reach now: it is not tested. The
        // others' gaps come from the same functions as before, so `out` is what testing every
        // listed pair gives, bit for bit.
        let beyond = reach + self.round_off;
        for &Listed { a, b, plane, gap } in &self.listed {
            let (a_, b_) = (a as usize, b as usize);
            let gap = if plane == BOXES {
                if gap - (self.moved[a_] + self.moved[b_]) > beyond {
                    continue;
                }
                box_gap(&lo[a_], &hi[a_], &lo[b_], &hi[b_])
            } else {
                let k = if self.planes[plane as usize] == a {
                    b_
                } else {
                    a_
                };
                if gap - 4.0 * self.moved[k] > beyond {
                    continue;
                }
                plane_gap(&self.plane_frames[plane as usize], &lo[k], &hi[k])
            };
            if gap <= reach {
                out.push(NearPair { a, b, gap });
            }
        }
    }

    /// The round-off allowance of the skip test in `pairs_sorted` (m). A gap is a difference
    /// of two coordinates, or for a plane a sum of seven terms (the plane's offset and six
    /// products of coordinates by the normal's components), each at most C + O in size (C the
    /// largest corner coordinate, now within a skin of the search's, O the largest plane
    /// offset); each is rounded by a few ε·(C + O), the gap then and now, the displacements,
    /// the reach (at most two skins) and the test by as much again: 256·ε·(C + O + skin)
    /// bounds it all with room to spare. Infinite (no pair skipped) for a NaN or infinite box.
    fn skip_margin(&self, lo: &[[f64; 3]], hi: &[[f64; 3]]) -> f64 {
        let mut corner = 0.0f64;
        for &k in &self.bounded {
            for x in lo[k as usize].iter().chain(&hi[k as usize]) {
                corner = if x.abs() > corner || x.is_nan() {
                    x.abs()
                } else {
                    corner
                };
            }
        }
        let mut offset = 0.0f64;
        for (_, o) in &self.plane_frames {
            offset = if o.abs() > offset || o.is_nan() {
                o.abs()
            } else {
                offset
            };
        }
        let margin = 256.0 * f64::EPSILON * (corner + offset + self.skin);
        if margin.is_finite() {
            margin
        } else {
            f64::INFINITY
        }
    }

    /// Lists every allowed pair within `reach + 4·skin` of the boxes (lo, hi) by the grid,
    /// sorted by (a, b), and keeps the boxes and plane frames it was made from.
    fn search(&mut self, (lo, hi): (&[[f64; 3]], &[[f64; 3]]), allowed: impl Fn(u32, u32) -> bool) {
        self.searches += 1;
        self.searched = true;
        self.cells.rebuild(&self.small, lo, hi);
        for &k in &self.bounded {
            self.listed_lo[k as usize] = lo[k as usize];
            self.listed_hi[k as usize] = hi[k as usize];
        }
        self.listed_planes.copy_from_slice(&self.plane_frames);
        for &k in &self.bounded {
            self.moved[k as usize] = 0.0;
        }
        self.round_off = self.skip_margin(lo, hi);
        // Until the next search no corner moves more than a skin: a box gap changes by at most
        // two skins, a plane's by less than four. Box pairs further than that (plus round-off)
        // cannot come within reach before then and are not listed.
        let box_reach = self.reach + 2.0 * self.skin + self.round_off;
        let reach = self.reach + 4.0 * self.skin;
        let mut out = std::mem::take(&mut self.listed);
        out.clear();
        let box_pair = |a: u32, b: u32, out: &mut Vec<Listed>| {
            let (a_, b_) = (a as usize, b as usize);
            let gap = box_gap(&lo[a_], &hi[a_], &lo[b_], &hi[b_]);
            if gap <= box_reach && allowed(a, b) {
                out.push(Listed {
                    a,
                    b,
                    plane: BOXES,
                    gap,
                });
            }
        };
        let plane_pair = |f: usize, k: u32, out: &mut Vec<Listed>| {
            let p = self.planes[f];
            let gap = plane_gap(&self.plane_frames[f], &lo[k as usize], &hi[k as usize]);
            let (a, b) = (p.min(k), p.max(k));
            if gap <= reach && allowed(a, b) {
                out.push(Listed {
                    a,
                    b,
                    plane: f as u32,
                    gap,
                });
            }
        };
        for a in 0..self.role.len() as u32 {
            let first = out.len();
            match self.role[a as usize] {
                Role::Small => {
                    self.cells
                        .small_partners(a, &mut |b| box_pair(a, b, &mut out));
                    for &b in self.big.iter().filter(|&&b| b > a) {
                        box_pair(a, b, &mut out);
                    }
                }
                Role::Big => {
                    for &b in self.bounded.iter().filter(|&&b| b > a) {
                        box_pair(a, b, &mut out);
                    }
                }
                Role::Plane => {
                    let f = self.planes.binary_search(&a).unwrap_or(0);
                    for &k in self.bounded.iter().filter(|&&k| k > a) {
                        plane_pair(f, k, &mut out);
                    }
                }
                Role::Other => {}
            }
            if matches!(self.role[a as usize], Role::Small | Role::Big) {
                for (f, _) in self.planes.iter().enumerate().filter(|&(_, &p)| p > a) {
                    plane_pair(f, a, &mut out);
                }
            }
            out[first..].sort_unstable_by_key(|p| p.b);
        }
        self.listed = out;
    }
}

/// The signed distance (m) from a plane (unit normal n, World, and n·origin) to the lowest
/// corner of the box (lo, hi): `n·c − n·o − Σ_a |n_a|·h_a` (c the box's centre, h its half
/// sizes), summed in the order `plane_pairs_within` sums it.
#[inline]
pub(super) fn plane_gap((n, offset): &(Vector3<f64>, f64), l: &[f64; 3], h: &[f64; 3]) -> f64 {
    let mut gap = -offset;
    for a in 0..3 {
        gap += n[a] * 0.5 * (l[a] + h[a]) - n[a].abs() * 0.5 * (h[a] - l[a]);
    }
    gap
}

#[cfg(test)]
mod tests {
    use super::super::broad_phase::tests::at;
    use super::super::broad_phase::{bounding_box, Sweep};
    use super::*;
    use crate::geometry::Shape;

    /// A pseudo-random stream in [0, 1).
    fn stream(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// A jumble of 120 balls (r 5 cm) and 6 bricks, one of them a 2 m slab (a big member),
    /// packed in a 0.8 m cube with a floor plane (member 3) and a tilted wall (member 70): the
    /// grid lists exactly the pairs (and gaps, bit for bit) that a test of every pair lists,
    /// sorted by pair, at every reach, with an `allowed` that refuses some.
    #[test]
    fn the_grid_lists_every_pair_within_reach_sorted() {
        let ball = Shape::sphere(0.05).unwrap();
        let brick = Shape::brick([0.2, 0.1, 0.05]).unwrap();
        let slab = Shape::brick([2.0, 2.0, 0.1]).unwrap();
        let (planes, m) = ([3u32, 70], 128usize);
        let mut next = stream(0x2545_f491_4f6c_dd1d);
        let (mut lo, mut hi) = (vec![[0.0; 3]; m], vec![[0.0; 3]; m]);
        let mut motions = vec![at(0.0, 0.0, 0.0); m];
        let mut radius = vec![0.0; m];
        let mut bounded = vec![];
        let wall = nalgebra::Rotation3::from_axis_angle(&Vector3::y_axis(), 1.2);
        motions[70].rotation = *wall.matrix();
        motions[70].position = Vector3::new(0.3, 0.0, 0.0);
        for k in 0..m as u32 {
            if planes.contains(&k) {
                continue;
            }
            let shape = match k % 23 {
                5 => &brick,
                9 if k == 9 => &slab,
                _ => &ball,
            };
            let mut motion = at(0.8 * next(), 0.8 * next(), 0.8 * next());
            motion.rotation =
                *nalgebra::Rotation3::from_scaled_axis(Vector3::new(next(), next(), next()))
                    .matrix();
            (lo[k as usize], hi[k as usize]) = bounding_box(shape, &motion);
            radius[k as usize] = super::super::broad_phase::radius(shape);
            motions[k as usize] = motion;
            bounded.push(k);
        }
        let refused = |a: u32, b: u32| (a + b) % 17 == 0;
        for reach in [0.0, 0.0125, 0.1] {
            let mut grid = Grid::new(m, &bounded, &planes, |k| radius[k as usize], (reach, 0));
            assert_eq!(grid.big, vec![9], "the slab is the one big member");
            let mut out = vec![];
            grid.pairs_sorted((&lo, &hi), &motions, |a, b| !refused(a, b), &mut out);
            let want = every_pair_within((&lo, &hi), &motions, &planes, reach, refused);
            assert!(want.len() > 20, "reach {reach}: only {} pairs", want.len());
            assert_eq!(out, want, "reach {reach}");
            // The sort-and-sweep finds the same box pairs.
            let mut sweep = Sweep::new(&bounded);
            let mut swept = vec![];
            sweep.pairs_within(&lo, &hi, (reach, None), |a, b| !refused(a, b), &mut swept);
            swept.sort_unstable_by_key(|p| (p.a, p.b));
            let boxes: Vec<NearPair> = out
                .iter()
                .copied()
                .filter(|p| !planes.contains(&p.a) && !planes.contains(&p.b))
                .collect();
            assert_eq!(swept, boxes, "reach {reach}");
        }
    }

    /// The pairs within `reach` found by testing every pair, sorted, with their gaps.
    fn every_pair_within(
        (lo, hi): (&[[f64; 3]], &[[f64; 3]]),
        motions: &[FrameMotion],
        planes: &[u32],
        reach: f64,
        refused: impl Fn(u32, u32) -> bool,
    ) -> Vec<NearPair> {
        let m = lo.len() as u32;
        let mut want = vec![];
        for a in 0..m {
            for b in a + 1..m {
                let (pa, pb) = (planes.contains(&a), planes.contains(&b));
                let gap = match (pa, pb) {
                    (true, true) => continue,
                    (false, false) => box_gap(
                        &lo[a as usize],
                        &hi[a as usize],
                        &lo[b as usize],
                        &hi[b as usize],
                    ),
                    _ => {
                        let (p, k) = if pa { (a, b) } else { (b, a) };
                        let plane = &motions[p as usize];
                        let n: Vector3<f64> = plane.rotation.column(2).into_owned();
                        plane_gap(
                            &(n, n.dot(&plane.position)),
                            &lo[k as usize],
                            &hi[k as usize],
                        )
                    }
                };
                if gap <= reach && !refused(a, b) {
                    want.push(NearPair { a, b, gap });
                }
            }
        }
        want
    }

    /// 80 balls (r 5 cm) and a floor plane (member 0) walked through 200 evaluations, each
    /// moving every ball by up to 0.4 mm (well within the skin) and, every 25th, a few balls by
    /// 5 cm (beyond it): every evaluation lists exactly the pairs and gaps that testing every
    /// pair gives, and the grid is searched only after the far moves (a handful of times).
    #[test]
    fn the_kept_list_gives_what_a_search_gives_while_members_move() {
        let ball = Shape::sphere(0.05).unwrap();
        let (planes, m) = ([0u32], 81usize);
        let mut next = stream(0x9e37_79b9_7f4a_7c15);
        let mut motions = vec![at(0.0, 0.0, 0.0); m];
        motions[0].rotation =
            *nalgebra::Rotation3::from_axis_angle(&Vector3::x_axis(), 0.1).matrix();
        for motion in motions.iter_mut().skip(1) {
            motion.position = Vector3::new(0.6 * next(), 0.6 * next(), 0.3 * next());
        }
        let bounded: Vec<u32> = (1..m as u32).collect();
        let reach = 0.0125;
        let mut grid = Grid::new(m, &bounded, &planes, |_| 0.05, (reach, 0));
        let (mut lo, mut hi) = (vec![[0.0; 3]; m], vec![[0.0; 3]; m]);
        let refused = |a: u32, b: u32| (a * b) % 13 == 1;
        let mut out = vec![];
        let rounds = 200;
        for round in 0..rounds {
            for (k, motion) in motions.iter_mut().enumerate().skip(1) {
                let far = round % 25 == 24 && k % 7 == 0;
                let step = if far { 0.05 } else { 4e-4 };
                motion.position += step * Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5);
                (lo[k], hi[k]) = bounding_box(&ball, motion);
            }
            grid.pairs_sorted((&lo, &hi), &motions, |a, b| !refused(a, b), &mut out);
            let want = every_pair_within((&lo, &hi), &motions, &planes, reach, refused);
            assert_eq!(out, want, "round {round}");
        }
        // The first evaluation and one after each of the 8 far moves; the drift of 0.2 mm per
        // round (at most) along an axis adds a few.
        let searches = grid.searches();
        assert!(
            (9..=40).contains(&searches),
            "{searches} searches in {rounds} evaluations"
        );
    }

    /// Pairs at exact ties (box gaps equal to the reach, in binary fractions far from the
    /// origin, where the coordinates' round-off is largest) and balls moved by nothing, by a
    /// few ulps, by micrometres and by a skin's worth, back and forth across the tie: the
    /// listed pairs skipped by the bound on their gaps' change leave every evaluation equal,
    /// bit for bit, to testing every pair.
    #[test]
    fn the_skipped_listed_pairs_are_beyond_reach_at_ties_and_far_from_the_origin() {
        // r = 1/16 m, reach = 1/64 m, pitch 2r + reach: neighbours' boxes exactly `reach` apart.
        let (r, reach) = (0.0625, 0.015625);
        let pitch = 2.0 * r + reach;
        let ball = Shape::sphere(r).unwrap();
        for origin in [0.0, 1024.0, -3.0e5] {
            let (planes, m) = ([0u32], 49usize);
            let mut motions = vec![at(origin, origin, origin); m];
            for (k, motion) in motions.iter_mut().enumerate().skip(1) {
                let (i, j) = ((k - 1) % 8, (k - 1) / 8);
                let (x, y) = (i as f64 * pitch, j as f64 * pitch);
                // The floor's plane through `origin`: the lowest row's gap to it is the reach.
                motion.position = Vector3::new(origin + x, origin + y, origin + r + reach);
            }
            let bounded: Vec<u32> = (1..m as u32).collect();
            let mut grid = Grid::new(m, &bounded, &planes, |_| r, (reach, 0));
            let (mut lo, mut hi) = (vec![[0.0; 3]; m], vec![[0.0; 3]; m]);
            let mut next = stream(0x2545_f491_4f6c_dd1d);
            let mut out = vec![];
            for round in 0..120 {
                for (k, motion) in motions.iter_mut().enumerate().skip(1) {
                    let step = match (round + k) % 5 {
                        0 => 0.0,
                        1 => 4.0 * f64::EPSILON * (1.0 + origin.abs()),
                        2 => 1e-6,
                        3 => 2e-3,
                        _ => -2e-3,
                    };
                    let axis = (round + 2 * k) % 3;
                    let sign = if next() < 0.5 { -1.0 } else { 1.0 };
                    motion.position[axis] += sign * step;
                    (lo[k], hi[k]) = bounding_box(&ball, motion);
                }
                grid.pairs_sorted((&lo, &hi), &motions, |_, _| true, &mut out);
                let want = every_pair_within((&lo, &hi), &motions, &planes, reach, |_, _| false);
                assert_eq!(out, want, "origin {origin}, round {round}");
            }
        }
    }
}
