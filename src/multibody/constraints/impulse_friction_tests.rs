//! Frictional impacts against closed forms: a spinning sphere hitting a plane obliquely (sticking
//! and sliding, Stronge, *Impact Mechanics*, §4 / Brach), a thin rod landing on its end (e = 0,
//! sticking and sliding, from impulse–momentum), and seeded random impacts that never gain energy.

use super::*;
use crate::multibody::constraints::impulse::solve_impulses;
use crate::multibody::constraints::lcp::LcpWorkspace;
use crate::multibody::constraints::testutil::XorShift;
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

/// One body, generalized velocity `u` (nv), mass matrix `mass`, rows `j` (n × nv): the impulse
/// problem's `A`, `v⁻`, and the solution of [`solve_frictional_impulses`] as `(p, v⁺, u⁺)`.
struct Impact {
    p: Vec<f64>,
    v_plus: Vec<f64>,
    u_plus: DVector<f64>,
    outcome: ImpactOutcome,
}

fn impact(
    mass: &DMatrix<f64>,
    j: &DMatrix<f64>,
    u: &DVector<f64>,
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
    e: f64,
) -> Impact {
    let m_inv = mass.clone().try_inverse().unwrap();
    let a = j * &m_inv * j.transpose();
    let v_minus: Vec<f64> = (j * u).iter().copied().collect();
    let n = v_minus.len();
    let mut ws = ImpulseWorkspace::new(n);
    let (mut p, mut v_plus) = (vec![0.0; n], vec![0.0; n]);
    let outcome = solve_frictional_impulses(
        a.as_view(),
        &v_minus,
        &vec![e; n],
        kinds,
        contacts,
        &mut ws,
        &mut p,
        &mut v_plus,
    )
    .unwrap();
    let u_plus = u + &m_inv * j.transpose() * DVector::from_column_slice(&p);
    // v⁺ from the solver is J u⁺ (to round-off).
    let check = j * &u_plus;
    for i in 0..n {
        assert!((check[i] - v_plus[i]).abs() < 1e-12 * (1.0 + check.amax()));
    }
    Impact {
        p,
        v_plus,
        u_plus,
        outcome,
    }
}

fn kinetic(mass: &DMatrix<f64>, u: &DVector<f64>) -> f64 {
    0.5 * u.dot(&(mass * u))
}

/// A solid sphere (m, R) on the plane z = 0: coordinates (v, ω) (World), rows the normal z and
/// the tangents x, y at the contact point r = (0, 0, −R): `n·(v + ω × r)` etc.
fn sphere(m: f64, radius: f64) -> (DMatrix<f64>, DMatrix<f64>) {
    let i = 0.4 * m * radius * radius;
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, m, i, i, i]));
    let r = Vector3::new(0.0, 0.0, -radius);
    let mut j = DMatrix::zeros(3, 6);
    for (row, d) in [Vector3::z(), Vector3::x(), Vector3::y()]
        .iter()
        .enumerate()
    {
        let w = r.cross(d);
        for k in 0..3 {
            j[(row, k)] = d[k];
            j[(row, 3 + k)] = w[k];
        }
    }
    (mass, j)
}

const SPHERE_ROWS: [RowKind; 3] = [RowKind::Unilateral, RowKind::Tangent, RowKind::Tangent];

/// The closed form (Stronge §4.2, Brach): with incoming normal speed v_n, slip s (the contact
/// point's tangential velocity, s = v_t + ω × r), P_n = m(1 + e)v_n; the slip stops
/// (P_t = −(2/7) m s) when |s| ≤ (7/2) μ (1 + e) v_n, else P_t = −μ P_n ŝ and the slip keeps its
/// direction. Both phases (and Poisson's law) agree with this since the sphere's normal and tangential rows
/// are uncoupled. Tolerance 1e-12 relative: pivoting is exact to round-off. The slip directions
/// tested lie on the friction polygon's vertices (0°, 45°, 180°, 225° of the 8 directions), where
/// the polygon equals the circle; sticking cases hold at any angle (30°).
#[test]
fn oblique_spinning_sphere_matches_the_sticking_and_sliding_closed_forms() {
    let (m, radius, v_n) = (0.5, 0.1, 3.0);
    let (mass, j) = sphere(m, radius);
    // (e, μ, slip speed, slip angle in degrees)
    let cases = [
        (0.0, 0.3, 1.0, 0.0),   // sticking: 1 ≤ 3.15
        (0.8, 0.3, 5.0, 45.0),  // sticking: 5 ≤ 5.67
        (0.8, 0.3, 5.0, 30.0),  // sticking at an angle between vertices
        (0.5, 0.2, 4.0, 180.0), // sliding: 4 > 3.15
        (0.0, 0.1, 2.0, 225.0), // sliding: 2 > 1.05
        (1.0, 0.25, 4.0, 0.0),  // sliding: 4 > 3.5
    ];
    for (e, mu, speed, deg) in cases {
        let angle = f64::to_radians(deg);
        let s = Vector3::new(speed * angle.cos(), speed * angle.sin(), 0.0);
        // Split the slip between translation and backspin: v_t = 0.4 s, ω × r = 0.6 s with
        // ω × (0, 0, −R) = (−R ω_y, R ω_x, 0).
        let omega = Vector3::new(0.6 * s.y / radius, -0.6 * s.x / radius, 0.0);
        let u = DVector::from_vec(vec![0.4 * s.x, 0.4 * s.y, -v_n, omega.x, omega.y, omega.z]);
        let contacts = [FrictionalContact::sticking(0, 2, mu)];
        let r = impact(&mass, &j, &u, &SPHERE_ROWS, &contacts, e);
        let p_n = m * (1.0 + e) * v_n;
        let sticks = speed <= 3.5 * mu * (1.0 + e) * v_n;
        let p_t = if sticks {
            -2.0 / 7.0 * m * s
        } else {
            -mu * p_n * s / speed
        };
        let slip_after = s + 3.5 / m * p_t;
        let tol = 1e-12 * p_n;
        assert!(
            (r.p[0] - p_n).abs() < tol,
            "{deg}°: P_n {} vs {p_n}",
            r.p[0]
        );
        assert!((r.p[1] - p_t.x).abs() < tol && (r.p[2] - p_t.y).abs() < tol);
        assert!((r.v_plus[0] - e * v_n).abs() < 1e-12 * v_n);
        assert!((r.v_plus[1] - slip_after.x).abs() < 1e-12 * speed);
        assert!((r.v_plus[2] - slip_after.y).abs() < 1e-12 * speed);
        assert_eq!(r.outcome.restitution_scale, 1.0, "no energy cap needed");
        assert!(kinetic(&mass, &r.u_plus) <= kinetic(&mass, &u));
    }
}

/// "Reverse spin": a ball moving forward (+x) with backspin (ω about −y, R|ω| > v_t) comes back
/// when it sticks. With r = (0, 0, −R), ω × r = (−R ω_y, R ω_x, 0), so the slip is
/// s = v_t − R ω_y and the sticking closed form above gives v_t⁺ = v_t − (2/7) s
/// = (5 v_t + 2 R ω_y)/7 < 0. Tolerance 1e-12 m/s (round-off).
#[test]
fn a_ball_with_backspin_bounces_back() {
    let (m, radius) = (0.05, 0.03);
    let (mass, j) = sphere(m, radius);
    let (v_t, omega_y, v_n, e, mu) = (1.0, -150.0, 4.0, 0.7, 0.8);
    let u = DVector::from_vec(vec![v_t, 0.0, -v_n, 0.0, omega_y, 0.0]);
    let r = impact(
        &mass,
        &j,
        &u,
        &SPHERE_ROWS,
        &[FrictionalContact::sticking(0, 2, mu)],
        e,
    );
    // s = 1 + 4.5 = 5.5 ≤ (7/2) μ (1 + e) v_n = 19.04: it sticks.
    let slip = v_t - radius * omega_y;
    assert!(slip <= 3.5 * mu * (1.0 + e) * v_n);
    let expected = (5.0 * v_t + 2.0 * radius * omega_y) / 7.0;
    assert!(expected < 0.0);
    assert!((r.u_plus[0] - expected).abs() < 1e-12, "{}", r.u_plus[0]);
    assert!((r.u_plus[2] - e * v_n).abs() < 1e-12);
}

/// A thin rod (m, L, I = mL²/12, tilted θ above the horizontal) falls at speed v without spin
/// and lands on its lower end, r = −(L/2)(cos θ, sin θ) from the centre. Planar rows (x, y, ω):
/// normal `v_y + ω r_x`, tangent `v_x − ω r_y`, so with c = cos θ, s = sin θ
/// `A = (1/m) [[1 + 3c², −3sc], [−3sc, 1 + 3s²]]`, det = 4/m². For e = 0:
/// - sticking (μ ≥ 3sc/(1 + 3s²)): `p = −A⁻¹ v⁻` = (m v/4)·(1 + 3s², 3sc);
/// - sliding (the end slides towards −x): `p_t = μ p_n`, `p_n = m v/(1 + 3c² − 3μ sc)`.
///
/// Then ω⁺ = (r_x p_n − r_y p_t)/I. Tolerance 1e-12 relative (exact pivoting, planar cone exact).
#[test]
fn a_rod_landing_on_its_end_matches_impulse_momentum() {
    let (m, len, v) = (2.0, 1.0, 3.0);
    let i = m * len * len / 12.0;
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, i]));
    let theta = f64::to_radians(50.0);
    let (s, c) = theta.sin_cos();
    let (rx, ry) = (-0.5 * len * c, -0.5 * len * s);
    let j = DMatrix::from_row_slice(2, 3, &[0.0, 1.0, rx, 1.0, 0.0, -ry]);
    let u = DVector::from_vec(vec![0.0, -v, 0.0]);
    let kinds = [RowKind::Unilateral, RowKind::Tangent];
    let threshold = 3.0 * s * c / (1.0 + 3.0 * s * s);
    for mu in [0.6, 0.2, 0.05] {
        let r = impact(
            &mass,
            &j,
            &u,
            &kinds,
            &[FrictionalContact::sticking(0, 1, mu)],
            0.0,
        );
        let (p_n, p_t) = if mu >= threshold {
            (m * v / 4.0 * (1.0 + 3.0 * s * s), m * v / 4.0 * 3.0 * s * c)
        } else {
            let p_n = m * v / (1.0 + 3.0 * c * c - 3.0 * mu * s * c);
            (p_n, mu * p_n)
        };
        let omega = (rx * p_n - ry * p_t) / i;
        let tol = 1e-12 * m * v;
        assert!(
            (r.p[0] - p_n).abs() < tol,
            "μ {mu}: p_n {} vs {p_n}",
            r.p[0]
        );
        assert!(
            (r.p[1] - p_t).abs() < tol,
            "μ {mu}: p_t {} vs {p_t}",
            r.p[1]
        );
        assert!((r.u_plus[2] - omega).abs() < 1e-12 * omega.abs());
        assert!(r.v_plus[0].abs() < 1e-12 * v, "the end stops");
        if mu >= threshold {
            assert!(r.v_plus[1].abs() < 1e-12 * v, "and sticks");
        } else {
            assert!(r.v_plus[1] < 0.0, "or keeps sliding towards −x");
        }
    }
}

/// Without friction, for one contact point, the two phases give Newton's single problem: the same impulse as
/// [`solve_impulses`] (1e-13 relative).
#[test]
fn without_friction_a_single_point_agrees_with_newton() {
    let (mass, j) = sphere(1.5, 0.2);
    let u = DVector::from_vec(vec![0.3, -0.2, -2.0, 1.0, 2.0, 3.0]);
    let r = impact(
        &mass,
        &j,
        &u,
        &SPHERE_ROWS,
        &[FrictionalContact::sticking(0, 2, 0.0)],
        0.6,
    );
    let m_inv = mass.clone().try_inverse().unwrap();
    let jn = j.rows(0, 1).into_owned();
    let a = &jn * m_inv * jn.transpose();
    let mut ws = LcpWorkspace::new(1);
    let (mut p, mut v_plus) = ([0.0], [0.0]);
    let v_n = (jn * &u)[0];
    solve_impulses(
        a.as_view(),
        &[v_n],
        &[0.6],
        &[RowKind::Unilateral],
        &mut ws,
        &mut p,
        &mut v_plus,
    )
    .unwrap();
    assert!((r.p[0] - p[0]).abs() < 1e-13 * p[0]);
    assert_eq!((r.p[1], r.p[2]), (0.0, 0.0));
}

/// A random rigid body (mass 0.5–5 kg, principal moments 0.01–1 kg·m² in a random frame) hitting
/// fixed ground with one to three contact points at random offsets (0.05–0.5 m) with random
/// normals within 40° of vertical, a random velocity and spin, e in [0, 1], μ in [0, 1.5].
/// Kinetic energy after ≤ before (1e-12 relative: the round-off of ½uᵀMu), the normal velocities
/// end non-negative and the friction impulses inside the cone (the polygon inscribes the circle;
/// 1e-9 relative plus 1e-12 of the momentum scale m·max|u| for a point without impulse).
#[test]
fn random_oblique_impacts_never_gain_energy() {
    let mut rng = XorShift::new(0x1337_2727);
    let (mut capped, mut total) = (0, 0);
    for _ in 0..2000 {
        let m = rng.uniform(0.5, 5.0);
        let rot = nalgebra::Rotation3::from_scaled_axis(Vector3::new(
            rng.uniform(-3.0, 3.0),
            rng.uniform(-3.0, 3.0),
            rng.uniform(-3.0, 3.0),
        ));
        let principal = Matrix3::from_diagonal(&Vector3::new(
            rng.uniform(0.01, 1.0),
            rng.uniform(0.01, 1.0),
            rng.uniform(0.01, 1.0),
        ));
        let inertia = rot.matrix() * principal * rot.matrix().transpose();
        let mut mass = DMatrix::zeros(6, 6);
        for k in 0..3 {
            mass[(k, k)] = m;
            for l in 0..3 {
                mass[(3 + k, 3 + l)] = inertia[(k, l)];
            }
        }
        let points = 1 + rng.below(3);
        let mut j = DMatrix::zeros(3 * points, 6);
        let mut kinds = Vec::new();
        let mut contacts = Vec::new();
        for c in 0..points {
            let offset = Vector3::new(
                rng.uniform(-0.5, 0.5),
                rng.uniform(-0.5, 0.5),
                -rng.uniform(0.05, 0.5),
            );
            let tilt = rng.uniform(0.0, 40f64.to_radians());
            let azimuth = rng.uniform(0.0, std::f64::consts::TAU);
            let n = Vector3::new(
                tilt.sin() * azimuth.cos(),
                tilt.sin() * azimuth.sin(),
                tilt.cos(),
            );
            let t1 = n.cross(&Vector3::x()).normalize();
            let t2 = n.cross(&t1);
            for (k, d) in [n, t1, t2].iter().enumerate() {
                let w = offset.cross(d);
                for l in 0..3 {
                    j[(3 * c + k, l)] = d[l];
                    j[(3 * c + k, 3 + l)] = w[l];
                }
            }
            kinds.extend([RowKind::Unilateral, RowKind::Tangent, RowKind::Tangent]);
            contacts.push(FrictionalContact::sticking(3 * c, 2, rng.uniform(0.0, 1.5)));
        }
        let u = DVector::from_fn(6, |k, _| {
            if k == 2 {
                rng.uniform(-5.0, -0.5)
            } else {
                rng.uniform(-3.0, 3.0)
            }
        });
        let e = rng.uniform(0.0, 1.0);
        let r = impact(&mass, &j, &u, &kinds, &contacts, e);
        let (before, after) = (kinetic(&mass, &u), kinetic(&mass, &r.u_plus));
        assert!(after <= before * (1.0 + 1e-12), "{after} > {before}");
        assert!(r.outcome.compression_energy <= 1e-12 * before);
        let scale = r.v_plus.iter().fold(u.amax(), |s, x| s.max(x.abs()));
        for (c, contact) in contacts.iter().enumerate() {
            let k = 3 * c;
            assert!(r.v_plus[k] >= -1e-9 * scale, "v_n⁺ = {}", r.v_plus[k]);
            let p_t = r.p[k + 1].hypot(r.p[k + 2]);
            assert!(
                p_t <= contact.mu * r.p[k] * (1.0 + 1e-9) + 1e-12 * m * u.amax(),
                "contact {c} of {points}: |p_t| = {p_t}, μ p_n = {}, p = {:?}, outcome {:?}",
                contact.mu * r.p[k],
                r.p,
                r.outcome
            );
        }
        total += 1;
        capped += usize::from(r.outcome.restitution_scale < 1.0);
    }
    // The cap is the exception (it was needed in some of these cases, not in most), and it is
    // exercised: without it these energy checks would not test it.
    assert!(capped < total / 2, "{capped} of {total} capped");
    assert!(
        capped > 0,
        "the energy cap never applied in {total} impacts"
    );
}
