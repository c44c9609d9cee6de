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
//! τ_ab  = (gap_ab − margin/2) / (s_a + s_b)      for each unwatched pair with gap ≤ R = 8·margin
//!                                                 (a plane fixed to the World has s = 0)
//! τ_far = (R − margin/2) / (s₁ + s₂)             for every pair further (s₁, s₂ the two fastest)
//! next look at t + ½·min(τ)
//! ```
//!
//! A box's faces move no faster than its fastest point, so a gap closes at most at s_a + s_b:
//! no unwatched pair reaches margin/2 before the next look unless its speed more than doubles
//! meanwhile (the ½). At the next look it is within margin, and watched.

use super::broad_phase::NearPair;
use super::{ContactGroup, Scratch};

/// How far beyond the margin the time bound looks, in margins.
const LOOK_AHEAD: f64 = 8.0;

impl ContactGroup {
    /// The watched pairs from the work slots, when those changed since the last decoding.
    pub(super) fn sync_watched(&self, work: &[f64], s: &mut Scratch) {
        if s.watched_work.as_slice() == work {
            return;
        }
        s.watched_work.copy_from_slice(work);
        s.watched.clear();
        for (slot, &code) in work.iter().enumerate() {
            if let Some((a, b)) = self.decode(code) {
                s.watched.push((a, b, slot as u32));
            }
        }
        s.watched.sort_unstable();
    }

    /// The watch slot of pair (a, b), if it is watched.
    pub(super) fn watched_slot(s: &Scratch, a: u32, b: u32) -> Option<usize> {
        let k = s.watched.binary_search_by(|w| (w.0, w.1).cmp(&(a, b)));
        k.ok().map(|k| s.watched[k].2 as usize)
    }

    /// Chooses the watched pairs again from the last evaluation's near pairs; writes them to
    /// `slots` (pair codes, −1 free). Returns whether any slot changed.
    pub(super) fn choose_watched(&self, slots: &mut [f64], s: &mut Scratch) -> bool {
        s.pick.clear();
        s.pick.extend_from_slice(&s.near);
        if s.pick.len() > slots.len() {
            s.pick
                .select_nth_unstable_by(slots.len(), |x, y| x.gap.total_cmp(&y.gap));
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
        // Give each newly picked pair a free slot.
        let mut free = 0;
        for p in &s.pick {
            let code = self.encode(p.a, p.b);
            if slots.contains(&code) {
                continue;
            }
            while slots[free] >= 0.0 {
                free += 1;
            }
            slots[free] = code;
            changed = true;
        }
        changed
    }

    /// The time (s) of the group's next look at time `t`, after the watched pairs were chosen
    /// (see the module documentation); infinite when nothing moves.
    pub(super) fn next_look(&self, t: f64, s: &mut Scratch) -> f64 {
        let half = 0.5 * self.margin;
        let reach = LOOK_AHEAD * self.margin;
        let (mut fastest, mut second) = (0.0f64, 0.0f64);
        for (k, m) in self.members.iter().enumerate() {
            if !m.bounded {
                continue;
            }
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
        if fastest == 0.0 {
            return f64::INFINITY;
        }
        let mut tau = (reach - half) / (fastest + second);
        let Scratch {
            sweep,
            lo,
            hi,
            ahead,
            ..
        } = s;
        sweep.pairs_within(lo, hi, reach, |a, b| self.allowed(a, b), ahead);
        self.plane_pairs_within(lo, hi, &s.motions, reach, ahead);
        for &NearPair { a, b, gap } in s.ahead.iter() {
            let closing = s.speed[a as usize] + s.speed[b as usize];
            if gap > half && closing > 0.0 && Self::watched_slot(s, a, b).is_none() {
                tau = tau.min((gap - half) / closing);
            }
        }
        // Never at t itself (a time event must move t).
        t + (0.5 * tau).max(1e-12 * t.abs().max(1.0))
    }
}
