//! Manifolds of each pair kind against hand-computed polygons.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::*;

const EPS: f64 = 1e-12;

pub(super) fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::new(x, y, z), UnitQuaternion::identity())
}

pub(super) fn posed(x: f64, y: f64, z: f64, axis: Vector3<f64>, angle: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle),
    )
}

pub(super) fn manifold(
    a: &Shape,
    pa: &Isometry3<f64>,
    b: &Shape,
    pb: &Isometry3<f64>,
) -> ContactManifold {
    let mut m = ContactManifold::for_pair(a, b);
    contact_manifold(a, pa, b, pb, &mut m).unwrap();
    m
}

/// The points' (x, y) sorted, for comparing with hand-computed corners.
fn sorted_xy(m: &ContactManifold) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = m.points().iter().map(|p| (p.point.x, p.point.y)).collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    v
}

fn assert_xy(m: &ContactManifold, expected: &[(f64, f64)], tol: f64) {
    let got = sorted_xy(m);
    let mut want = expected.to_vec();
    want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    assert_eq!(got.len(), want.len(), "points {got:?}, expected {want:?}");
    for (g, w) in got.iter().zip(&want) {
        assert!(
            (g.0 - w.0).abs() < tol && (g.1 - w.1).abs() < tol,
            "points {got:?}, expected {want:?}"
        );
    }
}

fn square(h: f64) -> Vec<(f64, f64)> {
    vec![(-h, -h), (h, -h), (h, h), (-h, h)]
}

#[test]
fn brick_flat_on_a_plane_touches_at_its_four_bottom_corners() {
    let brick = Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let depth = 1e-4;
    let m = manifold(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
        &brick,
        &at(0.0, 0.0, 0.1 - depth),
    );
    assert_eq!(m.kind(), ManifoldKind::Polygon);
    assert_xy(&m, &square(0.1), EPS);
    for p in m.points() {
        assert!((p.depth - depth).abs() < EPS);
        // Midway between the corner (z = −depth) and the plane (z = 0).
        assert!((p.point.z + 0.5 * depth).abs() < EPS);
    }
    assert!((m.normal().into_inner() - Vector3::z()).norm() < EPS);
    // Plane as the follower: the normal turns round, the points stay.
    let swapped = manifold(
        &brick,
        &at(0.0, 0.0, 0.1 - depth),
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
    );
    assert_xy(&swapped, &square(0.1), EPS);
    assert!((swapped.normal().into_inner() + Vector3::z()).norm() < EPS);
}

#[test]
fn a_tilt_of_a_nanoradian_keeps_the_same_points_with_continuous_depths() {
    let brick = Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let depth = 1e-4;
    for hull in [false, true] {
        let shape = if hull {
            let mut corners = Vec::new();
            for x in [-0.1, 0.1] {
                for y in [-0.1, 0.1] {
                    for z in [-0.1, 0.1] {
                        corners.push([x, y, z]);
                    }
                }
            }
            Shape::convex_hull(&corners).unwrap()
        } else {
            brick.clone()
        };
        for tilt in [-1e-9, 0.0, 1e-9] {
            let pose = posed(0.0, 0.0, 0.1 - depth, Vector3::x(), tilt);
            let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), &shape, &pose);
            assert_xy(&m, &square(0.1), 1e-9);
            for p in m.points() {
                // Depth at y = ±0.1 changes by 0.1·tilt.
                let expected = depth - p.point.y * tilt;
                assert!(
                    (p.depth - expected).abs() < 1e-15,
                    "{} vs {expected}",
                    p.depth
                );
            }
        }
    }
}

#[test]
fn brick_on_its_edge_touches_at_two_points() {
    let brick = Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let half_diagonal = 0.1 * 2f64.sqrt();
    let depth = 1e-4;
    let pose = posed(
        0.0,
        0.0,
        half_diagonal - depth,
        Vector3::y(),
        0.25 * std::f64::consts::PI,
    );
    let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), &brick, &pose);
    assert_xy(&m, &[(0.0, -0.1), (0.0, 0.1)], 1e-12);
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
    }
    // Turned onto a corner: one point.
    let corner_up =
        UnitQuaternion::rotation_between(&Vector3::new(-1.0, -1.0, -1.0), &-Vector3::z()).unwrap();
    let corner_height = 0.1 * 3f64.sqrt();
    let pose = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, corner_height - depth),
        corner_up,
    );
    let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), &brick, &pose);
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth - depth).abs() < 1e-12);
}

#[test]
fn brick_on_brick_centred_and_offset_gives_the_overlap_rectangle() {
    let small = Shape::brick([0.1, 0.1, 0.1]).unwrap();
    let table = Shape::brick([0.4, 0.4, 0.1]).unwrap();
    let depth = 1e-4;
    // Centred: the small brick's bottom corners.
    let m = manifold(
        &table,
        &at(0.0, 0.0, 0.0),
        &small,
        &at(0.0, 0.0, 0.1 - depth),
    );
    assert_eq!(m.kind(), ManifoldKind::Polygon);
    assert_xy(&m, &square(0.05), 1e-12);
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
        assert!((p.point.z - (0.05 - 0.5 * depth)).abs() < 1e-12);
    }
    assert!((m.normal().into_inner() - Vector3::z()).norm() < 1e-12);
    // Two equal bricks, the upper one 3 cm off centre in x: x from −0.02 to 0.05.
    let m = manifold(
        &small,
        &at(0.0, 0.0, 0.0),
        &small,
        &at(0.03, 0.0, 0.1 - depth),
    );
    assert_xy(
        &m,
        &[(-0.02, -0.05), (0.05, -0.05), (0.05, 0.05), (-0.02, 0.05)],
        1e-12,
    );
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
    }
    // The same seen from the other side: the normal points down, the points stay.
    let m = manifold(
        &small,
        &at(0.03, 0.0, 0.1 - depth),
        &small,
        &at(0.0, 0.0, 0.0),
    );
    assert_eq!(m.points().len(), 4);
    assert!((m.normal().into_inner() + Vector3::z()).norm() < 1e-12);
}

#[test]
fn brick_rotated_about_the_normal_keeps_its_rotated_corners() {
    let small = Shape::brick([0.1, 0.1, 0.1]).unwrap();
    let table = Shape::brick([0.4, 0.4, 0.1]).unwrap();
    let depth = 1e-4;
    let angle: f64 = 0.5;
    let pose = posed(0.0, 0.0, 0.1 - depth, Vector3::z(), angle);
    let m = manifold(&table, &at(0.0, 0.0, 0.0), &small, &pose);
    let (s, c) = angle.sin_cos();
    let corners: Vec<(f64, f64)> = square(0.05)
        .iter()
        .map(|&(x, y)| (c * x - s * y, s * x + c * y))
        .collect();
    assert_xy(&m, &corners, 1e-12);
}

#[test]
fn brick_edge_on_a_brick_face_gives_two_points() {
    let small = Shape::brick([0.1, 0.1, 0.1]).unwrap();
    let table = Shape::brick([0.4, 0.4, 0.1]).unwrap();
    let depth = 1e-4;
    let h = 0.05 * 2f64.sqrt();
    let pose = posed(
        0.0,
        0.0,
        0.05 + h - depth,
        Vector3::y(),
        0.25 * std::f64::consts::PI,
    );
    let m = manifold(&table, &at(0.0, 0.0, 0.0), &small, &pose);
    assert_xy(&m, &[(0.0, -0.05), (0.0, 0.05)], 1e-9);
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
    }
}

#[test]
fn cylinder_on_its_side_touches_along_its_length() {
    let cylinder = Shape::cylinder(0.1, 0.2).unwrap();
    let depth = 1e-4;
    // Axis along world x.
    let pose = posed(
        0.0,
        0.0,
        0.1 - depth,
        Vector3::y(),
        0.5 * std::f64::consts::PI,
    );
    let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), &cylinder, &pose);
    assert!((m.max_depth() - depth).abs() < 1e-12);
    // Two clusters, at x = ±0.1, symmetric: the share-and-depth-weighted centre is the middle.
    let (mut left, mut right) = (0, 0);
    let (mut weight, mut centre) = (0.0, Vector3::zeros());
    for p in m.points() {
        assert!((p.point.x.abs() - 0.1).abs() < 1e-12);
        if p.point.x < 0.0 {
            left += 1
        } else {
            right += 1
        }
        weight += p.share * p.depth;
        centre += p.point.coords * p.share * p.depth;
    }
    assert_eq!(left, right);
    let centre = centre / weight;
    assert!(
        centre.x.abs() < 1e-12 && centre.y.abs() < 1e-12,
        "{centre:?}"
    );
}

#[test]
fn cylinder_standing_on_its_cap_touches_around_its_rim() {
    let cylinder = Shape::cylinder(0.1, 0.2).unwrap();
    let depth = 1e-4;
    let m = manifold(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
        &cylinder,
        &at(0.0, 0.0, 0.1 - depth),
    );
    assert!(m.points().len() >= ARC_SAMPLES - 1);
    let (mut weight, mut centre) = (0.0, Vector3::zeros());
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
        assert!((p.point.coords.xy().norm() - 0.1).abs() < 1e-12);
        weight += p.share * p.depth;
        centre += p.point.coords * p.share * p.depth;
    }
    let centre = centre / weight;
    assert!(centre.xy().norm() < 1e-12, "{centre:?}");
}

#[test]
fn tilted_disk_touches_along_the_arc_below_the_plane() {
    let disk = Shape::disk(0.1).unwrap();
    let tilt: f64 = 0.3;
    let depth = 1e-3;
    // The disk's lowest rim point is at z = h − r·sin(tilt).
    let pose = posed(0.0, 0.0, 0.1 * tilt.sin() - depth, Vector3::x(), tilt);
    let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), &disk, &pose);
    assert!((m.max_depth() - depth).abs() < 1e-12, "{}", m.max_depth());
    // The arc's two ends are at depth 0 (up to round-off): 7 of the 9 samples carry depth.
    let deep = m.points().iter().filter(|p| p.depth > 1e-15).count();
    assert_eq!(deep, ARC_SAMPLES - 2);
    for p in m.points() {
        assert!(p.depth > 0.0 && p.depth <= depth + 1e-15);
        // Every point is on the rim.
        let local = pose
            .inverse_transform_point(&Point3::from(p.point.coords - Vector3::z() * 0.5 * p.depth));
        assert!((local.coords.norm() - 0.1).abs() < 1e-12);
    }
}

#[test]
fn cube_hull_on_a_hull_face_to_face() {
    let corners = |h: f64| {
        let mut v = Vec::new();
        for x in [-h, h] {
            for y in [-h, h] {
                for z in [-h, h] {
                    v.push([x, y, z]);
                }
            }
        }
        v
    };
    let small = Shape::convex_hull(&corners(0.05)).unwrap();
    let big = Shape::convex_hull(&corners(0.2)).unwrap();
    let depth = 1e-4;
    let m = manifold(
        &big,
        &at(0.0, 0.0, 0.0),
        &small,
        &at(0.0, 0.0, 0.25 - depth),
    );
    assert_xy(&m, &square(0.05), 1e-12);
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
    }
}

#[test]
fn separated_pairs_have_no_points_and_report_the_distance() {
    let brick = Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let m = manifold(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
        &brick,
        &at(0.0, 0.0, 0.15),
    );
    assert_eq!(m.kind(), ManifoldKind::Apart);
    assert!(m.points().is_empty());
    assert!((m.separation() - 0.05).abs() < 1e-12);
}

#[test]
fn spheres_keep_the_single_point() {
    let sphere = Shape::sphere(0.1).unwrap();
    let m = manifold(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
        &sphere,
        &at(0.0, 0.0, 0.09),
    );
    assert_eq!(m.kind(), ManifoldKind::Single);
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth - 0.01).abs() < 1e-12);
}

#[test]
fn reduction_keeps_the_corners_and_the_total_share() {
    // A 32-gon prism standing on its cap: 32 points, reduced to 4.
    let n = 32;
    let mut pts = Vec::new();
    for k in 0..n {
        let a = std::f64::consts::TAU * k as f64 / n as f64;
        for z in [-0.05, 0.05] {
            pts.push([0.1 * a.cos(), 0.1 * a.sin(), z]);
        }
    }
    let prism = Shape::convex_hull(&pts).unwrap();
    let mut m = manifold(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 0.0),
        &prism,
        &at(0.0, 0.0, 0.0499),
    );
    assert_eq!(m.points().len(), n);
    let total: f64 = m.points().iter().map(|p| p.share).sum();
    m.reduce(4);
    assert_eq!(m.points().len(), 4);
    assert!((m.points().iter().map(|p| p.share).sum::<f64>() - total).abs() < 1e-12);
    // Four points spread round the rim: they span a quadrilateral of area near the inscribed
    // square's 2r² (0.02 m²).
    let q: Vec<Vector3<f64>> = m.points().iter().map(|p| p.point.coords).collect();
    let area = 0.5 * ((q[1] - q[0]).cross(&(q[2] - q[0])).norm());
    assert!(area > 0.005, "{area}");
    let mut sorted = q.clone();
    sorted.sort_by(|a, b| a.y.atan2(a.x).total_cmp(&b.y.atan2(b.x)));
    let quad = 0.5 * ((sorted[2] - sorted[0]).cross(&(sorted[3] - sorted[1]))).norm();
    assert!(quad > 0.019, "{quad}");
}

#[test]
fn cylinder_standing_on_a_brick_touches_around_its_rim() {
    let cylinder = Shape::cylinder(0.05, 0.1).unwrap();
    let table = Shape::brick([0.4, 0.4, 0.1]).unwrap();
    let depth = 1e-4;
    let m = manifold(
        &table,
        &at(0.0, 0.0, 0.0),
        &cylinder,
        &at(0.0, 0.0, 0.1 - depth),
    );
    assert_eq!(m.kind(), ManifoldKind::Polygon);
    let (mut total, mut centre) = (0.0, Vector3::zeros());
    for p in m.points() {
        assert!((p.depth - depth).abs() < 1e-12);
        assert!((p.point.coords.xy().norm() - 0.05).abs() < 1e-12);
        total += p.share;
        centre += p.point.coords * p.share;
    }
    // The whole rim is down: shares sum to 1 and centre on the axis.
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert!((centre / total).xy().norm() < 1e-12);
}

#[test]
fn brick_on_a_disk_is_clipped_by_the_disk_polygon() {
    // A 0.2 m brick centred 0.1 m off a disk of radius 0.1: the overlap is clipped by the disk's
    // 16-gon; every point lies inside the disk and inside the brick's face.
    let disk = Shape::disk(0.1).unwrap();
    let brick = Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let depth = 1e-4;
    let m = manifold(
        &disk,
        &at(0.0, 0.0, 0.0),
        &brick,
        &at(0.1, 0.0, 0.1 - depth),
    );
    assert!(m.points().len() >= 3);
    for p in m.points() {
        assert!(p.point.coords.xy().norm() <= 0.1 + 1e-12, "{p:?}");
        assert!(p.point.x >= -1e-12 && p.point.x <= 0.2 + 1e-12);
        assert!((p.depth - depth).abs() < 1e-12);
    }
    let total: f64 = m.points().iter().map(|p| p.share).sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn cylinder_lying_over_a_brick_edge_is_cut_at_the_edge() {
    // A cylinder (axis along x, length 0.2) lying on a brick whose top face ends at x = 0.05:
    // the contact line runs from the cylinder's end at x = −0.1 to the edge at x = 0.05.
    let cylinder = Shape::cylinder(0.05, 0.2).unwrap();
    let table = Shape::brick([0.2, 0.4, 0.1]).unwrap();
    let depth = 1e-4;
    let pose = posed(
        0.0,
        0.0,
        0.1 - depth,
        Vector3::y(),
        0.5 * std::f64::consts::PI,
    );
    let m = manifold(&table, &at(-0.05, 0.0, 0.0), &cylinder, &pose);
    let xs: Vec<f64> = m.points().iter().map(|p| p.point.x).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(
        (lo + 0.1).abs() < 1e-12 && (hi - 0.05).abs() < 1e-12,
        "{lo} {hi}"
    );
    // The law's depth is the contact line's depth at every point.
    for p in m.points() {
        assert!((p.effective_depth - depth).abs() < 1e-12, "{p:?}");
    }
}

#[test]
fn a_cylinder_rolling_off_a_brick_edge_presses_no_deeper_than_its_dent() {
    // A cylinder (r = 0.05) on its side, axis along y, parallel to a table edge at x = 0.5, its
    // lowest line 1e-4 below the table top. Past the edge, the dent left at the edge is
    // d(x) = 1e-4 − (r − sqrt(r² − (x − 0.5)²)) and no point presses deeper.
    let cylinder = Shape::cylinder(0.05, 0.2).unwrap();
    let table = Shape::brick([1.0, 1.0, 0.1]).unwrap();
    let depth = 1e-4;
    for x in [0.501, 0.502, 0.503, 0.5031] {
        let pose = posed(
            x,
            0.0,
            0.1 - depth,
            Vector3::x(),
            0.5 * std::f64::consts::PI,
        );
        let m = manifold(&table, &at(0.0, 0.0, 0.0), &cylinder, &pose);
        let dx: f64 = x - 0.5;
        let dent = depth - (0.05 - (0.05f64 * 0.05 - dx * dx).sqrt());
        for p in m.points() {
            assert!(
                p.effective_depth <= dent + 1e-12,
                "x = {x}: {p:?} vs dent {dent}"
            );
        }
        if !m.points().is_empty() {
            let deepest = m
                .points()
                .iter()
                .fold(0.0f64, |a, p| a.max(p.effective_depth));
            // The arc between samples is a chord: the cut lies up to its sagitta inside the rim,
            // r·(Δφ/2)²/2 = 1.6e-6 m for 9 samples over the arc's 2·0.063 rad.
            assert!(
                (deepest - dent).abs() < 2e-6,
                "x = {x}: {deepest} vs {dent}"
            );
        }
    }
}
