//! Linearization (`blockdyn::linearize`) against closed forms: a damped pendulum about its
//! bottom, a cart-pole about the upright (the textbook matrices), a spherical pendulum (the
//! quaternion's tangent coordinates), and a linear diagram that must return its own matrices
//! exactly; plus the errors and the findings it reports.
//!
//! Tolerances: the differences are central with steps h ≈ 7.6e-6·max(1, |w|) (a power of two);
//! their truncation error is h²/6·|F'''| and their rounding error about ε·|F|/h, both below
//! 1e-10 for the O(10) entries here, so 1e-8 (the issue's) holds with a margin of 100.

use blockdyn::{linearize, Linearization, LinearizeError, LinearizeSpec};

const G: f64 = 9.81;

fn spec(inputs: &[&str], outputs: &[&str], at: f64) -> LinearizeSpec {
    LinearizeSpec {
        inputs: inputs.iter().map(|s| s.to_string()).collect(),
        outputs: outputs.iter().map(|s| s.to_string()).collect(),
        at,
    }
}

/// Linearizes the model `text`; outputs that nothing reads are logged and the model built again,
/// as `blockdyn linearize` does.
fn run(
    model: &str,
    inputs: &[&str],
    outputs: &[&str],
    at: f64,
) -> Result<Linearization, LinearizeError> {
    let d = blockdyn::load_model_str("lin.toml", model, &[]).expect("the model builds");
    let spec = spec(inputs, outputs, at);
    match linearize(&d, &spec) {
        Err(LinearizeError::UnusedOutput { .. }) => {
            let set = blockdyn::command::linearize::logging_outputs(&d, &[], &spec);
            let d = blockdyn::load_model_str("lin.toml", model, &set).expect("the model builds");
            linearize(&d, &spec)
        }
        result => result,
    }
}

fn index(names: &[String], name: &str) -> usize {
    names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no '{name}' in {names:?}"))
}

/// Every entry of `got` within `tol` of `want`'s (`tol` = 0: the same number).
fn assert_matrix<const C: usize>(
    what: &str,
    got: &nalgebra::DMatrix<f64>,
    want: &[[f64; C]],
    tol: f64,
) {
    assert_eq!((got.nrows(), got.ncols()), (want.len(), C), "{what}'s size");
    for (i, row) in want.iter().enumerate() {
        for (j, w) in row.iter().enumerate() {
            assert_close(&format!("{what}[{i}][{j}]"), got[(i, j)], *w, tol);
        }
    }
}

fn assert_close(what: &str, got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got} against {want} (tolerance {tol})"
    );
}

/// A point mass `m` (kg) on a massless rod of length `l` (m) below a hinge about World z with
/// viscous damping `c` (N·m·s/rad), gravity −9.81 along y; actuated at `hinge.t` by a Constant
/// 0, or by what the blocks of `extra` feed back from `hinge.q` (a Gain `k`).
fn pendulum(m: f64, l: f64, c: f64, extra: &str) -> String {
    format!(
        r#"
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R"{extra_lines}]
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
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -{l}, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = {m}
inertia = [0.0, 0.0, 0.0]
{extra}"#,
        extra_lines = if extra.is_empty() {
            r#", "zero.out -> hinge.t""#
        } else {
            r#", "hinge.q -> k.in", "k.out -> hinge.t""#
        },
        extra = if extra.is_empty() {
            "[blocks.zero]\ntype = \"Constant\"\nvalue = 0.0\n"
        } else {
            extra
        }
    )
}

/// About the bottom: A = [[0, 1], [−g/l, −c/(m·l²)]], B = [0, 1/(m·l²)], C = [1, 0], D = 0.
#[test]
fn a_pendulum_about_its_bottom_gives_the_closed_form() {
    let (m, l, c) = (1.3, 0.7, 0.05);
    let lin = run(
        &pendulum(m, l, c, ""),
        &["hinge.t"],
        &["hinge.q", "hinge.w"],
        0.0,
    )
    .unwrap();
    assert_eq!(lin.states, ["hinge.q[0]", "hinge.v[0]"]);
    assert_eq!(lin.inputs, ["hinge.t"]);
    assert_eq!(lin.outputs, ["hinge.q", "hinge.w"]);
    let ml2 = m * l * l;
    assert_matrix("A", &lin.a, &[[0.0, 1.0], [-G / l, -c / ml2]], 1e-8);
    assert_matrix("B", &lin.b, &[[0.0], [1.0 / ml2]], 1e-8);
    assert_matrix("C", &lin.c, &[[1.0, 0.0], [0.0, 1.0]], 1e-8);
    assert_matrix("D", &lin.d, &[[0.0], [0.0]], 1e-8);
    assert_eq!(lin.x, [0.0, 0.0]);
    assert!(lin.error_estimate < 1e-8, "{}", lin.error_estimate);
    assert!(lin.warnings.is_empty(), "{:?}", lin.warnings);
    // 3 columns, each with steps ±h and ±2h.
    assert_eq!(lin.evaluations, 1 + 3 * 4);
}

/// A connected input is perturbed on top of its connected value, with the loop closed: with
/// t = −k·q + u the pendulum's A has −g/l − k/(m·l²), and B is unchanged.
#[test]
fn a_connected_input_is_perturbed_on_top_of_its_value_with_the_loop_closed() {
    let (m, l, k) = (1.3, 0.7, 2.0);
    let extra = format!("[blocks.k]\ntype = \"Gain\"\ngain = -{k}\n");
    let lin = run(&pendulum(m, l, 0.0, &extra), &["hinge.t"], &["k.out"], 0.0).unwrap();
    let ml2 = m * l * l;
    assert_close("A[1][0]", lin.a[(1, 0)], -G / l - k / ml2, 1e-8);
    assert_close("B[1]", lin.b[(1, 0)], 1.0 / ml2, 1e-8);
    // y = −k·q: the gain reads q, not the perturbed input.
    assert_close("C[0][0]", lin.c[(0, 0)], -k, 1e-8);
    assert_close("D", lin.d[(0, 0)], 0.0, 1e-8);
}

/// The operating point at T > 0 is where the run is: the pendulum released at 0.3 rad and
/// linearized at t = 0.25 s has q and ω of the run, and A[1][0] = −g·cos(q)/l there.
#[test]
fn the_operating_point_at_t_is_the_state_of_the_run() {
    let (m, l) = (1.0, 0.5);
    let model =
        pendulum(m, l, 0.0, "").replace("actuation = \"input\"", "actuation = \"input\"\nq0 = 0.3");
    let log = ["output.log=[\"hinge.q\"]".to_string()];
    let d = blockdyn::load_model_str(
        "lin.toml",
        &model,
        &blockdyn::Override::parse_all(&log).unwrap(),
    )
    .unwrap();
    let lin = linearize(&d, &spec(&[], &["hinge.q"], 0.25)).unwrap();
    let run = blockdyn::simulate(
        &d,
        blockdyn::RunOptions {
            stop_time: Some(0.25),
            ..Default::default()
        },
    )
    .unwrap();
    // The same model and solver settings, called unfused: the same state up to the solver's
    // tolerances (rel_tol 1e-3 by default: the two runs differ only by round-off, far below).
    for (k, (a, b)) in lin.x.iter().zip(&run.final_state).enumerate() {
        assert_close(&format!("x[{k}]"), *a, *b, 1e-9);
    }
    assert_eq!(lin.t, 0.25);
    assert_close("A[1][0]", lin.a[(1, 0)], -G * lin.x[0].cos() / l, 1e-8);
    assert_eq!(lin.b.ncols(), 0);
}

/// A cart of mass M on a frictionless rail along World x pushed by u (rail.t), with a pole: a
/// point mass m on a massless rod of length l, hinged at the cart about World z, upright at
/// q = 0 (q > 0 tips it towards −x). From the Lagrangian, at the upright:
/// ẍ = (u + m·g·q)/M, q̈ = ((M + m)·g·q + u)/(M·l) — the textbook matrices with the tilt φ = −q.
#[test]
fn a_cart_pole_about_the_upright_gives_the_textbook_matrices() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/cart_pole.toml"
    ))
    .unwrap();
    let (big_m, m, l) = (1.0, 0.1, 0.5);
    let overrides = [
        "controller.gain=[[0.0, 0.0, 0.0, 0.0]]".to_string(),
        "hinge.q0=0.0".to_string(),
        format!("cart.mass={big_m}"),
        format!("bob.mass={m}"),
        format!("pole.translation=[0.0, {l}, 0.0]"),
    ];
    let d = blockdyn::load_model_str(
        "cart_pole.toml",
        &text,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    )
    .unwrap();
    let lin = linearize(&d, &spec(&["rail.t"], &["rail.q", "hinge.q"], 0.0)).unwrap();
    let s = &lin.states;
    let (x, q) = (index(s, "rail.q[0]"), index(s, "hinge.q[0]"));
    let (xd, qd) = (index(s, "rail.v[0]"), index(s, "hinge.v[0]"));
    let mut want_a = [[0.0; 4]; 4];
    let mut want_b = [0.0; 4];
    want_a[x][xd] = 1.0;
    want_a[q][qd] = 1.0;
    want_a[xd][q] = m * G / big_m;
    want_a[qd][q] = (big_m + m) * G / (big_m * l);
    want_b[xd] = 1.0 / big_m;
    want_b[qd] = 1.0 / (big_m * l);
    // (States in the mechanism's order, named; the matrices printed with their names on failure.)
    let named = |m: &nalgebra::DMatrix<f64>| format!("{s:?}\n{m}");
    assert_matrix(&named(&lin.a), &lin.a, &want_a, 1e-8);
    let want_b: Vec<[f64; 1]> = want_b.iter().map(|b| [*b]).collect();
    assert_matrix(&named(&lin.b), &lin.b, &want_b, 1e-8);
}

/// StateSpace, TransferFunction and Gain side by side, about the zero state: the matrices are
/// the blocks' own, bit for bit (the steps are powers of two, so A·(h·eⱼ) is exact).
#[test]
fn a_linear_diagram_returns_its_own_matrices_exactly() {
    let model = r#"
connect = ["zero.out -> ss.in", "zero.out -> tf.in", "zero.out -> g.in"]
[model]
stop_time = 1.0
[blocks.zero]
type = "Constant"
value = 0.0
[blocks.ss]
type = "StateSpace"
A = [[-0.3, 1.7], [-2.9, -0.45]]
B = [[0.6], [-1.1]]
C = [[0.35, -2.2]]
D = [[0.7]]
[blocks.tf]
type = "TransferFunction"
numerator = [2.0, 3.0]
denominator = [1.0, 4.0, 5.0]
[blocks.g]
type = "Gain"
gain = 2.5
"#;
    let lin = run(
        model,
        &["ss.in", "tf.in", "g.in"],
        &["ss.out", "tf.out", "g.out"],
        0.0,
    )
    .unwrap();
    assert_eq!(lin.states, ["ss.x[0]", "ss.x[1]", "tf.z[0]", "tf.z[1]"]);
    // tf: ż₀ = z₁, ż₁ = u − 5z₀ − 4z₁, y = 3z₀ + 2z₁ (controllable canonical form).
    let a = [
        [-0.3, 1.7, 0.0, 0.0],
        [-2.9, -0.45, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, -5.0, -4.0],
    ];
    let b = [
        [0.6, 0.0, 0.0],
        [-1.1, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    let c = [[0.35, -2.2, 0.0, 0.0], [0.0, 0.0, 3.0, 2.0], [0.0; 4]];
    let dd = [[0.7, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.5]];
    assert_matrix("A", &lin.a, &a, 0.0);
    assert_matrix("B", &lin.b, &b, 0.0);
    assert_matrix("C", &lin.c, &c, 0.0);
    assert_matrix("D", &lin.d, &dd, 0.0);
    assert_eq!(lin.error_estimate, 0.0);
}

/// A spherical pendulum (a 0.05 m sphere of 2 kg, 0.8 m below the joint) about its bottom, from
/// an orientation turned 0.6 rad about the vertical (the same equilibrium): the tangent
/// coordinates δ (rotation vector in F) give q̇ = ω and, about F's x and z axes, ω̇ = −m·g·l/I_p
/// with I_p = m·l² + (2/5)·m·r², and 0 about the vertical.
#[test]
fn a_spherical_pendulum_is_linearized_in_the_tangent_space_of_its_quaternion() {
    let (m, l, r) = (2.0, 0.8, 0.05);
    let half: f64 = 0.3;
    let model = format!(
        r#"
connect = ["world.W -- ball.B", "ball.F -- rod.B", "rod.F -- bob.R"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -{G}, 0.0]
[blocks.ball]
type = "SphericalJoint"
orientation = [{}, 0.0, {}, 0.0]
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -{l}, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = {r} }}
mass = {m}
"#,
        half.cos(),
        half.sin()
    );
    let lin = run(&model, &[], &[], 0.0).unwrap();
    let names: Vec<String> = ["q[0]", "q[1]", "q[2]", "v[0]", "v[1]", "v[2]"]
        .iter()
        .map(|n| format!("ball.{n}"))
        .collect();
    assert_eq!(lin.states, names);
    let i_p = m * l * l + 0.4 * m * r * r;
    let mut want = [[0.0; 6]; 6];
    for (k, row) in want.iter_mut().enumerate().take(3) {
        row[3 + k] = 1.0;
    }
    want[3][0] = -m * G * l / i_p;
    want[5][2] = -m * G * l / i_p;
    assert_matrix("A", &lin.a, &want, 1e-8);
    assert_eq!(&lin.x[..3], &[0.0; 3]);
}

fn message(e: LinearizeError) -> String {
    e.to_string()
}

#[test]
fn unknown_names_are_located_errors_with_did_you_mean() {
    let model = pendulum(1.0, 1.0, 0.0, "");
    let e = message(run(&model, &["hinj.t"], &[], 0.0).unwrap_err());
    assert!(
        e.contains("--inputs 'hinj.t': there is no block 'hinj'"),
        "{e}"
    );
    assert!(e.contains("did you mean 'hinge'?"), "{e}");
    let e = message(run(&model, &["hinge.tt"], &[], 0.0).unwrap_err());
    assert!(e.contains("lin.toml:"), "located at the block: {e}");
    assert!(e.contains("has no input 'tt'"), "{e}");
    assert!(e.contains("did you mean 'hinge.t'?"), "{e}");
    let e = message(run(&model, &[], &["hinge.qq"], 0.0).unwrap_err());
    assert!(e.contains("--outputs 'hinge.qq'"), "{e}");
    assert!(
        e.contains("has no output 'qq'") && e.contains("did you mean 'hinge.q'?"),
        "{e}"
    );
    // An output nothing reads is refused by the library (the block need not compute it).
    let d = blockdyn::load_model_str("lin.toml", &model, &[]).unwrap();
    let e = linearize(&d, &spec(&[], &["hinge.w"], 0.0)).unwrap_err();
    assert!(matches!(e, LinearizeError::UnusedOutput { .. }), "{e}");
    assert!(
        e.to_string().contains("[output] log = [\"hinge.w\"]"),
        "{e}"
    );
    // A block named alone must be a source (one output `out`, no inputs).
    let e = message(run(&model, &["hinge"], &[], 0.0).unwrap_err());
    assert!(
        e.contains("must be a source") && e.contains("hinge.t"),
        "{e}"
    );
    // An input named twice would leave one column silently zero: refused.
    let e = message(run(&model, &["hinge.t", " hinge.t"], &[], 0.0).unwrap_err());
    assert!(
        e.contains("--inputs names 'hinge.t' twice") && e.contains("remove the repeated"),
        "{e}"
    );
}

#[test]
fn an_operating_time_outside_the_run_or_a_failing_run_is_an_error() {
    let model = pendulum(1.0, 1.0, 0.0, "");
    for at in [1.5, -0.1, f64::NAN] {
        let e = run(&model, &[], &[], at).unwrap_err();
        assert!(matches!(e, LinearizeError::Time { .. }), "{e}");
        assert!(e.to_string().contains("stop time 1 s"), "{e}");
    }
    // x' = 1/(0.5 − t)·… goes non-finite at t = 0.5: the run to 0.8 fails.
    let failing = r#"
connect = ["zero.out -> f.in", "f.out -> x.in"]
[model]
stop_time = 1.0
[blocks.zero]
type = "Constant"
value = 0.0
[blocks.f]
type = "Fcn"
expression = "sqrt(0.5 - t)"
[blocks.x]
type = "Integrator"
"#;
    let e = run(failing, &[], &["x.out"], 0.8).unwrap_err();
    assert!(matches!(e, LinearizeError::Run { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("the run to the operating time t = 0.8 s failed"),
        "{e}"
    );
    // Before the failure the same model linearizes.
    assert!(run(failing, &[], &["x.out"], 0.25).is_ok());
}

/// A sampled block and a zero crossing at the operating point are reported.
#[test]
fn sampled_blocks_and_zero_crossings_at_the_operating_point_are_reported() {
    let model = r#"
connect = ["x.out -> hold.in", "x.out -> abs.in", "hold.out -> k.in", "k.out -> x.in"]
[model]
stop_time = 1.0
[blocks.x]
type = "Integrator"
[blocks.hold]
type = "ZeroOrderHold"
sample_time = 0.1
[blocks.k]
type = "Gain"
gain = -1.0
[blocks.abs]
type = "Abs"
"#;
    let lin = run(model, &["k.in"], &["abs.out"], 0.0).unwrap();
    let warnings = lin.warnings.join("\n");
    assert!(
        warnings.contains("block 'hold' (ZeroOrderHold) is sampled"),
        "{warnings}"
    );
    assert!(
        warnings.contains("block 'abs' (Abs) has a zero crossing"),
        "{warnings}"
    );
    // The hold is not a state: the held value stays, so ẋ does not depend on x.
    assert_eq!(lin.states, ["x.x[0]"]);
    assert_eq!(lin.a[(0, 0)], 0.0);
    assert_eq!(lin.b[(0, 0)], -1.0);
}

/// models/cart_pole.toml balances its pole with the LQR gain the example computed: linearized
/// with its controller in the loop (rail.t perturbed on top of the controller's force), every
/// eigenvalue of the closed loop's A has a negative real part, and a run from 0.2 rad ends
/// within 1e-3 rad of the upright with the cart within 1 cm of x = 0 (the slowest closed-loop
/// mode, about e^{−1.1·t}, leaves 0.2·e^{−6.6} ≈ 3e-4 rad at 6 s).
#[test]
fn the_shipped_cart_pole_controller_balances_the_pole() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/cart_pole.toml");
    let upright = ["hinge.q0=0.0".to_string()];
    let d = blockdyn::load_model(
        std::path::Path::new(path),
        &blockdyn::Override::parse_all(&upright).unwrap(),
    )
    .unwrap();
    let lin = linearize(&d, &spec(&["rail.t"], &["rail.q"], 0.0)).unwrap();
    let eigenvalues = lin.a.complex_eigenvalues();
    assert!(eigenvalues.iter().all(|e| e.re < -0.5), "{eigenvalues}");
    let d = blockdyn::load_model(std::path::Path::new(path), &[]).unwrap();
    let run = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let (x, q) = (run.final_state[0], run.final_state[1]);
    assert!(
        q.abs() < 1e-3 && x.abs() < 1e-2,
        "x = {x} m, q = {q} rad at the end"
    );
}

/// A source named alone (one output `out`, no inputs: an Inport, here a Constant of 0.5) is
/// perturbed at its output, about its operating value, and every reader sees it: with
/// ẋ = 3·u, y₁ = 3·u, y₂ = 5·u, B = [3] and D = [3, 5] (to 1e-12: the differences of a linear
/// function with power-of-two steps about 0.5 are exact up to one rounding of 3·u and 5·u).
#[test]
fn a_source_named_alone_is_perturbed_at_its_output_for_every_reader() {
    let model = r#"
connect = ["u.out -> k3.in", "u.out -> k5.in", "k3.out -> x.in"]
[model]
stop_time = 1.0
[output]
log = ["k3.out", "k5.out"]
[blocks.u]
type = "Constant"
value = 0.5
[blocks.k3]
type = "Gain"
gain = 3.0
[blocks.k5]
type = "Gain"
gain = 5.0
[blocks.x]
type = "Integrator"
"#;
    let lin = run(model, &["u"], &["k3.out", "k5.out"], 0.0).unwrap();
    assert_eq!(lin.inputs, ["u"]);
    assert_eq!(lin.u, [0.5]);
    assert_eq!(lin.y, [1.5, 2.5]);
    assert_matrix("B", &lin.b, &[[3.0]], 1e-12);
    assert_matrix("D", &lin.d, &[[3.0], [5.0]], 1e-12);
    assert_matrix("A", &lin.a, &[[0.0]], 0.0);
}
