//! Bounded convex shapes placed in the world, seen through their support functions.

use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use crate::geometry::shape::{Brick, ConvexHull, Cylinder, Disk, Ellipsoid, Shape, Sphere};

/// A bounded convex shape: a solid, a disk or a point.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Convex<'a> {
    Sphere(&'a Sphere),
    Brick(&'a Brick),
    Cylinder(&'a Cylinder),
    Ellipsoid(&'a Ellipsoid),
    Hull(&'a ConvexHull),
    Disk(&'a Disk),
    Point,
}

impl<'a> Convex<'a> {
    /// The convex view of a shape, if it is bounded and convex.
    pub(crate) fn of(shape: &'a Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Convex::Sphere(s),
            Shape::Brick(s) => Convex::Brick(s),
            Shape::Cylinder(s) => Convex::Cylinder(s),
            Shape::Ellipsoid(s) => Convex::Ellipsoid(s),
            Shape::ConvexHull(s) => Convex::Hull(s),
            Shape::Disk(s) => Convex::Disk(s),
            Shape::Point => Convex::Point,
            Shape::InfinitePlane | Shape::GridSurface(_) | Shape::PointCloud(_) => return None,
        })
    }

    /// Support point in the shape's frame for a direction in that frame.
    #[inline]
    pub(crate) fn support_local(&self, d: &Vector3<f64>) -> Point3<f64> {
        match self {
            Convex::Sphere(s) => s.support(d),
            Convex::Brick(s) => s.support(d),
            Convex::Cylinder(s) => s.support(d),
            Convex::Ellipsoid(s) => s.support(d),
            Convex::Hull(s) => s.support(d),
            Convex::Disk(s) => s.support(d),
            Convex::Point => Point3::origin(),
        }
    }

    /// The shape as a core point plus a margin (the sphere: its centre and radius), if it is one.
    #[inline]
    pub(crate) fn sphere_radius(&self) -> Option<f64> {
        match self {
            Convex::Sphere(s) => Some(s.radius()),
            Convex::Point => Some(0.0),
            _ => None,
        }
    }
}

/// A convex shape at a pose: `x_world = rotation · x_R + translation`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Posed<'a> {
    pub(crate) shape: Convex<'a>,
    /// Rotation matrix of R in the world.
    pub(crate) rotation: Matrix3<f64>,
    /// Origin of R in the world (m).
    pub(crate) translation: Vector3<f64>,
}

impl<'a> Posed<'a> {
    pub(crate) fn new(shape: Convex<'a>, pose: &Isometry3<f64>) -> Self {
        Self {
            shape,
            rotation: pose.rotation.to_rotation_matrix().into_inner(),
            translation: pose.translation.vector,
        }
    }

    /// Support point in the world (m) for a world direction `d`: `R s(Rᵀ d) + t`.
    #[inline]
    pub(crate) fn support(&self, d: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation.tr_mul(d);
        self.rotation * self.shape.support_local(&local).coords + self.translation
    }

    /// The same pose with the shape replaced by a point at R's origin (the core of a sphere).
    pub(crate) fn core(&self) -> Posed<'a> {
        Posed {
            shape: Convex::Point,
            ..*self
        }
    }
}
