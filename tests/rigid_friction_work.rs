//! Friction never does positive work (issue 27, part 2): over every rigid example (each model in
//! models/ with a RigidContact, and the turntable of tests/data/rigid/), each RigidContact's
//! `friction_power` — `Σ f_t·(v_F − v_B)` over its points, W — is integrated by an Integrator
//! block added to the model, and the work is checked at every recorded sample.
//!
//! What anyone can compute: Coulomb friction opposes the slip, so its power `−μ f_n |v_t|` is
//! never positive while sliding, and zero while sticking (`v_t = 0`). The tolerance, 1e-9 J, is
//! the budget of round-off: a sticking point's slip is ~1e-13 m/s, its friction a few N, over a
//! few seconds.
//!
//! In memory only (`blockdyn::simulate`); nothing is written.

mod common;
use common::{column, run_text};

/// The rigid examples (every model in models/ with a RigidContact) and the turntable.
const MODELS: [&str; 8] = [
    "models/contactsim_blocks.toml",
    "models/box_stack_rigid.toml",
    "models/newtons_cradle.toml",
    "models/ball_to_rest.toml",
    "models/reverse_spin_bounce.toml",
    "models/turntable.toml",
    "models/vibrating_plate.toml",
    "tests/data/rigid/turntable.toml",
];

/// The model at `path` with an Integrator `work_<name>` on each RigidContact's friction power,
/// logging only those (no files). Returns the text and the logged columns.
fn with_work_integrators(path: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut doc: toml::Table = text.parse().unwrap_or_else(|e| panic!("{path}: {e}"));
    let contacts: Vec<String> = doc["blocks"]
        .as_table()
        .expect("a [blocks] table")
        .iter()
        .filter(|(_, b)| b.get("type").and_then(|t| t.as_str()) == Some("RigidContact"))
        .map(|(name, _)| name.clone())
        .collect();
    assert!(!contacts.is_empty(), "{path}: no RigidContact");
    let mut logged = Vec::new();
    for name in &contacts {
        let work = format!("work_{name}");
        let mut block = toml::Table::new();
        block.insert("type".into(), "Integrator".into());
        doc["blocks"]
            .as_table_mut()
            .expect("blocks")
            .insert(work.clone(), block.into());
        doc["connect"]
            .as_array_mut()
            .expect("a connect list")
            .push(format!("{name}.friction_power -> {work}.in").into());
        logged.push(format!("{work}.out"));
    }
    let mut output = toml::Table::new();
    output.insert(
        "log".into(),
        toml::Value::Array(logged.iter().map(|s| s.clone().into()).collect()),
    );
    doc.insert("output".into(), output.into());
    (doc.to_string(), logged)
}

#[test]
fn friction_never_does_positive_work_in_the_rigid_examples() {
    for path in MODELS {
        let (text, logged) = with_work_integrators(path);
        let rec = run_text(path, &text).recording;
        for name in &logged {
            let work = column(&rec, name);
            let (i, most) =
                work.iter()
                    .enumerate()
                    .fold(
                        (0, f64::NEG_INFINITY),
                        |(j, m), (i, &w)| {
                            if w > m {
                                (i, w)
                            } else {
                                (j, m)
                            }
                        },
                    );
            assert!(
                most <= 1e-9,
                "{path}: {name} reached {most:e} J at t = {}",
                rec.times[i]
            );
        }
    }
}

#[test]
fn sliding_friction_dissipates_on_the_turntable() {
    // After slip the brick's four corners slide at up to ~0.2 m/s with μ·m·g = 4.9 N between
    // them: the work must be clearly negative (not merely not positive), so that the test above
    // is not passing on a power that is always zero.
    let (text, logged) = with_work_integrators("tests/data/rigid/turntable.toml");
    let rec = run_text("turntable", &text).recording;
    let work = column(&rec, &logged[0]);
    assert!(
        work[work.len() - 1] < -0.1,
        "friction work {} J",
        work[work.len() - 1]
    );
}
