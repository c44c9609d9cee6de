//! models/ball_drop.toml rebuilt in code with the model builder and the typed block constructors
//! (`blockdyn::builder::blocks`), run, and compared with the model
//! file's run: the same numbers, bit for bit.
//!
//! Run: `cargo run --release --example build_in_rust`. `tests/build_in_rust.rs` runs the same
//! code and asserts it.

use blockdyn::builder::blocks::{
    FrictionLaw, InfinitePlane, MechanismConfiguration, NormalLaw, Scope, Shape, SixDofJoint,
    Solid, SpatialContactForce, WorldFrame,
};
use blockdyn::builder::{ModelBuilder, ParamValue};
use blockdyn::{load_model, simulate, RunOptions, RunResult};
use std::path::Path;

/// The peers' ball drop: a 1 kg sphere of radius 0.1 m released at rest 1 m above a plane, the
/// linear law k = 1e5 N/m, c = 100 N·s/m, no friction, zero crossings on, 3 s.
pub fn ball_drop() -> ModelBuilder {
    let mut m = ModelBuilder::new("ball_drop", 3.0);
    m.solver("rel_tol", 1e-6).solver("abs_tol", 1e-9);
    m.output(
        "log",
        ParamValue::Array(vec![
            "contact.penetration".into(),
            "contact.separation".into(),
            "free.v".into(),
        ]),
    );
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, 0.0, -9.81]));
    let floor = m.add("floor", InfinitePlane::new());
    let ball = m.add("ball", Solid::new(Shape::sphere(0.1)).mass(1.0));
    let free = m.add("free", SixDofJoint::new([0.0, 0.0, 1.0]));
    let normal = NormalLaw::linear(1e5, 100.0);
    let contact = m.add(
        "contact",
        SpatialContactForce::new(normal)
            .friction(FrictionLaw::none())
            .zero_crossings(true),
    );
    let scope = m.add("scope", Scope::new(1));
    let forces = m.add("forces", Scope::new(1));
    m.attach(world.port("W"), floor.port("R"))
        .attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), ball.port("R"))
        .attach(floor.port("G"), contact.port("B"))
        .attach(ball.port("G"), contact.port("F"))
        .connect(free.port("p[2]"), scope.port("in1"))
        .connect(contact.port("normal_force"), forces.port("in1"));
    m
}

/// Runs the built model and the model file; returns both runs.
pub fn both_runs() -> (RunResult, RunResult) {
    let built = ball_drop().build().expect("the built model is valid");
    let file = load_model(Path::new("models/ball_drop.toml"), &[]).expect("the model file");
    let run = |d| simulate(d, RunOptions::default()).expect("runs");
    (run(&built), run(&file))
}

/// The highest point of the first rebound (m), from the recorded `free.p[2]`.
pub fn first_apex(run: &RunResult) -> f64 {
    let rec = &run.recording;
    let z = rec.column_index("free.p[2]").expect("recorded");
    let rebound = (0..rec.len()).filter(|&i| rec.times[i] > 0.45 && rec.times[i] < 0.95);
    rebound.map(|i| rec.row(i)[z]).fold(f64::MIN, f64::max)
}

#[allow(dead_code)]
fn main() {
    let (built, file) = both_runs();
    let same = built.recording.times == file.recording.times
        && built.recording.values == file.recording.values;
    println!(
        "built in code: {} steps, first apex {:.7} m; model file: {} steps, first apex {:.7} m; identical: {same}",
        built.stats.steps,
        first_apex(&built),
        file.stats.steps,
        first_apex(&file)
    );
}
