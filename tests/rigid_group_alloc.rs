//! A rigid ContactGroup's run allocates nothing after set-up (issue 30: the rigid solver's
//! buffers sized by what touches, `src/multibody/rigid/workspace.rs`): a pile of eight spheres
//! dropped in one rigid group onto a floor — impacts between the spheres and with the floor,
//! frictional resting problems, mode events, the broad phase skipping the pairs apart — runs
//! through its first impacts without an allocation, and so does a second run of the same engine
//! (its buffers as the first run left them).

use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::Solver;

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

/// Eight spheres (r = 5 cm, 0.1 kg) in a 2 × 2 × 2 grid 0.11 m apart, each layer shifted by a
/// few millimetres so that no two land at once, dropped into one rigid group with the floor
/// (restitution 0.5, Coulomb μ = 0.5), to 0.2 s: 80 steps, 21 impacts and mode events (past
/// 0.2 s such a pile soon crawls through a cascade of impacts: docs/design-notes.md, rigidbuf).
fn rigid_pile() -> String {
    let mut connect = vec!["world.W -- floor.R".to_string()];
    let mut blocks = String::new();
    for k in 0..8 {
        let (i, j, l) = ((k % 2) as f64, ((k / 2) % 2) as f64, (k / 4) as f64);
        let shift = 0.003 * k as f64;
        let (x, y, z) = (
            0.11 * i - 0.055 + shift,
            0.11 * j - 0.055,
            0.1 + 0.12 * l + shift,
        );
        connect.push(format!(
            "\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\""
        ));
        blocks += &format!(
            "[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{x:?}, {y:?}, {z:?}]\n\
             [blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\n\
             mass = 0.1\n"
        );
    }
    connect[0] = format!("\"{}\"", connect[0]);
    format!(
        "connect = [{}]\n[model]\nname = \"rigid_pile_8\"\nstop_time = 0.2\n\
         [solver]\nrel_tol = 1e-4\nabs_tol = 1e-6\n[output]\nlog = [\"free0.p\", \"free7.p\"]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n[blocks.config]\ntype = \"MechanismConfiguration\"\n\
         gravity = [0.0, 0.0, -9.81]\n[blocks.floor]\ntype = \"InfinitePlane\"\n{blocks}\
         [blocks.pile]\ntype = \"ContactGroup\"\nmembers = [\"ball*\", \"floor\"]\ncontact = \"rigid\"\n\
         restitution = 0.5\nfriction = {{ method = \"coulomb\", coefficient = 0.5 }}\n",
        connect.join(", ")
    )
}

#[test]
fn a_rigid_pile_runs_without_allocating() {
    let d = blockdyn::load_model_str("rigid_pile_8.toml", &rigid_pile(), &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let mut solver = Solver::new(
        d.num_states(),
        d.zero_crossing_directions().len(),
        blockdyn::sim::solver_options(&d),
    )
    .unwrap();
    for run in 0..2 {
        let x0 = engine.initialize(0.0);
        let (stats, n) = count(|| {
            solver
                .integrate(&mut engine, 0.0, &x0, d.run().stop_time)
                .unwrap()
        });
        // The spheres land (events), so the run is more than a free fall's few steps.
        assert!(stats.steps > 20, "run {run}: {} steps", stats.steps);
        assert!(stats.zero_crossings > 0, "run {run}: no impact");
        assert!(
            engine.run.recorder.recording.len() < 4096,
            "more rows than the reserved capacity"
        );
        assert_eq!(n, 0, "run {run}: the rigid pile allocated {n} times");
    }
}
