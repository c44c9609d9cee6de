//! The frictional-solver corpus (issue 27, part 1): seeded random and degenerate contact problems
//! `a = A f + b` for [`solve_frictional`], a brute-force reference, and an independent check of
//! Coulomb's conditions. Shared by `tests/lcp_corpus.rs` (a fixed sample) and
//! `benches/lcp_corpus.rs` (the full corpus, ≥ 10,000 problems).
//!
//! # The families (`seed % 8`)
//!
//! `A = J W⁻¹ Jᵀ` for a random Jacobian `J` (entries uniform in [−1, 1)) and diagonal masses `W`,
//! so `A` is what a mechanism gives; `b = J W⁻¹ F` for a random force `F` unless said otherwise.
//! Planar contacts have a normal and one tangent row, spatial ones two tangents with k = 4
//! friction directions, so that every problem has at most 12 complementarity variables and the
//! brute force (2¹² index sets) stays cheap.
//!
//! 0. planar, 1–3 sticking contacts, μ ∈ [0, 1.2];
//! 1. the same with an arbitrary `b` (not of the form `J W⁻¹ F`);
//! 2. planar, each contact sliding with probability ½ (non-copositive matrices: Painlevé);
//! 3. spatial, 1–2 sticking contacts;
//! 4. **redundant rows**: a contact duplicated (same rows twice, `A` singular), as the four
//!    corners of a face are;
//! 5. **zero-normal-velocity ties**: `b` with exact zeros on half the rows, a Jacobian with fewer
//!    columns than rows (ties everywhere in the ratio test);
//! 6. **μ at the cone's edge**: μ set to the friction ratio `|f_t|/f_n` the sticking solution
//!    needs, so the solution is on the edge of the cone (stick and slip tie);
//! 7. **rank-deficient Jacobians**: `J = U V` with inner dimension 1–2, spatial and planar
//!    contacts mixed with a frictionless unilateral row.
//!
//! # The reference
//!
//! [`brute_force`] builds the polyhedral-cone problem `w = M z + q` of `friction.rs` (written
//! here from its documented formulation, not from the solver's code) and tries every
//! complementary index set `α`: `M_αα z_α = −q_α` by LU, accepted when `z ≥ 0` and `w ≥ 0`
//! within 10⁻⁹ of the problem's scale. [`check_coulomb`] checks a returned solution against the
//! physical conditions directly, without the variables β, λ.

use blockdyn::multibody::constraints::{
    solve_frictional, ConstraintError, FrictionSettings, FrictionStats, FrictionWorkspace,
    FrictionalContact, RowKind, SolveMethod,
};
use nalgebra::{DMatrix, DVector};

/// Friction directions of a spatial contact in the corpus.
pub const DIRECTIONS: usize = 4;

/// Marsaglia's xorshift64*: deterministic, no external crate.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (mixed, so consecutive seeds differ in every bit).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn matrix(&mut self, rows: usize, cols: usize) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |_, _| self.uniform(-1.0, 1.0))
    }
}

/// One problem of the corpus.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Its family (`seed % 8`, module documentation).
    pub family: usize,
    /// `A` (n × n).
    pub a: DMatrix<f64>,
    /// `b`.
    pub b: Vec<f64>,
    /// Row kinds.
    pub kinds: Vec<RowKind>,
    /// The contacts.
    pub contacts: Vec<FrictionalContact>,
}

/// Family names, for reports.
pub const FAMILIES: [&str; 8] = [
    "planar sticking",
    "planar, arbitrary b",
    "planar, half sliding",
    "spatial sticking",
    "redundant rows",
    "zero-velocity ties",
    "μ at the cone's edge",
    "rank-deficient J",
];

/// The settings every corpus problem is solved with.
pub fn settings() -> FrictionSettings {
    FrictionSettings {
        directions_3d: DIRECTIONS,
        ..FrictionSettings::default()
    }
}

/// Rows of a contact layout: per contact its tangent count (0: a frictionless unilateral row).
fn layout(tangents: &[usize]) -> (Vec<RowKind>, Vec<usize>) {
    let (mut kinds, mut first) = (Vec::new(), Vec::new());
    for &t in tangents {
        first.push(kinds.len());
        kinds.push(RowKind::Unilateral);
        kinds.extend(std::iter::repeat_n(RowKind::Tangent, t));
    }
    (kinds, first)
}

impl Problem {
    /// The problem of `seed`.
    pub fn generate(seed: u64) -> Problem {
        let family = (seed % 8) as usize;
        let mut rng = Rng::new(seed);
        let tangents: Vec<usize> = match family {
            0..=2 | 4..=6 => vec![1; 1 + rng.below(3)],
            3 => vec![2; 1 + rng.below(2)],
            _ => {
                let mut t = vec![2, 1];
                t.truncate(1 + rng.below(2));
                t.push(0);
                t
            }
        };
        let (mut kinds, first) = layout(&tangents);
        let rows = kinds.len();
        let mut j = match family {
            5 => {
                let cols = 1 + rng.below(rows.max(2) - 1);
                rng.matrix(rows, cols)
            }
            7 => {
                let (inner, cols) = (1 + rng.below(2), 1 + rng.below(6));
                rng.matrix(rows, inner) * rng.matrix(inner, cols)
            }
            _ => {
                let cols = 1 + rng.below(6);
                rng.matrix(rows, cols)
            }
        };
        let mut contacts: Vec<FrictionalContact> = first
            .iter()
            .zip(&tangents)
            .map(|(&r, &t)| FrictionalContact::sticking(r, t, rng.uniform(0.0, 1.2)))
            .collect();
        if family == 4 {
            // Duplicate the first contact: its rows again, as a second contact.
            let t = tangents[0];
            let start = kinds.len();
            j = j.insert_rows(rows, t + 1, 0.0);
            for k in 0..=t {
                let row = j.row(first[0] + k).into_owned();
                j.set_row(start + k, &row);
                kinds.push(kinds[first[0] + k]);
            }
            contacts.push(FrictionalContact::sticking(start, t, contacts[0].mu));
        }
        let dofs = j.ncols();
        let inv_mass: Vec<f64> = (0..dofs).map(|_| 1.0 / rng.uniform(0.2, 5.0)).collect();
        let w = DMatrix::from_diagonal(&DVector::from_vec(inv_mass));
        let a = &j * &w * j.transpose();
        let n = kinds.len();
        let mut b: Vec<f64> = if family == 1 {
            (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect()
        } else {
            (&j * &w * rng.matrix(dofs, 1)).iter().copied().collect()
        };
        if family == 5 {
            for (r, x) in b.iter_mut().enumerate() {
                if r % 2 == 1 || rng.below(2) == 0 {
                    *x = 0.0;
                }
            }
        }
        if family == 2 {
            for c in &mut contacts {
                if rng.below(2) == 0 {
                    let v = if rng.below(2) == 0 { 0.7 } else { -0.7 };
                    *c = FrictionalContact::sliding(c.normal_row, c.tangent_rows, c.mu, [v, 0.0]);
                }
            }
        }
        let mut p = Problem {
            family,
            a,
            b,
            kinds,
            contacts,
        };
        if family == 6 {
            p.put_mu_on_the_edge();
        }
        p
    }

    /// Sets each contact's μ to the friction ratio its sticking solution needs (planar: exact
    /// edge of the cone), solving first with μ = 10.
    fn put_mu_on_the_edge(&mut self) {
        let mut sticky = self.clone();
        sticky.contacts.iter_mut().for_each(|c| c.mu = 10.0);
        let mut ws = FrictionWorkspace::with_settings(self.b.len(), settings());
        let mut f = vec![0.0; self.b.len()];
        if sticky.solve(&mut ws, &mut f).is_err() {
            return;
        }
        for c in &mut self.contacts {
            let fn_ = f[c.normal_row];
            let ft = f[c.normal_row + 1..=c.normal_row + c.tangent_rows]
                .iter()
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt();
            if fn_ > 1e-9 {
                c.mu = ft / fn_;
            }
        }
    }

    /// Solves with the library into `f`.
    pub fn solve(
        &self,
        ws: &mut FrictionWorkspace,
        f: &mut [f64],
    ) -> Result<FrictionStats, ConstraintError> {
        solve_frictional(
            self.a.as_view(),
            &self.b,
            &self.kinds,
            &self.contacts,
            ws,
            f,
        )
    }

    /// `max(‖b‖∞, max A_ii·‖f‖∞)`: the scale of the accelerations.
    pub fn scale(&self, f: &[f64]) -> f64 {
        let a_max = (0..self.b.len())
            .map(|i| self.a[(i, i)])
            .fold(0.0, f64::max);
        let f_max = f.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let b_max = self.b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        b_max.max(a_max * f_max).max(1e-300)
    }
}

/// A variable of the reference problem: its force on the rows, the rows it measures, and the
/// structural terms of its role.
struct Var {
    force: DVector<f64>,
    measure: DVector<f64>,
    /// 0: a normal force, 1: a direction multiplier β, 2: the slack λ.
    role: u8,
    contact: usize,
}

/// The polyhedral-cone problem `(M, q)` of `p` (friction.rs, "The formulation").
pub fn reference_lcp(p: &Problem) -> (DMatrix<f64>, DVector<f64>) {
    let n = p.b.len();
    let unit = |r: usize| DVector::from_fn(n, |i, _| if i == r { 1.0 } else { 0.0 });
    let mut vars = Vec::new();
    let owned: Vec<bool> = (0..n)
        .map(|r| {
            p.contacts
                .iter()
                .any(|c| (c.normal_row..=c.normal_row + c.tangent_rows).contains(&r))
        })
        .collect();
    for r in (0..n).filter(|&r| p.kinds[r] == RowKind::Unilateral && !owned[r]) {
        vars.push(Var {
            force: unit(r),
            measure: unit(r),
            role: 0,
            contact: usize::MAX,
        });
    }
    for (c, ct) in p.contacts.iter().enumerate() {
        let (r, t) = (ct.normal_row, ct.tangent_rows);
        let normal = |force| Var {
            force,
            measure: unit(r),
            role: 0,
            contact: c,
        };
        if ct.mu == 0.0 || t == 0 {
            vars.push(normal(unit(r)));
            continue;
        }
        match ct.motion {
            blockdyn::multibody::constraints::ContactMotion::Sliding { velocity } => {
                let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
                let mut force = unit(r);
                for k in 0..t {
                    force[r + 1 + k] = -ct.mu * velocity[k] / speed;
                }
                vars.push(normal(force));
            }
            blockdyn::multibody::constraints::ContactMotion::Sticking => {
                vars.push(normal(unit(r)));
                let k = if t == 1 { 2 } else { DIRECTIONS };
                for j in 0..k {
                    let angle = std::f64::consts::TAU * j as f64 / k as f64;
                    let mut d = DVector::zeros(n);
                    d[r + 1] = angle.cos();
                    if t == 2 {
                        d[r + 2] = angle.sin();
                    }
                    vars.push(Var {
                        force: d.clone(),
                        measure: d,
                        role: 1,
                        contact: c,
                    });
                }
                let zero = DVector::zeros(n);
                vars.push(Var {
                    force: zero.clone(),
                    measure: zero,
                    role: 2,
                    contact: c,
                });
            }
        }
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

/// Whether some complementary index set with a non-singular `M_αα` (condition number at most
/// 10¹⁰) solves `p`'s problem (within 10⁻⁹ of its scale): every one of the `2ⁿ` sets is tried. `None` when it has more than 16 variables.
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
        let sub = DMatrix::from_fn(alpha.len(), alpha.len(), |r, c| m[(alpha[r], alpha[c])]);
        let rhs = DVector::from_fn(alpha.len(), |r, _| -q[alpha[r]]);
        let sol = if alpha.is_empty() {
            DVector::zeros(0)
        } else {
            // Sets with a numerically singular M_αα are skipped (condition number above 10¹⁰):
            // their "solutions" are rounding amplified, which the tolerance below, relative to
            // ‖z‖, would accept.
            let sigma = sub.clone().svd(false, false).singular_values;
            let (lo, hi) = sigma
                .iter()
                .fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
            if lo <= 1e-10 * hi {
                continue;
            }
            match sub.lu().solve(&rhs) {
                Some(sol) => sol,
                None => continue,
            }
        };
        let mut z = DVector::zeros(nv);
        for (k, &i) in alpha.iter().enumerate() {
            z[i] = sol[k];
        }
        let w = &m * &z + &q;
        let z_max = z.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let tol = 1e-9 * q_max.max(m_max * z_max).max(1e-300);
        let ok = (0..nv)
            .all(|i| z[i] >= -tol && w[i] >= -tol && (set & (1 << i) == 0 || w[i].abs() <= tol));
        if ok {
            return Some(true);
        }
    }
    Some(false)
}

/// Checks Coulomb's conditions on the solver's forces `f` and accelerations `acc`, directly
/// (module documentation): accelerations within `10⁻⁸·scale`, forces within that over `max A_ii`.
/// Returns the first violation.
pub fn check_coulomb(p: &Problem, f: &[f64], acc: &[f64]) -> Result<(), String> {
    let tol = 1e-8 * p.scale(f);
    let a_max = (0..p.b.len()).map(|i| p.a[(i, i)]).fold(1e-300, f64::max);
    let tol_f = tol / a_max;
    let normal_ok =
        |r: usize| f[r] >= -tol_f && acc[r] >= -tol && (f[r] <= tol_f || acc[r].abs() <= tol);
    let owned: Vec<bool> = (0..p.b.len())
        .map(|r| {
            p.contacts
                .iter()
                .any(|c| (c.normal_row..=c.normal_row + c.tangent_rows).contains(&r))
        })
        .collect();
    for r in (0..p.b.len()).filter(|&r| p.kinds[r] == RowKind::Unilateral && !owned[r]) {
        if !normal_ok(r) {
            return Err(format!("row {r}: f = {:e}, a = {:e}", f[r], acc[r]));
        }
    }
    for (c, ct) in p.contacts.iter().enumerate() {
        let (r, t) = (ct.normal_row, ct.tangent_rows);
        let fn_ = f[r];
        let ft = &f[r + 1..=r + t];
        let at = &acc[r + 1..=r + t];
        let ft_norm = ft.iter().map(|x| x * x).sum::<f64>().sqrt();
        let bad = |what: &str| {
            Err(format!("contact {c} ({what}): f_n = {fn_:e}, a_n = {:e}, f_t = {ft:?}, a_t = {at:?}, μ = {}", acc[r], ct.mu))
        };
        if !normal_ok(r) {
            return bad("normal");
        }
        if ct.mu == 0.0 || t == 0 {
            if ft_norm > tol_f {
                return bad("friction without friction");
            }
            continue;
        }
        match ct.motion {
            blockdyn::multibody::constraints::ContactMotion::Sliding { velocity } => {
                let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
                if (0..t).any(|k| (ft[k] + ct.mu * fn_ * velocity[k] / speed).abs() > tol_f) {
                    return bad("sliding friction");
                }
            }
            blockdyn::multibody::constraints::ContactMotion::Sticking => {
                let k = if t == 1 { 2 } else { DIRECTIONS };
                let dir = |j: usize, offset: f64| {
                    let angle = std::f64::consts::PI * (2.0 * j as f64 + offset) / k as f64;
                    [angle.cos(), if t == 2 { angle.sin() } else { 0.0 }]
                };
                let dot =
                    |u: [f64; 2], v: &[f64]| u[0] * v[0] + if t == 2 { u[1] * v[1] } else { 0.0 };
                // Inside the polygon: below every edge (edge normals at odd multiples of π/k).
                let edge = ct.mu * fn_ * (std::f64::consts::PI / k as f64).cos();
                let slack = (0..k)
                    .map(|j| edge - dot(dir(j, 1.0), ft))
                    .fold(f64::INFINITY, f64::min);
                if t == 1 && ft_norm > ct.mu * fn_ + tol_f || t == 2 && slack < -tol_f {
                    return bad("outside the cone");
                }
                let at_norm = at.iter().map(|x| x * x).sum::<f64>().sqrt();
                let inside = if t == 1 {
                    ft_norm < ct.mu * fn_ - tol_f
                } else {
                    slack > tol_f
                };
                if inside && at_norm > tol {
                    return bad("sliding inside the cone");
                }
                // Maximal dissipation over the polygon: −a_t·f_t ≥ μ f_n max_j(−a_t·d_j).
                let best = (0..k)
                    .map(|j| -dot(dir(j, 0.0), at))
                    .fold(f64::NEG_INFINITY, f64::max);
                let dissipated = -dot([ft[0], if t == 2 { ft[1] } else { 0.0 }], at);
                if dissipated < ct.mu * fn_ * best - tol * tol_f.max(ct.mu * fn_) {
                    return bad("friction not opposing the slip");
                }
            }
        }
    }
    Ok(())
}

/// The outcome of one corpus problem.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The problem's seed.
    pub seed: u64,
    /// Its family.
    pub family: usize,
    /// The solver's statistics, or its error.
    pub result: Result<FrictionStats, ConstraintError>,
    /// A violated condition of a returned solution.
    pub wrong: Option<String>,
    /// For an error: whether the brute force finds a solution (None: too large to enumerate).
    pub solvable: Option<bool>,
}

impl Outcome {
    /// A failure: a wrong solution, or an error where the brute force finds a solution.
    pub fn failed(&self) -> bool {
        self.wrong.is_some() || (self.result.is_err() && self.solvable != Some(false))
    }
}

/// Solves and checks problem `seed`: the solver on a fresh workspace; the brute force only when
/// the solver reports an error.
pub fn run(seed: u64) -> Outcome {
    let p = Problem::generate(seed);
    let mut ws = FrictionWorkspace::with_settings(p.b.len(), settings());
    let mut f = vec![0.0; p.b.len()];
    let result = p.solve(&mut ws, &mut f);
    let (wrong, solvable) = match &result {
        Ok(_) => (check_coulomb(&p, &f, ws.accelerations()).err(), None),
        Err(_) => (None, brute_force(&p)),
    };
    Outcome {
        seed,
        family: p.family,
        result,
        wrong,
        solvable,
    }
}

/// A summary: per family, problems, solved, unsolvable (brute force agrees), failures; methods
/// used; the worst problem by pivots.
pub fn summary(outcomes: &[Outcome]) -> String {
    let mut out =
        String::from("family                   problems   solved  no solution  failures\n");
    for (k, name) in FAMILIES.iter().enumerate() {
        let of: Vec<&Outcome> = outcomes.iter().filter(|o| o.family == k).collect();
        let solved = of.iter().filter(|o| o.result.is_ok()).count();
        let none = of.iter().filter(|o| o.solvable == Some(false)).count();
        let failed = of.iter().filter(|o| o.failed()).count();
        out += &format!(
            "{name:<24} {:>8} {solved:>8} {none:>12} {failed:>9}\n",
            of.len()
        );
    }
    let methods = [
        SolveMethod::None,
        SolveMethod::WarmStart,
        SolveMethod::Lemke,
        SolveMethod::LemkeGraded,
        SolveMethod::Enumeration,
    ];
    for method in methods {
        let count = outcomes
            .iter()
            .filter(|o| matches!(&o.result, Ok(s) if s.method == method))
            .count();
        out += &format!("solved by {method:?}: {count}\n");
    }
    let solved = || {
        outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok().map(|s| (o, s)))
    };
    let line = |what: &str, (o, s): (&Outcome, &FrictionStats)| {
        format!(
            "{what}: seed {} ({}), {} variables, {} pivots, {} sets, {:?}\n",
            o.seed, FAMILIES[o.family], s.variables, s.pivots, s.sets, s.method
        )
    };
    if let Some(worst) = solved().max_by_key(|(_, s)| s.pivots) {
        out += &line("worst problem (pivots)", worst);
    }
    if let Some(worst) = solved().max_by_key(|(_, s)| s.sets) {
        out += &line("worst problem (sets enumerated)", worst);
    }
    out
}
