//! Three-dimensional convex hull of a point set (Quickhull: incremental construction with
//! conflict lists), used by the convex-hull shape and its mass properties.
//!
//! The algorithm (Barber, Dobkin & Huhdanpaa, "The Quickhull algorithm for convex hulls", ACM
//! TOMS 22 (1996)): start from a tetrahedron of four extreme, non-coplanar points, and give every
//! other point to the face it lies farthest outside of (its *conflict list*); a point within the
//! tolerance `ε` of every face is inside and dropped. Then, while some face has points outside it,
//! take that face's farthest point `p`: the faces that see `p` (signed distance > ε) form a
//! connected cap, found by flood fill across shared edges from that face; the cap's boundary (the
//! horizon) is joined to `p` by new triangles, the cap is removed, and the points of the removed
//! faces are given to the new face they lie farthest outside of (or dropped). Each point is
//! compared with the few faces that replace its own, not with the whole hull, so the work is
//! O(n log n) for the usual inputs (a 200,000-vertex mesh takes a fraction of a second) where
//! comparing every point with every face was quadratic. ε is `1e-10` times the size of the point
//! set's bounding box, so the hull found contains every input point to within that distance.
//!
//! Coplanar input (the eight corners of a box, a regular polygon prism) is handled: a face that a
//! new point lies in the plane of is not visible, so the new triangles continue that plane; a
//! duplicate point is within ε of the hull and dropped.

use nalgebra::{Point3, Vector3};

use crate::geometry::GeometryError;

/// Relative tolerance of the visibility test (fraction of the bounding-box diagonal).
const RELATIVE_TOLERANCE: f64 = 1e-10;

/// Angle (rad) below which two adjacent hull triangles count as one flat face. Round-off in
/// user-given coordinates (a cube rotated by a computed angle) tilts coplanar triangles by about
/// 1e-15 rad; real facets of a tessellated curved body differ by degrees. The hull keeps only
/// the corners of such faces; [`planar_faces`](super::hull_faces::planar_faces) merges their
/// triangles with the same angle.
pub const COPLANAR_ANGLE: f64 = 1e-6;

/// A closed triangulated convex polyhedron.
#[derive(Debug, Clone, PartialEq)]
pub struct HullMesh {
    /// The hull's vertices (a subset of the input points, in input order), in the input's frame
    /// (m).
    pub vertices: Vec<Point3<f64>>,
    /// Triangles as indices into `vertices`, counter-clockwise seen from outside (so that
    /// `(b − a) × (c − a)` is the outward normal).
    pub triangles: Vec<[usize; 3]>,
}

/// No face (a neighbour not linked: only on input so degenerate that the horizon is not a loop).
const NONE: usize = usize::MAX;

struct Face {
    v: [usize; 3],
    /// The face across each edge `v[k] → v[k + 1]`.
    adj: [usize; 3],
    normal: Vector3<f64>, // unit, outward
    offset: f64,          // normal · x for x on the face
    alive: bool,
    /// The points not yet on the hull that lie farther than ε outside this face and were given
    /// to it (each point is in one face's list at most).
    outside: Vec<usize>,
    /// The last point addition that tested this face (its eye + 1; 0: none), and the result.
    tested_for: usize,
    sees: bool,
}

impl Face {
    fn new(points: &[Point3<f64>], v: [usize; 3]) -> Self {
        let (a, b, c) = (points[v[0]], points[v[1]], points[v[2]]);
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        // A sliver of zero area has no direction; it is never the farthest visible face and its
        // neighbours carry the geometry. Give it a zero normal so it is never "visible" by itself.
        let normal = if len > 0.0 { n / len } else { Vector3::zeros() };
        let centroid = (a.coords + b.coords + c.coords) / 3.0;
        Self {
            v,
            adj: [NONE; 3],
            normal,
            offset: normal.dot(&centroid),
            alive: true,
            outside: Vec::new(),
            tested_for: 0,
            sees: false,
        }
    }
    fn distance(&self, p: &Point3<f64>) -> f64 {
        self.normal.dot(&p.coords) - self.offset
    }
}

/// The hull under construction: its faces, each linked to its three neighbours (removed ones
/// kept, marked dead).
struct Builder<'p> {
    points: &'p [Point3<f64>],
    eps: f64,
    faces: Vec<Face>,
}

/// Computes the convex hull of `points` (each finite; at least 4 not all coplanar). Its
/// vertices are the polytope's corners only: a point that ended up inside a flat face or along an
/// edge (taken before the corners that cover it) is dropped.
pub fn convex_hull(points: &[Point3<f64>]) -> Result<HullMesh, GeometryError> {
    let mesh = hull_of(points)?;
    match corners_only(&mesh) {
        Some(corners) => hull_of(&corners),
        None => Ok(mesh),
    }
}

/// The vertices of `mesh` that are corners (their triangles lie in three planes or more), when
/// some are not; `None` when every vertex is a corner.
fn corners_only(mesh: &HullMesh) -> Option<Vec<Point3<f64>>> {
    let cos_limit = COPLANAR_ANGLE.cos();
    // Up to three distinct plane normals seen at each vertex.
    let mut planes: Vec<([Vector3<f64>; 3], usize)> =
        vec![([Vector3::zeros(); 3], 0); mesh.vertices.len()];
    for t in &mesh.triangles {
        let (a, b, c) = (
            mesh.vertices[t[0]],
            mesh.vertices[t[1]],
            mesh.vertices[t[2]],
        );
        let Some(n) = (b - a).cross(&(c - a)).try_normalize(0.0) else {
            continue;
        };
        for &v in t {
            let (seen, count) = &mut planes[v];
            if *count < 3 && seen[..*count].iter().all(|s| s.dot(&n) < cos_limit) {
                seen[*count] = n;
                *count += 1;
            }
        }
    }
    if planes.iter().all(|(_, count)| *count >= 3) {
        return None;
    }
    let corners = mesh
        .vertices
        .iter()
        .zip(&planes)
        .filter(|(_, (_, count))| *count >= 3)
        .map(|(p, _)| *p)
        .collect();
    Some(corners)
}

/// The hull of `points` by Quickhull (see the module docs), flat-face points included.
fn hull_of(points: &[Point3<f64>]) -> Result<HullMesh, GeometryError> {
    let n = points.len();
    if n < 4 {
        return Err(GeometryError::DegenerateHull {
            reason: format!("needs at least 4 points that are not coplanar, got {n}"),
        });
    }
    let (mut lo, mut hi) = (points[0].coords, points[0].coords);
    for p in points {
        lo = lo.inf(&p.coords);
        hi = hi.sup(&p.coords);
    }
    let scale = (hi - lo).norm();
    let eps = RELATIVE_TOLERANCE * scale;
    if scale == 0.0 {
        return Err(GeometryError::DegenerateHull {
            reason: format!("all {n} points are the same point"),
        });
    }
    let [a, b, c, d] = initial_tetrahedron(points, eps)?;
    let mut hull = Builder {
        points,
        eps,
        faces: Vec::with_capacity(64),
    };
    let first: Vec<usize> = [[a, b, c], [a, d, b], [b, d, c], [c, d, a]]
        .into_iter()
        .map(|tri| hull.add_face(tri))
        .collect();
    // The tetrahedron's neighbours: the face holding each edge reversed.
    for &f in &first {
        for k in 0..3 {
            let (x, y) = (hull.faces[f].v[k], hull.faces[f].v[(k + 1) % 3]);
            let twin = first
                .iter()
                .copied()
                .find(|&g| hull.slot_of(g, y, x).is_some());
            hull.faces[f].adj[k] = twin.unwrap_or(NONE);
        }
    }
    let others = (0..n).filter(|&i| i != a && i != b && i != c && i != d);
    hull.assign(others, &first);
    let mut pending: Vec<usize> = first;
    while let Some(fi) = pending.pop() {
        if hull.faces[fi].alive && !hull.faces[fi].outside.is_empty() {
            hull.add_farthest_point_of(fi, &mut pending);
        }
    }
    Ok(hull.mesh())
}

/// Four extreme points spanning a tetrahedron, ordered so that the first three face away from
/// the fourth; an error when the points are all on one line or in one plane.
fn initial_tetrahedron(points: &[Point3<f64>], eps: f64) -> Result<[usize; 4], GeometryError> {
    let n = points.len();
    let i0 = (0..n)
        .min_by(|&a, &b| points[a].x.total_cmp(&points[b].x))
        .unwrap_or(0);
    let i1 = argmax(n, |i| (points[i] - points[i0]).norm_squared());
    let axis = (points[i1] - points[i0]).normalize();
    let i2 = argmax(n, |i| {
        let d = points[i] - points[i0];
        (d - axis * d.dot(&axis)).norm_squared()
    });
    let d2 = points[i2] - points[i0];
    if (d2 - axis * d2.dot(&axis)).norm() <= eps {
        return Err(GeometryError::DegenerateHull {
            reason: format!("all {n} points lie on one line"),
        });
    }
    let plane_normal = axis.cross(&d2).normalize();
    let i3 = argmax(n, |i| plane_normal.dot(&(points[i] - points[i0])).abs());
    if plane_normal.dot(&(points[i3] - points[i0])).abs() <= eps {
        return Err(GeometryError::DegenerateHull {
            reason: format!("all {n} points lie in one plane"),
        });
    }
    Ok(if plane_normal.dot(&(points[i3] - points[i0])) > 0.0 {
        [i0, i2, i1, i3] // flipped so that (a, b, c) faces away from d
    } else {
        [i0, i1, i2, i3]
    })
}

impl Builder<'_> {
    fn add_face(&mut self, v: [usize; 3]) -> usize {
        self.faces.push(Face::new(self.points, v));
        self.faces.len() - 1
    }

    /// Which edge `k` of face `f` runs `from → to`.
    fn slot_of(&self, f: usize, from: usize, to: usize) -> Option<usize> {
        let v = self.faces[f].v;
        (0..3).find(|&k| v[k] == from && v[(k + 1) % 3] == to)
    }

    /// Gives each of `candidates` to the face of `faces` it lies farthest outside of (beyond ε);
    /// a point outside none of them is dropped.
    fn assign(&mut self, candidates: impl IntoIterator<Item = usize>, faces: &[usize]) {
        for pi in candidates {
            let p = &self.points[pi];
            let mut best = None;
            let mut best_distance = self.eps;
            for &fi in faces {
                let dist = self.faces[fi].distance(p);
                if dist > best_distance {
                    best_distance = dist;
                    best = Some(fi);
                }
            }
            if let Some(fi) = best {
                self.faces[fi].outside.push(pi);
            }
        }
    }

    /// Adds the point of face `start`'s conflict list farthest outside it: removes the faces it
    /// sees, joins their horizon to it, and hands their other points to the new faces (pushed to
    /// `pending`).
    fn add_farthest_point_of(&mut self, start: usize, pending: &mut Vec<usize>) {
        let face = &self.faces[start];
        let Some(&eye) = face.outside.iter().max_by(|&&a, &&b| {
            face.distance(&self.points[a])
                .total_cmp(&face.distance(&self.points[b]))
        }) else {
            return;
        };
        let p = self.points[eye];
        // Flood fill the visible cap; the horizon: its edges whose neighbour is not visible.
        // Each face is tested once per eye (`tested_for`).
        let stamp = eye + 1;
        self.faces[start].tested_for = stamp;
        self.faces[start].sees = true;
        let mut visible = vec![start];
        // Horizon edges (from, to) with the face beyond them.
        let mut horizon: Vec<(usize, usize, usize)> = Vec::new();
        let mut cursor = 0;
        while cursor < visible.len() {
            let Face { v, adj, .. } = self.faces[visible[cursor]];
            cursor += 1;
            for k in 0..3 {
                let (ea, eb, nb) = (v[k], v[(k + 1) % 3], adj[k]);
                // A missing or removed neighbour (only on input so degenerate that a horizon was
                // not a loop) is not crossed, as a missing edge was not.
                let Some(neighbour) = self.faces.get_mut(nb).filter(|f| f.alive) else {
                    continue;
                };
                if neighbour.tested_for != stamp {
                    neighbour.tested_for = stamp;
                    neighbour.sees = neighbour.distance(&p) > self.eps;
                    if neighbour.sees {
                        visible.push(nb);
                    }
                }
                if !neighbour.sees {
                    horizon.push((ea, eb, nb));
                }
            }
        }
        let mut orphans: Vec<usize> = Vec::new();
        for &fi in &visible {
            let f = &mut self.faces[fi];
            f.alive = false;
            orphans.extend(f.outside.drain(..).filter(|&q| q != eye));
        }
        let new_faces = self.cone(eye, &horizon);
        self.assign(orphans, &new_faces);
        pending.extend(new_faces);
    }

    /// Joins each horizon edge `(a, b)` (beyond it: face `nb`) to `eye` by a new face `[a, b,
    /// eye]`, linked to `nb` and to its two new neighbours; returns the new faces.
    fn cone(&mut self, eye: usize, horizon: &[(usize, usize, usize)]) -> Vec<usize> {
        // New face by the horizon vertex its horizon edge starts at.
        let mut by_start: Vec<(usize, usize)> = Vec::with_capacity(horizon.len());
        for &(a, b, nb) in horizon {
            let f = self.add_face([a, b, eye]);
            self.faces[f].adj[0] = nb;
            if let Some(k) = self.slot_of(nb, b, a) {
                self.faces[nb].adj[k] = f;
            }
            by_start.push((a, f));
        }
        by_start.sort_unstable();
        for &(_, f) in &by_start {
            // Edge b → eye is shared with the new face whose horizon edge starts at b.
            let b = self.faces[f].v[1];
            if let Ok(i) = by_start.binary_search_by_key(&b, |&(a, _)| a) {
                let g = by_start[i].1;
                self.faces[f].adj[1] = g;
                self.faces[g].adj[2] = f;
            }
        }
        by_start.into_iter().map(|(_, f)| f).collect()
    }

    /// The live faces as a mesh over the vertices they use, in input order.
    fn mesh(&self) -> HullMesh {
        let live = || self.faces.iter().filter(|f| f.alive);
        let mut used = vec![false; self.points.len()];
        for f in live() {
            for &i in &f.v {
                used[i] = true;
            }
        }
        let mut new_index = vec![usize::MAX; self.points.len()];
        let mut vertices = Vec::new();
        for (i, _) in used.iter().enumerate().filter(|(_, u)| **u) {
            new_index[i] = vertices.len();
            vertices.push(self.points[i]);
        }
        let triangles = live().map(|f| f.v.map(|i| new_index[i])).collect();
        HullMesh {
            vertices,
            triangles,
        }
    }
}

fn argmax(n: usize, key: impl Fn(usize) -> f64) -> usize {
    (0..n)
        .max_by(|&a, &b| key(a).total_cmp(&key(b)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube_points() -> Vec<Point3<f64>> {
        let mut pts = Vec::new();
        for &x in &[-1.0, 1.0] {
            for &y in &[-1.0, 1.0] {
                for &z in &[-1.0, 1.0] {
                    pts.push(Point3::new(x, y, z));
                }
            }
        }
        pts
    }

    /// Euler's formula for a closed triangulated sphere: V − E + F = 2 with E = 3F/2.
    fn assert_closed(mesh: &HullMesh) {
        let f = mesh.triangles.len();
        let v = mesh.vertices.len();
        assert_eq!(v + f / 2, f + 2, "V − E + F = 2 violated: V = {v}, F = {f}");
    }

    #[test]
    fn cube_with_interior_and_face_points() {
        let mut pts = cube_points();
        pts.push(Point3::new(0.0, 0.0, 0.0)); // interior
        pts.push(Point3::new(0.3, 0.2, 1.0)); // on a face
        pts.push(Point3::new(1.0, 1.0, 0.0)); // on an edge
        let mesh = convex_hull(&pts).unwrap();
        assert_closed(&mesh);
        // Every input point is inside or on every face plane.
        for t in &mesh.triangles {
            let (a, b, c) = (
                mesh.vertices[t[0]],
                mesh.vertices[t[1]],
                mesh.vertices[t[2]],
            );
            let n = (b - a).cross(&(c - a));
            for p in &pts {
                assert!(n.dot(&(p - a)) <= 1e-12, "point {p} outside a face");
            }
        }
    }

    /// Every point inside or on every face plane (to `tol`).
    fn assert_contains(mesh: &HullMesh, pts: &[Point3<f64>], tol: f64) {
        for t in &mesh.triangles {
            let (a, b, c) = (
                mesh.vertices[t[0]],
                mesh.vertices[t[1]],
                mesh.vertices[t[2]],
            );
            let n = (b - a).cross(&(c - a)).normalize();
            for p in pts {
                assert!(n.dot(&(p - a)) <= tol, "point {p} outside a face");
            }
        }
    }

    #[test]
    fn a_grid_with_duplicates_has_the_corners_only() {
        // 6 × 6 × 6 lattice points (many coplanar with each face, collinear with each edge),
        // every one given twice, in an order that visits the inside first.
        let mut pts = Vec::new();
        for round in 0..2 {
            for i in 0..216 {
                let k = (i * 97 + round) % 216;
                let (x, y, z) = (k % 6, (k / 6) % 6, k / 36);
                pts.push(Point3::new(x as f64, y as f64, z as f64) * 0.2);
            }
        }
        let mesh = convex_hull(&pts).unwrap();
        assert_closed(&mesh);
        assert_eq!(mesh.vertices.len(), 8, "{:?}", mesh.vertices);
        assert_contains(&mesh, &pts, 1e-12);
    }

    #[test]
    fn a_large_cloud_is_closed_and_contains_every_point() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let pts: Vec<_> = (0..20_000)
            .map(|_| Point3::new(next(), next(), next()))
            .collect();
        let mesh = convex_hull(&pts).unwrap();
        assert_closed(&mesh);
        assert_contains(&mesh, &pts, 1e-9);
    }

    #[test]
    fn coplanar_points_are_an_error() {
        let pts: Vec<_> = (0..6)
            .map(|i| Point3::new(i as f64, (i * i) as f64, 0.0))
            .collect();
        let err = convex_hull(&pts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "convex hull: all 6 points lie in one plane"
        );
    }

    #[test]
    fn random_like_points_on_sphere() {
        // Fibonacci sphere: every point is a hull vertex.
        let n = 200;
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let pts: Vec<_> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let th = golden * i as f64;
                Point3::new(r * th.cos(), r * th.sin(), z)
            })
            .collect();
        let mesh = convex_hull(&pts).unwrap();
        assert_eq!(mesh.vertices.len(), n);
        assert_closed(&mesh);
    }
}
