//! Drawing one frame of an [`Animation`]: every item's mesh at its pose, flat-shaded with a fixed
//! light, its edges, the force arrows over everything and the simulated time in the top-left
//! corner.
//!
//! Shading: a face with outward unit normal n (camera frame) is lit by
//! diffuse = max(0, n·l), with l the unit direction towards the light, fixed in the camera
//! frame (above, left and behind the viewer), so that the picture does not flicker as bodies move
//! past a light fixed in the World. Open surfaces (disks, planes, grids) are lit on the side
//! that faces the camera.

use super::camera::{auto_camera_over, Camera, View};
use super::error::RenderError;
use super::glyph::{glyph_mesh, GLYPH_FRACTION};
use super::mesh::{tessellate, Mesh, PlanePatch};
use super::options::RenderOptions;
use super::palette;
use super::raster::{Canvas, ScreenPoint};
use super::scene::{Animation, Arrow, Glyph, ItemShape, Material};
use crate::geometry::Shape;
use nalgebra::{Isometry3, Point3, Vector3};

/// Direction towards the light in the camera frame (x right, y down, z forward), before
/// normalisation: from the upper left, behind the viewer.
const LIGHT_CAMERA: [f64; 3] = [-0.4, -0.6, -0.7];
/// The longest arrow (the largest force of the animation) as a fraction of the scene's size.
const ARROW_FRACTION: f64 = 0.3;
/// Forces below this fraction of the largest are not drawn.
const ARROW_THRESHOLD: f64 = 1e-3;
/// Point clouds with more points than this are drawn with 1-px dots.
const DENSE_CLOUD: usize = 20;
/// Arrow shaft width, px.
const ARROW_WIDTH: f64 = 3.0;

/// Draws the frames of one animation; holds the meshes, the view and the canvas.
pub struct Renderer<'a> {
    animation: &'a Animation,
    meshes: Vec<Mesh>,
    camera: Camera,
    view: View,
    /// Arrow length per newton, m/N.
    arrow_scale: f64,
    /// The largest force of the animation, N.
    largest_force: f64,
    /// Nothing nearer the eye than this is drawn, m.
    near: f64,
    light: Vector3<f64>,
    time_label: bool,
    canvas: Canvas,
    /// Vertices of the item being drawn, in the camera frame.
    scratch: Vec<Vector3<f64>>,
}

impl<'a> Renderer<'a> {
    /// Prepares `animation` for drawing: meshes (plane patches sized to the scene, glyphs to
    /// [`GLYPH_FRACTION`] of it), the camera (automatic unless given) and the arrow scale.
    pub fn new(animation: &'a Animation, options: &RenderOptions) -> Result<Self, RenderError> {
        options.check()?;
        // The corners are visited, not stored: a long animation of many items has millions.
        let corners = SceneCorners::of(animation);
        let mut bounds = Bounds::default();
        corners.visit(&mut |p: &Point3<f64>| bounds.add(p));
        let corners_extent = bounds.extent();
        let patches: Vec<Option<PlanePatch>> = (0..animation.items.len())
            .map(|i| {
                let plane = matches!(
                    animation.items[i].shape,
                    ItemShape::Geometry(Shape::InfinitePlane)
                );
                plane.then(|| plane_patch(animation, i, &corners, corners_extent))
            })
            .collect();
        // The plane patches' corners are framed with the rest.
        let mut framed_patches = Vec::new();
        for (i, patch) in patches.iter().enumerate() {
            if let Some(p) = patch {
                let pose = first_pose(animation, i);
                for (x, y) in [
                    (p.x[0], p.y[0]),
                    (p.x[1], p.y[0]),
                    (p.x[1], p.y[1]),
                    (p.x[0], p.y[1]),
                ] {
                    framed_patches.push(pose * Point3::new(x, y, 0.0));
                }
            }
        }
        framed_patches.retain(|p| p.iter().all(|v| v.is_finite()));
        framed_patches.iter().for_each(|p| bounds.add(p));
        let extent = bounds.extent();
        let glyph_size = GLYPH_FRACTION * extent;
        let meshes = animation
            .items
            .iter()
            .zip(&patches)
            .map(|(item, patch)| match &item.shape {
                ItemShape::Geometry(shape) => tessellate(shape, *patch),
                ItemShape::Glyph(g) => glyph_mesh(g, glyph_size),
            })
            .collect();
        let camera = match options.camera {
            Some(c) => c,
            None => auto_camera_over(
                |f| {
                    corners.visit(f);
                    framed_patches.iter().for_each(&mut *f);
                },
                &animation.up_world,
                options.width,
                options.height,
            ),
        };
        let view = View::new(&camera, options.width, options.height)?;
        let largest = animation.largest_force();
        Ok(Renderer {
            animation,
            meshes,
            camera,
            view,
            arrow_scale: if largest > 0.0 {
                ARROW_FRACTION * extent / largest
            } else {
                0.0
            },
            largest_force: largest,
            near: 1e-3 * (camera.eye - camera.target).norm().max(1e-3),
            light: Vector3::from(LIGHT_CAMERA).normalize(),
            time_label: options.time_label,
            canvas: Canvas::new(options.width, options.height),
            scratch: Vec::new(),
        })
    }

    /// The camera used (the automatic one when none was given).
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Arrow length per newton, m/N.
    pub fn arrow_scale(&self) -> f64 {
        self.arrow_scale
    }

    /// The mesh of each item, in its frame R (planes as the patch drawn under the scene, glyphs
    /// at the renderer's glyph size).
    pub fn meshes(&self) -> &[Mesh] {
        &self.meshes
    }

    /// Draws frame `k` and returns the canvas.
    pub fn render(&mut self, k: usize) -> Result<&Canvas, RenderError> {
        let animation = self.animation;
        let frame = &animation.frames[k];
        self.canvas.clear(palette::BACKGROUND);
        for (i, item) in animation.items.iter().enumerate() {
            let pose = frame.r_world[i];
            if pose.translation.vector.iter().all(|v| v.is_finite()) {
                self.draw_mesh(i, &pose, item.material);
            }
        }
        for arrow in &frame.arrows {
            self.draw_arrow(arrow);
        }
        if self.time_label {
            let size = (self.canvas.height as f64 / 28.0).max(11.0);
            let text = format!("t = {:.3} s", frame.t);
            super::text::draw_label(&mut self.canvas, &text, 8, 6, size)
                .map_err(RenderError::Text)?;
        }
        Ok(&self.canvas)
    }

    fn draw_mesh(&mut self, i: usize, pose: &Isometry3<f64>, material: Material) {
        let mesh = &self.meshes[i];
        self.scratch.clear();
        let view = &self.view;
        self.scratch
            .extend(mesh.vertices.iter().map(|v| view.to_camera(&(pose * v))));
        let cam = &self.scratch;
        let faces = mesh.triangles.iter().map(|t| (t, None));
        let marks = mesh.mark_triangles.iter().map(|t| (t, Some(palette::EDGE)));
        for (t, fixed_color) in faces.chain(marks) {
            let [a, b, c] = t.map(|k| cam[k as usize]);
            let mut n = (b - a).cross(&(c - a));
            // The eye is the camera frame's origin: a face is seen from outside when n·a < 0.
            if n.dot(&a) >= 0.0 {
                if mesh.closed {
                    continue;
                }
                n = -n;
            }
            let diffuse = n.try_normalize(0.0).map_or(0.0, |n| n.dot(&self.light));
            let color = fixed_color.unwrap_or_else(|| palette::shade(material, diffuse));
            fill_clipped(&mut self.canvas, view, self.near, [a, b, c], color);
        }
        let edges = mesh.edges.iter().map(|e| (e, palette::EDGE));
        let inked = mesh.inked.iter().map(|(e, ink)| (e, palette::ink(*ink)));
        for (e, color) in edges.chain(inked) {
            let [a, b] = e.map(|k| cam[k as usize]);
            if let Some((a, b)) = clip_segment(a, b, self.near) {
                let (a, b) = (view.project(&a), view.project(&b));
                self.canvas.line(
                    ScreenPoint::from_array(a),
                    ScreenPoint::from_array(b),
                    color,
                );
            }
        }
        // A few points as 3×3 px dots; a dense cloud (the skin of a body) as 1 px dots.
        let radius = if mesh.markers.len() > DENSE_CLOUD {
            0
        } else {
            1
        };
        for m in &mesh.markers {
            let p = view.to_camera(&(pose * m));
            if p.z > self.near {
                let s = ScreenPoint::from_array(view.project(&p));
                self.canvas.dot(s, radius, palette::POINT);
            }
        }
    }

    /// The arrow from the force's point along the force, drawn over everything: a shaft and a
    /// head whose length is a third of the arrow's (at most 14 px).
    fn draw_arrow(&mut self, arrow: &Arrow) {
        let f = arrow.f_world;
        if f.norm().is_nan()
            || f.norm() <= ARROW_THRESHOLD * self.largest_force
            || !arrow.p_world_tail.iter().all(|v| v.is_finite())
        {
            return;
        }
        let tail = self.view.to_camera(&arrow.p_world_tail);
        let tip = self
            .view
            .to_camera(&(arrow.p_world_tail + f * self.arrow_scale));
        let Some((tail, tip)) = clip_segment(tail, tip, self.near) else {
            return;
        };
        let (a, b) = (
            ScreenPoint::from_array(self.view.project(&tail)),
            ScreenPoint::from_array(self.view.project(&tip)),
        );
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = dx.hypot(dy);
        if len.is_nan() || len < 1.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let head = (len / 3.0).min(14.0);
        let base = ScreenPoint {
            x: b.x - ux * head,
            y: b.y - uy * head,
            inv_z: b.inv_z,
        };
        self.canvas
            .thick_line_overlay(a, base, ARROW_WIDTH, palette::ARROW);
        let side = |s: f64| ScreenPoint {
            x: base.x - uy * s * 0.45 * head,
            y: base.y + ux * s * 0.45 * head,
            inv_z: b.inv_z,
        };
        self.canvas
            .fill_triangle_overlay(&[side(1.0), side(-1.0), b], palette::ARROW);
    }
}

/// Fills triangle (a, b, c) of the camera frame, clipped to z ≥ near (Sutherland–Hodgman against
/// one plane: the kept part is a triangle or a quadrilateral, drawn as a fan).
fn fill_clipped(canvas: &mut Canvas, view: &View, near: f64, tri: [Vector3<f64>; 3], color: u8) {
    let mut kept: [Vector3<f64>; 4] = [Vector3::zeros(); 4];
    let mut n = 0;
    for k in 0..3 {
        let (p, q) = (tri[k], tri[(k + 1) % 3]);
        if p.z >= near {
            kept[n] = p;
            n += 1;
        }
        if (p.z >= near) != (q.z >= near) {
            kept[n] = p + (q - p) * ((near - p.z) / (q.z - p.z));
            n += 1;
        }
    }
    let screen = kept.map(|p| ScreenPoint::from_array(view.project(&p)));
    for k in 1..n.saturating_sub(1) {
        canvas.fill_triangle(&[screen[0], screen[k], screen[k + 1]], color);
    }
}

/// The part of segment (a, b) with z ≥ near, if any.
fn clip_segment(
    a: Vector3<f64>,
    b: Vector3<f64>,
    near: f64,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    match (a.z >= near, b.z >= near) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (true, false) => Some((a, a + (b - a) * ((near - a.z) / (b.z - a.z)))),
        (false, true) => Some((a + (b - a) * ((near - a.z) / (b.z - a.z)), b)),
    }
}

/// The World corners of the bounding box (in its R) of every bounded item at every frame: the
/// moving bodies' paths and the fixed geometry (a table a box tips from) alike; a joint's or
/// frame's glyph by its origin (its size follows from the scene's), a link by its ends. What the
/// automatic camera frames and plane patches cover. Planes are left out (they are unbounded).
pub fn scene_corners(animation: &Animation) -> Vec<Point3<f64>> {
    let mut corners = Vec::new();
    SceneCorners::of(animation).visit(&mut |p: &Point3<f64>| corners.push(*p));
    corners
}

/// [`scene_corners`] without storing them: each item's local box, with the corners made again
/// at every visit (a long animation of many items has millions of them).
struct SceneCorners<'a> {
    animation: &'a Animation,
    boxes: Vec<Option<[Vector3<f64>; 2]>>,
}

impl<'a> SceneCorners<'a> {
    fn of(animation: &'a Animation) -> Self {
        let boxes = animation
            .items
            .iter()
            .map(|item| match &item.shape {
                ItemShape::Geometry(Shape::InfinitePlane) => None,
                ItemShape::Geometry(shape) => local_box(&tessellate(shape, None)),
                ItemShape::Glyph(Glyph::Link(segments)) => Some(
                    segments
                        .iter()
                        .flatten()
                        .fold([Vector3::zeros(), Vector3::zeros()], |[lo, hi], p| {
                            [lo.inf(&p.coords), hi.sup(&p.coords)]
                        }),
                ),
                ItemShape::Glyph(_) => Some([Vector3::zeros(), Vector3::zeros()]),
            })
            .collect();
        SceneCorners { animation, boxes }
    }

    /// Hands every finite corner, frame by frame and item by item, to `f`.
    fn visit(&self, f: &mut dyn FnMut(&Point3<f64>)) {
        for frame in &self.animation.frames {
            for (pose, bx) in frame.r_world.iter().zip(&self.boxes) {
                let Some([lo, hi]) = bx else { continue };
                for k in 0..8 {
                    let pick = |bit: usize, l: f64, h: f64| if k & (1 << bit) != 0 { h } else { l };
                    let c = pose
                        * Point3::new(
                            pick(0, lo.x, hi.x),
                            pick(1, lo.y, hi.y),
                            pick(2, lo.z, hi.z),
                        );
                    if c.iter().all(|v| v.is_finite()) {
                        f(&c);
                    }
                }
            }
        }
    }
}

/// The bounding box of points, grown one point at a time.
#[derive(Clone, Copy, Default)]
struct Bounds(Option<(Vector3<f64>, Vector3<f64>)>);

impl Bounds {
    fn add(&mut self, p: &Point3<f64>) {
        self.0 = Some(match self.0 {
            None => (p.coords, p.coords),
            Some((lo, hi)) => (lo.inf(&p.coords), hi.sup(&p.coords)),
        });
    }

    /// The diagonal, m (1 m without points).
    fn extent(&self) -> f64 {
        self.0.map_or(1.0, |(lo, hi)| (hi - lo).norm().max(1e-3))
    }
}

/// Item `i`'s pose at the first frame (identity without frames).
fn first_pose(animation: &Animation, i: usize) -> Isometry3<f64> {
    animation
        .frames
        .first()
        .map_or(Isometry3::identity(), |f| f.r_world[i])
}

/// The bounding box [lo, hi] of a mesh's vertices and markers in its frame.
fn local_box(mesh: &Mesh) -> Option<[Vector3<f64>; 2]> {
    let points = mesh.vertices.iter().chain(&mesh.markers);
    points.fold(None, |acc, p| {
        Some(match acc {
            None => [p.coords, p.coords],
            Some([lo, hi]) => [lo.inf(&p.coords), hi.sup(&p.coords)],
        })
    })
}

/// The rectangle of plane item `i` (its R at the first frame) under the scene: the bounding
/// box of the scene's corners projected onto the plane, widened on each side by half its larger
/// side and at least by a quarter of the scene's size (the diagonal of the corners' bounding box),
/// and framed by the camera with the rest.
fn plane_patch(animation: &Animation, i: usize, corners: &SceneCorners, extent: f64) -> PlanePatch {
    let pose = first_pose(animation, i);
    let (mut x, mut y) = (
        [f64::INFINITY, f64::NEG_INFINITY],
        [f64::INFINITY, f64::NEG_INFINITY],
    );
    corners.visit(&mut |c: &Point3<f64>| {
        let p = pose.inverse_transform_point(c);
        x = [x[0].min(p.x), x[1].max(p.x)];
        y = [y[0].min(p.y), y[1].max(p.y)];
    });
    if x[0] > x[1] {
        return PlanePatch {
            x: [-0.5, 0.5],
            y: [-0.5, 0.5],
        };
    }
    let margin = (0.5 * (x[1] - x[0]).max(y[1] - y[0])).max(0.25 * extent);
    PlanePatch {
        x: [x[0] - margin, x[1] + margin],
        y: [y[0] - margin, y[1] + margin],
    }
}
