//! The typed constructors of the sources, linear systems, discrete, nonlinear and routing blocks,
//! joints, geometries and contacts: each builds in a diagram with every setter applied, and runs
//! to closed forms where one is cheap.

use super::*;
use crate::builder::{BlockHandle, ModelBuilder};
use crate::RunResult;

/// Builds and runs `m` with the default options.
fn run(m: &ModelBuilder) -> RunResult {
    let diagram = m.build().unwrap_or_else(|e| panic!("builds: {e}"));
    crate::simulate(&diagram, Default::default()).expect("runs")
}

/// The last recorded value of `block.port`.
fn last(run: &RunResult, block: &BlockHandle, port: &str) -> f64 {
    let column = block.column(&run.recording, port);
    *column
        .unwrap_or_else(|| panic!("{}.{port} is recorded", block.name()))
        .last()
        .unwrap()
}

/// A signal model at tight tolerances: dopri5 at rel_tol 1e-10, abs_tol 1e-12.
fn tight(name: &str, stop_time: f64) -> ModelBuilder {
    let mut m = ModelBuilder::new(name, stop_time);
    m.solver("rel_tol", 1e-10).solver("abs_tol", 1e-12);
    m
}

/// Each source integrated over [0, 1 s] against its closed form, within 1e-9 (the sources are
/// piecewise polynomials with their kinks and edges at time events, so the error is the
/// tolerance's): a ramp of slope a from t0 on top of y0, ∫ = y0 + a·(1 − t0)²/2; the clock,
/// ∫ = 1/2; pulses of amplitude A, width 25 % of a 0.5 s period from 0.1 s, ∫ = 2·A·0.125;
/// a linear table 0 → 2 over [0, 1], ∫ = 1; a held table, 1 on [0, 0.5) and 3 after, ∫ = 2.
#[test]
fn sources_integrate_to_their_closed_forms() {
    let mut m = tight("sources", 1.0);
    let (slope, t0, y0, amplitude) = (2.0, 0.25, 0.5, 3.0);
    let sources: Vec<(BlockSpec, f64)> = vec![
        (
            Ramp::new(slope).start_time(t0).initial_output(y0).into(),
            y0 + slope * (1.0 - t0).powi(2) / 2.0,
        ),
        (Clock::new().into(), 0.5),
        (
            PulseGenerator::new(amplitude, 0.5)
                .pulse_width(25.0)
                .phase_delay(0.1)
                .into(),
            2.0 * amplitude * 0.125,
        ),
        (FromTable::new(&[0.0, 1.0], &[0.0, 2.0]).into(), 1.0),
        (FromTable::new(&[0.0, 0.5], &[1.0, 3.0]).hold().into(), 2.0),
    ];
    let scope = m.add("scope", Scope::new(sources.len()));
    let mut integrals = Vec::new();
    for (i, (source, exact)) in sources.into_iter().enumerate() {
        let s = m.add(&format!("source{i}"), source);
        let x = m.add(&format!("integral{i}"), Integrator::new(0.0));
        m.connect(s.port("out"), x.port("in"))
            .connect(x.port("out"), scope.port(&format!("in{}", i + 1)));
        integrals.push((x, exact));
    }
    let rows = m.add(
        "rows",
        FromTable::rows(&[0.0, 1.0], &[[1.0, 2.0], [3.0, 4.0]]),
    );
    let rows_scope = m.add("rows_scope", Scope::new(1));
    m.connect(rows.port("out"), rows_scope.port("in1"));
    let r = run(&m);
    for (x, exact) in &integrals {
        let value = last(&r, x, "out");
        assert!(
            (value - exact).abs() < 1e-9,
            "{}: {value} against {exact}",
            x.name()
        );
    }
    assert_eq!(last(&r, &rows, "out[1]"), 4.0, "the last row, held");
}

/// A unit step into 1/(s + 1) gives 1 − e^(−t); the same system in state space from x(0) = 2
/// with D = 0.5 gives y = 2·e^(−t) + 1 − e^(−t) + 0.5. dopri5 at rel_tol 1e-10: y(1 s) within
/// 1e-8.
#[test]
fn a_first_order_lag_as_transfer_function_and_state_space() {
    let mut m = tight("lag", 1.0);
    let step = m.add("step", Step::new().time(0.0));
    let lag = m.add("lag", TransferFunction::new(&[1.0], &[1.0, 1.0]));
    let ss = StateSpace::new(&[[-1.0]], &[[1.0]], &[[1.0]])
        .feedthrough(&[[0.5]])
        .initial(&[2.0]);
    let ss = m.add("ss", ss);
    let scope = m.add("scope", Scope::new(2));
    m.connect(step.port("out"), lag.port("in"))
        .connect(step.port("out"), ss.port("in"))
        .connect(lag.port("out"), scope.port("in1"))
        .connect(ss.port("out"), scope.port("in2"));
    let r = run(&m);
    let decay = (-1f64).exp();
    let (y_tf, y_ss) = (last(&r, &lag, "out"), last(&r, &ss, "out"));
    assert!((y_tf - (1.0 - decay)).abs() < 1e-8, "{y_tf}");
    let exact = 2.0 * decay + 1.0 - decay + 0.5;
    assert!((y_ss - exact).abs() < 1e-8, "{y_ss} against {exact}");
}

/// A PID with only its proportional gain is that gain, bit for bit (the same product at the same
/// times). With every term and setter, a constant error e = 1 gives
/// out = kp + I₀ + ki·t + N·(kd − x_f0)·e^(−N·t) (the filter state relaxes to kd at rate N);
/// rel_tol 1e-10: out(1 s) within 1e-8.
#[test]
fn a_pid_is_its_gains() {
    let mut m = tight("pid", 1.0);
    let wave = m.add("wave", Sine::new(1.0, 3.0));
    let p_only = m.add("p_only", Pid::new(2.5, 0.0, 0.0));
    let gain = m.add("gain", Gain::new(2.5));
    let (kp, ki, kd, n, i0, xf0) = (2.0, 0.5, 0.1, 5.0, 0.3, 0.2);
    let error = m.add("error", Constant::new(1.0));
    let pid = Pid::new(kp, ki, kd)
        .filter(n)
        .initial_integral(i0)
        .initial_filter(xf0);
    let pid = m.add("pid", pid);
    let scope = m.add("scope", Scope::new(3));
    m.connect(wave.port("out"), p_only.port("in"))
        .connect(wave.port("out"), gain.port("in"))
        .connect(error.port("out"), pid.port("in"))
        .connect(p_only.port("out"), scope.port("in1"))
        .connect(gain.port("out"), scope.port("in2"))
        .connect(pid.port("out"), scope.port("in3"));
    let r = run(&m);
    assert_eq!(
        p_only.column(&r.recording, "out"),
        gain.column(&r.recording, "out")
    );
    let exact = kp + i0 + ki + n * (kd - xf0) * (-n).exp();
    let out = last(&r, &pid, "out");
    assert!((out - exact).abs() < 1e-8, "{out} against {exact}");
}

/// The clock sampled every 0.25 s from 0.1 s (hits 0.1, 0.35, 0.6, 0.85): at 0.9 s the hold
/// shows the sample at 0.85 and the delay the one at 0.6; a delay's initial output holds until
/// its second hit. Exact to rounding (1e-12).
#[test]
fn sampled_blocks_hold_and_delay_the_clock() {
    let mut m = tight("sampled", 0.9);
    let clock = m.add("clock", Clock::new());
    let hold = m.add("hold", ZeroOrderHold::new(0.25).offset(0.1));
    let delay = m.add("delay", UnitDelay::new(0.25).offset(0.1).initial(-1.0));
    let late = m.add("late", UnitDelay::new(1.0).initial_vector(&[7.0]));
    let scope = m.add("scope", Scope::new(3));
    m.connect(clock.port("out"), hold.port("in"))
        .connect(clock.port("out"), delay.port("in"))
        .connect(clock.port("out"), late.port("in"))
        .connect(hold.port("out"), scope.port("in1"))
        .connect(delay.port("out"), scope.port("in2"))
        .connect(late.port("out"), scope.port("in3"));
    let r = run(&m);
    assert!((last(&r, &hold, "out") - 0.85).abs() < 1e-12);
    assert!((last(&r, &delay, "out") - 0.6).abs() < 1e-12);
    assert_eq!(last(&r, &late, "out"), 7.0);
}

/// Math, discontinuity and routing blocks with every constructor and setter, on constants and a
/// sine, against their exact values: 6/3, |−2|, min and max, a relay's on and off values, the
/// rising crossings of sin(2πt) through 0.5 in [0, 2.25 s] (at 1/12, 13/12 and 25/12 s: 3, where
/// either direction would count 5), a mux
/// split and selected back, and the three switch criteria.
#[test]
fn math_and_routing_blocks_compute_their_values() {
    let mut m = tight("math", 2.25);
    let c = |m: &mut ModelBuilder, name: &str, v: f64| m.add(name, Constant::new(v));
    let (six, three, minus_two) = (
        c(&mut m, "six", 6.0),
        c(&mut m, "three", 3.0),
        c(&mut m, "m2", -2.0),
    );
    let ratio = m.add("ratio", Product::operations("*/"));
    let product = m.add("product", Product::new(2));
    let abs = m.add("abs", Abs::new());
    let min = m.add("min", MinMax::min(2));
    let max = m.add("max", MinMax::max(1));
    let wave = m.add("wave", Sine::new(1.0, 2.0 * std::f64::consts::PI));
    let relay = Relay::new(0.5, -0.5)
        .on_value(2.0)
        .off_value(-2.0)
        .initially_on();
    let relay = m.add("relay", relay);
    let crossings = m.add(
        "crossings",
        HitCrossing::new(0.5).direction(CrossingDirection::Rising),
    );
    let mux = m.add("mux", Mux::new(3));
    let split = m.add("split", Demux::sizes(&[2, 1]));
    let halves = m.add("halves", Demux::new(2));
    let pick = m.add("pick", Selector::new(&[1, 0]));
    let unused = m.add("unused", Terminator::new());
    let unused2 = m.add("unused2", Terminator::new());
    let at_least = m.add("at_least", Switch::at_least(3.0));
    let above = m.add("above", Switch::above(3.0));
    let nonzero = m.add("nonzero", Switch::nonzero());
    let scope = m.add("scope", Scope::new(12));
    m.connect(six.port("out"), ratio.port("in1"))
        .connect(three.port("out"), ratio.port("in2"))
        .connect(six.port("out"), product.port("in1"))
        .connect(minus_two.port("out"), product.port("in2"))
        .connect(minus_two.port("out"), abs.port("in"))
        .connect(six.port("out"), min.port("in1"))
        .connect(minus_two.port("out"), min.port("in2"))
        .connect(mux.port("out"), max.port("in1"))
        .connect(wave.port("out"), relay.port("in"))
        .connect(wave.port("out"), crossings.port("in"))
        .connect(six.port("out"), mux.port("in1"))
        .connect(three.port("out"), mux.port("in2"))
        .connect(minus_two.port("out"), mux.port("in3"))
        .connect(mux.port("out"), split.port("in"))
        .connect(split.port("out1"), pick.port("in"))
        .connect(split.port("out1"), halves.port("in"))
        .connect(split.port("out2"), unused.port("in"))
        .connect(halves.port("out2"), unused2.port("in"));
    for switch in [&at_least, &above, &nonzero] {
        m.connect(six.port("out"), switch.port("in1"))
            .connect(three.port("out"), switch.port("in2"))
            .connect(minus_two.port("out"), switch.port("in3"));
    }
    let recorded = [
        &ratio, &product, &abs, &min, &max, &relay, &crossings, &pick, &at_least, &above, &nonzero,
    ];
    for (i, block) in recorded.iter().enumerate() {
        m.connect(block.port("out"), scope.port(&format!("in{}", i + 1)));
    }
    m.connect(halves.port("out1"), scope.port("in12"));
    let r = run(&m);
    let value = |b: &BlockHandle, port: &str| last(&r, b, port);
    assert_eq!(value(&ratio, "out"), 2.0);
    assert_eq!(value(&product, "out"), -12.0);
    assert_eq!(value(&abs, "out"), 2.0);
    assert_eq!(value(&min, "out"), -2.0);
    assert_eq!(value(&max, "out"), 6.0);
    assert_eq!(value(&crossings, "out"), 3.0);
    assert_eq!(value(&pick, "out[0]"), 3.0);
    assert_eq!(value(&pick, "out[1]"), 6.0);
    assert_eq!(value(&halves, "out1"), 6.0);
    assert_eq!(value(&at_least, "out"), 6.0, "3 ≥ 3");
    assert_eq!(value(&above, "out"), -2.0, "3 > 3 fails");
    assert_eq!(value(&nonzero, "out"), 6.0);
    // sin(2π·2.25) = 1: past the on point, so on.
    assert_eq!(value(&relay, "out"), 2.0);
}

/// A free body on each joint, against the closed form of its motion (rel_tol 1e-10, within
/// 1e-7): a uniform sphere spinning at ω about z on a ball joint (no torque: its centre is the
/// joint's) turns to Q = [cos(ωt/2), 0, 0, sin(ωt/2)]; on a planar joint (gravity across the
/// plane) it drifts q = q0 + w0·t; on a cylindrical joint along gravity it spins uniformly and
/// falls d = d0 + v0·t − g·t²/2. Every setter of each joint kind applied, actuated by zero
/// inputs, builds and runs.
#[test]
fn joints_move_free_bodies_by_their_closed_forms() {
    let g = 9.81;
    let mut m = tight("joints", 1.0);
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, 0.0, -g]));
    let ball =
        |m: &mut ModelBuilder, name: &str| m.add(name, Solid::new(Shape::sphere(0.1)).mass(1.0));
    let spin = m.add(
        "spin",
        SphericalJoint::new().angular_velocity([0.0, 0.0, 2.0]),
    );
    let (q0, w0) = ([0.1, 0.2, 0.3], [1.0, 2.0, 0.5]);
    let slide = m.add("slide", Joint::planar().q0(q0).w0(w0));
    let screw = m.add("screw", Joint::cylindrical().q0([0.1, 0.2]).w0([0.5, 1.0]));
    let every_spherical = SphericalJoint::new()
        .orientation([1.0, 0.1, 0.0, 0.0])
        .angular_velocity([0.0, 1.0, 0.0])
        .stiffness(1.0)
        .damping(0.1)
        .actuated();
    let every_universal = Joint::universal()
        .q0([0.1, -0.1])
        .w0([0.0, 0.5])
        .stiffness(2.0)
        .stiffness_per_axis([1.0, 2.0])
        .damping(0.5)
        .damping_per_axis([0.1, 0.2])
        .actuated();
    let joints = [
        spin,
        slide.clone(),
        screw.clone(),
        m.add("every_spherical", every_spherical),
        m.add("every_universal", every_universal),
    ];
    for (i, joint) in joints.iter().enumerate() {
        let body = ball(&mut m, &format!("body{i}"));
        m.attach(world.port("W"), joint.port("B"))
            .attach(joint.port("F"), body.port("R"));
    }
    let zero3 = m.add("zero3", Constant::vector(&[0.0; 3]));
    let zero2 = m.add("zero2", Constant::vector(&[0.0; 2]));
    m.connect(zero3.port("out"), joints[3].port("t"))
        .connect(zero2.port("out"), joints[4].port("t"));
    let scope = m.add("scope", Scope::new(3));
    m.connect(joints[0].port("Q"), scope.port("in1"))
        .connect(slide.port("q"), scope.port("in2"))
        .connect(screw.port("q"), scope.port("in3"));
    let r = run(&m);
    let close = |value: f64, exact: f64, what: &str| {
        assert!(
            (value - exact).abs() < 1e-7,
            "{what}: {value} against {exact}"
        );
    };
    close(last(&r, &joints[0], "Q[0]"), 1f64.cos(), "Q[0]");
    close(last(&r, &joints[0], "Q[3]"), 1f64.sin(), "Q[3]");
    for k in 0..3 {
        close(
            last(&r, &slide, &format!("q[{k}]")),
            q0[k] + w0[k],
            "planar q",
        );
    }
    close(last(&r, &screw, "q[0]"), 0.1 + 0.5, "cylindrical θ");
    close(
        last(&r, &screw, "q[1]"),
        0.2 + 1.0 - g / 2.0,
        "cylindrical d",
    );
}

/// A solid of `shape` and [`MASS`], named `name`, on a six-DOF joint from World starting at rest
/// at `position`; returns the joint (its port `F` is the body's frame).
fn resting_body(
    m: &mut ModelBuilder,
    world: &BlockHandle,
    name: &str,
    shape: Shape,
    position: [f64; 3],
) -> BlockHandle {
    let free = m.add(&format!("{name}_free"), SixDofJoint::new(position));
    let body = m.add(name, Solid::new(shape).mass(MASS));
    m.attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), body.port("R"));
    free
}

/// The mass of the resting bodies, kg.
const MASS: f64 = 2.0;
/// The magnitude of gravity (along −z) in the contact checks, m/s².
const G: f64 = 9.81;

/// Rigid contacts hold a resting body with its weight m·g exactly (to 1e-9 relative): a ball on
/// a frictionless floor and a brick's collision geometry on a floor with Coulomb friction,
/// simultaneous impacts and every other setter.
#[test]
fn rigid_contacts_carry_the_weight() {
    let mut m = ModelBuilder::new("rigid_rest", 0.5);
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, 0.0, -G]));
    let floor = m.add("floor", InfinitePlane::new());
    m.attach(world.port("W"), floor.port("R"));
    let ball = m.add("ball", Solid::new(Shape::sphere(0.1)).mass(MASS));
    let free = m.add("free", SixDofJoint::new([0.0, 0.0, 0.1]));
    let on_ball = m.add("on_ball", RigidContact::new().frictionless());
    m.attach(world.port("W"), free.port("B"))
        .attach(free.port("F"), ball.port("R"))
        .attach(floor.port("G"), on_ball.port("B"))
        .attach(ball.port("G"), on_ball.port("F"));
    let size = [0.2, 0.2, 0.1];
    let brick = resting_body(
        &mut m,
        &world,
        "brick",
        Shape::brick(size),
        [1.0, 0.0, 0.05],
    );
    let skin = m.add("skin", CollisionGeometry::new(Shape::brick(size)));
    let every = RigidContact::new()
        .restitution(0.3)
        .rest_velocity(1e-2)
        .coulomb_friction(0.5)
        .impacts(ImpactOrder::Simultaneous);
    let on_brick = m.add("on_brick", every);
    m.attach(brick.port("F"), skin.port("R"))
        .attach(floor.port("G"), on_brick.port("B"))
        .attach(skin.port("G"), on_brick.port("F"));
    let scope = m.add("scope", Scope::new(2));
    m.connect(on_ball.port("normal_force"), scope.port("in1"))
        .connect(on_brick.port("normal_force"), scope.port("in2"));
    let r = run(&m);
    for contact in [&on_ball, &on_brick] {
        let force = last(&r, contact, "normal_force");
        let weight = MASS * G;
        assert!(
            (force - weight).abs() < 1e-9 * weight,
            "{}: {force} against {weight}",
            contact.name()
        );
    }
}

/// Compliant contacts started at their static compression stay there, carrying m·g (to 1e-8
/// relative, rel_tol 1e-10): spatial_v2's ground under a Point, d = (m·g/K)^(2/3); a linear law
/// between a one-point cloud and a flat grid, d = m·g/k. A planar ground under a point cloud
/// with every setter, and a disk on a plane, build and run alongside.
#[test]
fn compliant_contacts_carry_the_weight() {
    let mut m = tight("compliant_rest", 0.2);
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, 0.0, -G]));
    let weight = MASS * G;

    let (k_ground, d_ground) = (1e6, 1e3);
    let sink = (weight / k_ground).powf(2.0 / 3.0);
    let particle = resting_body(
        &mut m,
        &world,
        "particle",
        Shape::sphere(0.01),
        [0.0, 0.0, -sink],
    );
    let foot = m.add("foot", Point::new());
    let ground = m.add("ground", GroundContact::new(k_ground, d_ground));
    m.attach(particle.port("F"), foot.port("R"))
        .attach(foot.port("G"), ground.port("F"));

    let (k, c) = (1e5, 1e3);
    let grid = GridSurface::new(&[-1.0, 0.0, 1.0], &[-1.0, 1.0], &[[0.0; 2]; 3]);
    let grid = m.add("grid", grid);
    let on_grid = m.add("on_grid", SpatialContactForce::new(NormalLaw::linear(k, c)));
    let rolling = [0.0, 0.0, 0.1 - weight / k];
    let ball = resting_body(&mut m, &world, "ball", Shape::sphere(0.1), rolling);
    let skin = m.add("skin", PointCloud::new(&[[0.0, 0.0, -0.1]]));
    m.attach(world.port("W"), grid.port("R"))
        .attach(ball.port("F"), skin.port("R"))
        .attach(grid.port("G"), on_grid.port("B"))
        .attach(skin.port("G"), on_grid.port("F"));

    let walker = m.add("walker", Joint::planar().q0([0.0, 0.5, 0.0]));
    let body = m.add("walker_body", Solid::new(Shape::sphere(0.05)).mass(1.0));
    let feet = m.add(
        "feet",
        PointCloud::new(&[[0.1, -0.1, 0.0], [-0.1, -0.1, 0.0]]),
    );
    let every = GroundContact::new(k_ground, d_ground)
        .friction(0.5)
        .zero_crossings(false)
        .planar();
    let planar_ground = m.add("planar_ground", every);
    m.attach(world.port("W"), walker.port("B"))
        .attach(walker.port("F"), body.port("R"))
        .attach(walker.port("F"), feet.port("R"))
        .attach(feet.port("G"), planar_ground.port("F"));

    let floor = m.add("floor", InfinitePlane::new());
    let coin = resting_body(
        &mut m,
        &world,
        "coin",
        Shape::cylinder(0.05, 0.01),
        [2.0, 0.0, 0.1],
    );
    let face = m.add("face", Disk::new(0.05));
    let on_coin = m.add("on_coin", SpatialContactForce::new(NormalLaw::linear(k, c)));
    m.attach(world.port("W"), floor.port("R"))
        .attach(coin.port("F"), face.port("R"))
        .attach(floor.port("G"), on_coin.port("B"))
        .attach(face.port("G"), on_coin.port("F"));

    let scope = m.add("scope", Scope::new(2));
    m.connect(ground.port("force[2]"), scope.port("in1"))
        .connect(on_grid.port("normal_force"), scope.port("in2"));
    let r = run(&m);
    for (force, what) in [
        (last(&r, &ground, "force[2]"), "ground"),
        (last(&r, &on_grid, "normal_force"), "grid"),
    ] {
        assert!(
            (force - weight).abs() < 1e-8 * weight,
            "{what}: {force} against {weight}"
        );
    }
}
