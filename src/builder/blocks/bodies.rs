//! Frames and bodies: the World, gravity, fixed transforms, solids and surfaces.

use super::rows;
use crate::blocks::multibody::kinds::SolidShape;
use crate::builder::{table, BlockSpec, ParamValue};

/// The World frame (port `W`).
#[derive(Clone, Debug, PartialEq)]
pub struct WorldFrame {
    spec: BlockSpec,
}

impl WorldFrame {
    /// The World frame.
    pub fn new() -> WorldFrame {
        WorldFrame {
            spec: BlockSpec::of_type("WorldFrame"),
        }
    }
}

impl Default for WorldFrame {
    fn default() -> Self {
        WorldFrame::new()
    }
}

/// The mechanism's settings: gravity.
#[derive(Clone, Debug, PartialEq)]
pub struct MechanismConfiguration {
    spec: BlockSpec,
}

impl MechanismConfiguration {
    /// Gravity, m/s², in World.
    pub fn new(gravity: [f64; 3]) -> MechanismConfiguration {
        let spec = BlockSpec::of_type("MechanismConfiguration").param("gravity", gravity);
        MechanismConfiguration { spec }
    }
}

/// RigidTransform: frame F fixed in frame B, at `translation` and rotated.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidTransform {
    spec: BlockSpec,
}

impl RigidTransform {
    /// F's origin at `translation` (m, in B), not rotated.
    pub fn new(translation: [f64; 3]) -> RigidTransform {
        RigidTransform {
            spec: BlockSpec::of_type("RigidTransform").param("translation", translation),
        }
    }
    /// F rotated by `angle` (rad) about `axis` (in B).
    pub fn rotation_axis_angle(mut self, axis: [f64; 3], angle: f64) -> Self {
        let rotation = table([("axis", axis.into()), ("angle", angle.into())]);
        self.spec = self.spec.param("rotation", rotation);
        self
    }
    /// F rotated by intrinsic rotations `angles` (rad) about the axes of `sequence` (`"xyz"`).
    pub fn rotation_sequence(mut self, sequence: &str, angles: [f64; 3]) -> Self {
        let rotation = table([("sequence", sequence.into()), ("angles", angles.into())]);
        self.spec = self.spec.param("rotation", rotation);
        self
    }
    /// F's orientation as the rotation matrix R_BF (rows).
    pub fn rotation_matrix(mut self, r_bf: [[f64; 3]; 3]) -> Self {
        self.spec = self
            .spec
            .param("rotation", table([("matrix", rows(&r_bf))]));
        self
    }
}

/// A solid's shape, in its reference frame R (centred on R's origin).
#[derive(Clone, Debug, PartialEq)]
pub struct Shape(pub(super) ParamValue);

impl Shape {
    /// A sphere of `radius` (m).
    pub fn sphere(radius: f64) -> Shape {
        Shape(table([
            ("shape", SolidShape::Sphere.name().into()),
            ("radius", radius.into()),
        ]))
    }
    /// A brick of full edge lengths `size` (m) along R's x, y, z.
    pub fn brick(size: [f64; 3]) -> Shape {
        Shape(table([
            ("shape", SolidShape::Brick.name().into()),
            ("size", size.into()),
        ]))
    }
    /// A cylinder of `radius` and `length` (m) along R's z.
    pub fn cylinder(radius: f64, length: f64) -> Shape {
        let entries = [
            ("shape", SolidShape::Cylinder.name().into()),
            ("radius", radius.into()),
            ("length", length.into()),
        ];
        Shape(table(entries))
    }
    /// An ellipsoid of semi-axes `radii` (m) along R's x, y, z.
    pub fn ellipsoid(radii: [f64; 3]) -> Shape {
        Shape(table([
            ("shape", SolidShape::Ellipsoid.name().into()),
            ("radii", radii.into()),
        ]))
    }
    /// The convex hull of `points` (m, in R).
    pub fn convex_hull(points: &[[f64; 3]]) -> Shape {
        Shape(table([
            ("shape", SolidShape::ConvexHull.name().into()),
            ("points", rows(points)),
        ]))
    }
}

/// Solid: a rigid body of a shape, its mass properties computed from the true geometry unless
/// given, and its geometry (port `G`) for contact.
#[derive(Clone, Debug, PartialEq)]
pub struct Solid {
    spec: BlockSpec,
}

impl Solid {
    /// A solid of `shape`, of the type's default density unless [`Solid::mass`] or
    /// [`Solid::density`] says otherwise.
    pub fn new(shape: Shape) -> Solid {
        Solid {
            spec: BlockSpec::of_type("Solid").param("geometry", shape.0),
        }
    }
    setters! {
        /// The total mass, kg (instead of a density).
        mass: f64 => "mass";
        /// A uniform density, kg/m³.
        density: f64 => "density";
        /// The centre of mass, m, in R (instead of the shape's centroid).
        center_of_mass: [f64; 3] => "center_of_mass";
        /// The inertia's diagonal [Ixx, Iyy, Izz] in R's axes (products of inertia 0), kg·m²,
        /// about the centre of mass.
        inertia: [f64; 3] => "inertia";
    }
    /// The whole inertia matrix (rows), kg·m², about the centre of mass, in R's axes.
    pub fn inertia_matrix(mut self, inertia: [[f64; 3]; 3]) -> Self {
        self.spec = self.spec.param("inertia", rows(&inertia));
        self
    }
}

/// InfinitePlane: the x-y plane of its frame R; contact on its +z side.
#[derive(Clone, Debug, PartialEq)]
pub struct InfinitePlane {
    spec: BlockSpec,
}

impl InfinitePlane {
    /// The plane.
    pub fn new() -> InfinitePlane {
        InfinitePlane {
            spec: BlockSpec::of_type("InfinitePlane"),
        }
    }
}

impl Default for InfinitePlane {
    fn default() -> Self {
        InfinitePlane::new()
    }
}

into_spec!(
    WorldFrame,
    MechanismConfiguration,
    RigidTransform,
    Solid,
    InfinitePlane
);
