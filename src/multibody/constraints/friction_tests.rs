//! Tests of the frictional solver: blocks on slopes, sliding, Painlevé's rod, agreement with
//! Baraff's method without friction, and random planar problems against brute force.

use super::*;
use crate::multibody::constraints::lcp::{solve_lcp, LcpWorkspace};
use crate::multibody::constraints::testutil::*;
use nalgebra::{DMatrix, DVector};

const SLOPE: f64 = std::f64::consts::PI / 6.0;

type Solved = (Vec<f64>, Vec<f64>, FrictionStats);

fn solve(
    a: &DMatrix<f64>,
    b: &[f64],
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
) -> Result<Solved, ConstraintError> {
    let mut ws = FrictionWorkspace::new(b.len());
    let mut f = vec![0.0; b.len()];
    let stats = solve_frictional(a.as_view(), b, kinds, contacts, &mut ws, &mut f)?;
    Ok((f, ws.accelerations().to_vec(), stats))
}

/// Generalized acceleration `M⁻¹ (Jᵀ f + F)` for a diagonal `M`.
fn generalized_acceleration(
    j: &DMatrix<f64>,
    masses: &[f64],
    force: &[f64],
    f: &[f64],
) -> Vec<f64> {
    let jt_f = j.transpose() * DVector::from_column_slice(f);
    (0..masses.len())
        .map(|k| (jt_f[k] + force[k]) / masses[k])
        .collect()
}

/// A point mass on the slope, coordinates (x, y) in the slope's frame (x uphill): rows normal,
/// tangent; gravity `m g (−sin α, −cos α)`.
fn point_on_slope(m: f64) -> (DMatrix<f64>, Vec<f64>) {
    let j = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0]);
    contact_problem(&j, &[m, m], &[-m * G * SLOPE.sin(), -m * G * SLOPE.cos()])
}

const POINT_KINDS: [RowKind; 2] = [RowKind::Unilateral, RowKind::Tangent];

#[test]
fn block_on_slope_holds_when_mu_exceeds_tan_slope() {
    let m = 2.0;
    let (a, b) = point_on_slope(m);
    let contact = [FrictionalContact::sticking(0, 1, 0.7)];
    let (f, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
    assert!((f[0] - m * G * SLOPE.cos()).abs() < 1e-12);
    assert!((f[1] - m * G * SLOPE.sin()).abs() < 1e-12);
    assert!(acc.iter().all(|x| x.abs() < 1e-12), "{acc:?}");
}

#[test]
fn block_on_slope_slides_when_mu_is_below_tan_slope() {
    let m = 2.0;
    let (a, b) = point_on_slope(m);
    let contact = [FrictionalContact::sticking(0, 1, 0.3)];
    let (f, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
    assert!((f[0] - m * G * SLOPE.cos()).abs() < 1e-12);
    assert!(
        (f[1] - 0.3 * f[0]).abs() < 1e-12,
        "friction at the limit, uphill"
    );
    let expected = -G * (SLOPE.sin() - 0.3 * SLOPE.cos());
    assert!(
        (acc[1] - expected).abs() < 1e-12,
        "{} vs {expected}",
        acc[1]
    );
    assert!(acc[0].abs() < 1e-12);
}

#[test]
fn block_at_the_friction_limit_holds() {
    let m = 1.0;
    let (a, b) = point_on_slope(m);
    let contact = [FrictionalContact::sticking(0, 1, SLOPE.tan())];
    let (f, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
    assert!((f[1] - m * G * SLOPE.sin()).abs() < 1e-12);
    assert!(acc[1].abs() < 1e-12);
}

#[test]
fn sliding_block_has_dynamic_friction() {
    let m = 2.0;
    let (a, b) = point_on_slope(m);
    let (s, c) = (SLOPE.sin(), SLOPE.cos());
    // Sliding downhill: friction uphill, a = −g (sin − μ cos) (decelerates if μ > tan α).
    for mu in [0.3, 0.7] {
        let contact = [FrictionalContact::sliding(0, 1, mu, [-1.0, 0.0])];
        let (f, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
        assert!((f[1] - mu * m * G * c).abs() < 1e-12);
        assert!((acc[1] + G * (s - mu * c)).abs() < 1e-12);
    }
    // Sliding uphill: friction and gravity both downhill.
    let contact = [FrictionalContact::sliding(0, 1, 0.3, [2.0, 0.0])];
    let (_, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
    assert!((acc[1] + G * (s + 0.3 * c)).abs() < 1e-12);
}

/// Box of 2 × 1 m, 3 kg, on the slope on its two lower corners; coordinates (x, y, θ) in the
/// slope frame; rows per corner: normal, tangent.
fn planar_box() -> (DMatrix<f64>, [f64; 3], [f64; 3]) {
    let m = 3.0;
    let inertia = m * (4.0 + 1.0) / 12.0;
    let mut j = DMatrix::zeros(4, 3);
    for (c, x) in [-1.0, 1.0].into_iter().enumerate() {
        let normal = planar_point_row([0.0, 1.0], [x, -0.5]);
        let tangent = planar_point_row([1.0, 0.0], [x, -0.5]);
        for k in 0..3 {
            j[(2 * c, k)] = normal[k];
            j[(2 * c + 1, k)] = tangent[k];
        }
    }
    let weight = [-m * G * SLOPE.sin(), -m * G * SLOPE.cos(), 0.0];
    (j, [m, m, inertia], weight)
}

#[test]
fn planar_box_on_slope() {
    let (j, masses, weight) = planar_box();
    let (a, b) = contact_problem(&j, &masses, &weight);
    let kinds = [
        RowKind::Unilateral,
        RowKind::Tangent,
        RowKind::Unilateral,
        RowKind::Tangent,
    ];
    let m = masses[0];
    for mu in [0.7, 0.3] {
        let contacts = [
            FrictionalContact::sticking(0, 1, mu),
            FrictionalContact::sticking(2, 1, mu),
        ];
        let (f, _, _) = solve(&a, &b, &kinds, &contacts).unwrap();
        let acc = generalized_acceleration(&j, &masses, &weight, &f);
        let along = if mu > SLOPE.tan() {
            0.0
        } else {
            -G * (SLOPE.sin() - mu * SLOPE.cos())
        };
        assert!((acc[0] - along).abs() < 1e-9, "μ = {mu}: {acc:?}");
        assert!(
            acc[1].abs() < 1e-9 && acc[2].abs() < 1e-9,
            "μ = {mu}: {acc:?}"
        );
        assert!((f[0] + f[2] - m * G * SLOPE.cos()).abs() < 1e-9);
        assert!(f[0] > 0.0 && f[2] > 0.0);
    }
}

/// Box 2 × 1 × 0.5 m, 2 kg, on its four lower corners on a plane; coordinates (v, ω) in the
/// plane's frame (x, y in the plane, z normal); rows per corner: normal z, tangents x, y.
fn spatial_box(gravity: [f64; 3]) -> (DMatrix<f64>, [f64; 6], [f64; 6]) {
    let (m, hx, hy, hz) = (2.0, 1.0, 0.5, 0.25);
    let masses = [
        m,
        m,
        m,
        m * (4.0 * hy * hy + 4.0 * hz * hz) / 12.0,
        m * (4.0 * hx * hx + 4.0 * hz * hz) / 12.0,
        m * (4.0 * hx * hx + 4.0 * hy * hy) / 12.0,
    ];
    let mut j = DMatrix::zeros(12, 6);
    let corners = [[hx, hy], [-hx, hy], [-hx, -hy], [hx, -hy]];
    for (c, corner) in corners.iter().enumerate() {
        let r = [corner[0], corner[1], -hz];
        for (k, dir) in [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
            .into_iter()
            .enumerate()
        {
            let row = spatial_point_row(dir, r);
            for (col, value) in row.iter().enumerate() {
                j[(3 * c + k, col)] = *value;
            }
        }
    }
    let weight = [
        m * gravity[0],
        m * gravity[1],
        m * gravity[2],
        0.0,
        0.0,
        0.0,
    ];
    (j, masses, weight)
}

fn spatial_kinds() -> Vec<RowKind> {
    (0..12)
        .map(|r| {
            if r % 3 == 0 {
                RowKind::Unilateral
            } else {
                RowKind::Tangent
            }
        })
        .collect()
}

#[test]
fn spatial_box_on_slope() {
    let (j, masses, weight) = spatial_box([-G * SLOPE.sin(), 0.0, -G * SLOPE.cos()]);
    let (a, b) = contact_problem(&j, &masses, &weight);
    for mu in [0.7, 0.3] {
        let contacts: Vec<_> = (0..4)
            .map(|c| FrictionalContact::sticking(3 * c, 2, mu))
            .collect();
        let (f, _, _) = solve(&a, &b, &spatial_kinds(), &contacts).unwrap();
        let acc = generalized_acceleration(&j, &masses, &weight, &f);
        let along = if mu > SLOPE.tan() {
            0.0
        } else {
            -G * (SLOPE.sin() - mu * SLOPE.cos())
        };
        assert!((acc[0] - along).abs() < 1e-9, "μ = {mu}: {acc:?}");
        assert!(acc[1..].iter().all(|x| x.abs() < 1e-9), "μ = {mu}: {acc:?}");
        let normal: f64 = (0..4).map(|c| f[3 * c]).sum();
        assert!((normal - masses[0] * G * SLOPE.cos()).abs() < 1e-9);
    }
}

#[test]
fn spatial_box_sliding_diagonally_has_isotropic_friction() {
    // On flat ground, sliding along (1, 1)/√2: deceleration μ g along −(1, 1)/√2, exactly (the
    // dynamic law is isotropic, unlike the sticking polygon).
    let (j, masses, weight) = spatial_box([0.0, 0.0, -G]);
    let (a, b) = contact_problem(&j, &masses, &weight);
    let mu = 0.5;
    let contacts: Vec<_> = (0..4)
        .map(|c| FrictionalContact::sliding(3 * c, 2, mu, [1.0, 1.0]))
        .collect();
    let (f, _, _) = solve(&a, &b, &spatial_kinds(), &contacts).unwrap();
    let acc = generalized_acceleration(&j, &masses, &weight, &f);
    let expected = -mu * G / 2f64.sqrt();
    assert!(
        (acc[0] - expected).abs() < 1e-9 && (acc[1] - expected).abs() < 1e-9,
        "{acc:?}"
    );
    assert!(acc[2..].iter().all(|x| x.abs() < 1e-9), "{acc:?}");
}

#[test]
fn painleve_rod_names_the_contact() {
    // Rod of length 2 m, 1 kg, at 30° with its lower end on the ground right of its centre,
    // sliding in +x. The normal force's effective inverse mass is
    // (1/m)(1 + 3 cos²θ − 3 μ sin θ cos θ): negative for μ = 3, so no force can stop a_n < 0.
    let (m, l, theta) = (1.0, 1.0, SLOPE);
    let r = [l * theta.cos(), -l * theta.sin()];
    let rows = [
        planar_point_row([0.0, 1.0], r),
        planar_point_row([1.0, 0.0], r),
    ];
    let j = DMatrix::from_fn(2, 3, |i, k| rows[i][k]);
    let (a, b) = contact_problem(&j, &[m, m, m * l * l / 3.0], &[0.0, -m * G, 0.0]);
    let contact = [FrictionalContact::sliding(0, 1, 3.0, [1.0, 0.0])];
    let err = solve(&a, &b, &POINT_KINDS, &contact).unwrap_err();
    assert_eq!(
        err,
        ConstraintError::FrictionInfeasible { contact: 0, row: 0 }
    );
    // With μ = 0.3 the effective inverse mass is 1 + 2.25 − 0.39 > 0: a normal force exists.
    let contact = [FrictionalContact::sliding(0, 1, 0.3, [1.0, 0.0])];
    let (f, acc, _) = solve(&a, &b, &POINT_KINDS, &contact).unwrap();
    assert!(f[0] > 0.0 && acc[0].abs() < 1e-12);
    assert!((f[1] + 0.3 * f[0]).abs() < 1e-12);
}

#[test]
fn frictionless_agrees_with_baraff() {
    let mut rng = XorShift::new(99);
    let mut lcp = LcpWorkspace::new(10);
    let mut ws = FrictionWorkspace::new(10);
    for trial in 0..200 {
        let n = 1 + rng.below(10);
        let jm = rng.matrix(n + 2, n);
        let a = jm.transpose() * &jm;
        let b: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let kinds: Vec<_> = (0..n)
            .map(|i| {
                if i % 3 == 2 {
                    RowKind::Bilateral
                } else {
                    RowKind::Unilateral
                }
            })
            .collect();
        let (mut f1, mut f2) = (vec![0.0; n], vec![0.0; n]);
        solve_lcp(a.as_view(), &b, &kinds, &mut lcp, &mut f1).unwrap();
        solve_frictional(a.as_view(), &b, &kinds, &[], &mut ws, &mut f2).unwrap();
        let norm = f1.iter().fold(1e-3, |m: f64, x| m.max(x.abs()));
        for i in 0..n {
            assert!(
                (f1[i] - f2[i]).abs() < 1e-9 * norm,
                "trial {trial} row {i}: {} vs {}",
                f1[i],
                f2[i]
            );
        }
    }
}

#[test]
fn rope_and_friction_share_the_load() {
    // The sliding block (μ = 0.3 < tan 30°) held by a rope along the slope: a bilateral row equal
    // to the tangent row (A singular). Nothing moves; rope and friction together hold m g sin α.
    let m = 2.0;
    let j = DMatrix::from_row_slice(3, 2, &[0.0, 1.0, 1.0, 0.0, 1.0, 0.0]);
    let (a, b) = contact_problem(&j, &[m, m], &[-m * G * SLOPE.sin(), -m * G * SLOPE.cos()]);
    let kinds = [RowKind::Unilateral, RowKind::Tangent, RowKind::Bilateral];
    let (f, acc, _) = solve(&a, &b, &kinds, &[FrictionalContact::sticking(0, 1, 0.3)]).unwrap();
    assert!(acc.iter().all(|x| x.abs() < 1e-12), "{acc:?}");
    assert!((f[0] - m * G * SLOPE.cos()).abs() < 1e-12);
    assert!((f[1] + f[2] - m * G * SLOPE.sin()).abs() < 1e-12);
    assert!(f[1].abs() <= 0.3 * f[0] + 1e-12);
}

#[test]
fn inconsistent_bilateral_rows_are_infeasible() {
    let a = DMatrix::from_element(2, 2, 1.0);
    let err = solve(&a, &[-1.0, -2.0], &[RowKind::Bilateral; 2], &[]).unwrap_err();
    assert!(matches!(err, ConstraintError::Infeasible { .. }), "{err:?}");
}

#[test]
fn layout_errors() {
    let a = DMatrix::<f64>::identity(3, 3);
    let b = [-1.0; 3];
    let kinds = [RowKind::Unilateral, RowKind::Tangent, RowKind::Tangent];
    let stray = solve(&a, &b, &kinds, &[FrictionalContact::sticking(0, 1, 0.5)]);
    assert!(matches!(stray, Err(ConstraintError::BadRow { row: 2, .. })));
    let wrong = solve(&a, &b, &kinds, &[FrictionalContact::sticking(1, 1, 0.5)]);
    assert!(matches!(wrong, Err(ConstraintError::BadRow { row: 1, .. })));
    let mu = solve(&a, &b, &kinds, &[FrictionalContact::sticking(0, 2, -0.1)]);
    assert!(matches!(
        mu,
        Err(ConstraintError::BadContact { contact: 0, .. })
    ));
    let still = solve(
        &a,
        &b,
        &kinds,
        &[FrictionalContact::sliding(0, 2, 0.5, [0.0, 0.0])],
    );
    assert!(matches!(
        still,
        Err(ConstraintError::BadContact { contact: 0, .. })
    ));
}

#[test]
fn workspace_buffers_do_not_grow() {
    let (j, masses, weight) = spatial_box([-G * SLOPE.sin(), 0.0, -G * SLOPE.cos()]);
    let (a, b) = contact_problem(&j, &masses, &weight);
    let mut ws = FrictionWorkspace::new(12);
    let before = ws.buffer_capacities();
    let mut f = [0.0; 12];
    for contacts in [1, 4, 2] {
        let n = 3 * contacts;
        let list: Vec<_> = (0..contacts)
            .map(|c| FrictionalContact::sticking(3 * c, 2, 0.3))
            .collect();
        let view = a.view((0, 0), (n, n));
        solve_frictional(
            view,
            &b[..n],
            &spatial_kinds()[..n],
            &list,
            &mut ws,
            &mut f[..n],
        )
        .unwrap();
        assert_eq!(ws.buffer_capacities(), before);
    }
}

/// Coulomb's conditions for planar contacts, within `tol` on accelerations, `tol_f` on forces.
fn check_planar_coulomb(
    acc: &[f64],
    f: &[f64],
    mu: &[f64],
    slide: &[Option<f64>],
    tol: f64,
    tol_f: f64,
) -> Result<(), String> {
    for (c, &mu_c) in mu.iter().enumerate() {
        let (fnc, ftc, anc, atc) = (f[2 * c], f[2 * c + 1], acc[2 * c], acc[2 * c + 1]);
        let inside = ftc.abs() < mu_c * fnc - tol_f;
        let normal_ok = fnc >= -tol_f && anc >= -tol && (fnc <= tol_f || anc.abs() <= tol);
        let friction_ok = match slide[c] {
            Some(sign) => (ftc + mu_c * fnc * sign).abs() <= tol_f,
            None => {
                ftc.abs() <= mu_c * fnc + tol_f
                    && (!inside || atc.abs() <= tol)
                    && ftc * atc <= tol * tol_f.max(ftc.abs())
            }
        };
        if !(normal_ok && friction_ok) {
            return Err(format!(
                "contact {c}: f = ({fnc:e}, {ftc:e}), a = ({anc:e}, {atc:e}), μ = {mu_c}"
            ));
        }
    }
    Ok(())
}

/// Random planar problems: up to three contacts on random bodies (A = J Jᵀ, J of 2c × dofs),
/// μ uniform in [0, 1.2], `b = J·(force)` or arbitrary, each contact sliding (either way) with
/// probability `sliding`. Panics if a returned solution violates Coulomb's conditions (10⁻⁸ of
/// the problem's scale) or an error is not `FrictionInfeasible`.
fn random_planar_trials(seed: u64, trials: usize, sliding: f64) -> Counts {
    let mut rng = XorShift::new(seed);
    let mut counts = Counts::default();
    for trial in 0..trials {
        let contacts = 1 + rng.below(3);
        let dofs = 1 + rng.below(6);
        let jm = rng.matrix(2 * contacts, dofs);
        let a = &jm * jm.transpose();
        let b: Vec<f64> = if trial % 2 == 0 {
            (&jm * rng.matrix(dofs, 1)).iter().copied().collect()
        } else {
            (0..2 * contacts).map(|_| rng.uniform(-1.0, 1.0)).collect()
        };
        let slide: Vec<Option<f64>> = (0..contacts)
            .map(|_| {
                (rng.uniform(0.0, 1.0) < sliding)
                    .then(|| if rng.below(2) == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let mu: Vec<f64> = (0..contacts).map(|_| rng.uniform(0.0, 1.2)).collect();
        let kinds: Vec<_> = (0..2 * contacts)
            .map(|r| {
                if r % 2 == 0 {
                    RowKind::Unilateral
                } else {
                    RowKind::Tangent
                }
            })
            .collect();
        let list: Vec<_> = (0..contacts)
            .map(|k| match slide[k] {
                Some(sign) => FrictionalContact::sliding(2 * k, 1, mu[k], [sign * 0.7, 0.0]),
                None => FrictionalContact::sticking(2 * k, 1, mu[k]),
            })
            .collect();
        match solve(&a, &b, &kinds, &list) {
            Ok((f, acc, _)) => {
                counts.solved += 1;
                let scale = acceleration_scale(&a, &b, &f).max(1e-12);
                let a_max = (0..a.nrows()).map(|i| a[(i, i)]).fold(1e-12, f64::max);
                check_planar_coulomb(&acc, &f, &mu, &slide, 1e-8 * scale, 1e-8 * scale / a_max)
                    .unwrap_or_else(|e| panic!("trial {trial}: {e}"));
            }
            Err(ConstraintError::FrictionInfeasible { .. }) => {
                let (m, q) = planar_lcp(&a, &b, &mu, &slide);
                match (brute_force_general_lcp(&m, &q, 1e-9), trial % 2 == 0) {
                    (Some(_), true) => counts.missed_physical += 1,
                    (Some(_), false) => counts.missed_arbitrary += 1,
                    (None, _) => counts.unsolvable += 1,
                }
            }
            Err(e) => panic!("trial {trial}: {e}"),
        }
    }
    counts
}

/// Outcomes of random frictional problems.
#[derive(Debug, Default)]
struct Counts {
    /// Solved (and checked).
    solved: usize,
    /// Reported without solution, and brute force over all complementary bases found none.
    unsolvable: usize,
    /// Reported without solution although one exists, with `b = J·(force)`.
    missed_physical: usize,
    /// Reported without solution although one exists, with an arbitrary `b`.
    missed_arbitrary: usize,
}

#[test]
fn random_sticking_friction_against_brute_force() {
    // Sticking contacts only, b = J·(force) or arbitrary. Lemke's method alone could end on a
    // ray although a solution exists (M is copositive but not copositive-plus: 11 in 15 000
    // arbitrary-b problems); the fallbacks (graded covering vector, enumeration) leave none.
    let counts = random_planar_trials(2024, 3000, 0.0);
    assert_eq!(counts.missed_physical, 0, "{counts:?}");
    assert_eq!(counts.missed_arbitrary, 0, "{counts:?}");
    assert!(counts.solved > 2500 && counts.unsolvable > 50, "{counts:?}");
}

#[test]
fn random_sliding_friction_against_brute_force() {
    // Half the contacts sliding: the matrix is not copositive and Lemke's method alone misses an
    // existing solution in about 0.8 % of these adversarial random geometries; with the
    // enumeration fallback (at most 12 variables here) none is missed.
    let counts = random_planar_trials(7, 3000, 0.5);
    assert_eq!(
        counts.missed_physical + counts.missed_arbitrary,
        0,
        "{counts:?}"
    );
    assert!(counts.solved > 2500 && counts.unsolvable > 50, "{counts:?}");
}

#[test]
fn random_spatial_sticking_friction() {
    // Up to three spatial contacts (normal, t₁, t₂) on random bodies, b = J·(force), k = 8
    // directions. Checked: a_n ≥ 0 ⊥ f_n ≥ 0; |f_t| ≤ μ f_n; f_t·a_t ≤ 0 (friction opposes the
    // onset of sliding); a_t = 0 when f_t is strictly inside the polygon's inscribed circle
    // (|f_t| < μ f_n cos(π/8)). Tolerances 10⁻⁸ of the problem's scale.
    let mut rng = XorShift::new(31);
    let mut solved = 0;
    for trial in 0..500 {
        let contacts = 1 + rng.below(3);
        let dofs = 1 + rng.below(9);
        let jm = rng.matrix(3 * contacts, dofs);
        let a = &jm * jm.transpose();
        let b: Vec<f64> = (&jm * rng.matrix(dofs, 1)).iter().copied().collect();
        let mu: Vec<f64> = (0..contacts).map(|_| rng.uniform(0.0, 1.2)).collect();
        let kinds = &spatial_kinds()[..3 * contacts];
        let list: Vec<_> = (0..contacts)
            .map(|c| FrictionalContact::sticking(3 * c, 2, mu[c]))
            .collect();
        let Ok((f, acc, _)) = solve(&a, &b, kinds, &list) else {
            continue;
        };
        solved += 1;
        let tol = 1e-8 * acceleration_scale(&a, &b, &f).max(1e-12);
        let tol_f = tol / (0..a.nrows()).map(|i| a[(i, i)]).fold(1e-12, f64::max);
        for c in 0..contacts {
            let (fnc, anc) = (f[3 * c], acc[3 * c]);
            let (ft, at) = (
                [f[3 * c + 1], f[3 * c + 2]],
                [acc[3 * c + 1], acc[3 * c + 2]],
            );
            let ft_norm = ft[0].hypot(ft[1]);
            let at_norm = at[0].hypot(at[1]);
            assert!(
                fnc >= -tol_f && anc >= -tol && (fnc <= tol_f || anc.abs() <= tol),
                "trial {trial}"
            );
            assert!(ft_norm <= mu[c] * fnc + tol_f, "trial {trial} contact {c}");
            assert!(
                ft[0] * at[0] + ft[1] * at[1] <= tol * tol_f.max(ft_norm),
                "trial {trial}"
            );
            let inside = ft_norm < mu[c] * fnc * (std::f64::consts::PI / 8.0).cos() - tol_f;
            assert!(
                !inside || at_norm <= tol,
                "trial {trial} contact {c}: a_t = {at:?}"
            );
        }
    }
    assert!(solved >= 495, "{solved} of 500 solved");
}
