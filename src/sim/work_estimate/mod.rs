//! `blockdyn check`'s estimate of a run's work: the steps per simulated second the solver will
//! take, and whether `method = "auto"` goes implicit while a contact is closed.
//!
//! # The model
//!
//! An error-controlled method whose error estimate is of order q takes steps h with
//! C·(h·ω)^q ≈ tol on a motion of rate ω (rad/s), so its pace is
//!
//! 1/h = c·ω·tol^(−1/q) steps per simulated second,
//!
//! with q = 5 for dopri5, 3 for bs23, trbdf2 and rkc, 4 for esdirk43, and c fitted once on the
//! contact-free examples (pendulums, linkages, a spring–mass, a tumbling brick): c = 0.25 for the
//! explicit methods, 0.15 for the implicit ones, 0.9 for rkc ([`ACCURACY`]). tol is `rel_tol`.
//! rkc's stages carry a closed contact's stiffness as the implicit methods' steps do: its pace
//! there is the motion's, and the stiffness costs evaluations per step (1 + √(1.54·h·ρ)), which
//! the estimate, a count of steps, does not count.
//!
//! The rates ω are the |λ| of the eigenvalues of the Jacobian J = ∂f/∂x at the initial state,
//! each weighed by how strongly the initial state (and the forces that time events apply later)
//! excite its mode (`modes.rs`, [`Mode`]): a mode below the tolerance is not counted, one excited
//! less than the state's scale starts slower (the error ∝ (h·ω)^q·amplitude), and a decaying mode
//! costs a transient, its pace falling as e^{−σt/q} ([`decaying_mode_steps`]). The modes of a contact
//! closed at t = 0 are left out (|λ| above 0.3× its natural frequency). A contact open at t = 0
//! will hit: every mode counts as excited, and the growing and lightly damped ones (−Re λ <
//! 0.7·|λ|) as re-excited at each impact (not decaying). At a stationary point the Jacobian says
//! nothing about the motion to come (a pendulum released horizontally has J's gravity term
//! cos θ = 0), so when no contact is closed and an excited mode sits at λ ≈ 0, the rate of the
//! initial acceleration, max_i sqrt(|ẍ_i| / max(|x_i|, 1)) with ẍ = J·f, counts too.
//!
//! A contact adds its stiffest rate ρ (the normal mode's |λ|max or its friction's sliding rate
//! while it sticks, [`ContactRates`]). An explicit method needs ρ·h below its stability reach
//! (about 3 for dopri5) while the contact is closed: a pace of ρ/3. `auto` runs dopri5 and
//! switches to its implicit method when the stability step is shorter than the accuracy step
//! (Hairer's test): so it goes implicit in contact when ρ/3 exceeds dopri5's motion pace, and
//! the pace there is the implicit method's motion pace (the motion's *sustained* pace, of the
//! modes that do not die out, is what these compare). A step never exceeds `max_step`
//! (by default a fiftieth of the run).
//!
//! A contact open at t = 0 rings at its natural frequency ω_n after each impact
//! ([`Ring::duration`]); a contact closed at t = 0 that travels over a body's surface (rolling or
//! spinning faster than [`TRAVEL_SPEED`], from
//! [`StiffnessNote::surface_speed`](crate::block::StiffnessNote::surface_speed)) rings for the
//! whole run: as the points of a face, a rim or a point cloud come and go, each change of the
//! support excites its normal mode again. A point or a face that slides without turning keeps
//! its support and does not ring. A travelling contact costs the method's accuracy pace at ω_n
//! for the whole run; an impact's ring starts at that pace and slows as it decays
//! ([`Ring::steps`]).
//!
//! # The probe
//!
//! The linearisation sees the initial state only. `check` then runs the model itself for a
//! bounded budget ([`Probe`]: at most [`PROBE_FRACTION`] of the stop time and at most
//! [`PROBE_EVALUATIONS`] evaluations, under the model's own method and tolerances) and counts
//! the rest of the run at the larger of the pace the probe sustained and this static
//! estimate's ([`with_probe`]).
//!
//! # What it costs
//!
//! n + 2 evaluations of f for J (n states), one per time event looked at (at most 32), an
//! O(n³) Schur decomposition (none past 400 states), and the probe's at most
//! [`PROBE_EVALUATIONS`] evaluations (with the solver's own work on them).
//!
//! # What is not counted
//!
//! Transients that neither the initial state nor the probe's start of the run show: a body that
//! starts to roll or slide after the probe, rocking over edges, a spin that grows (Euler's
//! disk), the kinks of points engaging one by one without a located event, and located events
//! after the probe (rigid contact; a ContactGroup whose members are all held up at t = 0 and
//! topple later). `check` says so. A group partly in contact at t = 0 counts as open: its free
//! members' impacts are counted (below), and its ring term is counted too, which may count a
//! bounce's time in contact twice (an over-estimate, left as is).
//!
//! # A group's impacts
//!
//! A ContactGroup open at t = 0 whose members move: each member falls and strikes with a
//! bounce sequence of its own, each impact two located crossings and half a period in contact
//! (`impacts.rs`, [`member_impacts`]).

use super::engine::Engine;
use super::recorder::Recorder;
use crate::block::ContactRates;
use crate::diagram::Diagram;
use crate::solver::{Method, SolverOptions};
pub use impacts::{member_impacts, ImpactWork, LOCATED_STEPS_PER_IMPACT};
use modes::Linearisation;
pub use modes::{decaying_mode_steps, Mode, MAX_EIGEN_STATES};
pub use probe::{Probe, ProbeBudget, ProbeEnd, PROBE_EVALUATIONS, PROBE_FRACTION, PROBE_WINDOWS};
pub use ring::{ContactAtStart, Ring, TRAVEL_SPEED};

mod impacts;
mod modes;
mod probe;
mod ring;

/// (q, c) of the accuracy model pace = c·ω·tol^(−1/q) for each error-controlled method. RKC, a
/// 2nd-order method like trbdf2, has q = 3 as trbdf2 has (its error estimate is O(h³)); its c is
/// [`RKC_PACE`].
///
/// ros34pw2's estimate is O(h³) (q = 3, as trbdf2's); its c is trbdf2's, not fitted.
pub const ACCURACY: [(Method, f64, f64); 6] = [
    (Method::Dopri5, 5.0, 0.25),
    (Method::Bs23, 3.0, 0.25),
    (Method::Trbdf2, 3.0, 0.15),
    (Method::Esdirk43, 4.0, 0.15),
    (Method::Rkc, 3.0, RKC_PACE),
    (Method::Ros34pw2, 3.0, 0.15),
];

/// c of RKC's accuracy pace (see [`ACCURACY`]), measured as the other entries were: steps per
/// simulated second over ω·rel_tol^(−1/3) of runs under rkc at each model's own tolerances, on
/// pendulum 0.91, double_pendulum 1.66, mass_spring_damper 0.40, four_bar 1.89, tumbling_brick
/// 0.84, spring_pendulum 0.52, slider_crank 1.03: their geometric mean. The pendulum at
/// rel_tol 1e-4, 1e-6, 1e-8 takes 568, 2,358, 10,782 steps, 4.15× and 4.57× per 100× (100^(1/3)
/// = 4.64; 100^(1/2) = 10 would be q = 2).
pub const RKC_PACE: f64 = 0.9;

/// Whether `method`'s steps carry a closed contact's stiffness (the implicit methods; RKC,
/// whose stages grow with h·ρ): its pace while the contact is closed is the motion's, not
/// ρ/reach. RKC pays for the stiffness in evaluations instead, 1 + √(1.54·h·ρ) per step, which
/// the estimate (of steps) does not count.
fn steps_over_stiffness(method: Method) -> bool {
    matches!(
        method,
        Method::Trbdf2 | Method::Esdirk43 | Method::Rkc | Method::Ros34pw2
    )
}

/// Eigenvalues with −Re λ ≥ this fraction of |λ| are damped transients (ζ ≥ 0.7).
const DAMPED_FRACTION: f64 = 0.7;

/// A closed contact's modes are those above this fraction of its natural frequency.
const CONTACT_MODE_FRACTION: f64 = 0.3;

/// The explicit steps `auto` takes at the stability limit before it switches to its implicit
/// method (Hairer's test wants 15 stiff steps in a row, and the steps rejected among them).
const SWITCH_STEPS: f64 = 2.0 * crate::solver::AUTO_STIFF_STEPS as f64;

/// The implicit steps `auto` takes after a contact opens before it switches back to dopri5.
const BACK_STEPS: f64 = crate::solver::AUTO_BACK_STEPS as f64;

/// What one contact adds to the work.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactWork {
    /// The contact block's index in the diagram.
    pub block: usize,
    /// The contact is closed (carries load) at the initial state.
    pub closed_at_start: bool,
    /// Closed at the start while it travels over a body's surface (rolling, spinning): its
    /// normal mode rings for the whole run ([`ContactWork::ring`]).
    pub travels: bool,
    /// Its linearised modes under the weight it carries.
    pub rates: ContactRates,
    /// The pace an explicit method's stability needs while it is closed, ρ/reach (steps/s).
    pub explicit_pace: f64,
    /// Under `auto`: the run goes implicit while this contact is closed.
    pub goes_implicit: bool,
    /// The estimated pace while it is closed (steps/s).
    pub pace: f64,
    /// For a contact open at t = 0: the ringing after its impacts; for one that travels at
    /// t = 0: the ringing while it travels (the whole run).
    pub ring: Option<RingWork>,
    /// For a ContactGroup open at t = 0: its moving members' impacts ([`member_impacts`]).
    pub impacts: Option<ImpactWork>,
}

/// The steps a contact's ringing after impacts costs.
#[derive(Debug, Clone, PartialEq)]
pub struct RingWork {
    /// The pace while it rings: the method's accuracy pace at the natural frequency (steps/s).
    pub pace: f64,
    /// How long it rings in all (s): see [`Ring::duration`], or the whole run for a contact
    /// that travels.
    pub duration: f64,
    /// The steps it costs: [`Ring::steps`], or pace × the run for a contact that travels (at
    /// most pace × the run).
    pub steps: f64,
}

/// The estimate (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkEstimate {
    /// The method the model names (`Auto` included).
    pub method: Method,
    /// The implicit method `auto` switches to.
    pub stiff_method: Method,
    /// ω: the motion's fastest lightly damped rate (rad/s).
    pub motion_rate: f64,
    /// The pace of smooth motion under the method (dopri5's for `auto`) (steps/s).
    pub motion_pace: f64,
    /// 1/max_step (steps/s).
    pub floor_pace: f64,
    /// One entry per contact block with linearised modes.
    pub contacts: Vec<ContactWork>,
    /// The estimated pace of the run (steps/s): `steps` over the run.
    pub pace: f64,
    /// The static estimate's steps for the whole run, N_s: the largest of the floor's, the
    /// motion's and the contacts' steps, plus the ringing, switching and group impacts' steps.
    pub static_steps: f64,
    /// What the bounded probe measured at the start of the run (see [`Probe`]); `None` when it
    /// could not run (or the estimate was made from rates alone).
    pub probe: Option<Probe>,
    /// The estimated number of steps of the run: with a probe, its steps S_p up to t_p plus the
    /// rest of the run at the larger of its sustained pace and the static estimate's average,
    /// S_p + max(p_s, N_s/T)·(T − t_p) ([`with_probe`]); without one, N_s.
    pub steps: f64,
}

impl Mode {
    /// A motion at `rate` (1/s) that does not decay and is fully excited.
    pub fn steady(rate: f64) -> Mode {
        Mode {
            re: 0.0,
            modulus: rate,
            excitation: f64::INFINITY,
        }
    }
}

impl WorkEstimate {
    /// The estimate for a built diagram under its own solver settings; `None` when the model has
    /// nothing to integrate or its recording cannot be set up.
    pub fn of(d: &Diagram) -> Option<WorkEstimate> {
        let mut options = super::solver_options(d);
        let duration = d.run.stop_time;
        if d.num_states == 0 || duration.is_nan() || duration <= 0.0 {
            return None;
        }
        let mut engine = Engine::new(d, Recorder::new(d));
        let x0 = engine.initialize(0.0);
        let mut linear = Linearisation::at(&mut engine, 0.0, &x0);
        let contacts = contact_rates(d, &mut engine);
        let tols = (options.abs_tol, options.rel_tol);
        linear.excite(&mut engine, &x0, duration, tols);
        let cut = contacts
            .iter()
            .filter(|c| c.closed && c.rates.natural_frequency > 0.0)
            .map(|c| CONTACT_MODE_FRACTION * c.rates.natural_frequency)
            .fold(f64::INFINITY, f64::min);
        let motion = motion_modes(&linear, cut, contacts.iter().any(|c| !c.closed));
        // The probe builds its own engine: this one (its articulated-body workspace and buffers,
        // about 63 MB at 20,000 joints: tests/chain_build_memory.rs) and the linearisation are
        // freed before it, so that the two are never alive together. Nothing below reads them.
        drop(linear);
        drop(engine);
        let probe = probe_runs(d, &options)
            .then(|| Probe::run(d, &options, duration))
            .flatten();
        if d.num_states > crate::solver::MAX_IMPLICIT_STATES && options.method == Method::Auto {
            // auto stays explicit on a model this large (no dense Jacobian).
            options.method = Method::Dopri5;
        }
        let mut estimate = Self::from_rates(&options, duration, &motion, contacts);
        if let Some(probe) = probe {
            estimate.steps = with_probe(estimate.static_steps, &probe, duration);
            estimate.pace = estimate.steps / duration;
            estimate.probe = Some(probe);
        }
        Some(estimate)
    }

    /// The estimate from the motion's modes (each decaying from its initial pace, see
    /// [`decaying_mode_steps`]) and the contacts' modes, for a run of `duration` (s) under
    /// `options`.
    pub fn from_rates(
        options: &SolverOptions,
        duration: f64,
        motion: &[Mode],
        contacts: Vec<ContactAtStart>,
    ) -> WorkEstimate {
        let tol = options.rel_tol;
        let floor_pace = if options.max_step > 0.0 {
            1.0 / options.max_step
        } else {
            50.0 / duration
        };
        let explicit = match options.method {
            Method::Auto => Method::Dopri5,
            m => m,
        };
        let fixed = (options.method == Method::Rk4 && options.fixed_step > 0.0)
            .then(|| 1.0 / options.fixed_step);
        // No step is longer than max_step: the accuracy paces are floored by it.
        let pace_of = |method: Method, rate: f64| match fixed {
            Some(pace) => pace,
            None => accuracy_pace(method, rate, tol).max(floor_pace),
        };
        let (motion_rate, motion_pace, motion_steps) =
            motion_work(motion, (explicit, tol), fixed, floor_pace, duration);
        let stiff_method = options.stiff_method();
        let ringing_method = match options.method {
            m if steps_over_stiffness(m) => m,
            _ => explicit,
        };
        let contacts: Vec<ContactWork> = contacts
            .into_iter()
            .map(|start| {
                let ContactAtStart {
                    block,
                    closed: closed_at_start,
                    travels,
                    rates,
                    ..
                } = start;
                let travels = closed_at_start && travels;
                let explicit_pace = rates.fastest() / explicit.stability_reach();
                let goes_implicit = options.method == Method::Auto && explicit_pace > motion_pace;
                let pace = match options.method {
                    m if steps_over_stiffness(m) => motion_pace,
                    _ if goes_implicit => pace_of(stiff_method, motion_rate),
                    _ => motion_pace.max(fixed.unwrap_or(explicit_pace)),
                };
                let ring_pace = pace_of(ringing_method, rates.natural_frequency);
                let ring = match fixed {
                    Some(_) => None,
                    None => Some(order(ringing_method)),
                };
                let ring = ring_work(&start, ring_pace, ring, (tol, duration));
                let impacts = member_impacts(&start, ring_pace, tol);
                ContactWork {
                    block,
                    closed_at_start,
                    travels,
                    rates,
                    explicit_pace,
                    goes_implicit,
                    pace,
                    ring,
                    impacts,
                }
            })
            .collect();
        let contact_steps = contacts
            .iter()
            .map(|c| c.pace * duration)
            .fold(0.0, f64::max);
        let ringing: f64 = contacts
            .iter()
            .filter_map(|c| c.ring.as_ref())
            .map(|r| r.steps)
            .sum();
        let switching = switching_steps(&contacts, tol);
        let impacts: f64 = contacts
            .iter()
            .filter_map(|c| c.impacts.as_ref())
            .map(|i| i.steps)
            .sum();
        let steps = motion_steps.max(contact_steps) + ringing + switching + impacts;
        let pace = steps / duration;
        WorkEstimate {
            method: options.method,
            stiff_method,
            motion_rate,
            motion_pace,
            floor_pace,
            contacts,
            pace,
            static_steps: steps,
            probe: None,
            steps,
        }
    }
}

/// A model on more states than this, under a method that may form Jacobians (trbdf2, esdirk43, or
/// auto, which forms one as soon as it sees stiffness), is not probed: one Jacobian and LU of a
/// dense model cost O(n³) (a few seconds at the implicit methods' limit of 4,000 states), more
/// than the estimate is worth before a run, and the probe's budget is checked between steps only.
pub const PROBE_IMPLICIT_STATES: usize = 1000;

/// Whether `check` runs the probe on `d` under `options` (see [`PROBE_IMPLICIT_STATES`]).
pub fn probe_runs(d: &Diagram, options: &SolverOptions) -> bool {
    !(options.method.may_use_jacobian() && d.num_states > PROBE_IMPLICIT_STATES)
}

/// The run's steps from the static estimate's `static_steps` N_s and the `probe` (see [`Probe`]):
/// S_p + max(p_s, N_s/T)·(T − t_p) for a run of T = `duration` (s), p_s the probe's
/// [`Probe::sustained_pace`]; N_s when the probe reached no time.
pub fn with_probe(static_steps: f64, probe: &Probe, duration: f64) -> f64 {
    let reached = probe.reached.min(duration);
    if reached <= 0.0 {
        return static_steps;
    }
    let rest = duration - reached;
    probe.steps as f64 + probe.sustained_pace().max(static_steps / duration) * rest
}

/// The motion's rate (the fastest lightly damped mode's |λ|), its sustained pace (of the modes
/// that do not die out) and its steps over the run (the costliest mode's, [`decaying_mode_steps`])
/// under `explicit` at `tol`; `fixed` is rk4's fixed pace.
fn motion_work(
    motion: &[Mode],
    (explicit, tol): (Method, f64),
    fixed: Option<f64>,
    floor_pace: f64,
    duration: f64,
) -> (f64, f64, f64) {
    // A mode excited less than the state's own scale (A < 1/rel_tol) starts slower: the
    // error ∝ (h·ω)^q·amplitude.
    let mode_pace = |mode: &Mode| match fixed {
        Some(pace) => pace,
        None => {
            let weak = (mode.excitation * tol).min(1.0);
            (accuracy_pace(explicit, mode.modulus, tol) * weak.powf(1.0 / order(explicit)))
                .max(floor_pace)
        }
    };
    let motion_rate = motion
        .iter()
        .filter(|m| lightly_damped(m))
        .map(|m| m.modulus)
        .fold(0.0, f64::max);
    // The sustained pace: of the modes that do not die out as transients.
    let motion_pace = motion
        .iter()
        .filter(|m| lightly_damped(m))
        .map(mode_pace)
        .fold(floor_pace, f64::max);
    let motion_steps = motion
        .iter()
        .map(|m| match fixed {
            Some(pace) => pace * duration,
            None => decaying_mode_steps(
                mode_pace(m),
                -m.re,
                m.excitation,
                order(explicit),
                floor_pace,
                duration,
            ),
        })
        .fold(floor_pace * duration, f64::max);
    (motion_rate, motion_pace, motion_steps)
}

/// The ringing of a contact (see the module documentation): for one that travels at t = 0, at
/// `pace` (steps/s) for the whole run; for one open at t = 0, its impacts' rings
/// ([`Ring::steps`] for a method of order `order`, at the full pace for the rings' duration under
/// a fixed step, `order` = `None`), at most `pace` × the run.
fn ring_work(
    start: &ContactAtStart,
    pace: f64,
    order: Option<f64>,
    (tol, duration): (f64, f64),
) -> Option<RingWork> {
    let rates = &start.rates;
    if start.closed && start.travels && rates.natural_frequency > 0.0 {
        return Some(RingWork {
            pace,
            duration,
            steps: pace * duration,
        });
    }
    (!start.closed)
        .then(|| Ring::of(rates, tol))
        .flatten()
        .map(|ring| RingWork {
            pace,
            duration: ring.duration(),
            steps: match order {
                Some(q) => ring.steps(pace, q),
                None => pace * ring.duration(),
            }
            .min(pace * duration),
        })
}

/// The steps `auto` spends detecting stiffness and switching (see the module documentation).
fn switching_steps(contacts: &[ContactWork], tol: f64) -> f64 {
    // auto goes implicit at each closing of such a contact: once for one closed at t = 0;
    // for one open at t = 0, 1/(1 − e) times over its bounce sequence, and back to dopri5
    // after each bounce.
    contacts
        .iter()
        .filter(|c| c.goes_implicit)
        .map(|c| match Ring::of(&c.rates, tol) {
            Some(ring) if !c.closed_at_start => {
                (SWITCH_STEPS + BACK_STEPS) / (1.0 - ring.restitution())
            }
            _ => SWITCH_STEPS,
        })
        .sum()
}

/// The order q of `method`'s error estimate in the accuracy model (see [`ACCURACY`]).
fn order(method: Method) -> f64 {
    ACCURACY
        .iter()
        .find(|(m, _, _)| *m == method)
        .map_or(5.0, |&(_, q, _)| q)
}

/// The modes the motion's pace follows (see the module documentation): those below `cut` that
/// the initial state or the inputs excite, each decaying at its own rate, except that `impacts`
/// to come (a contact open at t = 0) excite every mode fully and re-excite the lightly damped
/// ones at each impact (they are counted as not decaying); and the rate of the initial
/// acceleration when J has an excited mode at λ ≈ 0 (a stationary point, where J does not show
/// the motion to come).
fn motion_modes(linear: &Linearisation, cut: f64, impacts: bool) -> Vec<Mode> {
    let mut motion: Vec<Mode> = linear
        .modes_below(cut)
        .filter(|m| impacts || m.excitation >= 1.0)
        .map(|m| match (impacts, lightly_damped(&m)) {
            (false, _) => m,
            (true, true) => Mode::steady(m.modulus),
            (true, false) => Mode {
                excitation: f64::INFINITY,
                ..m
            },
        })
        .collect();
    let acceleration = linear.acceleration_rate;
    let stationary = motion
        .iter()
        .any(|m| m.excitation >= 1.0 && m.modulus < STATIONARY_FRACTION * acceleration);
    if cut.is_infinite() && acceleration > 0.0 && stationary {
        motion.push(Mode::steady(acceleration));
    }
    motion
}

/// A mode with |λ| below this fraction of the initial acceleration's rate counts as λ ≈ 0.
const STATIONARY_FRACTION: f64 = 1e-3;

/// Growing, or oscillating with ζ < [`DAMPED_FRACTION`].
fn lightly_damped(m: &Mode) -> bool {
    m.re > 0.0 || -m.re < DAMPED_FRACTION * m.modulus
}

/// c·ω·tol^(−1/q) (steps/s) for an error-controlled method (see [`ACCURACY`]).
pub fn accuracy_pace(method: Method, rate: f64, tol: f64) -> f64 {
    let (q, c) = ACCURACY
        .iter()
        .find(|(m, _, _)| *m == method)
        .map_or((5.0, 0.25), |&(_, q, c)| (q, c));
    c * rate * tol.max(f64::EPSILON).powf(-1.0 / q)
}

/// The contact blocks' modes, and whether each is closed and travels at the state the engine
/// last evaluated.
fn contact_rates(d: &Diagram, engine: &mut Engine<'_>) -> Vec<ContactAtStart> {
    let blocks = d.blocks.iter().map(|b| b.block.as_ref());
    let (mass, gravity) = crate::diagram::physical::mass_and_gravity(blocks);
    d.blocks
        .iter()
        .enumerate()
        .filter_map(|(b, blk)| {
            let rates = blk.block.advice()?.contact_rates(mass, gravity)?;
            let note = engine.block_stiffness(b);
            let free_members = note.as_ref().map_or(0, |n| n.free_members);
            // Closed: a point in contact (a rate); a group with members that will fall counts
            // as open, its impacts to come.
            Some(ContactAtStart {
                block: b,
                closed: note.as_ref().is_some_and(|n| n.rate > 0.0) && free_members == 0,
                travels: note
                    .as_ref()
                    .is_some_and(|n| n.surface_speed > TRAVEL_SPEED),
                rates,
                free_members,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
