//! The model builder: examples/build_in_rust.rs rebuilds models/ball_drop.toml in code and gets
//! the file's numbers bit for bit (the same document, so the same diagram and steps), and the
//! physics is the file's: the first rebound's apex against the closed form of the model's
//! comment, 0.4599056 m, to 1e-5 m (the model's rel_tol 1e-6 and the default rows' sampling of the
//! apex).

#[path = "../examples/build_in_rust.rs"]
mod example;

#[test]
fn the_built_ball_drop_equals_the_model_file() {
    let (built, file) = example::both_runs();
    assert_eq!(built.stats.steps, file.stats.steps);
    assert_eq!(
        built
            .recording
            .columns
            .iter()
            .map(|c| &c.name)
            .collect::<Vec<_>>(),
        file.recording
            .columns
            .iter()
            .map(|c| &c.name)
            .collect::<Vec<_>>()
    );
    assert_eq!(built.recording.times, file.recording.times);
    assert_eq!(built.recording.values, file.recording.values);
    let apex = example::first_apex(&built);
    assert!((apex - 0.4599056).abs() < 1e-5, "{apex}");
    let toml = example::ball_drop().to_toml();
    assert!(
        toml.contains("[blocks.contact]") && toml.contains("free.F -- ball.R"),
        "{toml}"
    );
}

/// Handles name ports for connections and read their recorded columns: x' = −2x, x(0) = 1 gives
/// x(1) = e^(−2) (dopri5 at rel_tol 1e-9: within 1e-8).
#[test]
fn handles_connect_ports_and_read_columns() {
    use blockdyn::builder::{BlockSpec, ModelBuilder};
    let mut m = ModelBuilder::new("decay", 1.0);
    m.solver("rel_tol", 1e-9).solver("abs_tol", 1e-12);
    let x = m.add("x", BlockSpec::integrator(1.0));
    let k = m.add("k", BlockSpec::gain(-2.0));
    let scope = m.add("scope", BlockSpec::scope(1));
    m.connect(x.port("out"), k.port("in"))
        .connect(k.port("out"), x.port("in"))
        .connect(x.port("out"), scope.port("in1"));
    let run = blockdyn::simulate(&m.build().unwrap(), Default::default()).unwrap();
    let values = x
        .column(&run.recording, "out")
        .expect("recorded by the scope");
    let last = *values.last().unwrap();
    assert!((last - (-2f64).exp()).abs() < 1e-8, "{last}");
    assert!(k.column(&run.recording, "out").is_none(), "not recorded");
}
