//! Tests of Lemke's method: hand-checked problems, degenerate ties, and the turntable's problem
//! that cycled before the lexicographic rule and the pivot tolerance (issue 27).

use super::*;

fn solve_with(m: &[f64], q: &[f64], covering: Covering) -> Result<Vec<f64>, LemkeFailure> {
    let n = q.len();
    let mut lemke = Lemke::new(n);
    let mut z = vec![0.0; n];
    let mut basic = vec![false; n];
    let lcp = Lcp { n, m, stride: n, q };
    lemke.solve(lcp, covering, &mut z, &mut basic, 100)?;
    Ok(z)
}

fn solve(m: &[f64], q: &[f64]) -> Result<Vec<f64>, LemkeFailure> {
    solve_with(m, q, Covering::Ones)
}

#[test]
fn solves_a_nonsymmetric_problem() {
    // M = [2 1; 0 2], q = (−4, −2): z = (1.5, 1), w = 0.
    for covering in [Covering::Ones, Covering::Graded] {
        let z = solve_with(&[2.0, 1.0, 0.0, 2.0], &[-4.0, -2.0], covering).unwrap();
        assert!((z[0] - 1.5).abs() < 1e-14 && (z[1] - 1.0).abs() < 1e-14);
    }
}

#[test]
fn nonnegative_q_needs_no_pivot() {
    assert_eq!(solve(&[-1.0], &[1.0]).unwrap(), vec![0.0]);
}

#[test]
fn negative_scalar_ends_on_a_ray() {
    // w = −z − 1 < 0 for every z ≥ 0: no solution.
    assert_eq!(
        solve(&[-1.0], &[-1.0]),
        Err(LemkeFailure::Ray { variable: 0 })
    );
}

#[test]
fn degenerate_ties_do_not_cycle() {
    // Rank-one M with equal q: every ratio ties.
    let z = solve(&[1.0; 9], &[-1.0; 3]).unwrap();
    assert!((z.iter().sum::<f64>() - 1.0).abs() < 1e-14);
}

#[test]
fn beale_like_degenerate_problem_terminates() {
    // Four identical rows and columns of a rank-one PSD matrix plus zero q entries: the ratio
    // test ties at zero on every pivot; the lexicographic rule must still end (z = 0 except the
    // rows with negative q, whose w must reach 0: Σz = 2).
    let n = 4;
    let m = vec![1.0; n * n];
    let q = [-2.0, 0.0, -2.0, 0.0];
    let z = solve(&m, &q).unwrap();
    let w: Vec<f64> = (0..n)
        .map(|i| q[i] + z.iter().sum::<f64>() * m[i * n])
        .collect();
    assert!(w.iter().all(|&x| x > -1e-14), "{w:?}");
    assert!((z.iter().sum::<f64>() - 2.0).abs() < 1e-14, "{z:?}");
}

/// A scaled problem as `solve_frictional` built it (written out by a temporary trace while the
/// turntable aborted): `n`, then the n rows of `M`, then `q`.
fn dumped(text: &str) -> (usize, Vec<f64>, Vec<f64>) {
    let mut lines = text.lines();
    let n: usize = lines.next().and_then(|l| l.trim().parse().ok()).unwrap();
    let numbers = |line: Option<&str>| -> Vec<f64> {
        line.unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let m: Vec<f64> = (0..n).flat_map(|_| numbers(lines.next())).collect();
    let q = numbers(lines.next());
    (n, m, q)
}

#[test]
fn turntable_problems_that_cycled_are_solved() {
    // The block on the turntable (issue 27): four corner contacts with eight friction directions
    // each, 40 variables, data with 10⁻¹⁰ noise. Before, pivots on 5·10⁻¹¹ entries made the basis
    // singular to working precision, basic values went negative and the pivoting cycled through
    // four bases until its budget (402 pivots). The solution is checked against the definition.
    for text in [
        include_str!("../../../tests/data/lcp/turntable_trbdf2.txt"),
        include_str!("../../../tests/data/lcp/turntable_offset.txt"),
    ] {
        let (n, m, q) = dumped(text);
        let mut lemke = Lemke::new(n);
        let (mut z, mut basic) = (vec![0.0; n], vec![false; n]);
        let pivots = lemke
            .solve(
                Lcp {
                    n,
                    m: &m,
                    stride: n,
                    q: &q,
                },
                Covering::Ones,
                &mut z,
                &mut basic,
                10 * n + 2,
            )
            .unwrap();
        assert!(pivots < 2 * n, "{pivots} pivots");
        let z_max = z.iter().fold(0.0f64, |a, x| a.max(*x));
        for i in 0..n {
            let w: f64 = q[i] + (0..n).map(|j| m[i * n + j] * z[j]).sum::<f64>();
            // Scaled problem: entries of order 1, so 10⁻⁹·max(1, ‖z‖) is rounding of the pivots.
            let tol = 1e-9 * z_max.max(1.0);
            assert!(w >= -tol && z[i] >= 0.0 && (w * z[i]).abs() <= tol * z_max.max(1.0));
        }
    }
}
