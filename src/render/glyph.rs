//! The meshes of the glyphs ([`Glyph`]): joints, frames and massless links, in the item's frame
//! (m). A joint's glyph and a frame's axes are sized by `s`, the glyph size the renderer picks
//! ([`GLYPH_FRACTION`] of the scene's size); a link is drawn at its true length.
//!
//! Joint glyphs, in the joint's frame (whose z axis is the joint's axis; see [`JointGlyph`]):
//!
//! | joint       | glyph                                                                       |
//! |-------------|-----------------------------------------------------------------------------|
//! | revolute    | cylinder of radius 0.2·s, length 0.8·s, along z; axis line z ∈ [−s, s]       |
//! | prismatic   | box 0.3·s × 0.3·s × 0.7·s along z; arrow z ∈ [−s, s], head at (0, 0, s)      |
//! | cylindrical | the revolute's cylinder and the prismatic's arrow                           |
//! | universal   | two cylinders (radius 0.12·s, length s) along x and y; axis lines x, y ∈ [−s, s] |
//! | spherical   | sphere of radius 0.3·s                                                      |
//! | planar      | square [−0.5·s, 0.5·s]² in the x-y plane; normal line z ∈ [0, s]            |
//! | free        | octahedron of edges, vertices at ±0.4·s on each axis (no faces)             |
//!
//! Axis lines and the arrow are in the joint ink ([`Ink::Joint`]); a frame's axes are the lines
//! from its origin to s·x̂, s·ŷ, s·ẑ in [`Ink::AxisX`], [`Ink::AxisY`], [`Ink::AxisZ`]; a link's
//! lines join each of its segments' two points in [`Ink::Link`].

use super::mesh::{brick, cylinder, ellipsoid, Ink, Mesh};
use super::scene::{Glyph, JointGlyph};
use nalgebra::{Isometry3, Point3, Vector3};
use std::f64::consts::FRAC_PI_2;

/// The glyph size s as a fraction of the diagonal of the scene's bounding box.
pub const GLYPH_FRACTION: f64 = 0.05;

/// The mesh of `glyph` with glyph size `s` (m); see the module documentation.
pub fn glyph_mesh(glyph: &Glyph, s: f64) -> Mesh {
    let mut m = Mesh::default();
    let o = Point3::origin();
    match glyph {
        Glyph::Joint(kind) => joint(&mut m, *kind, s),
        Glyph::Frame => {
            m.inked_line(o, Point3::new(s, 0.0, 0.0), Ink::AxisX);
            m.inked_line(o, Point3::new(0.0, s, 0.0), Ink::AxisY);
            m.inked_line(o, Point3::new(0.0, 0.0, s), Ink::AxisZ);
        }
        Glyph::Link(segments) => {
            for [a, b] in segments {
                m.inked_line(*a, *b, Ink::Link);
            }
        }
    }
    m
}

fn joint(m: &mut Mesh, kind: JointGlyph, s: f64) {
    let here = Isometry3::identity();
    let z_line = |m: &mut Mesh| {
        m.inked_line(
            Point3::new(0.0, 0.0, -s),
            Point3::new(0.0, 0.0, s),
            Ink::Joint,
        )
    };
    let arrow = |m: &mut Mesh| {
        z_line(m);
        let tip = Point3::new(0.0, 0.0, s);
        for (x, y) in [(0.2, 0.0), (-0.2, 0.0), (0.0, 0.2), (0.0, -0.2)] {
            m.inked_line(tip, Point3::new(x * s, y * s, 0.75 * s), Ink::Joint);
        }
    };
    match kind {
        JointGlyph::Revolute => {
            m.append(cylinder(0.2 * s, 0.8 * s), &here);
            z_line(m);
        }
        JointGlyph::Prismatic => {
            m.append(brick(Vector3::new(0.15 * s, 0.15 * s, 0.35 * s)), &here);
            arrow(m);
        }
        JointGlyph::Cylindrical => {
            m.append(cylinder(0.2 * s, 0.8 * s), &here);
            arrow(m);
        }
        JointGlyph::Universal => {
            // The cylinder's z turned onto x (about y by +90°) and onto y (about x by −90°).
            let onto_x = Isometry3::rotation(Vector3::y() * FRAC_PI_2);
            let onto_y = Isometry3::rotation(Vector3::x() * -FRAC_PI_2);
            for pose in [onto_x, onto_y] {
                m.append(cylinder(0.12 * s, s), &pose);
                m.inked_line(
                    pose * Point3::new(0.0, 0.0, -s),
                    pose * Point3::new(0.0, 0.0, s),
                    Ink::Joint,
                );
            }
        }
        JointGlyph::Spherical => m.append(ellipsoid(Vector3::repeat(0.3 * s)), &here),
        JointGlyph::Planar => {
            let h = 0.5 * s;
            let base = m.vertices.len() as u32;
            for (x, y) in [(-h, -h), (h, -h), (h, h), (-h, h)] {
                m.vertices.push(Point3::new(x, y, 0.0));
            }
            m.triangles.push([base, base + 1, base + 2]);
            m.triangles.push([base, base + 2, base + 3]);
            for k in 0..4 {
                m.edges.push([base + k, base + (k + 1) % 4]);
            }
            m.inked_line(Point3::origin(), Point3::new(0.0, 0.0, s), Ink::Joint);
        }
        JointGlyph::Free => {
            let r = 0.4 * s;
            let tips = [
                Vector3::x(),
                -Vector3::x(),
                Vector3::y(),
                -Vector3::y(),
                Vector3::z(),
                -Vector3::z(),
            ];
            // Every pair of tips on different axes is an edge: 12 edges.
            for i in 0..6 {
                for j in i + 1..6 {
                    if i / 2 != j / 2 {
                        m.inked_line(
                            Point3::from(tips[i] * r),
                            Point3::from(tips[j] * r),
                            Ink::Joint,
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The World ends of every inked line of `mesh` in `ink`, placed at `pose`.
    fn inked(mesh: &Mesh, ink: Ink, pose: &Isometry3<f64>) -> Vec<[Point3<f64>; 2]> {
        mesh.inked
            .iter()
            .filter(|(_, i)| *i == ink)
            .map(|(e, _)| e.map(|k| pose * mesh.vertices[k as usize]))
            .collect()
    }

    /// A pose with a turn that is not about any coordinate axis, and an offset.
    fn pose() -> Isometry3<f64> {
        Isometry3::new(Vector3::new(1.0, -2.0, 0.5), Vector3::new(0.3, -0.7, 1.1))
    }

    fn close(a: &Point3<f64>, b: &Point3<f64>) -> bool {
        // Rounding of one rotation and translation of O(1) m values: 1e-12 m.
        (a - b).norm() < 1e-12
    }

    /// Every face vertex of `mesh` (at `pose`) as World points.
    fn face_points(mesh: &Mesh, pose: &Isometry3<f64>) -> Vec<Point3<f64>> {
        let used = mesh.triangles.iter().chain(&mesh.mark_triangles).flatten();
        used.map(|&k| pose * mesh.vertices[k as usize]).collect()
    }

    /// A revolute joint's axis line at pose X = (R, p) runs from p − s·R·ẑ to p + s·R·ẑ; its
    /// cylinder's face vertices lie at distance 0.2·s (rim) or 0 (cap centres) from that axis
    /// and within ±0.4·s along it.
    #[test]
    fn a_revolute_glyph_lies_along_its_axis() {
        let (x, s) = (pose(), 0.3);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Revolute), s);
        let axis = x.rotation * Vector3::z();
        let p = Point3::from(x.translation.vector);
        let lines = inked(&m, Ink::Joint, &x);
        assert_eq!(lines.len(), 1);
        assert!(close(&lines[0][0], &(p - s * axis)) && close(&lines[0][1], &(p + s * axis)));
        for q in face_points(&m, &x) {
            let along = (q - p).dot(&axis);
            let off = ((q - p) - along * axis).norm();
            assert!(along.abs() < 0.4 * s + 1e-12, "{along}");
            assert!(off < 1e-12 || (off - 0.2 * s).abs() < 1e-12, "{off}");
        }
    }

    /// A prismatic joint's arrow: the shaft from p − s·R·ẑ to p + s·R·ẑ, four head lines from the
    /// tip back to 0.75·s along the axis, 0.2·s off it.
    #[test]
    fn a_prismatic_glyph_is_an_arrow_along_its_axis() {
        let (x, s) = (pose(), 0.5);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Prismatic), s);
        let axis = x.rotation * Vector3::z();
        let p = Point3::from(x.translation.vector);
        let lines = inked(&m, Ink::Joint, &x);
        assert_eq!(lines.len(), 5);
        assert!(close(&lines[0][0], &(p - s * axis)) && close(&lines[0][1], &(p + s * axis)));
        for [tip, back] in &lines[1..] {
            assert!(close(tip, &(p + s * axis)));
            let along = (back - p).dot(&axis);
            assert!((along - 0.75 * s).abs() < 1e-12);
            assert!((((back - p) - along * axis).norm() - 0.2 * s).abs() < 1e-12);
        }
        // The sleeve is the box of half sizes (0.15, 0.15, 0.35)·s: its corners in the joint
        // frame.
        for q in face_points(&m, &Isometry3::identity()) {
            assert!((q.x.abs() - 0.15 * s).abs() < 1e-15 && (q.z.abs() - 0.35 * s).abs() < 1e-15);
        }
    }

    /// A cylindrical joint has both: the shaft and head (5 joint lines) and the cylinder.
    #[test]
    fn a_cylindrical_glyph_has_the_cylinder_and_the_arrow() {
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Cylindrical), 1.0);
        assert_eq!(inked(&m, Ink::Joint, &Isometry3::identity()).len(), 5);
        let r = face_points(&m, &Isometry3::identity())
            .iter()
            .map(|q| q.coords.xy().norm())
            .fold(0.0, f64::max);
        assert!((r - 0.2).abs() < 1e-12);
    }

    /// A universal joint's two axis lines run along the frame's x and y: R·x̂ and R·ŷ through p.
    #[test]
    fn a_universal_glyph_crosses_its_x_and_y_axes() {
        let (x, s) = (pose(), 0.2);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Universal), s);
        let p = Point3::from(x.translation.vector);
        let lines = inked(&m, Ink::Joint, &x);
        assert_eq!(lines.len(), 2);
        for (line, axis) in lines.iter().zip([Vector3::x(), Vector3::y()]) {
            let a = x.rotation * axis;
            // Each line is ±s along its axis, in either order.
            let d = line[1] - line[0];
            assert!(
                (d.norm() - 2.0 * s).abs() < 1e-12 && d.normalize().dot(&a).abs() > 1.0 - 1e-12
            );
            assert!(close(
                &Point3::from(0.5 * (line[0].coords + line[1].coords)),
                &p
            ));
        }
    }

    /// A spherical joint's ball: every face vertex 0.3·s from p.
    #[test]
    fn a_spherical_glyph_is_a_ball_about_the_origin() {
        let (x, s) = (pose(), 0.4);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Spherical), s);
        let p = Point3::from(x.translation.vector);
        let points = face_points(&m, &x);
        assert!(!points.is_empty() && m.inked.is_empty());
        for q in points {
            assert!(((q - p).norm() - 0.3 * s).abs() < 1e-12);
        }
    }

    /// A planar joint's square lies in the frame's x-y plane (zero height along R·ẑ), its corners
    /// at ±0.5·s, its normal line from p to p + s·R·ẑ.
    #[test]
    fn a_planar_glyph_is_a_square_with_its_normal() {
        let (x, s) = (pose(), 0.6);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Planar), s);
        let n = x.rotation * Vector3::z();
        let p = Point3::from(x.translation.vector);
        for q in face_points(&m, &x) {
            assert!((q - p).dot(&n).abs() < 1e-12);
            assert!(((q - p).norm() - 0.5 * s * 2f64.sqrt()).abs() < 1e-12);
        }
        let lines = inked(&m, Ink::Joint, &x);
        assert_eq!(lines.len(), 1);
        assert!(close(&lines[0][0], &p) && close(&lines[0][1], &(p + s * n)));
    }

    /// A free joint's octahedron: 12 edges of length 0.4·s·√2, no faces.
    #[test]
    fn a_free_glyph_is_an_octahedron_of_edges() {
        let (x, s) = (pose(), 1.5);
        let m = glyph_mesh(&Glyph::Joint(JointGlyph::Free), s);
        let lines = inked(&m, Ink::Joint, &x);
        assert_eq!(lines.len(), 12);
        assert!(m.triangles.is_empty());
        for [a, b] in lines {
            assert!(((a - b).norm() - 0.4 * s * 2f64.sqrt()).abs() < 1e-12);
        }
    }

    /// A frame's axes end at p + s·R·x̂, p + s·R·ŷ, p + s·R·ẑ, each in its colour.
    #[test]
    fn a_frame_glyph_draws_its_three_axes() {
        let (x, s) = (pose(), 0.25);
        let m = glyph_mesh(&Glyph::Frame, s);
        let p = Point3::from(x.translation.vector);
        for (ink, axis) in [
            (Ink::AxisX, Vector3::x()),
            (Ink::AxisY, Vector3::y()),
            (Ink::AxisZ, Vector3::z()),
        ] {
            let lines = inked(&m, ink, &x);
            assert_eq!(lines.len(), 1);
            assert!(close(&lines[0][0], &p) && close(&lines[0][1], &(p + s * (x.rotation * axis))));
        }
    }
}
