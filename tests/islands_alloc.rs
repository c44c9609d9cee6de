//! A run with islands allocates nothing after set-up (issue 30, part 3): a counting global
//! allocator watches the island solvers' steps and the synchronisations. (Its own binary: the
//! counter is global, and tests in one binary run on parallel threads.)

use blockdyn::sim::{Engine, Recorder};

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

/// Islands (`[solver] islands = true`): after set-up ([`blockdyn::sim::Islands::new`]: the
/// partition, one solver per island), a run whose partition does not change — three balls
/// bouncing on one floor 10 m apart, one contact group — allocates nothing: the island
/// solvers' steps, the gathers and scatters of their states, the synchronisations (the groups'
/// looks handled for all blocks, the partition worked out again, rows recorded).
#[test]
fn an_island_run_after_set_up_allocates_nothing() {
    let mut connect = String::from("connect = [\"world.W -- floor.R\",");
    let mut blocks = String::new();
    for (k, x) in [0.0, 10.0, 20.0].iter().enumerate() {
        connect.push_str(&format!("\"world.W -- j{k}.B\", \"j{k}.F -- b{k}.R\","));
        let vx = if k % 2 == 0 { 0.5 } else { -0.5 };
        blocks.push_str(&format!(
            "[blocks.j{k}]\ntype = \"SixDofJoint\"\nposition = [{x}, 0.0, {}]\nvelocity = [{vx}, 0.0, 0.0]\n\
             [blocks.b{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n",
            0.1 + 0.05 * k as f64
        ));
    }
    let text = format!(
        "{connect}]\n[model]\nstop_time = 0.3\n[solver]\nislands = true\nrel_tol = 1e-6\n\
         [output]\nsample_time = 0.01\nlog = [\"j0.p\", \"j2.p\"]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n\
         [blocks.group]\ntype = \"ContactGroup\"\nmembers = [\"b*\", \"floor\"]\n\
         normal = {{ method = \"hunt_crossley\", stiffness = 1e4, damping = 1.0 }}\n\
         friction = {{ method = \"stribeck\", static = 0.5, dynamic = 0.5, stiction_velocity = 0.01 }}\n{blocks}"
    );
    let d = blockdyn::load_model_str("clusters.toml", &text, &[]).unwrap();
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x0 = engine.initialize(0.0);
    let options = blockdyn::sim::solver_options(&d);
    let mut islands = blockdyn::sim::Islands::new(&mut engine, &options, 0.0, &x0, 0.3)
        .unwrap()
        .expect("three far-apart balls are three islands");
    let ((stats, counts), n) = count(|| islands.integrate(&mut engine).unwrap());
    assert!(stats.steps > 10);
    assert_eq!(counts.initial_islands, 3, "{counts:?}");
    assert!(stats.zero_crossings > 3, "the balls bounced: {stats:?}");
    assert_eq!(counts.repartitions, 0, "a static partition: {counts:?}");
    assert_eq!(n, 0, "the island run allocated {n} times");
    // Per-island zero-crossing functions: the group has min(11·3, 3 + 3) = 6 watch slots (the
    // balls' pairs with each other and the floor) and the approach function; each ball's
    // island sees the shared approach function and room for its one pair with the floor.
    assert_eq!(counts.crossings, 7, "{counts:?}");
    assert_eq!(counts.shared_crossings, 1, "{counts:?}");
    assert_eq!(counts.max_island_crossings, 2, "{counts:?}");
    assert_eq!(counts.cross_island_crossings, 0, "{counts:?}");
    // Three islands of one ball each: every evaluation counts a third of a whole one (to
    // round-off in the sum of ~10³ thirds).
    let thirds = stats.function_evaluations as f64 / 3.0;
    let equivalents = counts.evaluation_equivalents;
    assert!(
        (equivalents - thirds).abs() < 1e-9 * thirds,
        "{equivalents} vs {thirds}"
    );
}
