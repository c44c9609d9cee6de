//! Contact geometries without mass, fixed in their frame R (port `G` to a contact block).

use super::{rows, Shape};
use crate::builder::{BlockSpec, ParamValue};

/// Disk: a flat disk in R's x-y plane, centred on R's origin, normal +z.
#[derive(Clone, Debug, PartialEq)]
pub struct Disk {
    spec: BlockSpec,
}

impl Disk {
    /// A disk of `radius` (m).
    pub fn new(radius: f64) -> Disk {
        Disk {
            spec: BlockSpec::of_type("Disk").param("radius", radius),
        }
    }
}

/// GridSurface: heights on a regular grid in R; contact on its +z side, inside the grid's x-y
/// extent.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSurface {
    spec: BlockSpec,
}

impl GridSurface {
    /// Heights `z[i][j]` (m) at (`x[i]`, `y[j]`) (m, each increasing): one row of `y.len()`
    /// heights per x.
    pub fn new<Row: AsRef<[f64]>>(x: &[f64], y: &[f64], z: &[Row]) -> GridSurface {
        let heights = z.iter().map(|row| row.as_ref().into()).collect();
        let spec = BlockSpec::of_type("GridSurface")
            .param("x", x)
            .param("y", y);
        GridSurface {
            spec: spec.param("z", ParamValue::Array(heights)),
        }
    }
}

/// CollisionGeometry: a shape fixed in R (centred on R's origin) for contact, with none of a
/// [`Solid`](super::Solid)'s mass.
#[derive(Clone, Debug, PartialEq)]
pub struct CollisionGeometry {
    spec: BlockSpec,
}

impl CollisionGeometry {
    /// The geometry of `shape`.
    pub fn new(shape: Shape) -> CollisionGeometry {
        CollisionGeometry {
            spec: BlockSpec::of_type("CollisionGeometry").param("geometry", shape.0),
        }
    }
}

/// Point: R's origin, as a contact geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    spec: BlockSpec,
}

impl Point {
    /// The point.
    pub fn new() -> Point {
        Point {
            spec: BlockSpec::of_type("Point"),
        }
    }
}

impl Default for Point {
    fn default() -> Self {
        Point::new()
    }
}

/// PointCloud: distinct points fixed in R, as a contact geometry (per-point contact outputs
/// follow their order).
#[derive(Clone, Debug, PartialEq)]
pub struct PointCloud {
    spec: BlockSpec,
}

impl PointCloud {
    /// The `points` (m, in R; no point repeated).
    pub fn new(points: &[[f64; 3]]) -> PointCloud {
        PointCloud {
            spec: BlockSpec::of_type("PointCloud").param("points", rows(points)),
        }
    }
}

into_spec!(Disk, GridSurface, CollisionGeometry, Point, PointCloud);
