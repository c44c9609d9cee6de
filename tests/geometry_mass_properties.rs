//! Mass properties of the true geometry against closed forms.

use std::f64::consts::PI;

use blockdyn::geometry::{mass_properties, GeometryError, Shape};
use nalgebra::{Matrix3, Rotation3, Vector3};

fn max_abs(m: &Matrix3<f64>) -> f64 {
    m.iter().fold(0.0f64, |a, &b| a.max(b.abs()))
}

fn brick_corners(size: [f64; 3], offset: Vector3<f64>, rotation: &Rotation3<f64>) -> Vec<[f64; 3]> {
    let mut pts = Vec::new();
    for sx in [-0.5, 0.5] {
        for sy in [-0.5, 0.5] {
            for sz in [-0.5, 0.5] {
                let p = rotation * Vector3::new(sx * size[0], sy * size[1], sz * size[2]) + offset;
                pts.push([p.x, p.y, p.z]);
            }
        }
    }
    pts
}

/// A brick given as its 8 corners matches the brick formula to rounding (1e-12 relative): the
/// polyhedral formulas are exact, only floating-point rounding of ~100 operations remains.
#[test]
fn brick_hull_matches_brick_formula() {
    let size = [0.3, 0.5, 0.7];
    let density = 7800.0;
    let exact = mass_properties(&Shape::brick(size).unwrap(), density).unwrap();
    // m = ρ·abc; Ixx = m/12 (b² + c²)
    let m = density * 0.3 * 0.5 * 0.7;
    assert!((exact.mass - m).abs() <= 1e-12 * m);
    assert!((exact.inertia_about_com[(0, 0)] - m / 12.0 * (0.25 + 0.49)).abs() <= 1e-12 * m);

    let offset = Vector3::new(1.0, -2.0, 0.5);
    for rotation in [
        Rotation3::identity(),
        Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(1.0, 2.0, 3.0)),
            0.7,
        ),
    ] {
        let hull = Shape::convex_hull(&brick_corners(size, offset, &rotation)).unwrap();
        let mp = mass_properties(&hull, density).unwrap();
        let expected_inertia =
            rotation.matrix() * exact.inertia_about_com * rotation.matrix().transpose();
        let scale = max_abs(&exact.inertia_about_com);
        assert!(
            (mp.mass - m).abs() <= 1e-12 * m,
            "mass {} vs {}",
            mp.mass,
            m
        );
        assert!(
            (mp.com.coords - offset).norm() <= 1e-12 * offset.norm(),
            "com {}",
            mp.com
        );
        assert!(
            max_abs(&(mp.inertia_about_com - expected_inertia)) <= 1e-12 * scale,
            "{}",
            mp.inertia_about_com
        );
    }
}

/// Regular tetrahedron of edge a: V = a³/(6√2), central inertia m a²/20 about every axis.
#[test]
fn regular_tetrahedron() {
    let pts = [
        [1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ];
    let a = 8f64.sqrt();
    let mp = mass_properties(&Shape::convex_hull(&pts).unwrap(), 2.0).unwrap();
    let volume = a.powi(3) / (6.0 * 2f64.sqrt()); // = 8/3
    assert!((mp.mass - 2.0 * volume).abs() < 1e-13);
    assert!(mp.com.coords.norm() < 1e-15);
    let expected = Matrix3::identity() * (mp.mass * a * a / 20.0);
    assert!(
        max_abs(&(mp.inertia_about_com - expected)) < 1e-13,
        "{}",
        mp.inertia_about_com
    );
}

/// A cylinder as the hull of two regular 256-gons (circumradius r, θ = 2π/n).
///
/// The prism's exact values: area A = n/2·r²·sin θ, polar second moment of the polygon about its
/// centre J = n r⁴ sin θ (2 + cos θ)/12 (sum over the n triangles centre–vertex–vertex of
/// A_t/6·(|a|² + |b|² + a·b)); for a regular polygon the in-plane moments are J/2 each. So
/// m = ρ A L, Izz = ρ L J, Ixx = Iyy = ρ L J/2 + m L²/12. The hull must match these to rounding
/// (1e-12), and the cylinder to within the discretisation error: the mass fraction is
/// sin θ/θ = 1 − 1.0e-4, and Izz (∝ r⁴) is off by about twice that; we allow 3e-4.
#[test]
fn cylinder_as_256_gon_prism() {
    let (r, length, n, rho) = (0.2, 0.9, 256, 1000.0);
    let mut pts = Vec::new();
    for k in 0..n {
        let phi = 2.0 * PI * k as f64 / n as f64;
        for z in [-0.5 * length, 0.5 * length] {
            pts.push([r * phi.cos(), r * phi.sin(), z]);
        }
    }
    let prism = mass_properties(&Shape::convex_hull(&pts).unwrap(), rho).unwrap();
    let theta = 2.0 * PI / n as f64;
    let nf = n as f64;
    let area = 0.5 * nf * r * r * theta.sin();
    let polar = nf * r.powi(4) * theta.sin() * (2.0 + theta.cos()) / 12.0;
    let m = rho * area * length;
    let izz = rho * length * polar;
    let ixx = 0.5 * izz + m * length * length / 12.0;
    assert!(
        (prism.mass / m - 1.0).abs() < 1e-12,
        "prism mass {} vs {m}",
        prism.mass
    );
    assert!((prism.inertia_about_com[(2, 2)] / izz - 1.0).abs() < 1e-12);
    assert!((prism.inertia_about_com[(0, 0)] / ixx - 1.0).abs() < 1e-12);
    assert!((prism.inertia_about_com[(1, 1)] / ixx - 1.0).abs() < 1e-12);
    assert!(prism.com.coords.norm() < 1e-14);
    // Off-diagonal terms vanish by symmetry.
    assert!(prism.inertia_about_com[(0, 1)].abs() < 1e-12 * izz);

    let cylinder = mass_properties(&Shape::cylinder(r, length).unwrap(), rho).unwrap();
    assert!((cylinder.mass - rho * PI * r * r * length).abs() < 1e-12);
    assert!((prism.mass / cylinder.mass - theta.sin() / theta).abs() < 1e-12);
    for k in 0..3 {
        let rel = prism.inertia_about_com[(k, k)] / cylinder.inertia_about_com[(k, k)] - 1.0;
        assert!(rel < 0.0 && rel.abs() < 3e-4, "I[{k}] relative error {rel}");
    }
}

#[test]
fn sphere_ellipsoid_cylinder_closed_forms() {
    let rho = 500.0;
    let s = mass_properties(&Shape::sphere(0.1).unwrap(), rho).unwrap();
    let m = rho * 4.0 / 3.0 * PI * 1e-3;
    assert!((s.mass - m).abs() < 1e-12 * m);
    assert!((s.inertia_about_com[(2, 2)] - 0.4 * m * 0.01).abs() < 1e-15);
    // An ellipsoid with equal radii is the sphere.
    let e = mass_properties(&Shape::ellipsoid([0.1, 0.1, 0.1]).unwrap(), rho).unwrap();
    assert!(
        (e.mass - s.mass).abs() < 1e-12 * m
            && max_abs(&(e.inertia_about_com - s.inertia_about_com)) < 1e-15
    );
    // Ellipsoid (a, b, c) = (1, 2, 3): V = 8π, Ixx = m/5 (4 + 9).
    let e = mass_properties(&Shape::ellipsoid([1.0, 2.0, 3.0]).unwrap(), 1.0).unwrap();
    assert!((e.mass - 8.0 * PI).abs() < 1e-12);
    assert!((e.inertia_about_com[(0, 0)] - 8.0 * PI * 13.0 / 5.0).abs() < 1e-11);
    // Cylinder: Izz = m r²/2, Ixx = m (3r² + L²)/12.
    let c = mass_properties(&Shape::cylinder(1.0, 2.0).unwrap(), 1.0).unwrap();
    assert!((c.mass - 2.0 * PI).abs() < 1e-12);
    assert!((c.inertia_about_com[(2, 2)] - PI).abs() < 1e-12);
    assert!((c.inertia_about_com[(0, 0)] - 2.0 * PI * 7.0 / 12.0).abs() < 1e-12);
}

/// The hull of points on a sphere approaches the sphere from inside.
#[test]
fn fibonacci_sphere_hull_approaches_sphere() {
    let n = 2000;
    let golden = PI * (3.0 - 5f64.sqrt());
    let pts: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let th = golden * i as f64;
            [r * th.cos(), r * th.sin(), z]
        })
        .collect();
    let hull = mass_properties(&Shape::convex_hull(&pts).unwrap(), 1.0).unwrap();
    let ball = mass_properties(&Shape::sphere(1.0).unwrap(), 1.0).unwrap();
    let rel = hull.mass / ball.mass - 1.0;
    // Inscribed polytope: smaller; with ~4000 facets of edge ~0.08 the sag is ~1e-3.
    assert!(rel < 0.0 && rel > -5e-3, "relative volume error {rel}");
}

#[test]
fn scaled_to_mass_and_errors() {
    let b = mass_properties(&Shape::brick([1.0, 2.0, 3.0]).unwrap(), 1000.0).unwrap();
    let scaled = b.scaled_to_mass(3.0).unwrap();
    assert_eq!(scaled.mass, 3.0);
    // Ixx = m/12 (b² + c²) = 3/12·13
    assert!((scaled.inertia_about_com[(0, 0)] - 3.25).abs() < 1e-13);
    assert_eq!(
        b.scaled_to_mass(f64::NAN).unwrap_err().to_string(),
        "mass properties: mass must be positive and finite, got NaN kg"
    );
    let e = mass_properties(&Shape::disk(1.0).unwrap(), 1.0).unwrap_err();
    assert!(matches!(e, GeometryError::NotASolid { .. }));
    assert_eq!(
        e.to_string(),
        "mass properties: a geometry of kind disk has no volume; only solids (sphere, brick, cylinder, ellipsoid, convex hull) have mass properties"
    );
    assert_eq!(
        Shape::sphere(-1.0).unwrap_err().to_string(),
        "sphere: radius must be positive and finite, got -1"
    );
    assert_eq!(
        Shape::brick([1.0, 0.0, 1.0]).unwrap_err().to_string(),
        "brick: size[1] must be positive and finite, got 0"
    );
}
