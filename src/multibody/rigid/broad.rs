//! The broad phase of rigid pairs: a lower bound on a pair's distance from bounding volumes,
//! so that the narrow phase (the speculative manifold in `candidates.rs`) runs only for pairs
//! that can have a candidate point.
//!
//! # Bounds
//!
//! Each side of a pair that opts in ([`super::RigidPair::broad_phase`]: a ContactGroup's pairs)
//! gets, once, a bound in its body's frame:
//!
//! - a bounded geometry (every shape with a support function: sphere, brick, cylinder,
//!   ellipsoid, convex hull, disk, point) a ball of centre `c` (the middle of the geometry's
//!   box along its own axes, m, body frame) and radius `r` (the box's half diagonal; a sphere's
//!   own radius), and its geometry frame's orientation for a World-axis-aligned box;
//! - an [`Shape::InfinitePlane`] its point and unit normal (body frame; contact on its +z side).
//!
//! At every evaluation, with the bodies' poses of the dynamics workspace (`E` the World → body
//! rotation, `o` the body origin, World), the pair's lower bound `d` on its signed distance (m) is
//!
//! - two balls: `|c_a − c_b| − r_a − r_b` (World centres `o + Eᵀc`), raised to the gap of the
//!   two geometries' World-axis-aligned boxes when the balls are within reach (the box of a
//!   geometry at World rotation `R` spans `o_a ± h(±Rᵀe_a)` along World axis `a`, `h` its support
//!   value, exact for the convex shape; the gap is the largest separation of the boxes along an
//!   axis, negative when they overlap);
//! - a plane and a ball: `n·(c − p) − r` (World), negative when the ball reaches below the plane.
//!
//! Each is a lower bound on the distance between the two convex geometries (they lie inside
//! their bounds), so `d > m` implies the pair's true separation exceeds its speculative margin
//! `m`. Two planes, point clouds and grid surfaces get no bound: such a pair is always queried.
//!
//! # What a skipped pair reports, and the reach
//!
//! The narrow phase of a pair whose separation exceeds its margin `m` yields no candidate: its
//! impact crossing is the cap `m`, it adds no row, no resting point and no mode indicator, and
//! its separation is the true one (`candidates.rs`). A skipped pair reports exactly that, except
//! its separation, which is the bound `d` (a lower bound, > the reach): no consumer of a
//! ContactGroup's pairs reads it (the group writes `active_pairs` and `member_wrench` only), and
//! a RigidContact, whose `separation` output is the pair's, does not opt in. The pair is skipped
//! only when `d >` [`REACH`]` · m`: the narrow phase reports points up to `m` apart, and the
//! factor 2 keeps the floating-point round-off of the bound (10⁻¹⁶ of the positions) and of the
//! narrow phase's own separation away from that threshold, so that a pair at `d` near `m` is
//! always queried and the skipping cannot change a run. No margin for motion is needed: the
//! bound is taken again at every evaluation (trial stages, event location, the projection), at
//! the very state the narrow phase would see, so a pair entering its margin is queried from its
//! first evaluation there, its approaching points enter at gap `m` as before, and the impact
//! crossing and the mode crossings are those of the full query.

use super::PairSide;
use crate::geometry::Shape;
use crate::multibody::workspace::Workspace;
use nalgebra::{Matrix3, Vector3};

/// A pair is skipped while its lower bound exceeds this many times its margin (see the module
/// documentation).
pub const REACH: f64 = 2.0;

/// One side's bound, in its body's frame.
#[derive(Clone, Debug)]
enum SideBound {
    /// A bounded geometry: every point within `radius` (m) of `centre` (m, body frame); the
    /// geometry's frame (origin m, and the transpose of its rotation, body frame) and shape for
    /// its World-axis-aligned box.
    Ball {
        centre: Vector3<f64>,
        radius: f64,
        origin: Vector3<f64>,
        rotation_t: Matrix3<f64>,
    },
    /// An infinite plane: a point and its unit normal (body frame), contact on the normal's side.
    Plane {
        point: Vector3<f64>,
        normal: Vector3<f64>,
    },
}

/// The support value `h(d) = max over the shape of x·d` (m) along `d` (geometry frame).
fn support_value(shape: &Shape, d: &Vector3<f64>) -> f64 {
    shape.support(d).map_or(f64::INFINITY, |p| p.coords.dot(d))
}

impl SideBound {
    /// The bound of `side`, or `None` for a geometry without one.
    fn of(side: &PairSide) -> Option<Self> {
        let placement = &side.placement;
        match &side.shape {
            Shape::InfinitePlane => Some(SideBound::Plane {
                point: placement.translation.vector,
                normal: placement.rotation * Vector3::z(),
            }),
            shape => {
                shape.support(&Vector3::x())?;
                let (centre, radius) = if let Shape::Sphere(ball) = shape {
                    (Vector3::zeros(), ball.radius())
                } else {
                    let axis = |a: usize| Vector3::ith(a, 1.0);
                    let hi = Vector3::from_fn(|a, _| support_value(shape, &axis(a)));
                    let lo = Vector3::from_fn(|a, _| -support_value(shape, &-axis(a)));
                    (0.5 * (hi + lo), 0.5 * (hi - lo).norm())
                };
                if !(radius.is_finite() && centre.iter().all(|x| x.is_finite())) {
                    return None;
                }
                Some(SideBound::Ball {
                    centre: (placement * nalgebra::Point3::from(centre)).coords,
                    radius,
                    origin: placement.translation.vector,
                    rotation_t: placement.rotation.to_rotation_matrix().matrix().transpose(),
                })
            }
        }
    }
}

/// The bounds of one pair (see the module documentation).
#[derive(Clone, Debug)]
pub struct PairBounds {
    /// The base's body and bound.
    base: (usize, SideBound),
    /// The follower's body and bound.
    follower: (usize, SideBound),
}

impl PairBounds {
    /// The bounds of a pair with sides `base` and `follower`, or `None` when either side has
    /// none or both are planes (the pair is then always queried).
    pub fn of(base: &PairSide, follower: &PairSide) -> Option<Self> {
        let (b, f) = (SideBound::of(base)?, SideBound::of(follower)?);
        if matches!((&b, &f), (SideBound::Plane { .. }, SideBound::Plane { .. })) {
            return None;
        }
        Some(PairBounds {
            base: (base.body, b),
            follower: (follower.body, f),
        })
    }

    /// A lower bound on the distance (m) between the pair's geometries at the poses in `ws`,
    /// computed to the precision needed: once it exceeds `reach` (m) the box gap is not taken.
    pub fn distance(&self, ws: &Workspace, shapes: (&Shape, &Shape), reach: f64) -> f64 {
        let world = |body: usize, p: &Vector3<f64>| {
            let x = &ws.x_world[body];
            x.trans + x.rot.tr_mul(p)
        };
        let direction = |body: usize, d: &Vector3<f64>| ws.x_world[body].rot.tr_mul(d);
        match (&self.base, &self.follower) {
            (
                (pb, SideBound::Plane { point, normal }),
                (bb, SideBound::Ball { centre, radius, .. }),
            )
            | (
                (bb, SideBound::Ball { centre, radius, .. }),
                (pb, SideBound::Plane { point, normal }),
            ) => {
                let (p, n) = (world(*pb, point), direction(*pb, normal));
                n.dot(&(world(*bb, centre) - p)) - radius
            }
            (
                (
                    ba,
                    SideBound::Ball {
                        centre: ca,
                        radius: ra,
                        origin: oa,
                        rotation_t: ta,
                    },
                ),
                (
                    bb,
                    SideBound::Ball {
                        centre: cb,
                        radius: rb,
                        origin: ob,
                        rotation_t: tb,
                    },
                ),
            ) => {
                let balls = (world(*ba, ca) - world(*bb, cb)).norm() - ra - rb;
                if balls > reach {
                    return balls;
                }
                let (lo_a, hi_a) = world_box(ws, *ba, (oa, ta), shapes.0);
                let (lo_b, hi_b) = world_box(ws, *bb, (ob, tb), shapes.1);
                let gap = (0..3)
                    .map(|k| (lo_b[k] - hi_a[k]).max(lo_a[k] - hi_b[k]))
                    .fold(f64::NEG_INFINITY, f64::max);
                balls.max(gap)
            }
            _ => f64::NEG_INFINITY,
        }
    }
}

/// The World-axis-aligned box (lower and upper corners, m, World) of a bounded geometry on
/// `body` whose frame has `origin` and the transposed rotation `rotation_t` in the body frame.
fn world_box(
    ws: &Workspace,
    body: usize,
    (origin, rotation_t): (&Vector3<f64>, &Matrix3<f64>),
    shape: &Shape,
) -> (Vector3<f64>, Vector3<f64>) {
    let x = &ws.x_world[body];
    let o = x.trans + x.rot.tr_mul(origin);
    let (mut lo, mut hi) = (o, o);
    for a in 0..3 {
        // World axis a in the geometry frame: Rᵀ e_a with R = Eᵀ R_p, i.e. R_pᵀ (E e_a).
        let d: Vector3<f64> = rotation_t * x.rot.column(a);
        hi[a] += support_value(shape, &d);
        lo[a] -= support_value(shape, &-d);
    }
    (lo, hi)
}
