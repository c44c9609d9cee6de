//! Rigid contact (seed 002, myPhysicsLab's ContactSim on Baraff's method): bodies rest on each
//! other exactly, with contact forces from a complementarity problem solved inside the
//! mechanism's forward dynamics, and collisions resolved as impulses at located events.
//!
//! # The contact points of a pair
//!
//! At every evaluation each pair's contact manifold is computed *speculatively*: with the
//! follower shifted towards the base by the pair's margin `m` (m) along the contact normal, so
//! that points still up to `m` apart appear with their gaps (`gap = m·(n·n′) − depth′`, m,
//! negative when penetrating). At most [`MAX_POINTS_PER_PAIR`] points are kept (the manifold's
//! `reduce`: corners first). Each point has a normal `n` (World, from base into follower), a
//! normal velocity `v_n = n·(v_F(p) − v_B(p))` (m/s, negative when approaching) and a tangential
//! velocity. A point is
//!
//! - **touching** when `gap ≤` [`CONTACT_DISTANCE`];
//! - **resting** when touching and `v_n ≤` [`SEPARATING_VELOCITY`]: it is a row of the
//!   complementarity problem (`a_n ≥ 0 ⊥ f_n ≥ 0`, with Coulomb friction by a polyhedral cone);
//! - **approaching** when `v_n < −SEPARATING_VELOCITY`, touching or not.
//!
//! A touching point moving apart faster than `SEPARATING_VELOCITY` carries no force (it has just
//! bounced, or lifted off): it leaves the problem, and since the complementarity problem gave it
//! no force before it could separate, the accelerations stay continuous.
//!
//! # Impacts: one zero crossing per pair
//!
//! `g = min(m, min over approaching points of gap)`, falling. It is continuous
//! between events (an approaching point enters at `gap = m`, which the cap `m` equals) and
//! crosses zero only when an approaching point arrives. At the located event the impulse problem
//! is solved over the touching points (`impact.rs`): serially by default (the pair approaching
//! fastest first, all its points at once, until no touching point approaches: Newton's cradle
//! passes the velocity along the row) or simultaneously. A point arriving slower than the pair's
//! `rest_velocity` gets restitution 0 and rests (the Zeno guard); faster ones get `−e·v_n`
//! (Newton's law; for pairs with friction reached in a compression and a restitution phase, each
//! with the friction cone).
//!
//! # Drift
//!
//! Resting rows hold the normal *acceleration* at zero, so the gaps drift by the integration
//! error. After every accepted step (`projection.rs`) penetrations are pushed out by a
//! position-level Gauss–Newton step on the touching rows (to [`POSITION_TOLERANCE`]) and
//! approach velocities of resting points are removed by a plastic impulse.
//!
//! # What is approximated
//!
//! - The rows hold the gap's acceleration for spheres (followed by their centres) and for faces
//!   and planes (the normal turning with the body whose face is the manifold's reference:
//!   Baraff's `2 ṅ·v_rel`, `ṅ = ω × n`), and a sphere's tangent rows the slip's acceleration
//!   (its material point's centripetal term removed: `Candidate::tangent_bias` in
//!   `workspace.rs`); the curvature of other curved shapes is left to the drift projection.
//! - Impacts of pairs with friction take their friction in two phases (compression, restitution),
//!   capped so that kinetic energy never grows (`impact.rs`, `constraints/impulse_friction.rs`);
//!   each phase's friction comes from its end-of-phase slip, not integrated along the impulse.
//! - Mode changes (lift-off, slip onset, sliding ↔ sticking at [`SLIDING_VELOCITY`]) are located
//!   events (`modes.rs`); the resting set is still re-classified at every evaluation, so a point
//!   entering or leaving the resting band otherwise (drift, a trial step's error) changes the
//!   right-hand side within a step.

pub(crate) mod broad;
pub(crate) mod candidates;
pub(crate) mod closure;
pub(crate) mod impact;
pub(crate) mod mode_indicators;
pub(crate) mod modes;
pub(crate) mod motion;
pub(crate) mod plastic;
pub(crate) mod problem;
pub(crate) mod projection;
pub(crate) mod refine;
pub(crate) mod resting;
pub(crate) mod settle;
pub(crate) mod workspace;

use crate::geometry::Shape;
use crate::multibody::mechanism::CutJoint;
use nalgebra::{Isometry3, Vector3};

pub(crate) use workspace::RigidWorkspace;

/// A point whose gap is at most this is touching (m).
pub const CONTACT_DISTANCE: f64 = 1e-7;
/// A touching point moving apart faster than this is not resting (m/s).
pub const SEPARATING_VELOCITY: f64 = 1e-6;
/// A resting point sliding faster than this uses dynamic friction with the sliding direction
/// (m/s); slower, static friction (which may start it sliding).
pub const SLIDING_VELOCITY: f64 = 1e-6;
/// Penetration left after the drift projection (m).
pub const POSITION_TOLERANCE: f64 = 1e-10;
/// The most contact points kept per pair (a face: its four extreme corners).
pub const MAX_POINTS_PER_PAIR: usize = 4;
/// The largest speculative margin (m); smaller bodies get 5 % of their smallest width.
pub const MAX_MARGIN: f64 = 1e-3;

/// The most points of a point cloud in rigid contact: every point is a candidate row (three with
/// friction), and the complementarity problems are dense in them.
pub const MAX_CLOUD_POINTS: usize = 64;

/// Offsets in a constraint's hidden output (the solved constraint, sent to its block): a header
/// of pair totals, then one slot of [`SLOT_LEN`](output::SLOT_LEN) values per possible point
/// ([`RigidConstraint::max_rows`] of them: a manifold's points in its order, a point cloud's in
/// the cloud's order, zeros when unused).
pub mod output {
    /// Header: `contact` (1 while any point rests), `separation` (m), total `normal_force` (N),
    /// magnitude of the total `friction_force` (N), total `impulse` of the last impact (N·s),
    /// `friction_power` (W).
    pub const CONTACT: usize = 0;
    /// Header: the smallest separation, m.
    pub const SEPARATION: usize = 1;
    /// Header: the total normal force, N.
    pub const NORMAL_FORCE: usize = 2;
    /// Header: the total friction force's magnitude, N.
    pub const FRICTION_FORCE: usize = 3;
    /// Header: the total impulse of the last impact, N·s.
    pub const IMPULSE: usize = 4;
    /// Header: the power of the pair's friction forces, `Σ f_t·(v_F − v_B)` over its points
    /// (W; ≤ 0: friction only dissipates, up to the round-off of a sticking point's drift).
    pub const FRICTION_POWER: usize = 5;
    /// The first slot.
    pub const POINTS: usize = 6;
    /// Per slot: the point (m, World), the force on the follower there (N, World), whether it
    /// rests, its separation (m), normal force (N), friction force magnitude (N) and the contact
    /// normal (World, unit, from the base into the follower; zero when unused).
    pub const SLOT_LEN: usize = 13;
    /// In a slot: the point, 3 values (m, World).
    pub const SLOT_POINT: usize = 0;
    /// In a slot: the force on the follower, 3 values (N, World).
    pub const SLOT_FORCE: usize = 3;
    /// In a slot: 1 when the point rests.
    pub const SLOT_CONTACT: usize = 6;
    /// In a slot: the point's separation, m.
    pub const SLOT_SEPARATION: usize = 7;
    /// In a slot: its normal force, N.
    pub const SLOT_NORMAL_FORCE: usize = 8;
    /// In a slot: its friction force's magnitude, N.
    pub const SLOT_FRICTION_FORCE: usize = 9;
    /// In a slot: the contact normal, 3 values (World, unit, from the base into the follower):
    /// the direction of the force's normal component, which the resultant's central axis needs.
    pub const SLOT_NORMAL: usize = 10;
}

/// How simultaneous collisions are resolved (a RigidContact's `impacts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ImpactOrder {
    /// `"serial"` (the default): one pair at a time, fastest approach first, until nothing
    /// approaches (Newton's cradle).
    #[default]
    Serial,
    /// `"simultaneous"`: one impulse problem over every touching point.
    Simultaneous,
}

impl ImpactOrder {
    /// Both orders, in the order the documentation lists them.
    pub const ALL: [ImpactOrder; 2] = [ImpactOrder::Serial, ImpactOrder::Simultaneous];

    /// The order's name in a model file (`impacts = "..."`), written here only.
    pub const fn name(self) -> &'static str {
        match self {
            ImpactOrder::Serial => "serial",
            ImpactOrder::Simultaneous => "simultaneous",
        }
    }
}

/// One side of a rigid pair: a geometry fixed to a body.
#[derive(Clone, Debug)]
pub struct PairSide {
    /// The body the geometry is fixed to (0 = World).
    pub body: usize,
    /// The geometry's frame in the body frame.
    pub placement: Isometry3<f64>,
    /// The geometry.
    pub shape: Shape,
    /// The frame the geometry is attached to (which part of a welded body it is on: a weld's
    /// reaction counts the contact's force on the side that holds this frame).
    pub frame: crate::multibody::FrameId,
}

/// A rigid contact pair as a RigidContact block declares it (immutable during a run).
#[derive(Clone, Debug)]
pub struct RigidPair {
    /// The side the normal points away from.
    pub base: PairSide,
    /// The side the normal points into.
    pub follower: PairSide,
    /// Coulomb's coefficient (static = dynamic); 0 without friction.
    pub friction: f64,
    /// How its simultaneous collisions are resolved.
    pub impacts: ImpactOrder,
    /// Whether the mechanism may skip the pair's narrow phase while its bounding volumes are
    /// further apart than twice its margin (`broad.rs`): its `separation` output is then only a
    /// lower bound. A ContactGroup's pairs opt in (the group reports no separation); a
    /// RigidContact's do not (its `separation` output is the pair's).
    pub broad_phase: bool,
}

/// A rigid joint limit (a RevoluteJoint's or PrismaticJoint's `limits` with `method = "rigid"`):
/// unilateral rows in joint space, `q − lower ≥ 0` and `upper − q ≥ 0` (rad or m).
#[derive(Clone, Debug)]
pub struct JointLimit {
    /// The joint's index in the mechanism.
    pub joint: usize,
    /// Its position coordinate (set by the mechanism when it takes the limit).
    pub q_index: usize,
    /// Its velocity coordinate.
    pub v_index: usize,
    /// The lower bound (rad or m); `-∞` when absent.
    pub lower: f64,
    /// The upper bound (rad or m); `+∞` when absent.
    pub upper: f64,
}

/// What a constraint is.
#[derive(Clone, Debug)]
pub enum ConstraintKind {
    /// A rigid contact pair (RigidContact).
    Contact(Box<RigidPair>),
    /// A rigid joint limit.
    Limit(JointLimit),
    /// A joint that closes a kinematic loop: bilateral rows (see `closure.rs`).
    Loop(CutJoint),
}

/// A unilateral constraint that the mechanism solves: a rigid contact pair or a joint limit.
#[derive(Clone, Debug)]
pub struct RigidConstraint {
    /// The declaring block's name, for messages.
    pub label: String,
    /// Contact pair, joint limit or loop closure.
    pub kind: ConstraintKind,
    /// Newton's coefficient of restitution e in [0, 1].
    pub restitution: f64,
    /// Impacts slower than this (m/s or rad/s) are plastic and leave the constraint resting.
    pub rest_velocity: f64,
}

impl RigidConstraint {
    /// Coulomb's coefficient (0 for limits, closures and frictionless pairs).
    pub fn friction(&self) -> f64 {
        match &self.kind {
            ConstraintKind::Contact(p) => p.friction,
            ConstraintKind::Limit(_) | ConstraintKind::Loop(_) => 0.0,
        }
    }

    /// How its impacts are resolved (limits: serially).
    pub fn impacts(&self) -> ImpactOrder {
        match &self.kind {
            ConstraintKind::Contact(p) => p.impacts,
            ConstraintKind::Limit(_) | ConstraintKind::Loop(_) => ImpactOrder::Serial,
        }
    }

    /// The most rows (candidates) it can have at once: a pair's manifold points, or every point
    /// of its point cloud.
    pub fn max_rows(&self) -> usize {
        match &self.kind {
            ConstraintKind::Contact(p) => p.cloud_points().unwrap_or(MAX_POINTS_PER_PAIR),
            ConstraintKind::Limit(_) => 2,
            ConstraintKind::Loop(_) => 6,
        }
    }

    /// The length of its hidden output (see [`output`]).
    pub fn output_len(&self) -> usize {
        output::POINTS + output::SLOT_LEN * self.max_rows()
    }

    /// The loop closure of a cut joint (always active; no restitution).
    pub fn closure(cut: CutJoint, label: &str) -> Self {
        RigidConstraint {
            label: label.to_string(),
            kind: ConstraintKind::Loop(cut),
            restitution: 0.0,
            rest_velocity: 0.0,
        }
    }
}

impl RigidPair {
    /// The number of points when either side is a point cloud (each point a contact candidate).
    pub fn cloud_points(&self) -> Option<usize> {
        [&self.base.shape, &self.follower.shape]
            .into_iter()
            .find_map(|s| match s {
                Shape::PointCloud(c) => Some(c.len()),
                _ => None,
            })
    }

    /// The speculative margin (m): [`MAX_MARGIN`], or 5 % of the smallest width of the pair's
    /// bounded geometries when that is smaller.
    pub fn margin(&self) -> f64 {
        let width = |s: &Shape| {
            [Vector3::x(), Vector3::y(), Vector3::z()]
                .iter()
                .filter_map(|e| {
                    let hi = s.support(e)?;
                    let lo = s.support(&-e)?;
                    Some((hi.coords - lo.coords).dot(e))
                })
                .fold(f64::INFINITY, f64::min)
        };
        let w = width(&self.base.shape).min(width(&self.follower.shape));
        if w.is_finite() && w > 0.0 {
            MAX_MARGIN.min(0.05 * w)
        } else {
            MAX_MARGIN
        }
    }
}
