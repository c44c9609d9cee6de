//! What an animation draws, as plain data: the items (a shape and a colour each) and, per frame,
//! the pose of every item and the force arrows. Filled by the run (`sim::animation`), read by the
//! renderer; nothing here knows of blocks or of the engine.
//!
//! Besides the geometries, an item may be a [`Glyph`]: a joint's symbol at its frame, a frame's
//! axes, or the lines of a massless link. Glyphs are drawn by both the GIF and the viewer from the
//! same mesh ([`super::glyph`]).

use crate::geometry::Shape;
use nalgebra::{Isometry3, Point3, Vector3};

/// The symbol drawn for a joint, at its body's frame (the joint's follower frame F, or its base
/// frame B when it is connected the other way round): both lie on the joint's axis, which is the
/// frame's z axis (a universal joint: rotation about x, then y). See [`super::glyph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointGlyph {
    /// A short cylinder along z with the axis drawn through it.
    Revolute,
    /// A square sleeve (a box) along z with an arrow along the axis.
    Prismatic,
    /// The revolute's cylinder with the prismatic's arrow.
    Cylindrical,
    /// Two crossed short cylinders along the frame's x and y.
    Universal,
    /// A ball at the frame's origin.
    Spherical,
    /// A flat square in the frame's x-y plane with its normal z drawn.
    Planar,
    /// A free (six-dof) joint: an octahedron of edges (no faces) about the frame's origin.
    Free,
}

/// A drawn symbol rather than a geometry: its mesh is made by [`super::glyph::glyph_mesh`].
#[derive(Clone, Debug, PartialEq)]
pub enum Glyph {
    /// A joint's symbol, sized by the renderer (a fraction of the scene's size).
    Joint(JointGlyph),
    /// A frame's axes x, y, z (red, green, blue), sized by the renderer.
    Frame,
    /// A body's links: one line per RigidTransform on the body, between its two frames' origins
    /// (m, in the item's frame). Not scaled.
    Link(Vec<[Point3<f64>; 2]>),
}

/// What an item draws: a geometry in its true shape, or a glyph.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemShape {
    /// A geometry (a Solid's or a geometry block's shape), in the item's frame R.
    Geometry(Shape),
    /// A symbol (joint, frame, massless link).
    Glyph(Glyph),
}

impl From<Shape> for ItemShape {
    fn from(shape: Shape) -> Self {
        ItemShape::Geometry(shape)
    }
}

impl ItemShape {
    /// The geometry, when the item is one.
    pub fn geometry(&self) -> Option<&Shape> {
        match self {
            ItemShape::Geometry(s) => Some(s),
            ItemShape::Glyph(_) => None,
        }
    }
}

/// How an item is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// The neutral grey of fixed surroundings (planes, grid surfaces, massless geometry).
    Ground,
    /// The k-th body colour (cycled through the palette's body colours).
    Body(usize),
}

/// One drawn geometry.
#[derive(Clone, Debug)]
pub struct SceneItem {
    /// Who provides it (the block's name), for messages.
    pub label: String,
    /// The shape in its own frame R.
    pub shape: ItemShape,
    pub material: Material,
}

/// A force drawn as an arrow: `f_world` (N, World) applied at `p_world_tail` (m, World). The
/// renderer scales every arrow by the largest force of the whole animation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrow {
    pub p_world_tail: Point3<f64>,
    pub f_world: Vector3<f64>,
}

/// The scene at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSnapshot {
    /// Simulated time, s.
    pub t: f64,
    /// Pose of each item's frame R in the World frame (`r_world[i]` maps points of item i's R to
    /// World), in the order of [`Animation::items`].
    pub r_world: Vec<Isometry3<f64>>,
    /// Contact forces at this instant.
    pub arrows: Vec<Arrow>,
}

/// Everything an animation shows.
#[derive(Clone, Debug)]
pub struct Animation {
    pub items: Vec<SceneItem>,
    pub frames: Vec<FrameSnapshot>,
    /// The World direction shown upwards by the automatic camera (against gravity), unit.
    pub up_world: Vector3<f64>,
    /// Simulated time between frames, s.
    pub frame_interval: f64,
}

impl Animation {
    /// The largest force magnitude over every arrow of every frame, N (0 without arrows).
    pub fn largest_force(&self) -> f64 {
        self.frames
            .iter()
            .flat_map(|f| f.arrows.iter())
            .map(|a| a.f_world.norm())
            .filter(|f| f.is_finite())
            .fold(0.0, f64::max)
    }
}
