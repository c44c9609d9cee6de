//! Contact manifolds: every contact point of two posed geometries, with a shared normal.
//!
//! A box resting face-down on a table touches it along a whole face, not at one point. The single
//! point of [`query`](super::query) jumps between the face's corners from one evaluation to the
//! next as round-off decides which corner is deepest; a manifold gives all of them. It is a pure
//! function of the two poses ([`contact_manifold`]), writes into a [`ContactManifold`] sized once
//! for the pair ([`ContactManifold::for_pair`]), and never allocates.
//!
//! | pair | manifold |
//! |---|---|
//! | plane – brick / convex hull | the face turned most towards the plane: its corners below it |
//! | plane – cylinder / disk | the rim arcs below the plane, sampled on the exact circle |
//! | brick / hull / cylinder / disk – brick / hull / cylinder / disk | a reference face, the other body's incident polygon clipped against its sides (Sutherland–Hodgman) |
//! | anything with a sphere, ellipsoid, point, grid surface, point cloud | the single deepest point |
//!
//! **Face against face.** The single-point query gives the contact normal n (from GJK/EPA). Each
//! faceted body offers the face whose outward normal is closest to n (the base) or to −n (the
//! follower). When neither is within [`FACE_ALIGNMENT_ANGLE`] of it (edge against edge, rim
//! against edge) the manifold is the single point; when one is, it is the reference face. When
//! both are, the base's face is the reference unless the base reaches less than
//! [`REFERENCE_DEPTH_RATIO`] times as deep below the follower's face as the follower reaches below
//! the base's (see there): two faces lying flat on each other keep their roles, and a box tipping
//! over another box's edge gets the normal of its own face, the physical one. The other body presents its
//! incident polygon to the reference plane (see `manifold/features.rs`): a polytope its face turned most
//! against the reference normal, a cylinder or disk the arcs of its rims below the plane. The
//! polygon is clipped by the reference face's side planes (an infinite plane has none).
//!
//! **Points.** The clipped polygon's vertices below the reference plane are the points. Each
//! carries its depth below the reference surface (m) and sits midway between the incident surface
//! and the reference surface (the convention of [`ContactGeometry`]). Each carries its boundary
//! share of the clipped polygon (see `manifold/polygon.rs`), normalised so that the shares of the whole
//! clipped polygon add up to 1: a face lying flat has all its points and shares summing to 1, a
//! face tilted onto an edge keeps only the edge's points and their shares. Points enter and leave
//! at zero depth, and points made by clipping split off with their share, so a force of
//! `share·law(depth)` per point is continuous in the pose.
//!
//! **Robustness.** Nothing here depends on which of two round-off-tied vertices a support function
//! picks: faces are chosen by their normals, and the reference face by continuous depths. The manifold is
//! continuous in the pose except where the incident face changes while vertices it does not share
//! with the next face are below the plane (not for a box: the faces that meet at its lowest edge
//! or corner give that edge or corner the same share), where the reference face changes
//! (documented at [`REFERENCE_DEPTH_RATIO`]), and where the contact normal crosses
//! [`FACE_ALIGNMENT_ANGLE`].

mod features;
mod polygon;
mod reduce;

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use super::contact_geometry::ContactGeometry;
use crate::geometry::shape::Shape;
use crate::geometry::GeometryError;
use features::{FaceId, Faceted, PosedFaceted, RimAnchor};
use polygon::{boundary_shares, clip, ClipPlane, PolygonVertex};

pub use features::{ARC_SAMPLES, CAP_SIDES, FACE_BLEND_ANGLE, MAX_BLENDED_FACES};

/// Largest angle (rad) between the contact normal and a face's normal for that face to serve as
/// a reference face. Face contacts have the face's normal exactly (up to the iteration tolerance of
/// EPA on curved shapes); edge–edge contacts have normals tens of degrees away.
pub const FACE_ALIGNMENT_ANGLE: f64 = 0.2;

/// When both bodies offer a face aligned with the contact normal, the follower's face becomes the
/// reference only if the base reaches below the follower's face plane less than this fraction of
/// how far the follower reaches below the base's face plane.
///
/// Why depths and not the normal's angle: the contact normal of GJK/EPA flips between two nearly
/// parallel faces (a box resting on a box, slightly tilted) as round-off and small motions decide
/// which penetration is smaller; choosing by it made the normal, and the lateral force, jump back
/// and forth (a frictionless box on a box then needed 200 times as many steps). The two depths are
/// continuous functions of the pose and nearly equal for parallel faces, so the base keeps the
/// role. When a box tips over another box's edge, its overhang dips far below the lower box's
/// plane while the edge only dents the tipping face: the tipping box's face becomes the reference
/// once its tilt exceeds about 2·dent/overhang (7 mrad for a 0.1 mm dent and a 3 cm overhang),
/// where the normal turns by that angle at once (a lateral jump of F·0.007).
pub const REFERENCE_DEPTH_RATIO: f64 = 0.5;

/// One point of a contact manifold (world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ManifoldPoint {
    /// Midway between the two surfaces (m, world).
    pub point: Point3<f64>,
    /// Penetration depth of this point along the manifold's normal (m, ≥ 0).
    pub depth: f64,
    /// The depth a force law should use here (m, > 0): `depth` on flat faces; for a sample of a
    /// short arc of a curved rim (a cylinder's or disk's edge, less than half of it below the
    /// plane), the depth of that rim's deepest point. Such a rim is curved, not tilted: a cylinder
    /// lying on its side presses along its deepest line, and the samples on either side of it only
    /// spread that line's force over the arc. A rim almost wholly below the plane is a tilted face
    /// and keeps its samples' own depths (a smooth blend between; see `rim_curvature_weight`).
    pub effective_depth: f64,
    /// Share of the contact feature's boundary (dimensionless; the shares of the whole clipped
    /// feature add up to 1, so a face lying flat has shares summing to 1).
    pub share: f64,
    /// Where a force law should take the relative velocity for this point (m, world): the point
    /// itself on flat faces; for a short rim arc, the rim's deepest point (blended like
    /// `effective_depth`). A short arc is one curved contact spread out: its samples press with
    /// the deepest point's depth and move with it, so a rolling disk or cylinder meets no rolling
    /// resistance from the spread (samples ahead of the deepest point sink while those behind
    /// rise; with their own rates, the damping would brake the rolling).
    pub velocity_point: Point3<f64>,
}

/// How a manifold was built (for diagnostics and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManifoldKind {
    /// No contact: the geometries are apart (or the separation is not a number).
    Apart,
    /// The single deepest point.
    Single,
    /// A clipped polygon against a reference face or plane.
    Polygon,
}

/// Which side's surface the manifold's normal belongs to: the body whose rotation turns the
/// normal (`ṅ = ω × n` with that body's angular velocity `ω`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceSide {
    /// The base's face or plane (the normal is its outward normal).
    Base,
    /// The follower's face or plane (the normal is minus its outward normal).
    Follower,
    /// No face: a single point, its normal from GJK/EPA (or apart).
    Neither,
}

/// The contact points of a pair, with a shared normal; sized once for a pair of shapes.
#[derive(Debug, Clone)]
pub struct ContactManifold {
    kind: ManifoldKind,
    normal: Unit<Vector3<f64>>,
    side: ReferenceSide,
    closest: ContactGeometry,
    points: Vec<ManifoldPoint>,
    // Workspace of the clipping (never grows past the capacities set by `for_pair`).
    reference: Vec<PolygonVertex>,
    polygon: Vec<PolygonVertex>,
    clipped: Vec<PolygonVertex>,
    shares: Vec<f64>,
}

impl ContactManifold {
    /// An empty manifold with room for every contact of `base` against `follower` (allocates once).
    pub fn for_pair(base: &Shape, follower: &Shape) -> Self {
        Self::for_shapes([base, follower])
    }

    /// An empty manifold with room for every contact between any two of `shapes` (allocates
    /// once): a contact group's one manifold, reused pair after pair.
    pub fn for_shapes<'a>(shapes: impl IntoIterator<Item = &'a Shape>) -> Self {
        let (mut incident, mut sides) = (0, 0);
        for f in shapes.into_iter().filter_map(Faceted::of) {
            incident = incident.max(f.max_incident_vertices());
            sides = sides.max(f.max_face_vertices());
        }
        // Clipping a loop by one plane adds at most one vertex per crossing; a convex face crosses
        // a plane twice, a cylinder's two-rim loop at most four times.
        let polygon = 2 * incident + 2 * (sides + 1) + 4;
        Self {
            kind: ManifoldKind::Apart,
            side: ReferenceSide::Neither,
            normal: Vector3::z_axis(),
            closest: ContactGeometry {
                separation: f64::INFINITY,
                point: Point3::origin(),
                normal: Vector3::z_axis(),
            },
            points: Vec::with_capacity(polygon * MAX_BLENDED_FACES),
            reference: Vec::with_capacity(sides.max(1)),
            polygon: Vec::with_capacity(polygon),
            clipped: Vec::with_capacity(polygon),
            shares: Vec::with_capacity(polygon),
        }
    }

    /// The manifold's points (all with depth > 0; empty when apart).
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points
    }
    /// The shared unit normal (world), from the base into the follower.
    pub fn normal(&self) -> Unit<Vector3<f64>> {
        self.normal
    }
    /// The single-point result of the pair (signed distance, deepest point, GJK/EPA normal).
    pub fn closest(&self) -> &ContactGeometry {
        &self.closest
    }
    /// Signed distance of the pair (m): negative when penetrating.
    pub fn separation(&self) -> f64 {
        self.closest.separation
    }
    /// The depth of the deepest point (m; 0 when there is none).
    pub fn max_depth(&self) -> f64 {
        self.points.iter().fold(0.0, |m, p| m.max(p.depth))
    }
    /// Whose face or plane the normal belongs to (see [`ReferenceSide`]).
    pub fn reference_side(&self) -> ReferenceSide {
        self.side
    }
    /// How the manifold was built.
    pub fn kind(&self) -> ManifoldKind {
        self.kind
    }
    /// The capacity of the point store.
    pub fn capacity(&self) -> usize {
        self.points.capacity()
    }

    fn push(&mut self, point: ManifoldPoint) {
        if self.points.len() < self.points.capacity() {
            self.points.push(point);
        }
    }

    /// The single deepest point of `closest`, if it penetrates.
    fn single(&mut self) {
        self.points.clear();
        self.kind = ManifoldKind::Single;
        self.side = ReferenceSide::Neither;
        self.normal = self.closest.normal;
        let depth = -self.closest.separation;
        if depth > 0.0 {
            let point = ManifoldPoint {
                point: self.closest.point,
                depth,
                effective_depth: depth,
                share: 1.0,
                velocity_point: self.closest.point,
            };
            self.push(point);
        }
    }
}

/// Fills `out` with the contact manifold of `base` at `pose_base` and `follower` at
/// `pose_follower` (world frame; see the module documentation). `out` should come from
/// [`ContactManifold::for_pair`] for these shapes; a smaller one keeps the points that fit.
///
/// Errors: [`GeometryError::UnsupportedPair`] for a pair the seed's table does not support.
///
/// Makes a [`QueryWorkspace`](super::QueryWorkspace) for the call; in a loop, keep one and use
/// [`contact_manifold_with`].
pub fn contact_manifold(
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
    out: &mut ContactManifold,
) -> Result<(), GeometryError> {
    contact_manifold_with(
        &mut super::QueryWorkspace::new(),
        base,
        pose_base,
        follower,
        pose_follower,
        out,
    )
}

/// [`contact_manifold`] with its single-point query in the caller's `workspace` (no
/// allocation).
pub fn contact_manifold_with(
    workspace: &mut super::QueryWorkspace,
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
    out: &mut ContactManifold,
) -> Result<(), GeometryError> {
    manifold_of(
        workspace,
        (base, pose_base),
        (follower, pose_follower),
        None,
        out,
    )
}

/// [`contact_manifold_with`] for a follower that the caller moved by `shift` (m, World) from its
/// true pose towards the base (rigid contact's speculative manifold: `pose_follower` is the
/// shifted pose). Only the choice of the reference face differs: it is made on the *true*
/// depths (each depth less the shift's share along that face's normal), and the follower's
/// face becomes the reference once the base reaches below it less than
/// [`REFERENCE_DEPTH_RATIO`] times as deep as the follower reaches below the base's face and
/// that true depth exceeds [`SPECULATIVE_REFERENCE_DEPTH`]. With the shifted depths (each
/// about `|shift|` more) a box tipping over a table's edge kept the table's normal until its
/// tilt reached `|shift|/overhang` (7.7 mrad for a 1 mm shift and a 13 cm overhang), then its
/// normal turned by that angle at once, and its normal force jumped (issue 27, part 6).
pub fn contact_manifold_shifted_with(
    workspace: &mut super::QueryWorkspace,
    base: &Shape,
    pose_base: &Isometry3<f64>,
    follower: &Shape,
    pose_follower: &Isometry3<f64>,
    shift: &Vector3<f64>,
    out: &mut ContactManifold,
) -> Result<(), GeometryError> {
    manifold_of(
        workspace,
        (base, pose_base),
        (follower, pose_follower),
        Some(shift),
        out,
    )
}

/// A follower's true depth below the base's face must exceed this (m) for its own face to
/// become the reference in a shifted manifold ([`contact_manifold_shifted_with`]): resting
/// faces (true depths at the drift projection's 10⁻¹⁰ m) keep the base's, while a face tilted
/// by 10⁻⁸ rad over a 10 cm overhang already turns the normal to its own (a jump of 10⁻⁸ of the
/// force, sideways).
pub const SPECULATIVE_REFERENCE_DEPTH: f64 = 1e-9;

fn manifold_of(
    workspace: &mut super::QueryWorkspace,
    (base, pose_base): (&Shape, &Isometry3<f64>),
    (follower, pose_follower): (&Shape, &Isometry3<f64>),
    shift: Option<&Vector3<f64>>,
    out: &mut ContactManifold,
) -> Result<(), GeometryError> {
    if let Some(closest) = super::direct::closest(base, pose_base, follower, pose_follower) {
        // Two spheres, a plane and a sphere (no faceted side): the single deepest point, set
        // exactly as below.
        out.closest = closest;
        out.normal = closest.normal;
        out.points.clear();
        out.side = ReferenceSide::Neither;
        if closest.separation < 0.0 {
            out.single();
        } else {
            out.kind = ManifoldKind::Apart;
        }
        return Ok(());
    }
    out.closest = super::query_with(workspace, base, pose_base, follower, pose_follower)?;
    out.normal = out.closest.normal;
    out.points.clear();
    out.kind = ManifoldKind::Apart;
    out.side = ReferenceSide::Neither;
    // Apart, touching, or a NaN separation: no point.
    let penetrating = out.closest.separation < 0.0;
    if !penetrating {
        return Ok(());
    }
    match (base, follower, Faceted::of(base), Faceted::of(follower)) {
        (Shape::InfinitePlane, _, _, Some(f)) => {
            against_plane(out, pose_base, &posed(f, pose_follower), true)
        }
        (_, Shape::InfinitePlane, Some(b), _) => {
            against_plane(out, pose_follower, &posed(b, pose_base), false)
        }
        (_, _, Some(b), Some(f)) => {
            face_against_face(out, &posed(b, pose_base), &posed(f, pose_follower), shift)
        }
        _ => out.single(),
    }
    Ok(())
}

fn posed<'a>(shape: Faceted<'a>, pose: &Isometry3<f64>) -> PosedFaceted<'a> {
    PosedFaceted {
        shape,
        rotation: pose.rotation.to_rotation_matrix().into_inner(),
        translation: pose.translation.vector,
    }
}

/// A faceted body against an infinite plane (the reference, contact on its +z side).
fn against_plane(
    out: &mut ContactManifold,
    plane: &Isometry3<f64>,
    body: &PosedFaceted,
    plane_is_base: bool,
) {
    let n_ref: Vector3<f64> = plane.rotation * Vector3::z();
    let o_ref = plane.translation.vector;
    out.normal = Unit::new_unchecked(if plane_is_base { n_ref } else { -n_ref });
    out.reference.clear();
    present_incident(out, body, &n_ref, &o_ref);
    out.side = if plane_is_base {
        ReferenceSide::Base
    } else {
        ReferenceSide::Follower
    };
    if out.points.is_empty() {
        out.single();
    }
}

/// The incident body's polygon(s), clipped by the sides of `out.reference` (none for a plane),
/// turned into points: one polygon for a rim, the blended faces for a polytope.
fn present_incident(
    out: &mut ContactManifold,
    incident: &PosedFaceted,
    n_ref: &Vector3<f64>,
    o_ref: &Vector3<f64>,
) {
    out.points.clear();
    out.kind = ManifoldKind::Polygon;
    // A polytope presents its blended faces (those outside the band weigh 0 and present
    // nothing); a cylinder or disk its rims, as one polygon, or as two blended ones (samples fixed
    // on the body and samples from the deepest direction) while its deeper rim lies wholly below
    // the plane and nearly level (see `PosedFaceted::rim_body_weight`).
    let mut faces = [(FaceId::Cap(1.0), 0.0); MAX_BLENDED_FACES];
    let count = incident.incident_faces(n_ref, &mut faces);
    let on_body = if count == 0 {
        incident.rim_body_weight(n_ref, o_ref)
    } else {
        0.0
    };
    let rims = [
        (None, RimAnchor::Body, on_body),
        (None, RimAnchor::Deepest, 1.0 - on_body),
    ];
    let polytope_faces = faces[..count]
        .iter()
        .map(|&(f, w)| (Some(f), RimAnchor::Deepest, w));
    let presented = rims
        .into_iter()
        .take(if count == 0 { 2 } else { 0 })
        .chain(polytope_faces)
        .filter(|f| f.2 > 0.0);
    for (face, anchor, weight) in presented {
        let mut polygon = std::mem::take(&mut out.polygon);
        incident.incident_polygon(face, anchor, n_ref, o_ref, &mut polygon);
        out.polygon = polygon;
        clip_by_reference_sides(out, n_ref);
        append_points(out, n_ref, o_ref, weight);
    }
}

/// Clips `out.polygon` by the side planes of the reference face `out.reference` (counter-clockwise
/// seen along `n_ref`; edge × normal points out of it).
fn clip_by_reference_sides(out: &mut ContactManifold, n_ref: &Vector3<f64>) {
    let sides = out.reference.len();
    for i in 0..sides {
        let a = out.reference[i].position;
        let b = out.reference[(i + 1) % sides].position;
        let Some(normal) = (b - a).cross(n_ref).try_normalize(0.0) else {
            continue;
        };
        let plane = ClipPlane {
            normal,
            offset: normal.dot(&a),
        };
        clip(&out.polygon, &plane, 1.0, &mut out.clipped);
        std::mem::swap(&mut out.polygon, &mut out.clipped);
    }
}

/// Two faceted bodies: reference face, incident polygon, clipping.
/// `shift`: the follower's speculative shift (see [`contact_manifold_shifted_with`]), if any.
fn face_against_face(
    out: &mut ContactManifold,
    base: &PosedFaceted,
    follower: &PosedFaceted,
    shift: Option<&Vector3<f64>>,
) {
    let n: Vector3<f64> = out.closest.normal.into_inner();
    let (align_base, face_base) = base.best_face(&n);
    let (align_follower, face_follower) = follower.best_face(&-n);
    if align_base.max(align_follower) < FACE_ALIGNMENT_ANGLE.cos() {
        out.single();
        return;
    }
    let cos_limit = FACE_ALIGNMENT_ANGLE.cos();
    let base_is_reference = if align_base < cos_limit {
        false
    } else if align_follower < cos_limit {
        true
    } else {
        let mut follower_depth = base.depth_below_face(face_base, follower);
        let mut base_depth = follower.depth_below_face(face_follower, base);
        let mut least = f64::NEG_INFINITY;
        if let Some(d) = shift {
            // Moving the follower by d deepens it below the base's face by −n_B·d and the base
            // below the follower's face by n_F·d.
            follower_depth += base.face_normal(face_base).dot(d);
            base_depth -= follower.face_normal(face_follower).dot(d);
            least = SPECULATIVE_REFERENCE_DEPTH;
        }
        // (A NaN depth keeps the base as the reference.)
        let follower_is_reference =
            base_depth < REFERENCE_DEPTH_RATIO * follower_depth && follower_depth > least;
        !follower_is_reference
    };
    let (reference, face, incident) = if base_is_reference {
        (base, face_base, follower)
    } else {
        (follower, face_follower, base)
    };
    let n_ref = reference.face_normal(face);
    let mut ref_polygon = std::mem::take(&mut out.reference);
    reference.face_polygon(face, &mut ref_polygon);
    let o_ref = ref_polygon
        .first()
        .map_or(reference.translation, |v| v.position);
    out.reference = ref_polygon;
    out.normal = Unit::new_unchecked(if base_is_reference { n_ref } else { -n_ref });
    present_incident(out, incident, &n_ref, &o_ref);
    out.side = if base_is_reference {
        ReferenceSide::Base
    } else {
        ReferenceSide::Follower
    };
    if out.points.is_empty() {
        out.single();
    }
}

/// Appends the points of the (side-clipped) `out.polygon`: the boundary shares of the whole
/// polygon, normalised to sum to `weight`, and the vertices that lie below the reference plane
/// (`n_ref`, through `o_ref`) with their depths.
fn append_points(
    out: &mut ContactManifold,
    n_ref: &Vector3<f64>,
    o_ref: &Vector3<f64>,
    weight: f64,
) {
    boundary_shares(&out.polygon, &mut out.shares);
    let total: f64 = out.shares.iter().sum();
    let level = n_ref.dot(o_ref);
    // A rim sample presses with its rim's deepest depth only while that depth is really there:
    // once the reference face's side has cut the deepest point away (a cylinder rolling off a
    // table's edge), no point presses deeper than the deepest vertex left after clipping.
    let deepest_left = out
        .polygon
        .iter()
        .fold(0.0f64, |m, v| m.max(level - n_ref.dot(&v.position)));
    let first = out.points.len();
    for (vertex, share) in out.polygon.iter().zip(&out.shares) {
        let p = vertex.position;
        let depth = level - n_ref.dot(&p);
        let effective_depth = (depth + vertex.relief).min(deepest_left);
        if effective_depth <= 0.0 {
            continue;
        }
        let depth = depth.max(0.0);
        let share = weight * share / total;
        let half_depth = n_ref * (0.5 * depth);
        let here = p + half_depth;
        // A vertex at the place of the previous one (the two ends of a rim arc that has gone
        // wholly under), or of a vertex of an earlier blended face (the edge two faces share),
        // is one point: it adds its share there.
        let coincident =
            |q: &ManifoldPoint| (q.point.coords - here).norm_squared() <= COINCIDENT * COINCIDENT;
        let earlier = out.points[..first].iter().position(coincident);
        let previous = (out.points.len() > first)
            .then(|| out.points.len() - 1)
            .filter(|&i| coincident(&out.points[i]));
        if let Some(i) = earlier.or(previous) {
            out.points[i].share += share;
            continue;
        }
        if out.points.len() < out.points.capacity() {
            out.points.push(ManifoldPoint {
                point: Point3::from(here),
                depth,
                effective_depth,
                share,
                velocity_point: Point3::from(vertex.anchor + half_depth),
            });
        }
    }
    // The loop's last and first vertices can coincide too.
    let n = out.points.len();
    if n > first + 1 {
        let (head, tail) = (out.points[first].point, out.points[n - 1].point);
        if (head - tail).norm_squared() <= COINCIDENT * COINCIDENT {
            let share = out.points[n - 1].share;
            out.points[first].share += share;
            out.points.truncate(n - 1);
        }
    }
}

/// Distance (m) below which two consecutive manifold points are one (round-off of cos/sin at ±π
/// puts the two ends of a whole rim about 1e-17 m apart).
const COINCIDENT: f64 = 1e-12;

#[cfg(test)]
mod rim_tests;
#[cfg(test)]
mod tests;
