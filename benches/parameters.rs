//! Parameter vectors (issue 13): what applying new numbers to a built diagram costs, against a
//! run of it and against building the model again with the values.
//!
//! For each model and slot set, in one process:
//! - `apply`: `Blueprint::parameters_from` on a vector with every slot moved (the blocks with a
//!   slot made again from their tables; a mechanism slot elaborates the mechanism again);
//! - `rebuild`: `build_model` of the parsed document with the same values as overrides (what a
//!   sweep point costs without a vector);
//! - `run`: one `simulate` of the diagram with the applied set (the work the vector serves).
//!
//! Models: models/ball_drop.toml (1 body, 9 blocks): the contact law's stiffness and damping
//! (force block only), then the ball's mass and release height (mechanism slots);
//! models/quadruped_urdf.toml (9 bodies from URDF, 41 blocks): the PD gains (signal blocks,
//! fused into the linear plan), two hips' initial angles (mechanism slots of URDF-expanded
//! joints: the mechanism of 9 bodies elaborated again), then the ground's stiffness on all four
//! feet.
//!
//! Target: `apply` ≤ 5 % of `run` for every case (a vector is applied once per run at most), and
//! below `rebuild`. Run: `cargo bench --bench parameters` (about 1 minute).

use blockdyn::model::Document;
use blockdyn::{build_model, load_model_parts, simulate, RunOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

/// One case: a model, the slots, and the values they are moved to.
struct Case {
    name: &'static str,
    model: &'static str,
    slots: &'static [&'static str],
    values: &'static [f64],
    /// The same values as `--set` overrides, for the rebuild.
    overrides: &'static [&'static str],
}

const CASES: [Case; 5] = [
    Case {
        name: "ball_drop/contact_law",
        model: "models/ball_drop.toml",
        slots: &["contact.normal.stiffness", "contact.normal.damping"],
        values: &[2e5, 30.0],
        overrides: &["contact.normal.stiffness=2e5", "contact.normal.damping=30"],
    },
    Case {
        name: "ball_drop/mechanism",
        model: "models/ball_drop.toml",
        slots: &["ball.mass", "free.position[2]"],
        values: &[2.0, 1.5],
        overrides: &["ball.mass=2", "free.position=[0.0, 0.0, 1.5]"],
    },
    Case {
        name: "quadruped/pd_gains",
        model: "models/quadruped_urdf.toml",
        slots: &["kp.gain", "kd.gain"],
        values: &[80.0, 2.0],
        overrides: &["kp.gain=80", "kd.gain=2"],
    },
    Case {
        name: "quadruped/mechanism",
        model: "models/quadruped_urdf.toml",
        slots: &["dog/fl_hip.q0", "dog/fr_hip.q0"],
        values: &[0.65, 0.65],
        overrides: &["dog.joints.fl_hip.q0=0.65", "dog.joints.fr_hip.q0=0.65"],
    },
    Case {
        name: "quadruped/ground_stiffness",
        model: "models/quadruped_urdf.toml",
        slots: &[
            "fl_ground.stiffness",
            "fr_ground.stiffness",
            "rl_ground.stiffness",
            "rr_ground.stiffness",
        ],
        values: &[2e6, 2e6, 2e6, 2e6],
        overrides: &[
            "fl_ground.stiffness=2e6",
            "fr_ground.stiffness=2e6",
            "rl_ground.stiffness=2e6",
            "rr_ground.stiffness=2e6",
        ],
    },
];

fn parameters(c: &mut Criterion) {
    for case in &CASES {
        let (diagram_blueprint, diagram) = load_model_parts(Path::new(case.model), &[]).unwrap();
        let document = Document::load(Path::new(case.model)).unwrap();
        let overrides: Vec<String> = case.overrides.iter().map(|s| s.to_string()).collect();
        let vector = diagram_blueprint
            .parameter_vector(&diagram, case.slots)
            .unwrap()
            .with_values(case.values)
            .unwrap();
        let set = Arc::new(
            diagram_blueprint
                .parameters_from(&diagram, &vector)
                .unwrap(),
        );
        let mut group = c.benchmark_group(format!("parameters/{}", case.name));
        group.sample_size(20);
        group.bench_function("apply", |b| {
            b.iter(|| {
                black_box(
                    diagram_blueprint
                        .parameters_from(&diagram, black_box(&vector))
                        .unwrap(),
                )
            })
        });
        group.bench_function("rebuild", |b| {
            b.iter(|| {
                black_box(
                    build_model(
                        document.clone(),
                        &blockdyn::Override::parse_all(&overrides).unwrap(),
                    )
                    .unwrap(),
                )
            })
        });
        group.bench_function("run", |b| {
            b.iter(|| {
                let options = RunOptions {
                    parameters: Some(Arc::clone(&set)),
                    ..Default::default()
                };
                black_box(simulate(&diagram, options).unwrap())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, parameters);
criterion_main!(benches);
