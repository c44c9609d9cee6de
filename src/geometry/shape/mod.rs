//! Shapes, each described in its own reference frame R (lengths in m).
//!
//! | shape | geometry in R | contact kind |
//! |---|---|---|
//! | [`Sphere`] | ball of radius r about the origin | convex hull of solid |
//! | [`Brick`] | box of edge lengths `size`, centred, edges along the axes | convex hull of solid |
//! | [`Cylinder`] | radius r, length L along z, centred | convex hull of solid |
//! | [`Ellipsoid`] | semi-axes `radii` along the axes, centred | convex hull of solid |
//! | [`ConvexHull`] | convex hull of given points | convex hull of solid |
//! | [`Disk`] | flat disk of radius r in the x-y plane, normal +z | disk |
//! | `InfinitePlane` | the x-y plane, outward normal +z, contact on the +z side | infinite plane |
//! | [`GridSurface`] | height field z(x, y), contact on the +z side | grid surface |
//! | `Point` | the origin | point |
//! | [`PointCloud`] | distinct points | point cloud |
//!
//! Solids are exported for contact as their convex hulls (the seed's "Convex Hull of Solid"); for
//! the sphere, cylinder and ellipsoid the hull is the exact smooth solid, used through its exact
//! support function.

mod convex_hull;
mod grid_surface;
mod point_cloud;
mod primitives;
pub(crate) mod validate;

/// The kind of a shape, declared below the shapes (the geometry error names it too).
pub use super::kind::ShapeKind;
pub use convex_hull::ConvexHull;
pub use grid_surface::{GridSample, GridSurface};
pub use point_cloud::PointCloud;
pub use primitives::{Brick, Cylinder, Disk, Ellipsoid, Sphere};

use nalgebra::{Point3, Vector3};

/// A geometry in its own reference frame R.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Solid sphere.
    Sphere(Sphere),
    /// Solid box.
    Brick(Brick),
    /// Solid circular cylinder.
    Cylinder(Cylinder),
    /// Solid ellipsoid.
    Ellipsoid(Ellipsoid),
    /// Convex hull of points.
    ConvexHull(ConvexHull),
    /// Flat disk in the x-y plane.
    Disk(Disk),
    /// The x-y plane, contact on its +z side.
    InfinitePlane,
    /// Height field, contact on its +z side.
    GridSurface(GridSurface),
    /// The origin of R.
    Point,
    /// Distinct points.
    PointCloud(PointCloud),
}

impl Shape {
    /// The contact kind of this shape.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Sphere(_)
            | Shape::Brick(_)
            | Shape::Cylinder(_)
            | Shape::Ellipsoid(_)
            | Shape::ConvexHull(_) => ShapeKind::ConvexHull,
            Shape::Disk(_) => ShapeKind::Disk,
            Shape::InfinitePlane => ShapeKind::InfinitePlane,
            Shape::GridSurface(_) => ShapeKind::GridSurface,
            Shape::Point => ShapeKind::Point,
            Shape::PointCloud(_) => ShapeKind::PointCloud,
        }
    }

    /// The support point in R for direction `d` (in R) of a bounded convex shape (solids, disk,
    /// point); `None` for the plane, grid surface and point cloud.
    pub fn support(&self, d: &Vector3<f64>) -> Option<Point3<f64>> {
        Some(match self {
            Shape::Sphere(s) => s.support(d),
            Shape::Brick(s) => s.support(d),
            Shape::Cylinder(s) => s.support(d),
            Shape::Ellipsoid(s) => s.support(d),
            Shape::ConvexHull(s) => s.support(d),
            Shape::Disk(s) => s.support(d),
            Shape::Point => Point3::origin(),
            Shape::InfinitePlane | Shape::GridSurface(_) | Shape::PointCloud(_) => return None,
        })
    }
}

/// Shorthand constructors returning [`Shape`].
impl Shape {
    /// [`Sphere::new`].
    pub fn sphere(radius: f64) -> Result<Shape, crate::geometry::GeometryError> {
        Sphere::new(radius).map(Shape::Sphere)
    }
    /// [`Brick::new`].
    pub fn brick(size: [f64; 3]) -> Result<Shape, crate::geometry::GeometryError> {
        Brick::new(size).map(Shape::Brick)
    }
    /// [`Cylinder::new`].
    pub fn cylinder(radius: f64, length: f64) -> Result<Shape, crate::geometry::GeometryError> {
        Cylinder::new(radius, length).map(Shape::Cylinder)
    }
    /// [`Ellipsoid::new`].
    pub fn ellipsoid(radii: [f64; 3]) -> Result<Shape, crate::geometry::GeometryError> {
        Ellipsoid::new(radii).map(Shape::Ellipsoid)
    }
    /// [`ConvexHull::new`].
    pub fn convex_hull(points: &[[f64; 3]]) -> Result<Shape, crate::geometry::GeometryError> {
        ConvexHull::new(points).map(Shape::ConvexHull)
    }
    /// [`Disk::new`].
    pub fn disk(radius: f64) -> Result<Shape, crate::geometry::GeometryError> {
        Disk::new(radius).map(Shape::Disk)
    }
    /// [`GridSurface::new`].
    pub fn grid_surface(
        x: &[f64],
        y: &[f64],
        z: &[Vec<f64>],
    ) -> Result<Shape, crate::geometry::GeometryError> {
        GridSurface::new(x, y, z).map(Shape::GridSurface)
    }
    /// [`PointCloud::new`].
    pub fn point_cloud(points: &[[f64; 3]]) -> Result<Shape, crate::geometry::GeometryError> {
        PointCloud::new(points).map(Shape::PointCloud)
    }
}
