//! Convex–convex, convex–disk and point–convex queries against hand-computed contacts.
//!
//! Tolerances: exact paths (plane, grid, sphere cores, polytopes through GJK/EPA which terminate
//! on exact faces) are held to 1e-12 m; smooth shapes through GJK to 1e-9 m (GJK's relative
//! tolerance is 1e-10).

use std::f64::consts::{FRAC_PI_4, PI};

use blockdyn::geometry::{query, ContactGeometry, Shape};
use geometry_common::*;
use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion};

mod geometry_common;

#[test]
fn sphere_sphere() {
    let a = Shape::sphere(0.5).unwrap();
    let b = Shape::sphere(0.3).unwrap();
    // Apart: centres 1 m apart along x: 1 − 0.8 = 0.2; witnesses x = 0.5 and 0.7 → point x = 0.6.
    check(
        &a,
        &at(0.0, 0.0, 0.0),
        &b,
        &at(1.0, 0.0, 0.0),
        0.2,
        v(1.0, 0.0, 0.0),
        Some(v(0.6, 0.0, 0.0)),
        EXACT,
    );
    // Penetrating along (0, 3, 4)/5 at distance 0.5: separation −0.3; witnesses 0.5 and 0.2 along it.
    let dir = v(0.0, 0.6, 0.8);
    let c = check(
        &a,
        &at(1.0, 1.0, 1.0),
        &b,
        &Isometry3::translation(1.0, 1.3, 1.4),
        -0.3,
        dir,
        None,
        EXACT,
    );
    assert!((c.point.coords - (v(1.0, 1.0, 1.0) + dir * 0.35)).norm() < EXACT);
    assert!((c.witness_base().coords - (v(1.0, 1.0, 1.0) + dir * 0.5)).norm() < EXACT);
    assert!((c.witness_follower().coords - (v(1.0, 1.0, 1.0) + dir * 0.2)).norm() < EXACT);
    assert!((c.penetration_depth() - 0.3).abs() < EXACT);
}

#[test]
fn brick_brick_face_face() {
    let cube = Shape::brick([1.0, 1.0, 1.0]).unwrap();
    // Overlap 0.1 along x, offsets in y, z smaller than the overlap in x would need.
    check(
        &cube,
        &at(0.0, 0.0, 0.0),
        &cube,
        &at(0.9, 0.1, 0.05),
        -0.1,
        v(1.0, 0.0, 0.0),
        None,
        EXACT,
    );
    check(
        &cube,
        &at(0.0, 0.0, 0.0),
        &cube,
        &at(0.0, -0.93, 0.2),
        -0.07,
        v(0.0, -1.0, 0.0),
        None,
        EXACT,
    );
    // Apart by 0.2 along x.
    let c = check(
        &cube,
        &at(0.0, 0.0, 0.0),
        &cube,
        &at(1.2, 0.3, 0.2),
        0.2,
        v(1.0, 0.0, 0.0),
        None,
        EXACT,
    );
    assert!((c.point.x - 0.6).abs() < EXACT);
    // A brick turned 45° about z pokes its vertical edge into the face x = 0.5 of the cube.
    let turned = posed(
        [0.5 + FRAC_PI_4.sin() - 0.05, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        FRAC_PI_4,
    );
    let c = check(
        &cube,
        &at(0.0, 0.0, 0.0),
        &cube,
        &turned,
        -0.05,
        v(1.0, 0.0, 0.0),
        None,
        EXACT,
    );
    assert!((c.point.x - 0.475).abs() < EXACT && c.point.y.abs() < EXACT);
    // Both rotated the same way: still face-face, in the rotated frame.
    let rot = posed([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.4);
    let shifted = posed(
        (rot * Point3::new(0.95, 0.0, 0.0)).coords.into(),
        [0.0, 0.0, 1.0],
        0.4,
    );
    check(
        &cube,
        &rot,
        &cube,
        &shifted,
        -0.05,
        rot * v(1.0, 0.0, 0.0),
        None,
        EXACT,
    );
}

#[test]
fn sphere_brick_edge_and_corner_regions() {
    let brick = Shape::brick([2.0, 2.0, 2.0]).unwrap();
    let sphere = Shape::sphere(0.5).unwrap();
    // Edge region (x > 1, y > 1, |z| < 1): distance to the edge (1, 1, z) is √(0.6² + 0.8²) = 1.
    check(
        &brick,
        &Isometry3::identity(),
        &sphere,
        &at(1.6, 1.8, 0.2),
        0.5,
        v(0.6, 0.8, 0.0),
        None,
        EXACT,
    );
    // Corner region, penetrating with the centre outside: distance √(0.04 + 0.04 + 0.01) = 0.3.
    check(
        &brick,
        &Isometry3::identity(),
        &sphere,
        &at(1.2, 1.2, 1.1),
        -0.2,
        v(0.2, 0.2, 0.1),
        None,
        EXACT,
    );
    // Face region, centre inside the brick (deep): depth = r + distance from centre to the face.
    check(
        &brick,
        &Isometry3::identity(),
        &sphere,
        &at(0.0, 0.0, 0.8),
        -0.7,
        v(0.0, 0.0, 1.0),
        None,
        1e-9,
    );
}

#[test]
fn convex_disk() {
    let disk = Shape::disk(0.5).unwrap();
    let sphere = Shape::sphere(0.1).unwrap();
    // Over the disk's face: 0.3 − 0.1 = 0.2, normal +z from the disk.
    check(
        &disk,
        &Isometry3::identity(),
        &sphere,
        &at(0.2, 0.0, 0.3),
        0.2,
        v(0.0, 0.0, 1.0),
        None,
        EXACT,
    );
    // Beyond the rim: nearest disk point (0.5, 0, 0); distance √(0.2² + 0.3²).
    let d = 0.13f64.sqrt();
    check(
        &disk,
        &Isometry3::identity(),
        &sphere,
        &at(0.7, 0.0, 0.3),
        d - 0.1,
        v(0.2, 0.0, 0.3),
        None,
        EXACT,
    );
    // A cube (half 0.5) resting 0.05 deep on a smaller disk (r 0.3): pushed up by 0.05.
    let cube = Shape::brick([1.0, 1.0, 1.0]).unwrap();
    let small = Shape::disk(0.3).unwrap();
    check(
        &small,
        &Isometry3::identity(),
        &cube,
        &at(0.05, 0.0, 0.45),
        -0.05,
        v(0.0, 0.0, 1.0),
        None,
        EXACT,
    );
    // An ellipsoid above a tilted disk (smooth, through GJK).
    let ell = Shape::ellipsoid([0.1, 0.2, 0.3]).unwrap();
    check(
        &small,
        &Isometry3::identity(),
        &ell,
        &at(0.0, 0.0, 0.5),
        0.2,
        v(0.0, 0.0, 1.0),
        None,
        SMOOTH,
    );
}

#[test]
fn point_and_convex_hull() {
    // Tetrahedron x, y, z ≥ 0, x + y + z ≤ 1.
    let tet = Shape::convex_hull(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ])
    .unwrap();
    // Outside the slanted face: (1,1,1) is (3 − 1)/√3 from the plane x + y + z = 1.
    let n = v(1.0, 1.0, 1.0);
    check(
        &tet,
        &Isometry3::identity(),
        &Shape::Point,
        &at(1.0, 1.0, 1.0),
        2.0 / 3f64.sqrt(),
        n,
        None,
        EXACT,
    );
    // Inside, nearest the face z = 0 (0.05 away; the others are farther).
    check(
        &tet,
        &Isometry3::identity(),
        &Shape::Point,
        &at(0.2, 0.2, 0.05),
        -0.05,
        v(0.0, 0.0, -1.0),
        None,
        EXACT,
    );
    // Point against a plane.
    check(
        &Shape::InfinitePlane,
        &at(0.0, 0.0, 1.0),
        &Shape::Point,
        &at(4.0, 5.0, 0.7),
        -0.3,
        v(0.0, 0.0, 1.0),
        None,
        EXACT,
    );
}

/// A sphere (an ellipsoid with equal radii, so through GJK, and a Sphere, through the closed form)
/// moving around another in 0.1° steps: the normal turns by exactly the step angle each time.
#[test]
fn sphere_around_sphere_is_continuous() {
    let base = Shape::sphere(0.5).unwrap();
    for follower in [
        Shape::sphere(0.3).unwrap(),
        Shape::ellipsoid([0.3, 0.3, 0.3]).unwrap(),
    ] {
        let mut previous: Option<ContactGeometry> = None;
        let step = PI / 1800.0;
        for k in 0..3600 {
            let phi = step * k as f64;
            let centre = v(phi.cos(), 0.0, phi.sin()) * 0.79; // 0.01 deep
            let c = query(
                &base,
                &Isometry3::identity(),
                &follower,
                &at(centre.x, centre.y, centre.z),
            )
            .unwrap();
            assert!(
                (c.separation + 0.01).abs() < SMOOTH,
                "k = {k}: {}",
                c.separation
            );
            if let Some(p) = previous {
                let turn = p.normal.angle(&c.normal);
                assert!((turn - step).abs() < 1e-7, "k = {k}: normal turned {turn}");
                assert!(
                    ((c.point - p.point).norm() - 2.0 * 0.495 * (0.5 * step).sin()).abs() < 1e-8
                );
            }
            previous = Some(c);
        }
    }
}

/// Regression: a brick pair whose Minkowski difference has many coplanar vertices once broke EPA's
/// polytope (rounding made a face in the plane of a new point "visible"). Checks: moving the
/// follower by (depth + 1e-6) along the normal leaves them 1e-6 apart.
#[test]
fn brick_brick_coplanar_minkowski_regression() {
    let b1 = Shape::brick([0.41112337359241796, 0.9790227898734271, 0.46835751198248904]).unwrap();
    let b2 = Shape::brick([0.8585539409241176, 0.855660856145366, 0.771929857489076]).unwrap();
    let axis1 = v(0.2575607596748288, 0.2282012928651145, -0.8955225929025586);
    let axis2 = v(-0.9953742794510149, -0.6237195357047542, 0.8969845519093249);
    let p1 = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis1), 2.9455981039756933),
    );
    let t = v(
        0.25573899075955886,
        -0.4960727925845851,
        -0.25909145951307866,
    );
    let rotation2 = UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis2), 4.359432182741758);
    let c = query(&b1, &p1, &b2, &Isometry3::from_parts(t.into(), rotation2)).unwrap();
    assert!(c.separation < 0.0);
    let moved = Isometry3::from_parts(
        (t + c.normal.into_inner() * (1e-6 - c.separation)).into(),
        rotation2,
    );
    let after = query(&b1, &p1, &b2, &moved).unwrap();
    assert!(
        (after.separation - 1e-6).abs() < 1e-9,
        "after moving: {}",
        after.separation
    );
}

/// Regression (found by the brick–brick property with a random seed): two rotated bricks moved
/// apart along the reported normal by the reported depth plus 1 µm are 1 µm apart. GJK used to
/// call this near-touching pair intersecting (the four face tests of a sliver tetrahedron all
/// claimed the origin inside) and EPA then reported a 4.1 mm penetration.
#[test]
fn near_touching_rotated_bricks_are_separated_by_the_gap() {
    use blockdyn::geometry::{query, Shape};
    use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
    let pose = |t: Vector3<f64>, axis: Vector3<f64>, angle: f64| {
        Isometry3::from_parts(
            Translation3::from(t),
            UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), angle),
        )
    };
    let b1 = Shape::brick([0.43654680777205374, 0.7149584847209557, 0.7851499320374635]).unwrap();
    let b2 = Shape::brick([0.7803635177805683, 0.2949024170766186, 0.59674393236172]).unwrap();
    let p1 = pose(
        Vector3::zeros(),
        Vector3::new(-0.9499352141132366, 0.8559833585051492, 0.2591554358225033),
        1.4828341709526383,
    );
    let p2 = pose(
        Vector3::new(-0.3337959428517698, -0.4193073984502073, 0.5330088231602296),
        Vector3::new(0.8148390461708579, 0.05600689760845018, -0.3015557151427216),
        3.0793503013979753,
    );
    let c = query(&b1, &p1, &b2, &p2).unwrap();
    assert!(c.separation < -0.1, "deep penetration: {}", c.separation);
    let n = c.normal.into_inner();
    for gap in [1e-6, 1e-3] {
        let moved = Isometry3::from_parts(
            Translation3::from(p2.translation.vector + n * (-c.separation + gap)),
            p2.rotation,
        );
        let after = query(&b1, &p1, &b2, &moved).unwrap();
        assert!(
            (after.separation - gap).abs() < 1e-9,
            "gap {gap}: separation {}",
            after.separation
        );
    }
}

/// A cylinder (and a disk) 1e-4 m deep in a large brick, tilted from flat to upright: GJK used to
/// stop without progress 1e-9 m short of the origin and report the pair apart (135 of 20,001
/// tilts for the cylinder, 228 for the disk), dropping the contact force to zero. Every tilt must
/// report the penetration: 1e-4 m to 1e-7 (EPA's tolerance on these curved shapes); the disk to
/// 2e-6 (its support blends towards the centre within 1e-4 rad of flat: r·2.5e-5 = 1.25e-6 m).
#[test]
fn curved_rims_pressed_into_a_brick_are_never_reported_apart() {
    use nalgebra::Vector3;
    let cylinder = Shape::cylinder(0.05, 0.1).unwrap();
    let disk = Shape::disk(0.05).unwrap();
    let brick = Shape::brick([1.0, 1.0, 0.2]).unwrap();
    let brick_pose = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, -0.1),
        UnitQuaternion::identity(),
    );
    let depth = 1e-4;
    for i in 0..=20_000 {
        let tilt = i as f64 / 20_000.0 * std::f64::consts::FRAC_PI_2;
        let (s, c) = tilt.sin_cos();
        let turn = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), tilt);
        for (shape, height, tolerance) in [
            (&cylinder, 0.05 * c + 0.05 * s - depth, 1e-7),
            (&disk, 0.05 * s - depth, 2e-6),
        ] {
            let pose = Isometry3::from_parts(Translation3::new(0.0, 0.0, height), turn);
            let g = query(&brick, &brick_pose, shape, &pose).unwrap();
            assert!(
                (g.separation + depth).abs() < tolerance,
                "tilt {tilt}: separation {} for {shape:?}",
                g.separation
            );
        }
    }
}

/// EPA works in the caller's [`QueryWorkspace`]. One workspace reused over many penetrating
/// queries of different shapes (the polytope store keeps what earlier queries left in it) gives
/// the bits a fresh workspace gives each query; and two threads, each with its own workspace,
/// give the single-threaded bits (nothing is shared between them: no thread-local store).
#[test]
fn a_reused_workspace_and_threads_give_the_fresh_results() {
    use blockdyn::geometry::{query_with, QueryWorkspace};
    let brick = Shape::brick([0.4, 0.3, 0.2]).unwrap();
    let cylinder = Shape::cylinder(0.15, 0.3).unwrap();
    let hull = Shape::convex_hull(&[
        [0.2, 0.0, 0.0],
        [-0.1, 0.17, 0.0],
        [-0.1, -0.17, 0.0],
        [0.0, 0.0, 0.25],
        [0.0, 0.0, -0.1],
    ])
    .unwrap();
    let shapes = [&brick, &cylinder, &hull];
    // Penetrating poses: centres 0.05–0.15 m apart, turned about changing axes.
    let cases: Vec<(usize, usize, Isometry3<f64>)> = (0..60)
        .map(|k| {
            let f = k as f64;
            let axis = Unit::new_normalize(nalgebra::Vector3::new(1.0, 0.3 * f, 0.7 - 0.1 * f));
            let pose = Isometry3::from_parts(
                Translation3::new(0.05 + 0.001 * f, 0.02 * (f * 0.7).sin(), 0.1 - 0.0015 * f),
                UnitQuaternion::from_axis_angle(&axis, 0.37 * f),
            );
            (k % 3, (k / 3) % 3, pose)
        })
        .collect();
    let run = |workspace: &mut QueryWorkspace, fresh: bool| -> Vec<[u64; 7]> {
        cases
            .iter()
            .map(|(a, b, pose)| {
                if fresh {
                    *workspace = QueryWorkspace::new();
                }
                let c = query_with(
                    workspace,
                    shapes[*a],
                    &Isometry3::identity(),
                    shapes[*b],
                    pose,
                )
                .unwrap();
                let (p, n) = (c.point, c.normal);
                [c.separation, p.x, p.y, p.z, n.x, n.y, n.z].map(f64::to_bits)
            })
            .collect()
    };
    let fresh = run(&mut QueryWorkspace::new(), true);
    let penetrating = fresh.iter().filter(|r| f64::from_bits(r[0]) < 0.0).count();
    assert!(
        penetrating >= 40,
        "EPA ran on {penetrating} of 60 queries only"
    );
    assert_eq!(run(&mut QueryWorkspace::new(), false), fresh);
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| run(&mut QueryWorkspace::new(), false)))
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), fresh);
        }
    });
}
