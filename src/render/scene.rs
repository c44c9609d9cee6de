//! What an animation draws, as plain data: the items (a shape and a colour each) and, per frame,
//! the pose of every item and the force arrows. Filled by the run (`sim::animation`), read by the
//! renderer; nothing here knows of blocks or of the engine.

use crate::geometry::Shape;
use nalgebra::{Isometry3, Point3, Vector3};

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
    pub shape: Shape,
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
