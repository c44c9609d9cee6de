//! What the group tells the rest of blockdyn beyond its outputs: `check`'s advice and the
//! penalty rates ([`crate::block::Advice`]), and which bodies its contacts couple for the island
//! partition and the Jacobian's sparsity ([`crate::block::BodyCoupling`]).

use super::base::{ContactGroup, Scratch};
use crate::block::ContactRates;
use std::any::Any;
impl crate::block::Advice for ContactGroup {
    fn text(&self, total_mass: f64, gravity: f64) -> Option<String> {
        let names: Vec<&str> = self.members.iter().map(|m| m.name.as_str()).collect();
        if self.rigid.is_some() {
            return Some(format!(
                "{} members (member_wrench's columns, in order): {}; {} rigid pairs, every one evaluated by the mechanism's rigid solver at every evaluation (no broad phase for rigid pairs)",
                names.len(),
                names.join(", "),
                self.pairs.len()
            ));
        }
        let mut s = format!(
            "{} members (member_wrench's columns, in order): {}; {} pairs with a plane or grid evaluated at every step, the others through the broad phase (margin {:.3e} m, {} watch slots)",
            names.len(),
            names.join(", "),
            self.always.len(),
            self.margin,
            self.watch_slots
        );
        let mass = self.lightest_mass().unwrap_or(total_mass);
        if let Some(a) = super::super::advice_text::spatial_contact_advice(
            &self.normal,
            &self.friction,
            mass * gravity,
            mass,
        ) {
            s.push_str("\n    per pair, with the lightest member's weight: ");
            s.push_str(&a);
        }
        Some(s)
    }

    fn contact_rates(&self, total_mass: f64, gravity: f64) -> Option<ContactRates> {
        if self.rigid.is_some() {
            return None;
        }
        let mass = self.lightest_mass().unwrap_or(total_mass);
        super::super::rates::contact_rates(&self.normal, &self.friction, mass * gravity, mass)
    }

    fn stiffness(&self, scratch: &(dyn Any + Send)) -> Option<crate::block::StiffnessNote> {
        self.stiffness_note(scratch.downcast_ref::<Scratch>()?)
    }
}

impl crate::block::BodyCoupling for ContactGroup {
    /// Only with zero crossings and located onsets: without zero crossings there is no
    /// look-ahead to bound the coupling, and with stepped onsets a watched pair spanning two
    /// islands has no crossing function, so the islands could not see its contact begin (their
    /// cuts and merged re-runs read the watch slots' crossings).
    fn island_part(&self) -> crate::block::IslandPart {
        if self.zero_crossings && self.onsets == super::params::Onsets::Located {
            crate::block::IslandPart::ContactGroup
        } else {
            crate::block::IslandPart::Other
        }
    }

    /// The bodies of the pairs within the look-ahead's reach at the last `settle` (its `ahead`
    /// list: every pair not in it stays further than margin/2 apart until the next look, see
    /// `watch.rs`) and of the pairs with an unbounded member (always evaluated).
    fn island_pairs(&self, scratch: &(dyn Any + Send), pair: &mut dyn FnMut(usize, usize)) {
        let Some(s) = scratch.downcast_ref::<Scratch>() else {
            return;
        };
        let pairs = s.ahead.iter().map(|p| (p.a, p.b));
        for (a, b) in pairs.chain(self.always.iter().copied()) {
            let (a, b) = (self.members[a as usize].body, self.members[b as usize].body);
            if a != 0 && b != 0 && a != b {
                pair(a.min(b), a.max(b));
            }
        }
    }

    /// Each always-pair's separation depends on its members' bodies, each watch slot's on its
    /// pair's (`(0, 0)` for an empty slot, a constant 1); the approach function, over every
    /// unwatched pair, is not given.
    fn crossing_bodies(&self, work: &[f64], crossing: &mut dyn FnMut(usize, usize, usize)) {
        self.slot_bodies(work, crossing);
    }

    /// Its always-pairs on the island (both members on its bodies or fixed to the World), and as
    /// many watch slots as the island's bounded members have pairs with each other and with the
    /// broad-phased members fixed to the World, at most all slots.
    fn island_crossings(&self, island: &[bool]) -> usize {
        self.island_slots(island)
    }

    /// The bodies of the watched pairs (those within the margin at the last event, which the
    /// approach function and the next look guarantee are the only pairs that can touch before
    /// the next event) and of the always-evaluated pairs. Without zero crossings nothing is
    /// watched: false (every member may touch every other). With more near pairs than watch
    /// slots the overflow pairs are left out: the implicit methods' Jacobian then misses their
    /// coupling, which slows Newton's convergence but not what it converges to.
    fn coupled_bodies(&self, work: &[f64], pair: &mut dyn FnMut(usize, usize)) -> bool {
        if !self.zero_crossings {
            return false;
        }
        let body = |i: u32| self.members[i as usize].body;
        for &(a, b) in &self.always {
            pair(body(a), body(b));
        }
        for &code in &work[..work.len().min(self.watch_slots)] {
            if let Some((a, b)) = self.decode(code) {
                pair(body(a), body(b));
            }
        }
        true
    }
}

impl ContactGroup {
    /// The lightest member body's mass (kg): the load a single contact of the group carries at
    /// least, for `check`'s advice; `None` when no member has a mass.
    fn lightest_mass(&self) -> Option<f64> {
        let lightest = self
            .members
            .iter()
            .map(|m| m.body_mass)
            .filter(|&m| m > 0.0)
            .fold(f64::INFINITY, f64::min);
        lightest.is_finite().then_some(lightest)
    }
}
