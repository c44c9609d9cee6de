//! The flat faces of a triangulated convex hull: coplanar triangles merged into polygons.
//!
//! A hull built from the eight corners of a cube has twelve triangles but six faces. Contact
//! manifolds clip whole faces (a box resting face-down must touch with its four corners, not with
//! one of two triangles chosen by round-off), so the hull's triangles are merged into polygons
//! once, when the shape is built.
//!
//! Two triangles that share an edge belong to one face when their outward unit normals differ by
//! less than [`COPLANAR_ANGLE`] (rad). A face's boundary is the chain of its triangles' edges that
//! no other triangle of the face shares, ordered counter-clockwise seen from outside (the
//! triangles' own winding). The face normal is the area-weighted mean of its triangles' normals.

#[cfg(test)]
use nalgebra::Point3;
use nalgebra::Vector3;

use super::edge_map::{edge_map, EdgeMap};
use super::hull::{HullMesh, COPLANAR_ANGLE};

/// One flat face of a convex hull, in the hull's frame R.
#[derive(Debug, Clone, PartialEq)]
pub struct HullFace {
    /// Outward unit normal (R).
    pub normal: Vector3<f64>,
    /// Boundary vertices (indices into the hull's vertices), counter-clockwise seen from outside.
    pub vertices: Vec<usize>,
}

/// The flat faces of `mesh` (every triangle belongs to exactly one face).
pub fn planar_faces(mesh: &HullMesh) -> Vec<HullFace> {
    let tris = &mesh.triangles;
    let verts = &mesh.vertices;
    let area_normal = |t: &[usize; 3]| -> Vector3<f64> {
        let (a, b, c) = (verts[t[0]], verts[t[1]], verts[t[2]]);
        (b - a).cross(&(c - a))
    };
    let unit: Vec<Vector3<f64>> = tris
        .iter()
        .map(|t| {
            area_normal(t)
                .try_normalize(0.0)
                .unwrap_or_else(Vector3::zeros)
        })
        .collect();
    // Directed edge → triangle.
    let mut edge_owner: EdgeMap<usize> = edge_map(3 * tris.len());
    for (ti, t) in tris.iter().enumerate() {
        for k in 0..3 {
            edge_owner.insert((t[k], t[(k + 1) % 3]), ti);
        }
    }
    let cos_limit = COPLANAR_ANGLE.cos();
    let mut face_of = vec![usize::MAX; tris.len()];
    let mut faces = Vec::new();
    for seed in 0..tris.len() {
        if face_of[seed] != usize::MAX {
            continue;
        }
        let face_index = faces.len();
        let mut members = vec![seed];
        face_of[seed] = face_index;
        let mut cursor = 0;
        while cursor < members.len() {
            let ti = members[cursor];
            cursor += 1;
            let t = tris[ti];
            for k in 0..3 {
                let Some(&nb) = edge_owner.get(&(t[(k + 1) % 3], t[k])) else {
                    continue;
                };
                if face_of[nb] == usize::MAX && unit[nb].dot(&unit[seed]) >= cos_limit {
                    face_of[nb] = face_index;
                    members.push(nb);
                }
            }
        }
        let normal = members
            .iter()
            .map(|&ti| area_normal(&tris[ti]))
            .sum::<Vector3<f64>>()
            .try_normalize(0.0)
            .unwrap_or(unit[seed]);
        faces.push(HullFace {
            normal,
            vertices: boundary_loop(tris, &members, &face_of, face_index, &edge_owner),
        });
    }
    faces
}

/// The boundary of the triangles `members` (all of face `face_index`), as one counter-clockwise
/// loop of vertex indices.
fn boundary_loop(
    tris: &[[usize; 3]],
    members: &[usize],
    face_of: &[usize],
    face_index: usize,
    edge_owner: &EdgeMap<usize>,
) -> Vec<usize> {
    // Boundary edges (from, to), sorted by `from`: the neighbour across the edge is in another
    // face.
    let mut next: Vec<(usize, usize)> = Vec::new();
    for &ti in members {
        let t = tris[ti];
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let inside = edge_owner
                .get(&(b, a))
                .is_some_and(|&nb| face_of[nb] == face_index);
            if !inside {
                next.push((a, b));
            }
        }
    }
    // Stable: of two edges from one vertex (never on a proper hull) the later is kept.
    next.sort_by_key(|&(a, _)| a);
    let mut unique: Vec<(usize, usize)> = Vec::with_capacity(next.len());
    for e in next {
        match unique.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => unique.push(e),
        }
    }
    let next = unique;
    let Some(&(start, _)) = next.first() else {
        return Vec::new();
    };
    let after = |at: usize| {
        next.binary_search_by_key(&at, |&(a, _)| a)
            .ok()
            .map(|i| next[i].1)
    };
    let mut loop_vertices = vec![start];
    let mut at = start;
    while let Some(b) = after(at) {
        if b == start || loop_vertices.len() > next.len() {
            break;
        }
        loop_vertices.push(b);
        at = b;
    }
    loop_vertices
}

/// The largest number of boundary vertices of any face.
pub fn max_face_vertices(faces: &[HullFace]) -> usize {
    faces.iter().map(|f| f.vertices.len()).max().unwrap_or(0)
}

/// Centroid of a face's boundary vertices (R), for the tests.
#[cfg(test)]
pub fn face_centroid(face: &HullFace, vertices: &[Point3<f64>]) -> Point3<f64> {
    let sum: Vector3<f64> = face.vertices.iter().map(|&i| vertices[i].coords).sum();
    Point3::from(sum / face.vertices.len().max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hull::convex_hull;

    fn cube(rotation: nalgebra::Rotation3<f64>) -> Vec<Point3<f64>> {
        let mut pts = Vec::new();
        for x in [-1.0, 1.0] {
            for y in [-1.0, 1.0] {
                for z in [-1.0, 1.0] {
                    pts.push(rotation * Point3::new(x, y, z));
                }
            }
        }
        pts
    }

    #[test]
    fn a_cube_has_six_square_faces() {
        let r = nalgebra::Rotation3::from_axis_angle(&Vector3::y_axis(), 0.3);
        let mesh = convex_hull(&cube(r)).unwrap();
        let faces = planar_faces(&mesh);
        assert_eq!(faces.len(), 6);
        for f in &faces {
            assert_eq!(f.vertices.len(), 4, "{f:?}");
            // Counter-clockwise seen from outside: consecutive edges turn about +normal.
            let v = |k: usize| mesh.vertices[f.vertices[k % 4]];
            for k in 0..4 {
                let turn = (v(k + 1) - v(k)).cross(&(v(k + 2) - v(k + 1)));
                assert!(turn.dot(&f.normal) > 0.0);
            }
            // The face's plane is at distance 1 from the centre.
            let c = face_centroid(f, &mesh.vertices);
            assert!((c.coords.dot(&f.normal) - 1.0).abs() < 1e-12);
        }
        assert_eq!(max_face_vertices(&faces), 4);
    }

    #[test]
    fn a_prism_has_two_polygon_caps_and_quad_sides() {
        let n = 12;
        let mut pts = Vec::new();
        for k in 0..n {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            for z in [-0.5, 0.5] {
                pts.push(Point3::new(a.cos(), a.sin(), z));
            }
        }
        let faces = planar_faces(&convex_hull(&pts).unwrap());
        assert_eq!(faces.len(), n + 2);
        let caps = faces.iter().filter(|f| f.normal.z.abs() > 0.999).count();
        assert_eq!(caps, 2);
        assert_eq!(max_face_vertices(&faces), n);
    }
}
