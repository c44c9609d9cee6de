//! The group's evaluation: members' poses and boxes, the broad phase, the narrow phase over its
//! candidates, and the outputs (see the module documentation of `group`).

use super::base::{
    ContactGroup, Scratch, ACTIVE_PAIRS, FIRST_WRENCH, MEMBER_WRENCH, SEPARATION_RESOLUTION,
};
use super::broad_phase::bounding_box;
use super::narrow::PairSide;
use crate::block::Io;
use crate::blocks::multibody::FrameMotion;
use nalgebra::{Isometry3, Vector3};
/// `out = w` for the first contribution, `out += w` after.
#[inline]
fn add_wrench(out: &mut [f64; 6], touched: &mut bool, n: &Vector3<f64>, f: &Vector3<f64>) {
    let w = [n.x, n.y, n.z, f.x, f.y, f.z];
    if *touched {
        for (o, x) in out.iter_mut().zip(w) {
            *o += x;
        }
    } else {
        *out = w;
        *touched = true;
    }
}

/// Adds a pair's wrench on its follower j (moment about the World origin, force) to member j's
/// sum and the opposite to its base i's, as SpatialContactForce writes them.
#[inline]
fn add_pair_wrench(
    s: &mut Scratch,
    (iu, ju): (usize, usize),
    moment: &Vector3<f64>,
    force: &Vector3<f64>,
) {
    let zero = Vector3::zeros();
    let (nf, ff) = (zero.cross(force) + moment, *force);
    let (nb, fb) = (zero.cross(&-force) + -moment, -force);
    add_wrench(&mut s.wrench[ju], &mut s.touched[ju], &nf, &ff);
    add_wrench(&mut s.wrench[iu], &mut s.touched[iu], &nb, &fb);
}

impl ContactGroup {
    /// The watch slots decoded from `work` (a whole evaluation only: an island's evaluation
    /// comes after a whole one, at initialization or an event, the only places the slots
    /// change), the members' poses and boxes, and the broad phase: what the force evaluation and
    /// the crossing functions from the inputs both start with.
    pub(super) fn near_pairs(
        &self,
        work: &[f64],
        io: &Io,
        s: &mut Scratch,
        island: Option<&[bool]>,
    ) {
        if island.is_none() {
            let slots = &work[..work.len().min(self.watch_slots)];
            let generation = work.get(self.watch_slots).copied().unwrap_or(0.0);
            self.sync_watched(slots, generation, s);
        }
        self.update_members(io, s, island);
        self.broad_phase(s, island);
    }

    /// Poses, motions and boxes of every member from its kinematics input; with `island`, of
    /// the island's members only (the others', and those fixed to the World, keep the values
    /// of the last evaluation: the engine's evaluations at initialization and events are
    /// whole).
    /// With `island`, also the box around the island's members' boxes (`s.island_box`).
    pub(super) fn update_members(&self, io: &Io, s: &mut Scratch, island: Option<&[bool]>) {
        s.island_box = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for (k, m) in self.members.iter().enumerate() {
            if island.is_some_and(|mask| !mask[m.body]) {
                continue;
            }
            let motion = FrameMotion::of(io.input(k), &m.placement);
            s.poses[k] = motion.isometry();
            s.scale[k] = 1f64.max(s.poses[k].translation.vector.norm());
            if m.bounded {
                (s.lo[k], s.hi[k]) = bounding_box(&m.shape, &motion);
                // Only an island's evaluation reads the box around its members' boxes.
                if island.is_some() {
                    for a in 0..3 {
                        s.island_box.0[a] = s.island_box.0[a].min(s.lo[k][a]);
                        s.island_box.1[a] = s.island_box.1[a].max(s.hi[k][a]);
                    }
                }
            }
            s.motions[k] = motion;
        }
    }

    /// The broad phase: the near pairs, the approach function and the narrow phase's list;
    /// with `island`, only the pairs with a member on the island's bodies (a pair of two
    /// other islands' members exerts no force on the island; a pair across islands cannot be
    /// in contact by the partition, but stays in the approach function as a second line of
    /// defence, its other member where its island's last evaluation left it).
    pub(super) fn broad_phase(&self, s: &mut Scratch, island: Option<&[bool]>) {
        if island.is_none() {
            // A whole evaluation: the grid, whose pairs come sorted.
            let Scratch {
                grid,
                lo,
                hi,
                motions,
                near,
                ..
            } = s;
            let allowed = |a, b| self.allowed(a, b);
            grid.pairs_sorted((&lo[..], &hi[..]), motions, allowed, near);
        } else {
            let Scratch {
                sweep,
                lo,
                hi,
                near,
                ..
            } = s;
            let allowed = |a, b| {
                (self.in_island(island, a) || self.in_island(island, b)) && self.allowed(a, b)
            };
            let window = island.map(|_| s.island_box);
            sweep.pairs_within(lo, hi, (self.margin, window), allowed, near);
            self.plane_pairs_within(lo, hi, &s.motions, (self.margin, island), near);
            s.near
                .sort_unstable_by_key(|p| (u64::from(p.a) << 32) | u64::from(p.b));
        }
        // One order whatever the broad phase's (by pair): the sums are then the same at every
        // evaluation.
        s.candidates.clear();
        s.candidate_slots.clear();
        s.candidate_apart.clear();
        s.candidates.extend_from_slice(&self.always);
        let half = 0.5 * self.margin;
        s.approach = half;
        // `near` and `watched` are both sorted by pair: one walk finds each pair's watch slot.
        let mut w = 0;
        for p in &s.near {
            while s.watched.get(w).is_some_and(|x| (x.0, x.1) < (p.a, p.b)) {
                w += 1;
            }
            let slot = s
                .watched
                .get(w)
                .filter(|x| (x.0, x.1) == (p.a, p.b))
                .map(|x| x.2);
            if p.gap <= 0.0 || slot.is_some() {
                s.candidates.push((p.a, p.b));
                s.candidate_slots.push(slot.unwrap_or(u32::MAX));
                s.candidate_apart.push(p.gap > 0.0);
            }
            if slot.is_none()
                && self.zero_crossings
                && s.overflow.binary_search(&(p.a, p.b)).is_err()
            {
                s.approach = s.approach.min(p.gap - half);
            }
        }
    }

    /// Member `k` as one side of a pair for the narrow phase: its shape, motion and pose now.
    #[inline]
    fn pair_side<'a>(
        &'a self,
        (motions, poses): (&'a [FrameMotion], &'a [Isometry3<f64>]),
        k: usize,
    ) -> PairSide<'a> {
        PairSide {
            shape: &self.members[k].shape,
            motion: &motions[k],
            pose: &poses[k],
            fixed: self.members[k].body == 0,
        }
    }

    /// Evaluates the candidates; returns the number of pairs in contact. With `island`, the
    /// always-evaluated pairs without a member on the island's bodies are skipped (their
    /// zero-crossing functions keep their values; the watch slots of pairs not evaluated read
    /// 1, as for any pair the broad phase left out).
    ///
    /// A watched pair whose boxes are apart (gap > 0) is not in contact: its manifold, needed
    /// only for its zero-crossing value, is left to [`ContactGroup::apart_separations`] when the
    /// crossing functions are read (`s.apart` lists it). It adds the wrench [`Narrow::eval`]
    /// gives an apart pair (zero force and moment) through the same operations, so that the
    /// members' sums, their signed zeros and `touched` are the same bits as when it was
    /// evaluated.
    ///
    /// [`Narrow::eval`]: super::narrow::Narrow::eval
    pub(super) fn narrow_phase(&self, s: &mut Scratch, island: Option<&[bool]>) -> usize {
        s.touched.iter_mut().for_each(|t| *t = false);
        s.slot_g.iter_mut().for_each(|g| *g = 1.0);
        s.apart.clear();
        let always = self.always.len();
        let mut active = 0;
        for c in 0..s.candidates.len() {
            let (i, j) = s.candidates[c];
            if !self.in_island(island, i) && !self.in_island(island, j) {
                continue;
            }
            let (iu, ju) = (i as usize, j as usize);
            if c >= always && s.candidate_apart[c - always] {
                s.apart.push(c as u32);
                add_pair_wrench(s, (iu, ju), &Vector3::zeros(), &Vector3::zeros());
                continue;
            }
            let now = (&s.motions[..], &s.poses[..]);
            let (base, follower) = (self.pair_side(now, iu), self.pair_side(now, ju));
            let Some(r) = s
                .narrow
                .eval(&self.normal, &self.friction, &base, &follower)
            else {
                continue;
            };
            active += usize::from(r.in_contact);
            if self.zero_crossings && (c < always || self.crossing_slots() > 0) {
                self.write_crossing(s, c, (iu, ju), r.separation);
            }
            add_pair_wrench(s, (iu, ju), &r.moment, &r.force);
        }
        active
    }

    /// The zero-crossing values of the pairs the last narrow phase skipped as apart (`s.apart`,
    /// emptied): their separations, as [`ContactGroup::crossing_separations`] computes them
    /// (the same manifold [`ContactGroup::narrow_phase`] ran on them before, the same bits).
    /// The poses are the last evaluation's, which the engine reads g from only while its
    /// outputs are current.
    pub(super) fn apart_separations(&self, s: &mut Scratch) {
        for k in 0..s.apart.len() {
            let c = s.apart[k] as usize;
            let (i, j) = s.candidates[c];
            let (iu, ju) = (i as usize, j as usize);
            let now = (&s.motions[..], &s.poses[..]);
            let (base, follower) = (self.pair_side(now, iu), self.pair_side(now, ju));
            let Some(separation) = s.narrow.separation(&base, &follower) else {
                continue;
            };
            self.write_crossing(s, c, (iu, ju), separation);
        }
        s.apart.clear();
    }

    /// Candidate c's zero-crossing value from the separation (m) of its members (iu, ju), if it
    /// has a zero-crossing function (an always-pair or a watched pair).
    #[inline]
    fn write_crossing(&self, s: &mut Scratch, c: usize, (iu, ju): (usize, usize), separation: f64) {
        // max(1, |p_i|, |p_j|): each member's max(1, |p|) is kept (`update_members`).
        let scale = s.scale[iu].max(s.scale[ju]);
        let g = separation + SEPARATION_RESOLUTION * scale;
        // The candidates start with the always-pairs, in their order, then the broad phase's,
        // each with its watch slot (u32::MAX: none).
        if c < self.always.len() {
            s.always_g[c] = g;
        } else {
            let slot = s.candidate_slots[c - self.always.len()];
            if slot != u32::MAX {
                s.slot_g[slot as usize] = g;
            }
        }
    }

    /// The zero-crossing values alone, after the broad phase: the separations of the
    /// candidates that have a zero-crossing function (the always-pairs and the watched pairs
    /// within the margin), through the narrow phase's manifold without its forces, so the same
    /// numbers [`ContactGroup::narrow_phase`] writes. With `island`, the same pairs as it.
    pub(super) fn crossing_separations(&self, s: &mut Scratch, island: Option<&[bool]>) {
        s.slot_g.iter_mut().for_each(|g| *g = 1.0);
        s.apart.clear();
        let always = self.always.len();
        let slots = self.crossing_slots();
        for c in 0..s.candidates.len() {
            if c >= always && (slots == 0 || s.candidate_slots[c - always] == u32::MAX) {
                continue;
            }
            let (i, j) = s.candidates[c];
            if !self.in_island(island, i) && !self.in_island(island, j) {
                continue;
            }
            let (iu, ju) = (i as usize, j as usize);
            let now = (&s.motions[..], &s.poses[..]);
            let (base, follower) = (self.pair_side(now, iu), self.pair_side(now, ju));
            let Some(separation) = s.narrow.separation(&base, &follower) else {
                continue;
            };
            self.write_crossing(s, c, (iu, ju), separation);
        }
    }

    /// Writes the outputs from the member wrenches. With `island`, only the hidden wrenches of
    /// the island's members (the user outputs, which no island's dynamics read, and the other
    /// members' wrenches keep their values until the next whole evaluation).
    pub(super) fn write_outputs(
        &self,
        io: &mut Io,
        s: &Scratch,
        active: usize,
        island: Option<&[bool]>,
    ) {
        if island.is_some() {
            for k in 0..self.m() {
                if self.in_island(island, k as u32) {
                    let w = if s.touched[k] { s.wrench[k] } else { [0.0; 6] };
                    io.output(FIRST_WRENCH + k).copy_from_slice(&w);
                }
            }
            return;
        }
        io.output(ACTIVE_PAIRS)[0] = active as f64;
        for k in 0..self.m() {
            let w = if s.touched[k] { s.wrench[k] } else { [0.0; 6] };
            io.output(FIRST_WRENCH + k).copy_from_slice(&w);
        }
        let table = io.output(MEMBER_WRENCH);
        for (k, col) in table.chunks_exact_mut(6).enumerate() {
            let w = if s.touched[k] { s.wrench[k] } else { [0.0; 6] };
            let n = Vector3::new(w[0], w[1], w[2]);
            let f = Vector3::new(w[3], w[4], w[5]);
            // The torque about the member's frame origin p: n_O − p × f.
            let tau = n - s.motions[k].position.cross(&f);
            col[..3].copy_from_slice(f.as_slice());
            col[3..].copy_from_slice(tau.as_slice());
        }
    }
}
