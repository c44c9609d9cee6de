//! Face contact (contact manifolds) benchmarks. Targets (ISSUE 6):
//!
//! - `manifold/brick_brick`: the manifold query of two bricks face on face (0.1 m cubes, the upper
//!   one 3 cm off centre, 1e-4 m deep) ≤ 1.5 µs, GJK/EPA single-point query included; also an
//!   edge-on-face variant, brick–plane, and the bare single-point `query` for comparison.
//! - `resting/brick_vs_sphere`: a 1 kg brick resting 2 s on a plane (models/box_on_table.toml,
//!   started at its static equilibrium, at rest) against a sphere of the same mass on the same
//!   plane with the same law and tolerances: brick ≤ 3 × sphere in evaluations and in wall time.
//!   Also the poses where it is not (the brick turned about the normal, the dropped brick of the
//!   model as written): see `BENCHMARKS.md`, "Face contact".
//! - `slope/box_on_slope_2s`: models/box_on_slope.toml as written, 2 s, < 50 ms.
//!
//! Each model configuration prints its steps, evaluations and median wall time once (whole
//! `simulate` calls, the configurations of a comparison interleaved in one process), with the
//! ratios; then criterion times whole runs. No wall-clock asserts.
//!
//! Run: `cargo bench --bench face_contact` (about a minute and a half).

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use blockdyn::geometry::query::manifold::{
    contact_manifold, contact_manifold_with, ContactManifold,
};
use blockdyn::geometry::{query_with, QueryWorkspace, Shape};
use blockdyn::{load_model, simulate, Diagram, RunOptions, RunResult};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};

fn pose(t: [f64; 3], axis: [f64; 3], angle: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::from_axis_angle(
            &Unit::new_normalize(Vector3::new(axis[0], axis[1], axis[2])),
            angle,
        ),
    )
}

fn manifold(c: &mut Criterion) {
    let cube = Shape::brick([0.1, 0.1, 0.1]).unwrap();
    let brick = Shape::brick([0.2, 0.2, 0.1]).unwrap();
    let plane = Shape::InfinitePlane;
    let depth = 1e-4;
    // Edge on face: the upper cube turned 0.3 rad about y, its lowest edge (0.033 m to the +x side
    // of its centre, along y) 1e-4 m deep and 2 cm off centre in y, so clipping cuts it at y = 0.05.
    let tilt: f64 = 0.3;
    let edge_height = 0.05 + 0.05 * (tilt.cos() + tilt.sin()) - depth;
    let origin = Isometry3::identity();
    let cases = [
        (
            "brick_brick",
            &cube,
            origin,
            &cube,
            pose([0.03, 0.0, 0.1 - depth], [0.0, 0.0, 1.0], 0.0),
        ),
        (
            "brick_brick_tilted",
            &cube,
            origin,
            &cube,
            pose([0.0, 0.02, edge_height], [0.0, 1.0, 0.0], tilt),
        ),
        (
            "brick_plane",
            &plane,
            origin,
            &brick,
            pose([0.1, -0.2, 0.05 - depth], [0.0, 0.0, 1.0], 0.4),
        ),
    ];
    let mut group = c.benchmark_group("manifold");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (name, a, pa, b, pb) in cases {
        let mut out = ContactManifold::for_pair(a, b);
        contact_manifold(a, &pa, b, &pb, &mut out).unwrap();
        let depths: Vec<String> = out
            .points()
            .iter()
            .map(|p| format!("{:.2e}/{:.3}", p.depth, p.share))
            .collect();
        println!(
            "manifold {name}: {:?}, {} points (depth/share {}), separation {:.3e} m, normal {:?}",
            out.kind(),
            out.points().len(),
            depths.join(" "),
            out.separation(),
            out.normal().as_slice()
        );
        let mut workspace = QueryWorkspace::new();
        group.bench_function(name, |bench| {
            bench.iter(|| {
                contact_manifold_with(
                    &mut workspace,
                    black_box(a),
                    black_box(&pa),
                    black_box(b),
                    black_box(&pb),
                    &mut out,
                )
                .unwrap();
                black_box(out.points().len())
            })
        });
        // The single-point GJK/EPA query the manifold starts with, alone.
        group.bench_function(format!("{name}_query_only"), |bench| {
            let mut workspace = QueryWorkspace::new();
            bench.iter(|| {
                query_with(
                    &mut workspace,
                    black_box(a),
                    black_box(&pa),
                    black_box(b),
                    black_box(&pb),
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

/// models/box_on_table.toml, with overrides.
fn table(sets: &[&str]) -> Diagram {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load_model(
        Path::new("models/box_on_table.toml"),
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .expect("box_on_table")
}

const SPHERE: &str = "brick.geometry={ shape = \"sphere\", radius = 0.05 }";
/// Static equilibrium, level: the centre 0.05 − m·g/k above the table (brick and sphere alike).
const AT_REST: &str = "free.position=[0.0, 0.0, 0.0499019335]";
const LEVEL: &str = "free.orientation=[1.0, 0.0, 0.0, 0.0]";
/// Turned 30° about the table's normal (still level, still at rest).
const YAW_30: &str = "free.orientation=[0.9659258263, 0.0, 0.0, 0.2588190451]";

/// A model configuration of a comparison.
struct Case {
    name: &'static str,
    diagram: Diagram,
}

impl Case {
    fn new(name: &'static str, sets: &[&str]) -> Self {
        Self {
            name,
            diagram: table(sets),
        }
    }
}

fn run(d: &Diagram) -> RunResult {
    simulate(d, RunOptions::default()).expect("run")
}

/// Runs the cases `repeats` times, interleaved, and prints each one's steps, evaluations, final
/// height and median wall time (whole `simulate` call; the solver loop's own in brackets), then
/// the ratios of each case after the first to the first. Returns the median walls (s).
fn compare(title: &str, cases: &[Case], repeats: usize) -> Vec<f64> {
    let mut walls = vec![Vec::new(); cases.len()];
    let mut loops = vec![Vec::new(); cases.len()];
    let mut last = Vec::new();
    for _ in 0..repeats {
        last.clear();
        for (i, case) in cases.iter().enumerate() {
            let started = Instant::now();
            let r = run(&case.diagram);
            walls[i].push(started.elapsed().as_secs_f64());
            loops[i].push(r.wall_time.as_secs_f64());
            last.push(r);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let walls: Vec<f64> = walls.iter_mut().map(median).collect();
    let loops: Vec<f64> = loops.iter_mut().map(median).collect();
    println!("{title} (median of {repeats}, interleaved):");
    for (i, (case, r)) in cases.iter().zip(&last).enumerate() {
        let z = r
            .recording
            .column_index("free.p[2]")
            .and_then(|j| r.recording.column_values(j).last())
            .unwrap_or(f64::NAN);
        println!(
            "  {:<28} {:>6} steps ({:>4} rejected), {:>7} evaluations, {:>2} zero crossings, \
             {:>9.3} ms wall ({:.3} ms solver loop), z(2 s) = {z:.10} m",
            case.name,
            r.stats.steps,
            r.stats.rejected_steps,
            r.stats.function_evaluations,
            r.stats.zero_crossings,
            walls[i] * 1e3,
            loops[i] * 1e3,
        );
    }
    let e0 = last[0].stats.function_evaluations as f64;
    for (i, case) in cases.iter().enumerate().skip(1) {
        println!(
            "  {} / {}: evaluations {:.2} ×, wall {:.2} ×, wall per evaluation {:.2} ×",
            cases[0].name,
            case.name,
            e0 / last[i].stats.function_evaluations as f64,
            walls[0] / walls[i],
            (walls[0] / e0) / (walls[i] / last[i].stats.function_evaluations as f64),
        );
    }
    walls
}

fn resting(c: &mut Criterion) {
    // Level at the origin: exactly symmetric, no slip ever arises (see BENCHMARKS.md).
    let level = [
        Case::new("brick", &[AT_REST, LEVEL]),
        Case::new("sphere", &[AT_REST, LEVEL, SPHERE]),
    ];
    compare("resting 2 s, level, at the origin", &level, 7);
    // A generic resting pose: round-off slip excites the stiff friction modes.
    let generic = [
        Case::new("brick_yaw30", &[AT_REST, YAW_30]),
        Case::new("sphere_yaw30", &[AT_REST, YAW_30, SPHERE]),
        Case::new("sphere_tilted_orientation", &[AT_REST, SPHERE]),
    ];
    compare("resting 2 s, generic pose", &generic, 5);
    // Dropped from the model's height (lowest point of the sphere 5 cm above the table).
    let dropped = [
        Case::new("brick_tilted (as written)", &[]),
        Case::new("sphere", &[LEVEL, SPHERE]),
        Case::new("sphere_tilted_orientation", &[SPHERE]),
        Case::new("brick_level", &[LEVEL]),
    ];
    compare("dropped, 2 s", &dropped, 5);

    let mut group = c.benchmark_group("resting");
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    for case in &level {
        group.bench_function(BenchmarkId::new("brick_vs_sphere", case.name), |b| {
            b.iter(|| run(&case.diagram))
        });
    }
    group.finish();
    // The slow ones: ~0.1 s per run, ten runs each.
    let mut group = c.benchmark_group("resting");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for case in &generic[..2] {
        group.bench_function(BenchmarkId::new("generic_pose", case.name), |b| {
            b.iter(|| run(&case.diagram))
        });
    }
    for case in &dropped[..3] {
        let name = case.name.split(' ').next().unwrap_or(case.name);
        group.bench_function(BenchmarkId::new("dropped", name), |b| {
            b.iter(|| run(&case.diagram))
        });
    }
    group.finish();
}

fn slope(c: &mut Criterion) {
    let d = load_model(Path::new("models/box_on_slope.toml"), &[]).expect("box_on_slope");
    let slope = [Case {
        name: "box_on_slope",
        diagram: d,
    }];
    compare("slope, models/box_on_slope.toml as written", &slope, 7);
    let mut group = c.benchmark_group("slope");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    group.bench_function("box_on_slope_2s", |b| b.iter(|| run(&slope[0].diagram)));
    group.finish();
}

criterion_group!(benches, manifold, resting, slope);
criterion_main!(benches);
