//! Geometry: shapes, mass properties of the true solid geometry, and contact queries.
//!
//! - [`shape`]: the shapes, each in its own reference frame R (m), validated on construction.
//! - [`mass_properties()`]: mass, centre of mass and central inertia of the solids (kg, m, kg·m²).
//! - [`query()`] (module [`mod@query`]): signed distance, contact point and normal of two posed geometries (world frame),
//!   for every pair the Spatial Contact Force supports.
//!
//! Everything here is a pure function of shapes and poses; nothing allocates on the query path.

mod edge_map;
mod error;
pub(crate) mod hull;
pub(crate) mod hull_faces;
pub(crate) mod kind;
pub(crate) mod mass_properties;
pub mod query;
pub mod shape;

pub use error::GeometryError;
pub use hull::HullMesh;
pub use hull_faces::HullFace;
pub use kind::{pair_supported, supported_partners, ShapeKind};
pub use mass_properties::{mass_properties, MassProperties};
pub use query::{
    query, query_point_cloud, query_point_cloud_with, query_with, ContactGeometry, QueryWorkspace,
};
pub use shape::{
    Brick, ConvexHull, Cylinder, Disk, Ellipsoid, GridSurface, PointCloud, Shape, Sphere,
};
