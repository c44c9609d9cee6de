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
