//! Animation benchmark. Target (issue 14): animating a 5 s run at 30 frames/s (151 frames),
//! 640×480, a scene of 10 solids, in ≤ 2 s of wall time.
//!
//! The scene: ten solids — two each of sphere, brick, cylinder, ellipsoid and convex hull (an
//! octahedron) — thrown spinning onto a plane, each with its own SpatialContactForce (ten force
//! arrows). The run itself is timed once and printed (it is the simulation, not the animation);
//! criterion times `render::encode_gif` on its frames: meshes, camera framing, rasterising,
//! shading, edges, arrows, time labels and GIF encoding of all 151 frames.
//!
//! Run: `cargo bench --bench animate` (about half a minute).

use std::hint::black_box;
use std::time::Instant;

use blockdyn::render::{encode_gif, RenderOptions};
use blockdyn::{load_model_str, simulate, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};

/// Frames per second of simulated time.
const FPS: f64 = 30.0;

/// The ten-solid model, 5 s.
fn ten_solids() -> String {
    let geometries = [
        r#"{ shape = "sphere", radius = 0.1 }"#,
        r#"{ shape = "brick", size = [0.2, 0.15, 0.1] }"#,
        r#"{ shape = "cylinder", radius = 0.08, length = 0.2 }"#,
        r#"{ shape = "ellipsoid", radii = [0.12, 0.08, 0.06] }"#,
        r#"{ shape = "convex_hull", points = [[0.1, 0, 0], [-0.1, 0, 0], [0, 0.1, 0], [0, -0.1, 0], [0, 0, 0.12], [0, 0, -0.12]] }"#,
    ];
    let mut connect = vec!["\"world.W -- ground.R\"".to_string()];
    let mut blocks = String::new();
    for k in 0..10 {
        connect.push(format!("\"world.W -- j{k}.B\", \"j{k}.F -- s{k}.R\""));
        connect.push(format!("\"ground.G -- c{k}.B\", \"s{k}.G -- c{k}.F\""));
        let (x, y) = ((k % 5) as f64 * 0.5 - 1.0, (k / 5) as f64 * 0.6 - 0.3);
        blocks.push_str(&format!(
            r#"
[blocks.s{k}]
type = "Solid"
geometry = {geometry}
mass = 1.0

[blocks.j{k}]
type = "SixDofJoint"
position = [{x}, {y}, {z}]
velocity = [0.3, 0.0, 1.0]
angular_velocity = [{wx}, 2.0, 1.0]

[blocks.c{k}]
type = "SpatialContactForce"
normal = {{ method = "linear_spring_damper", stiffness = 1e4, damping = 100.0 }}
friction = {{ method = "smooth_stick_slip", static = 0.6, dynamic = 0.4, critical_velocity = 1e-2 }}
"#,
            geometry = geometries[k % 5],
            z = 0.4 + 0.1 * k as f64,
            wx = k as f64 - 4.5,
        ));
    }
    format!(
        r#"connect = [{}]
[model]
name = "ten_solids"
stop_time = 5.0
[solver]
rel_tol = 1e-4
abs_tol = 1e-7
[output]
animation = "unused.gif"
[blocks.world]
type = "WorldFrame"
[blocks.ground]
type = "InfinitePlane"
{blocks}"#,
        connect.join(", ")
    )
}

fn animate(c: &mut Criterion) {
    let d = load_model_str("ten_solids.toml", &ten_solids(), &[]).expect("the bench model builds");
    let started = Instant::now();
    let run = simulate(
        &d,
        RunOptions {
            animation_rate: Some(FPS),
            ..Default::default()
        },
    )
    .expect("the bench model runs");
    let animation = run.animation.expect("frames were taken");
    let arrows: usize = animation.frames.iter().map(|f| f.arrows.len()).sum();
    println!(
        "ten_solids: simulated 5 s in {:.3} s ({} steps), {} frames, {} arrows drawn in all",
        started.elapsed().as_secs_f64(),
        run.stats.steps,
        animation.frames.len(),
        arrows
    );
    let options = RenderOptions {
        playback_rate: FPS,
        ..RenderOptions::default()
    };
    let gif = encode_gif(&animation, &options).expect("renders");
    println!("ten_solids: GIF of {} bytes", gif.len());
    let mut group = c.benchmark_group("animate");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("ten_solids_5s_30fps_640x480", |b| {
        b.iter(|| encode_gif(black_box(&animation), black_box(&options)).expect("renders"))
    });
    group.finish();
}

criterion_group!(benches, animate);
criterion_main!(benches);
