//! The custom-block example (examples/custom_block.rs), run with its numbers asserted: a block
//! type of a program's own, registered in a `Registry` value that the loader is given, runs from
//! TOML, its zero crossing is located, and it is listed with the library.

#[path = "../examples/custom_block.rs"]
mod example;

/// v(t) = 5·(1 − e^(−t/0.5)) reaches 2.5 V at τ·ln 2. Tolerance 1e-8 s: at rel_tol 1e-10 the
/// state's error is ~1e-10 V and v̇ = 5 V/s there, so the located time is good to ~1e-10 s; the
/// margin covers the crossing's location tolerance (1e-12·max(1, t)) with room.
#[test]
fn the_custom_blocks_crossing_is_located() {
    let (t_trip, v_end) = example::trip_time_and_final_voltage();
    let expected = 0.5 * 2f64.ln();
    assert!((t_trip - expected).abs() <= 1e-8, "{t_trip} vs {expected}");
    let v_exact = 5.0 * (1.0 - (-4.0f64).exp());
    assert!((v_end - v_exact).abs() <= 1e-8, "{v_end} vs {v_exact}");
}

/// The type is documented and listed like a library block, and its parameters are checked like
/// one's: a missing required parameter is a located error naming the block.
#[test]
fn the_custom_block_is_listed_and_its_parameters_checked() {
    let registry = example::registry();
    let listing = blockdyn::report::library_list(&registry);
    assert!(listing.contains("ChargingCapacitor"), "{listing}");
    let help = blockdyn::report::block_help(&registry, "ChargingCapacitor").unwrap();
    assert!(help.contains("| `threshold` | V | required |"), "{help}");
    let without = example::MODEL.replace("threshold = 2.5\n", "");
    let e = blockdyn::load_model_str_with("rc.toml", &without, &[], &registry).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("missing parameter 'threshold'") && text.contains("block 'cap'"),
        "{text}"
    );
    // The standard registry does not know it: the loader names the type.
    let e = blockdyn::load_model_str("rc.toml", example::MODEL, &[]).unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown block type \"ChargingCapacitor\""),
        "{e}"
    );
}

/// A sweep builds its points with a program's registry: three time constants of the custom
/// capacitor, each tripping at τ·ln 2 (tolerance as above), on 2 threads.
#[test]
fn a_sweep_runs_the_custom_block() {
    use blockdyn::sweep::{RunSettings, Sweep, SweepPlan};
    let document = blockdyn::model::Document::parse("rc.toml", example::MODEL).unwrap();
    let plan = SweepPlan::parse(&["cap.time_constant=0.25,0.5,1.0"]).unwrap();
    let sweep = Sweep::new(document, Vec::new(), plan).with_registry(example::registry());
    let settings = RunSettings::with_jobs(std::num::NonZeroUsize::new(2).unwrap());
    let runs = sweep.run_in_memory(&[0, 1, 2], &settings).unwrap();
    for (run, tau) in runs.iter().zip([0.25, 0.5, 1.0]) {
        let rec = &run.result.as_ref().expect("runs").recording;
        let tripped = rec.column_index("cap.tripped").unwrap();
        let row = (0..rec.len())
            .find(|&i| rec.row(i)[tripped] == 1.0)
            .unwrap();
        let expected = tau * 2f64.ln();
        assert!(
            (rec.times[row] - expected).abs() <= 1e-8,
            "τ = {tau}: {}",
            rec.times[row]
        );
    }
    // The standard library does not know the type: the point cannot be built.
    let plain = Sweep::new(
        blockdyn::model::Document::parse("rc.toml", example::MODEL).unwrap(),
        Vec::new(),
        SweepPlan::parse(&["cap.time_constant=0.25"]).unwrap(),
    );
    assert!(plain.build_point(0).is_err());
}
