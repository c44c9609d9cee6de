//! Triangle meshes of the shapes, in each shape's own frame R, with the edges worth drawing.
//!
//! Triangles are counter-clockwise seen from outside, so (b − a) × (c − a) points outwards.
//! Closed solids are `closed` (their back faces are never seen and are culled); disks, plane
//! patches and grid surfaces are open and lit from whichever side faces the camera.
//!
//! Edges: a brick's 12 edges; a convex hull's face boundaries; a cylinder's two rims and four
//! lines along its side; a disk's rim and one diameter; three great ellipses of a sphere or
//! ellipsoid (its R's coordinate planes), which show it turning; a grid surface's grid lines; a
//! plane patch's border and a grid of lines 1/8 of its size apart. Points and point clouds are
//! markers, not triangles.
//!
//! Spin marks: a body turning about its own axis of symmetry looks still unless something on it
//! is not symmetric, so a sphere or ellipsoid has a dark stripe (the faces of the two azimuth
//! segments from φ = 0 to 2·2π/32, pole to pole) and a cylinder a dark sector on each cap (from
//! φ = 0 to 2π/8) and a dark strip along its side (φ from 0 to 2π/32). These faces are in
//! [`Mesh::mark_triangles`], drawn in the edge colour.

use crate::geometry::Shape;
use nalgebra::{Point3, Vector3};
use std::f64::consts::TAU;

/// Segments of a full circle (sphere meridians, cylinder and disk rims).
const CIRCLE_SEGMENTS: usize = 32;
/// Rings from pole to pole of a sphere or ellipsoid.
const SPHERE_RINGS: usize = 16;
/// Azimuth segments of a sphere's spin stripe.
const SPHERE_STRIPE: usize = 2;
/// Segments of a cylinder cap's spin sector.
const CAP_SECTOR: usize = CIRCLE_SEGMENTS / 8;
/// Grid lines across a plane patch, per side.
const PATCH_LINES: usize = 8;

/// A tessellated shape in its frame R (m).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    pub vertices: Vec<Point3<f64>>,
    pub triangles: Vec<[u32; 3]>,
    /// Edges drawn as lines (pairs of vertex indices; edge vertices may be extra vertices that
    /// no triangle uses).
    pub edges: Vec<[u32; 2]>,
    /// Drawn as dots.
    pub markers: Vec<Point3<f64>>,
    /// Faces drawn in the dark edge colour (spin marks), besides `triangles`.
    pub mark_triangles: Vec<[u32; 3]>,
    /// Lines drawn in a colour of their own (a glyph's axes, a massless link): vertex indices and
    /// the ink.
    pub inked: Vec<([u32; 2], Ink)>,
    /// True when the triangles enclose a volume (back faces are culled).
    pub closed: bool,
}

/// The colour of an inked line: a frame's axes are x red, y green, z blue; joint axes and massless
/// links have a colour each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// A frame's x axis (red).
    AxisX,
    /// A frame's y axis (green).
    AxisY,
    /// A frame's z axis (blue).
    AxisZ,
    /// A joint's axis (dark magenta).
    Joint,
    /// A massless link (dark brown).
    Link,
}

impl Ink {
    /// Every ink, in the order of their palette indices and of the viewer's `inks`.
    pub const ALL: [Ink; 5] = [Ink::AxisX, Ink::AxisY, Ink::AxisZ, Ink::Joint, Ink::Link];
}

/// The rectangle [x0, x1]×[y0, y1] of an infinite plane's x-y plane that is drawn, m (in R).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanePatch {
    pub x: [f64; 2],
    pub y: [f64; 2],
}

impl Mesh {
    fn vertex(&mut self, p: Point3<f64>) -> u32 {
        self.vertices.push(p);
        (self.vertices.len() - 1) as u32
    }

    /// A closed polyline through new vertices `points` (not used by triangles).
    fn loop_edges(&mut self, points: impl Iterator<Item = Point3<f64>>) {
        let first = self.vertices.len() as u32;
        let mut n = 0;
        for p in points {
            self.vertex(p);
            n += 1;
        }
        for k in 0..n {
            self.edges.push([first + k, first + (k + 1) % n]);
        }
    }

    /// A line between two new vertices.
    fn line(&mut self, a: Point3<f64>, b: Point3<f64>) {
        let i = self.vertex(a);
        let j = self.vertex(b);
        self.edges.push([i, j]);
    }

    /// A line in `ink` between two new vertices.
    pub(super) fn inked_line(&mut self, a: Point3<f64>, b: Point3<f64>, ink: Ink) {
        let i = self.vertex(a);
        let j = self.vertex(b);
        self.inked.push(([i, j], ink));
    }

    /// Adds `other` moved by `pose` (its frame to this mesh's frame).
    pub(super) fn append(&mut self, other: Mesh, pose: &nalgebra::Isometry3<f64>) {
        let base = self.vertices.len() as u32;
        let shift = |ix: [u32; 3]| ix.map(|i| i + base);
        self.vertices
            .extend(other.vertices.iter().map(|p| pose * p));
        self.triangles
            .extend(other.triangles.into_iter().map(shift));
        self.mark_triangles
            .extend(other.mark_triangles.into_iter().map(shift));
        self.edges
            .extend(other.edges.into_iter().map(|e| e.map(|i| i + base)));
        self.inked.extend(
            other
                .inked
                .into_iter()
                .map(|(e, ink)| (e.map(|i| i + base), ink)),
        );
        self.markers.extend(other.markers.iter().map(|p| pose * p));
    }
}

/// The mesh of `shape`; an infinite plane is drawn as `patch` (the unit square about the origin
/// when `None`).
pub fn tessellate(shape: &Shape, patch: Option<PlanePatch>) -> Mesh {
    match shape {
        Shape::Sphere(s) => ellipsoid(Vector3::repeat(s.radius())),
        Shape::Ellipsoid(e) => ellipsoid(e.radii()),
        Shape::Brick(b) => brick(b.half_size()),
        Shape::Cylinder(c) => cylinder(c.radius(), c.length()),
        Shape::ConvexHull(h) => {
            let mut m = Mesh {
                vertices: h.vertices().to_vec(),
                triangles: h
                    .mesh()
                    .triangles
                    .iter()
                    .map(|t| t.map(|i| i as u32))
                    .collect(),
                closed: true,
                ..Mesh::default()
            };
            for face in h.faces() {
                let n = face.vertices.len();
                for k in 0..n {
                    let (a, b) = (face.vertices[k], face.vertices[(k + 1) % n]);
                    // Each edge borders two faces: draw it once.
                    if a < b {
                        m.edges.push([a as u32, b as u32]);
                    }
                }
            }
            m
        }
        Shape::Disk(d) => disk(d.radius()),
        Shape::InfinitePlane => plane_patch(patch.unwrap_or(PlanePatch {
            x: [-0.5, 0.5],
            y: [-0.5, 0.5],
        })),
        Shape::GridSurface(g) => grid_surface(g.x(), g.y(), |i, j| g.z(i, j)),
        Shape::Point => Mesh {
            markers: vec![Point3::origin()],
            ..Mesh::default()
        },
        Shape::PointCloud(c) => Mesh {
            markers: c.points().to_vec(),
            ..Mesh::default()
        },
    }
}

/// A UV sphere scaled by the semi-axes `radii`: SPHERE_RINGS rings × CIRCLE_SEGMENTS segments,
/// the first SPHERE_STRIPE segments of azimuth marked.
pub(super) fn ellipsoid(radii: Vector3<f64>) -> Mesh {
    let mut m = Mesh {
        closed: true,
        ..Mesh::default()
    };
    let point = |polar: f64, azimuth: f64| {
        Point3::new(
            radii.x * polar.sin() * azimuth.cos(),
            radii.y * polar.sin() * azimuth.sin(),
            radii.z * polar.cos(),
        )
    };
    let (rings, segs) = (SPHERE_RINGS, CIRCLE_SEGMENTS);
    for r in 0..=rings {
        for s in 0..segs {
            let polar = std::f64::consts::PI * r as f64 / rings as f64;
            m.vertex(point(polar, TAU * s as f64 / segs as f64));
        }
    }
    let at = |r: usize, s: usize| (r * segs + s % segs) as u32;
    for r in 0..rings {
        for s in 0..segs {
            let (a, b, c, d) = (at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s + 1));
            // Going down the rings and round the azimuth is counter-clockwise from outside.
            let faces = if s < SPHERE_STRIPE {
                &mut m.mark_triangles
            } else {
                &mut m.triangles
            };
            if r > 0 {
                faces.push([a, b, d]);
            }
            if r + 1 < rings {
                faces.push([d, b, c]);
            }
        }
    }
    let circle = |k: usize| TAU * k as f64 / segs as f64;
    m.loop_edges(
        (0..segs).map(|k| Point3::new(radii.x * circle(k).cos(), radii.y * circle(k).sin(), 0.0)),
    );
    m.loop_edges(
        (0..segs).map(|k| Point3::new(0.0, radii.y * circle(k).cos(), radii.z * circle(k).sin())),
    );
    m.loop_edges(
        (0..segs).map(|k| Point3::new(radii.x * circle(k).cos(), 0.0, radii.z * circle(k).sin())),
    );
    m
}

/// A box of half edge lengths `h`, centred, edges along the axes.
pub(super) fn brick(h: Vector3<f64>) -> Mesh {
    let mut m = Mesh {
        closed: true,
        ..Mesh::default()
    };
    // Corner k has coordinate signs from its bits: x from bit 0, y from bit 1, z from bit 2.
    for k in 0..8u32 {
        let s = |bit: u32| if k & (1 << bit) != 0 { 1.0 } else { -1.0 };
        m.vertex(Point3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z));
    }
    // Quads counter-clockwise from outside: −x, +x, −y, +y, −z, +z.
    let quads: [[u32; 4]; 6] = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    for [a, b, c, d] in quads {
        m.triangles.push([a, b, c]);
        m.triangles.push([a, c, d]);
    }
    for k in 0..8u32 {
        for bit in 0..3 {
            if k & (1 << bit) == 0 {
                m.edges.push([k, k | (1 << bit)]);
            }
        }
    }
    m
}

/// A cylinder of radius r and length L along z, centred; spin marks on its caps (the first
/// CAP_SECTOR segments) and its side (the first segment).
pub(super) fn cylinder(r: f64, length: f64) -> Mesh {
    let mut m = Mesh {
        closed: true,
        ..Mesh::default()
    };
    let n = CIRCLE_SEGMENTS;
    let h = 0.5 * length;
    let rim = |k: usize, z: f64| {
        let a = TAU * k as f64 / n as f64;
        Point3::new(r * a.cos(), r * a.sin(), z)
    };
    for k in 0..n {
        m.vertex(rim(k, -h));
        m.vertex(rim(k, h));
    }
    let bottom = m.vertex(Point3::new(0.0, 0.0, -h));
    let top = m.vertex(Point3::new(0.0, 0.0, h));
    for k in 0..n {
        let (b0, t0) = (2 * k as u32, 2 * k as u32 + 1);
        let (b1, t1) = (2 * ((k + 1) % n) as u32, 2 * ((k + 1) % n) as u32 + 1);
        let side = if k == 0 {
            &mut m.mark_triangles
        } else {
            &mut m.triangles
        };
        side.push([b0, b1, t1]);
        side.push([b0, t1, t0]);
        let caps = if k < CAP_SECTOR {
            &mut m.mark_triangles
        } else {
            &mut m.triangles
        };
        caps.push([bottom, b1, b0]);
        caps.push([top, t0, t1]);
    }
    for z in [-h, h] {
        m.loop_edges((0..n).map(|k| rim(k, z)));
    }
    for k in (0..n).step_by(n / 4) {
        m.line(rim(k, -h), rim(k, h));
    }
    m
}

/// A flat disk of radius r in the x-y plane (normal +z), open.
fn disk(r: f64) -> Mesh {
    let mut m = Mesh::default();
    let n = CIRCLE_SEGMENTS;
    let rim = |k: usize| {
        let a = TAU * k as f64 / n as f64;
        Point3::new(r * a.cos(), r * a.sin(), 0.0)
    };
    let centre = m.vertex(Point3::origin());
    for k in 0..n {
        m.vertex(rim(k));
    }
    for k in 0..n as u32 {
        m.triangles.push([centre, 1 + k, 1 + (k + 1) % n as u32]);
    }
    m.loop_edges((0..n).map(rim));
    m.line(rim(0), rim(n / 2));
    m
}

/// The rectangle `p` of the x-y plane, open, with its border and grid lines.
fn plane_patch(p: PlanePatch) -> Mesh {
    let mut m = Mesh::default();
    let [x0, x1] = p.x;
    let [y0, y1] = p.y;
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
        m.vertex(Point3::new(x, y, 0.0));
    }
    m.triangles.push([0, 1, 2]);
    m.triangles.push([0, 2, 3]);
    for k in 0..=PATCH_LINES {
        let s = k as f64 / PATCH_LINES as f64;
        let (x, y) = (x0 + s * (x1 - x0), y0 + s * (y1 - y0));
        m.line(Point3::new(x, y0, 0.0), Point3::new(x, y1, 0.0));
        m.line(Point3::new(x0, y, 0.0), Point3::new(x1, y, 0.0));
    }
    m
}

/// The height field z(x_i, y_j) over the grid `xs` × `ys`, two triangles per cell, open, with
/// its grid lines.
fn grid_surface(xs: &[f64], ys: &[f64], z: impl Fn(usize, usize) -> f64) -> Mesh {
    let mut m = Mesh::default();
    let (nx, ny) = (xs.len(), ys.len());
    for (i, &x) in xs.iter().enumerate() {
        for (j, &y) in ys.iter().enumerate() {
            m.vertex(Point3::new(x, y, z(i, j)));
        }
    }
    let at = |i: usize, j: usize| (i * ny + j) as u32;
    for i in 0..nx.saturating_sub(1) {
        for j in 0..ny.saturating_sub(1) {
            m.triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            m.triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    for i in 0..nx {
        for j in 0..ny {
            if i + 1 < nx {
                m.edges.push([at(i, j), at(i + 1, j)]);
            }
            if j + 1 < ny {
                m.edges.push([at(i, j), at(i, j + 1)]);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Closed meshes: every triangle's normal points away from the centre (counter-clockwise from
    /// outside), and the surface area approaches the exact one.
    #[test]
    fn closed_meshes_face_outwards_and_have_the_right_area() {
        let shapes = [
            (Shape::sphere(0.5).unwrap(), std::f64::consts::PI, 0.02),
            (Shape::brick([1.0, 2.0, 3.0]).unwrap(), 22.0, 1e-12),
            (
                Shape::cylinder(0.5, 2.0).unwrap(),
                TAU * 0.5 * 2.0 + 2.0 * std::f64::consts::PI * 0.25,
                0.01,
            ),
        ];
        for (shape, exact_area, tol) in shapes {
            let m = tessellate(&shape, None);
            assert!(m.closed);
            let mut area = 0.0;
            for t in m.triangles.iter().chain(&m.mark_triangles) {
                let [a, b, c] = t.map(|i| m.vertices[i as usize]);
                let n = (b - a).cross(&(c - a));
                let centroid = (a.coords + b.coords + c.coords) / 3.0;
                assert!(n.dot(&centroid) > 0.0, "{shape:?}: inward triangle {t:?}");
                area += 0.5 * n.norm();
            }
            // Polygonal approximations of curved surfaces lose area: 1 − sin(2π/n)/(2π/n) per
            // ring for n = 32 segments is 0.6 %; the sphere's rings lose the same again.
            assert!(
                (area - exact_area).abs() < tol * exact_area,
                "{shape:?}: {area} vs {exact_area}"
            );
        }
    }

    #[test]
    fn a_brick_has_twelve_edges_of_its_three_lengths() {
        let m = tessellate(&Shape::brick([1.0, 2.0, 3.0]).unwrap(), None);
        let mut lengths: Vec<f64> = m
            .edges
            .iter()
            .map(|e| (m.vertices[e[0] as usize] - m.vertices[e[1] as usize]).norm())
            .collect();
        lengths.sort_by(f64::total_cmp);
        assert_eq!(
            lengths,
            [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0]
        );
    }

    #[test]
    fn a_cube_hull_draws_its_twelve_edges_not_its_diagonals() {
        let corners: Vec<[f64; 3]> = (0..8)
            .map(|k| [(k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64])
            .collect();
        let m = tessellate(&Shape::convex_hull(&corners).unwrap(), None);
        assert_eq!(m.triangles.len(), 12);
        assert_eq!(m.edges.len(), 12);
    }
}
