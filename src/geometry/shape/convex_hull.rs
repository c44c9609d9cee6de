//! The convex hull of a user-given point set, as a support-mapped polytope.

use nalgebra::{Point3, Vector3};

use super::validate::finite_points;
use crate::geometry::hull::{convex_hull, HullMesh};
use crate::geometry::hull_faces::{planar_faces, HullFace};
use crate::geometry::GeometryError;

/// The convex hull of points given in R (m). Only the hull's vertices are kept; the triangulated
/// surface is kept for mass properties.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    mesh: HullMesh,
    /// The flat faces (coplanar triangles merged), for contact manifolds.
    faces: Vec<HullFace>,
}

impl ConvexHull {
    /// The hull of `points` (finite; at least 4 of them not coplanar). Interior points and
    /// repetitions are allowed and dropped.
    pub fn new(points: &[[f64; 3]]) -> Result<Self, GeometryError> {
        finite_points("convex hull", points)?;
        let pts: Vec<Point3<f64>> = points
            .iter()
            .map(|p| Point3::new(p[0], p[1], p[2]))
            .collect();
        let mesh = convex_hull(&pts)?;
        let faces = planar_faces(&mesh);
        Ok(Self { mesh, faces })
    }
    /// The hull's vertices in R (m).
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.mesh.vertices
    }
    /// The hull's triangulated surface (outward, counter-clockwise seen from outside).
    pub fn mesh(&self) -> &HullMesh {
        &self.mesh
    }
    /// The hull's flat faces (coplanar triangles merged into polygons).
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }
    /// Support point in R: the vertex maximising `d·v` (the first one on ties).
    #[inline]
    pub fn support(&self, d: &Vector3<f64>) -> Point3<f64> {
        let mut best = self.mesh.vertices[0];
        let mut best_value = d.dot(&best.coords);
        for v in &self.mesh.vertices[1..] {
            let value = d.dot(&v.coords);
            if value > best_value {
                best_value = value;
                best = *v;
            }
        }
        best
    }
}
