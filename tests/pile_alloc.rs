//! The sparse implicit path allocates nothing at a change of the Jacobian's pattern once its
//! buffers have grown: the sphere pile (models/sphere_pile.toml, 64 balls, 832 states) under
//! trbdf2, whose ContactGroup changes its watched pairs (and so the pattern) at its events.
//! A first run grows the buffers (the pattern list, the column lists, the sparse LU's symbolic
//! analysis), a second run with the same solver on a fresh engine is counted: it re-analyses the
//! pattern at every change and must allocate nothing. The dense J and LU (17·n² bytes) are never
//! made: the pile's patterns all take the sparse path.

use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::Solver;

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn pattern_changes_after_warm_up_allocate_nothing() {
    // To 0.155 s: the lowest layer lands at sqrt(2·0.1 m/g) = 0.143 s; its contacts change the
    // watched pairs.
    let overrides = [
        "solver.method=trbdf2".to_string(),
        "model.stop_time=0.155".to_string(),
    ];
    let path = std::path::Path::new("models/sphere_pile.toml");
    let d =
        blockdyn::load_model(path, &blockdyn::Override::parse_all(&overrides).unwrap()).unwrap();
    let mut solver = Solver::new(
        d.num_states(),
        d.zero_crossing_directions().len(),
        blockdyn::sim::solver_options(&d),
    )
    .unwrap();
    let mut run = || {
        let mut engine = Engine::new(&d, Recorder::new(&d));
        let x0 = engine.initialize(0.0);
        let (stats, n) = count(|| solver.integrate(&mut engine, 0.0, &x0, 0.155).unwrap());
        assert!(
            engine.run.recorder.recording.len() < 4096,
            "more rows than the reserved capacity"
        );
        (stats, n)
    };
    let (warm, _) = run();
    let (stats, n) = run();
    assert!(
        stats.sparse_analyses >= 3,
        "the pattern changed only {} times: {stats:?}",
        stats.sparse_analyses
    );
    assert!(stats.sparse_lu_factorizations > 0, "{stats:?}");
    assert_eq!(stats.steps, warm.steps, "the two runs differ");
    assert_eq!(n, 0, "the counted run allocated {n} times: {stats:?}");
}
