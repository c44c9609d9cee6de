//! The signal-block example models, run and checked against their closed forms.

mod common;
mod linear_models;
use common::{column, event_rows, run};
use linear_models::chain_model;

const G: f64 = 9.81;
const E: f64 = 0.8;
const H0: f64 = 10.0;

#[test]
fn bouncing_ball_impacts_and_apexes_match_the_closed_form() {
    let r = run("models/bouncing_ball.toml", &[]);
    let rec = &r.recording;
    let v = column(rec, "velocity.out");
    let events = event_rows(rec);
    // Closed form: t1 = sqrt(2 h0 / g), v1 = g t1; flight k (after impact k) lasts 2 e^k v1 / g.
    let t1 = (2.0 * H0 / G).sqrt();
    let v1 = G * t1;
    let mut expected = vec![t1];
    let mut speed = v1;
    while *expected.last().unwrap() < 5.0 {
        speed *= E;
        expected.push(expected.last().unwrap() + 2.0 * speed / G);
    }
    expected.pop();
    assert_eq!(
        events.len(),
        expected.len(),
        "impacts {:?}",
        events.iter().map(|&i| rec.times[i]).collect::<Vec<_>>()
    );
    for (k, (&row, &t_exact)) in events.iter().zip(&expected).enumerate() {
        // Event location is to 1e-12·max(1,t); the integration error of a parabola by dopri5 is at
        // round-off level, so the impact times agree to 1e-9 s.
        assert!(
            (rec.times[row] - t_exact).abs() < 1e-9,
            "impact {k}: {} vs {t_exact}",
            rec.times[row]
        );
        // Apex after impact k: (v⁺)²/(2g) = e^{2(k+1)} h0; v⁺ = -e·v⁻ exactly.
        let (v_before, v_after) = (v[row - 1], v[row]);
        assert!(
            (v_after + E * v_before).abs() < 1e-12 * v_before.abs().max(1.0),
            "reset {v_before} → {v_after}"
        );
        let apex = v_after * v_after / (2.0 * G);
        let apex_exact = E.powi(2 * (k as i32 + 1)) * H0;
        assert!(
            (apex - apex_exact).abs() < 1e-8 * H0,
            "apex {k}: {apex} vs {apex_exact}"
        );
    }
    // The peers' figures: bdsim found the first impacts at 1.42784 s and 3.71239 s.
    assert!((rec.times[events[0]] - 1.42784).abs() < 1e-5);
    assert!((rec.times[events[1]] - 3.71239).abs() < 1e-5);
}

#[test]
fn bouncing_ball_for_20_s_ends_with_chattering_not_a_hang() {
    let d = blockdyn::load_model(
        std::path::Path::new("models/bouncing_ball.toml"),
        &["model.stop_time=20".parse().unwrap()],
    )
    .unwrap();
    match blockdyn::simulate(&d, blockdyn::RunOptions::default()) {
        Err(blockdyn::SimError::Chattering { block, t, .. }) => {
            assert_eq!(block, "velocity");
            // The bounces accumulate at t∞ = t1 + 2 v1 e / (g (1 - e)).
            let t1 = (2.0 * H0 / G).sqrt();
            let t_inf = t1 + 2.0 * G * t1 * E / (G * (1.0 - E));
            assert!(
                (t - t_inf).abs() < 1e-3,
                "chattering at {t}, accumulation point {t_inf}"
            );
        }
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("a Zeno run cannot finish without chattering"),
    }
}

#[test]
fn mass_spring_damper_follows_the_underdamped_step_response() {
    let r = run("models/mass_spring_damper.toml", &[]);
    let rec = &r.recording;
    let x = column(rec, "position.out");
    let (m, k, c, f): (f64, f64, f64, f64) = (1.0, 100.0, 4.0, 10.0);
    let wn: f64 = (k / m).sqrt();
    let zeta = c / (2.0 * (k * m).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let mut checked = 0;
    for (i, &t) in rec.times.iter().enumerate() {
        let tau = t - 1.0;
        let exact = if tau <= 0.0 {
            0.0
        } else {
            f / k
                * (1.0
                    - (-zeta * wn * tau).exp()
                        * ((wd * tau).cos() + zeta / (1.0 - zeta * zeta).sqrt() * (wd * tau).sin()))
        };
        // rel_tol 1e-8 on a response of amplitude 0.1 m: the global error stays below 1e-7 m.
        assert!((x[i] - exact).abs() < 1e-7, "t = {t}: {} vs {exact}", x[i]);
        checked += 1;
    }
    assert!(checked > 50);
    // The step is a time event: it is hit exactly.
    assert!(rec.times.contains(&1.0));
}

#[test]
fn thermostat_cycles_with_the_closed_form_period() {
    let r = run("models/thermostat.toml", &[]);
    let rec = &r.recording;
    let heater = column(rec, "thermostat.out");
    let temperature = column(rec, "room.out");
    let tau = 1000.0;
    let heating = tau * ((30.0f64 - 19.0) / (30.0 - 21.0)).ln();
    let cooling = tau * ((21.0f64 - 10.0) / (19.0 - 10.0)).ln();
    // Switching instants: rows where the heater output changes.
    let switches: Vec<(f64, f64, f64)> = (1..rec.len())
        .filter(|&i| heater[i] != heater[i - 1])
        .map(|i| (rec.times[i], heater[i], temperature[i]))
        .collect();
    assert!(switches.len() >= 4, "{switches:?}");
    for w in switches.windows(2).skip(1) {
        let (t0, state, temp) = w[0];
        let (t1, _, _) = w[1];
        let expected = if state == 1.0 { heating } else { cooling };
        assert!(
            ((t1 - t0) - expected).abs() < 1e-4,
            "phase from {t0}: {} vs {expected}",
            t1 - t0
        );
        // Switching happens exactly at the hysteresis thresholds.
        let threshold = if state == 1.0 { 19.0 } else { 21.0 };
        assert!((temp - threshold).abs() < 1e-6, "switched at {temp} °C");
    }
}

/// Fused linear evaluation (Gain, Sum and plain Integrators as sparse sums) gives the block-by-block
/// results. Sums are added in another order, so the two runs differ by round-off, which the
/// step-size controller may turn into slightly different steps: the final states must agree to
/// well within the tolerance (rel_tol 1e-6 to 1e-8 in these models), and rows at equal times to
/// round-off.
#[test]
fn linear_fusion_matches_calling_every_block() {
    for model in [
        "models/mass_spring_damper.toml",
        "models/thermostat.toml",
        "models/bouncing_ball.toml",
    ] {
        let d = blockdyn::load_model(std::path::Path::new(model), &[]).unwrap();
        let fused = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
        let called = blockdyn::simulate(
            &d,
            blockdyn::RunOptions {
                unfused: true,
                ..Default::default()
            },
        )
        .unwrap();
        for (a, b) in fused.final_state.iter().zip(&called.final_state) {
            assert!(
                (a - b).abs() <= 1e-7 * a.abs().max(1.0),
                "{model}: final {a} vs {b}"
            );
        }
        let (ra, rb) = (&fused.recording, &called.recording);
        for i in 0..ra.len().min(rb.len()) {
            if ra.times[i] != rb.times[i] {
                break;
            }
            for (a, b) in ra.row(i).iter().zip(rb.row(i)) {
                assert!(
                    (a - b).abs() <= 1e-12 * a.abs().max(1.0),
                    "{model} at t = {}: {a} vs {b}",
                    ra.times[i]
                );
            }
        }
        let engine = blockdyn::sim::Engine::new(&d, blockdyn::sim::Recorder::new(&d));
        assert!(engine.fused_blocks() > 0, "{model}: something was fused");
    }
}

/// The chain of the engine benchmark: stage i is x_i' = x_{i-1} − x_i with x_{-1} = 1, built from
/// an Integrator, a Gain and a Sum per stage (fused into one band of the sparse sum). From rest,
/// x_i(t) = P(i+1, t) = 1 − e^{−t}·Σ_{k≤i} t^k/k! (the Erlang distribution function). At
/// rel_tol 1e-8 / abs_tol 1e-10 the global error stays far below the 1e-6 asserted, fused and
/// called alike.
#[test]
fn a_chain_of_first_order_stages_follows_the_erlang_distribution() {
    let stages = 40;
    let text = chain_model(stages, 12.0, 1e-8, 1e-10);
    let d = blockdyn::load_model_str("chain.toml", &text, &[]).unwrap();
    let t: f64 = 12.0;
    for unfused in [false, true] {
        let r = blockdyn::simulate(
            &d,
            blockdyn::RunOptions {
                unfused,
                ..Default::default()
            },
        )
        .unwrap();
        let mut term = 1.0; // t^k / k!
        let mut partial = 0.0;
        for i in 0..stages {
            if i > 0 {
                term *= t / i as f64;
            }
            partial += term;
            let exact = 1.0 - (-t).exp() * partial;
            let b = &d.blocks()[d.block_index(&format!("x{i}")).unwrap()];
            let x = r.final_state[b.states.start];
            assert!(
                (x - exact).abs() < 1e-6,
                "unfused = {unfused}: x{i}({t}) = {x}, exact {exact}"
            );
        }
    }
}

/// Per-element Integrator limits: ẋ = [1, −2, 0.5] from x(0) = 0 with upper_limit = [0.5, 10, 0.1]
/// and lower_limit = [−10, −0.25, −10]. Element 0 reaches 0.5 at t = 0.5, element 1 reaches
/// −0.25 at t = 0.125, element 2 reaches 0.1 at t = 0.2; each is then held bit-exactly at its own
/// limit. A single-number limit and an array of them mix.
#[test]
fn integrator_limits_per_element_hold_each_element_at_its_own_limit() {
    let text = r#"
connect = ["u.out -> x.in"]
[model]
stop_time = 1.0
[output]
log = ["x.out"]
[blocks.u]
type = "Constant"
value = [1.0, -2.0, 0.5]
[blocks.x]
type = "Integrator"
initial = 0.0
upper_limit = [0.5, 10.0, 0.1]
lower_limit = -0.25
"#;
    let d = blockdyn::load_model_str("limits.toml", text, &[]).unwrap();
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    assert_eq!(r.final_state, vec![0.5, -0.25, 0.1]);
    // Before the first reach, each element is still the ramp (to round-off).
    let rec = &r.recording;
    for (i, &t) in rec.times.iter().enumerate() {
        let row = rec.row(i);
        let expected = [
            (1.0 * t).min(0.5),
            (-2.0 * t).max(-0.25),
            (0.5 * t).min(0.1),
        ];
        for (e, (&x, want)) in row.iter().zip(expected).enumerate() {
            assert!(
                (x - want).abs() < 1e-12,
                "x[{e}]({t}) = {x}, expected {want}"
            );
        }
    }
    // The same limits as a length mismatch against the 3-element signal: a clear error.
    let bad = text.replace(
        "upper_limit = [0.5, 10.0, 0.1]",
        "upper_limit = [0.5, 10.0]",
    );
    let e = blockdyn::load_model_str("limits.toml", &bad, &[])
        .expect_err("a 2-element limit on a 3-element integrator")
        .to_string();
    assert!(
        e.contains("'upper_limit' has 2 values but the signal has 3 elements"),
        "{e}"
    );
    assert!(e.contains("'x'"), "{e}");
}
