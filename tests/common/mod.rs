//! Helpers shared by the model tests: run a model file, read recorded columns.
#![allow(dead_code)]

use blockdyn::output::Recording;
use std::path::Path;

/// Runs `path` with `--set` style overrides; panics with the error's message on failure.
pub fn run(path: &str, overrides: &[&str]) -> blockdyn::RunResult {
    let overrides = blockdyn::Override::parse_all(overrides).unwrap();
    let d =
        blockdyn::load_model(Path::new(path), &overrides).unwrap_or_else(|e| panic!("{path}: {e}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The values of the column called `name`.
pub fn column(rec: &Recording, name: &str) -> Vec<f64> {
    let j = rec.column_index(name).unwrap_or_else(|| {
        panic!(
            "no column {name}; have {:?}",
            rec.columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
        )
    });
    rec.column_values(j).collect()
}

/// Value of column `name` at row `i`.
pub fn at(rec: &Recording, name: &str, i: usize) -> f64 {
    let j = rec
        .column_index(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    rec.row(i)[j]
}

/// Rows `i` such that times[i] == times[i-1]: the "after" rows of located events.
pub fn event_rows(rec: &Recording) -> Vec<usize> {
    (1..rec.len())
        .filter(|&i| rec.times[i] == rec.times[i - 1])
        .collect()
}

/// The last row at or before time `t`.
pub fn row_at(rec: &Recording, t: f64) -> usize {
    rec.times.iter().rposition(|&x| x <= t).unwrap_or(0)
}

/// The error message of a model that must be rejected.
pub fn build_error(text: &str) -> String {
    match blockdyn::load_model_str("bad.toml", text, &[]) {
        Ok(_) => panic!("model was accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Builds and runs a model given as text (in memory: nothing is written).
pub fn run_text(label: &str, text: &str) -> blockdyn::RunResult {
    run_text_with(label, text, &[])
}

/// [`run_text`] with `--set` style overrides (`"block.param=value"`).
pub fn run_text_with(label: &str, text: &str, overrides: &[&str]) -> blockdyn::RunResult {
    let overrides = blockdyn::Override::parse_all(overrides).unwrap();
    let d = blockdyn::load_model_str(label, text, &overrides)
        .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{label}: {e}"))
}

/// The error of building the model file `path` (panics when it builds).
pub fn load_error(path: &str) -> String {
    match blockdyn::load_model(Path::new(path), &[]) {
        Ok(_) => panic!("{path} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// Writes `text` to `dir/name` and returns that path as text.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs `path` at `refine = 1` and `refine = 8` and asserts that both runs are the same run:
/// the same counts of steps, rejections, evaluations and crossings, every row of the coarse
/// recording (the step rows) in the fine one at the same time with the same values, and the same
/// state at the stop time, all bit for bit (tolerance 0: both integrations perform the same
/// operations in the same order unless recording changes what they read).
pub fn same_run_at_refine_1_and_8(path: &str) {
    let coarse = run(path, &["output.refine=1"]);
    let fine = run(path, &["output.refine=8"]);
    assert!(
        fine.recording.len() > 4 * coarse.recording.len(),
        "{path}: refine = 8 recorded {} rows, refine = 1 {}",
        fine.recording.len(),
        coarse.recording.len()
    );
    let counts = |r: &blockdyn::RunResult| {
        let s = &r.stats;
        [
            s.steps,
            s.rejected_steps,
            s.function_evaluations,
            s.zero_crossings,
        ]
    };
    assert_eq!(
        counts(&coarse),
        counts(&fine),
        "{path}: steps, rejected, evaluations, crossings"
    );
    // The fine recording holds the coarse one's rows (step ends, events) among its refined ones,
    // in the same order.
    let (c, f) = (&coarse.recording, &fine.recording);
    let mut j = 0;
    for i in 0..c.len() {
        let t = c.times[i];
        while j < f.len() && f.times[j].to_bits() != t.to_bits() {
            j += 1;
        }
        assert!(
            j < f.len(),
            "{path}: step row at t = {t:e} missing at refine = 8"
        );
        for (k, (a, b)) in c.row(i).iter().zip(f.row(j)).enumerate() {
            assert!(
                a.to_bits() == b.to_bits(),
                "{path}: column {} at t = {t:e}: {a:e} (refine 1) vs {b:e} (refine 8)",
                c.columns[k].name
            );
        }
        j += 1;
    }
    for (i, (a, b)) in coarse.final_state.iter().zip(&fine.final_state).enumerate() {
        assert!(
            a.to_bits() == b.to_bits(),
            "{path}: state {i} at the stop time: {a:e} (refine 1) vs {b:e} (refine 8)"
        );
    }
}

/// Runs `path` recording its steps (`refine = 1`) and sampled every `dt` s (`sample_time`, rows
/// from the dense output inside steps, each through the engine's interior evaluation) and
/// asserts both are the same run: the same counts of steps, rejections, evaluations and
/// crossings, and the same state at the stop time, bit for bit (tolerance 0, as
/// [`same_run_at_refine_1_and_8`]).
#[allow(dead_code)] // not every test file that declares `common` uses it
pub fn same_run_with_samples(path: &str, dt: f64) {
    let steps = run(path, &["output.refine=1"]);
    let sample = format!("output.sample_time={dt}");
    let sampled = run(path, &[sample.as_str()]);
    let stop = sampled.recording.times[sampled.recording.len() - 1];
    assert!(
        sampled.recording.len() as f64 >= stop / dt,
        "{path}: {} sampled rows",
        sampled.recording.len()
    );
    let counts = |r: &blockdyn::RunResult| {
        let s = &r.stats;
        [
            s.steps,
            s.rejected_steps,
            s.function_evaluations,
            s.zero_crossings,
        ]
    };
    assert_eq!(
        counts(&steps),
        counts(&sampled),
        "{path}: steps, rejected, evaluations, crossings"
    );
    for (i, (a, b)) in steps
        .final_state
        .iter()
        .zip(&sampled.final_state)
        .enumerate()
    {
        assert!(
            a.to_bits() == b.to_bits(),
            "{path}: state {i} at the stop time: {a:e} (steps) vs {b:e} (sampled)"
        );
    }
}

/// The graze scene of the ContactGroup tests: a fast sphere (r = 5 mm, 0.01 kg, 10 m/s along x,
/// no gravity) passing the edge of a thin fixed plate (4 mm along its path, its top 1 mm above
/// the sphere's lowest point), both in the group `group` (Hunt–Crossley k = 1e6, damping 10, no
/// friction), dopri5 with max_step 0.05 s, 0.2 s; `group_keys` are more lines of the group's
/// table (`zero_crossings = …`, `onsets = …`, `margin = …`). Logs `free.v` and the group's
/// `active_pairs`.
pub fn graze_scene(group_keys: &str) -> String {
    format!(
        r#"connect = ["world.W -- plate.R", "world.W -- free.B", "free.F -- ball.R"]
[model]
name = "graze"
stop_time = 0.2
[solver]
method = "dopri5"
max_step = 0.05
[output]
log = ["free.v", "group.active_pairs"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.plate]
type = "Solid"
geometry = {{ shape = "brick", size = [0.004, 0.2, 0.1] }}
mass = 1.0
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.005 }}
mass = 0.01
[blocks.free]
type = "SixDofJoint"
position = [-0.5, 0.0, 0.054]
velocity = [10.0, 0.0, 0.0]
[blocks.group]
type = "ContactGroup"
members = ["plate", "ball"]
normal = {{ method = "hunt_crossley", stiffness = 1e6, damping = 10.0 }}
friction = {{ method = "none" }}
{group_keys}
"#
    )
}
