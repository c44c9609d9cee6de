//! The chain of first-order stages used by the engine benchmark (`benches/diagram.rs`) and the
//! test of its closed form (`tests/signal_models.rs`): stage i is x_i' = 1·x_{i-1} − x_i with
//! x_{-1} = 1 from a Constant, built from an Integrator `x{i}`, a Gain `g{i}` and a Sum `s{i}`.

/// The model text: `stages` stages, run to `stop_time` at `rel_tol` / `abs_tol`.
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
