//! The result of a contact query.

use nalgebra::{Matrix3, Point3, Rotation3, Unit, Vector3};

/// Where and how far apart two geometries are, in the WORLD frame.
///
/// Conventions (the seed's contact frame):
/// - `normal` is the z axis of the contact frame: the OUTWARD normal of the BASE geometry, pointing
///   from the base into the follower. The follower's inward normal is the same vector.
/// - `separation` is the signed distance along `normal` (m): positive when apart (the minimum
///   distance between the geometries), negative when penetrating (minus the penetration depth).
/// - `point` is the contact point (m, world): midway between the two witness points, i.e. the
///   closest (or deepest) point of the base, `point − separation/2 · normal`, and that of the
///   follower, `point + separation/2 · normal`. When the geometries just touch, the three coincide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactGeometry {
    /// Signed distance (m); negative = penetration depth.
    pub separation: f64,
    /// Contact point in the world (m), midway between the witness points.
    pub point: Point3<f64>,
    /// Unit normal in the world: outward from the base, into the follower.
    pub normal: Unit<Vector3<f64>>,
}

impl ContactGeometry {
    /// Nothing near: infinite separation (a placeholder before a query).
    pub fn apart() -> Self {
        ContactGeometry {
            separation: f64::INFINITY,
            point: Point3::origin(),
            normal: Vector3::z_axis(),
        }
    }

    /// From witness points on the base and the follower and the base-to-follower unit normal.
    #[inline]
    pub(crate) fn from_witnesses(
        on_base: Vector3<f64>,
        on_follower: Vector3<f64>,
        normal: Vector3<f64>,
        separation: f64,
    ) -> Self {
        ContactGeometry {
            separation,
            point: Point3::from((on_base + on_follower) * 0.5),
            normal: Unit::new_unchecked(normal),
        }
    }
    /// The same contact seen with base and follower exchanged (normal reversed).
    #[inline]
    pub fn swapped(&self) -> Self {
        ContactGeometry {
            separation: self.separation,
            point: self.point,
            normal: -self.normal,
        }
    }
    /// Penetration depth (m): `max(0, −separation)`.
    #[inline]
    pub fn penetration_depth(&self) -> f64 {
        (-self.separation).max(0.0)
    }
    /// Witness point on the base geometry (world, m): `point − separation/2 · normal`.
    #[inline]
    pub fn witness_base(&self) -> Point3<f64> {
        self.point - self.normal.into_inner() * (0.5 * self.separation)
    }
    /// Witness point on the follower geometry (world, m): `point + separation/2 · normal`.
    #[inline]
    pub fn witness_follower(&self) -> Point3<f64> {
        self.point + self.normal.into_inner() * (0.5 * self.separation)
    }
    /// The contact frame's orientation in the world: a rotation whose z column is `normal`.
    ///
    /// The x and y axes are Duff et al.'s branch-free orthonormal basis ("Building an Orthonormal
    /// Basis, Revisited", JCGT 2017): with `s = sign(n_z)` (+1 for n_z = 0),
    /// `a = −1/(s + n_z)`, `b = n_x n_y a`,
    /// `x = (1 + s n_x² a, s b, −s n_x)`, `y = (b, s + n_y² a, −n_y)`.
    /// It is a smooth function of the normal except across n_z = 0, where it flips; for the world
    /// normal `+z` it is the identity.
    pub fn frame_rotation(&self) -> Rotation3<f64> {
        let n = self.normal.into_inner();
        let s = if n.z >= 0.0 { 1.0 } else { -1.0 };
        let a = -1.0 / (s + n.z);
        let b = n.x * n.y * a;
        let x = Vector3::new(1.0 + s * n.x * n.x * a, s * b, -s * n.x);
        let y = Vector3::new(b, s + n.y * n.y * a, -n.y);
        Rotation3::from_matrix_unchecked(Matrix3::from_columns(&[x, y, n]))
    }
}
