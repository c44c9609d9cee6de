//! The frictional solver's corpus (issue 27, part 1), a fixed seeded sample in CI: 2,400 random
//! and degenerate contact problems of `benches/support/lcp_corpus.rs` (its header lists the eight
//! families: redundant rows, zero-velocity ties, μ at the cone's edge, rank-deficient Jacobians,
//! sliding contacts, …), 300 per family. Every returned solution must satisfy Coulomb's
//! conditions checked directly (10⁻⁸ of the problem's scale: rounding of the pivoting on
//! problems scaled to order 1, with margin), and every reported failure must be confirmed by the
//! brute force over all complementary index sets (10⁻⁹): zero failures where a solution exists.
//! The full corpus (≥ 10,000 problems) is `cargo bench --bench lcp_corpus`.

#[path = "../benches/support/lcp_corpus.rs"]
mod lcp_corpus;
#[path = "../benches/support/lcp_reference.rs"]
mod lcp_reference;

use blockdyn::multibody::constraints::SolveMethod;
use lcp_corpus::{run, run_large, summary, Outcome};

#[test]
fn no_failure_where_the_brute_force_finds_a_solution() {
    let outcomes: Vec<Outcome> = (0..2400u64).map(run).collect();
    println!("{}", summary(&outcomes));
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| o.failed())
        .map(|o| format!("seed {}: {:?} {:?}", o.seed, o.result, o.wrong))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The sample exercises both outcomes: most problems are solved, some have no solution.
    let solved = outcomes.iter().filter(|o| o.result.is_ok()).count();
    assert!(solved > 2000, "{solved} solved");
    // ... and the fallback: problems Lemke's method misses that the enumeration solves.
    let enumerated = outcomes
        .iter()
        .filter(|o| matches!(&o.result, Ok(s) if s.method == SolveMethod::Enumeration))
        .count();
    assert!(
        enumerated > 0,
        "the sample no longer exercises the enumeration"
    );
}

#[test]
fn a_warm_start_reuses_the_previous_mode() {
    // The same problem twice on one workspace: the second solve is the remembered index set,
    // with the same forces (rounding: 10⁻¹² of the largest force).
    use blockdyn::multibody::constraints::FrictionWorkspace;
    for seed in [0u64, 3, 6] {
        let p = lcp_corpus::Problem::generate(seed);
        let mut ws = FrictionWorkspace::with_settings(p.b.len(), lcp_corpus::settings());
        let (mut f1, mut f2) = (vec![0.0; p.b.len()], vec![0.0; p.b.len()]);
        let first = p.solve(&mut ws, &mut f1).unwrap();
        let second = p.solve(&mut ws, &mut f2).unwrap();
        assert_ne!(first.method, SolveMethod::WarmStart);
        if first.variables > 0 {
            assert_eq!(second.method, SolveMethod::WarmStart, "seed {seed}");
        }
        let largest = f1.iter().fold(1e-300f64, |m, x| m.max(x.abs()));
        assert!(
            f1.iter()
                .zip(&f2)
                .all(|(a, b)| (a - b).abs() <= 1e-12 * largest),
            "seed {seed}"
        );
    }
}

#[test]
fn no_failure_on_larger_problems_where_a_solution_exists() {
    // 4,000 problems of 4–8 contacts (4–56 variables, most beyond the enumeration's 14): on the
    // planted families a solution exists by construction, so every error is a failure; every
    // returned solution passes Coulomb's conditions (10⁻⁸ of the scale, as above).
    let outcomes: Vec<Outcome> = (0..4000u64).map(run_large).collect();
    println!("{}", summary(&outcomes));
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| o.failed())
        .map(|o| format!("seed {}: {:?} {:?}", o.seed, o.result, o.wrong))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The sample reaches the branch-and-bound fallback, above the enumeration limit.
    let searched = outcomes
        .iter()
        .filter(|o| matches!(&o.result, Ok(s) if s.method == SolveMethod::BranchAndBound))
        .count();
    assert!(searched > 0, "the sample no longer exercises the search");
    let largest = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok().map(|s| s.variables))
        .max();
    assert!(largest >= Some(30), "{largest:?}");
}

#[test]
fn the_search_alone_solves_every_planted_problem() {
    // The pivoting solves nearly all larger problems, so the branch-and-bound search is tested
    // on its own: with `fallback_only` every planted problem (a solution exists by
    // construction) above the enumeration limit must be solved by the search, and its solution
    // pass Coulomb's conditions (10⁻⁸ of the scale). Problems of 15–30 variables.
    use blockdyn::multibody::constraints::{FrictionSettings, FrictionWorkspace};
    let settings = FrictionSettings {
        fallback_only: true,
        ..lcp_corpus::settings()
    };
    let (mut searched, mut worst) = (0, (0, 0, 0u64));
    for seed in (0..600u64).filter(|s| s % 4 != 3) {
        let p = lcp_corpus::Problem::generate_large(seed);
        // Up to 30 variables: the search's cost grows exponentially with the size in the worst
        // case (BENCHMARKS.md), and this test must stay within seconds.
        if p.variables() > 30 {
            continue;
        }
        let mut ws = FrictionWorkspace::with_settings(p.b.len(), settings);
        let mut f = vec![0.0; p.b.len()];
        let stats = p
            .solve(&mut ws, &mut f)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if let Err(wrong) = lcp_reference::check_coulomb(&p, &f, ws.accelerations()) {
            panic!("seed {seed}: {wrong}");
        }
        if stats.variables > 14 {
            assert_eq!(stats.method, SolveMethod::BranchAndBound, "seed {seed}");
            searched += 1;
            worst = worst.max((stats.nodes, stats.variables, seed));
        }
    }
    println!("{searched} searched; most nodes {worst:?} (nodes, variables, seed)");
    assert!(searched > 100, "{searched}");
}
