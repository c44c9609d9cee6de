//! Trim (`blockdyn::trim`): equilibria against closed forms — a pendulum held at an angle by its
//! torque, a mass-spring-damper pushed by a constant force, a cart-pole at its upright — and a
//! trim that cannot converge naming the state left moving.
//!
//! Tolerances: the Jacobian is a central difference (error ≈ 1e-11 relative, see
//! tests/linearize.rs), and Newton's iterate stops at ‖ẋ‖ ≤ 1e-12 here; the unknowns then sit
//! within ‖ẋ‖/σ_min of the equilibrium (σ_min ≥ 1e-1 for these models), far below 1e-8.

use blockdyn::{trim, Trim, TrimError, TrimSpec};

const G: f64 = 9.81;

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn trimmed(model: &str, sets: &[String], spec: TrimSpec) -> Result<Trim, TrimError> {
    let d = blockdyn::load_model_str(
        "trim.toml",
        model,
        &blockdyn::Override::parse_all(sets).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    trim(&d, &spec)
}

fn value(names: &[String], values: &[f64], name: &str) -> f64 {
    let k = names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no '{name}' in {names:?}"));
    values[k]
}

/// A point mass `m` on a massless rod of length `l` below a hinge about World z, gravity −g
/// along y, viscous damping `c`, released at `q0`; the hinge's torque is an input fed by a
/// Constant 0.
fn pendulum(m: f64, l: f64, c: f64, q0: f64) -> String {
    format!(
        r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "zero.out -> hinge.t"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -{G}, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
damping = {c}
actuation = "input"
q0 = {q0}
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -{l}, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = {m}
inertia = [0.0, 0.0, 0.0]
[blocks.zero]
type = "Constant"
value = 0.0
"#
    )
}

#[test]
fn a_pendulum_is_held_at_an_angle_by_m_g_l_sin_theta() {
    let (m, l, c) = (1.3, 0.7, 0.05);
    for theta in [0.4, -1.1, 2.0] {
        let t = trimmed(
            &pendulum(m, l, c, theta),
            &[],
            TrimSpec {
                free_inputs: strings(&["hinge.t"]),
                fixed_states: strings(&["hinge.q[0]"]),
                tolerance: 1e-12,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(t.states, ["hinge.q[0]", "hinge.v[0]"]);
        assert_eq!(t.inputs, ["hinge.t"]);
        // The angle was held; the torque balances gravity's m·g·l·sin θ.
        assert_eq!(t.x[0], theta);
        let want = m * G * l * theta.sin();
        assert!(
            (t.u[0] - want).abs() < 1e-8,
            "θ = {theta}: {} against {want}",
            t.u[0]
        );
        assert!(t.x[1].abs() < 1e-8, "{}", t.x[1]);
        assert!(t.xdot_norm <= 1e-12);
        assert!(t.iterations >= 1);
    }
}

/// ẋ = v, v̇ = (F − k·x − c·v)/m from signal blocks, F a Constant named as the input `force`.
const MASS_SPRING_DAMPER: &str = r#"
connect = ["force.out -> sum.in1", "pos.out -> spring.in", "spring.out -> sum.in2", "vel.out -> damper.in", "damper.out -> sum.in3", "sum.out -> inv_mass.in", "inv_mass.out -> vel.in", "vel.out -> pos.in"]
[model]
stop_time = 1.0
[blocks.force]
type = "Constant"
value = 3.0
[blocks.sum]
type = "Sum"
signs = "+++"
[blocks.spring]
type = "Gain"
gain = -40.0
[blocks.damper]
type = "Gain"
gain = -0.8
[blocks.inv_mass]
type = "Gain"
gain = 0.5
[blocks.pos]
type = "Integrator"
[blocks.vel]
type = "Integrator"
"#;

#[test]
fn a_mass_spring_damper_rests_at_f_over_k() {
    let t = trimmed(
        MASS_SPRING_DAMPER,
        &[],
        TrimSpec {
            inputs: strings(&["force"]),
            outputs: strings(&["spring.out"]),
            ..Default::default()
        },
    )
    .unwrap();
    // x = F/k = 3/40; v = 0; the spring's force balances F. The model is linear and the
    // difference steps are powers of two, so one Newton step lands there to round-off.
    let x = value(&t.states, &t.x, "pos.x[0]");
    assert!((x - 3.0 / 40.0).abs() < 1e-12, "{x}");
    assert!(value(&t.states, &t.x, "vel.x[0]").abs() < 1e-12);
    assert_eq!(t.u, [3.0]);
    assert!((t.y[0] + 3.0).abs() < 1e-10, "{:?}", t.y);
    assert_eq!(t.iterations, 1);
}

#[test]
fn a_cart_pole_comes_to_its_upright_with_zero_force() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/cart_pole.toml"
    ))
    .unwrap();
    let spec = TrimSpec {
        free_inputs: strings(&["rail.t"]),
        tolerance: 1e-12,
        ..Default::default()
    };
    // At the upright the initial state is an equilibrium already, with no force.
    let upright = [
        "controller.gain=[[0.0, 0.0, 0.0, 0.0]]".to_string(),
        "hinge.q0=0.0".to_string(),
    ];
    let t = trimmed(&text, &upright, spec.clone()).unwrap();
    assert_eq!(t.iterations, 0);
    assert_eq!(t.u, [0.0]);
    // Tipped by 0.05 rad, with everything free (4 equations, 5 unknowns: the least-norm step),
    // it returns to an equilibrium: pole upright (sin q = 0), at rest, and no force (the cart's
    // equation with no acceleration leaves u = 0).
    let tipped = [upright[0].clone(), "hinge.q0=0.05".to_string()];
    let t = trimmed(&text, &tipped, spec).unwrap();
    let q = value(&t.states, &t.x, "hinge.q[0]");
    assert!(q.abs() < 1e-8, "{q}");
    assert!(t.u[0].abs() < 1e-8, "{}", t.u[0]);
    for name in ["hinge.v[0]", "rail.v[0]"] {
        assert!(value(&t.states, &t.x, name).abs() < 1e-8, "{name}");
    }
}

#[test]
fn a_trim_that_cannot_converge_names_the_state_left_moving() {
    // The angle held at 0.4 rad and no torque free: gravity keeps accelerating the pendulum.
    let e = trimmed(
        &pendulum(1.0, 0.5, 0.0, 0.4),
        &[],
        TrimSpec {
            inputs: strings(&["hinge.t"]),
            fixed_states: strings(&["hinge.q[0]"]),
            ..Default::default()
        },
    )
    .unwrap_err();
    match &e {
        TrimError::NotConverged {
            state, residual, ..
        } => {
            assert_eq!(state, "hinge.v[0]");
            // v̇ = −g·sin θ / l at v = 0.
            assert!(
                (residual + G * 0.4_f64.sin() / 0.5).abs() < 1e-8,
                "{residual}"
            );
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("hinge.v[0]"), "{e}");
    let e = trimmed(
        &pendulum(1.0, 0.5, 0.0, 0.4),
        &[],
        TrimSpec {
            fixed_states: strings(&["hinge.q[1]"]),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("did you mean 'hinge.q[0]'"), "{e}");
}

#[test]
fn a_tolerance_that_no_residual_can_reach_is_refused() {
    for tolerance in [0.0, -1e-9, f64::NAN] {
        let e = trimmed(
            &pendulum(1.0, 0.5, 0.0, 0.4),
            &[],
            TrimSpec {
                inputs: strings(&["hinge.t"]),
                tolerance,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(matches!(e, TrimError::BadTolerance(_)), "{e}");
        assert!(e.to_string().contains("positive"), "{e}");
    }
}
