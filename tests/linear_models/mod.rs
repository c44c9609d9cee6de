//! Diagram shapes for the engine's speed and fusion benchmarks (`benches/diagram.rs`), the tests
//! of linear fusion (`tests/linear_fusion.rs`) and the chain's closed form
//! (`tests/signal_models.rs`), written as model text.
#![allow(dead_code)]

/// The chain of first-order stages of the engine benchmark and `tests/signal_models.rs`: stage
/// i is x_i' = 1·x_{i-1} − x_i with x_{-1} = 1 from a Constant, built from an Integrator `x{i}`,
/// a Gain `g{i}` and a Sum `s{i}`; `stages` stages, run to `stop_time` at `rel_tol` / `abs_tol`.
pub fn chain_model(stages: usize, stop_time: f64, rel_tol: f64, abs_tol: f64) -> String {
    let mut connect = Vec::new();
    let mut blocks = String::from("[blocks.source]\ntype = \"Constant\"\nvalue = 1.0\n");
    for i in 0..stages {
        let prev = if i == 0 {
            "source.out".to_string()
        } else {
            format!("x{}.out", i - 1)
        };
        connect.push(format!("\"{prev} -> g{i}.in\""));
        connect.push(format!("\"g{i}.out -> s{i}.in1\""));
        connect.push(format!("\"x{i}.out -> s{i}.in2\""));
        connect.push(format!("\"s{i}.out -> x{i}.in\""));
        blocks.push_str(&format!(
            "[blocks.g{i}]\ntype = \"Gain\"\ngain = 1.0\n[blocks.s{i}]\ntype = \"Sum\"\nsigns = \"+-\"\n[blocks.x{i}]\ntype = \"Integrator\"\n"
        ));
    }
    format!(
        "connect = [{}]\n[model]\nstop_time = {stop_time}\n[solver]\nrel_tol = {rel_tol}\nabs_tol = {abs_tol}\n{blocks}",
        connect.join(",\n")
    )
}

/// The running-sums chain of `n` stages, the shape of any chain in relative coordinates:
/// `s_k = s_{k−1} − x_k` (with `s_{−1} = 1` from a Constant), `ẋ_k = s_k`; an Integrator `x{k}`
/// and a Sum `s{k}` per stage (2n + 1 blocks). Each `s_k` feeds both the next Sum and its own
/// Integrator, so flattening every Sum into the states it reads would give `s_k` k + 1 terms.
/// The system is stable (ẋ = 1 − L·x, L lower-triangular ones: every eigenvalue −1).
pub fn running_sums_model(n: usize, stop_time: f64) -> String {
    let mut connect = Vec::with_capacity(3 * n);
    let mut blocks = String::from("[blocks.source]\ntype = \"Constant\"\nvalue = 1.0\n");
    for k in 0..n {
        let prev = if k == 0 {
            "source.out".to_string()
        } else {
            format!("s{}.out", k - 1)
        };
        connect.push(format!("\"{prev} -> s{k}.in1\""));
        connect.push(format!("\"x{k}.out -> s{k}.in2\""));
        connect.push(format!("\"s{k}.out -> x{k}.in\""));
        blocks.push_str(&format!(
            "[blocks.s{k}]\ntype = \"Sum\"\nsigns = \"+-\"\n[blocks.x{k}]\ntype = \"Integrator\"\n"
        ));
    }
    format!(
        "connect = [{}]\n[model]\nstop_time = {stop_time}\n{blocks}",
        connect.join(",\n")
    )
}

/// `stages` stages of four blocks, three of them non-linear: `f_i = Fcn(x_i)` = 0.5 − u − u³/6,
/// `sat_i = Saturation(f_i)` to ±0.8, `p_i = Product(sat_i, x_{i−1})` (x_{−1} = 1 from a
/// Constant), and the Integrator `x_i` with ẋ_i = p_i. 4·stages + 1 blocks: 250 stages give 1001
/// (750 of them non-linear, 250 Integrators that fusion reads as states).
pub fn nonlinear_model(stages: usize, stop_time: f64) -> String {
    let mut connect = Vec::with_capacity(5 * stages);
    let mut blocks = String::from("[blocks.source]\ntype = \"Constant\"\nvalue = 1.0\n");
    for i in 0..stages {
        let prev = if i == 0 {
            "source.out".to_string()
        } else {
            format!("x{}.out", i - 1)
        };
        connect.push(format!("\"x{i}.out -> f{i}.in\""));
        connect.push(format!("\"f{i}.out -> sat{i}.in\""));
        connect.push(format!("\"sat{i}.out -> p{i}.in1\""));
        connect.push(format!("\"{prev} -> p{i}.in2\""));
        connect.push(format!("\"p{i}.out -> x{i}.in\""));
        blocks.push_str(&format!(
            "[blocks.f{i}]\ntype = \"Fcn\"\nexpression = \"0.5 - u - u^3/6\"\n\
             [blocks.sat{i}]\ntype = \"Saturation\"\nlower = -0.8\nupper = 0.8\n\
             [blocks.p{i}]\ntype = \"Product\"\n\
             [blocks.x{i}]\ntype = \"Integrator\"\n"
        ));
    }
    format!(
        "connect = [{}]\n[model]\nstop_time = {stop_time}\n{blocks}",
        connect.join(",\n")
    )
}
