//! Three-dimensional convex hull of a point set (incremental construction with conflict
//! search by flood fill), used by the convex-hull shape and its mass properties.
//!
//! The algorithm: start from a tetrahedron of four extreme, non-coplanar points; add each other
//! point `p` in turn: if `p` lies farther than the tolerance `ε` outside some face, the faces that
//! see `p` (signed distance > ε) form a connected cap, found by flood fill across shared edges
//! starting from the face farthest below `p`; the cap's boundary (the horizon) is joined to `p` by
//! new triangles and the cap is removed. Points within ε of the current hull are dropped; ε is
//! `1e-10` times the size of the point set's bounding box, so the hull found contains every input
//! point to within that distance.
//!
//! Coplanar input (the eight corners of a box, a regular polygon prism) is handled: a face that a
//! new point lies in the plane of is not visible, so the new triangles continue that plane.

use std::collections::HashMap;

use nalgebra::{Point3, Vector3};

use crate::geometry::GeometryError;

/// Relative tolerance of the visibility test (fraction of the bounding-box diagonal).
const RELATIVE_TOLERANCE: f64 = 1e-10;

/// A closed triangulated convex polyhedron.
#[derive(Debug, Clone, PartialEq)]
pub struct HullMesh {
    /// The hull's vertices (a subset of the input points), in the input's frame (m).
    pub vertices: Vec<Point3<f64>>,
    /// Triangles as indices into `vertices`, counter-clockwise seen from outside (so that
    /// `(b − a) × (c − a)` is the outward normal).
    pub triangles: Vec<[usize; 3]>,
}

struct Face {
    v: [usize; 3],
    normal: Vector3<f64>, // unit, outward
    offset: f64,          // normal · x for x on the face
    alive: bool,
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
            normal,
            offset: normal.dot(&centroid),
            alive: true,
        }
    }
    fn distance(&self, p: &Point3<f64>) -> f64 {
        self.normal.dot(&p.coords) - self.offset
    }
}

/// Computes the convex hull of `points` (each finite; at least 4 not all coplanar).
pub fn convex_hull(points: &[Point3<f64>]) -> Result<HullMesh, GeometryError> {
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

    // Initial tetrahedron from extreme points.
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

    let mut faces: Vec<Face> = Vec::with_capacity(4 * n);
    let mut edges: HashMap<(usize, usize), usize> = HashMap::with_capacity(12 * n);
    let (a, b, c, d) = if plane_normal.dot(&(points[i3] - points[i0])) > 0.0 {
        (i0, i2, i1, i3) // flip so that (a, b, c) faces away from d
    } else {
        (i0, i1, i2, i3)
    };
    for tri in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
        add_face(&mut faces, &mut edges, points, tri);
    }

    let mut stack: Vec<usize> = Vec::new();
    let mut visible: Vec<usize> = Vec::new();
    let mut is_visible: Vec<bool> = Vec::new();
    let mut horizon: Vec<(usize, usize)> = Vec::new();
    for (pi, p) in points.iter().enumerate() {
        if pi == i0 || pi == i1 || pi == i2 || pi == i3 {
            continue;
        }
        // Face farthest below p.
        let mut best = None;
        let mut best_distance = eps;
        for (fi, f) in faces.iter().enumerate() {
            if f.alive {
                let dist = f.distance(p);
                if dist > best_distance {
                    best_distance = dist;
                    best = Some(fi);
                }
            }
        }
        let Some(start) = best else { continue };

        // Flood fill the visible cap; collect the horizon (edges whose neighbour is not visible).
        is_visible.clear();
        is_visible.resize(faces.len(), false);
        visible.clear();
        horizon.clear();
        stack.clear();
        stack.push(start);
        is_visible[start] = true;
        while let Some(fi) = stack.pop() {
            visible.push(fi);
            let v = faces[fi].v;
            for k in 0..3 {
                let (ea, eb) = (v[k], v[(k + 1) % 3]);
                let Some(&nb) = edges.get(&(eb, ea)) else {
                    continue;
                };
                if is_visible[nb] {
                    continue;
                }
                if faces[nb].distance(p) > eps {
                    is_visible[nb] = true;
                    stack.push(nb);
                }
            }
        }
        for &fi in &visible {
            let v = faces[fi].v;
            for k in 0..3 {
                let (ea, eb) = (v[k], v[(k + 1) % 3]);
                if let Some(&nb) = edges.get(&(eb, ea)) {
                    if !is_visible[nb] {
                        horizon.push((ea, eb));
                    }
                }
            }
        }
        for &fi in &visible {
            faces[fi].alive = false;
            let v = faces[fi].v;
            for k in 0..3 {
                edges.remove(&(v[k], v[(k + 1) % 3]));
            }
        }
        for &(ea, eb) in &horizon {
            add_face(&mut faces, &mut edges, points, [ea, eb, pi]);
        }
    }

    // Compact: keep the used vertices in input order.
    let mut new_index = vec![usize::MAX; n];
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for f in faces.iter().filter(|f| f.alive) {
        let mut tri = [0; 3];
        for (slot, &old) in tri.iter_mut().zip(&f.v) {
            if new_index[old] == usize::MAX {
                new_index[old] = vertices.len();
                vertices.push(points[old]);
            }
            *slot = new_index[old];
        }
        triangles.push(tri);
    }
    Ok(HullMesh {
        vertices,
        triangles,
    })
}

fn argmax(n: usize, key: impl Fn(usize) -> f64) -> usize {
    (0..n)
        .max_by(|&a, &b| key(a).total_cmp(&key(b)))
        .unwrap_or(0)
}

fn add_face(
    faces: &mut Vec<Face>,
    edges: &mut HashMap<(usize, usize), usize>,
    points: &[Point3<f64>],
    v: [usize; 3],
) {
    let index = faces.len();
    faces.push(Face::new(points, v));
    for k in 0..3 {
        edges.insert((v[k], v[(k + 1) % 3]), index);
    }
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
