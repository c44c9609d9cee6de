//! Stiff contact (issue 11): TR-BDF2 against dopri5, and the peers' problems at their tolerances.
//!
//! - `cube_mathworks/*`: models/box_on_incline.toml (a 1 kg, 0.2 m cube on its 8 corners, Stribeck
//!   friction μ_s = 0.5, μ_d = 0.3, v_s = 1e-4 m/s) with MathWorks' typical contact parameters, the
//!   smooth spring-damper k = 8e7 N/m, b = 4e6 N·s/m, w = 1e-4 m, for 10 s, gravity tilted 30°
//!   (above the friction limit: it slides, x(10 s) ≈ 117.8 m) and 20° (below: it holds, creeping
//!   by the Stribeck regularisation, x(10 s) ≈ 6.3e-4 m). trbdf2 at rel_tol 1e-4 against dopri5 at
//!   rel_tol 1e-4, whose steps are fixed by stability (its answer does not change at 1e-6), so
//!   that is dopri5's cheapest run at that accuracy. Target: trbdf2 ≥ 10 × faster.
//! - `peers/*`: the peers' ball_drop and box_slide (models/ball_drop.toml, models/box_on_incline.toml
//!   as written) at the peers' stated tolerances rel_tol 1e-6, abs_tol 1e-8, dopri5; accuracy as in
//!   `benches/peers.rs` (apex against 0.4599056 m; x(1 s) against the compliant model's 1.1767749 m).
//!   Compare with Drake's figures in `../shared/bench/peers.md` (ball_drop 77 ms at 7.9e-7, box_slide
//!   58 ms at accuracy 1e-6), measured on the same kind of machine.
//!
//! Each configuration prints its steps, evaluations, accuracy and the median wall time of a few
//! whole runs (the configurations of a comparison interleaved in one process) with the ratio;
//! then criterion times the fast runs. No wall-clock asserts.
//!
//! Run: `cargo bench --bench stiff` (about a minute; the dopri5 cube runs take seconds each).

use std::path::Path;
use std::time::{Duration, Instant};

use blockdyn::output::Recording;
use blockdyn::{load_model, simulate, Diagram, RunOptions, RunResult};
use criterion::{criterion_group, criterion_main, Criterion};

const MATHWORKS_LAW: &str = "contact.normal={ method = \"smooth_spring_damper\", stiffness = 8e7, damping = 4e6, transition_width = 1e-4 }";
/// Gravity tilted 30° (slides) and 20° (holds), m/s².
const SLOPES: [(&str, &str); 2] = [
    ("slide", "gravity.gravity=[4.905, 0.0, -8.4957092]"),
    ("hold", "gravity.gravity=[3.3552014, 0.0, -9.2183483]"),
];

fn model(path: &str, sets: &[&str]) -> Diagram {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load_model(Path::new(path), &sets).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn column(rec: &Recording, name: &str) -> Vec<f64> {
    rec.column_values(rec.column_index(name).expect(name))
        .collect()
}

fn last(rec: &Recording, name: &str) -> f64 {
    *column(rec, name).last().expect("rows")
}

/// Median wall time of `runs` whole runs after one untimed warm-up run, and the last run's result.
fn timed(d: &Diagram, runs: usize) -> (Duration, RunResult) {
    simulate(d, RunOptions::default()).expect("run");
    let mut times = Vec::with_capacity(runs);
    let mut result = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = simulate(d, RunOptions::default()).expect("run");
        times.push(start.elapsed());
        result = Some(r);
    }
    times.sort();
    (times[runs / 2], result.expect("at least one run"))
}

/// The first rebound apex of ball_drop, z + v²/(2g) in the first flight after the first contact.
fn apex(rec: &Recording) -> f64 {
    let (sep, z, v) = (
        column(rec, "contact.separation"),
        column(rec, "free.p[2]"),
        column(rec, "free.v[2]"),
    );
    let i = (0..rec.len())
        .find(|&i| rec.times[i] > 0.44 && rec.times[i] < 0.7 && sep[i] > 1e-3)
        .expect("a row in the first flight");
    z[i] + v[i] * v[i] / (2.0 * 9.81)
}

fn cube(c: &mut Criterion) {
    let mut g = c.benchmark_group("cube_mathworks");
    g.sample_size(10);
    for (name, gravity) in SLOPES {
        let base = [
            MATHWORKS_LAW,
            gravity,
            "model.stop_time=10",
            "solver.abs_tol=1e-9",
        ];
        let with = |method: &str| {
            let mut sets = base.to_vec();
            sets.push(method);
            sets.push("solver.rel_tol=1e-4");
            model("models/box_on_incline.toml", &sets)
        };
        let stiff = with("solver.method=trbdf2");
        let explicit = with("solver.method=dopri5");
        let (t_explicit, r_explicit) = timed(&explicit, 3);
        let (t_stiff, r_stiff) = timed(&stiff, 7);
        let x_ref = last(&r_explicit.recording, "free.p[0]");
        for (label, t, r) in [
            ("dopri5", t_explicit, &r_explicit),
            ("trbdf2", t_stiff, &r_stiff),
        ] {
            println!(
                "cube {name} 10 s, {label} rel_tol 1e-4: {:?}, {} steps ({} rejected), {} evaluations, {} Jacobians, x(10 s) = {:.9} m ({:+.1e} from dopri5)",
                t,
                r.stats.steps,
                r.stats.rejected_steps,
                r.stats.function_evaluations,
                r.stats.jacobian_evaluations,
                last(&r.recording, "free.p[0]"),
                last(&r.recording, "free.p[0]") - x_ref
            );
        }
        println!(
            "cube {name}: trbdf2 is {:.0} × faster than dopri5",
            t_explicit.as_secs_f64() / t_stiff.as_secs_f64()
        );
        g.bench_function(format!("{name}_trbdf2_rtol_1e-4"), |b| {
            b.iter(|| simulate(&stiff, RunOptions::default()).expect("run"))
        });
    }
    g.finish();
}

fn peers(c: &mut Criterion) {
    let mut g = c.benchmark_group("peers_tolerances");
    g.sample_size(20);
    let tolerances = ["solver.rel_tol=1e-6", "solver.abs_tol=1e-8"];
    let ball = model("models/ball_drop.toml", &tolerances);
    let (t, r) = timed(&ball, 7);
    println!(
        "ball_drop rel_tol 1e-6 abs_tol 1e-8, dopri5: {t:?}, {} steps ({} rejected, {} redone), {} evaluations, apex error {:+.2e} m; Drake RK3 at 1e-6: 77 ms, 7.9e-7 ⇒ {:.1} ×",
        r.stats.steps,
        r.stats.rejected_steps,
        r.stats.redone_steps,
        r.stats.function_evaluations,
        apex(&r.recording) - 0.4599056,
        0.077 / t.as_secs_f64()
    );
    g.bench_function("ball_drop", |b| {
        b.iter(|| simulate(&ball, RunOptions::default()).expect("run"))
    });
    let boxm = model("models/box_on_incline.toml", &tolerances);
    let (t, r) = timed(&boxm, 7);
    println!(
        "box_slide rel_tol 1e-6 abs_tol 1e-8, dopri5: {t:?}, {} steps ({} rejected), {} evaluations, x(1 s) − 1.1767749 = {:+.2e} m; Drake RK3 at 1e-6: 58 ms, −1.60e-3 from rigid ⇒ {:.1} ×",
        r.stats.steps,
        r.stats.rejected_steps,
        r.stats.function_evaluations,
        last(&r.recording, "free.p[0]") - 1.1767749,
        0.058 / t.as_secs_f64()
    );
    g.bench_function("box_slide", |b| {
        b.iter(|| simulate(&boxm, RunOptions::default()).expect("run"))
    });
    g.finish();
}

criterion_group!(benches, cube, peers);
criterion_main!(benches);
