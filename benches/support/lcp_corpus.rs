//! The frictional-solver corpus (issue 27, part 1): seeded random and degenerate contact problems
//! `a = A f + b` for [`solve_frictional`], a brute-force reference, and an independent check of
//! Coulomb's conditions. Shared by `tests/lcp_corpus.rs` (a fixed sample),
//! `tests/lcp_alloc.rs` and `benches/lcp_corpus.rs` (the full corpus, ≥ 10,000 problems), each
//! of which declares this module and `lcp_reference.rs` as `lcp_corpus` and `lcp_reference`.
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
//! # The reference (`lcp_reference.rs`)
//!
//! [`brute_force`] builds the polyhedral-cone problem `w = M z + q` of `friction.rs` (written
//! here from its documented formulation, not from the solver's code) and tries every
//! complementary index set `α`: `M_αα z_α = −q_α` by LU, accepted when `z ≥ 0` and `w ≥ 0`
//! within 10⁻⁹ of the problem's scale. [`check_coulomb`] checks a returned solution against the
//! physical conditions directly, without the variables β, λ.

use crate::lcp_reference::{brute_force, check_coulomb};
use blockdyn::multibody::constraints::{
    solve_frictional, ConstraintError, ContactMotion, FrictionSettings, FrictionStats,
    FrictionWorkspace, FrictionalContact, RowKind, SolveMethod,
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

/// Family names, for reports (8–11: the larger problems of [`Problem::generate_large`]).
pub const FAMILIES: [&str; 12] = [
    "planar sticking",
    "planar, arbitrary b",
    "planar, half sliding",
    "spatial sticking",
    "redundant rows",
    "zero-velocity ties",
    "μ at the cone's edge",
    "rank-deficient J",
    "large, planted",
    "large, planted, redundant",
    "large, planted, sliding",
    "large, b = J W⁻¹ F",
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

/// Per contact its tangent rows (0: a frictionless unilateral row) for `family`.
fn contact_tangents(family: usize, rng: &mut Rng) -> Vec<usize> {
    match family {
        0..=2 | 4..=6 => vec![1; 1 + rng.below(3)],
        3 => vec![2; 1 + rng.below(2)],
        _ => {
            let mut t = vec![2, 1];
            t.truncate(1 + rng.below(2));
            t.push(0);
            t
        }
    }
}

/// A random Jacobian of `rows` rows: fewer columns than rows (family 5), rank 1–2 (family 7),
/// 1–6 columns otherwise.
fn jacobian(family: usize, rows: usize, rng: &mut Rng) -> DMatrix<f64> {
    match family {
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
    }
}

/// Appends the first contact's rows again (same Jacobian rows) as a second contact with the same
/// μ: redundant rows, as the corners of a face.
fn duplicate_first_contact(
    j: DMatrix<f64>,
    kinds: &mut Vec<RowKind>,
    contacts: &mut Vec<FrictionalContact>,
) -> DMatrix<f64> {
    let (first, t) = (contacts[0].normal_row, contacts[0].tangent_rows);
    let start = kinds.len();
    let mut j = j.insert_rows(start, t + 1, 0.0);
    for k in 0..=t {
        let row = j.row(first + k).into_owned();
        j.set_row(start + k, &row);
        kinds.push(kinds[first + k]);
    }
    contacts.push(FrictionalContact::sticking(start, t, contacts[0].mu));
    j
}

/// Appends `original`'s rows again (same Jacobian rows, same μ and motion) as another contact.
fn duplicate_contact(
    j: DMatrix<f64>,
    original: &FrictionalContact,
    kinds: &mut Vec<RowKind>,
    contacts: &mut Vec<FrictionalContact>,
) -> DMatrix<f64> {
    let (first, t) = (original.normal_row, original.tangent_rows);
    let start = kinds.len();
    let mut j = j.insert_rows(start, t + 1, 0.0);
    for k in 0..=t {
        let row = j.row(first + k).into_owned();
        j.set_row(start + k, &row);
        kinds.push(kinds[first + k]);
    }
    contacts.push(FrictionalContact {
        normal_row: start,
        ..*original
    });
    j
}

/// Writes a Coulomb-consistent mode of contact `c` into its rows of `f` and `acc` (the modes of
/// [`Problem::generate_large`]; polygon directions `d_j` at `2πj/k` from `t₁`, k = 2 planar,
/// [`DIRECTIONS`] spatial).
fn plant(c: &FrictionalContact, rng: &mut Rng, f: &mut [f64], acc: &mut [f64]) {
    let (r, t, mu) = (c.normal_row, c.tangent_rows, c.mu);
    let k = if t == 1 { 2 } else { DIRECTIONS };
    let dir = |j: usize| {
        let angle = std::f64::consts::TAU * j as f64 / k as f64;
        [angle.cos(), angle.sin()]
    };
    let mode = rng.below(5);
    for x in 0..t {
        acc[r + 1 + x] = rng.uniform(-1.0, 1.0);
    }
    if mode < 2 {
        // Separating (a_n > 0) or a tie (a_n = 0), without force.
        acc[r] = if mode == 0 {
            rng.uniform(0.1, 1.0)
        } else {
            0.0
        };
        return;
    }
    let fn_ = rng.uniform(0.5, 2.0);
    f[r] = fn_;
    if let ContactMotion::Sliding { velocity } = c.motion {
        let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
        for x in 0..t {
            f[r + 1 + x] = -mu * fn_ * velocity[x] / speed;
        }
        return;
    }
    let ft = match mode {
        // Sticking inside the polygon, or on its edge (μ at the cone's edge): a convex
        // combination of two neighbouring vertices, scaled by 0.9 inside.
        2 | 3 => {
            let (j0, s) = (rng.below(k), rng.uniform(0.0, 1.0));
            let (d0, d1) = (dir(j0), dir((j0 + 1) % k));
            let g = if mode == 2 {
                rng.uniform(0.0, 0.9)
            } else {
                1.0
            };
            let w1 = if t == 1 { 0.0 } else { s };
            let ft = [
                g * mu * fn_ * ((1.0 - w1) * d0[0] + w1 * d1[0]),
                g * mu * fn_ * ((1.0 - w1) * d0[1] + w1 * d1[1]),
            ];
            for x in 0..t {
                acc[r + 1 + x] = 0.0;
            }
            ft
        }
        // Sliding from rest along vertex d_j: a_t = −s d_j.
        _ => {
            let (d, s) = (dir(rng.below(k)), rng.uniform(0.1, 1.0));
            for x in 0..t {
                acc[r + 1 + x] = -s * d[x];
            }
            [mu * fn_ * d[0], mu * fn_ * d[1]]
        }
    };
    for x in 0..t {
        f[r + 1 + x] = ft[x];
    }
}

impl Problem {
    /// The problem of `seed`.
    pub fn generate(seed: u64) -> Problem {
        let family = (seed % 8) as usize;
        let mut rng = Rng::new(seed);
        let tangents = contact_tangents(family, &mut rng);
        let (mut kinds, first) = layout(&tangents);
        let mut j = jacobian(family, kinds.len(), &mut rng);
        let mut contacts: Vec<FrictionalContact> = first
            .iter()
            .zip(&tangents)
            .map(|(&r, &t)| FrictionalContact::sticking(r, t, rng.uniform(0.0, 1.2)))
            .collect();
        if family == 4 {
            j = duplicate_first_contact(j, &mut kinds, &mut contacts);
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

    /// The larger problem of `seed` (16–48 variables, the range of the branch-and-bound
    /// fallback): 4–8 contacts, each planar or spatial (k = 4), μ ∈ [0.2, 1.2], a Jacobian of
    /// `rows/2 … rows + 2` columns (often rank-deficient). Families (`8 + seed % 4`):
    ///
    /// - 8, **planted**: each contact given a mode and forces `f` and accelerations `a` that
    ///   satisfy Coulomb's conditions — separating (`f = 0`, `a_n > 0`), a zero-velocity tie
    ///   (`f = 0`, `a_n = 0`), sticking inside the cone, sticking on the cone's edge (`|f_t| =
    ///   μ f_n` on the polygon, `a_t = 0`), or sliding along a polygon vertex `d_j` (`f_t = μ f_n
    ///   d_j`, `a_t = −s d_j`) — and `b = a − A f`, so a solution exists by construction;
    /// - 9, planted with 1–2 contacts duplicated (redundant rows, the same `a`, forces scaled);
    /// - 10, planted with about half of the contacts sliding (`f_t = −μ f_n v̂`, any `a_t`);
    /// - 11, `b = J W⁻¹ F` for a random force (not planted; a solution may not exist).
    pub fn generate_large(seed: u64) -> Problem {
        let family = 8 + (seed % 4) as usize;
        let mut rng = Rng::new(seed ^ 0x5eed_1a46e);
        let contacts_n = 4 + rng.below(5);
        let tangents: Vec<usize> = (0..contacts_n).map(|_| 1 + rng.below(2)).collect();
        let (mut kinds, first) = layout(&tangents);
        let rows = kinds.len();
        let cols = rows / 2 + rng.below(rows / 2 + 3);
        let mut j = rng.matrix(rows, cols);
        let mut contacts: Vec<FrictionalContact> = first
            .iter()
            .zip(&tangents)
            .map(|(&r, &t)| FrictionalContact::sticking(r, t, rng.uniform(0.2, 1.2)))
            .collect();
        if family == 10 {
            for c in &mut contacts {
                if rng.below(2) == 0 {
                    let v = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)];
                    let v = if c.tangent_rows == 1 { [v[0], 0.0] } else { v };
                    *c = FrictionalContact::sliding(c.normal_row, c.tangent_rows, c.mu, v);
                }
            }
        }
        let (mut f, mut acc) = (vec![0.0; rows], vec![0.0; rows]);
        for c in &contacts {
            plant(c, &mut rng, &mut f, &mut acc);
        }
        if family == 9 {
            for _ in 0..1 + rng.below(2) {
                let original = contacts[rng.below(contacts.len())];
                let (r, t) = (original.normal_row, original.tangent_rows);
                j = duplicate_contact(j, &original, &mut kinds, &mut contacts);
                let scale = rng.uniform(0.2, 1.5);
                for k in 0..=t {
                    f.push(scale * f[r + k]);
                    acc.push(acc[r + k]);
                }
            }
        }
        let dofs = j.ncols();
        let inv_mass: Vec<f64> = (0..dofs).map(|_| 1.0 / rng.uniform(0.2, 5.0)).collect();
        let w = DMatrix::from_diagonal(&DVector::from_vec(inv_mass));
        let a = &j * &w * j.transpose();
        let n = kinds.len();
        let b: Vec<f64> = if family == 11 {
            (&j * &w * rng.matrix(dofs, 1)).iter().copied().collect()
        } else {
            let af = &a * DVector::from_column_slice(&f);
            (0..n).map(|i| acc[i] - af[i]).collect()
        };
        Problem {
            family,
            a,
            b,
            kinds,
            contacts,
        }
    }

    /// Variables of its complementarity problem: one per frictionless or sliding contact and
    /// unowned unilateral row, `1 + k + 1` per sticking contact with friction (k = 2 planar,
    /// [`DIRECTIONS`] spatial).
    #[allow(dead_code)] // the tests use it, the bench does not
    pub fn variables(&self) -> usize {
        let unowned = self
            .kinds
            .iter()
            .filter(|&&k| k == RowKind::Unilateral)
            .count()
            - self.contacts.len();
        unowned
            + self
                .contacts
                .iter()
                .map(|c| match c.motion {
                    ContactMotion::Sticking if c.mu > 0.0 && c.tangent_rows > 0 => {
                        2 + if c.tangent_rows == 1 { 2 } else { DIRECTIONS }
                    }
                    _ => 1,
                })
                .sum::<usize>()
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
    check(seed, &Problem::generate(seed), false)
}

/// As [`run`] for the larger problem `seed` ([`Problem::generate_large`]): an error on a planted
/// problem is a failure (a solution exists by construction); on the others the brute force
/// decides where it can (≤ 16 variables), else the error counts as a failure too.
pub fn run_large(seed: u64) -> Outcome {
    let p = Problem::generate_large(seed);
    check(seed, &p, p.family != 11)
}

fn check(seed: u64, p: &Problem, planted: bool) -> Outcome {
    let mut ws = FrictionWorkspace::with_settings(p.b.len(), settings());
    let mut f = vec![0.0; p.b.len()];
    let result = p.solve(&mut ws, &mut f);
    let (wrong, solvable) = match &result {
        Ok(_) => (check_coulomb(p, &f, ws.accelerations()).err(), None),
        Err(_) if planted => (None, Some(true)),
        Err(_) => (None, brute_force(p)),
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
        SolveMethod::BranchAndBound,
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
    if let Some(worst) = solved().max_by_key(|(_, s)| s.nodes) {
        out += &format!(
            "worst problem (branch-and-bound nodes): seed {} ({}), {} variables, {} nodes\n",
            worst.0.seed, FAMILIES[worst.0.family], worst.1.variables, worst.1.nodes
        );
    }
    let (mut lo, mut hi) = (usize::MAX, 0);
    for (_, s) in solved() {
        lo = lo.min(s.variables);
        hi = hi.max(s.variables);
    }
    out += &format!("variables: {lo}–{hi}\n");
    out
}
