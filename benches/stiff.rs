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
//! - `stiff_box_slide/*`: the peers' box_slide made stiff (MathWorks' typical k = 8e7 N/m per
//!   corner, damping c = 4e6 N·s/m at the static load), in Drake's own law, Hunt–Crossley
//!   f = k·d·(1 + D·ḋ) with D = c/(k·d_s), d_s = m·g·cos 30°/(4k) the static penetration, which is
//!   blockdyn's `hunt_crossley` with exponents 1, 1, 1 and damping k·D = c/d_s; it starts level at
//!   rest at d_s. trbdf2 at rel_tol 1e-3 … 1e-11 with abs_tol = 1e-4·rel_tol (the series the
//!   comparison uses) and with abs_tol 1e-12; the error in x(1 s) against this model's converged
//!   answer (trbdf2 at rel_tol 1e-12, abs_tol 1e-16, computed here; Drake's Radau3 at accuracy 1e-6
//!   agrees within 3e-8). Each is timed as the model is written (about 1000 rows from the dense
//!   output, each a whole evaluation of the diagram) and with `output.refine = 1` (step ends only;
//!   Drake's script records nothing). Compare with `benches/peers/box_slide_stiff_drake.py`, run
//!   right after.
//!
//! Each configuration prints its steps, evaluations, accuracy and the median wall time of a few
//! whole runs (the configurations of a comparison interleaved in one process) with the ratio;
//! then criterion times the fast runs. No wall-clock asserts.
//!
//! Run: `cargo bench --bench stiff` (about a minute; the dopri5 cube runs take seconds each), or one
//! group: `cargo bench --bench stiff -- stiff_box_slide`.

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
    load_model(
        Path::new(path),
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn column(rec: &Recording, name: &str) -> Vec<f64> {
    rec.column_values(rec.column_index(name).expect(name))
        .collect()
}

fn last(rec: &Recording, name: &str) -> f64 {
    *column(rec, name).last().expect("rows")
}

/// The median wall time of some runs and, on Linux, their median CPU time (of this thread: a run is
/// single-threaded). On a loaded machine the wall time also counts the time the run waited for a
/// core; the CPU time does not (Drake's scripts report both too, `wall_s` and `cpu_s`).
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

impl Timing {
    fn as_secs_f64(&self) -> f64 {
        self.wall.as_secs_f64()
    }
}

impl std::fmt::Debug for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cpu {
            Some(cpu) => write!(f, "{:?} (cpu {:?})", self.wall, cpu),
            None => write!(f, "{:?}", self.wall),
        }
    }
}

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through the valid, exclusive pointer it is given.
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    ok.then(|| Duration::new(ts.sec as u64, ts.nsec as u32))
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// Median wall (and CPU) time of `runs` whole runs after one untimed warm-up run, and the last
/// run's result.
fn timed(d: &Diagram, runs: usize) -> (Timing, RunResult) {
    simulate(d, RunOptions::default()).expect("run");
    let mut times = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    let mut result = None;
    for _ in 0..runs {
        let (start, cpu_start) = (Instant::now(), thread_cpu_time());
        let r = simulate(d, RunOptions::default()).expect("run");
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_time()) {
            cpu.push(b.saturating_sub(a));
        }
        result = Some(r);
    }
    times.sort();
    cpu.sort();
    let timing = Timing {
        wall: times[runs / 2],
        cpu: (cpu.len() == runs).then(|| cpu[runs / 2]),
    };
    (timing, result.expect("at least one run"))
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

/// The same run recording step ends only (`output.refine = 1`), as Drake's `AdvanceTo` records
/// nothing: the model's default rows (about 1000 per run from the dense output) each cost a whole
/// evaluation of the diagram. The steps are the same (checked against `as_written`).
fn step_rows_only(name: &str, path: &str, tolerances: &[&str], as_written: &RunResult) {
    let mut sets = tolerances.to_vec();
    sets.push("output.refine=1");
    let (t, r) = timed(&model(path, &sets), 7);
    assert_eq!(r.stats.steps, as_written.stats.steps, "rows change no step");
    assert_eq!(r.final_state, as_written.final_state, "rows change no step");
    println!(
        "{name} rel_tol 1e-6 abs_tol 1e-8, dopri5, step-end rows only (refine = 1): {t:?}, {} rows (as written: {} rows)",
        r.recording.len(),
        as_written.recording.len()
    );
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
    step_rows_only("ball_drop", "models/ball_drop.toml", &tolerances, &r);
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
    step_rows_only("box_slide", "models/box_on_incline.toml", &tolerances, &r);
    g.finish();
}

/// The stiff box_slide's per-corner stiffness (N/m) and damping at the static load (N·s/m).
const STIFF_K: f64 = 8e7;
const STIFF_C: f64 = 4e6;

/// models/box_on_incline.toml with Drake's Hunt–Crossley law matched to (`STIFF_K`, `STIFF_C`) at
/// the static load, starting at the static penetration, under trbdf2.
fn stiff_box_slide_model(rel_tol: f64, abs_tol: f64, step_rows_only: bool) -> Diagram {
    let static_depth = 9.81 * 30f64.to_radians().cos() / (4.0 * STIFF_K);
    let law = format!(
        "contact.normal={{ method = \"hunt_crossley\", stiffness = {STIFF_K:e}, damping = {:e}, exponent = 1, velocity_exponent = 1, depth_exponent = 1 }}",
        STIFF_C / static_depth
    );
    let position = format!("free.position=[0.0, 0.0, {:e}]", 0.1 - static_depth);
    let (rel, abs) = (
        format!("solver.rel_tol={rel_tol:e}"),
        format!("solver.abs_tol={abs_tol:e}"),
    );
    let mut sets = vec![law.as_str(), &position, "solver.method=trbdf2", &rel, &abs];
    if step_rows_only {
        sets.push("output.refine=1");
    }
    model("models/box_on_incline.toml", &sets)
}

fn stiff_box_slide(c: &mut Criterion) {
    let mut g = c.benchmark_group("stiff_box_slide");
    g.sample_size(10);
    let reference = simulate(
        &stiff_box_slide_model(1e-12, 1e-16, true),
        RunOptions::default(),
    )
    .expect("reference run");
    let x_ref = last(&reference.recording, "free.p[0]");
    println!(
        "stiff box_slide (k = {STIFF_K:e}, c = {STIFF_C:e} per corner, Hunt–Crossley matched at the static load): reference x(1 s) = {x_ref:.10} m (trbdf2 rel_tol 1e-12 abs_tol 1e-16, {} steps)",
        reference.stats.steps
    );
    let coupled = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11].map(|r| (r, r * 1e-4));
    let fixed = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8].map(|r| (r, 1e-12));
    for (rel_tol, abs_tol) in coupled.into_iter().chain(fixed) {
        // The model as written records ~1000 rows per second from the dense output (each a whole
        // evaluation of the diagram); `refine = 1` records the step ends only. Drake records nothing.
        let (t_rows, r) = timed(&stiff_box_slide_model(rel_tol, abs_tol, false), 7);
        let (t_steps, r_steps) = timed(&stiff_box_slide_model(rel_tol, abs_tol, true), 7);
        let x = last(&r.recording, "free.p[0]");
        assert_eq!(
            x,
            last(&r_steps.recording, "free.p[0]"),
            "rows change no step"
        );
        println!(
            "stiff box_slide trbdf2 rel_tol {rel_tol:.0e} abs_tol {abs_tol:.0e}: {t_rows:?} ({} rows), {t_steps:?} (refine = 1, {} rows), {} steps ({} rejected), {} evaluations, {} Jacobians, {} LUs, x(1 s) = {x:.10} m, error {:+.2e} m",
            r.recording.len(),
            r_steps.recording.len(),
            r.stats.steps,
            r.stats.rejected_steps,
            r.stats.function_evaluations,
            r.stats.jacobian_evaluations,
            r.stats.lu_factorizations,
            x - x_ref
        );
    }
    for rel_tol in [1e-3, 1e-6] {
        let d = stiff_box_slide_model(rel_tol, rel_tol * 1e-4, true);
        g.bench_function(format!("trbdf2_rtol_{rel_tol:.0e}_refine_1"), |b| {
            b.iter(|| simulate(&d, RunOptions::default()).expect("run"))
        });
    }
    g.finish();
}

criterion_group!(benches, cube, peers, stiff_box_slide);
criterion_main!(benches);
