//! Joint friction (issue 31, part 3) against closed forms: a Coulomb pendulum stopping after the
//! number of half-swings the amplitude decrement 2·τ_f/(m·g·L) gives, off-centre; a joint staying
//! stuck where its static load is below the limit; a Stribeck pendulum that slides on its dynamic
//! limit and sticks on its static one; per-axis limits of a CylindricalJoint decelerating its spin
//! and slide uniformly, and a SphericalJoint's; `effort_limit`; the Rust builder's setters; and
//! the located errors of bad friction tables. URDF's `<dynamics damping friction>` and `<limit
//! effort>` are in tests/urdf_joint_dynamics.rs.
//!
//! The friction laws are regularised (see docs/blocks.md): below the stiction velocity v_s the
//! friction acts as a stiff damper, so "stuck" means |ω| < v_s, and a stuck joint creeps by at most
//! v_s per second. Every tolerance below follows from that and from the solver's tolerances.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;

use blockdyn::output::Recording;
use common::{build_error, column, event_rows, run, run_text};

const G: f64 = 9.80665;
/// models/joint_friction.toml: m = 1 kg, L = 1 m, τ_f = 0.16 N·m, v_s = 1e-4 rad/s, θ0 = 0.2 rad.
const MGL: f64 = G;
const TAU_F: f64 = 0.16;
const V_S: f64 = 1e-4;
const THETA0: f64 = 0.2;

/// The turning points of a pendulum with constant friction torque `tau` (the limit while it
/// slides) that sticks where m·g·L·sin|θ| ≤ `stick` (the static limit), from rest at `a0` > 0:
/// the magnitudes a_0, a_1, …, a_N. Exact for any amplitude: over a half-swing from a to −b
/// the weight's work equals the friction's, m·g·L·(cos b − cos a) = τ·(a + b) (solved for b by
/// Newton's method from the small-angle b = a − 2τ/(m·g·L)).
fn turning_points(a0: f64, tau: f64, stick: f64) -> Vec<f64> {
    let mut points = vec![a0];
    let mut a = a0;
    while MGL * a.sin() > stick {
        let mut b = a - 2.0 * tau / MGL;
        for _ in 0..50 {
            let f = MGL * (b.cos() - a.cos()) - tau * (a + b);
            b -= f / (-MGL * b.sin() - tau);
        }
        points.push(b);
        a = b;
    }
    points
}

/// The slip phases of column `w`: (first row with |w| > v_s, first row back in the band), the
/// end `None` when it is still slipping at the end.
fn slip_phases(w: &[f64], v_s: f64) -> Vec<(usize, Option<usize>)> {
    let mut phases: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, x) in w.iter().enumerate() {
        let slipping = x.abs() > v_s;
        match phases.last_mut() {
            Some((_, end @ None)) if !slipping => *end = Some(i),
            Some((_, None)) => {}
            _ if slipping => phases.push((i, None)),
            _ => {}
        }
    }
    phases
}

/// After row `from` the joint stays in its stick band (|w| ≤ v_s) and creeps by at most
/// v_s·(t − t_from).
fn assert_stays_stuck(rec: &Recording, q: &str, w: &str, from: usize, v_s: f64) {
    let (q, w) = (column(rec, q), column(rec, w));
    for i in from..rec.len() {
        assert!(
            w[i].abs() <= v_s * (1.0 + 1e-9),
            "t = {}: w = {}",
            rec.times[i],
            w[i]
        );
        let creep = v_s * (rec.times[i] - rec.times[from]);
        assert!(
            (q[i] - q[from]).abs() <= creep + 1e-12,
            "t = {}: crept {}",
            rec.times[i],
            q[i] - q[from]
        );
    }
}

/// models/joint_friction.toml. Closed form (small angles): θ̈ = −(g/L)·θ ∓ τ_f/(m·L²), so each
/// half-swing is a harmonic swing about ±θ_f, θ_f = τ_f/(m·g·L) = 0.016315 rad, and the amplitude
/// drops by 2·θ_f per half-swing; the pendulum sticks at the end of the first half-swing with
/// |θ| ≤ θ_f: 0.2/θ_f = 12.26, so after 6 half-swings, at +(0.2 − 12·θ_f) = +0.0042 rad.
///
/// Checked: the number of slip phases equals that count (and the exact energy balance's); each
/// turning point equals the energy balance's (1e-6 rad: the solver's error at rel_tol 1e-8 over
/// 6 s, with a band row within v_s²/(2·θ̈) ≤ 3e-8 rad of the turning point itself); the rest angle
/// is the small-angle one within the leading nonlinear correction; after it sticks the pendulum
/// stays in the band; the friction torque is ∓τ_f exactly while it slides and holds the weight,
/// m·g·L·sin θ, once stuck.
#[test]
fn a_coulomb_pendulum_stops_after_the_closed_form_number_of_half_swings() {
    let r = run("models/joint_friction.toml", &[]);
    let rec = &r.recording;
    let (q, w) = (column(rec, "hinge.q"), column(rec, "hinge.w"));
    let friction = column(rec, "hinge.friction_force");

    let theta_f = TAU_F / MGL;
    let small_angle_count = (1..)
        .find(|k| THETA0 - 2.0 * *k as f64 * theta_f <= theta_f)
        .unwrap();
    let exact = turning_points(THETA0, TAU_F, TAU_F);
    assert_eq!(small_angle_count, 6);
    assert_eq!(exact.len() - 1, small_angle_count);

    let phases = slip_phases(&w, V_S);
    assert_eq!(phases.len(), small_angle_count, "{phases:?}");
    let mut worst: f64 = 0.0;
    for (k, &(_, end)) in phases.iter().enumerate() {
        let end = end.expect("every half-swing ends");
        let expected = exact[k + 1] * if k % 2 == 0 { -1.0 } else { 1.0 };
        worst = worst.max((q[end] - expected).abs());
        assert!(
            (q[end] - expected).abs() < 1e-6,
            "turning point {k}: {} vs {expected}",
            q[end]
        );
    }
    // The stick and slip are located events: each band row is an event row.
    let events = event_rows(rec);
    for &(start, end) in &phases {
        assert!(start == 0 || events.contains(&start) || events.contains(&(start + 1)));
        let end = end.unwrap();
        assert!(
            events.contains(&end) || events.contains(&(end + 1)),
            "row {end} is not an event"
        );
    }

    let stop = phases.last().unwrap().1.unwrap();
    let rest = q[stop];
    let small_angle_rest = THETA0 - 2.0 * small_angle_count as f64 * theta_f;
    // Leading nonlinear term: with cos θ ≈ 1 − θ²/2 + θ⁴/24 the half-swing from a to b loses
    // 2·θ_f·(1 + (a² + b²)/12) instead of 2·θ_f; summed over the half-swings (10 % for the
    // higher orders).
    let correction: f64 = exact
        .windows(2)
        .map(|p| theta_f * (p[0].powi(2) + p[1].powi(2)) / 6.0)
        .sum();
    assert!(
        (rest - (small_angle_rest - correction)).abs() < 0.1 * correction,
        "rest {rest}, small-angle {small_angle_rest}, correction {correction}"
    );
    assert!(rest > 0.0 && MGL * rest.sin() < TAU_F);
    assert_stays_stuck(rec, "hinge.q", "hinge.w", stop, V_S);

    for i in 0..rec.len() {
        if w[i].abs() >= V_S {
            assert!(
                (friction[i] + TAU_F * w[i].signum()).abs() < 1e-12,
                "t = {}",
                rec.times[i]
            );
        }
    }
    // Stuck: I·θ̈ = f − m·g·L·sin θ with θ̈ the creep's (measured: I·θ̈ ≈ 1e-7 N·m): the friction
    // holds the weight to 1e-5 N·m.
    let last = rec.len() - 1;
    let holding = MGL * q[last].sin();
    assert!(
        (friction[last] - holding).abs() < 1e-5,
        "{} vs {holding}",
        friction[last]
    );
    eprintln!(
        "{} half-swings, rest {rest:.6} rad (small-angle {small_angle_rest:.6}, correction {correction:.2e}), turning points within {worst:.1e} rad of the energy balance, {} events, holding torque within {:.1e} N·m",
        phases.len(),
        events.len(),
        (friction[last] - holding).abs()
    );
}

/// The explicit method, the stiff ones (their difference Jacobian sees the steep friction law
/// near rest) and `auto` (the default) give the same half-swings: the count exactly, the turning
/// points within 1e-6 rad of the energy balance (as above; measured about 2e-8 with each).
#[test]
fn the_stiff_solvers_and_auto_stop_the_pendulum_alike() {
    let exact = turning_points(THETA0, TAU_F, TAU_F);
    for method in ["dopri5", "trbdf2", "esdirk43", "auto"] {
        let set = format!("solver.method={method}");
        let r = run("models/joint_friction.toml", &[&set]);
        let rec = &r.recording;
        let q = column(rec, "hinge.q");
        let phases = slip_phases(&column(rec, "hinge.w"), V_S);
        assert_eq!(phases.len(), exact.len() - 1, "{method}: {phases:?}");
        let mut worst: f64 = 0.0;
        for (k, &(_, end)) in phases.iter().enumerate() {
            let expected = exact[k + 1] * if k % 2 == 0 { -1.0 } else { 1.0 };
            worst = worst.max((q[end.unwrap()] - expected).abs());
        }
        assert!(worst < 1e-6, "{method}: turning points within {worst}");
        let stop = phases.last().unwrap().1.unwrap();
        assert_stays_stuck(rec, "hinge.q", "hinge.w", stop, V_S);
        eprintln!(
            "{method}: turning points within {worst:.1e} rad; {:?}",
            r.stats
        );
    }
}

/// Released at rest where the weight's torque m·g·L·sin θ0 is 0.8·τ_f, the pendulum never
/// leaves the stick band (|ω| ≤ v_s) and creeps by at most v_s·t. At 1.2·τ_f it slips: one
/// half-swing from a to the energy balance's b = a − 2θ_f (small angles), where it sticks.
#[test]
fn a_joint_sticks_where_its_static_load_is_below_the_limit() {
    let below = (0.8 * TAU_F / MGL).asin();
    let set = format!("hinge.q0={below}");
    let r = run("models/joint_friction.toml", &[&set, "model.stop_time=3"]);
    assert!(slip_phases(&column(&r.recording, "hinge.w"), V_S).is_empty());
    assert_stays_stuck(&r.recording, "hinge.q", "hinge.w", 0, V_S);

    let above = (1.2 * TAU_F / MGL).asin();
    let set = format!("hinge.q0={above}");
    let r = run("models/joint_friction.toml", &[&set, "model.stop_time=3"]);
    let phases = slip_phases(&column(&r.recording, "hinge.w"), V_S);
    assert_eq!(phases.len(), 1, "{phases:?}");
    let exact = turning_points(above, TAU_F, TAU_F);
    assert_eq!(exact.len(), 2);
    let end = phases[0].1.unwrap();
    let q = column(&r.recording, "hinge.q")[end];
    assert!((q + exact[1]).abs() < 1e-6, "{q} vs {}", -exact[1]);
    assert_stays_stuck(&r.recording, "hinge.q", "hinge.w", end, V_S);
}

/// A Stribeck hinge (static 0.4 N·m, dynamic 0.16 N·m, v_s = 1e-4 rad/s): while |ω| ≥ 3·v_s the
/// friction is the dynamic limit, so the amplitude drops as the Coulomb pendulum's; it sticks at
/// the first turning point where m·g·L·sin|θ| ≤ 0.4 N·m (θ ≤ 0.0408 rad): after 5 half-swings,
/// at −0.0364 rad (the energy balance; 1e-6 rad as above, the turning points spending about
/// 2·3v_s/θ̈ ≈ 2 ms in the band where the friction exceeds the dynamic limit).
#[test]
fn a_stribeck_hinge_slides_on_its_dynamic_limit_and_sticks_on_its_static_one() {
    let (tau_s, tau_d) = (0.4, TAU_F);
    let set = format!(
        "hinge.friction={{ method = \"stribeck\", static_limit = {tau_s}, dynamic_limit = {tau_d}, stiction_velocity = {V_S} }}"
    );
    let r = run("models/joint_friction.toml", &[&set]);
    let rec = &r.recording;
    let (q, w) = (column(rec, "hinge.q"), column(rec, "hinge.w"));
    let exact = turning_points(THETA0, tau_d, tau_s);
    assert_eq!(exact.len() - 1, 5, "{exact:?}");
    let phases = slip_phases(&w, V_S);
    assert_eq!(phases.len(), 5, "{phases:?}");
    let stop = phases[4].1.unwrap();
    assert!(
        (q[stop] + exact[5]).abs() < 1e-6,
        "{} vs {}",
        q[stop],
        -exact[5]
    );
    assert_stays_stuck(rec, "hinge.q", "hinge.w", stop, V_S);
    let friction = column(rec, "hinge.friction_force");
    for i in (0..rec.len()).filter(|&i| w[i].abs() >= 3.0 * V_S) {
        assert!((friction[i] + tau_d * w[i].signum()).abs() < 1e-12);
    }
}

/// A CylindricalJoint without gravity spinning at ω0 = 2 rad/s and sliding at v0 = 0.5 m/s, with
/// per-axis Coulomb limits [τ = 0.01 N·m, F = 0.2 N] (stiction velocities [1e-3 rad/s, 1e-3
/// m/s]) on a 1 kg sphere of radius 0.1 m (I = 2/5·m·r² = 0.004 kg·m²): each axis decelerates
/// uniformly, friction exactly −τ (−F) while above its stiction velocity, so the spin enters its
/// band at t = I·(ω0 − v_s)/τ = 0.7996 s having turned I·(ω0² − v_s²)/(2τ) = 0.7999998 rad, and
/// the slide at t = m·(v0 − v_s)/F = 2.495 s having moved m·(v0² − v_s²)/(2F) = 0.6249975 m.
/// Those are located events: 1e-8 relative (the solver's tolerances, rel_tol 1e-10).
#[test]
fn per_axis_limits_stop_a_cylindrical_joint_at_the_closed_form_times() {
    let model = r#"connect = ["world.W -- slider.B", "slider.F -- ball.R"]
[model]
stop_time = 3.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["slider.q", "slider.w", "slider.friction_force"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.slider]
type = "CylindricalJoint"
w0 = [2.0, 0.5]
friction = { method = "coulomb", limit = [0.01, 0.2], stiction_velocity = 1e-3 }
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
"#;
    let r = run_text("cylinder.toml", model);
    let rec = &r.recording;
    let (inertia, mass, v_s) = (0.4 * 0.01, 1.0, 1e-3);
    let spin = column(rec, "slider.w[0]");
    let slide = column(rec, "slider.w[1]");
    let cases = [
        ("spin", &spin, "slider.q[0]", 2.0, 0.01, inertia),
        ("slide", &slide, "slider.q[1]", 0.5, 0.2, mass),
    ];
    for (what, w, q, w0, limit, inertia) in cases {
        let phases = slip_phases(w, v_s);
        assert_eq!(phases.len(), 1, "{what}: {phases:?}");
        let end = phases[0].1.expect("it stops");
        let (t, x) = (rec.times[end], column(rec, q)[end]);
        let t_exact = inertia * (w0 - v_s) / limit;
        let x_exact = inertia * (w0 * w0 - v_s * v_s) / (2.0 * limit);
        assert!(
            (t - t_exact).abs() < 1e-8 * t_exact,
            "{what}: t = {t} vs {t_exact}"
        );
        assert!(
            (x - x_exact).abs() < 1e-8 * x_exact,
            "{what}: q = {x} vs {x_exact}"
        );
        let events = event_rows(rec);
        assert!(
            events.contains(&end) || events.contains(&(end + 1)),
            "{what}: not an event"
        );
    }
    let f = column(rec, "slider.friction_force[1]");
    assert!((f[1] + 0.2).abs() < 1e-12, "{}", f[1]);
}

fn pendulum_with(friction: &str) -> String {
    format!(
        r#"connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.hinge]
type = "RevoluteJoint"
q0 = 0.1
{friction}
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -1.0, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 1.0
"#
    )
}

/// Bad friction tables and effort limits are errors at their line that say what to write.
#[test]
fn bad_friction_is_a_located_error_with_a_fix() {
    let cases: [(&str, &[&str]); 9] = [
        (
            "friction = { limit = -0.1 }",
            &["must not be negative", "write 0 or more (N·m)"],
        ),
        (
            "friction = { method = \"stribeck\", static_limit = 0.1, dynamic_limit = 0.2 }",
            &["exceeds static_limit", "dynamic_limit ≤ static_limit"],
        ),
        (
            "friction = { method = \"colomb\", limit = 0.1 }",
            &["did you mean \"coulomb\""],
        ),
        (
            "friction = { method = \"stribeck\", limit = 0.1 }",
            &[
                "'friction.limit' belongs to friction method \"coulomb\"",
                "write static_limit, dynamic_limit",
            ],
        ),
        (
            "friction = { method = \"coulomb\", limit = 0.1, critical_velocity = 1e-3 }",
            &[
                "belongs to friction method \"smooth_stick_slip\"",
                "write limit = <N·m> and stiction_velocity",
            ],
        ),
        (
            "friction = { static = 0.5 }",
            &["contact friction coefficient", "write limit = <N·m>"],
        ),
        (
            "friction = { method = \"coulomb\" }",
            &["missing parameter 'friction.limit'", "add friction.limit"],
        ),
        (
            "friction = { limit = 0.1, stiction_velocity = 0 }",
            &["must be positive", "stiction_velocity = 0.0001"],
        ),
        (
            "effort_limit = 2.0",
            &["saturates the input t", "actuation = \"input\""],
        ),
    ];
    for (line, wanted) in cases {
        let e = build_error(&pendulum_with(line));
        assert!(e.contains("bad.toml:9"), "{line}: {e}");
        for w in wanted {
            assert!(e.contains(w), "{line}: want {w:?} in\n{e}");
        }
    }
    // A multi-axis joint: one value or one per axis.
    let e = build_error(&pendulum_with("").replace(
        "type = \"RevoluteJoint\"\nq0 = 0.1",
        "type = \"PlanarJoint\"\nfriction = { limit = [0.1, 0.2] }",
    ));
    assert!(
        e.contains("has 2 values but the joint has 3 degrees of freedom"),
        "{e}"
    );
}

/// `effort_limit = 2` N·m on a hinge driven by a constant 10 N·m, its axis through the centre of
/// a sphere (no gravity torque; I = 2/5·m·r² = 0.004 kg·m²): ω = (2/I)·t exactly, not (10/I)·t.
#[test]
fn effort_limit_saturates_the_actuation_input() {
    let model = r#"connect = ["world.W -- hinge.B", "hinge.F -- ball.R", "drive.out -> hinge.t"]
[model]
stop_time = 1.0
[output]
log = ["hinge.w"]
[blocks.world]
type = "WorldFrame"
[blocks.hinge]
type = "RevoluteJoint"
actuation = "input"
effort_limit = 2.0
[blocks.drive]
type = "Constant"
value = 10.0
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
"#;
    let r = run_text("effort.toml", model);
    let rec = &r.recording;
    let w = column(rec, "hinge.w");
    for (t, w) in rec.times.iter().zip(&w) {
        let expected = 2.0 / 0.004 * t;
        assert!(
            (w - expected).abs() <= 1e-9 * expected.max(1.0),
            "t = {t}: {w} vs {expected}"
        );
    }
}

/// The Rust builder's `coulomb_friction` and `effort_limit` write the same parameters as the
/// model files: a built copy of models/joint_friction.toml (without its scopes) takes the same
/// half-swings to the same rest angle (1e-12 rad: the same equations, possibly other rows), and
/// a built effort-limited hinge accelerates at effort/I.
#[test]
fn the_builder_writes_joint_friction_and_effort_limits() {
    use blockdyn::builder::blocks::{Constant, Joint, Shape, Solid, WorldFrame};
    use blockdyn::builder::{ModelBuilder, ParamValue};
    let built = built_pendulum(Joint::revolute().q0(THETA0).coulomb_friction(TAU_F, V_S));
    let file = run("models/joint_friction.toml", &[]);
    let (built, file) = (rest(&built), rest(&file));
    assert_eq!(built.0, file.0);
    assert!((built.1 - file.1).abs() < 1e-12, "{built:?} vs {file:?}");

    let mut m = ModelBuilder::new("built_effort", 1.0);
    m.output("log", ParamValue::Array(vec!["hinge.w".into()]));
    let world = m.add("world", WorldFrame::new());
    let hinge = m.add("hinge", Joint::revolute().actuated().effort_limit(2.0));
    let ball = m.add("ball", Solid::new(Shape::sphere(0.1)).mass(1.0));
    let drive = m.add("drive", Constant::new(-10.0));
    m.attach(world.port("W"), hinge.port("B"))
        .attach(hinge.port("F"), ball.port("R"))
        .connect(drive.port("out"), hinge.port("t"));
    let r = blockdyn::simulate(&m.build().unwrap(), Default::default()).unwrap();
    let w = *column(&r.recording, "hinge.w").last().unwrap();
    assert!((w + 2.0 / 0.004).abs() < 1e-9 * 500.0, "{w}");
}

/// The number of slip phases and the angle (rad) where the last one stops.
fn rest(r: &blockdyn::RunResult) -> (usize, f64) {
    let phases = slip_phases(&column(&r.recording, "hinge.w"), V_S);
    let stop = phases.last().unwrap().1.unwrap();
    (phases.len(), column(&r.recording, "hinge.q")[stop])
}

/// A built copy of models/joint_friction.toml (without its scopes) whose hinge is `hinge`, run.
fn built_pendulum(hinge: blockdyn::builder::blocks::Joint) -> blockdyn::RunResult {
    use blockdyn::builder::blocks::{
        MechanismConfiguration, RigidTransform, Shape, Solid, WorldFrame,
    };
    use blockdyn::builder::{ModelBuilder, ParamValue};
    let mut m = ModelBuilder::new("built_friction", 10.0);
    m.solver("rel_tol", 1e-8).solver("abs_tol", 1e-10);
    m.output(
        "log",
        ParamValue::Array(vec!["hinge.q".into(), "hinge.w".into()]),
    );
    let world = m.add("world", WorldFrame::new());
    m.add("gravity", MechanismConfiguration::new([0.0, -G, 0.0]));
    let hinge = m.add("hinge", hinge);
    let rod = m.add("rod", RigidTransform::new([0.0, -1.0, 0.0]));
    let bob = m.add("bob", Solid::new(Shape::sphere(0.05)).mass(1.0));
    m.attach(world.port("W"), hinge.port("B"))
        .attach(hinge.port("F"), rod.port("B"))
        .attach(rod.port("F"), bob.port("R"));
    blockdyn::simulate(&m.build().unwrap(), Default::default()).unwrap()
}

/// The builder's `stribeck_friction` writes what the model format's Stribeck table says: a built
/// hinge (static 0.4 N·m, dynamic 0.16 N·m) takes the 5 half-swings of the closed form (see
/// `a_stribeck_hinge_slides_on_its_dynamic_limit_and_sticks_on_its_static_one`) and stops where
/// the model file with the same table stops (1e-12 rad: the same equations).
#[test]
fn the_builder_writes_stribeck_joint_friction() {
    use blockdyn::builder::blocks::Joint;
    let built = built_pendulum(
        Joint::revolute()
            .q0(THETA0)
            .stribeck_friction(0.4, TAU_F, V_S),
    );
    let set = format!(
        "hinge.friction={{ method = \"stribeck\", static_limit = 0.4, dynamic_limit = {TAU_F}, stiction_velocity = {V_S} }}"
    );
    let file = run("models/joint_friction.toml", &[&set]);
    let (built, file) = (rest(&built), rest(&file));
    assert_eq!(built.0, 5, "{built:?}");
    assert_eq!(built.0, file.0);
    assert!((built.1 - file.1).abs() < 1e-12, "{built:?} vs {file:?}");
}

/// A SphericalJoint (quaternion state: the friction reads the angular velocity after the four
/// position coordinates) spinning at 2 rad/s about F's z axis, a sphere with I = 0.004 kg·m²,
/// no gravity, Coulomb limit 0.01 N·m on each axis: the spin enters its band (v_s = 1e-3 rad/s)
/// at t = I·(ω0 − v_s)/τ = 0.7996 s (1e-8 relative), the other two axes never leave theirs.
#[test]
fn a_spherical_joint_has_friction_on_each_axis() {
    let model = r#"connect = ["world.W -- ball_joint.B", "ball_joint.F -- ball.R"]
[model]
stop_time = 1.0
[solver]
rel_tol = 1e-10
abs_tol = 1e-12
[output]
log = ["ball_joint.w"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.ball_joint]
type = "SphericalJoint"
angular_velocity = [0.0, 0.0, 2.0]
friction = { limit = 0.01, stiction_velocity = 1e-3 }
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
"#;
    let r = run_text("spherical.toml", model);
    let rec = &r.recording;
    let phases = slip_phases(&column(rec, "ball_joint.w[2]"), 1e-3);
    assert_eq!(phases.len(), 1, "{phases:?}");
    let t = rec.times[phases[0].1.expect("it stops")];
    let t_exact = 0.004 * (2.0 - 1e-3) / 0.01;
    assert!((t - t_exact).abs() < 1e-8 * t_exact, "{t} vs {t_exact}");
    for axis in ["ball_joint.w[0]", "ball_joint.w[1]"] {
        assert!(column(rec, axis).iter().all(|w| w.abs() < 1e-12), "{axis}");
    }
}

/// models/joint_friction.toml from θ0 = 0.5 rad with a 0.5 N·m Coulomb limit: the turning points
/// of the closed form (`turning_points`) are 0.5, 0.398, 0.296, 0.194, 0.092 and −0.010 rad, so
/// the pendulum reverses four times (m·g·L·sin|θ| > 0.5 N·m at each of them) and sticks at the
/// fifth. Each reversal passes through the stick band |ω| < v_s (in about 2·v_s/|θ̈| ≈ 5e-5 s,
/// inside one step) and crosses both of its edges; the start from rest and the stop cross one
/// edge each: 1 + 2·4 + 1 = 10 located events of the hinge (the old |ω| − v_s function located
/// 2), each where |ω| = v_s (1e-9 rad/s: located to the solver's tolerance).
#[test]
fn every_stick_slip_transition_of_a_fast_reversal_is_located() {
    let set = format!(
        "hinge.friction={{ method = \"coulomb\", limit = 0.5, stiction_velocity = {V_S} }}"
    );
    let r = run("models/joint_friction.toml", &["hinge.q0=0.5", &set]);
    let exact = turning_points(0.5, 0.5, 0.5);
    assert_eq!(exact.len(), 6, "{exact:?}");
    let reversals = exact.len() - 2;
    let events: Vec<f64> = r
        .events
        .iter()
        .filter(|e| e.block == "hinge")
        .map(|e| e.time)
        .collect();
    assert_eq!(events.len(), 1 + 2 * reversals + 1, "{events:?}");
    let rec = &r.recording;
    let w = column(rec, "hinge.w");
    for t in &events {
        let i = rec.times.iter().position(|x| x == t).unwrap();
        assert!((w[i].abs() - V_S).abs() < 1e-9, "t = {t}: ω = {}", w[i]);
    }
}
