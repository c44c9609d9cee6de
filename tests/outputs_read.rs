//! Blocks skip the outputs nobody reads and work out their zero-crossing functions only when the
//! solver asks for them (issue 11's cost per evaluation). Reading more outputs must change
//! nothing else: the same steps, the same states bit for bit, the same located events, and the
//! same values in the columns both runs record.

use blockdyn::{load_model, simulate, RunOptions, RunResult};
use std::path::Path;

fn run(path: &str, sets: &[&str]) -> RunResult {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let d = load_model(
        Path::new(path),
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    simulate(&d, RunOptions::default()).expect("runs")
}

/// Every column of `a` that `b` records too holds the same values bit for bit, and both runs
/// took the same steps to the same state and located the same events.
fn assert_same_run(a: &RunResult, b: &RunResult) {
    assert_eq!(a.stats.steps, b.stats.steps);
    assert_eq!(a.stats.rejected_steps, b.stats.rejected_steps);
    assert_eq!(a.stats.function_evaluations, b.stats.function_evaluations);
    assert_eq!(a.final_state, b.final_state);
    assert_eq!(a.recording.times, b.recording.times);
    let (ea, eb): (Vec<_>, Vec<_>) = (
        a.events.iter().map(|e| (e.time, e.block.clone())).collect(),
        b.events.iter().map(|e| (e.time, e.block.clone())).collect(),
    );
    assert_eq!(ea, eb);
    let mut shared = 0;
    for (k, column) in a.recording.columns.iter().enumerate() {
        let Some(j) = b.recording.column_index(&column.name) else {
            continue;
        };
        let (x, y): (Vec<f64>, Vec<f64>) = (
            a.recording.column_values(k).collect(),
            b.recording.column_values(j).collect(),
        );
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&x), bits(&y), "column {}", column.name);
        shared += 1;
    }
    assert!(shared > 0, "the runs share columns");
}

const ALL_CONTACT_OUTPUTS: &str = "output.log=[\"contact.contact\", \"contact.penetration\", \"contact.separation\", \"contact.normal_force\", \"contact.friction_force\", \"contact.normal_velocity\", \"contact.tangential_velocity\", \"contact.base_rotation\", \"contact.base_translation\", \"contact.follower_rotation\", \"contact.follower_translation\", \"contact.resultant_force\", \"contact.points\", \"free.p\", \"free.Q\", \"free.v\", \"free.w\"]";

/// The cube on its 8 corners (a point cloud, 4 corners never touching): the model as written
/// reads one sensing output of the contact and two of the joint; logging all of them changes no
/// step and no shared value. The corners off the plane report no contact, no depth, no force and
/// no velocity.
#[test]
fn a_point_cloud_reading_every_output_takes_the_same_steps() {
    let tolerances = ["solver.rel_tol=1e-6", "solver.abs_tol=1e-8"];
    let as_written = run("models/box_on_incline.toml", &tolerances);
    let mut sets = tolerances.to_vec();
    sets.push(ALL_CONTACT_OUTPUTS);
    let everything = run("models/box_on_incline.toml", &sets);
    assert!(everything.recording.columns.len() > as_written.recording.columns.len() + 50);
    assert_same_run(&as_written, &everything);
    let rec = &everything.recording;
    // Element i of a 1×8 cloud output, whichever way the column is named.
    let last = |base: &str, i: usize| {
        let k = rec
            .column_index(&format!("{base}[{i}]"))
            .or_else(|| rec.column_index(&format!("{base}[0,{i}]")))
            .unwrap_or_else(|| panic!("{base}[{i}]"));
        rec.column_values(k).last().expect("rows")
    };
    // Corners 1, 3, 5, 7 are the upper ones (z = +0.1 in the cloud).
    for i in [1, 3, 5, 7] {
        assert_eq!(last("contact.contact", i), 0.0);
        assert_eq!(last("contact.penetration", i), 0.0);
        assert_eq!(last("contact.normal_force", i), 0.0);
        assert_eq!(last("contact.friction_force", i), 0.0);
        assert_eq!(last("contact.normal_velocity", i), 0.0);
        assert!(last("contact.separation", i) > 0.19);
    }
    for i in [0, 2, 4, 6] {
        assert_eq!(last("contact.contact", i), 1.0);
        let (f_n, f_t) = (
            last("contact.normal_force", i),
            last("contact.friction_force", i),
        );
        // Sliding: the friction force is μ_d = 0.3 times the normal force.
        assert!(
            f_n > 1.0 && (f_t - 0.3 * f_n).abs() < 1e-6 * f_n,
            "{f_n} {f_t}"
        );
    }
}

/// ball_drop locates the linear law's kink (the clip point) at every rebound: the kink functions,
/// worked out only when the solver asks for the zero crossings, fire at the same instants
/// whichever outputs are read.
#[test]
fn kink_crossings_do_not_depend_on_the_outputs_read() {
    let tolerances = ["solver.rel_tol=1e-6", "solver.abs_tol=1e-8"];
    let as_written = run("models/ball_drop.toml", &tolerances);
    assert!(as_written.events.len() >= 4, "{:?}", as_written.events);
    let mut sets = tolerances.to_vec();
    sets.push("output.log=[\"contact.normal_velocity\", \"contact.friction_force\", \"contact.follower_translation\", \"contact.penetration\"]");
    let more = run("models/ball_drop.toml", &sets);
    assert_same_run(&as_written, &more);
}
