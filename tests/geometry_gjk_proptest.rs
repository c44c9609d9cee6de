//! Property tests of GJK/EPA against closed forms and optimality conditions.

use std::f64::consts::PI;

use blockdyn::geometry::{query, Shape};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
use proptest::prelude::*;

fn fibonacci_sphere(n: usize, r: f64) -> Vec<[f64; 3]> {
    let golden = PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let rho = (1.0 - z * z).sqrt();
            let th = golden * i as f64;
            [r * rho * th.cos(), r * rho * th.sin(), r * z]
        })
        .collect()
}

fn pose(t: Vector3<f64>, axis: Vector3<f64>, angle: f64) -> Isometry3<f64> {
    let axis = if axis.norm() > 1e-3 {
        axis
    } else {
        Vector3::z()
    };
    Isometry3::from_parts(
        Translation3::from(t),
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), angle),
    )
}

fn vec3() -> impl Strategy<Value = Vector3<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

// A fixed seed keeps CI deterministic. (A random seed once found a near-touching brick pair that
// GJK called intersecting; it is now a regression test in geometry_convex_queries.rs, and the
// properties pass 2000 cases under other seeds too.)
proptest! {
    #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_b10c), ..ProptestConfig::default() })]

    /// Two spheres given as support-mapped ellipsoids with equal radii (so GJK iterates on smooth
    /// support functions, unlike the closed-form sphere path): GJK's distance equals
    /// |c₂ − c₁| − r₁ − r₂ to 1e-8 m (GJK's relative tolerance is 1e-10 of distances ≤ 3 m).
    #[test]
    fn gjk_smooth_spheres_match_closed_form(
        r1 in 0.05..0.5f64, r2 in 0.05..0.5f64, dir in vec3(), gap in 1e-4..1.0f64,
        axis in vec3(), angle in 0.0..6.0f64,
    ) {
        prop_assume!(dir.norm() > 1e-2);
        let a = Shape::ellipsoid([r1; 3]).unwrap();
        let b = Shape::ellipsoid([r2; 3]).unwrap();
        let c1 = Vector3::new(0.3, -0.2, 0.1);
        let c2 = c1 + dir.normalize() * (r1 + r2 + gap);
        let c = query(&a, &pose(c1, axis, angle), &b, &pose(c2, -axis, angle)).unwrap();
        prop_assert!((c.separation - gap).abs() < 1e-8, "separation {} vs {gap}", c.separation);
        prop_assert!((c.normal.into_inner() - dir.normalize()).norm() < 1e-4);
    }

    /// Two spheres' convex hulls (inscribed polytopes with 300 vertices each): the hulls are apart
    /// by at least the spheres' distance and by at most that plus both hulls' sag (the gap between
    /// sphere and inscribed hull, below 2.5 % of the radius at 300 points).
    #[test]
    fn gjk_sphere_hulls_bracket_closed_form(
        r1 in 0.05..0.5f64, r2 in 0.05..0.5f64, dir in vec3(), gap in 1e-3..1.0f64,
        axis in vec3(), angle in 0.0..6.0f64,
    ) {
        prop_assume!(dir.norm() > 1e-2);
        let a = Shape::convex_hull(&fibonacci_sphere(300, r1)).unwrap();
        let b = Shape::convex_hull(&fibonacci_sphere(300, r2)).unwrap();
        let c1 = Vector3::new(-0.3, 0.2, 0.1);
        let c2 = c1 + dir.normalize() * (r1 + r2 + gap);
        let c = query(&a, &pose(c1, axis, angle), &b, &pose(c2, axis, -angle)).unwrap();
        prop_assert!(c.separation >= gap - 1e-12, "hull distance {} below sphere distance {gap}", c.separation);
        prop_assert!(c.separation <= gap + 0.025 * (r1 + r2), "hull distance {} vs sphere distance {gap}", c.separation);
    }

    /// Penetrating smooth spheres through EPA: depth within 1e-3 of the radii sum (EPA refines a
    /// polytope inside a curved Minkowski difference; its store is bounded, so the answer is
    /// accurate to the facet sag), normal within 0.05 rad.
    #[test]
    fn epa_smooth_spheres_close_to_closed_form(
        r1 in 0.1..0.5f64, r2 in 0.1..0.5f64, dir in vec3(), overlap in 0.0..0.5f64,
    ) {
        prop_assume!(dir.norm() > 1e-2);
        let a = Shape::ellipsoid([r1; 3]).unwrap();
        let b = Shape::ellipsoid([r2; 3]).unwrap();
        let depth = overlap * r1.min(r2);
        let c2 = dir.normalize() * (r1 + r2 - depth);
        let c = query(&a, &Isometry3::identity(), &b, &Isometry3::translation(c2.x, c2.y, c2.z)).unwrap();
        prop_assert!((c.separation + depth).abs() < 1e-3 * (r1 + r2), "separation {} vs {}", c.separation, -depth);
        prop_assert!(c.normal.angle(&Unit::new_normalize(dir)) < 0.05);
    }

    /// Random brick pairs: when apart, the witness points satisfy the optimality conditions (each is
    /// the support point of its brick along the normal); when penetrating, moving the follower by
    /// (depth + 1e-6)·normal separates them by 1e-6, and the depth is no more than the overlap
    /// along any of the six face normals.
    #[test]
    fn brick_brick_optimality(
        s1 in (0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64), s2 in (0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64),
        t in vec3(), axis1 in vec3(), a1 in 0.0..6.3f64, axis2 in vec3(), a2 in 0.0..6.3f64,
    ) {
        let b1 = Shape::brick([s1.0, s1.1, s1.2]).unwrap();
        let b2 = Shape::brick([s2.0, s2.1, s2.2]).unwrap();
        let p1 = pose(Vector3::zeros(), axis1, a1);
        let p2 = pose(t, axis2, a2);
        let c = query(&b1, &p1, &b2, &p2).unwrap();
        let n = c.normal.into_inner();
        // Support values along n (world): h_A(n) and −h_B(−n).
        let h = |shape: &Shape, p: &Isometry3<f64>, d: Vector3<f64>| {
            (p * shape.support(&(p.rotation.inverse() * d)).unwrap()).coords.dot(&d)
        };
        let top_of_a = h(&b1, &p1, n);
        let bottom_of_b = -h(&b2, &p2, -n);
        if c.separation > 1e-9 {
            prop_assert!((bottom_of_b - top_of_a - c.separation).abs() < 1e-9, "slab {} vs {}", bottom_of_b - top_of_a, c.separation);
            prop_assert!((c.witness_base().coords.dot(&n) - top_of_a).abs() < 1e-9);
        } else {
            // Along n, the overlap equals the depth (n is a direction of minimum overlap) ...
            prop_assert!((top_of_a - bottom_of_b + c.separation).abs() < 1e-9);
            // ... and no face normal of either brick gives a smaller overlap.
            for p in [&p1, &p2] {
                for k in 0..3 {
                    for sign in [1.0, -1.0] {
                        let d = p.rotation * Vector3::ith(k, sign);
                        let overlap = h(&b1, &p1, d) + h(&b2, &p2, -d);
                        prop_assert!(overlap >= -c.separation - 1e-9, "axis overlap {overlap} < depth {}", -c.separation);
                    }
                }
            }
            let moved = Isometry3::from_parts(Translation3::from(p2.translation.vector + n * (-c.separation + 1e-6)), p2.rotation);
            let after = query(&b1, &p1, &b2, &moved).unwrap();
            prop_assert!((after.separation - 1e-6).abs() < 1e-9, "after moving: {}", after.separation);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_b10c), ..ProptestConfig::default() })]

    /// Cylinder (smooth rim) against a convex hull of random points: when apart, the normal
    /// spans the gap between the two support planes exactly (to GJK's tolerance, 1e-8 m here),
    /// the optimality condition of the minimum distance; when penetrating, moving the follower by
    /// (depth + 1e-6)·normal separates them by 1e-6 (to 1e-6: EPA's polytope only approximates
    /// the curved rim, so the depth is a slight underestimate at worst).
    #[test]
    fn cylinder_hull_optimality(
        pts in proptest::collection::vec(vec3(), 6..20),
        t in vec3(), axis in vec3(), angle in 0.0..6.3f64, spread in 0.2..1.5f64,
    ) {
        let points: Vec<[f64; 3]> = pts.iter().map(|p| [p.x * 0.3, p.y * 0.3, p.z * 0.3]).collect();
        let Ok(hull) = Shape::convex_hull(&points) else { return Ok(()) };
        let cyl = Shape::cylinder(0.2, 0.6).unwrap();
        let p1 = pose(Vector3::zeros(), axis, angle);
        let p2 = pose(t * spread, -axis, 0.5 * angle);
        let c = query(&hull, &p1, &cyl, &p2).unwrap();
        let n = c.normal.into_inner();
        let h = |shape: &Shape, p: &Isometry3<f64>, d: Vector3<f64>| {
            (p * shape.support(&(p.rotation.inverse() * d)).unwrap()).coords.dot(&d)
        };
        let top_of_a = h(&hull, &p1, n);
        let bottom_of_b = -h(&cyl, &p2, -n);
        if c.separation > 1e-6 {
            prop_assert!((bottom_of_b - top_of_a - c.separation).abs() < 1e-8, "slab {} vs {}", bottom_of_b - top_of_a, c.separation);
        } else if c.separation < -1e-6 {
            let moved = Isometry3::from_parts(Translation3::from(p2.translation.vector + n * (-c.separation + 1e-6)), p2.rotation);
            let after = query(&hull, &p1, &cyl, &moved).unwrap();
            prop_assert!(after.separation > 0.0 && after.separation < 2e-6 + 1e-3 * c.separation.abs(), "after moving: {}", after.separation);
        }
    }
}
