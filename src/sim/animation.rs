//! Animation frames of a run: at fixed times of simulated time, the pose of every geometry of the
//! mechanism and the contact forces, taken from the solver's dense output (never from the steps
//! it happened to take) and handed to the renderer as plain data ([`crate::render::Animation`]).
//!
//! Poses: the mechanism's state x = [q; v] at the frame time gives every body's pose by forward
//! kinematics; a geometry's frame R is fixed to its body, so its World pose is
//! X_WR = X_WB · X_BR.
//!
//! Arrows come from the blocks' outputs that declare a [`DrawnAs`] role: a block with a
//! resultant force and point (SpatialContactForce, RigidContact: the force on the follower, World,
//! at the point on its central axis) gives one arrow; a block with point forces (3×N) and a point
//! or point cloud of N points connected to its port `F` (GroundContact) gives one arrow per
//! point, at the point. The diagram builder computes these outputs when an animation is asked
//! for, as it computes the outputs that are read. GroundContact's ground has no geometry block: when a model has one, the plane
//! through the World origin perpendicular to gravity is drawn as the ground (the x-y plane under
//! gravity along −z, the x axis's plane under gravity along −y, as GroundContact's 3-D and 2-D
//! grounds).
//!
//! Besides the geometries, the mechanism itself is drawn (see [`crate::render::glyph`]): each
//! joint as a glyph at its body's frame (the joint's follower frame F, or its base frame B when
//! connected the other way round; a joint closing a loop at its follower frame; no free joint's
//! glyph on a body with a Solid, inside which it would hide), each RigidTransform on a moving body
//! as a line between its two frames (a massless leg, a pendulum's rod), and the frames
//! `[output] draw_frames` asks for as their axes. A glyph is fixed to its body like a geometry:
//! its World pose is X_WB · X_BF for the frame F it is drawn at.

use crate::block::DrawnAs;
use crate::diagram::physical::PhysicalScene;
use crate::diagram::{Diagram, FrameChoice};
use crate::geometry::Shape;
use crate::multibody::{body_pose, forward_kinematics, BodyIndex, JointKind, Mechanism, Workspace};
use crate::render::{
    Animation, Arrow, FrameSnapshot, Glyph, ItemShape, JointGlyph, Material, SceneItem, MAX_FRAMES,
};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::collections::HashMap;
use std::f64::consts::PI;
use std::ops::Range;

/// Where a force drawn as arrows is read from the signal buffer.
#[derive(Clone, Debug)]
enum ForceSource {
    /// A resultant force (3 values, World) applied at a point (3 values, World).
    Resultant { force: usize, point: usize },
    /// Forces (3×N column-major, World) on the N points of scene item `item`.
    PerPoint { force: usize, item: usize },
}

/// Takes frames during a run; see the module documentation.
pub struct FrameSampler {
    scene: PhysicalScene,
    items: Vec<SceneItem>,
    /// The body of each item but the implicit ground, and the item's frame R in that body.
    placements: Vec<(BodyIndex, Isometry3<f64>)>,
    /// x range of the mechanism's q and of its v.
    q: Range<usize>,
    v: Range<usize>,
    sources: Vec<ForceSource>,
    /// The pose of the implicit ground plane (the last item), when there is one.
    ground: Option<Isometry3<f64>>,
    workspace: Workspace,
    /// Frame k is at min(k·interval, stop_time).
    interval: f64,
    stop_time: f64,
    count: usize,
    /// The index of the first frame taken (a run resumed from a checkpoint starts later).
    first: usize,
    frames: Vec<FrameSnapshot>,
}

impl FrameSampler {
    /// A sampler for `d` over [0, stop_time], `rate` frames per second of simulated time (fewer
    /// when that would exceed [`MAX_FRAMES`]: then MAX_FRAMES spread evenly). `None` when the
    /// model has no mechanism (nothing to draw).
    /// `scene` is the run's: the diagram's, or that of the run's parameter set when the set
    /// elaborated the mechanism again (other masses, gravity, joint placements).
    pub fn new(
        d: &Diagram,
        scene: Option<&PhysicalScene>,
        stop_time: f64,
        rate: f64,
    ) -> Option<FrameSampler> {
        let scene = scene?.clone();
        let m = &scene.mechanism;
        let states = d.blocks[scene.mechanism_block].states.start;
        let q = states..states + m.nq();
        let v = q.end..q.end + m.nv();
        let mut items = scene_items(&scene);
        let mut placements: Vec<(BodyIndex, Isometry3<f64>)> = scene
            .geometries
            .iter()
            .map(|g| (g.body, g.r_in_body))
            .collect();
        for (item, placement) in mechanism_glyphs(&scene, &d.run.output.drawn_frames.frames) {
            items.push(item);
            placements.push(placement);
        }
        let sources = force_sources(d, &scene);
        let ground = sources
            .iter()
            .any(|s| matches!(s, ForceSource::PerPoint { .. }))
            .then(|| {
                items.push(SceneItem {
                    label: "ground".into(),
                    shape: Shape::InfinitePlane.into(),
                    material: Material::Ground,
                });
                let up = up_world(&scene);
                let turn = UnitQuaternion::rotation_between(&Vector3::z(), &up)
                    .unwrap_or_else(|| UnitQuaternion::from_axis_angle(&Vector3::x_axis(), PI));
                Isometry3::from_parts(Translation3::identity(), turn)
            });
        // Counted in f64: a huge stop time (7.4e17 s at 25 frames/s) does not fit a usize, and
        // a saturating cast plus one wrapped to zero frames.
        let wanted = (stop_time * rate + 1e-9).floor() + 1.0;
        let (count, interval) = if wanted <= MAX_FRAMES as f64 {
            (wanted as usize, 1.0 / rate)
        } else {
            (MAX_FRAMES, stop_time / (MAX_FRAMES - 1) as f64)
        };
        let workspace = Workspace::new(m);
        Some(FrameSampler {
            scene,
            items,
            placements,
            q,
            v,
            sources,
            ground,
            workspace,
            interval,
            stop_time,
            count,
            first: 0,
            frames: Vec::with_capacity(count),
        })
    }

    /// The time of the next frame to take; `None` when all are taken.
    pub fn next_time(&self) -> Option<f64> {
        let k = self.first + self.frames.len();
        (k < self.count).then(|| (k as f64 * self.interval).min(self.stop_time))
    }

    /// Leaves out the frames before time `t` (a run resumed from a checkpoint at t: they belong
    /// to the run that reached it); the frame at t itself is taken.
    pub fn skip_before(&mut self, t: f64) {
        self.frames.clear();
        self.first = 0;
        while self.next_time().is_some_and(|tf| tf < t) {
            self.first += 1;
        }
    }

    /// Takes a frame at time t from the state `x` and the signal buffer `signals` (outputs
    /// evaluated at (t, x)).
    pub fn capture(&mut self, t: f64, x: &[f64], signals: &[f64]) {
        let m = &*self.scene.mechanism;
        forward_kinematics(
            m,
            &x[self.q.clone()],
            &x[self.v.clone()],
            &mut self.workspace,
        );
        let mut r_world: Vec<Isometry3<f64>> = self
            .placements
            .iter()
            .map(|(body, r_in_body)| body_pose(&self.workspace, *body) * r_in_body)
            .collect();
        r_world.extend(self.ground);
        let vec3 = |o: usize| Vector3::new(signals[o], signals[o + 1], signals[o + 2]);
        let mut arrows = Vec::new();
        for source in &self.sources {
            match *source {
                ForceSource::Resultant { force, point } => arrows.push(Arrow {
                    p_world_tail: Point3::from(vec3(point)),
                    f_world: vec3(force),
                }),
                ForceSource::PerPoint { force, item } => {
                    let ItemShape::Geometry(Shape::PointCloud(cloud)) = &self.items[item].shape
                    else {
                        arrows.push(Arrow {
                            p_world_tail: r_world[item] * Point3::origin(),
                            f_world: vec3(force),
                        });
                        continue;
                    };
                    for (k, p) in cloud.points().iter().enumerate() {
                        arrows.push(Arrow {
                            p_world_tail: r_world[item] * p,
                            f_world: vec3(force + 3 * k),
                        });
                    }
                }
            }
        }
        self.frames.push(FrameSnapshot { t, r_world, arrows });
    }

    /// The frames taken, with the scene.
    pub fn into_animation(self) -> Animation {
        Animation {
            up_world: up_world(&self.scene),
            items: self.items,
            frames: self.frames,
            frame_interval: self.interval,
        }
    }
}

/// Against gravity (World z without gravity), unit.
fn up_world(scene: &PhysicalScene) -> Vector3<f64> {
    (-scene.mechanism.gravity())
        .try_normalize(1e-12)
        .unwrap_or_else(Vector3::z)
}

/// One item per geometry. Colours: each body takes the next body colour at its first Solid;
/// geometries on the World body are ground-coloured, and massless ones on a moving body take
/// that body's colour.
fn scene_items(scene: &PhysicalScene) -> Vec<SceneItem> {
    let mut body_color: HashMap<usize, usize> = HashMap::new();
    for g in scene.geometries.iter().filter(|g| g.solid) {
        let next = body_color.len();
        body_color.entry(g.body).or_insert(next);
    }
    scene
        .geometries
        .iter()
        .map(|g| {
            let material = match body_color.get(&g.body) {
                Some(&k) if g.solid || g.body != 0 => Material::Body(k),
                _ if g.body != 0 => Material::Body(body_color.len() + g.body),
                _ => Material::Ground,
            };
            SceneItem {
                label: g.block.clone(),
                shape: g.shape.clone().into(),
                material,
            }
        })
        .collect()
}

/// The glyphs of the mechanism (see the module documentation), each with its body and its frame
/// in that body: joints, links (RigidTransforms), then the frames `frames` asks for. Glyphs are
/// ground-coloured.
fn mechanism_glyphs(
    scene: &PhysicalScene,
    frames: &FrameChoice,
) -> Vec<(SceneItem, (BodyIndex, Isometry3<f64>))> {
    let m: &Mechanism = &scene.mechanism;
    let glyph = |label: &str, g: Glyph| SceneItem {
        label: label.to_string(),
        shape: ItemShape::Glyph(g),
        material: Material::Ground,
    };
    // One pass over the geometries marks the bodies that carry a Solid.
    let mut solid = vec![false; m.num_bodies()];
    for g in scene.geometries.iter().filter(|g| g.solid) {
        solid[g.body] = true;
    }
    let mut out = Vec::new();
    for j in 0..m.num_joints() {
        let Some(kind) = joint_glyph(m.joint_kind(j)) else {
            continue;
        };
        let at = match m.joint_body(j) {
            // A free joint has no axis to show: on a body with a Solid its glyph only hides inside.
            Some(b) if kind == JointGlyph::Free && solid[b] => continue,
            Some(b) => (b, Isometry3::identity()),
            None => match m.cut_of(j) {
                Some(c) => m.cut_joints()[c].follower,
                None => continue,
            },
        };
        out.push((glyph(m.joint_label(j), Glyph::Joint(kind)), at));
    }
    // Each RigidTransform is a line between its two frames on their (common) body; the World's
    // fixed offsets are scenery placement, not links. One pass: a long chain stays linear.
    let mut segments: Vec<Vec<[Point3<f64>; 2]>> = vec![Vec::new(); m.num_bodies()];
    for &(base, follower) in &scene.links {
        let ((body, p_base), (other, p_follower)) =
            (m.frame_placement(base), m.frame_placement(follower));
        let (a, b) = (
            Point3::from(p_base.translation.vector),
            Point3::from(p_follower.translation.vector),
        );
        if body != 0 && body == other && (b - a).norm() > 1e-9 {
            segments[body].push([a, b]);
        }
    }
    for (b, segments) in segments
        .into_iter()
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
    {
        let label = format!("{} (links)", m.body_label(b));
        out.push((
            glyph(&label, Glyph::Link(segments)),
            (b, Isometry3::identity()),
        ));
    }
    // Two ports joined by a connection are one frame at one pose: drawn once, under the first
    // name (a frame's axes twice over would only add to every animation frame's data).
    let mut drawn: std::collections::HashSet<(BodyIndex, [u64; 7])> = Default::default();
    for (i, (name, id)) in scene.frames.iter().enumerate() {
        if !frames.draws(i) {
            continue;
        }
        let (body, pose) = m.frame_placement(id);
        let key = (body, pose_bits(&pose));
        if drawn.insert(key) {
            out.push((glyph(name, Glyph::Frame), (body, pose)));
        }
    }
    out
}

/// The bits of a pose's translation and rotation quaternion: equal poses, equal keys.
fn pose_bits(pose: &Isometry3<f64>) -> [u64; 7] {
    let (t, q) = (pose.translation.vector, pose.rotation.coords);
    [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map(f64::to_bits)
}

/// The glyph of a joint kind (`None` for a weld: it is folded into its body).
fn joint_glyph(kind: JointKind) -> Option<JointGlyph> {
    Some(match kind {
        JointKind::Weld => return None,
        JointKind::Revolute => JointGlyph::Revolute,
        JointKind::Prismatic => JointGlyph::Prismatic,
        JointKind::Cylindrical => JointGlyph::Cylindrical,
        JointKind::Universal => JointGlyph::Universal,
        JointKind::Spherical => JointGlyph::Spherical,
        JointKind::Planar => JointGlyph::Planar,
        JointKind::SixDof => JointGlyph::Free,
    })
}

/// The blocks whose outputs give arrows (see the module documentation).
fn force_sources(d: &Diagram, scene: &PhysicalScene) -> Vec<ForceSource> {
    let mut sources = Vec::new();
    for (b, blk) in d.blocks.iter().enumerate() {
        let outputs = blk.block.outputs();
        let output = |role: DrawnAs, len: Option<usize>| {
            let o = outputs.iter().position(|p| p.drawn == Some(role))?;
            let shape = blk.output_shapes[o];
            (shape.rows == 3 && len.is_none_or(|n| shape.len() == n))
                .then(|| (o, blk.output_slots[o].offset as usize))
        };
        if let (Some((_, force)), Some((_, point))) = (
            output(DrawnAs::ResultantForce, Some(3)),
            output(DrawnAs::ResultantPoint, Some(3)),
        ) {
            sources.push(ForceSource::Resultant { force, point });
            continue;
        }
        let Some((force_output, force)) = output(DrawnAs::PointForces, None) else {
            continue;
        };
        // The geometry connected to the block's F port, as the build resolved it.
        let item = scene
            .connected
            .iter()
            .find(|c| c.block == b && c.port == "F")
            .map(|c| c.geometry);
        let Some(item) = item else { continue };
        let points = match &scene.geometries[item].shape {
            Shape::Point => 1,
            Shape::PointCloud(c) => c.len(),
            _ => continue,
        };
        if blk.output_shapes[force_output].cols == points {
            sources.push(ForceSource::PerPoint { force, item });
        }
    }
    sources
}
