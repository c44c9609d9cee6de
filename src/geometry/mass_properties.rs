//! Mass properties of the TRUE solid geometry (not of a contact approximation), uniform density.
//!
//! All quantities are in the solid's reference frame R: mass (kg), centre of mass (m),
//! inertia tensor about the centre of mass (kg·m²), `I = ∫ρ (|r|²·1 − r rᵀ) dV`, r measured from
//! the centre of mass.
//!
//! Closed forms (m the mass):
//! - sphere of radius r: V = 4/3 π r³, I = 2/5 m r² · 1;
//! - brick a × b × c: V = abc, I = m/12 · diag(b² + c², a² + c², a² + b²);
//! - cylinder radius r, length L along z: V = π r² L, I = diag(m(3r² + L²)/12, same, m r²/2);
//! - ellipsoid semi-axes a, b, c: V = 4/3 π abc, I = m/5 · diag(b² + c², a² + c², a² + b²);
//! - convex hull: the hull's triangulated surface is split into tetrahedra (q, a, b, c) with apex
//!   q at the mean of the hull's vertices; with vertex vectors measured from q and
//!   `D = a·(b × c)` (six times the signed volume), each contributes
//!   volume D/6, first moment D/24·(a + b + c), second moment
//!   `∫ r rᵀ dV = D/120·(a aᵀ + b bᵀ + c cᵀ + s sᵀ)`, `s = a + b + c` (the standard result
//!   `V/20·(Σ pᵢpᵢᵀ + (Σ pᵢ)(Σ pᵢ)ᵀ)` for a tetrahedron with one vertex at the origin). Then
//!   `C_com = C − V c cᵀ` and `I = ρ (tr(C_com)·1 − C_com)`. These are exact for the polyhedron.

use std::f64::consts::PI;

use nalgebra::{Matrix3, Point3, Vector3};

use super::{GeometryError, Shape};

/// Mass, centre of mass and central inertia of a rigid body, all in its reference frame R.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties {
    /// Mass (kg).
    pub mass: f64,
    /// Centre of mass in R (m).
    pub com: Point3<f64>,
    /// Inertia tensor about the centre of mass, axes of R (kg·m²).
    pub inertia_about_com: Matrix3<f64>,
}

impl MassProperties {
    /// The same body scaled to `mass` (kg, positive and finite): the density changes, the centre
    /// of mass stays, the inertia scales by `mass / self.mass`.
    pub fn scaled_to_mass(&self, mass: f64) -> Result<MassProperties, GeometryError> {
        if !(mass.is_finite() && mass > 0.0) {
            return Err(GeometryError::InvalidMass { value: mass });
        }
        let ratio = mass / self.mass;
        Ok(MassProperties {
            mass,
            com: self.com,
            inertia_about_com: self.inertia_about_com * ratio,
        })
    }
}

/// Mass properties of a solid `shape` of uniform `density` (kg/m³, positive and finite).
///
/// Errors: [`GeometryError::InvalidDensity`], and [`GeometryError::NotASolid`] for shapes without
/// volume (disk, plane, grid surface, point, point cloud).
pub fn mass_properties(shape: &Shape, density: f64) -> Result<MassProperties, GeometryError> {
    if !(density.is_finite() && density > 0.0) {
        return Err(GeometryError::InvalidDensity { value: density });
    }
    let centred = |mass: f64, diag: Vector3<f64>| MassProperties {
        mass,
        com: Point3::origin(),
        inertia_about_com: Matrix3::from_diagonal(&diag),
    };
    Ok(match shape {
        Shape::Sphere(s) => {
            let r = s.radius();
            let m = density * 4.0 / 3.0 * PI * r.powi(3);
            centred(m, Vector3::repeat(0.4 * m * r * r))
        }
        Shape::Brick(b) => {
            let s = b.size();
            let m = density * s.x * s.y * s.z;
            let (x2, y2, z2) = (s.x * s.x, s.y * s.y, s.z * s.z);
            centred(m, Vector3::new(y2 + z2, x2 + z2, x2 + y2) * (m / 12.0))
        }
        Shape::Cylinder(c) => {
            let (r, l) = (c.radius(), c.length());
            let m = density * PI * r * r * l;
            let transverse = m * (3.0 * r * r + l * l) / 12.0;
            centred(m, Vector3::new(transverse, transverse, 0.5 * m * r * r))
        }
        Shape::Ellipsoid(e) => {
            let a = e.radii();
            let m = density * 4.0 / 3.0 * PI * a.x * a.y * a.z;
            let (x2, y2, z2) = (a.x * a.x, a.y * a.y, a.z * a.z);
            centred(m, Vector3::new(y2 + z2, x2 + z2, x2 + y2) * (m / 5.0))
        }
        Shape::ConvexHull(h) => {
            polyhedron_mass_properties(&h.mesh().vertices, &h.mesh().triangles, density)
        }
        other => return Err(GeometryError::NotASolid { kind: other.kind() }),
    })
}

/// Mass properties of a closed, outward-oriented triangulated polyhedron (see the module docs).
fn polyhedron_mass_properties(
    vertices: &[Point3<f64>],
    triangles: &[[usize; 3]],
    density: f64,
) -> MassProperties {
    let apex = vertices
        .iter()
        .fold(Vector3::zeros(), |acc, v| acc + v.coords)
        / vertices.len() as f64;
    let mut volume = 0.0;
    let mut first = Vector3::zeros();
    let mut second = Matrix3::zeros();
    for t in triangles {
        let a = vertices[t[0]].coords - apex;
        let b = vertices[t[1]].coords - apex;
        let c = vertices[t[2]].coords - apex;
        let det = a.dot(&b.cross(&c));
        let s = a + b + c;
        volume += det / 6.0;
        first += s * (det / 24.0);
        second += (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose())
            * (det / 120.0);
    }
    let centroid = first / volume; // relative to apex
    let central = second - centroid * centroid.transpose() * volume;
    let inertia = (Matrix3::identity() * central.trace() - central) * density;
    MassProperties {
        mass: density * volume,
        com: Point3::from(apex + centroid),
        inertia_about_com: inertia,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_solids_and_bad_density_are_errors() {
        let e = mass_properties(&Shape::InfinitePlane, 1000.0).unwrap_err();
        assert_eq!(
            e,
            GeometryError::NotASolid {
                kind: crate::geometry::ShapeKind::InfinitePlane
            }
        );
        let s = Shape::sphere(1.0).unwrap();
        assert_eq!(
            mass_properties(&s, -1.0).unwrap_err(),
            GeometryError::InvalidDensity { value: -1.0 }
        );
        let mp = mass_properties(&s, 1.0).unwrap();
        assert!(mp.scaled_to_mass(0.0).is_err());
        let scaled = mp.scaled_to_mass(2.0).unwrap();
        // I = 2/5 m r² for the new mass.
        assert!((scaled.inertia_about_com[(0, 0)] - 0.8).abs() < 1e-15);
    }
}
