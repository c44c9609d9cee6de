//! README's five-minute tour: every ```toml block marked `# tour step N` loads and runs, and
//! does what the text says (in memory; nothing is written).

/// The tour's models, in order.
fn tour_steps() -> Vec<String> {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    readme
        .split("```toml\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .filter(|model| model.starts_with("# tour step"))
        .map(str::to_string)
        .collect()
}

fn run(label: &str, text: &str) -> blockdyn::output::Recording {
    let d = blockdyn::load_model_str(label, text, &[]).unwrap_or_else(|e| panic!("{label}: {e}"));
    blockdyn::simulate(&d, blockdyn::RunOptions::default())
        .unwrap_or_else(|e| panic!("{label}: {e}"))
        .recording
}

fn column(rec: &blockdyn::output::Recording, name: &str) -> Vec<f64> {
    let j = rec
        .column_index(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    rec.column_values(j).collect()
}

/// Step 1 falls freely: z(1 s) = 1 − g/2 (1e-9 m). Step 2 bounces on the penalty floor (it comes
/// back above 0.2 m after touching). Step 3, rigid with e = 0.5, never goes below the floor by
/// more than 1e-6 m and first rebounds to e²·(1 − 0.1) above the floor's contact height (1e-6 m
/// relative, read from the apex of the dense default rows: 1e-3).
#[test]
fn the_readme_tour_runs_and_does_what_it_says() {
    let steps = tour_steps();
    assert_eq!(steps.len(), 3, "three tour steps in README.md");
    let g = 9.80665;
    let z = column(&run("tour1", &steps[0]), "free.p[2]");
    assert!(
        (z[z.len() - 1] - (1.0 - 0.5 * g)).abs() < 1e-9,
        "z(1) = {}",
        z[z.len() - 1]
    );

    let z = column(&run("tour2", &steps[1]), "free.p[2]");
    let lowest = z.iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(lowest < 0.1, "it touches the floor");
    let touch = z.iter().position(|&h| h < 0.1).unwrap();
    assert!(z[touch..].iter().any(|&h| h > 0.2), "and bounces back");

    let rec = run("tour3", &steps[2]);
    let z = column(&rec, "free.p[2]");
    assert!(z.iter().all(|&h| h > 0.1 - 1e-6), "penetrates");
    let touch = z.iter().position(|&h| h < 0.1 + 1e-9).unwrap();
    let apex = z[touch..]
        .iter()
        .take_while(|&&h| h > 0.1 + 1e-9 || h >= z[touch])
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max);
    let expected = 0.1 + 0.25 * 0.9;
    assert!(
        (apex - expected).abs() < 1e-3 * expected,
        "rebounded to {apex}, expected {expected}"
    );
}
