//! Mutational fuzzing of the example models (issue 12, part 6): numbers set to extreme values,
//! lines deleted or doubled, keys swapped between lines. Each mutant is loaded, built and run
//! for a short time under a step budget; whatever it is, it must end with a result or an error
//! message, never a panic, and never take more trial steps than the budget.
//!
//! The seed is fixed, so CI runs the same cases every time; failures are not persisted to files
//! (a failing case is printed, shrunk, by proptest).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Trial steps a mutant may take.
const BUDGET: u64 = 5000;
/// Longest simulated time of a mutant's run (s).
const SHORT_RUN: f64 = 0.05;
/// Cases per run of the test: about 6 s on one core.
const CASES: u32 = 3000;

/// Values that break naive code: zeros, signs, extremes, denormals, non-finite numbers.
const EXTREMES: [&str; 16] = [
    "0", "0.0", "-0.0", "-1.0", "2", "1e300", "-1e300", "1e-300", "5e-324", "1e15", "-1e15", "1e9",
    "nan", "inf", "-inf", "1e-12",
];

/// The example models, `(file name, text)`, sorted by name.
fn models() -> &'static [(String, String)] {
    static MODELS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    MODELS.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/models");
        let mut all: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        all.sort();
        all
    })
}

/// One edit of a model's text; indices are taken modulo what the text offers.
#[derive(Clone, Debug)]
enum Mutation {
    /// The `which`-th number literal becomes `EXTREMES[value]`.
    Number {
        which: usize,
        value: usize,
    },
    DeleteLine(usize),
    DoubleLine(usize),
    /// The keys of the `a`-th and `b`-th `key = value` lines trade places.
    SwapKeys {
        a: usize,
        b: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 0..EXTREMES.len())
            .prop_map(|(which, value)| Mutation::Number { which, value }),
        2 => any::<usize>().prop_map(Mutation::DeleteLine),
        1 => any::<usize>().prop_map(Mutation::DoubleLine),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapKeys { a, b }),
    ]
}

/// Byte ranges of the number literals in `text`, outside strings and comments, not part of a
/// name (`in1`, `p[2]` in a connection string are inside strings anyway).
fn number_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let (mut in_string, mut in_comment) = (false, false);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => (in_string, in_comment) = (false, false),
            b'"' if !in_comment => in_string = !in_string,
            b'#' if !in_string => in_comment = true,
            _ => {}
        }
        let starts_number =
            c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        let after_name = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !in_string && !in_comment && starts_number && !after_name {
            let start = i;
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || matches!(bytes[i], b'.' | b'e' | b'E' | b'_')
                    || (matches!(bytes[i], b'-' | b'+') && matches!(bytes[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            spans.push(start..i);
            continue;
        }
        i += 1;
    }
    spans
}

/// `(line index, key range)` of every `key = value` line.
fn key_lines(lines: &[String]) -> Vec<(usize, std::ops::Range<usize>)> {
    lines
        .iter()
        .enumerate()
        .filter_map(|(k, line)| {
            let start = line.len() - line.trim_start().len();
            let end =
                start + line[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            (end > start && line[end..].trim_start().starts_with('=')).then_some((k, start..end))
        })
        .collect()
}

fn apply(text: &str, m: &Mutation) -> String {
    match *m {
        Mutation::Number { which, value } => {
            let spans = number_spans(text);
            if spans.is_empty() {
                return text.to_string();
            }
            let r = spans[which % spans.len()].clone();
            format!("{}{}{}", &text[..r.start], EXTREMES[value], &text[r.end..])
        }
        Mutation::DeleteLine(k) | Mutation::DoubleLine(k) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let k = k % lines.len();
            if matches!(m, Mutation::DeleteLine(_)) {
                lines.remove(k);
            } else {
                lines.insert(k, lines[k]);
            }
            lines.join("\n")
        }
        Mutation::SwapKeys { a, b } => {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            let keyed = key_lines(&lines);
            if keyed.len() < 2 {
                return text.to_string();
            }
            let (la, ra) = keyed[a % keyed.len()].clone();
            let (lb, rb) = keyed[b % keyed.len()].clone();
            let (ka, kb) = (
                lines[la][ra.clone()].to_string(),
                lines[lb][rb.clone()].to_string(),
            );
            lines[la].replace_range(ra, &kb);
            lines[lb].replace_range(rb, &ka);
            lines.join("\n")
        }
    }
}

/// How the mutants ended: refused by the loader or builder, ran to the end, failed in the run.
static REFUSED: AtomicUsize = AtomicUsize::new(0);
static RAN: AtomicUsize = AtomicUsize::new(0);
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// Loads, builds and briefly runs one mutant: every outcome but a panic or an overrun is fine.
fn load_build_run(name: &str, text: &str) -> Result<(), TestCaseError> {
    let overrides = [format!("solver.max_steps={BUDGET}")];
    let d = match blockdyn::load_model_str(
        name,
        text,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    ) {
        Ok(d) => d,
        Err(e) => {
            REFUSED.fetch_add(1, Ordering::Relaxed);
            prop_assert!(!e.to_string().is_empty());
            return Ok(());
        }
    };
    let stop = d.run().stop_time.min(SHORT_RUN);
    let options = blockdyn::RunOptions {
        stop_time: Some(stop),
        ..Default::default()
    };
    match blockdyn::simulate(&d, options) {
        Ok(r) => {
            RAN.fetch_add(1, Ordering::Relaxed);
            let tried = (r.stats.steps + r.stats.rejected_steps) as u64;
            prop_assert!(tried <= BUDGET, "{name}: {tried} trial steps");
            prop_assert!(r.stats.final_time <= stop, "{name}: {:?}", r.stats);
        }
        Err(e) => {
            FAILED.fetch_add(1, Ordering::Relaxed);
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

#[test]
fn mutated_example_models_never_panic_and_always_end() {
    let config = Config {
        cases: CASES,
        rng_seed: RngSeed::Fixed(0x0b10_c4d1),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let n = models().len();
    let strategy = (0..n, prop::collection::vec(mutation(), 1..4));
    let result = runner.run(&strategy, |(model, mutations)| {
        let (name, text) = &models()[model];
        let mutant = mutations.iter().fold(text.clone(), |t, m| apply(&t, m));
        // Labelled with the model's path, so that files it names (a Urdf block's URDF) are
        // found beside it, as when the model is loaded from models/.
        load_build_run(&format!("models/{name}"), &mutant)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (refused, ran, failed) = (
        REFUSED.load(Ordering::Relaxed),
        RAN.load(Ordering::Relaxed),
        FAILED.load(Ordering::Relaxed),
    );
    eprintln!("mutants: {refused} refused, {ran} ran, {failed} failed in the run");
    // With this seed: 2326 refused, 578 ran, 96 failed. Most mutants must not stop at the
    // loader, or the run would go untested.
    assert!(
        ran + failed >= CASES as usize / 10,
        "only {ran} + {failed} mutants ran"
    );
}

/// The mutations do what they say (the fuzzer would otherwise test far less than it seems).
#[test]
fn the_mutations_edit_what_they_name() {
    let text = "connect = [\"a.out -> s.in1\"]\n# k = 3\n[blocks.a]\ntype = \"Gain\"\ngain = -2.5e-3\nk2 = [1, 2]\n";
    let spans: Vec<&str> = number_spans(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(spans, ["-2.5e-3", "1", "2"]);
    let m = Mutation::Number { which: 4, value: 5 };
    assert!(apply(text, &m).contains("k2 = [1e300, 2]"));
    let swapped = apply(text, &Mutation::SwapKeys { a: 1, b: 2 });
    assert!(
        swapped.contains("gain = \"Gain\"\ntype = -2.5e-3"),
        "{swapped}"
    );
    assert_eq!(apply(text, &Mutation::DeleteLine(1)).lines().count(), 5);
    assert!(apply(text, &Mutation::DoubleLine(2)).contains("[blocks.a]\n[blocks.a]"));
    assert!(models().len() >= 20, "the example models are found");
}
