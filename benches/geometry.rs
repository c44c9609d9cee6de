//! Contact-query benchmarks. Targets: brick–brick and sphere–cylinder ≤ 1 µs per query, penetrating
//! and separated; point cloud vs plane ≤ 25 ns per point, linear in the number of points; the
//! convex-hull shape of a 200,000-vertex mesh well under 1 s (issue 28).
//!
//! Run: `cargo bench --bench geometry` (`-- convex_hull` for the hulls only).

use std::hint::black_box;

use blockdyn::geometry::{
    query, query_point_cloud_with, query_with, ContactGeometry, QueryWorkspace, Shape,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};

fn pose(t: [f64; 3], axis: [f64; 3], angle: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::from_axis_angle(
            &Unit::new_normalize(Vector3::new(axis[0], axis[1], axis[2])),
            angle,
        ),
    )
}

fn pairs(c: &mut Criterion) {
    let brick_a = Shape::brick([1.0, 0.6, 0.4]).unwrap();
    let brick_b = Shape::brick([0.8, 0.5, 0.3]).unwrap();
    let sphere = Shape::sphere(0.3).unwrap();
    let cylinder = Shape::cylinder(0.2, 1.0).unwrap();
    let base = pose([0.0, 0.0, 0.0], [0.3, 0.2, 1.0], 0.4);
    let cases = [
        (
            "brick_brick_separated",
            &brick_a,
            &brick_b,
            pose([0.9, 0.5, 0.4], [1.0, 0.5, 0.2], 0.7),
        ),
        (
            "brick_brick_penetrating",
            &brick_a,
            &brick_b,
            pose([0.6, 0.3, 0.2], [1.0, 0.5, 0.2], 0.7),
        ),
        (
            "sphere_cylinder_separated",
            &sphere,
            &cylinder,
            pose([0.4, 0.35, 0.2], [1.0, 0.0, 0.3], 0.9),
        ),
        (
            "sphere_cylinder_penetrating",
            &sphere,
            &cylinder,
            pose([0.3, 0.25, 0.2], [1.0, 0.0, 0.3], 0.9),
        ),
        // Sphere centre inside the cylinder: full GJK + EPA on two curved shapes (worst case).
        (
            "sphere_cylinder_deep",
            &sphere,
            &cylinder,
            pose([0.0, 0.05, 0.25], [1.0, 0.0, 0.3], 0.9),
        ),
    ];
    let mut group = c.benchmark_group("pair");
    let mut workspace = QueryWorkspace::new();
    for (name, a, b, pb) in cases {
        let r = query(a, &base, b, &pb).unwrap();
        eprintln!("{name}: separation {:.6} m", r.separation);
        group.bench_function(name, |bench| {
            bench.iter(|| {
                query_with(
                    &mut workspace,
                    black_box(a),
                    black_box(&base),
                    black_box(b),
                    black_box(&pb),
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

fn cloud_plane(c: &mut Criterion) {
    let mut workspace = QueryWorkspace::new();
    let plane = pose([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.1);
    let cloud_pose = pose([0.1, 0.2, 0.05], [0.0, 1.0, 1.0], 0.3);
    let mut group = c.benchmark_group("cloud_vs_plane");
    for n in [256usize, 1024, 4096] {
        let side = (n as f64).sqrt() as usize;
        let points: Vec<[f64; 3]> = (0..n)
            .map(|i| {
                [
                    (i % side) as f64 * 0.01,
                    (i / side) as f64 * 0.01,
                    ((i * 7) % 13) as f64 * 1e-3,
                ]
            })
            .collect();
        let cloud = Shape::point_cloud(&points).unwrap();
        let mut out = vec![
            ContactGeometry {
                separation: 0.0,
                point: Point3::origin(),
                normal: Vector3::z_axis()
            };
            n
        ];
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, _| {
            bench.iter(|| {
                query_point_cloud_with(
                    &mut workspace,
                    black_box(&Shape::InfinitePlane),
                    &plane,
                    black_box(&cloud),
                    &cloud_pose,
                    &mut out,
                )
                .unwrap();
                black_box(&out);
            })
        });
    }
    group.finish();
}

/// The vertices of a UV sphere of radius 0.1 m: `rings` circles of `per_ring` points and the two
/// poles (every point is a hull vertex: the worst case of a tessellated mesh).
fn uv_sphere(rings: usize, per_ring: usize) -> Vec<[f64; 3]> {
    let mut points = vec![[0.0, 0.0, 0.1], [0.0, 0.0, -0.1]];
    for i in 1..=rings {
        let theta = std::f64::consts::PI * i as f64 / (rings + 1) as f64;
        for j in 0..per_ring {
            let phi = std::f64::consts::TAU * j as f64 / per_ring as f64;
            let (s, c) = theta.sin_cos();
            points.push([0.1 * s * phi.cos(), 0.1 * s * phi.sin(), 0.1 * c]);
        }
    }
    points
}

/// `n` points spread through a cube by a fixed sequence (most of them inside the hull).
fn cube_cloud(n: usize) -> Vec<[f64; 3]> {
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    (0..n).map(|_| [next(), next(), next()]).collect()
}

fn convex_hulls(c: &mut Criterion) {
    let mut group = c.benchmark_group("convex_hull");
    group.sample_size(10);
    for (name, points) in [
        ("uv_sphere_200k", uv_sphere(400, 500)),
        ("cube_cloud_200k", cube_cloud(200_000)),
    ] {
        group.bench_function(name, |bench| {
            bench.iter(|| black_box(Shape::convex_hull(black_box(&points)).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, pairs, cloud_plane, convex_hulls);
criterion_main!(benches);
