//! The impacts of a ContactGroup's members on one another and on the group's fixed members,
//! which no contact's mode at t = 0 shows (issue 26, part 3: models/sphere_pile.toml).
//!
//! A group whose moving members its contacts do not hold up at t = 0 (all of them when no pair
//! is in contact; [`ContactAtStart::free_members`]) will see each such member fall and strike,
//! and each strike start a bounce sequence of its own: with the group's normal
//! mode x'' + 2ζωx' + ω²x = 0 (ω rad/s, ζ from [`ContactRates`]), one impact returns
//! e = exp(−πζ/sqrt(1 − ζ²)) of the speed it came with, so a sequence has Σ eᵏ = 1/(1 − e)
//! impacts ([`Ring::restitution`]). The group's impacts are then
//!
//! N_i = M·1/(1 − e), M the members that fall,
//!
//! each at its own instant (members strike at different times: one step serves all the members
//! that ring at once, but no two impacts share their located crossings). Each impact costs
//!
//! - its two located crossings (the onset and the separation of the pair's watch slot), each of
//!   which ends the step it falls in: 2 steps ([`LOCATED_STEPS_PER_IMPACT`]);
//! - its time in contact, half a damped period π/ω_d (ω_d = ω·sqrt(1 − ζ²)), at the method's
//!   accuracy pace at ω (the ring's pace, [`super::RingWork::pace`]): pace·π/ω_d steps.
//!
//! So N = N_i·(2 + pace·π/ω_d). For the 64 spheres at rel_tol 1e-4 (ζ = 0.0155, ω = 316 rad/s,
//! dopri5's pace at ω 499 steps/s): 1,347 impacts × 7.0 steps. Not counted: impacts that the run
//! ends before (a fall longer than the run), members that come to rest in fewer bounces because
//! friction or the pile's other members take their energy, and the impacts of members that the
//! contacts hold up at t = 0 and that fall later (a tower that topples).

use super::ring::{ContactAtStart, Ring};

/// The steps each located crossing of an impact ends (the onset, the separation).
pub const LOCATED_STEPS_PER_IMPACT: f64 = 2.0;

/// What a group's members' impacts cost (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct ImpactWork {
    /// The members that fall, M.
    pub members: usize,
    /// The impacts counted, M/(1 − e).
    pub impacts: f64,
    /// The steps each costs, 2 + pace·π/ω_d.
    pub steps_per_impact: f64,
    /// impacts × steps_per_impact.
    pub steps: f64,
}

/// The impacts of the group `start` under a method whose accuracy pace at the group's natural
/// frequency is `ring_pace` (steps/s), its rings decaying to `tol`; `None` for a block of one
/// pair, a group that holds up all its members at t = 0, or one whose normal mode does not ring
/// (ζ ≥ 1 or ω = 0).
pub fn member_impacts(start: &ContactAtStart, ring_pace: f64, tol: f64) -> Option<ImpactWork> {
    let members = start.free_members;
    if start.closed || members == 0 {
        return None;
    }
    let ring = Ring::of(&start.rates, tol)?;
    let impacts = members as f64 / (1.0 - ring.restitution());
    let damped = ring.frequency * (1.0 - ring.damping_ratio * ring.damping_ratio).sqrt();
    let steps_per_impact = LOCATED_STEPS_PER_IMPACT + ring_pace * std::f64::consts::PI / damped;
    Some(ImpactWork {
        members,
        impacts,
        steps_per_impact,
        steps: impacts * steps_per_impact,
    })
}
