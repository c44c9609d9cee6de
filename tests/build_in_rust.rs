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
    use blockdyn::builder::{blocks, ModelBuilder};
    let mut m = ModelBuilder::new("decay", 1.0);
    m.solver("rel_tol", 1e-9).solver("abs_tol", 1e-12);
    let x = m.add("x", blocks::Integrator::new(1.0));
    let k = m.add("k", blocks::Gain::new(-2.0));
    let scope = m.add("scope", blocks::Scope::new(1));
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
    let (built_model, built) = model
        .build_parts(blockdyn::library::Registry::standard())
        .unwrap();
    assert!(built_model.is_of(&built));
    let (saved_model, saved) =
        blockdyn::load_model_str_parts("saved.toml", &model.to_toml(), &[]).unwrap();
    let (a, b) = (
        blockdyn::simulate(&built, blockdyn::RunOptions::default()).unwrap(),
        blockdyn::simulate(&saved, blockdyn::RunOptions::default()).unwrap(),
    );
    assert_eq!(a.recording.times, b.recording.times);
    assert_eq!(a.recording.values, b.recording.values);
    let (built_spec, saved_spec) = (built_model.spec(), saved_model.spec());
    assert_eq!(built_spec.blocks.len(), saved_spec.blocks.len());
    for (x, y) in built_spec.blocks.iter().zip(&saved_spec.blocks) {
        assert_eq!((&x.name, &x.type_name), (&y.name, &y.type_name));
        assert_eq!(x.params.entries.len(), y.params.entries.len(), "{}", x.name);
    }
}

/// A built model's mistakes name the model, the block and what is wrong, with no line (there is
/// no text to point into): an unknown parameter, two lines into one input, a parameter called
/// `type`.
#[test]
fn a_built_models_messages_have_no_lines() {
    use blockdyn::builder::{blocks, BlockSpec, ModelBuilder};
    let mut m = ModelBuilder::new("bad", 1.0);
    let k = m.add(
        "k",
        BlockSpec::from(blocks::Gain::new(2.0)).param("gian", 3.0),
    );
    let c = m.add("c", blocks::Constant::new(1.0));
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
    let k = m.add("k", blocks::Gain::new(2.0));
    let c = m.add("c", blocks::Constant::new(1.0));
    let d = m.add("d", blocks::Constant::new(2.0));
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
    m.add(
        "k",
        BlockSpec::from(blocks::Gain::new(2.0)).param("type", "Constant"),
    );
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
    use blockdyn::builder::{blocks, ModelBuilder};
    let mut m = ModelBuilder::new("b", 1.0);
    let k = m.add("k", blocks::Gain::new(2.0));
    let c = m.add("c", blocks::Constant::new(1.0));
    m.connect(c.port("out"), k.port("in"));
    let e = blockdyn::build_model(m.document().unwrap(), &["k.gian=3".parse().unwrap()])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("b (built in code): block 'k': --set 'k.gian=3': "),
        "{e}"
    );
    let e = blockdyn::build_model(
        m.document().unwrap(),
        &["solver.rel_tol=-1".parse().unwrap()],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--set 'solver.rel_tol=-1'"), "{e}");
    // A typed override (no text) is named as PATH= and the value's TOML.
    let e = blockdyn::build_model(
        m.document().unwrap(),
        &[blockdyn::Override::new("solver.rel_tol", -1.0)],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--set 'solver.rel_tol=-1.0'"), "{e}");
}

/// A typed override and the same value written as `--set` text build the same model: the
/// gain 3 (an integer in TOML, read as a number) and 2.5, set both ways, scale the constant 1
/// to exactly 3 and 2.5 (products of exact binary numbers: compared bit for bit).
#[test]
fn typed_and_written_overrides_build_alike() {
    use blockdyn::builder::{blocks, ModelBuilder};
    use blockdyn::Override;
    let mut m = ModelBuilder::new("b", 0.1);
    let k = m.add("k", blocks::Gain::new(2.0));
    let c = m.add("c", blocks::Constant::new(1.0));
    m.connect(c.port("out"), k.port("in"));
    let scope = m.add("s", blocks::Scope::new(1));
    m.connect(k.port("out"), scope.port("in1"));
    let last = |o: Override| {
        let d = blockdyn::build_model(m.document().unwrap(), &[o]).unwrap();
        let run = blockdyn::simulate(&d, Default::default()).unwrap();
        *k.column(&run.recording, "out").unwrap().last().unwrap()
    };
    assert_eq!(last(Override::new("k.gain", 3i64)), 3.0);
    assert_eq!(last("k.gain=3".parse().unwrap()), 3.0);
    assert_eq!(last(Override::new("k.gain", 2.5)), 2.5);
    assert_eq!(last("k.gain = 2.5".parse().unwrap()), 2.5);
}

/// The typed block constructors (`blockdyn::builder::blocks`) write the parameters a model file
/// writes: models/box_on_table.toml (a brick on a plane, linear law, smooth stick-slip friction,
/// a tilted six-DOF start) and models/pendulum_stop.toml (a revolute joint with rigid limits, a
/// rigid transform, gravity along −y) rebuilt from them run to the files' numbers bit for bit.
#[test]
fn typed_constructors_rebuild_model_files_bit_for_bit() {
    use blockdyn::builder::blocks::*;
    use blockdyn::builder::{ModelBuilder, ParamValue};
    let log = |names: &[&str]| ParamValue::Array(names.iter().map(|&n| n.into()).collect());

    let mut table = ModelBuilder::new("box_on_table", 2.0);
    table.solver("rel_tol", 1e-6).solver("abs_tol", 1e-9);
    table.output(
        "log",
        log(&["contact.points", "contact.penetration", "free.w"]),
    );
    let world = table.add("world", WorldFrame::new());
    let plane = table.add("table", InfinitePlane::new());
    let brick = table.add("brick", Solid::new(Shape::brick([0.2, 0.2, 0.1])).mass(1.0));
    let free = table.add(
        "free",
        SixDofJoint::new([0.0, 0.0, 0.1]).orientation([0.9998477, 0.0122170, 0.0122170, 0.0]),
    );
    let friction = FrictionLaw::smooth_stick_slip(0.6, 0.4).critical_velocity(1e-3);
    let contact = table.add(
        "contact",
        SpatialContactForce::new(NormalLaw::linear(1e5, 200.0)).friction(friction),
    );
    let scope = table.add("scope", Scope::new(2));
    table
        .attach(world.port("W"), plane.port("R"))
        .attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), brick.port("R"))
        .attach(plane.port("G"), contact.port("B"))
        .attach(brick.port("G"), contact.port("F"))
        .connect(free.port("p[2]"), scope.port("in1"))
        .connect(contact.port("normal_force"), scope.port("in2"));

    let mut stop = ModelBuilder::new("pendulum_stop", 6.0);
    stop.solver("rel_tol", 1e-8).solver("abs_tol", 1e-10);
    stop.output("log", log(&["hinge.w"]));
    let world = stop.add("world", WorldFrame::new());
    stop.add("gravity", MechanismConfiguration::new([0.0, -9.80665, 0.0]));
    let limits = JointLimits::rigid().lower(0.2).upper(1.5).restitution(0.5);
    let hinge = stop.add("hinge", Joint::revolute().q0(1.2).limits(limits));
    let rod = stop.add("rod", RigidTransform::new([0.0, -1.0, 0.0]));
    let bob = stop.add("bob", Solid::new(Shape::sphere(0.05)).mass(1.0));
    let angle = stop.add("angle", Scope::new(1));
    let torque = stop.add("torque", Scope::new(1));
    stop.attach(world.port("W"), hinge.port("B"))
        .attach(hinge.port("F"), rod.port("B"))
        .attach(rod.port("F"), bob.port("R"))
        .connect(hinge.port("q"), angle.port("in1"))
        .connect(hinge.port("limit_force"), torque.port("in1"));

    for (built, file) in [(table, "box_on_table"), (stop, "pendulum_stop")] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(format!("{file}.toml"));
        let from_file = blockdyn::load_model(&path, &[]).expect("the model file");
        let run = |d| blockdyn::simulate(d, Default::default()).expect("runs");
        let (b, f) = (run(&built.build().expect("builds")), run(&from_file));
        let names = |r: &blockdyn::RunResult| {
            let columns = r.recording.columns.iter();
            columns.map(|c| c.name.clone()).collect::<Vec<_>>()
        };
        assert_eq!(names(&b), names(&f), "{file}");
        assert_eq!(b.stats.steps, f.stats.steps, "{file}");
        assert_eq!(b.recording.times, f.recording.times, "{file}");
        assert_eq!(b.recording.values, f.recording.values, "{file}");
    }
}

/// A value of the right type but out of range is refused by the block, as in a file: the message
/// names the block and the parameter.
#[test]
fn a_typed_constructors_bad_value_is_named() {
    use blockdyn::builder::blocks::{
        Joint, RigidTransform, Shape, Solid, SpringDamper, WorldFrame,
    };
    use blockdyn::builder::ModelBuilder;
    let mut m = ModelBuilder::new("bad_spring", 1.0);
    let world = m.add("world", WorldFrame::new());
    let hinge = m.add("hinge", Joint::revolute());
    let arm = m.add("arm", RigidTransform::new([1.0, 0.0, 0.0]));
    let bob = m.add("bob", Solid::new(Shape::sphere(0.1)).mass(1.0));
    let spring = m.add("spring", SpringDamper::new(-5.0).damping(1.0));
    m.attach(world.port("W"), hinge.port("B"))
        .attach(hinge.port("F"), arm.port("B"))
        .attach(arm.port("F"), bob.port("R"))
        .attach(world.port("W"), spring.port("B"))
        .attach(bob.port("R"), spring.port("F"));
    let message = m.build().expect_err("a negative stiffness").to_string();
    assert!(
        message.contains("spring") && message.contains("stiffness"),
        "{message}"
    );
}

/// The typed constructors of the further block types rebuild model files bit for bit:
/// models/thermostat.toml (a Relay with hysteresis), models/particle_on_ground.toml
/// (GroundContact under a Point), models/ball_to_rest.toml (RigidContact) and
/// models/pushed_cart.toml (FromTable and Mux pushing a cart on a prismatic joint).
#[test]
fn typed_constructors_of_signals_and_contacts_rebuild_model_files() {
    use blockdyn::builder::blocks::*;
    use blockdyn::builder::{ModelBuilder, ParamValue};
    let log = |names: &[&str]| ParamValue::Array(names.iter().map(|&n| n.into()).collect());

    let mut thermostat = ModelBuilder::new("thermostat", 3000.0);
    let m = &mut thermostat;
    m.solver("rel_tol", 1e-8).solver("abs_tol", 1e-8);
    let setpoint = m.add("setpoint", Constant::new(20.0));
    let error = m.add("error", Sum::new("+-"));
    let relay = Relay::new(1.0, -1.0)
        .on_value(1.0)
        .off_value(0.0)
        .initially_on();
    let relay = m.add("thermostat", relay);
    let power = m.add("power", Gain::new(0.02));
    let outside = m.add("outside", Constant::new(10.0));
    let loss = m.add("loss", Sum::new("+-"));
    let per_tau = m.add("per_tau", Gain::new(0.001));
    let balance = m.add("balance", Sum::new("++"));
    let room = m.add("room", Integrator::new(15.0));
    let temperature = m.add("temperature_degC", Scope::new(1));
    let heater = m.add("heater_on", Scope::new(1));
    m.connect(setpoint.port("out"), error.port("in1"))
        .connect(room.port("out"), error.port("in2"))
        .connect(error.port("out"), relay.port("in"))
        .connect(relay.port("out"), power.port("in"))
        .connect(outside.port("out"), loss.port("in1"))
        .connect(room.port("out"), loss.port("in2"))
        .connect(loss.port("out"), per_tau.port("in"))
        .connect(per_tau.port("out"), balance.port("in1"))
        .connect(power.port("out"), balance.port("in2"))
        .connect(balance.port("out"), room.port("in"))
        .connect(room.port("out"), temperature.port("in1"))
        .connect(relay.port("out"), heater.port("in1"));

    let mut particle = ModelBuilder::new("particle_on_ground", 1.0);
    let m = &mut particle;
    m.solver("rel_tol", 1e-7).solver("abs_tol", 1e-10);
    m.output("log", log(&["free.p", "ground.force", "ground.cone_ratio"]));
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, 0.0, -9.81]));
    let body = m.add("particle", Solid::new(Shape::sphere(0.01)).mass(1.0));
    let foot = m.add("foot", Point::new());
    let free = m.add(
        "free",
        SixDofJoint::new([0.0, 0.0, -4.5817e-4]).velocity([2.0, 0.0, 0.0]),
    );
    let ground = m.add("ground", GroundContact::new(1e6, 1e3).friction(0.5));
    let scope = m.add("scope", Scope::new(2));
    m.attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), body.port("R"))
        .attach(free.port("F"), foot.port("R"))
        .attach(foot.port("G"), ground.port("F"))
        .connect(free.port("v[0]"), scope.port("in1"))
        .connect(ground.port("status"), scope.port("in2"));

    let mut ball = ModelBuilder::new("ball_to_rest", 5.0);
    let m = &mut ball;
    m.solver("rel_tol", 1e-8).solver("abs_tol", 1e-10);
    m.output(
        "log",
        log(&["free.v", "contact.impulse", "contact.contact"]),
    );
    let world = m.add("world", WorldFrame::new());
    let floor = m.add("floor", InfinitePlane::new());
    let solid = m.add("ball", Solid::new(Shape::sphere(0.1)).mass(1.0));
    let free = m.add("free", SixDofJoint::new([0.0, 0.0, 1.1]));
    let contact = m.add(
        "contact",
        RigidContact::new().restitution(0.8).rest_velocity(1e-3),
    );
    let height = m.add("height", Scope::new(1));
    let force = m.add("force", Scope::new(1));
    m.attach(world.port("W"), floor.port("R"))
        .attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), solid.port("R"))
        .attach(floor.port("G"), contact.port("B"))
        .attach(solid.port("G"), contact.port("F"))
        .connect(free.port("p[2]"), height.port("in1"))
        .connect(contact.port("normal_force"), force.port("in1"));

    let mut cart = ModelBuilder::new("pushed_cart", 4.0);
    let m = &mut cart;
    m.solver("rel_tol", 1e-9).solver("abs_tol", 1e-11);
    let world = m.add("world", WorldFrame::new());
    let rail_frame = m.add(
        "rail_frame",
        RigidTransform::new([0.0; 3])
            .rotation_axis_angle([0.0, 1.0, 0.0], std::f64::consts::FRAC_PI_2),
    );
    let rail = m.add("rail", Joint::prismatic());
    let body = m.add("cart", Solid::new(Shape::brick([0.4, 0.2, 0.1])).mass(2.0));
    let push = m.add("push", ExternalForceTorque::new(ResolvedIn::World));
    let profile = m.add(
        "profile",
        FromTable::new(&[0.0, 1.0, 2.0, 3.0, 4.0], &[0.0, 10.0, 10.0, 0.0, 0.0]),
    );
    let zero = m.add("zero", Constant::new(0.0));
    let force_vector = m.add("force_vector", Mux::new(3));
    let force_n = m.add("force_N", Scope::new(1));
    let motion = m.add("motion", Scope::new(2));
    m.attach(world.port("W"), rail_frame.port("B"))
        .attach(rail_frame.port("F"), rail.port("B"))
        .attach(rail.port("F"), body.port("R"))
        .attach(rail.port("F"), push.port("R"))
        .connect(profile.port("out"), force_vector.port("in1"))
        .connect(zero.port("out"), force_vector.port("in2"))
        .connect(zero.port("out"), force_vector.port("in3"))
        .connect(force_vector.port("out"), push.port("force"))
        .connect(profile.port("out"), force_n.port("in1"))
        .connect(rail.port("q"), motion.port("in1"))
        .connect(rail.port("w"), motion.port("in2"));

    for (built, file) in [
        (thermostat, "thermostat"),
        (particle, "particle_on_ground"),
        (ball, "ball_to_rest"),
        (cart, "pushed_cart"),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(format!("{file}.toml"));
        let from_file = blockdyn::load_model(&path, &[]).expect("the model file");
        let run = |d| blockdyn::simulate(d, Default::default()).expect("runs");
        let (b, f) = (run(&built.build().expect("builds")), run(&from_file));
        let names = |r: &blockdyn::RunResult| {
            let columns = r.recording.columns.iter();
            columns.map(|c| c.name.clone()).collect::<Vec<_>>()
        };
        assert_eq!(names(&b), names(&f), "{file}");
        assert_eq!(b.stats.steps, f.stats.steps, "{file}");
        assert_eq!(b.recording.times, f.recording.times, "{file}");
        assert_eq!(b.recording.values, f.recording.values, "{file}");
    }
}
