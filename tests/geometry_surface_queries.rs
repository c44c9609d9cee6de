//! Plane, disk–plane, grid-surface and point-cloud queries against hand-computed contacts, and
//! the pair table.
//!
//! Tolerances: exact paths (plane, grid, sphere cores, polytopes through GJK/EPA which terminate
//! on exact faces) are held to 1e-12 m; smooth shapes through GJK to 1e-9 m (GJK's relative
//! tolerance is 1e-10).

use std::f64::consts::{FRAC_PI_2, PI};

use blockdyn::geometry::{
    pair_supported, query, query_point_cloud, supported_partners, ContactGeometry, GeometryError,
    Shape, ShapeKind,
};
use geometry_common::*;
use nalgebra::{Isometry3, Point3, Unit, Vector3};

mod geometry_common;

#[test]
fn sphere_plane_tilted() {
    // Plane through (0, 0, 1) tilted by 30° about x: n = (0, −sin 30°, cos 30°).
    let plane = posed([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], PI / 6.0);
    let n = v(0.0, -0.5, 3f64.sqrt() / 2.0);
    let sphere = Shape::sphere(0.25).unwrap();
    let centre = v(0.3, 0.4, 1.5);
    let height = n.dot(&(centre - v(0.0, 0.0, 1.0)));
    let c = check(
        &Shape::InfinitePlane,
        &plane,
        &sphere,
        &at(0.3, 0.4, 1.5),
        height - 0.25,
        n,
        None,
        EXACT,
    );
    // Witness on the sphere: centre − r n; on the plane: centre − height n.
    let expected_point = centre - n * (0.5 * (0.25 + height));
    assert!((c.point.coords - expected_point).norm() < EXACT);
    // Penetrating: centre 0.1 above the plane.
    let centre = v(0.0, 0.0, 1.0) + n * 0.1;
    check(
        &Shape::InfinitePlane,
        &plane,
        &sphere,
        &at(centre.x, centre.y, centre.z),
        -0.15,
        n,
        None,
        EXACT,
    );
}

/// Brick 2 × 1 × 0.5 turned by θ about y: its lowest point is hx sin θ + hz cos θ below the centre.
#[test]
fn brick_plane_at_a_tilt() {
    let brick = Shape::brick([2.0, 1.0, 0.5]).unwrap();
    let theta: f64 = 0.3;
    let depth_below = 1.0 * theta.sin() + 0.25 * theta.cos();
    for h in [0.5, 0.2] {
        let pose = posed([0.1, 0.2, h], [0.0, 1.0, 0.0], theta);
        let c = check(
            &Shape::InfinitePlane,
            &Isometry3::identity(),
            &brick,
            &pose,
            h - depth_below,
            v(0.0, 0.0, 1.0),
            None,
            EXACT,
        );
        // The lowest edge is the one at body x = +hx, z = −hz (world z of body (x, z) is −x sin θ + z cos θ);
        // the support picks its middle (body y = 0).
        let lowest = pose * Point3::new(1.0, 0.0, -0.25);
        assert!(
            (c.witness_follower() - lowest).norm() < EXACT,
            "{} vs {lowest}",
            c.witness_follower()
        );
        assert!((c.point.z - 0.5 * (h - depth_below)).abs() < EXACT);
    }
}

#[test]
fn cylinder_plane_standing_lying_tilted() {
    let cyl = Shape::cylinder(0.2, 1.0).unwrap();
    let up = v(0.0, 0.0, 1.0);
    // Standing, bottom cap at 0.45 − 0.5 = −0.05; the support is the cap centre.
    let c = check(
        &Shape::InfinitePlane,
        &Isometry3::identity(),
        &cyl,
        &at(0.3, 0.0, 0.45),
        -0.05,
        up,
        None,
        EXACT,
    );
    assert!((c.point.coords - v(0.3, 0.0, -0.025)).norm() < EXACT);
    // Lying (axis along y), centre at 0.25: 0.05 above; the lowest line's middle is under the centre.
    let lying = posed([0.0, 0.0, 0.25], [1.0, 0.0, 0.0], FRAC_PI_2);
    let c = check(
        &Shape::InfinitePlane,
        &Isometry3::identity(),
        &cyl,
        &lying,
        0.05,
        up,
        None,
        EXACT,
    );
    assert!((c.witness_follower().coords - v(0.0, 0.0, 0.05)).norm() < EXACT);
    // Tilted by θ about x: lowest point L/2 cos θ + r sin θ below the centre.
    let theta: f64 = 0.4;
    let tilted = posed([0.0, 0.0, 0.5], [1.0, 0.0, 0.0], theta);
    check(
        &Shape::InfinitePlane,
        &Isometry3::identity(),
        &cyl,
        &tilted,
        0.5 - 0.5 * theta.cos() - 0.2 * theta.sin(),
        up,
        None,
        EXACT,
    );
}

#[test]
fn disk_plane_tilted() {
    let disk = Shape::disk(0.5).unwrap();
    // Disk tilted 30° about x, centre at 0.2: its rim dips r sin 30° = 0.25 below the centre.
    let pose = posed([0.0, 0.0, 0.2], [1.0, 0.0, 0.0], PI / 6.0);
    let c = check(
        &Shape::InfinitePlane,
        &Isometry3::identity(),
        &disk,
        &pose,
        -0.05,
        v(0.0, 0.0, 1.0),
        None,
        EXACT,
    );
    // The rim point: body (0, +r, 0) → world y = r cos 30°, z = 0.2 + r sin 30°? No: rotation about x by +30° maps
    // body +y to (0, cos, sin) (up), so the lowest rim point is body −y: world (0, −r cos 30°, 0.2 − r sin 30°).
    let rim = v(0.0, -0.5 * (PI / 6.0).cos(), -0.05);
    assert!((c.witness_follower().coords - rim).norm() < EXACT);
}

#[test]
fn ellipsoid_plane() {
    let ell = Shape::ellipsoid([0.3, 0.2, 0.1]).unwrap();
    // Turned θ about x: extent along world z is √(b² sin²θ + c² cos²θ).
    let theta: f64 = 0.7;
    let extent = (0.04 * theta.sin().powi(2) + 0.01 * theta.cos().powi(2)).sqrt();
    for h in [0.3, 0.1] {
        let pose = posed([0.5, -0.5, h], [1.0, 0.0, 0.0], theta);
        check(
            &Shape::InfinitePlane,
            &Isometry3::identity(),
            &ell,
            &pose,
            h - extent,
            v(0.0, 0.0, 1.0),
            None,
            EXACT,
        );
    }
}

/// Point over a sloped grid cell: the cell is planar, z = 0.3 x − 0.1 y + 1, so the separation is
/// the perpendicular distance (z_p − h)/√(1 + 0.3² + 0.1²).
#[test]
fn point_grid_sloped_cell() {
    let xs = [0.0, 1.0, 2.0];
    let ys = [0.0, 1.0];
    let z: Vec<Vec<f64>> = xs
        .iter()
        .map(|&x| ys.iter().map(|&y| 0.3 * x - 0.1 * y + 1.0).collect())
        .collect();
    let grid = Shape::grid_surface(&xs, &ys, &z).unwrap();
    let n = v(-0.3, 0.1, 1.0).normalize();
    let k = 1.1f64.sqrt();
    // Above: h(1.5, 0.5) = 1.4, point at z = 2.
    let c = check(
        &grid,
        &Isometry3::identity(),
        &Shape::Point,
        &at(1.5, 0.5, 2.0),
        0.6 / k,
        n,
        None,
        EXACT,
    );
    assert!((c.witness_follower().coords - v(1.5, 0.5, 2.0)).norm() < EXACT);
    // The grid's witness lies on the (planar) surface.
    let w = c.witness_base();
    assert!((w.z - (0.3 * w.x - 0.1 * w.y + 1.0)).abs() < EXACT);
    // Below by 0.2 vertically.
    check(
        &grid,
        &Isometry3::identity(),
        &Shape::Point,
        &at(1.5, 0.5, 1.2),
        -0.2 / k,
        n,
        None,
        EXACT,
    );
    // The same with the grid moved and turned about z: distances are unchanged.
    let pose = posed([3.0, -1.0, 0.5], [0.0, 0.0, 1.0], 0.9);
    let p = pose * Point3::new(1.5, 0.5, 1.2);
    check(
        &grid,
        &pose,
        &Shape::Point,
        &at(p.x, p.y, p.z),
        -0.2 / k,
        pose.rotation * n,
        None,
        EXACT,
    );
    // Outside the extent: no contact; the separation is the horizontal distance to the extent.
    let c = query(
        &grid,
        &Isometry3::identity(),
        &Shape::Point,
        &at(3.0, 0.5, -5.0),
    )
    .unwrap();
    assert!((c.separation - 1.0).abs() < EXACT && c.normal.z == 1.0);
}

#[test]
fn cloud_plane_per_point_in_order() {
    let pts = [
        [0.0, 0.0, 0.0],
        [0.1, 0.0, -0.05],
        [0.0, 0.2, 0.3],
        [-0.1, -0.1, 0.01],
    ];
    let cloud = Shape::point_cloud(&pts).unwrap();
    // Cloud lifted to z = 0.02, plane tilted 0.2 rad about y.
    let plane = posed([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.2);
    let n = plane.rotation * v(0.0, 0.0, 1.0);
    let pose = at(0.0, 0.0, 0.02);
    let mut out = [ContactGeometry {
        separation: 0.0,
        point: Point3::origin(),
        normal: Vector3::z_axis(),
    }; 4];
    query_point_cloud(&Shape::InfinitePlane, &plane, &cloud, &pose, &mut out).unwrap();
    for (i, p) in pts.iter().enumerate() {
        let world = v(p[0], p[1], p[2] + 0.02);
        assert!(
            (out[i].separation - n.dot(&world)).abs() < EXACT,
            "point {i}"
        );
        assert!((out[i].normal.into_inner() - n).norm() < EXACT);
        assert!((out[i].witness_follower().coords - world).norm() < EXACT);
    }
    // Cloud as the base: normals reversed, separations equal.
    let mut swapped = out;
    query_point_cloud(&cloud, &pose, &Shape::InfinitePlane, &plane, &mut swapped).unwrap();
    for i in 0..4 {
        assert_eq!(swapped[i].separation, out[i].separation);
        assert!((swapped[i].normal.into_inner() + n).norm() < EXACT);
    }
    // The scalar query reports the deepest point (index 1).
    let c = query(&Shape::InfinitePlane, &plane, &cloud, &pose).unwrap();
    assert_eq!(c, out[1]);
    // Wrong output length.
    let e =
        query_point_cloud(&Shape::InfinitePlane, &plane, &cloud, &pose, &mut out[..3]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "per-point contact query: the output has 3 entries but the point cloud has 4 points"
    );
}

#[test]
fn cloud_against_brick_and_grid() {
    let pts = [[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [2.0, 0.0, 0.0]];
    let cloud = Shape::point_cloud(&pts).unwrap();
    let brick = Shape::brick([2.0, 2.0, 2.0]).unwrap();
    let mut out = [ContactGeometry {
        separation: 0.0,
        point: Point3::origin(),
        normal: Vector3::z_axis(),
    }; 3];
    query_point_cloud(
        &brick,
        &Isometry3::identity(),
        &cloud,
        &at(0.0, 0.0, 0.95),
        &mut out,
    )
    .unwrap();
    // Point 0 at (0,0,0.95): 0.05 inside the top face; point 1 at (0.9, 0, 0.95): 0.05 inside (top and side
    // tie at 0.05 and 0.1 → top, 0.05); point 2 at (2, 0, 0.95): 1 m from the side face x = 1.
    assert!((out[0].separation + 0.05).abs() < EXACT && (out[0].normal.z - 1.0).abs() < EXACT);
    assert!((out[1].separation + 0.05).abs() < EXACT && (out[1].normal.z - 1.0).abs() < EXACT);
    assert!((out[2].separation - 1.0).abs() < EXACT && (out[2].normal.x - 1.0).abs() < EXACT);

    let grid =
        Shape::grid_surface(&[0.0, 1.0], &[0.0, 1.0], &[vec![0.0, 0.0], vec![0.0, 1.0]]).unwrap(); // h = x y
    let cloud = Shape::point_cloud(&[[0.5, 0.5, 0.5], [0.2, 0.5, 0.0]]).unwrap();
    let mut out2 = [out[0]; 2];
    query_point_cloud(
        &grid,
        &Isometry3::identity(),
        &cloud,
        &Isometry3::identity(),
        &mut out2,
    )
    .unwrap();
    // At (0.5, 0.5): h = 0.25, slopes (0.5, 0.5): separation 0.25/√1.5.
    assert!((out2[0].separation - 0.25 / 1.5f64.sqrt()).abs() < EXACT);
    // At (0.2, 0.5): h = 0.1, slopes (0.5, 0.2): separation −0.1/√1.29.
    assert!((out2[1].separation + 0.1 / 1.29f64.sqrt()).abs() < EXACT);
}

#[test]
fn unsupported_pairs_are_named() {
    let disk = Shape::disk(1.0).unwrap();
    let e = query(&disk, &Isometry3::identity(), &disk, &Isometry3::identity()).unwrap_err();
    assert_eq!(
        e,
        GeometryError::UnsupportedPair {
            base: ShapeKind::Disk,
            follower: ShapeKind::Disk
        }
    );
    assert_eq!(
        e.to_string(),
        "unsupported geometry pair: disk (base) and disk (follower); disk supports contact with: convex hull of solid, \
         infinite plane; disk supports contact with: convex hull of solid, infinite plane"
    );
    let grid =
        Shape::grid_surface(&[0.0, 1.0], &[0.0, 1.0], &[vec![0.0; 2], vec![0.0; 2]]).unwrap();
    assert!(query(
        &grid,
        &Isometry3::identity(),
        &Shape::sphere(1.0).unwrap(),
        &Isometry3::identity()
    )
    .is_err());
    assert!(!pair_supported(
        ShapeKind::InfinitePlane,
        ShapeKind::InfinitePlane
    ));
    assert_eq!(
        supported_partners(ShapeKind::GridSurface),
        &[ShapeKind::Point, ShapeKind::PointCloud]
    );
}

/// A sphere rolling along a plane in 1 mm steps: the contact point moves with the centre (exactly
/// 1 mm per step), the separation and the normal do not change.
#[test]
fn sphere_sliding_on_plane_is_continuous() {
    let sphere = Shape::sphere(0.1).unwrap();
    let mut previous: Option<ContactGeometry> = None;
    for k in 0..1000 {
        let x = 1e-3 * k as f64;
        // A spinning sphere: the orientation must not matter.
        let pose = posed([x, 0.5 * x, 0.099], [1.0, 2.0, 0.5], 7.0 * x);
        let c = query(
            &Shape::InfinitePlane,
            &Isometry3::identity(),
            &sphere,
            &pose,
        )
        .unwrap();
        assert!((c.separation + 0.001).abs() < EXACT);
        assert_eq!(c.normal.into_inner(), v(0.0, 0.0, 1.0));
        if let Some(p) = previous {
            let step = c.point - p.point;
            assert!((step - v(1e-3, 0.5e-3, 0.0)).norm() < EXACT, "step {step}");
        }
        previous = Some(c);
    }
}

/// The contact frame is a proper rotation with z = normal, the identity for the normal +z.
#[test]
fn contact_frame_rotation() {
    for n in [
        v(0.0, 0.0, 1.0),
        v(0.0, 0.0, -1.0),
        v(1.0, 0.0, 0.0),
        v(0.3, -0.4, 0.5),
        v(-0.2, 0.7, -0.1),
        v(1e-9, 0.0, -1.0),
    ] {
        let c = ContactGeometry {
            separation: 0.0,
            point: Point3::origin(),
            normal: Unit::new_normalize(n),
        };
        let r = c.frame_rotation().into_inner();
        assert!(
            (r.transpose() * r - nalgebra::Matrix3::identity()).norm() < 1e-14,
            "not orthonormal for {n}"
        );
        assert!((r.determinant() - 1.0).abs() < 1e-14);
        assert!((r.column(2) - n.normalize()).norm() < 1e-15);
    }
    let up = ContactGeometry {
        separation: 0.0,
        point: Point3::origin(),
        normal: Vector3::z_axis(),
    };
    assert_eq!(
        up.frame_rotation().into_inner(),
        nalgebra::Matrix3::identity()
    );
}
