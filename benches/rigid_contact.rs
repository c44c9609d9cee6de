//! Rigid-contact benchmarks (issue 10, "Speed"):
//!
//! - `lcp/stack/{4,16,64}`: one [`solve_lcp`] of the frictionless problem of a stack of 1, 4 and 16
//!   boxes on the ground, 4 corner contacts per interface (4, 16, 64 rows; A = J·M⁻¹·Jᵀ singular,
//!   rank 3 per interface), at rest: the time per solve and how it grows with the rows.
//! - `stack10/{rigid,penalty}`: 10 boxes resting 1 s (`support/resting_stack.rs`), RigidContact
//!   against SpatialContactForce (linear law k = 1e5 N/m, damping near critical), rel_tol 1e-6.
//! - `box/{rigid,penalty}`: one box resting 1 s, the same two ways; the rigid box must cost fewer
//!   evaluations (checked by `tests/rigid_contact_cost.rs`; counts are deterministic).
//! - Printed only: both comparisons again with `solver.max_step = 1.0` (the default max_step,
//!   stop_time/50, is what bounds the rigid runs' steps).
//!
//! Each model configuration prints its steps, evaluations and median wall time once (whole
//! `simulate` calls, the configurations of a comparison interleaved in one process), with the
//! ratios; then criterion times whole runs. No wall-clock asserts.
//!
//! Run: `cargo bench --bench rigid_contact` (about a minute).

#[path = "support/resting_stack.rs"]
mod resting_stack;

use std::hint::black_box;
use std::time::{Duration, Instant};

use blockdyn::multibody::constraints::{solve_lcp, LcpWorkspace, RowKind};
use blockdyn::{load_model_str, simulate, Diagram, RunOptions, RunResult};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use nalgebra::{DMatrix, Rotation3, Vector3};
use resting_stack::{resting_stack, Contact, G};

/// Mass (kg) and half extents (m) of the boxes of the LCP problems: 0.2 × 0.2 × 0.1 m, 1 kg.
const MASS: f64 = 1.0;
const HALF: [f64; 3] = [0.1, 0.1, 0.05];

/// The frictionless contact problem (A, b) of `boxes` boxes stacked on the ground at rest, each
/// turned 0.1 rad about z more than the one below (so no corner lies over a corner), with the
/// contacts at the 4 corners of each box's bottom face, normal +z.
///
/// Coordinates per box: (v, ω) of its centre of mass, World-resolved, so M = diag(m, m, m, I) with
/// I = m/12·(b² + c², a² + c², a² + b²) (unchanged by a turn about z, the base being square). A
/// contact at World point p between a lower body L and an upper body U has the row
/// J = n·(v_U + ω_U × (p − c_U)) − n·(v_L + ω_L × (p − c_L)) (the ground has no coordinates).
/// b = J·M⁻¹·F with gravity F = (0, 0, −m·g, 0, 0, 0) per box and no velocity terms at rest:
/// −g for the ground rows, 0 between boxes.
fn stack_problem(boxes: usize) -> (DMatrix<f64>, Vec<f64>) {
    let rows = 4 * boxes;
    let nv = 6 * boxes;
    let [a, b, c] = HALF.map(|h| 2.0 * h);
    let inertia = [b * b + c * c, a * a + c * c, a * a + b * b].map(|x| MASS * x / 12.0);
    let mut j = DMatrix::zeros(rows, nv);
    let normal = Vector3::z();
    // Row of point p on body k (centre c), its velocity along n: n·v + (r × n)·ω.
    let mut put = |row: usize, body: usize, p: &Vector3<f64>, centre: &Vector3<f64>, sign: f64| {
        let r = p - centre;
        let angular = r.cross(&normal);
        for k in 0..3 {
            j[(row, 6 * body + k)] += sign * normal[k];
            j[(row, 6 * body + 3 + k)] += sign * angular[k];
        }
    };
    for k in 0..boxes {
        let centre = Vector3::new(0.0, 0.0, HALF[2] + 2.0 * HALF[2] * k as f64);
        let turn = Rotation3::from_axis_angle(&Vector3::z_axis(), 0.1 * k as f64);
        for (corner, (sx, sy)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .into_iter()
            .enumerate()
        {
            let p = centre + turn * Vector3::new(sx * HALF[0], sy * HALF[1], -HALF[2]);
            let row = 4 * k + corner;
            put(row, k, &p, &centre, 1.0);
            if k > 0 {
                let below = centre - Vector3::new(0.0, 0.0, 2.0 * HALF[2]);
                put(row, k - 1, &p, &below, -1.0);
            }
        }
    }
    let m_inv = DMatrix::from_fn(nv, nv, |r, c| {
        if r != c {
            0.0
        } else if r % 6 < 3 {
            1.0 / MASS
        } else {
            1.0 / inertia[r % 6 - 3]
        }
    });
    let jm = &j * &m_inv;
    let a = &jm * j.transpose();
    let a = (&a + a.transpose()) * 0.5;
    let gravity = DMatrix::from_fn(nv, 1, |r, _| if r % 6 == 2 { -MASS * G } else { 0.0 });
    let b = (&jm * gravity).iter().copied().collect();
    (a, b)
}

fn lcp(c: &mut Criterion) {
    let mut group = c.benchmark_group("lcp");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for contacts in [4usize, 16, 64] {
        let boxes = contacts / 4;
        let (a, b) = stack_problem(boxes);
        let kinds = vec![RowKind::Unilateral; contacts];
        let mut ws = LcpWorkspace::new(contacts);
        let mut f = vec![0.0; contacts];
        let stats = solve_lcp(a.as_view(), &b, &kinds, &mut ws, &mut f).expect("solve");
        // The ground carries the whole stack; every acceleration is 0 (at rest).
        let ground: f64 = f[..4].iter().sum();
        let worst = ws
            .accelerations()
            .iter()
            .fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(
            (ground - boxes as f64 * MASS * G).abs() < 1e-9 * ground,
            "{ground}"
        );
        println!(
            "lcp stack of {boxes} boxes, {contacts} contacts: {} pivots, {} transfers, {} zero steps, \
             {} clamped; ground force {ground:.6} N (n·m·g = {:.6}), max |a| {worst:.1e} m/s²",
            stats.pivots,
            stats.transfers,
            stats.zero_steps,
            stats.clamped,
            boxes as f64 * MASS * G,
        );
        group.bench_function(BenchmarkId::new("stack", contacts), |bench| {
            bench.iter(|| {
                solve_lcp(
                    black_box(a.as_view()),
                    black_box(&b),
                    &kinds,
                    &mut ws,
                    &mut f,
                )
                .expect("solve")
            })
        });
    }
    group.finish();
}

/// A model configuration of a comparison.
struct Case {
    name: String,
    diagram: Diagram,
}

impl Case {
    fn stack(boxes: usize, contact: Contact) -> Self {
        Self::stack_with(boxes, contact, "", &[])
    }

    /// The stack with `--set` style overrides, `suffix` added to its name.
    fn stack_with(boxes: usize, contact: Contact, suffix: &str, sets: &[&str]) -> Self {
        let text = resting_stack(boxes, contact, 1.0);
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Self {
            name: format!("{}_{boxes}{suffix}", contact.name()),
            diagram: load_model_str(
                "stack",
                &text,
                &blockdyn::Override::parse_all(&sets).unwrap(),
            )
            .expect("stack model"),
        }
    }
}

/// The solver's default max_step is stop_time/50 = 0.02 s, which bounds a rigid resting run's
/// steps; this lifts it.
const LONG_STEPS: &[&str] = &["solver.max_step=1.0"];

fn run(d: &Diagram) -> RunResult {
    simulate(d, RunOptions::default()).expect("run")
}

/// Runs the cases `repeats` times, interleaved, and prints each one's steps, evaluations and
/// median wall time (whole `simulate` call; the solver loop's own in brackets), then the ratios
/// of each case after the first to the first.
fn compare(title: &str, cases: &[Case], repeats: usize) {
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
        let e = r.stats.function_evaluations;
        println!(
            "  {:<24} {:>6} steps ({:>3} rejected), {:>6} evaluations, {:>9.3} ms wall \
             ({:.3} ms solver loop), {:.2} µs per evaluation",
            case.name,
            r.stats.steps,
            r.stats.rejected_steps,
            e,
            walls[i] * 1e3,
            loops[i] * 1e3,
            walls[i] / e as f64 * 1e6,
        );
    }
    let e0 = last[0].stats.function_evaluations as f64;
    for (i, case) in cases.iter().enumerate().skip(1) {
        let e = last[i].stats.function_evaluations as f64;
        println!(
            "  {} / {}: evaluations {:.3} ×, wall {:.3} ×, wall per evaluation {:.2} ×",
            cases[0].name,
            case.name,
            e0 / e,
            walls[0] / walls[i],
            (walls[0] / e0) / (walls[i] / e),
        );
    }
}

fn stacks(c: &mut Criterion) {
    let single = [
        Case::stack(1, Contact::Rigid),
        Case::stack(1, Contact::Penalty),
    ];
    compare("one box resting 1 s, rel_tol 1e-6", &single, 21);
    let ten = [
        Case::stack(10, Contact::Rigid),
        Case::stack(10, Contact::Penalty),
    ];
    compare("10 boxes resting 1 s, rel_tol 1e-6", &ten, 5);
    let long = [
        Case::stack_with(1, Contact::Rigid, "_max_step_1", LONG_STEPS),
        Case::stack_with(1, Contact::Penalty, "_max_step_1", LONG_STEPS),
        Case::stack_with(10, Contact::Rigid, "_max_step_1", LONG_STEPS),
        Case::stack_with(10, Contact::Penalty, "_max_step_1", LONG_STEPS),
    ];
    compare(
        "the same with max_step = 1 s (rigid_1 first)",
        &long[..2],
        21,
    );
    compare(
        "the same with max_step = 1 s (rigid_10 first)",
        &long[2..],
        5,
    );

    let mut group = c.benchmark_group("box");
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    for case in &single {
        group.bench_function(&case.name, |b| b.iter(|| run(&case.diagram)));
    }
    group.finish();
    // ~0.1 s per run: ten runs each.
    let mut group = c.benchmark_group("stack10");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    for case in &ten {
        group.bench_function(&case.name, |b| b.iter(|| run(&case.diagram)));
    }
    group.finish();
}

criterion_group!(benches, lcp, stacks);
criterion_main!(benches);
