//! The frictional solver does not allocate once its workspace exists, on every path of its
//! strategy (warm start, Lemke's method, the graded covering vector, the enumeration fallback):
//! a counting global allocator wraps the system one, over corpus problems of every family.

#[path = "../benches/support/lcp_corpus.rs"]
#[allow(dead_code)]
mod lcp_corpus;
#[path = "../benches/support/lcp_reference.rs"]
#[allow(dead_code)]
mod lcp_reference;

mod alloc_counter;
use alloc_counter::count;

use blockdyn::multibody::constraints::{FrictionWorkspace, SolveMethod};
use lcp_corpus::{settings, Problem};

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn frictional_solves_do_not_allocate() {
    let problems: Vec<Problem> = (0..800u64).map(Problem::generate).collect();
    let rows = problems.iter().map(|p| p.b.len()).max().unwrap_or(1);
    let mut ws = FrictionWorkspace::with_settings(rows, settings());
    let mut f = vec![0.0; rows];
    let mut methods = Vec::with_capacity(2 * problems.len());
    let ((), allocations) = count(|| {
        for p in &problems {
            let n = p.b.len();
            // Twice: the second solve starts from the first one's mode.
            for _ in 0..2 {
                if let Ok(stats) = p.solve(&mut ws, &mut f[..n]) {
                    methods.push(stats.method);
                }
            }
        }
    });
    assert_eq!(allocations, 0);
    for method in [
        SolveMethod::WarmStart,
        SolveMethod::Lemke,
        SolveMethod::Enumeration,
    ] {
        assert!(methods.contains(&method), "no solve by {method:?}");
    }
}

#[test]
fn the_branch_and_bound_search_does_not_allocate() {
    // The search's path on its own (`fallback_only`), over larger problems of 15–30 variables
    // solved in one workspace sized for the largest.
    use blockdyn::multibody::constraints::FrictionSettings;
    let problems: Vec<Problem> = (0..40u64)
        .map(Problem::generate_large)
        .filter(|p| (15..=30).contains(&p.variables()))
        .collect();
    let rows = problems.iter().map(|p| p.b.len()).max().unwrap_or(1);
    let settings = FrictionSettings {
        fallback_only: true,
        ..settings()
    };
    let mut ws = FrictionWorkspace::with_settings(rows, settings);
    let mut f = vec![0.0; rows];
    let mut methods = Vec::with_capacity(problems.len());
    let ((), allocations) = count(|| {
        for p in &problems {
            if let Ok(stats) = p.solve(&mut ws, &mut f[..p.b.len()]) {
                methods.push(stats.method);
            }
        }
    });
    assert_eq!(allocations, 0);
    assert!(methods.contains(&SolveMethod::BranchAndBound));
}
