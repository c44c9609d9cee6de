//! Streaming rows allocates nothing per row: a counting global allocator watches whole runs after
//! set-up, recording into a staged CSV and the plot's reserved bucket rows (issue 12, part 2).
//! The CSV goes into a fresh temporary directory.

use blockdyn::output::StagedFile;
use blockdyn::sim::{Engine, Recorder, StreamTo};
use blockdyn::solver::Solver;
mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn a_streamed_run_after_set_up_allocates_nothing() {
    let dir = std::env::temp_dir().join(format!("blockdyn-record-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (model, overrides) in [
        ("models/bouncing_ball.toml", &[][..]),
        ("models/mass_spring_damper.toml", &[][..]),
        (
            "models/ball_drop.toml",
            &["output.sample_time=0.001".to_string()][..],
        ),
        (
            "models/newtons_cradle.toml",
            &["output.refine=4".to_string()][..],
        ),
    ] {
        let d = blockdyn::load_model(
            std::path::Path::new(model),
            &blockdyn::Override::parse_all(overrides).unwrap(),
        )
        .unwrap();
        let csv = StagedFile::create(&dir.join("run.csv"), "CSV").unwrap();
        let to = StreamTo {
            csv: Some(csv),
            plot: true,
            size_warning: None,
        };
        let mut engine = Engine::new(&d, Recorder::streaming(&d, to).unwrap());
        let x0 = engine.initialize(0.0);
        let mut solver = Solver::new(
            d.num_states(),
            d.zero_crossing_directions().len(),
            blockdyn::sim::solver_options(&d),
        )
        .unwrap();
        let (stats, n) = count(|| solver.integrate(&mut engine, 0.0, &x0, d.run().stop_time));
        let stats = stats.unwrap();
        assert!(stats.steps > 10, "{model}");
        assert!(engine.run.recorder.rows() > stats.steps, "{model}");
        assert_eq!(n, 0, "{model}: the streamed run allocated {n} times");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
