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

/// The builder makes the model tree itself, and its saved text reads back into the same model:
/// the ball drop built in code and the ball drop loaded from `to_toml()` run to the same bits.
#[test]
fn a_built_model_and_its_saved_text_run_alike() {
    let model = example::ball_drop();
    let built = model.build().unwrap();
    let saved = blockdyn::load_model_str("saved.toml", &model.to_toml(), &[]).unwrap();
    let (a, b) = (
        blockdyn::simulate(&built, blockdyn::RunOptions::default()).unwrap(),
        blockdyn::simulate(&saved, blockdyn::RunOptions::default()).unwrap(),
    );
    assert_eq!(a.recording.times, b.recording.times);
    assert_eq!(a.recording.values, b.recording.values);
    assert_eq!(built.spec.blocks.len(), saved.spec.blocks.len());
    for (x, y) in built.spec.blocks.iter().zip(&saved.spec.blocks) {
        assert_eq!((&x.name, &x.type_name), (&y.name, &y.type_name));
        assert_eq!(x.params.entries.len(), y.params.entries.len(), "{}", x.name);
    }
}

/// A built model's mistakes name the model, the block and what is wrong, with no line (there is
/// no text to point into): an unknown parameter, two lines into one input, a parameter called
/// `type`.
#[test]
fn a_built_models_messages_have_no_lines() {
    use blockdyn::builder::{BlockSpec, ModelBuilder};
    let mut m = ModelBuilder::new("bad", 1.0);
    let k = m.add("k", BlockSpec::gain(2.0).param("gian", 3.0));
    let c = m.add("c", BlockSpec::constant(1.0));
    m.connect(c.port("out"), k.port("in"));
    let e = m.build().unwrap_err();
    assert_eq!(e.file.as_deref(), Some("bad (built in code)"));
    assert_eq!(e.line_column, None);
    assert_eq!(e.block.as_deref(), Some("k"));
    assert!(e.message.contains("unknown parameter 'gian'"), "{e}");
    assert!(
        e.to_string()
            .starts_with("bad (built in code): block 'k': "),
        "{e}"
    );

    let mut m = ModelBuilder::new("twice", 1.0);
    let k = m.add("k", BlockSpec::gain(2.0));
    let c = m.add("c", BlockSpec::constant(1.0));
    let d = m.add("d", BlockSpec::constant(2.0));
    m.connect(c.port("out"), k.port("in"));
    m.connect(d.port("out"), k.port("in"));
    let e = m.build().unwrap_err();
    assert_eq!(e.line_column, None);
    assert!(
        e.message
            .contains("input k.in has two sources (another line already feeds it)"),
        "{e}"
    );

    let mut m = ModelBuilder::new("typed", 1.0);
    m.add("k", BlockSpec::gain(2.0).param("type", "Constant"));
    let e = m.build().unwrap_err();
    assert_eq!(e.block.as_deref(), Some("k"));
    assert!(
        e.hint
            .as_deref()
            .unwrap()
            .contains("BlockSpec::of_type(\"Gain\")"),
        "{e}"
    );
}

/// An override given to a built model is still named when the message is about it (the key it
/// sets, in the block it addresses), as for a model file.
#[test]
fn an_override_of_a_built_model_is_named() {
    use blockdyn::builder::{BlockSpec, ModelBuilder};
    let mut m = ModelBuilder::new("b", 1.0);
    let k = m.add("k", BlockSpec::gain(2.0));
    let c = m.add("c", BlockSpec::constant(1.0));
    m.connect(c.port("out"), k.port("in"));
    let e = blockdyn::build_model(m.document().unwrap(), &["k.gian=3".to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("b (built in code): block 'k': --set 'k.gian=3': "),
        "{e}"
    );
    let e = blockdyn::build_model(m.document().unwrap(), &["solver.rel_tol=-1".to_string()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("--set 'solver.rel_tol=-1'"), "{e}");
}
