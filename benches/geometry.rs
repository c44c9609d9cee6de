//! Contact-query benchmarks. Targets: brick–brick and sphere–cylinder ≤ 1 µs per query, penetrating
//! and separated; point cloud vs plane ≤ 25 ns per point, linear in the number of points.
//!
//! Run: `cargo bench --bench geometry`.

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

criterion_group!(benches, pairs, cloud_plane);
criterion_main!(benches);
