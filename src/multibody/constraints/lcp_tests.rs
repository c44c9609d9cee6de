//! Tests of Baraff's pivoting: hand-checkable rigid-body examples, degenerate cases, and random
//! problems against brute force.

use super::*;
use crate::multibody::constraints::testutil::*;
use nalgebra::DMatrix;

type Solution = (Vec<f64>, Vec<f64>, LcpStats);

fn solve(a: &DMatrix<f64>, b: &[f64], kinds: &[RowKind]) -> Result<Solution, ConstraintError> {
    let mut ws = LcpWorkspace::new(b.len());
    let mut f = vec![0.0; b.len()];
    let stats = solve_lcp(a.as_view(), b, kinds, &mut ws, &mut f)?;
    Ok((f, ws.accelerations().to_vec(), stats))
}

fn unilateral(n: usize) -> Vec<RowKind> {
    vec![RowKind::Unilateral; n]
}

fn assert_close(x: f64, y: f64, rel: f64) {
    assert!((x - y).abs() <= rel * y.abs().max(1.0), "{x} vs {y}");
}

#[test]
fn single_contact_carries_the_weight() {
    let m = 2.0;
    let (f, a, _) = solve(&DMatrix::from_element(1, 1, 1.0 / m), &[-G], &unilateral(1)).unwrap();
    assert_close(f[0], m * G, 1e-14);
    assert!(a[0].abs() < 1e-14);
}

#[test]
fn separating_contact_carries_nothing() {
    // An upward net acceleration of 3 m/s² at the gap: the contact opens, f = 0, a = 3.
    let (f, a, _) = solve(&DMatrix::from_element(1, 1, 0.5), &[3.0], &unilateral(1)).unwrap();
    assert_eq!(f[0], 0.0);
    assert_eq!(a[0], 3.0);
}

#[test]
fn planar_box_on_two_corners_lever_rule() {
    // Box of mass 3 kg, inertia 1.25 kg·m², its centre of mass off-centre: the two bottom
    // corners are at x = −1.5 m and x = +0.5 m from it, 0.5 m below.
    // Moments about the centre: 1.5 f₁ = 0.5 f₂, f₁ + f₂ = m g → f₁ = m g/4, f₂ = 3 m g/4.
    let m = 3.0;
    let rows = [
        planar_point_row([0.0, 1.0], [-1.5, -0.5]),
        planar_point_row([0.0, 1.0], [0.5, -0.5]),
    ];
    let j = DMatrix::from_fn(2, 3, |i, k| rows[i][k]);
    let (a, b) = contact_problem(&j, &[m, m, 1.25], &[0.0, -m * G, 0.0]);
    let (f, acc, _) = solve(&a, &b, &unilateral(2)).unwrap();
    assert_close(f[0], m * G / 4.0, 1e-12);
    assert_close(f[1], 3.0 * m * G / 4.0, 1e-12);
    assert!(acc.iter().all(|x| x.abs() < 1e-12));
}

#[test]
fn planar_box_on_one_dof_is_rank_one() {
    // A box that can only translate vertically, standing on two corners: J = [1; 1], A = [1 1; 1 1]/m
    // (rank 1). Any split of the weight is a solution; the sum must be m g and a = 0.
    let m = 4.0;
    let j = DMatrix::from_row_slice(2, 1, &[1.0, 1.0]);
    let (a, b) = contact_problem(&j, &[m], &[-m * G]);
    let (f, acc, _) = solve(&a, &b, &unilateral(2)).unwrap();
    assert_close(f[0] + f[1], m * G, 1e-12);
    assert!(f.iter().all(|x| *x >= 0.0));
    assert!(acc.iter().all(|x| x.abs() < 1e-12));
}

#[test]
fn spatial_box_on_four_corners_is_rank_three() {
    // Box 2 × 1 × 0.5 m, 2 kg, on its four bottom corners; coordinates (v, ω) at the centre.
    let (m, hx, hy, hz) = (2.0, 1.0, 0.5, 0.25);
    let inertia = [
        m * (4.0 * hy * hy + 4.0 * hz * hz) / 12.0,
        m * (4.0 * hx * hx + 4.0 * hz * hz) / 12.0,
        m * (4.0 * hx * hx + 4.0 * hy * hy) / 12.0,
    ];
    let masses = [m, m, m, inertia[0], inertia[1], inertia[2]];
    let corners = [[hx, hy], [-hx, hy], [-hx, -hy], [hx, -hy]];
    let j = DMatrix::from_fn(4, 6, |i, k| {
        spatial_point_row([0.0, 0.0, 1.0], [corners[i][0], corners[i][1], -hz])[k]
    });
    let weight = [0.0, 0.0, -m * G, 0.0, 0.0, 0.0];
    let (a, b) = contact_problem(&j, &masses, &weight);
    assert_eq!(a.clone().svd(false, false).rank(1e-12), 3);
    let (f, acc, _) = solve(&a, &b, &unilateral(4)).unwrap();
    assert_close(f.iter().sum(), m * G, 1e-12);
    assert!(f.iter().all(|x| *x >= 0.0));
    assert!(acc.iter().all(|x| x.abs() < 1e-12));
    // The body's generalized acceleration M⁻¹ (Jᵀ f + F) is zero: no hidden torque.
    for k in 0..6 {
        let generalized: f64 = (0..4).map(|i| j[(i, k)] * f[i]).sum::<f64>() + weight[k];
        assert!(generalized.abs() < 1e-12 * m * G, "dof {k}: {generalized}");
    }
}

#[test]
fn stack_of_three_boxes() {
    // Three 2 kg boxes on a line; gaps: ground–1 = y₁, 1–2 = y₂ − y₁, 2–3 = y₃ − y₂.
    let m = 2.0;
    let j = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, -1.0, 1.0, 0.0, 0.0, -1.0, 1.0]);
    let (a, b) = contact_problem(&j, &[m, m, m], &[-m * G, -m * G, -m * G]);
    let (f, acc, stats) = solve(&a, &b, &unilateral(3)).unwrap();
    assert_close(f[0], 3.0 * m * G, 1e-14);
    assert_close(f[1], 2.0 * m * G, 1e-14);
    assert_close(f[2], m * G, 1e-14);
    assert!(acc.iter().all(|x| x.abs() < 1e-13));
    assert_eq!(stats.clamped, 3);
}

#[test]
fn bilateral_row_pulls() {
    // Pendulum bob (1.5 kg) at the bottom of a 2 m rod, speed 3 m/s. Row: the rod length's second
    // derivative along the outward (downward) radius; b = g + v²/L. The rod pulls: f = −m (g + v²/L).
    let (m, l, v) = (1.5, 2.0, 3.0);
    let j = DMatrix::from_row_slice(1, 2, &[0.0, -1.0]);
    let (a, mut b) = contact_problem(&j, &[m, m], &[0.0, -m * G]);
    b[0] += v * v / l;
    let (f, acc, _) = solve(&a, &b, &[RowKind::Bilateral]).unwrap();
    assert_close(f[0], -m * (G + v * v / l), 1e-14);
    assert!(acc[0].abs() < 1e-13);
}

#[test]
fn bilateral_and_unilateral_together() {
    // A bilateral row (0) and a unilateral row (1) acting on one degree of freedom in opposite
    // directions (A of rank 1, a₁ = −a₀): the bilateral row alone holds the body (f₀ − f₁ = −g).
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 1.0]);
    let (f, acc, _) = solve(&a, &[G, -G], &[RowKind::Bilateral, RowKind::Unilateral]).unwrap();
    assert!(acc.iter().all(|x| x.abs() < 1e-13));
    assert_close(f[0] - f[1], -G, 1e-14);
    assert!(f[1] >= 0.0);
}

#[test]
fn duplicate_contacts_share_the_load() {
    // Three identical rows (the same corner reported three times): rank 1.
    let a = DMatrix::from_element(3, 3, 0.5);
    let (f, acc, _) = solve(&a, &[-G, -G, -G], &unilateral(3)).unwrap();
    assert_close(f.iter().sum(), 2.0 * G, 1e-14);
    assert!(acc.iter().all(|x| x.abs() < 1e-13));
}

#[test]
fn indefinite_matrix_names_the_row() {
    let err = solve(&DMatrix::from_element(1, 1, -1.0), &[-1.0], &unilateral(1)).unwrap_err();
    assert_eq!(err, ConstraintError::NotPositiveSemidefinite { row: 0 });
    // Eigenvalues 3 and −1: row 0 is driven first (f₀ = 1), then driving row 1 lowers a₁.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -2.0, -2.0, 1.0]);
    let err = solve(&a, &[-1.0, -1.0], &unilateral(2)).unwrap_err();
    assert_eq!(err, ConstraintError::NotPositiveSemidefinite { row: 1 });
}

#[test]
fn incompatible_redundant_rows_are_infeasible() {
    // A body between two walls that both push it (gaps x and −x), with the gaps' accelerations
    // summing to −2 whatever the forces: no solution. The second driven row is named.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 1.0]);
    let err = solve(&a, &[-1.0, -1.0], &unilateral(2)).unwrap_err();
    assert_eq!(err, ConstraintError::Infeasible { row: 1 });
    // Two identical bilateral rows demanding different accelerations.
    let a = DMatrix::from_element(2, 2, 1.0);
    let err = solve(&a, &[-1.0, -2.0], &[RowKind::Bilateral; 2]).unwrap_err();
    assert_eq!(err, ConstraintError::Infeasible { row: 1 });
}

#[test]
fn input_errors() {
    let mut ws = LcpWorkspace::new(2);
    let a = DMatrix::<f64>::identity(3, 3);
    let mut f = vec![0.0; 3];
    let err = solve_lcp(a.as_view(), &[1.0; 3], &unilateral(3), &mut ws, &mut f).unwrap_err();
    assert_eq!(
        err,
        ConstraintError::CapacityExceeded {
            rows: 3,
            capacity: 2
        }
    );
    let mut ws = LcpWorkspace::new(3);
    let err = solve_lcp(a.as_view(), &[1.0; 3], &unilateral(2), &mut ws, &mut f).unwrap_err();
    assert!(matches!(
        err,
        ConstraintError::Dimension {
            expected: 3,
            got: 2,
            ..
        }
    ));
    let err = solve_lcp(
        a.as_view(),
        &[1.0, f64::NAN, 0.0],
        &unilateral(3),
        &mut ws,
        &mut f,
    );
    assert_eq!(err.unwrap_err(), ConstraintError::NonFinite { row: 1 });
    let mut asym = a.clone();
    asym[(2, 0)] = 0.1;
    let err = solve_lcp(asym.as_view(), &[1.0; 3], &unilateral(3), &mut ws, &mut f).unwrap_err();
    assert_eq!(err, ConstraintError::NotSymmetric { row: 2, column: 0 });
    let kinds = [RowKind::Unilateral, RowKind::Tangent, RowKind::Unilateral];
    let err = solve_lcp(a.as_view(), &[1.0; 3], &kinds, &mut ws, &mut f).unwrap_err();
    assert!(matches!(err, ConstraintError::BadRow { row: 1, .. }));
}

#[test]
fn tie_then_zero_length_step() {
    // A = [4 2 2; 2 2 1; 2 1 2] (positive definite), b = (−3, −3, −3). By hand:
    // drive 0: Δf = (1, 0, 0), s = 3/4 → f = (3/4, 0, 0), a = (0, −3/2, −3/2).
    // drive 1: Δf = (−1/2, 1, 0), Δa₁ = 1; ratio test ties: row 1 reaches 0 at s = 3/2 exactly
    //   when f₀ does; the tie goes to the driven row, so row 0 stays in C with f₀ = 0.
    // drive 2: Δf = (−1/2, 0, 1): row 0 blocks at once (zero-length step) and moves to NC;
    //   then Δf = (0, −1/2, 1), Δa = (1, 0, 3/2), s = 1 → f = (0, 1, 1), a = (1, 0, 0).
    let a = DMatrix::from_row_slice(3, 3, &[4.0, 2.0, 2.0, 2.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    let (f, acc, stats) = solve(&a, &[-3.0; 3], &unilateral(3)).unwrap();
    for (x, y) in f.iter().zip([0.0, 1.0, 1.0]) {
        assert!((x - y).abs() < 1e-14);
    }
    for (x, y) in acc.iter().zip([1.0, 0.0, 0.0]) {
        assert!((x - y).abs() < 1e-14);
    }
    let expected = LcpStats {
        pivots: 4,
        transfers: 1,
        zero_steps: 1,
        clamped: 2,
    };
    assert_eq!(stats, expected);
}

#[test]
fn row_leaves_and_reenters_the_clamped_set() {
    // A = [2 −1 0 −1; −1 3 −3 −1; 0 −3 5 2; −1 −1 2 2] (PSD), b = (0, 2, −5, −4). By hand:
    // drive 2 → f₂ = 1; drive 3 → f = (0, 0, 1/3, 5/3), a = (−5/3, −2/3, 0, 0);
    // drive 0: Δf = (1, 0, −1/3, 5/6): f₂ hits 0 at s = 1 first, row 2 leaves C (C → NC);
    //   then Δf = (1, 0, 0, 1/2), s = 1/3 → f = (4/3, 0, 0, 8/3), a = (0, −2, 1/3, 0);
    // drive 1: Δf = (1, 1, 0, 1), Δa₂ = −1: a₂ hits 0 at s = 1/3, row 2 re-enters C (NC → C);
    //   then Δf = (5/7, 1, 3/7, 3/7), Δa₁ = 4/7, s = 35/12 → f = (15/4, 13/4, 5/4, 17/4), a = 0.
    let a = DMatrix::from_row_slice(
        4,
        4,
        &[
            2.0, -1.0, 0.0, -1.0, -1.0, 3.0, -3.0, -1.0, 0.0, -3.0, 5.0, 2.0, -1.0, -1.0, 2.0, 2.0,
        ],
    );
    let (f, acc, stats) = solve(&a, &[0.0, 2.0, -5.0, -4.0], &unilateral(4)).unwrap();
    for (x, y) in f.iter().zip([3.75, 3.25, 1.25, 4.25]) {
        assert!((x - y).abs() < 1e-13, "{f:?}");
    }
    assert!(acc.iter().all(|x| x.abs() < 1e-13));
    assert_eq!((stats.pivots, stats.transfers), (6, 2));
    // The same problem with a budget of one pivot per row (4) stops while driving row 1.
    let mut ws = LcpWorkspace::new(4);
    ws.settings.pivots_per_row = 1;
    let mut f = [0.0; 4];
    let err = solve_lcp(
        a.as_view(),
        &[0.0, 2.0, -5.0, -4.0],
        &unilateral(4),
        &mut ws,
        &mut f,
    );
    assert_eq!(
        err.unwrap_err(),
        ConstraintError::PivotLimit { row: 1, pivots: 4 }
    );
}

#[test]
fn pivot_budget_names_the_row() {
    let m = 2.0;
    let j = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, -1.0, 1.0, 0.0, 0.0, -1.0, 1.0]);
    let (a, b) = contact_problem(&j, &[m, m, m], &[-m * G, -m * G, -m * G]);
    let mut ws = LcpWorkspace::new(3);
    ws.settings.pivots_per_row = 0;
    let mut f = vec![0.0; 3];
    let err = solve_lcp(a.as_view(), &b, &unilateral(3), &mut ws, &mut f).unwrap_err();
    assert_eq!(err, ConstraintError::PivotLimit { row: 0, pivots: 0 });
}

#[test]
fn workspace_buffers_do_not_grow() {
    let mut ws = LcpWorkspace::new(12);
    let before = ws.buffer_capacities();
    let mut rng = XorShift::new(7);
    let mut f = [0.0; 12];
    for n in [12, 3, 7, 1, 12] {
        let j = rng.matrix(n + 2, n);
        let a = j.transpose() * &j;
        let b: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
        solve_lcp(a.as_view(), &b, &unilateral(n), &mut ws, &mut f[..n]).unwrap();
        assert_eq!(ws.buffer_capacities(), before);
    }
}

#[test]
fn reuses_a_capacity_sized_matrix() {
    // The top-left 1 × 1 block of a 3 × 3 matrix: a single contact.
    let mut big = DMatrix::from_element(3, 3, 99.0);
    big[(0, 0)] = 0.5;
    let mut ws = LcpWorkspace::new(3);
    let mut f = [0.0];
    solve_lcp(
        big.view((0, 0), (1, 1)),
        &[-G],
        &unilateral(1),
        &mut ws,
        &mut f,
    )
    .unwrap();
    assert_close(f[0], 2.0 * G, 1e-14);
}

/// Brute-force acceptance, relative to `max(‖b‖∞, max A_ii·‖f‖∞)`: the solver guarantees its
/// conditions within 10ε = 10⁻⁸ of that scale (module documentation), so 10⁻⁸ is the check.
const CHECK: f64 = 1e-8;

/// One random problem: `A = JᵀJ` with J of `rows × n` (rank-deficient when rows < n), `b` either
/// `Jᵀc` (in the range of A: always solvable) or uniform (often infeasible when A is singular).
fn random_problem(
    rng: &mut XorShift,
    n: usize,
    rows: usize,
    physical: bool,
) -> (DMatrix<f64>, Vec<f64>) {
    let j = rng.matrix(rows, n);
    let a = j.transpose() * &j;
    let b = if physical {
        let c = rng.matrix(rows, 1);
        (j.transpose() * c).iter().copied().collect()
    } else {
        (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect()
    };
    (a, b)
}

#[test]
fn random_problems_against_brute_force() {
    let mut rng = XorShift::new(0x5eed_1994);
    let (mut definite, mut singular, mut infeasible) = (0, 0, 0);
    for trial in 0..600 {
        let n = 1 + rng.below(12);
        let rank_deficient = trial % 3 == 1 && n > 1;
        let rows = if rank_deficient {
            1 + rng.below(n - 1)
        } else {
            n + 3
        };
        let (a, b) = random_problem(&mut rng, n, rows, trial % 2 == 0);
        let mut kinds = unilateral(n);
        if trial % 3 == 2 {
            for k in kinds.iter_mut().take(n / 3) {
                *k = RowKind::Bilateral;
            }
        }
        let result = solve(&a, &b, &kinds);
        if let Ok((f, _, _)) = &result {
            check_conditions(&a, &b, &kinds, f, CHECK)
                .unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        }
        if n > 10 {
            // Beyond brute force: problems with b in the range of A must be solved.
            assert!(
                result.is_ok() || trial % 2 == 1,
                "trial {trial}: {result:?}"
            );
            continue;
        }
        let brute = brute_force_lcp(&a, &b, &kinds, 1e-9);
        match (&result, &brute) {
            (Ok((f, acc, _)), Some(fb)) => {
                let f_scale = acceleration_scale(&a, &b, fb) / a[(0, 0)].max(1e-300);
                if rank_deficient {
                    singular += 1;
                    // Forces are not unique, accelerations are.
                    let acc_b = accelerations(&a, &b, fb);
                    let tol = CHECK * acceleration_scale(&a, &b, fb);
                    for i in 0..n {
                        assert!((acc[i] - acc_b[i]).abs() <= tol, "trial {trial} row {i}");
                    }
                } else {
                    definite += 1;
                    let norm = fb
                        .iter()
                        .fold(0.0, |m: f64, x| m.max(x.abs()))
                        .max(1e-3 * f_scale);
                    for i in 0..n {
                        assert!(
                            (f[i] - fb[i]).abs() <= 1e-9 * norm,
                            "trial {trial} row {i}: {} vs {}",
                            f[i],
                            fb[i]
                        );
                    }
                }
            }
            (Err(_), None) => infeasible += 1,
            _ => panic!("trial {trial}: solver {result:?}, brute force {brute:?}"),
        }
    }
    assert!(
        definite > 100 && singular > 50 && infeasible > 10,
        "{definite} {singular} {infeasible}"
    );
}

#[test]
fn degenerate_integer_problems() {
    // J with entries in {−1, 0, 1} and b = Jᵀc with small integer c: many ties, rows exactly at
    // zero, redundant rows. All are solvable (b in the range of A); the accelerations must match
    // brute force, and the degenerate paths (zero steps, transfers) must be exercised.
    let mut rng = XorShift::new(42);
    let mut totals = LcpStats::default();
    for trial in 0..4000 {
        let n = 2 + rng.below(7);
        let rows = 1 + rng.below(n + 1);
        let j = DMatrix::from_fn(rows, n, |_, _| rng.below(3) as f64 - 1.0);
        let c = DMatrix::from_fn(rows, 1, |_, _| rng.below(5) as f64 - 2.0);
        let a = j.transpose() * &j;
        let b: Vec<f64> = (j.transpose() * c).iter().copied().collect();
        let kinds = unilateral(n);
        let (f, acc, stats) =
            solve(&a, &b, &kinds).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        check_conditions(&a, &b, &kinds, &f, CHECK)
            .unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        let fb = brute_force_lcp(&a, &b, &kinds, 1e-9).expect("solvable");
        let acc_b = accelerations(&a, &b, &fb);
        let tol = CHECK * acceleration_scale(&a, &b, &fb).max(1.0);
        for i in 0..n {
            assert!((acc[i] - acc_b[i]).abs() <= tol, "trial {trial} row {i}");
        }
        totals.pivots += stats.pivots;
        totals.transfers += stats.transfers;
        totals.zero_steps += stats.zero_steps;
    }
    assert!(totals.transfers > 0 && totals.zero_steps > 0, "{totals:?}");
}
