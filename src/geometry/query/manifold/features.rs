//! The flat features of the bounded shapes that have them (brick, convex hull, cylinder, disk),
//! posed in the world: their faces as reference polygons, and the polygon each presents to a
//! reference plane.
//!
//! - A brick's and a hull's faces are their own polygons (a hull's coplanar triangles merged, see
//!   [`crate::geometry::hull_faces`]).
//! - A cylinder's caps and a disk's two sides, used as a reference face, are regular
//!   [`CAP_SIDES`]-gons inscribed in the rim at fixed angles of the body. Their side planes are
//!   within `r·(1 − cos(π/16))` = 1.9 % of the radius of the true rim.
//! - Against a reference plane, a cylinder or a disk presents the part of each rim that lies below
//!   the plane, sampled exactly on the circle (see [`PosedFaceted::incident_polygon`]). A cylinder
//!   joins its two rims into one loop by its generator lines (boundary density 0).

use std::f64::consts::{PI, TAU};

use nalgebra::{Matrix3, Vector3};

use super::polygon::PolygonVertex;
use crate::geometry::shape::{Brick, ConvexHull, Cylinder, Disk, Shape};

/// Angle (rad) within which the incident faces of a polytope are blended (see
/// `PosedFaceted::incident_faces`).
pub const FACE_BLEND_ANGLE: f64 = 0.02;

/// The most incident faces blended at once.
pub const MAX_BLENDED_FACES: usize = 8;

/// Points sampled on each rim arc below a reference plane: the two ends and the deepest point
/// (odd, so that the middle sample is the deepest rim point; a whole rim gets 8 distinct points).
pub const ARC_SAMPLES: usize = 9;

/// Sides of the polygon that stands for a cylinder's cap or a disk used as a reference face.
pub const CAP_SIDES: usize = 16;

/// Tilt `|n − (n·a)a|` below which a rim counts as parallel to a reference plane: its deepest
/// direction is then undefined and the body's x axis is used (all rim points are at one depth to
/// within `r·1e-12`, so the choice does not change the forces).
const PARALLEL_RIM: f64 = 1e-12;

/// How much of a rim arc's depth profile counts as the rim's curvature (1) rather than as a tilt
/// of a flat face (0), from the arc's half-angle φ_c (rad).
///
/// A short arc (φ_c ≤ π/2: less than half the rim below the plane) is a curved edge pressing in:
/// a cylinder on its side, a coin on its rim. Its samples take the depth of the rim's deepest
/// point, so the edge presses as one point would (the law keeps its single-point meaning). A whole
/// rim below the plane is a flat face tilted a little: its samples keep their own depths, so a coin
/// lying nearly flat is pushed back to level like a box's face. Between, the weight falls from 1 to
/// 0 with the cubic smoothstep of (π − φ_c)/(π/2), continuous with its slope.
fn rim_curvature_weight(half_angle: f64) -> f64 {
    let x = ((PI - half_angle) / (0.5 * PI)).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// A bounded shape with flat faces or a flat rim.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Faceted<'a> {
    Brick(&'a Brick),
    Hull(&'a ConvexHull),
    Cylinder(&'a Cylinder),
    Disk(&'a Disk),
}

impl<'a> Faceted<'a> {
    /// The faceted view of a shape, if it has flat features.
    pub(crate) fn of(shape: &'a Shape) -> Option<Self> {
        Some(match shape {
            Shape::Brick(s) => Faceted::Brick(s),
            Shape::ConvexHull(s) => Faceted::Hull(s),
            Shape::Cylinder(s) => Faceted::Cylinder(s),
            Shape::Disk(s) => Faceted::Disk(s),
            _ => return None,
        })
    }

    /// The most vertices a face polygon of this shape has.
    pub(crate) fn max_face_vertices(&self) -> usize {
        match self {
            Faceted::Brick(_) => 4,
            Faceted::Hull(h) => crate::geometry::hull_faces::max_face_vertices(h.faces()),
            Faceted::Cylinder(_) | Faceted::Disk(_) => CAP_SIDES,
        }
    }

    /// The most vertices the polygon presented to a reference plane has.
    pub(crate) fn max_incident_vertices(&self) -> usize {
        match self {
            Faceted::Brick(_) | Faceted::Hull(_) => self.max_face_vertices(),
            Faceted::Cylinder(_) => 2 * ARC_SAMPLES,
            Faceted::Disk(_) => ARC_SAMPLES,
        }
    }
}

/// Identifies one flat face of a [`Faceted`] shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FaceId {
    /// The brick face with outward normal `sign·e_axis`.
    Brick { axis: usize, sign: f64 },
    /// Face `index` of a hull.
    Hull(usize),
    /// The cylinder cap (or disk side) with outward normal `sign·e_z`.
    Cap(f64),
}

/// A faceted shape at a pose: `x_world = rotation·x_R + translation`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PosedFaceted<'a> {
    pub(crate) shape: Faceted<'a>,
    pub(crate) rotation: Matrix3<f64>,
    pub(crate) translation: Vector3<f64>,
}

impl PosedFaceted<'_> {
    fn world_point(&self, local: &Vector3<f64>) -> Vector3<f64> {
        self.rotation * local + self.translation
    }

    /// The face whose outward normal is closest to the world unit direction `dir`, with the cosine
    /// of the angle between them.
    pub(crate) fn best_face(&self, dir: &Vector3<f64>) -> (f64, FaceId) {
        let d = self.rotation.tr_mul(dir);
        match self.shape {
            Faceted::Brick(_) => {
                let axis = d.iamax();
                let sign = if d[axis] >= 0.0 { 1.0 } else { -1.0 };
                (d[axis].abs(), FaceId::Brick { axis, sign })
            }
            Faceted::Hull(h) => {
                let mut best = (f64::NEG_INFINITY, 0);
                for (i, f) in h.faces().iter().enumerate() {
                    let c = f.normal.dot(&d);
                    if c > best.0 {
                        best = (c, i);
                    }
                }
                (best.0, FaceId::Hull(best.1))
            }
            Faceted::Cylinder(_) | Faceted::Disk(_) => {
                let sign = if d.z >= 0.0 { 1.0 } else { -1.0 };
                (d.z.abs(), FaceId::Cap(sign))
            }
        }
    }

    /// A face's outward unit normal (world).
    pub(crate) fn face_normal(&self, face: FaceId) -> Vector3<f64> {
        let local = match face {
            FaceId::Brick { axis, sign } => {
                let mut n = Vector3::zeros();
                n[axis] = sign;
                n
            }
            FaceId::Hull(i) => match self.shape {
                Faceted::Hull(h) => h.faces()[i].normal,
                _ => Vector3::z(),
            },
            FaceId::Cap(sign) => Vector3::new(0.0, 0.0, sign),
        };
        self.rotation * local
    }

    /// The plane offset `n·x` (m) of a face's points x (world), with n its outward normal.
    pub(crate) fn face_offset(&self, face: FaceId) -> f64 {
        let local = match (self.shape, face) {
            (Faceted::Brick(b), FaceId::Brick { axis, sign }) => {
                let mut p = Vector3::zeros();
                p[axis] = sign * b.half_size()[axis];
                p
            }
            (Faceted::Hull(h), FaceId::Hull(i)) => h.faces()[i]
                .vertices
                .first()
                .map_or(Vector3::zeros(), |&k| h.vertices()[k].coords),
            (_, FaceId::Cap(sign)) => Vector3::new(0.0, 0.0, self.rim(sign).1),
            _ => Vector3::zeros(),
        };
        self.face_normal(face).dot(&self.world_point(&local))
    }

    /// The support point (world) of the shape in the world direction `d`.
    pub(crate) fn support(&self, d: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation.tr_mul(d);
        let p = match self.shape {
            Faceted::Brick(b) => b.support(&local),
            Faceted::Hull(h) => h.support(&local),
            Faceted::Cylinder(c) => c.support(&local),
            Faceted::Disk(disk) => disk.support(&local),
        };
        self.world_point(&p.coords)
    }

    /// How deep `other` reaches below the plane of this shape's face `face` (m; negative when it
    /// lies wholly above): `offset − n·s_other(−n)`.
    pub(crate) fn depth_below_face(&self, face: FaceId, other: &PosedFaceted) -> f64 {
        let n = self.face_normal(face);
        self.face_offset(face) - n.dot(&other.support(&-n))
    }

    /// A face's boundary (world), counter-clockwise seen from outside, every edge of density 1,
    /// into `out` (cleared first).
    pub(crate) fn face_polygon(&self, face: FaceId, out: &mut Vec<PolygonVertex>) {
        out.clear();
        let mut push = |local: Vector3<f64>| {
            let position = self.world_point(&local);
            out.push(PolygonVertex {
                position,
                density: 1.0,
                relief: 0.0,
                anchor: position,
            })
        };
        match (self.shape, face) {
            (Faceted::Brick(b), FaceId::Brick { axis, sign }) => {
                let h = b.half_size();
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                // (u, v, axis) is right-handed: this order is counter-clockwise about +e_axis.
                let mut corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
                if sign < 0.0 {
                    corners.reverse();
                }
                for (su, sv) in corners {
                    let mut p = Vector3::zeros();
                    p[axis] = sign * h[axis];
                    p[u] = su * h[u];
                    p[v] = sv * h[v];
                    push(p);
                }
            }
            (Faceted::Hull(hull), FaceId::Hull(i)) => {
                for &k in &hull.faces()[i].vertices {
                    push(hull.vertices()[k].coords);
                }
            }
            (Faceted::Cylinder(_) | Faceted::Disk(_), FaceId::Cap(sign)) => {
                let (radius, z) = self.rim(sign);
                for j in 0..CAP_SIDES {
                    let angle = sign * TAU * j as f64 / CAP_SIDES as f64;
                    push(Vector3::new(radius * angle.cos(), radius * angle.sin(), z));
                }
            }
            _ => {}
        }
    }

    /// Radius and local z of the rim on side `sign` (a disk has one rim, at z = 0).
    fn rim(&self, sign: f64) -> (f64, f64) {
        match self.shape {
            Faceted::Cylinder(c) => (c.radius(), sign * 0.5 * c.length()),
            Faceted::Disk(d) => (d.radius(), 0.0),
            _ => (0.0, 0.0),
        }
    }

    /// The polygon this shape presents to a reference plane with outward unit normal `n_ref`
    /// (pointing from the reference body towards this one) through the world point `o_ref`, into
    /// `out` (cleared first).
    ///
    /// - Brick, hull: the face whose outward normal is closest to `−n_ref`.
    /// - Disk: its rim below the plane. With the depth of the rim's centre `d_c = n_ref·(o_ref − c)`
    ///   and the rim's tilt `t = |n_ref − (n_ref·a)a|` (a: the rim's axis), the rim point at angle
    ///   φ from the deepest direction `u = −(n_ref − (n_ref·a)a)/t` has depth `d_c + r·t·cos φ`;
    ///   the arc below the plane is |φ| ≤ φ_c with `cos φ_c = −d_c/(r·t)` (φ_c = π when the whole
    ///   rim is below, 0 when none is). [`ARC_SAMPLES`] points at `φ_k = φ_c(2k/(K−1) − 1)`: the
    ///   two ends are at depth 0 while the arc is partial, so points enter at zero depth, and
    ///   they meet (at the far side) when the whole rim goes under. The closing chord has density 1.
    /// - Cylinder: the arcs of both rims, joined into one loop by the generator lines at the arcs'
    ///   ends (density 0). A rim wholly above the plane collapses to its deepest point and is
    ///   clipped away later, so the loop keeps its layout in every pose.
    pub(crate) fn incident_polygon(
        &self,
        face: Option<FaceId>,
        anchor: RimAnchor,
        n_ref: &Vector3<f64>,
        o_ref: &Vector3<f64>,
        out: &mut Vec<PolygonVertex>,
    ) {
        match self.shape {
            Faceted::Brick(_) | Faceted::Hull(_) => {
                let face = face.unwrap_or_else(|| self.best_face(&-n_ref).1);
                self.face_polygon(face, out);
            }
            Faceted::Disk(_) => {
                out.clear();
                let arc = self.rim_arc(0.0, n_ref, o_ref);
                self.push_arc(&arc, anchor, false, 1.0, out);
            }
            Faceted::Cylinder(_) => {
                out.clear();
                // Only the deeper rim may be anchored on the body (see `rim_body_weight`).
                let (top, bottom) = if self.deeper_rim(n_ref) > 0.0 {
                    (anchor, RimAnchor::Deepest)
                } else {
                    (RimAnchor::Deepest, anchor)
                };
                let top_arc = self.rim_arc(1.0, n_ref, o_ref);
                self.push_arc(&top_arc, top, false, 0.0, out);
                let bottom_arc = self.rim_arc(-1.0, n_ref, o_ref);
                self.push_arc(&bottom_arc, bottom, true, 0.0, out);
            }
        }
    }

    /// The faces a polytope presents to a reference plane with normal `n_ref`, with their weights
    /// (summing to 1), into `out`; returns how many (0 for a cylinder or disk, which present their
    /// rims instead).
    ///
    /// The face turned most against `n_ref` has the weight 1 until another face comes within
    /// [`FACE_BLEND_ANGLE`] of the same alignment; then each face in that band weighs
    /// smoothstep(1 − (θ_f − θ_min)/FACE_BLEND_ANGLE) (θ_f its angle from −n_ref), normalised.
    /// A face enters the band with weight 0, so the manifold does not jump where the incident face
    /// changes, even when the two faces give the vertices they share different shares (a hexagonal
    /// prism tipping from its cap onto a side). At most [`MAX_BLENDED_FACES`] faces blend: the
    /// lightest are left out (only a finely faceted curved hull has more within the band).
    pub(crate) fn incident_faces(
        &self,
        n_ref: &Vector3<f64>,
        out: &mut [(FaceId, f64); MAX_BLENDED_FACES],
    ) -> usize {
        let d = self.rotation.tr_mul(&-n_ref);
        let mut count = 0;
        // Keep the MAX_BLENDED_FACES best aligned faces, ranked by the cosine (the angle is
        // taken only for those kept: acos is monotone).
        let mut consider = |face: FaceId, alignment: f64, count: &mut usize| {
            if *count < MAX_BLENDED_FACES {
                out[*count] = (face, alignment);
                *count += 1;
            } else if let Some(worst) = (0..MAX_BLENDED_FACES)
                .min_by(|&a, &b| out[a].1.total_cmp(&out[b].1))
                .filter(|&w| alignment > out[w].1)
            {
                out[worst] = (face, alignment);
            }
        };
        match self.shape {
            Faceted::Brick(_) => {
                for axis in 0..3 {
                    for sign in [1.0, -1.0] {
                        consider(FaceId::Brick { axis, sign }, sign * d[axis], &mut count);
                    }
                }
            }
            Faceted::Hull(h) => {
                for (i, f) in h.faces().iter().enumerate() {
                    consider(FaceId::Hull(i), f.normal.dot(&d), &mut count);
                }
            }
            Faceted::Cylinder(_) | Faceted::Disk(_) => return 0,
        }
        for f in out[..count].iter_mut() {
            f.1 = f.1.clamp(-1.0, 1.0).acos();
        }
        let smallest = out[..count].iter().fold(f64::INFINITY, |m, f| m.min(f.1));
        let mut total = 0.0;
        for f in out[..count].iter_mut() {
            let x = (1.0 - (f.1 - smallest) / FACE_BLEND_ANGLE).clamp(0.0, 1.0);
            f.1 = x * x * (3.0 - 2.0 * x);
            total += f.1;
        }
        for f in out[..count].iter_mut() {
            f.1 /= total;
        }
        count
    }

    /// The side (±1) of a cylinder's rim that reaches deeper below a plane with unit normal
    /// `n_ref`: the top rim (+1) when the body's z axis points into the plane or lies in it.
    fn deeper_rim(&self, n_ref: &Vector3<f64>) -> f64 {
        if n_ref.dot(&self.rotation.column(2)) <= 0.0 {
            1.0
        } else {
            -1.0
        }
    }

    /// The arc of the rim on side `sign` (0 for a disk's one rim) below the plane with unit
    /// normal `n_ref` through `o_ref` (see [`Self::incident_polygon`] for the geometry).
    fn rim_arc(&self, sign: f64, n_ref: &Vector3<f64>, o_ref: &Vector3<f64>) -> RimArc {
        let (radius, z) = self.rim(if sign == 0.0 { 1.0 } else { sign });
        let axis: Vector3<f64> = self.rotation.column(2).into_owned();
        let centre = self.world_point(&Vector3::new(0.0, 0.0, z));
        let in_plane = n_ref - axis * axis.dot(n_ref);
        let tilt = in_plane.norm();
        let deepest_direction = if tilt > PARALLEL_RIM {
            -in_plane / tilt
        } else {
            self.rotation.column(0).into_owned()
        };
        let centre_depth = n_ref.dot(&(o_ref - centre));
        let reach = radius * tilt;
        let half_angle = if reach <= PARALLEL_RIM * radius {
            if centre_depth > 0.0 {
                PI
            } else {
                0.0
            }
        } else {
            let c = -centre_depth / reach;
            if c <= -1.0 {
                PI
            } else if c >= 1.0 {
                0.0
            } else {
                c.acos()
            }
        };
        RimArc {
            radius,
            axis,
            centre,
            deepest_direction,
            centre_depth,
            reach,
            half_angle,
        }
    }

    /// How much of a cylinder's or disk's contact with the plane (`n_ref`, `o_ref`) is presented
    /// with its samples fixed on the body ([`RimAnchor::Body`]) rather than placed from the
    /// deepest direction ([`RimAnchor::Deepest`]): 1 while the deeper rim lies wholly below the
    /// plane and nearly level, 0 once it tilts enough for its high side to come near the plane
    /// (and for polytopes).
    ///
    /// Why: a whole rim below the plane is a flat face; the depth profile `d_c + r·t·cos φ` fixes
    /// the deepest direction only through the tilt t, which is round-off when the face lies level
    /// (a puck resting on a table: t ≈ 1e-12). Samples placed from that direction turned by up to
    /// π/8 from one evaluation to the next, and with them each sample's friction on a spinning,
    /// sliding face: the step size collapsed to 1e-8 s. Samples fixed on the body move with it
    /// continuously. An arc that is not whole must be sampled from its deepest direction (its ends
    /// at zero depth), so between `τ = r·t/d_c` = 1/2 and 1 (the high side reaching the plane) the two
    /// samplings are blended as two polygons of weights `w` and `1 − w` (the force is continuous
    /// in the pose; the points are not, which no fixed number of points can avoid).
    ///
    /// The deeper rim (larger `d_c`) is the one weighed; the rims change roles only with the axis
    /// parallel to the plane, where the weight is 0 unless the body is sunk by more than its radius.
    pub(crate) fn rim_body_weight(&self, n_ref: &Vector3<f64>, o_ref: &Vector3<f64>) -> f64 {
        let arc = match self.shape {
            Faceted::Disk(_) => self.rim_arc(0.0, n_ref, o_ref),
            Faceted::Cylinder(_) => self.rim_arc(self.deeper_rim(n_ref), n_ref, o_ref),
            Faceted::Brick(_) | Faceted::Hull(_) => return 0.0,
        };
        arc.body_weight()
    }

    /// Appends the [`ARC_SAMPLES`] samples of the rim arc `arc` below the plane (see
    /// [`Self::incident_polygon`]), in order of increasing φ (decreasing when `reverse`); the edge
    /// after the last one gets `last_density`. With [`RimAnchor::Body`] a rim lying wholly below
    /// the plane is sampled from the body's x axis instead of from its deepest direction (see
    /// [`Self::rim_body_weight`]; the caller anchors only the deeper rim so).
    fn push_arc(
        &self,
        arc: &RimArc,
        anchor: RimAnchor,
        reverse: bool,
        last_density: f64,
        out: &mut Vec<PolygonVertex>,
    ) {
        let on_body = anchor == RimAnchor::Body && arc.half_angle == PI;
        let u: Vector3<f64> = if on_body {
            self.rotation.column(0).into_owned()
        } else {
            arc.deepest_direction
        };
        let v = arc.axis.cross(&u);
        let (radius, centre, reach, half_angle) =
            (arc.radius, arc.centre, arc.reach, arc.half_angle);
        let curvature = rim_curvature_weight(half_angle);
        let deepest = centre + arc.deepest_direction * radius;
        let last = ARC_SAMPLES - 1;
        for i in 0..ARC_SAMPLES {
            let k = if reverse { last - i } else { i };
            let phi = half_angle * (2.0 * k as f64 / last as f64 - 1.0);
            let (s, c) = phi.sin_cos();
            let position = centre + (u * c + v * s) * radius;
            out.push(PolygonVertex {
                position,
                // A short arc spreads one curved contact: its samples move with the rim's deepest
                // point (no rolling resistance from the spread), blended like the depth.
                anchor: position + (deepest - position) * curvature,
                density: if i == last { last_density } else { 1.0 },
                // Below the rim's deepest point by r·t·(1 − cos φ): curvature, not tilt, while
                // the arc is short (see `rim_curvature_weight`). (A whole rim has curvature 0.)
                relief: curvature * reach * (1.0 - c),
            });
        }
    }
}

/// Where the samples of a rim lying wholly below a reference plane are placed (see
/// [`PosedFaceted::rim_body_weight`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RimAnchor {
    /// From the rim's deepest direction (every arc that is not whole is sampled so).
    Deepest,
    /// From the body's x axis, fixed on the body, while the rim is whole.
    Body,
}

/// One rim's circle and its arc below a reference plane (world).
struct RimArc {
    /// Radius (m).
    radius: f64,
    /// The rim's axis, the body's z axis (unit).
    axis: Vector3<f64>,
    /// The rim's centre (m).
    centre: Vector3<f64>,
    /// Unit direction in the rim's plane from the centre to its deepest point (the body's x axis
    /// when the rim is parallel to the plane).
    deepest_direction: Vector3<f64>,
    /// Depth of the centre below the plane, `d_c` (m).
    centre_depth: f64,
    /// How much deeper the deepest point is than the centre, `r·t` (m).
    reach: f64,
    /// Half-angle φ_c of the arc below the plane (rad; π for the whole rim).
    half_angle: f64,
}

impl RimArc {
    /// The weight of body-fixed sampling for this rim (see [`PosedFaceted::rim_body_weight`]):
    /// 1 − smoothstep((τ − 1/2)/(1/2)) with τ = r·t/d_c, 0 unless the rim is wholly below.
    fn body_weight(&self) -> f64 {
        if self.centre_depth <= 0.0 || self.half_angle < PI {
            return 0.0;
        }
        let tau = self.reach / self.centre_depth;
        let x = ((tau - BODY_ANCHOR_FROM) / (1.0 - BODY_ANCHOR_FROM)).clamp(0.0, 1.0);
        1.0 - x * x * (3.0 - 2.0 * x)
    }
}

/// The tilt ratio τ = r·t/d_c of a whole rim below which its samples are fixed on the body
/// (weight 1); the weight falls to 0 at τ = 1, where the high side reaches the plane.
const BODY_ANCHOR_FROM: f64 = 0.5;
