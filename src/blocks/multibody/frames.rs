//! Frame-network blocks without signals: WorldFrame, MechanismConfiguration, RigidTransform, Solid,
//! and the geometry blocks InfinitePlane, Disk, GridSurface, Point, PointCloud.

use super::kinds::SolidShape;
use super::lowered::TRANSFORM_PORTS;
use crate::block::physical::SolidInertia;
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, ParamDoc, PhysicalRole, PortDecl, PortDoc, Setup,
    Shape,
};
use crate::geometry::{mass_properties, GeometryError, Shape as Geometry};
use crate::param;
use crate::params::{ParamError, Params};
use nalgebra::{Isometry3, Matrix3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};
use std::sync::LazyLock;

/// A block that only takes part in the frame network.
pub struct FrameBlock {
    role: PhysicalRole,
    /// Its kind's port list, shared by every block of the kind (see [`WORLD_PORTS`]).
    physical: &'static [PortDecl],
    /// A RigidTransform's one possible warning (an angle that reads as degrees); boxed, 16
    /// bytes instead of a vector's 24 in each of a URDF chain's 100,000 frame blocks.
    warning: Option<Box<str>>,
}

/// The frame blocks' port lists, one per kind and shared by its blocks: a list per block (two
/// ports of about 120 bytes and their names) was 240 bytes and three allocations per
/// RigidTransform, of which a 20,000-joint URDF chain has 80,000.
static WORLD_PORTS: LazyLock<[PortDecl; 1]> = LazyLock::new(|| [PortDecl::frame("W")]);
/// A Solid's or geometry block's ports: its frame `R` and its geometry `G`.
static BODY_PORTS: LazyLock<[PortDecl; 2]> =
    LazyLock::new(|| [PortDecl::frame("R"), PortDecl::geometry("G")]);

impl Block for FrameBlock {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &[]
    }
    fn physical_ports(&self) -> &[PortDecl] {
        self.physical
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::default())
    }
    fn outputs_eval(&self, _ctx: &mut Ctx) {}
    fn warnings(&self) -> Vec<String> {
        self.warning.iter().map(|w| w.to_string()).collect()
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    /// A RigidTransform's stand-in once lowered ([`super::lowered`]), unless it has a warning
    /// to give (the build's warnings are gathered from the blocks after the lowering).
    fn lowered(&self) -> Option<Box<dyn Block>> {
        (matches!(self.role, PhysicalRole::RigidTransform { .. }) && self.warning.is_none())
            .then(super::lowered::LoweredTransform::boxed)
    }
}

impl crate::block::PhysicalBlock for FrameBlock {
    fn role(&self) -> &crate::block::PhysicalRole {
        &self.role
    }
}

fn frame_block(role: PhysicalRole, ports: &'static [PortDecl]) -> Box<dyn Block> {
    Box::new(FrameBlock {
        role,
        physical: ports,
        warning: None,
    })
}

/// Angles (rad) beyond a full turn are accepted, but are most likely degrees.
fn degrees_warning(p: &Params, key: &'static str) -> Option<String> {
    let rotation = p.table(key).ok()??;
    let mut angles = rotation.vector("angles").ok().flatten().unwrap_or_default();
    angles.extend(rotation.f64("angle").ok().flatten());
    angles
        .iter()
        .find(|a| a.abs() > std::f64::consts::TAU)
        .map(|a| {
            format!(
                "rotation angle {a} rad is more than a full turn: angles are in radians; if you meant {a}°, write {:.10}",
                a.to_radians()
            )
        })
}

/// A geometry error located at the parameter it is about (`key` unless the error names another,
/// e.g. a grid's `x`), with what to write instead.
fn geometry_error(p: &Params, key: &'static str, e: GeometryError) -> ParamError {
    p.error(e.parameter().unwrap_or(key), e.to_string())
        .hint(e.help())
}

fn vec3(p: &Params, key: &'static str, default: [f64; 3]) -> Result<Vector3<f64>, ParamError> {
    Ok(Vector3::from_column_slice(
        &p.fixed_vector(key, 3)?.unwrap_or(default.to_vec()),
    ))
}

fn points(p: &Params, key: &'static str) -> Result<Vec<[f64; 3]>, ParamError> {
    let rows = p.rows(key)?.ok_or_else(|| {
        p.table_error(format!("missing parameter '{}'", p.name(key)))
            .hint(format!("add {} = [[x, y, z], ...] (m)", p.name(key)))
    })?;
    rows.iter()
        .map(|r| match r.as_slice() {
            [x, y, z] => Ok([*x, *y, *z]),
            _ => Err(p
                .error(
                    key,
                    format!("'{}' must list points as [x, y, z]", p.name(key)),
                )
                .hint("write e.g. [[0, 0, 0], [1, 0, 0]]")),
        })
        .collect()
}

/// Reads `rotation = { axis, angle }`, `{ sequence = "xyz", angles }` or `{ matrix = [[..]] }`.
pub fn read_rotation(p: &Params, key: &'static str) -> Result<UnitQuaternion<f64>, ParamError> {
    let Some(r) = p.table(key)? else {
        return Ok(UnitQuaternion::identity());
    };
    let q = if r.has("axis") || r.has("angle") {
        let axis = vec3(&r, "axis", [0.0, 0.0, 1.0])?;
        let angle = r.f64_or("angle", 0.0)?;
        let axis = Unit::try_new(axis, 1e-12).ok_or_else(|| {
            r.error("axis", "the rotation axis must not be zero")
                .hint("write e.g. axis = [0, 0, 1]")
        })?;
        UnitQuaternion::from_axis_angle(&axis, angle)
    } else if r.has("sequence") {
        let seq = r.string("sequence")?.unwrap_or("xyz");
        let angles = r
            .fixed_vector("angles", seq.len())?
            .unwrap_or(vec![0.0; seq.len()]);
        let mut q = UnitQuaternion::identity();
        for (c, a) in seq.chars().zip(angles) {
            let axis = match c {
                'x' | 'X' => Vector3::x_axis(),
                'y' | 'Y' => Vector3::y_axis(),
                'z' | 'Z' => Vector3::z_axis(),
                _ => {
                    return Err(r
                        .error("sequence", format!("'{seq}' is not a rotation sequence"))
                        .hint("write a sequence of the axes x, y, z, e.g. sequence = \"zyx\""))
                }
            };
            // Intrinsic sequence: each rotation about the axis of the frame rotated so far.
            q *= UnitQuaternion::from_axis_angle(&axis, a);
        }
        q
    } else if r.has("matrix") {
        let rows = r.rows("matrix")?.unwrap_or_default();
        if rows.len() != 3 || rows.iter().any(|row| row.len() != 3) {
            return Err(r.error(
                "matrix",
                "the rotation matrix must be 3×3 (three rows of three)",
            ));
        }
        let m = Matrix3::from_fn(|i, j| rows[i][j]);
        let orthogonality = (m.transpose() * m - Matrix3::identity()).norm();
        r.ensure(
            orthogonality < 1e-6 && m.determinant() > 0.0,
            "matrix",
            "is not a rotation (orthonormal, determinant +1)",
            "write an orthonormal matrix, or use { axis, angle }",
        )?;
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(&m))
    } else {
        return Err(r
            .table_error("a rotation needs { axis, angle }, { sequence, angles } or { matrix }")
            .hint("write rotation = { axis = [0, 0, 1], angle = 0.5 }"));
    };
    r.finish()?;
    Ok(q)
}

fn build_world(_p: &Params) -> Result<Box<dyn Block>, ParamError> {
    Ok(frame_block(PhysicalRole::World, &*WORLD_PORTS))
}

/// The gravity of a mechanism without this block is [`crate::multibody::STANDARD_GRAVITY`], the
/// same (a test checks it).
const GRAVITY: Param<[f64; 3]> = param!(
    "gravity",
    "m/s²",
    [0, 0, -9.80665],
    "gravitational acceleration, in World"
);

fn build_configuration(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let gravity = Vector3::from_column_slice(&GRAVITY.read(p)?);
    Ok(frame_block(PhysicalRole::Configuration { gravity }, &[]))
}

const TRANSLATION: Param<[f64; 3]> = param!("translation", "m", [0, 0, 0], "F's origin in B");

fn build_rigid_transform(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let t = Vector3::from_column_slice(&TRANSLATION.read(p)?);
    let rotation = read_rotation(p, "rotation")?;
    let follower_in_base = Isometry3::from_parts(Translation3::from(t), rotation);
    Ok(Box::new(FrameBlock {
        role: PhysicalRole::RigidTransform { follower_in_base },
        physical: &*TRANSFORM_PORTS,
        warning: degrees_warning(p, "rotation").map(String::into_boxed_str),
    }))
}

/// Reads a `geometry = { shape = ..., ... }` table of a Solid.
fn read_solid_geometry(p: &Params) -> Result<Geometry, ParamError> {
    let g = p.table("geometry")?.ok_or_else(|| {
        p.table_error("a Solid needs a geometry")
            .hint("add geometry = { shape = \"sphere\", radius = 0.1 }")
    })?;
    let shape = g.choice_value(
        "shape",
        &SolidShape::choices().map(|(n, s)| (n, Some(s))),
        None,
    )?;
    let result = match shape {
        Some(SolidShape::Sphere) => Geometry::sphere(g.required_f64("radius", "m")?),
        Some(SolidShape::Brick) => {
            let s = g.fixed_vector("size", 3)?.ok_or_else(|| {
                g.table_error("a brick needs size = [x, y, z]")
                    .hint("add size = [0.2, 0.1, 0.05] (m)")
            })?;
            Geometry::brick([s[0], s[1], s[2]])
        }
        Some(SolidShape::Cylinder) => Geometry::cylinder(
            g.required_f64("radius", "m")?,
            g.required_f64("length", "m")?,
        ),
        Some(SolidShape::Ellipsoid) => {
            let r = g.fixed_vector("radii", 3)?.ok_or_else(|| {
                g.table_error("an ellipsoid needs radii = [a, b, c]")
                    .hint("add radii = [0.1, 0.2, 0.3] (m)")
            })?;
            Geometry::ellipsoid([r[0], r[1], r[2]])
        }
        Some(SolidShape::ConvexHull) => Geometry::convex_hull(&points(&g, "points")?),
        None => {
            let names = SolidShape::ALL.map(|s| format!("\"{}\"", s.name()));
            let hint = format!("write shape = {}", names.join(" | "));
            return Err(g.table_error("the geometry needs a shape").hint(hint));
        }
    };
    let geometry = result.map_err(|e| g.table_error(e.to_string()).hint(e.help()))?;
    g.finish()?;
    Ok(geometry)
}

const DENSITY: Param<f64> = param!("density", "kg/m³", 1000, "uniform density");

fn build_solid(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let shape = read_solid_geometry(p)?;
    let mass = p.f64("mass")?;
    let density = p.f64("density")?;
    if mass.is_some() && density.is_some() {
        return Err(p
            .error("density", "give either mass or density, not both")
            .hint("remove one of the two lines"));
    }
    let density = density.unwrap_or(DENSITY.default);
    p.ensure(
        density > 0.0,
        "density",
        "must be positive",
        "write a density in kg/m³, e.g. 7800 for steel",
    )?;
    let mut props =
        mass_properties(&shape, density).map_err(|e| geometry_error(p, "geometry", e))?;
    if let Some(m) = mass {
        p.ensure(
            m > 0.0,
            "mass",
            &format!("must be positive (got {m})"),
            "write the mass in kg",
        )?;
        props = props
            .scaled_to_mass(m)
            .map_err(|e| geometry_error(p, "mass", e))?;
    }
    let mut inertia = SolidInertia {
        mass: props.mass,
        com: props.com.coords,
        inertia_about_com: props.inertia_about_com,
    };
    if let Some(c) = p.fixed_vector("center_of_mass", 3)? {
        inertia.com = Vector3::from_column_slice(&c);
    }
    if let Some(rows) = p.rows("inertia")? {
        inertia.inertia_about_com = match (rows.len(), rows.first().map(Vec::len)) {
            (3, Some(1)) => {
                Matrix3::from_diagonal(&Vector3::new(rows[0][0], rows[1][0], rows[2][0]))
            }
            (3, Some(3)) => Matrix3::from_fn(|i, j| rows[i][j]),
            _ => return Err(p
                .error(
                    "inertia",
                    "'inertia' must be [Ixx, Iyy, Izz] or a 3×3 matrix about the centre of mass",
                )
                .hint("write inertia = [0.1, 0.1, 0.2] (kg·m²)")),
        };
        let m = inertia.inertia_about_com;
        let symmetric = (m - m.transpose()).norm() <= 1e-12 * m.norm().max(1.0);
        let eig = m.symmetric_eigenvalues();
        let triangle = eig[0] + eig[1] >= eig[2] * (1.0 - 1e-9)
            && eig[1] + eig[2] >= eig[0] * (1.0 - 1e-9)
            && eig[0] + eig[2] >= eig[1] * (1.0 - 1e-9);
        p.ensure(symmetric && eig.iter().all(|e| *e >= 0.0) && triangle, "inertia", "is not a physical inertia (symmetric, positive, principal moments satisfying the triangle inequality)", "check the values, in kg·m² about the centre of mass")?;
    }
    Ok(frame_block(
        PhysicalRole::Solid {
            inertia: Box::new(inertia),
            shape,
        },
        &*BODY_PORTS,
    ))
}

/// A Solid's shape without its mass: a contact geometry fixed to R (a URDF link's collision).
fn build_collision_geometry(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    Ok(geometry_block(read_solid_geometry(p)?))
}

fn geometry_block(shape: Geometry) -> Box<dyn Block> {
    frame_block(PhysicalRole::Geometry { shape }, &*BODY_PORTS)
}

fn build_plane(_p: &Params) -> Result<Box<dyn Block>, ParamError> {
    Ok(geometry_block(Geometry::InfinitePlane))
}

fn build_disk(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let r = p.required_f64("radius", "m")?;
    Ok(geometry_block(
        Geometry::disk(r).map_err(|e| geometry_error(p, "radius", e))?,
    ))
}

fn build_point(_p: &Params) -> Result<Box<dyn Block>, ParamError> {
    Ok(geometry_block(Geometry::Point))
}

fn build_point_cloud(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let pts = points(p, "points")?;
    Ok(geometry_block(
        Geometry::point_cloud(&pts).map_err(|e| geometry_error(p, "points", e))?,
    ))
}

fn build_grid(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let x = p.vector("x")?.ok_or_else(|| {
        p.table_error("missing parameter 'x'")
            .hint("add x = [x0, x1, ...] (m, increasing)")
    })?;
    let y = p.vector("y")?.ok_or_else(|| {
        p.table_error("missing parameter 'y'")
            .hint("add y = [y0, y1, ...] (m, increasing)")
    })?;
    let z = p.rows("z")?.ok_or_else(|| {
        p.table_error("missing parameter 'z'")
            .hint("add z = [[...], ...]: z[i][j] is the height at x[i], y[j]")
    })?;
    Ok(geometry_block(
        Geometry::grid_surface(&x, &y, &z).map_err(|e| geometry_error(p, "z", e))?,
    ))
}

const R_G: [PortDoc; 2] = [
    PortDoc {
        name: "R",
        kind: "frame",
        shape: "",
        unit: "",
        doc: "reference frame",
    },
    PortDoc {
        name: "G",
        kind: "geometry",
        shape: "",
        unit: "",
        doc: "geometry, to connect to a contact block",
    },
];

pub static WORLD_FRAME: BlockType = BlockType {
    name: "WorldFrame",
    category: "Frames and bodies",
    summary: "The inertial World frame that roots the frame network. One per model.",
    params: &[],
    ports: &[PortDoc {
        name: "W",
        kind: "frame",
        shape: "",
        unit: "",
        doc: "the World frame",
    }],
    build: build_world,
};

pub static MECHANISM_CONFIGURATION: BlockType = BlockType {
    name: "MechanismConfiguration",
    category: "Frames and bodies",
    summary: "Mechanism-wide settings. Without this block gravity is [0, 0, -9.80665].",
    params: &[GRAVITY.doc],
    ports: &[],
    build: build_configuration,
};

pub static RIGID_TRANSFORM: BlockType = BlockType {
    name: "RigidTransform",
    category: "Frames and bodies",
    summary: "Fixes frame F to frame B at a constant pose: F's origin at `translation` in B, F rotated by `rotation` relative to B.",
    params: &[
        TRANSLATION.doc,
        ParamDoc { name: "rotation", unit: "rad", default: "none", doc: "{ axis = [..], angle = .. } | { sequence = \"xyz\", angles = [..] } (intrinsic) | { matrix = [[..], ..] } (R_BF)" },
    ],
    ports: &[
        PortDoc { name: "B", kind: "frame", shape: "", unit: "", doc: "base frame" },
        PortDoc { name: "F", kind: "frame", shape: "", unit: "", doc: "follower frame" },
    ],
    build: build_rigid_transform,
};

pub static SOLID: BlockType = BlockType {
    name: "Solid",
    category: "Frames and bodies",
    summary: "A rigid solid: geometry, mass properties computed from the true geometry (or given), and its geometry exported as a convex hull for contact. R is at the geometry's centre.",
    params: &[
        ParamDoc { name: "geometry", unit: "m", default: "required", doc: "{ shape = \"sphere\", radius } | { shape = \"brick\", size = [x, y, z] } | { shape = \"cylinder\", radius, length } (axis z) | { shape = \"ellipsoid\", radii } | { shape = \"convex_hull\", points = [[x, y, z], ..] }" },
        ParamDoc { name: "mass", unit: "kg", default: "from density", doc: "total mass (instead of density)" },
        DENSITY.doc,
        ParamDoc { name: "center_of_mass", unit: "m", default: "computed", doc: "override of the centre of mass, in R" },
        ParamDoc { name: "inertia", unit: "kg·m²", default: "computed", doc: "override: [Ixx, Iyy, Izz] or 3×3, about the centre of mass, in R" },
    ],
    ports: &R_G,
    build: build_solid,
};

pub static INFINITE_PLANE: BlockType = BlockType {
    name: "InfinitePlane",
    category: "Curves and surfaces",
    summary: "The x-y plane of R; contact on its +z side (a body behind it is pushed out to +z).",
    params: &[],
    ports: &R_G,
    build: build_plane,
};

pub static DISK: BlockType = BlockType {
    name: "Disk",
    category: "Curves and surfaces",
    summary: "A flat disk in the x-y plane of R, centred at its origin, normal +z.",
    params: &[ParamDoc {
        name: "radius",
        unit: "m",
        default: "required",
        doc: "disk radius",
    }],
    ports: &R_G,
    build: build_disk,
};

pub static GRID_SURFACE: BlockType = BlockType {
    name: "GridSurface",
    category: "Curves and surfaces",
    summary:
        "A regular grid of heights in R; contact on its +z side, inside the grid's x-y extent.",
    params: &[
        ParamDoc {
            name: "x",
            unit: "m",
            default: "required",
            doc: "grid x coordinates, increasing",
        },
        ParamDoc {
            name: "y",
            unit: "m",
            default: "required",
            doc: "grid y coordinates, increasing",
        },
        ParamDoc {
            name: "z",
            unit: "m",
            default: "required",
            doc: "heights: z[i][j] at (x[i], y[j])",
        },
    ],
    ports: &R_G,
    build: build_grid,
};

pub static COLLISION_GEOMETRY: BlockType = BlockType {
    name: "CollisionGeometry",
    category: "Curves and surfaces",
    summary: "A shape without mass fixed in R, as a contact geometry: the shapes of a Solid (R at the shape's centre), with none of its mass. A URDF link's collision elements become these (see docs/urdf.md).",
    params: &[ParamDoc { name: "geometry", unit: "m", default: "required", doc: "{ shape = \"sphere\", radius } | { shape = \"brick\", size = [x, y, z] } | { shape = \"cylinder\", radius, length } (axis z) | { shape = \"ellipsoid\", radii } | { shape = \"convex_hull\", points = [[x, y, z], ..] }" }],
    ports: &R_G,
    build: build_collision_geometry,
};

pub static POINT: BlockType = BlockType {
    name: "Point",
    category: "Curves and surfaces",
    summary: "The origin of R, as a contact geometry.",
    params: &[],
    ports: &R_G,
    build: build_point,
};

pub static POINT_CLOUD: BlockType = BlockType {
    name: "PointCloud",
    category: "Curves and surfaces",
    summary: "A set of distinct points fixed in R, as a contact geometry; per-point contact outputs follow the points' order.",
    params: &[ParamDoc { name: "points", unit: "m", default: "required", doc: "[[x, y, z], ..] in R; repeated points are an error" }],
    ports: &R_G,
    build: build_point_cloud,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// MechanismConfiguration's default gravity is the one a mechanism without the block gets,
    /// and its summary quotes it.
    #[test]
    fn the_default_gravity_is_the_standard_one() {
        assert_eq!(GRAVITY.default, crate::multibody::STANDARD_GRAVITY);
        assert!(MECHANISM_CONFIGURATION
            .summary
            .contains(GRAVITY.doc.default));
    }
}
