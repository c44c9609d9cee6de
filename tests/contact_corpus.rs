//! The seeded stress corpus of random contact scenes (issue 26, part 4), a fixed sample in CI.
//!
//! Seeds 0..200 of `benches/support/contact_corpus.rs` (its header lists the shapes, poses,
//! motions, laws and tolerances): each scene runs with a budget of 50,000 trial steps per
//! simulated second (the solver's limit `max_steps` at 10 times that, see the module) under
//! dopri5, trbdf2, and the model's default method when it is neither, and must finish within
//! the budget, finite, not sunk into the table, and at rest when friction and damping say so
//! (`contact_corpus::check`). Each test prints a summary table (scenes and failures per shape,
//! law and tolerance; the median and worst trial steps per simulated second; the worst scene)
//! and fails listing every failing seed with its description and what happened.
//!
//! Seeds that fail today are listed per method in `KNOWN_FAILURES_*` with why: they are run,
//! reported and skipped, so the lead can shrink the lists as fixes land; a listed seed that now
//! passes fails the test ("remove it from the list"). The scenes of the real failures are kept
//! as models under `tests/data/stalls/` (a header says seed, scene, what happened, method).
//!
//! In memory only: the scenes are TOML strings built with `load_model_str`; nothing is written.
//! The sample runs in about 5 s (dopri5) and 3 s (trbdf2) in release mode on the project's
//! 2-core machine: `cargo test --release --test contact_corpus -- --nocapture` shows the tables.
//! The same corpus at 2,000 scenes: `cargo bench --bench contact_corpus` (BENCHMARKS.md).

#[path = "../benches/support/contact_corpus.rs"]
mod contact_corpus;

use contact_corpus::{default_method, run, summary, Report, Scene};

/// The CI sample.
const SEEDS: std::ops::Range<u64> = 0..200;

/// Seeds of [`SEEDS`] that fail today under dopri5, and why. They are the explicit
/// method's stability limit on a stiff regularised friction (docs/contact.md, "Stiffness of the
/// friction"; `blockdyn check` says the same): below the critical (stiction) velocity the law
/// is a damper of rate 2·μ_s·g/v_c (smooth stick-slip) or 1.875·μ_s·g/v_s (Stribeck) on the
/// sliding, about 3 times that on the twist of a face, during an impact times the impact's force
/// over the weight, and dopri5 needs steps below 3/rate. The numbers are that estimate for the
/// scene at rest (steps per simulated second, with the face's factor 3).
const KNOWN_FAILURES_DOPRI5: &[(u64, &str)] = &[
    (3, "explicit, stiff friction: smooth stick-slip vc = 2.8e-4, μs = 0.97 ⇒ ≈ 6.9e4 steps/s (overrun; on an edge)"),
    (7, "explicit, stiff friction: smooth stick-slip vc = 1.5e-4, μs = 0.34 ⇒ ≈ 4.5e4 steps/s (overrun)"),
    (46, "explicit, stiff friction: Stribeck vs = 2.1e-5, μs = 0.96 ⇒ ≈ 8.4e5 steps/s (stalls at the landing; tests/data/stalls/explicit_stiff_friction_46.toml)"),
    (53, "explicit, stiff friction: Stribeck vs = 1.9e-5, μs = 0.50 ⇒ ≈ 5.0e5 steps/s (overrun)"),
    (58, "explicit, stiff friction: smooth stick-slip vc = 1.1e-4, μs = 0.32 ⇒ ≈ 5.8e4 steps/s (overrun)"),
    (63, "explicit, stiff friction: Stribeck vs = 2.8e-5, μs = 0.98 ⇒ ≈ 6.4e5 steps/s (stalls at the landing)"),
    (78, "explicit, stiff friction: Stribeck vs = 1.6e-5, μs = 0.73 ⇒ ≈ 8.5e5 steps/s (stalls)"),
    (85, "explicit, stiff friction: Stribeck vs = 2.7e-5, μs = 0.78 ⇒ ≈ 5.4e5 steps/s (stalls at the landing)"),
    (108, "explicit, stiff friction: smooth stick-slip vc = 1.5e-4, μs = 0.78 ⇒ ≈ 1.0e5 steps/s (overrun)"),
    (130, "explicit, stiff friction: smooth stick-slip vc = 1.6e-4, μs = 0.76 ⇒ ≈ 9.5e4 steps/s (overrun)"),
    (135, "explicit, stiff friction: smooth stick-slip vc = 2.1e-4, μs = 0.72 ⇒ ≈ 6.6e4 steps/s (overrun)"),
    (147, "explicit, stiff friction: Stribeck vs = 2.5e-5, μs = 0.82 ⇒ ≈ 6.0e5 steps/s (overrun)"),
    (157, "explicit, stiff friction: smooth stick-slip vc = 1.6e-4, μs = 0.81 ⇒ ≈ 1.0e5 steps/s (overrun; on an edge)"),
    (158, "explicit, stiff friction: Stribeck vs = 1.1e-5, μs = 0.34 ⇒ ≈ 5.5e5 steps/s (overrun)"),
    (170, "explicit, stiff friction: smooth stick-slip vc = 2.0e-4, μs = 0.70 ⇒ ≈ 6.7e4 steps/s (overrun)"),
    (174, "explicit, stiff friction: smooth stick-slip vc = 1.9e-4, μs = 0.65 ⇒ ≈ 6.7e4 steps/s (overrun)"),
];

/// Seeds of [`SEEDS`] that fail today under trbdf2, and why.
const KNOWN_FAILURES_TRBDF2: &[(u64, &str)] = &[];

/// Seeds of [`SEEDS`] that fail today under the model's default method when it is neither dopri5
/// nor trbdf2 (`method = "auto"`), and why.
const KNOWN_FAILURES_DEFAULT: &[(u64, &str)] = &[];

/// Runs the sample under `method` (None: the model's default) and checks it against `known`.
fn run_sample(label: &str, method: Option<&str>, known: &[(u64, &str)]) {
    let scenes: Vec<Scene> = SEEDS.map(Scene::generate).collect();
    let reports: Vec<Report> = scenes.iter().map(|s| run(s, method)).collect();
    println!("{}", summary(label, &scenes, &reports));

    let mut problems = Vec::new();
    let mut still_known = Vec::new();
    for (scene, report) in scenes.iter().zip(&reports) {
        let listed = known.iter().find(|(seed, _)| *seed == scene.seed);
        match (&report.failure, listed) {
            (Some(failure), None) => problems.push(format!(
                "{}\n    -> {failure}\n    toml: cargo bench --bench contact_corpus -- --show {}",
                scene.description, scene.seed
            )),
            (None, Some((seed, why))) => problems.push(format!(
                "seed {seed} passes under {label} now: remove it from the list of known failures ({why})\n    {}",
                scene.description
            )),
            (Some(failure), Some((seed, why))) => {
                still_known.push(format!("seed {seed} ({why}): {failure}"))
            }
            (None, None) => {}
        }
    }
    for (seed, _) in known {
        assert!(
            SEEDS.contains(seed),
            "known failure {seed} is not in the sample {SEEDS:?}"
        );
    }
    if !still_known.is_empty() {
        println!(
            "known failures under {label} (skipped): {}",
            still_known.len()
        );
        for k in &still_known {
            println!("  {k}");
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) in the contact corpus under {label}:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_corpus_runs_under_dopri5() {
    run_sample("dopri5", Some("dopri5"), KNOWN_FAILURES_DOPRI5);
}

#[test]
fn the_corpus_runs_under_trbdf2() {
    run_sample("trbdf2", Some("trbdf2"), KNOWN_FAILURES_TRBDF2);
}

/// The scenes name no method: they run under the model's default. While it is dopri5 or trbdf2
/// the tests above cover it.
#[test]
fn the_corpus_runs_under_the_default_method() {
    let default = default_method();
    if default == "dopri5" || default == "trbdf2" {
        println!("the model default is {default}: the_corpus_runs_under_{default} covers it");
        assert!(
            KNOWN_FAILURES_DEFAULT.is_empty(),
            "KNOWN_FAILURES_DEFAULT is for a default other than dopri5 and trbdf2"
        );
        return;
    }
    run_sample(
        &format!("the model default ({default})"),
        None,
        KNOWN_FAILURES_DEFAULT,
    );
}

/// The generator is a pure function of the seed, and its models leave the method to the runner.
#[test]
fn scenes_are_reproducible_and_name_no_method() {
    for seed in [0, 1, 64, 199, 12_345] {
        let (a, b) = (Scene::generate(seed), Scene::generate(seed));
        assert_eq!(a.toml, b.toml);
        assert_eq!(a.description, b.description);
        assert!(a.description.starts_with(&format!("seed {seed}: ")));
        for line in a.toml.lines() {
            assert!(
                !line.trim_start().starts_with("method"),
                "seed {seed} names a method: {line}"
            );
        }
    }
    // Every shape, normal law and friction law occurs in the sample.
    let scenes: Vec<Scene> = SEEDS.map(Scene::generate).collect();
    for shape in [
        "sphere",
        "brick",
        "prism hull",
        "cube hull",
        "cylinder on face",
        "cylinder on rim",
        "disk",
    ] {
        assert!(
            scenes.iter().any(|s| s.shape.name() == shape),
            "no {shape} in the sample"
        );
    }
    for law in [
        "smooth_spring_damper",
        "linear_spring_damper",
        "linear_spring_limited_damper",
        "hunt_crossley",
        "rigid",
    ] {
        assert!(
            scenes.iter().any(|s| s.contact.normal_name() == law),
            "no {law} in the sample"
        );
    }
    for law in ["smooth_stick_slip", "stribeck", "none", "coulomb"] {
        assert!(
            scenes.iter().any(|s| s.contact.friction_name() == law),
            "no {law} friction in the sample"
        );
    }
    assert!(scenes.iter().any(|s| s.stacked.is_some()));
}

/// The regression models in tests/data/stalls/ build. Each header says what happened, under which
/// method; those fixed since (the level puck, the roller of seed 277) run in
/// tests/contact_stalls.rs, the others are left for issue 27 (RigidContact) or are method-choice
/// examples.
#[test]
fn the_stall_regressions_build() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stalls");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/stalls") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            blockdyn::load_model(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            count += 1;
        }
    }
    assert!(count > 0, "no models in {}", dir.display());
}
