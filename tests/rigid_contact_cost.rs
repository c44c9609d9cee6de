//! The cost of rigid resting contact against penalty contact, in evaluations (deterministic; no
//! wall-clock figures here, those are in `benches/rigid_contact.rs` and BENCHMARKS.md): a box
//! resting on RigidContact has no stiff spring to follow, so it takes longer steps and fewer
//! evaluations than the same box on a linear penalty spring (k = 1e5 N/m), at rel_tol 1e-6.
//! The models are the bench's (`benches/support/resting_stack.rs`). Nothing is written to disk.

#[path = "../benches/support/resting_stack.rs"]
mod resting_stack;
use resting_stack::{resting_stack, Contact};

/// Runs a stack of `boxes` resting 1 s with `--set` overrides; returns its evaluations and the
/// largest |z − z₀| of the top box over the run (m).
fn rest(boxes: usize, contact: Contact, sets: &[&str]) -> (usize, f64) {
    let text = resting_stack(boxes, contact, 1.0);
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let d = blockdyn::load_model_str(
        "stack",
        &text,
        &blockdyn::Override::parse_all(&sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let r =
        blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.stats.final_time, 1.0);
    let rec = &r.recording;
    let j = rec
        .column_index(&format!("j{boxes}.p[2]"))
        .expect("top box height");
    let z0 = contact.rest_height(boxes, boxes);
    let moved = rec
        .column_values(j)
        .fold(0.0f64, |m, z| m.max((z - z0).abs()));
    eprintln!(
        "{} × {boxes} {sets:?}: {} steps, {} evaluations, top box moved ≤ {moved:e} m",
        contact.name(),
        r.stats.steps,
        r.stats.function_evaluations
    );
    (r.stats.function_evaluations, moved)
}

/// Both boxes start at their static equilibrium and stay there: the comparison is of resting
/// boxes. Bounds: 1e-8 m, well above the rigid drift correction's tolerance and the solver's
/// abs_tol 1e-9 on the penalty box's round-off motion (measured: 0 and 8e-12 m), and far below
/// the penalty box's static sinking m·g/k = 9.8e-5 m.
#[test]
fn a_rigid_resting_box_costs_fewer_evaluations_than_a_penalty_box() {
    let (rigid, rigid_moved) = rest(1, Contact::Rigid, &[]);
    let (penalty, penalty_moved) = rest(1, Contact::Penalty, &[]);
    assert!(
        rigid_moved < 1e-8 && penalty_moved < 1e-8,
        "{rigid_moved} {penalty_moved}"
    );
    assert!(
        rigid < penalty,
        "rigid {rigid} evaluations, penalty {penalty}"
    );
}

/// With the default max_step (stop_time/50) the rigid box is held to 50 steps; lifted, it
/// takes a handful, while the penalty box still follows its spring under dopri5. (Under the
/// default, auto, the penalty box goes implicit: 157 evaluations against the rigid box's 44.)
#[test]
fn with_long_steps_allowed_the_rigid_box_takes_far_fewer_evaluations() {
    let long = ["solver.max_step=1.0", "solver.method=\"dopri5\""];
    let (rigid, _) = rest(1, Contact::Rigid, &long);
    let (penalty, _) = rest(1, Contact::Penalty, &long);
    assert!(
        5 * rigid < penalty,
        "rigid {rigid} evaluations, penalty {penalty}"
    );
}

/// The stack of ten: 40 redundant rigid contacts in one group against 10 penalty pairs whose
/// stiffest mode (the bottom pair under 10 boxes) bounds the explicit step. The rigid top box
/// rises by 1.1e-9 m over 1 s (measured): ~1e-10 m of integration drift per interface, the
/// order of the drift projection's tolerance (1e-10 m, and it only pushes penetrations out);
/// bound 1e-8 m. Compared under dopri5: under the default (auto) the penalty stack goes
/// implicit, and since its Jacobian is coloured per box (the stack is a chain: a few groups,
/// not 130 columns) it costs 561 evaluations against the rigid stack's 908 (1,016 with the
/// dense Jacobian).
#[test]
fn a_rigid_stack_of_ten_costs_fewer_evaluations_than_a_penalty_stack() {
    let explicit = ["solver.method=\"dopri5\""];
    let (rigid, rigid_moved) = rest(10, Contact::Rigid, &explicit);
    let (penalty, penalty_moved) = rest(10, Contact::Penalty, &explicit);
    assert!(
        rigid_moved < 1e-8 && penalty_moved < 1e-8,
        "{rigid_moved} {penalty_moved}"
    );
    assert!(
        rigid < penalty,
        "rigid {rigid} evaluations, penalty {penalty}"
    );
}
