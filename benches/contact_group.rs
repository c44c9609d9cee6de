//! The ContactGroup (issue 30): how a sphere pile's run grows with N, and how long a group of
//! 1,000 geometries takes to build.
//!
//! - The pile: N spheres (r 5 cm, 0.1 kg) from a jittered 4 × 4 × (N/16) grid (as the scale
//!   study's scene.py lays them out, with this file's own jitter) into four walls on a floor,
//!   Hunt–Crossley k = 1e4 N/m, D = 1 s/m, Stribeck μ = 0.5, v_s = 1e-2 m/s, one group, 0.5 s,
//!   rel_tol 1e-4, abs_tol 1e-6. Printed once per N: steps, rejected steps, evaluations, zero
//!   crossings (deterministic) and the wall time of one run. N = 16 and 64; N = 256 too with
//!   `BLOCKDYN_PILE_256=1` (minutes).
//! - The build: 1,000 spheres on a 10 × 10 × 10 grid with a floor, all in one group: parse, build
//!   and lay out the diagram (`load_model_str`), timed by criterion.
//!
//! Run: `cargo bench --bench contact_group -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use blockdyn::{load_model_str, simulate, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "support/sphere_group.rs"]
mod sphere_group;

/// The pile's model text for `n` spheres (n a multiple of 16) and `stop` seconds.
fn pile(n: usize, stop: f64) -> String {
    let (r, spacing, layer, bottom, w) = (0.05, 0.11, 0.12, 0.15, 0.3);
    let mut connect = vec!["\"world.W -- floor.R\"".to_string()];
    let mut blocks = String::new();
    // A fixed linear congruential sequence in [0, 1): the jitter.
    let mut seed: u64 = 12345 + n as u64;
    let mut uniform = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for (name, t, axis, angle) in [
        (
            "xp",
            [w, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            -std::f64::consts::FRAC_PI_2,
        ),
        (
            "xm",
            [-w, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            std::f64::consts::FRAC_PI_2,
        ),
        (
            "yp",
            [0.0, w, 0.0],
            [1.0, 0.0, 0.0],
            std::f64::consts::FRAC_PI_2,
        ),
        (
            "ym",
            [0.0, -w, 0.0],
            [1.0, 0.0, 0.0],
            -std::f64::consts::FRAC_PI_2,
        ),
    ] {
        connect.push(format!(
            "\"world.W -- wt_{name}.B\", \"wt_{name}.F -- wall_{name}.R\""
        ));
        blocks.push_str(&format!("[blocks.wt_{name}]\ntype = \"RigidTransform\"\ntranslation = {t:?}\nrotation = {{ axis = {axis:?}, angle = {angle} }}\n[blocks.wall_{name}]\ntype = \"InfinitePlane\"\n"));
    }
    for k in 0..n {
        let (i, j, l) = (k % 4, (k / 4) % 4, k / 16);
        let x = (i as f64 - 1.5) * spacing + (uniform() - 0.5) * 0.3 * r;
        let y = (j as f64 - 1.5) * spacing + (uniform() - 0.5) * 0.3 * r;
        let z = bottom + l as f64 * layer + uniform() * 0.2 * r;
        connect.push(format!(
            "\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\""
        ));
        blocks.push_str(&format!("[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{x}, {y}, {z}]\n[blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = {r} }}\nmass = 0.1\n"));
    }
    format!(
        r#"connect = [{}]
[model]
name = "pile"
stop_time = {stop}
[solver]
rel_tol = 1e-4
abs_tol = 1e-6
[blocks.world]
type = "WorldFrame"
[blocks.config]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, -9.81]
[blocks.floor]
type = "InfinitePlane"
[blocks.pile]
type = "ContactGroup"
members = ["ball*", "floor", "wall_*"]
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1e4, exponent = 1.0, velocity_exponent = 1.0, depth_exponent = 1.0 }}
friction = {{ method = "stribeck", static = 0.5, dynamic = 0.5, stiction_velocity = 1e-2 }}
{blocks}"#,
        connect.join(", ")
    )
}

/// The build bench's model: 1,000 spheres on a 10 × 10 × 10 grid with a floor, in one group.
fn thousand() -> String {
    sphere_group::sphere_group("thousand", 1000)
}

fn report() {
    let mut ns = vec![16, 64];
    if std::env::var_os("BLOCKDYN_PILE_256").is_some() {
        ns.push(256);
    }
    println!(
        "pile, 0.5 s     steps  rejected  evaluations  crossings  time events   wall (one run)"
    );
    for n in ns {
        let d = load_model_str("pile", &pile(n, 0.5), &[]).expect("the pile loads");
        let start = Instant::now();
        let r = simulate(&d, RunOptions::default()).expect("the pile runs");
        let wall = start.elapsed();
        let s = &r.stats;
        println!(
            "N = {n:<4} {:>12} {:>9} {:>12} {:>10} {:>12}   {wall:.2?}",
            s.steps, s.rejected_steps, s.function_evaluations, s.zero_crossings, s.time_events
        );
    }
}

fn contact_group(c: &mut Criterion) {
    report();
    let text = thousand();
    let mut group = c.benchmark_group("contact_group");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("build_1000_geometries", |b| {
        b.iter(|| black_box(load_model_str("thousand", &text, &[]).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, contact_group);
criterion_main!(benches);
