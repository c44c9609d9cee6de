//! The contact corpus at scale (issue 26, part 4): thousands of seeded random contact scenes
//! (`support/contact_corpus.rs`, the generator and checks `tests/contact_corpus.rs` runs on a
//! fixed sample), each under its step budget, per method. Prints per method a summary table
//! (scenes and failures per shape, normal law, friction law and tolerance; the median and worst
//! trial steps per simulated second) and every failing scene with its description and error.
//! Step counts are deterministic; wall times are the machine's.
//!
//! Run: `cargo bench --bench contact_corpus` (2,000 scenes under the model default, dopri5 and
//! trbdf2; the default is skipped when it is one of the others; about 100 s). Options after `--`:
//!
//! - `--seeds A..B` (default `0..2000`);
//! - `--methods LIST`, comma-separated method names, `default` for the model's own (default
//!   `default,dopri5,trbdf2`);
//! - `--known`: also print the failures as lines for the test's lists of known failures;
//! - `--show SEED`: print the scene's TOML and description and exit;
//! - `--dump DIR`: write every scene of the range to `DIR/corpus_SEED.toml` and exit (to run them
//!   with another build of `blockdyn`, e.g. `blockdyn run DIR/corpus_7.toml --set
//!   solver.max_steps=N`; the budget is 50,000 trial steps per simulated second).

#[path = "support/contact_corpus.rs"]
mod contact_corpus;

use contact_corpus::{default_method, run, run_with_max_steps, summary, Report, Scene};
use std::time::Instant;

fn main() {
    let mut seeds = 0..2000u64;
    let mut methods = vec![
        "default".to_string(),
        "dopri5".to_string(),
        "trbdf2".to_string(),
    ];
    let mut max_steps: Option<u64> = None;
    let mut known = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => {
                let range = args.next().expect("--seeds A..B");
                let (a, b) = range.split_once("..").expect("--seeds A..B");
                seeds = a.parse().expect("a seed")..b.parse().expect("a seed");
            }
            "--max-steps" => {
                max_steps = Some(
                    args.next()
                        .expect("--max-steps N")
                        .parse()
                        .expect("a number"),
                );
            }
            "--known" => known = true,
            "--methods" => {
                methods = args
                    .next()
                    .expect("--methods LIST")
                    .split(',')
                    .map(str::to_string)
                    .collect();
            }
            "--show" => {
                let seed: u64 = args.next().expect("--show SEED").parse().expect("a seed");
                let scene = Scene::generate(seed);
                println!("{}", scene.toml);
                eprintln!("{}", scene.description);
                return;
            }
            "--dump" => {
                let dir = std::path::PathBuf::from(args.next().expect("--dump DIR"));
                std::fs::create_dir_all(&dir).expect("the dump directory");
                for seed in seeds.clone() {
                    let scene = Scene::generate(seed);
                    std::fs::write(dir.join(format!("corpus_{seed}.toml")), &scene.toml)
                        .expect("write a scene");
                }
                println!(
                    "wrote {} scenes to {}",
                    seeds.end - seeds.start,
                    dir.display()
                );
                return;
            }
            // cargo bench passes --bench; criterion-style filters are ignored.
            _ => {}
        }
    }

    let default = default_method();
    let scenes: Vec<Scene> = seeds.clone().map(Scene::generate).collect();
    println!(
        "contact corpus: seeds {}..{}, model default method \"{default}\"",
        seeds.start, seeds.end
    );
    for method in &methods {
        let (label, choice) = if method == "default" {
            if methods.contains(&default) {
                println!("\n(the model default is {default}: measured below as {default})");
                continue;
            }
            (format!("the model default ({default})"), None)
        } else {
            (method.clone(), Some(method.as_str()))
        };
        let start = Instant::now();
        let reports: Vec<Report> = scenes
            .iter()
            .map(|s| match max_steps {
                Some(n) => run_with_max_steps(s, choice, n, n),
                None => run(s, choice),
            })
            .collect();
        let wall = start.elapsed();
        println!();
        print!("{}", summary(&label, &scenes, &reports));
        println!(
            "  wall time of the whole corpus: {:.1} s",
            wall.as_secs_f64()
        );
        let failing: Vec<(&Scene, &Report)> = scenes
            .iter()
            .zip(&reports)
            .filter(|(_, r)| r.failure.is_some())
            .collect();
        println!("  failures under {label}: {}", failing.len());
        if known {
            // Lines for the test's lists of known failures.
            for (s, r) in &failing {
                let what = r.failure.as_deref().unwrap_or("");
                let kind = if what.starts_with("budget overrun") {
                    "overrun"
                } else if what.starts_with("the run stalled") {
                    "stalls"
                } else {
                    "fails"
                };
                let note = s
                    .friction_note()
                    .map(|n| format!("explicit, stiff friction: {n} ({kind})"))
                    .unwrap_or_else(|| what.chars().take(100).collect());
                println!("    ({}, \"{note}\"),", s.seed);
            }
        }
        for (s, r) in failing {
            println!(
                "    {}\n      -> {}",
                s.description,
                r.failure.as_deref().unwrap_or("")
            );
        }
    }
}
