//! The speculative contact points of every pair at the kinematics in a dynamics workspace, and
//! the bounds of every joint limit near its range's ends (see the [module documentation](super)).

use super::broad::REACH;
use super::motion::BodyMotion;
use super::workspace::{Candidate, PairContact, RigidWorkspace};
use super::{ConstraintKind, JointLimit, RigidConstraint, RigidPair, MAX_POINTS_PER_PAIR};
use crate::geometry::query::manifold::{
    contact_manifold_shifted_with, contact_manifold_with, ReferenceSide,
};
use crate::geometry::query::query_point_cloud_with;
use crate::geometry::Shape;
use crate::multibody::constraints::ContactRow;
use crate::multibody::kinematics::body_pose;
use crate::multibody::workspace::Workspace;
use nalgebra::{Isometry3, Translation3, Vector3};

/// Fills `rw.candidates` and `rw.pairs` from the poses and velocities in `ws` (after forward
/// kinematics or a dynamics call at the state `(q, v)` of interest). Does not allocate.
pub fn find_candidates(
    constraints: &[RigidConstraint],
    ws: &Workspace,
    q: &[f64],
    v: &[f64],
    rw: &mut RigidWorkspace,
) {
    rw.candidates.clear();
    for (k, constraint) in constraints.iter().enumerate() {
        match &constraint.kind {
            ConstraintKind::Contact(pair) if pair.cloud_points().is_some() => {
                cloud_candidates(k, pair, ws, rw)
            }
            ConstraintKind::Contact(pair) => {
                if !ruled_out(k, pair, ws, rw) {
                    contact_candidates(k, pair, ws, rw)
                }
            }
            ConstraintKind::Limit(limit) => limit_candidates(k, limit, q, v, rw),
            ConstraintKind::Loop(cut) => super::closure::closure_candidates(k, cut, ws, rw),
        }
    }
}

/// The bounds of a joint limit within [`super::MAX_MARGIN`]-scaled reach (0.05 rad or m) of the
/// coordinate, as candidates with coordinate rows.
fn limit_candidates(k: usize, limit: &JointLimit, q: &[f64], v: &[f64], rw: &mut RigidWorkspace) {
    let margin = LIMIT_MARGIN;
    let first = rw.candidates.len();
    let mut contact = PairContact::apart(first, margin);
    let (x, rate) = (q[limit.q_index], v[limit.v_index]);
    for (gap, sign) in [(x - limit.lower, 1.0), (limit.upper - x, -1.0)] {
        contact.separation = contact.separation.min(gap);
        if gap.is_nan() || gap > margin || rw.candidates.len() == rw.candidates.capacity() {
            continue;
        }
        let c = Candidate {
            owner: k,
            slot: rw.candidates.len() - first,
            row: ContactRow::coordinate(limit.v_index, sign),
            tangents: [Vector3::zeros(); 2],
            gap,
            relative_velocity: Vector3::zeros(),
            normal_velocity: sign * rate,
            bias: 0.0,
            tangent_bias: Vector3::zeros(),
            bilateral: false,
        };
        if c.approaching() {
            contact.crossing = contact.crossing.min(gap);
        }
        rw.candidates.push(c);
    }
    contact.count = rw.candidates.len() - first;
    rw.pairs[k] = contact;
}

/// How near its bound (rad or m) a joint coordinate is watched.
const LIMIT_MARGIN: f64 = 0.05;

/// A contact pair at the kinematics of a dynamics workspace: what each of its candidate points
/// needs (the geometries' poses and the bodies' motions, World).
struct PairAt<'a> {
    k: usize,
    pair: &'a RigidPair,
    pose_base: Isometry3<f64>,
    pose_follower: Isometry3<f64>,
    base: BodyMotion,
    follower: BodyMotion,
    /// Whether the contact normal is the follower's surface normal (turning with the follower's
    /// ω) rather than the base's: a manifold whose reference face is the follower's, or the
    /// follower's surface under a base point cloud's points.
    turns_with_follower: bool,
}

impl<'a> PairAt<'a> {
    fn new(k: usize, pair: &'a RigidPair, ws: &Workspace) -> Self {
        PairAt {
            k,
            pair,
            pose_base: body_pose(ws, pair.base.body) * pair.base.placement,
            pose_follower: body_pose(ws, pair.follower.body) * pair.follower.placement,
            base: BodyMotion::of(ws, pair.base.body),
            follower: BodyMotion::of(ws, pair.follower.body),
            turns_with_follower: matches!(pair.base.shape, Shape::PointCloud(_)),
        }
    }

    /// A candidate's [`Candidate::tangent_bias`] for the contact `normal` (World): the sphere
    /// sides' `R (ω·n) ω`.
    fn tangent_bias(&self, normal: &Vector3<f64>) -> Vector3<f64> {
        let mut b = Vector3::zeros();
        for (shape, motion) in [
            (&self.pair.base.shape, &self.base),
            (&self.pair.follower.shape, &self.follower),
        ] {
            if let Shape::Sphere(ball) = shape {
                b += motion.angular * (ball.radius() * motion.angular.dot(normal));
            }
        }
        b
    }

    /// The candidate at `point` with `normal` (World, base into follower) and `gap` (m), in
    /// output slot `slot`.
    fn candidate(
        &self,
        slot: usize,
        point: Vector3<f64>,
        normal: Vector3<f64>,
        gap: f64,
    ) -> Candidate {
        let relative = self.follower.point_velocity(&point) - self.base.point_velocity(&point);
        Candidate {
            owner: self.k,
            slot,
            row: ContactRow::point(self.pair.base.body, self.pair.follower.body, point, normal),
            tangents: tangent_basis(&normal),
            gap,
            relative_velocity: relative,
            normal_velocity: normal.dot(&relative),
            bias: row_bias(
                self.pair,
                (&self.pose_base, &self.pose_follower),
                (&self.base, &self.follower),
                &point,
                &normal,
                &relative,
                self.turns_with_follower,
            ),
            tangent_bias: self.tangent_bias(&normal),
            bilateral: false,
        }
    }
}

/// Adds `c` to the candidates when there is room, and lowers the pair's crossing to its gap when
/// it approaches.
fn push_candidate(rw: &mut RigidWorkspace, contact: &mut PairContact, c: Candidate) {
    if rw.candidates.len() == rw.candidates.capacity() {
        return;
    }
    if c.approaching() {
        contact.crossing = contact.crossing.min(c.gap);
    }
    rw.candidates.push(c);
}

/// Whether the broad phase rules contact pair `k` out at the poses in `ws` (its bound exceeds
/// [`REACH`] times its margin; see `broad.rs`): then its result is written as the narrow phase
/// would find it (no candidate, the crossing at the margin), with the bound as its separation.
fn ruled_out(k: usize, pair: &RigidPair, ws: &Workspace, rw: &mut RigidWorkspace) -> bool {
    let Some(bounds) = &rw.bounds[k] else {
        return false;
    };
    let margin = rw.margins[k];
    let reach = REACH * margin;
    let bound = bounds.distance(ws, (&pair.base.shape, &pair.follower.shape), reach);
    if bound > reach {
        rw.pairs[k] = PairContact {
            separation: bound,
            ..PairContact::apart(rw.candidates.len(), margin)
        };
        return true;
    }
    false
}

/// The speculative manifold points of contact pair `k`.
fn contact_candidates(k: usize, pair: &RigidPair, ws: &Workspace, rw: &mut RigidWorkspace) {
    let mut at = PairAt::new(k, pair, ws);
    let margin = rw.margins[k];
    let first = rw.candidates.len();
    let mut contact = PairContact::apart(first, margin);
    let manifold = &mut rw.manifolds[k];
    let workspace = &mut rw.query_workspace;
    // The pair's signed distance and normal at the true poses ...
    let (base, follower) = (&pair.base.shape, &pair.follower.shape);
    if contact_manifold_with(
        workspace,
        base,
        &at.pose_base,
        follower,
        &at.pose_follower,
        manifold,
    )
    .is_err()
    {
        rw.pairs[k] = contact;
        return;
    }
    contact.separation = manifold.separation();
    let n = manifold.normal().into_inner();
    if contact.separation.is_nan() || contact.separation > margin {
        rw.pairs[k] = contact;
        return;
    }
    // ... then the manifold with the follower moved `margin` towards the base, so that points
    // up to `margin` apart appear with their gaps.
    let shift = -n * margin;
    let shifted =
        Isometry3::from_parts(Translation3::from(shift), Default::default()) * at.pose_follower;
    if contact_manifold_shifted_with(
        workspace,
        base,
        &at.pose_base,
        follower,
        &shifted,
        &shift,
        manifold,
    )
    .is_err()
    {
        rw.pairs[k] = contact;
        return;
    }
    manifold.reduce(MAX_POINTS_PER_PAIR);
    at.turns_with_follower = manifold.reference_side() == ReferenceSide::Follower;
    let normal = manifold.normal().into_inner();
    let along = margin * n.dot(&normal);
    for slot in 0..rw.manifolds[k].points().len() {
        let p = &rw.manifolds[k].points()[slot];
        // The midpoint between the surfaces moves back by half the shift.
        let point = p.point.coords + n * (0.5 * margin);
        let c = at.candidate(slot, point, normal, along - p.depth);
        push_candidate(rw, &mut contact, c);
    }
    contact.count = rw.candidates.len() - first;
    rw.pairs[k] = contact;
}

/// The points of contact pair `k`'s point cloud (on either side) within the pair's margin of
/// the other geometry, each a candidate in the slot of its index in the cloud. The gaps are the
/// points' true signed distances (a point has no extent: nothing to shift speculatively).
fn cloud_candidates(k: usize, pair: &RigidPair, ws: &Workspace, rw: &mut RigidWorkspace) {
    let at = PairAt::new(k, pair, ws);
    let margin = rw.margins[k];
    let first = rw.candidates.len();
    let mut contact = PairContact::apart(first, margin);
    let (base, follower) = (&pair.base.shape, &pair.follower.shape);
    let queries = &mut rw.cloud_queries[k];
    let workspace = &mut rw.query_workspace;
    if query_point_cloud_with(
        workspace,
        base,
        &at.pose_base,
        follower,
        &at.pose_follower,
        queries,
    )
    .is_err()
    {
        rw.pairs[k] = contact;
        return;
    }
    for slot in 0..rw.cloud_queries[k].len() {
        let q = rw.cloud_queries[k][slot];
        contact.separation = contact.separation.min(q.separation);
        if q.separation.is_nan() || q.separation > margin {
            continue;
        }
        let c = at.candidate(slot, q.point.coords, q.normal.into_inner(), q.separation);
        push_candidate(rw, &mut contact, c);
    }
    contact.count = rw.candidates.len() - first;
    rw.pairs[k] = contact;
}

/// What a contact row's acceleration has beyond the material points' `n·(a_F(p) − a_B(p))` that
/// `ConstraintRows` computes (m/s²), so that the row holds the *gap's* acceleration:
///
/// - a sphere side is followed by its centre, not by the material point at `p` (which slides
///   over its surface): its centripetal term `n·(ω×(ω×(p − c))) = ∓R·|ω⊥|²` is removed (`ω⊥` the
///   angular velocity across `n`) — without it a ball rolling at ω on a floor would press with
///   `m(g − R ω²)`, and leave the floor when `R ω² > g`;
/// - the normal's rotation: for a sphere base the normal is the direction from its centre to the
///   follower's point `q` (its centre, for a sphere), so `n̈`'s share is `|Δv⊥|²/|q − c_B|` with
///   `Δv` the velocity of `q` relative to the base centre's; otherwise the normal turns with the
///   body whose surface it is and Baraff's `2 ṅ·v_rel`, `ṅ = ω × n`, is added, with `ω` the
///   angular velocity of the reference face's owner (`turns_with_follower`: the follower's, when
///   the manifold's reference face is the follower's — a box tipping over a table's edge — or a
///   base point cloud's points lie on the follower's surface; else the base's). With the base's
///   ω for a follower's face the rows missed `2((ω_F − ω_B) × n)·v_rel` (issue 27, part 6).
///   Exact for a vertex on a face: the gap `n·(p_v − p_f)` has
///   `g̈ = n·(a_v − a_f) + 2ṅ·(v_v − v_f) + n̈·(p_v − p_f)`, the last term zero at the contact.
fn row_bias(
    pair: &RigidPair,
    (pose_base, pose_follower): (&Isometry3<f64>, &Isometry3<f64>),
    (base, follower): (&BodyMotion, &BodyMotion),
    point: &Vector3<f64>,
    n: &Vector3<f64>,
    relative: &Vector3<f64>,
    turns_with_follower: bool,
) -> f64 {
    let radius = |s: &Shape| match s {
        Shape::Sphere(ball) => Some(ball.radius()),
        _ => None,
    };
    let across = |w: &Vector3<f64>| (w - n * n.dot(w)).norm_squared();
    let (r_base, r_follower) = (radius(&pair.base.shape), radius(&pair.follower.shape));
    let mut bias = 0.0;
    if let Some(r) = r_follower {
        bias -= r * across(&follower.angular);
    }
    if let Some(r) = r_base {
        bias -= r * across(&base.angular);
        let c_base = pose_base.translation.vector;
        let q = if r_follower.is_some() {
            pose_follower.translation.vector
        } else {
            *point
        };
        let dv = follower.point_velocity(&q) - base.point_velocity(&c_base);
        let distance = (q - c_base).norm();
        if distance > 0.0 {
            bias += across(&dv) / distance;
        }
    } else {
        let turning = if turns_with_follower {
            &follower.angular
        } else {
            &base.angular
        };
        bias += 2.0 * turning.cross(n).dot(relative);
    }
    bias
}

/// Two unit tangents `t1`, `t2` with `(t1, t2, n)` right-handed: `t1` is the World axis least
/// aligned with `n`, made orthogonal to it.
pub fn tangent_basis(n: &Vector3<f64>) -> [Vector3<f64>; 2] {
    let axis = if n.x.abs() <= n.y.abs() && n.x.abs() <= n.z.abs() {
        Vector3::x()
    } else if n.y.abs() <= n.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let t1 = (axis - n * n.dot(&axis)).normalize();
    [t1, n.cross(&t1)]
}
