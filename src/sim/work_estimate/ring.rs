//! A contact as the initial state finds it and an underdamped contact's ringing after impacts:
//! what both the estimate (`mod.rs`) and a group's impacts (`impacts.rs`) read, below both.

use crate::block::ContactRates;

/// A contact block as the initial state finds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactAtStart {
    /// The contact block's index in the diagram.
    pub block: usize,
    /// It carries load at t = 0.
    pub closed: bool,
    /// It travels over a body's surface at t = 0 (faster than [`TRAVEL_SPEED`]).
    pub travels: bool,
    /// Its linearised modes under the weight it carries.
    pub rates: ContactRates,
    /// For a ContactGroup: its moving members that its contacts do not hold up at t = 0 (all of
    /// them when no pair is in contact), each of which falls and strikes ([`member_impacts`](super::member_impacts));
    /// 0 for a block of one pair.
    pub free_members: usize,
}

/// A loaded contact that travels faster than this (m/s) at t = 0 rings while it travels: far
/// above round-off, far below any motion a user starts a model with.
pub const TRAVEL_SPEED: f64 = 1e-6;

/// An underdamped contact's ringing after impacts: the normal mode x'' + 2ζωx' + ω²x = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ring {
    /// ω (rad/s).
    pub frequency: f64,
    /// ζ ∈ (0, 1).
    pub damping_ratio: f64,
    /// The tolerance the ring decays to, relative to its amplitude.
    pub tol: f64,
}

impl Ring {
    /// The ring of an underdamped contact (0 < ζ < 1, ω > 0); `None` otherwise.
    pub fn of(rates: &ContactRates, tol: f64) -> Option<Ring> {
        let (frequency, damping_ratio) = (rates.natural_frequency, rates.damping_ratio);
        (frequency > 0.0 && damping_ratio > 0.0 && damping_ratio < 1.0).then_some(Ring {
            frequency,
            damping_ratio,
            tol: tol.clamp(f64::EPSILON, 0.5),
        })
    }

    /// The coefficient of restitution of one impact, e = exp(−πζ/sqrt(1 − ζ²)): the rebound
    /// speed over the impact speed for the linear spring–damper (half a period in contact).
    pub fn restitution(&self) -> f64 {
        let z = self.damping_ratio;
        (-std::f64::consts::PI * z / (1.0 - z * z).sqrt()).exp()
    }

    /// The time one impact's ring takes to decay to `tol` of its amplitude, ln(1/tol)/(ζω) (s),
    /// times the number of impacts of a bounce sequence, Σ eᵏ = 1/(1 − e) (each rebound rings
    /// again, and the rings of the weaker bounces are counted as long as the first one).
    pub fn duration(&self) -> f64 {
        let one = (1.0 / self.tol).ln() / (self.damping_ratio * self.frequency);
        one / (1.0 - self.restitution())
    }

    /// The steps the rings cost for a method of order q that starts each at `pace` (steps/s):
    /// its pace falls with the ring's amplitude as pace·e^{−ζωt/q} (the error ∝ (h·ω)^q·amplitude)
    /// until the amplitude is `tol` of the first, so one ring costs
    /// ∫ pace·e^{−ζωt/q} dt = pace·(q/(ζω))·(1 − tol^{1/q}), times 1/(1 − e) impacts.
    pub fn steps(&self, pace: f64, order: f64) -> f64 {
        let one = pace * order / (self.damping_ratio * self.frequency)
            * (1.0 - self.tol.powf(1.0 / order));
        one / (1.0 - self.restitution())
    }
}
