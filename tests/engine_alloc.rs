//! The minor-step loop allocates nothing: a counting global allocator watches a whole run after
//! set-up (solver steps, block evaluations, event location, resets, recording into reserved rows).

use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::{Solver, System};

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

// One test function: the counter is global, and tests in one binary run on parallel threads.
#[test]
fn a_run_after_set_up_allocates_nothing() {
    // Face contact (contact manifolds: a brick's corners, a disk's rim arcs, friction per point),
    // cut short so that the rows fit the recorder's reserved capacity.
    let short = ["model.stop_time=0.25".to_string()];
    // The stiff method with the contact law's kink crossings (ball_drop: clip points located).
    let stiff = [
        "solver.method=trbdf2".to_string(),
        "solver.rel_tol=1e-4".to_string(),
    ];
    for (model, overrides) in [
        ("models/bouncing_ball.toml", &[][..]),
        ("models/thermostat.toml", &[][..]),
        ("models/mass_spring_damper.toml", &[][..]),
        ("models/box_on_table.toml", &short[..]),
        ("models/box_on_slope.toml", &short[..]),
        ("models/coin_drop.toml", &short[..]),
        ("models/stacked_boxes.toml", &short[..]),
        // Rigid contact: resting complementarity problems, impacts, drift projection.
        ("models/ball_to_rest.toml", &[][..]),
        ("models/newtons_cradle.toml", &[][..]),
        ("models/box_stack_rigid.toml", &[][..]),
        // Joint limits and closed loops (bilateral closure rows, projection).
        ("models/pendulum_stop.toml", &[][..]),
        ("models/four_bar_parallelogram.toml", &[][..]),
        ("models/slider_crank.toml", &[][..]),
        // Motion inputs (a driven loop, a driven axis under rigid contact) and drive outputs.
        ("models/crank_drive.toml", &[][..]),
        ("models/vibrating_plate.toml", &[][..]),
        ("models/ball_drop.toml", &stiff[..]),
        // Joint friction (a passive force of the mechanism, stick/slip crossings), explicit and
        // stiff (its difference Jacobian).
        ("models/joint_friction.toml", &[][..]),
        ("models/joint_friction.toml", &stiff[..]),
        // A ContactGroup: broad phase, watched pairs re-chosen at events, look-ahead time events.
        ("models/dominoes.toml", &short[..]),
        ("models/box_tower.toml", &short[..]),
        // A rigid ContactGroup: 36 rigid pairs solved by the mechanism, the group's outputs
        // summed from their solutions.
        ("models/box_tower_rigid.toml", &short[..]),
    ] {
        let d = blockdyn::load_model(
            std::path::Path::new(model),
            &blockdyn::Override::parse_all(overrides).unwrap(),
        )
        .unwrap();
        let mut engine = Engine::new(&d, Recorder::new(&d));
        let x0 = engine.initialize(0.0);
        let mut solver = Solver::new(
            d.num_states(),
            d.zero_crossing_directions().len(),
            blockdyn::sim::solver_options(&d),
        )
        .unwrap();
        let mut dx = vec![0.0; x0.len()];
        let (_, n) = count(|| {
            for k in 0..1000 {
                engine.derivatives(k as f64 * 1e-3, &x0, &mut dx);
            }
        });
        assert_eq!(n, 0, "{model}: minor steps allocated {n} times");
        let (stats, n) = count(|| {
            solver
                .integrate(&mut engine, 0.0, &x0, d.run().stop_time)
                .unwrap()
        });
        assert!(stats.steps > 10);
        assert!(
            engine.run.recorder.recording.len() < 4096,
            "more rows than the reserved capacity"
        );
        assert_eq!(n, 0, "{model}: the run allocated {n} times");
    }
}
