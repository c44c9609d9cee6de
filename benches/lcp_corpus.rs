//! The frictional solver's corpus at full size (issue 27, part 1): 10,000 seeded random and
//! degenerate contact problems (`support/lcp_corpus.rs`, whose header lists the families; the
//! test `tests/lcp_corpus.rs` runs a fixed sample of 2,400). First every problem is solved and
//! checked — Coulomb's conditions on each returned solution, the brute force over all
//! complementary index sets on each reported failure — and the summary printed: per family the
//! problems, solved, confirmed without solution and failures; which step of the strategy solved
//! them; the worst problem by pivots. The same for 10,000 larger problems (4–8 contacts, up to
//! 56 variables, `Problem::generate_large`: planted solutions, redundant rows, ties, μ at the
//! cone's edge, sliding contacts), where the branch-and-bound search is the exact fallback. Then
//! criterion times solving each corpus (problems built beforehand, a fresh workspace per
//! problem), reported as problems per second.
//!
//! Run: `cargo bench --bench lcp_corpus` (BENCHMARKS.md, "Frictional solver corpus").

#[path = "support/lcp_corpus.rs"]
mod lcp_corpus;
#[path = "support/lcp_reference.rs"]
mod lcp_reference;

use blockdyn::multibody::constraints::FrictionWorkspace;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lcp_corpus::{run, run_large, settings, summary, Outcome, Problem};

/// Problems in the corpus.
const PROBLEMS: u64 = 10_000;

fn corpus(c: &mut Criterion) {
    let outcomes: Vec<Outcome> = (0..PROBLEMS).map(run).collect();
    println!("{}", summary(&outcomes));
    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| o.failed()).collect();
    println!(
        "failures where the brute force finds a solution: {}",
        failures.len()
    );
    for o in failures.iter().take(20) {
        println!("  seed {}: {:?} {:?}", o.seed, o.result, o.wrong);
    }
    let large: Vec<Outcome> = (0..PROBLEMS).map(run_large).collect();
    println!("larger problems:\n{}", summary(&large));
    let failures: Vec<&Outcome> = large.iter().filter(|o| o.failed()).collect();
    println!("larger problems' failures: {}", failures.len());
    for o in failures.iter().take(20) {
        println!("  seed {}: {:?} {:?}", o.seed, o.result, o.wrong);
    }
    time(c, "solve 10,000 problems, cold", Problem::generate);
    time(
        c,
        "solve 10,000 larger problems, cold",
        Problem::generate_large,
    );
}

/// Times solving the corpus of `generate` (problems built beforehand).
fn time(c: &mut Criterion, name: &str, generate: fn(u64) -> Problem) {
    let problems: Vec<Problem> = (0..PROBLEMS).map(generate).collect();
    let rows = problems.iter().map(|p| p.b.len()).max().unwrap_or(1);
    let mut group = c.benchmark_group("lcp_corpus");
    group.sample_size(10);
    group.throughput(Throughput::Elements(PROBLEMS));
    group.bench_function(name, |bench| {
        let mut f = vec![0.0; rows];
        bench.iter(|| {
            let mut solved = 0usize;
            for p in &problems {
                // A fresh mode per problem: the corpus problems are unrelated (no warm start).
                let mut ws = FrictionWorkspace::with_settings(p.b.len(), settings());
                solved += p.solve(&mut ws, &mut f[..p.b.len()]).is_ok() as usize;
            }
            solved
        })
    });
    group.finish();
}

criterion_group!(benches, corpus);
criterion_main!(benches);
