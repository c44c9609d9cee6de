//! The reference of the frictional-solver corpus (`lcp_corpus.rs`): the polyhedral-cone problem
//! `w = M z + q` written from `friction.rs`'s documented formulation (not from the solver's
//! code), a brute force over its complementary index sets, and a direct check of Coulomb's
//! conditions on a returned solution. Test code: it allocates freely.

use crate::lcp_corpus::{Problem, DIRECTIONS};
use blockdyn::multibody::constraints::{ContactMotion, FrictionalContact, RowKind};
use nalgebra::{DMatrix, DVector};

/// A variable of the reference problem: its force on the rows, the rows it measures, and the
/// structural terms of its role.
struct Var {
    force: DVector<f64>,
    measure: DVector<f64>,
    /// 0: a normal force, 1: a direction multiplier β, 2: the slack λ.
    role: u8,
    contact: usize,
}

/// Whether row `r` belongs to a contact.
fn owned(p: &Problem, r: usize) -> bool {
    p.contacts
        .iter()
        .any(|c| (c.normal_row..=c.normal_row + c.tangent_rows).contains(&r))
}

/// The unit vector of row `r` among `n`.
fn unit(n: usize, r: usize) -> DVector<f64> {
    DVector::from_fn(n, |i, _| if i == r { 1.0 } else { 0.0 })
}

/// The variables of contact `c`: its normal force (with the sliding friction folded in), and if
/// sticking with friction its direction multipliers β_j (unit directions at 2πj/k) and slack λ.
fn contact_variables(n: usize, c: usize, ct: &FrictionalContact, vars: &mut Vec<Var>) {
    let (r, t) = (ct.normal_row, ct.tangent_rows);
    let var = |force, measure, role| Var {
        force,
        measure,
        role,
        contact: c,
    };
    let mut force = unit(n, r);
    match ct.motion {
        _ if ct.mu == 0.0 || t == 0 => {}
        ContactMotion::Sliding { velocity } => {
            let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
            for k in 0..t {
                force[r + 1 + k] = -ct.mu * velocity[k] / speed;
            }
        }
        ContactMotion::Sticking => {
            vars.push(var(unit(n, r), unit(n, r), 0));
            let k = if t == 1 { 2 } else { DIRECTIONS };
            for j in 0..k {
                let angle = std::f64::consts::TAU * j as f64 / k as f64;
                let mut d = DVector::zeros(n);
                d[r + 1] = angle.cos();
                if t == 2 {
                    d[r + 2] = angle.sin();
                }
                vars.push(var(d.clone(), d, 1));
            }
            vars.push(var(DVector::zeros(n), DVector::zeros(n), 2));
            return;
        }
    }
    vars.push(var(force, unit(n, r), 0));
}

/// The polyhedral-cone problem `(M, q)` of `p` (friction.rs, "The formulation"): `M_ij` is the
/// measure of variable i times `A` times the force of variable j, plus within a contact
/// `M_βλ = 1`, `M_λf = μ`, `M_λβ = −1`; `q_i` the measure of i times `b`.
pub fn reference_lcp(p: &Problem) -> (DMatrix<f64>, DVector<f64>) {
    let n = p.b.len();
    let mut vars = Vec::new();
    for r in (0..n).filter(|&r| p.kinds[r] == RowKind::Unilateral && !owned(p, r)) {
        vars.push(Var {
            force: unit(n, r),
            measure: unit(n, r),
            role: 0,
            contact: usize::MAX,
        });
    }
    for (c, ct) in p.contacts.iter().enumerate() {
        contact_variables(n, c, ct, &mut vars);
    }
    let nv = vars.len();
    let b = DVector::from_column_slice(&p.b);
    let mut m = DMatrix::zeros(nv, nv);
    for (i, vi) in vars.iter().enumerate() {
        for (j, vj) in vars.iter().enumerate() {
            m[(i, j)] = vi.measure.dot(&(&p.a * &vj.force));
            if vi.contact == vj.contact {
                m[(i, j)] += match (vi.role, vj.role) {
                    (1, 2) => 1.0,
                    (2, 0) => p.contacts[vi.contact].mu,
                    (2, 1) => -1.0,
                    _ => 0.0,
                };
            }
        }
    }
    let q = DVector::from_fn(nv, |i, _| vars[i].measure.dot(&b));
    (m, q)
}

/// `z_α` solving `M_αα z_α = −q_α`, or `None` when `M_αα` is numerically singular (condition
/// number above 10¹⁰: such a "solution" is rounding amplified, which a tolerance relative to
/// `‖z‖` would accept).
fn principal_solution(m: &DMatrix<f64>, q: &DVector<f64>, alpha: &[usize]) -> Option<DVector<f64>> {
    if alpha.is_empty() {
        return Some(DVector::zeros(0));
    }
    let sub = DMatrix::from_fn(alpha.len(), alpha.len(), |r, c| m[(alpha[r], alpha[c])]);
    let rhs = DVector::from_fn(alpha.len(), |r, _| -q[alpha[r]]);
    let sigma = sub.clone().svd(false, false).singular_values;
    let (lo, hi) = sigma
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    if lo <= 1e-10 * hi {
        return None;
    }
    sub.lu().solve(&rhs)
}

/// Whether some complementary index set with a non-singular `M_αα` (condition number at most
/// 10¹⁰) solves `p`'s problem within 10⁻⁹ of its scale (`max(‖q‖∞, max|M|·‖z‖∞)`): every one of
/// the `2ⁿ` sets is tried. `None` when it has more than 16 variables.
pub fn brute_force(p: &Problem) -> Option<bool> {
    let (m, q) = reference_lcp(p);
    let nv = q.len();
    if nv > 16 {
        return None;
    }
    let m_max = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let q_max = q.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    for set in 0u32..(1 << nv) {
        let alpha: Vec<usize> = (0..nv).filter(|&i| set & (1 << i) != 0).collect();
        let Some(sol) = principal_solution(&m, &q, &alpha) else {
            continue;
        };
        let mut z = DVector::zeros(nv);
        for (k, &i) in alpha.iter().enumerate() {
            z[i] = sol[k];
        }
        let w = &m * &z + &q;
        let z_max = z.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let tol = 1e-9 * q_max.max(m_max * z_max).max(1e-300);
        let basic = |i: usize| set & (1 << i) != 0;
        if (0..nv).all(|i| z[i] >= -tol && w[i] >= -tol && (!basic(i) || w[i].abs() <= tol)) {
            return Some(true);
        }
    }
    Some(false)
}

/// Tolerances of [`check_coulomb`]: on accelerations and on forces.
#[derive(Clone, Copy)]
struct Tolerance {
    a: f64,
    f: f64,
}

/// The friction of a sticking contact (static Coulomb over the polygon of `k` directions):
/// inside the polygon; no tangential acceleration strictly inside; and maximal dissipation,
/// `−a_t·f_t ≥ μ f_n max_j(−a_t·d_j)`, so friction opposes the onset of sliding.
fn check_sticking(
    mu: f64,
    fn_: f64,
    ft: &[f64],
    at: &[f64],
    tol: Tolerance,
) -> Result<(), &'static str> {
    let t = ft.len();
    let k = if t == 1 { 2 } else { DIRECTIONS };
    let dir = |j: usize, offset: f64| {
        let angle = std::f64::consts::PI * (2.0 * j as f64 + offset) / k as f64;
        [angle.cos(), if t == 2 { angle.sin() } else { 0.0 }]
    };
    let dot = |u: [f64; 2], v: &[f64]| u[0] * v[0] + if t == 2 { u[1] * v[1] } else { 0.0 };
    let ft_norm = ft.iter().map(|x| x * x).sum::<f64>().sqrt();
    // Inside the polygon: below every edge (edge normals at odd multiples of π/k).
    let edge = mu * fn_ * (std::f64::consts::PI / k as f64).cos();
    let slack = (0..k)
        .map(|j| edge - dot(dir(j, 1.0), ft))
        .fold(f64::INFINITY, f64::min);
    if t == 1 && ft_norm > mu * fn_ + tol.f || t == 2 && slack < -tol.f {
        return Err("outside the cone");
    }
    let at_norm = at.iter().map(|x| x * x).sum::<f64>().sqrt();
    let inside = if t == 1 {
        ft_norm < mu * fn_ - tol.f
    } else {
        slack > tol.f
    };
    if inside && at_norm > tol.a {
        return Err("sliding inside the cone");
    }
    let best = (0..k)
        .map(|j| -dot(dir(j, 0.0), at))
        .fold(f64::NEG_INFINITY, f64::max);
    let dissipated = -dot([ft[0], if t == 2 { ft[1] } else { 0.0 }], at);
    // Each side is a product of a force and an acceleration: its rounding is the force's
    // tolerance times the accelerations plus the acceleration's times the forces (a contact at
    // f_n ≈ 10⁻¹⁶, a tie, has μ f_n·best at rounding level whatever the tangential acceleration).
    let rounding = tol.a * (mu * fn_).max(tol.f) + mu * tol.f * at_norm;
    if dissipated < mu * fn_ * best - rounding {
        return Err("friction not opposing the slip");
    }
    Ok(())
}

/// The friction conditions of contact `ct` with normal force `fn_`, tangential force `ft` and
/// acceleration `at`.
fn check_friction(
    ct: &FrictionalContact,
    fn_: f64,
    ft: &[f64],
    at: &[f64],
    tol: Tolerance,
) -> Result<(), &'static str> {
    let t = ct.tangent_rows;
    let ft_norm = ft.iter().map(|x| x * x).sum::<f64>().sqrt();
    match ct.motion {
        _ if ct.mu == 0.0 || t == 0 => {
            if ft_norm > tol.f {
                return Err("friction without friction");
            }
            Ok(())
        }
        ContactMotion::Sliding { velocity } => {
            let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
            if (0..t).any(|k| (ft[k] + ct.mu * fn_ * velocity[k] / speed).abs() > tol.f) {
                return Err("sliding friction");
            }
            Ok(())
        }
        ContactMotion::Sticking => check_sticking(ct.mu, fn_, ft, at, tol),
    }
}

/// Checks Coulomb's conditions on the solver's forces `f` and accelerations `acc`, directly:
/// accelerations within `10⁻⁸·scale`, forces within that over `max A_ii` (the solver's own
/// acceptance is 10⁻⁸ of the scaled problem; this allows for the unscaling). Returns the first
/// violation.
pub fn check_coulomb(p: &Problem, f: &[f64], acc: &[f64]) -> Result<(), String> {
    let a_tol = 1e-8 * p.scale(f);
    let a_max = (0..p.b.len()).map(|i| p.a[(i, i)]).fold(1e-300, f64::max);
    let tol = Tolerance {
        a: a_tol,
        f: a_tol / a_max,
    };
    let normal_ok =
        |r: usize| f[r] >= -tol.f && acc[r] >= -tol.a && (f[r] <= tol.f || acc[r].abs() <= tol.a);
    for r in (0..p.b.len()).filter(|&r| p.kinds[r] == RowKind::Unilateral && !owned(p, r)) {
        if !normal_ok(r) {
            return Err(format!("row {r}: f = {:e}, a = {:e}", f[r], acc[r]));
        }
    }
    for (c, ct) in p.contacts.iter().enumerate() {
        let (r, t) = (ct.normal_row, ct.tangent_rows);
        let (ft, at) = (&f[r + 1..=r + t], &acc[r + 1..=r + t]);
        let verdict = if normal_ok(r) {
            check_friction(ct, f[r], ft, at, tol)
        } else {
            Err("normal")
        };
        if let Err(what) = verdict {
            return Err(format!(
                "contact {c} ({what}): f_n = {:e}, a_n = {:e}, f_t = {ft:?}, a_t = {at:?}, μ = {}",
                f[r], acc[r], ct.mu
            ));
        }
    }
    Ok(())
}
