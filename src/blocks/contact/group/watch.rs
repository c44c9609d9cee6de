//! Which pairs the group watches with zero-crossing functions, and when it looks again.
//!
//! At the start and after every event (the engine's `settle`), the watched pairs are chosen
//! again: the pairs whose boxes are within `margin` now, nearest first, as many as there are
//! slots; a pair that stays watched keeps its slot. Between two such instants an unwatched pair
//! is caught by the approach function (its box gap falling through margin/2 is an event), but a
//! sign change is only seen at a step's end, and a step may carry a fast body from one side of
//! a thin plate to the other: both ends then see the pair far apart. So the group also bounds
//! the time to its next look (a time event; conservative advancement):
//!
//! ```text
//! s_k   = |v_k| + |ω_k|·ρ_k       the fastest any point of member k moves (m/s; ρ_k the radius
//!                                  of its box about its frame's origin)
//! a_k   = |g| for a member on a moving body, 0 for one fixed to the World
//! τ(D)  = the time a gap closing at s_a + s_b, accelerating at a_a + a_b, takes to close by D
//!         (the root of (s_a + s_b)·τ + ½·(a_a + a_b)·τ² = D)
//! τ_ab  = τ(gap_ab − margin/2)                for each unwatched pair with gap ≤ R = 8·margin
//! τ_ab  = τ(gap_ab + min thickness)           for each watched pair with gap > 0
//! τ_far = τ(R − margin/2) at s₁ + s₂, 2|g|    for every pair further (s₁, s₂ the two fastest)
//! next look at t + ½·min(τ)
//! ```
//!
//! A box's faces move no faster than its fastest point, so a gap closes at most at s_a + s_b
//! (√3 times that against a plane fixed to the World, whose gap is to a box corner), and a
//! body starting at rest under gravity falls at most ½|g|τ²: no unwatched pair reaches
//! margin/2 before the next look unless other forces (contacts, user forces) more than double
//! its approach meanwhile (the ½). At the next look it is within margin, and watched. A watched
//! pair's separation is compared only at step ends, so the looks also keep one member from
//! passing through the other (further than the gap plus the thinner one's thickness) within a
//! step. Pairs within margin/2 that found no watch slot (more near pairs than slots) are bounded
//! the same way, and left out of the approach function.

use super::base::{ContactGroup, Scratch};
use super::broad_phase::NearPair;
use super::grid::plane_gap;
use crate::blocks::multibody::FrameMotion;
use nalgebra::Vector3;

/// How far beyond the margin the time bound looks, in margins.
const LOOK_AHEAD: f64 = 8.0;

impl ContactGroup {
    /// The watched pairs from the work slots `slots`, when their `generation` (the work slot
    /// after them, which [`ContactGroup::settle_watched`] bumps whenever it changes a slot) is
    /// not the one last decoded: one comparison per evaluation, not one per slot. A restored
    /// checkpoint brings its own scratch (`Block::clone_scratch` makes a new one, never
    /// decoded). A rewind of the work alone (an island stretch run again) may reuse a
    /// generation with other slots, which is safe because one scratch reads the work and it
    /// decodes the work's generation before any bump ([`ContactGroup::settle_watched`] syncs
    /// first): the scratch never holds a generation equal to the work's with other slots.
    pub(super) fn sync_watched(&self, slots: &[f64], generation: f64, s: &mut Scratch) {
        if s.watched_generation == generation {
            return;
        }
        s.watched_generation = generation;
        s.watched.clear();
        for (slot, &code) in slots.iter().enumerate() {
            if let Some((a, b)) = self.decode(code) {
                s.watched.push((a, b, slot as u32));
            }
        }
        s.watched.sort_unstable();
        // watched[watch_start[a]..watch_start[a + 1]]: the watched pairs whose lower member is a.
        s.watch_start.fill(0);
        for w in &s.watched {
            s.watch_start[w.0 as usize + 1] += 1;
        }
        for k in 0..self.m() {
            s.watch_start[k + 1] += s.watch_start[k];
        }
    }

    /// The watch slot of pair (a, b), if it is watched: a binary search of a's watched pairs
    /// (sorted by b), so a member every other one rests on (a floor listed first) costs
    /// O(log N) per lookup, not O(N).
    #[inline]
    pub(super) fn watched_slot(s: &Scratch, a: u32, b: u32) -> Option<usize> {
        let range = s.watch_start[a as usize] as usize..s.watch_start[a as usize + 1] as usize;
        let of_a = &s.watched[range];
        of_a.binary_search_by_key(&b, |w| w.1)
            .ok()
            .map(|k| of_a[k].2 as usize)
    }

    /// Chooses the watched pairs again from the last evaluation's near pairs and writes them to
    /// the work's `slots` (pair codes, −1 free), then bumps the work's `generation` if any slot
    /// changed (so [`ContactGroup::sync_watched`] decodes them again). Returns whether what the
    /// crossing functions read changed: a slot, or the pairs left out of the approach function
    /// (`overflow`); the last evaluation's crossing values are stale then.
    pub(super) fn settle_watched(
        &self,
        slots: &mut [f64],
        generation: &mut f64,
        s: &mut Scratch,
    ) -> bool {
        // `watched` lists the pairs in `slots` as they are now (`choose_watched` relies on it).
        self.sync_watched(slots, *generation, s);
        let changed = self.choose_watched(slots, s);
        if changed {
            *generation = generation.max(s.watched_generation) + 1.0;
            self.sync_watched(slots, *generation, s);
        }
        changed || s.overflow != s.overflow_before
    }

    /// Chooses the watched pairs again from the last evaluation's near pairs; writes them to
    /// `slots` (pair codes, −1 free). Returns whether any slot changed. Pairs within margin/2
    /// that get no slot are listed in `overflow`. `watched` must list the pairs in `slots`.
    fn choose_watched(&self, slots: &mut [f64], s: &mut Scratch) -> bool {
        s.pick.clear();
        s.pick.extend_from_slice(&s.near);
        std::mem::swap(&mut s.overflow, &mut s.overflow_before);
        s.overflow.clear();
        if s.pick.len() > slots.len() {
            // Ties broken by the pair, so that the choice does not depend on the sweep's order.
            let key = |p: &NearPair| (p.gap, p.a, p.b);
            s.pick.select_nth_unstable_by(slots.len(), |x, y| {
                let (x, y) = (key(x), key(y));
                x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2)))
            });
            let half = 0.5 * self.margin;
            let left_out = s.pick[slots.len()..].iter().filter(|p| p.gap <= half);
            s.overflow.extend(left_out.map(|p| (p.a, p.b)));
            s.overflow.sort_unstable();
            s.pick.truncate(slots.len());
        }
        s.pick.sort_unstable_by_key(|p| (p.a, p.b));
        let mut changed = false;
        // Free the slots of pairs no longer picked.
        for slot in slots.iter_mut() {
            if let Some((a, b)) = self.decode(*slot) {
                if s.pick
                    .binary_search_by_key(&(a, b), |p| (p.a, p.b))
                    .is_err()
                {
                    *slot = -1.0;
                    changed = true;
                }
            }
        }
        // Give each newly picked pair a free slot. A picked pair that was watched kept its slot
        // above, so "already in a slot" is "watched before" (no scan of the slots per pair).
        let mut free = 0;
        for p in &s.pick {
            if Self::watched_slot(s, p.a, p.b).is_some() {
                continue;
            }
            let code = self.encode(p.a, p.b);
            while slots[free] >= 0.0 {
                free += 1;
            }
            slots[free] = code;
            changed = true;
        }
        changed
    }

    /// The time (s) of the group's next look at time `t`, after the watched pairs were chosen
    /// (see the module documentation); infinite when nothing moves and nothing accelerates.
    pub(super) fn next_look(&self, t: f64, s: &mut Scratch) -> f64 {
        let half = 0.5 * self.margin;
        let reach = LOOK_AHEAD * self.margin;
        let (mut fastest, mut second) = (0.0f64, 0.0f64);
        let mut moving = false;
        for (k, m) in self.members.iter().enumerate() {
            if !m.bounded {
                continue;
            }
            moving |= m.moving;
            let motion = &s.motions[k];
            let speed = motion.velocity.norm() + motion.angular_velocity.norm() * m.radius;
            s.speed[k] = speed;
            if speed > fastest {
                second = fastest;
                fastest = speed;
            } else if speed > second {
                second = speed;
            }
        }
        let gravity = if moving { self.gravity } else { 0.0 };
        // The pairs within reach, also when nothing moves: the island partition reads them
        // (`BodyCoupling::island_pairs`).
        let Scratch {
            sweep,
            lo,
            hi,
            ahead,
            ..
        } = s;
        sweep.pairs_within(lo, hi, (reach, None), |a, b| self.allowed(a, b), ahead);
        self.plane_pairs_within(lo, hi, &s.motions, (reach, None), ahead);
        if fastest == 0.0 && gravity == 0.0 {
            return f64::INFINITY;
        }
        let mut tau = time_to_close(reach - half, fastest + second, 2.0 * gravity);
        for &NearPair { a, b, gap } in s.ahead.iter() {
            let (ma, mb) = (&self.members[a as usize], &self.members[b as usize]);
            // A plane's gap is to a box corner, whose coordinates each move at up to s: it
            // closes at up to √3·s.
            let corner = if ma.fixed_plane || mb.fixed_plane {
                3f64.sqrt()
            } else {
                1.0
            };
            let closing = corner * (s.speed[a as usize] + s.speed[b as usize]);
            let accel = corner
                * gravity
                * (f64::from(u8::from(ma.moving)) + f64::from(u8::from(mb.moving)));
            let watched = Self::watched_slot(s, a, b).is_some();
            let overflowed = s.overflow.binary_search(&(a, b)).is_ok();
            // The distance the gap may close before the next look: to margin/2 for a pair the
            // approach function watches; for a watched (or overflowed) pair, whose separation
            // is compared only at step ends, less than the gap plus the thinner member's
            // thickness, so that no step carries one through the other.
            let distance = if watched || overflowed {
                gap + ma.thickness.min(mb.thickness)
            } else {
                gap - half
            };
            if gap > 0.0 && distance > 0.0 {
                tau = tau.min(time_to_close(distance, closing, accel));
            }
        }
        // Never at t itself (a time event must move t).
        t + (0.5 * tau).max(1e-12 * t.abs().max(1.0))
    }
}

impl ContactGroup {
    /// Appends to `out` every allowed pair of a plane fixed to the World and a bounded member
    /// whose box comes within `reach` (m) of the plane: the gap is the signed distance from the
    /// plane (origin o, normal n = R·e_z, World) to the box's lowest corner,
    /// `n·(c − o) − Σ_a |n_a|·h_a` (c the box's centre, h its half sizes). With `island`,
    /// only the island's members.
    pub(super) fn plane_pairs_within(
        &self,
        lo: &[[f64; 3]],
        hi: &[[f64; 3]],
        motions: &[FrameMotion],
        (reach, island): (f64, Option<&[bool]>),
        out: &mut Vec<NearPair>,
    ) {
        for &p in &self.planes {
            let plane = &motions[p as usize];
            let n: Vector3<f64> = plane.rotation.column(2).into_owned();
            let offset = n.dot(&plane.position);
            for &k in &self.bounded {
                if !self.in_island(island, k) {
                    continue;
                }
                let (l, h) = (&lo[k as usize], &hi[k as usize]);
                let gap = plane_gap(&(n, offset), l, h);
                let (a, b) = (p.min(k), p.max(k));
                if gap <= reach && self.allowed(a, b) {
                    out.push(NearPair { a, b, gap });
                }
            }
        }
    }

    /// Calls `crossing(k, a, b)` with the bodies of each zero-crossing function k that depends
    /// on one pair: each always-pair's members', each watch slot's pair's from `work` (`(0, 0)`
    /// for an empty slot, a constant 1). The approach function, over every unwatched pair, is
    /// not given.
    pub(super) fn slot_bodies(&self, work: &[f64], crossing: &mut dyn FnMut(usize, usize, usize)) {
        if !self.zero_crossings {
            return;
        }
        let body = |i: u32| self.members[i as usize].body;
        for (k, &(a, b)) in self.always.iter().enumerate() {
            crossing(k, body(a), body(b));
        }
        let first = self.first_slot();
        for (slot, &code) in work[..self.crossing_slots()].iter().enumerate() {
            let (a, b) = self
                .decode(code)
                .map_or((0, 0), |(a, b)| (body(a), body(b)));
            crossing(first + slot, a, b);
        }
    }

    /// The most zero-crossing functions [`ContactGroup::slot_bodies`] can give on the bodies
    /// `island` marks (and the World): the always-pairs on the island (both members on its
    /// bodies or fixed), and as many watch slots as there are pairs of the island's bounded
    /// members with each other and with the broad-phased members fixed to the World (a slot
    /// holds one such pair), at most all slots.
    pub(super) fn island_slots(&self, island: &[bool]) -> usize {
        if !self.zero_crossings {
            return 0;
        }
        let on = |i: u32| {
            let body = self.members[i as usize].body;
            body == 0 || island[body]
        };
        let always = self.always.iter().filter(|&&(a, b)| on(a) && on(b)).count();
        let inside = self
            .bounded
            .iter()
            .filter(|&&k| self.members[k as usize].body != 0 && on(k))
            .count();
        let fixed = self
            .members
            .iter()
            .filter(|m| m.body == 0 && (m.bounded || m.fixed_plane))
            .count();
        let pairs = inside * inside.saturating_sub(1) / 2 + inside * fixed;
        always + pairs.min(self.crossing_slots())
    }
}

/// The time (s) a gap closing at speed `speed` (m/s) with acceleration `accel` (m/s²) takes to
/// close by `distance` (m): the positive root of speed·τ + ½·accel·τ² = distance (infinite when
/// neither moves it).
fn time_to_close(distance: f64, speed: f64, accel: f64) -> f64 {
    let root = speed * speed + 2.0 * accel * distance;
    let denominator = speed + root.sqrt();
    if denominator > 0.0 {
        2.0 * distance / denominator
    } else {
        f64::INFINITY
    }
}
