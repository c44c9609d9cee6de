//! Coulomb friction (static coefficient = dynamic coefficient μ) at the acceleration level: the
//! polyhedral-cone complementarity formulation of Stewart & Trinkle (1996) and Anitescu & Potra
//! (1997), written for accelerations as in Trinkle, Pang, Sudarsky & Lo (1997), and solved
//! exactly by Lemke's complementary pivoting (not by an iterative projected Gauss–Seidel).
//!
//! # Rows and contacts
//!
//! The problem is `a = A f + b` as for [`solve_lcp`](super::lcp::solve_lcp), over rows of three
//! kinds: `Bilateral` (loop closures), `Unilateral` (joint limits, frictionless contacts) and
//! `Tangent`. Each [`FrictionalContact`] owns a `Unilateral` normal row `n` immediately followed
//! by its `Tangent` rows: none, one (`t`, planar) or two (`t₁, t₂`, spatial), unit and orthogonal
//! to each other and to the normal, so that `f_t` and `a_t` are the tangential force and
//! acceleration in that basis.
//!
//! # The formulation
//!
//! - **Sticking contact** (zero tangential velocity): the friction force is `f_t = Σ_j β_j d_j`
//!   over unit directions `d_j` of the tangent plane (planar: `±t`; spatial: `k` directions at
//!   angles `2πj/k`, [`directions_3d`](FrictionSettings::directions_3d)), `β_j ≥ 0`, and with a
//!   slack `λ ≥ 0`:
//!   ```text
//!   a_n ≥ 0                 ⊥ f_n ≥ 0
//!   d_j·a_t + λ ≥ 0         ⊥ β_j ≥ 0      (every direction j)
//!   μ f_n − Σ_j β_j ≥ 0     ⊥ λ ≥ 0
//!   ```
//!   With `λ = 0`, `d_j·a_t ≥ 0` for directions spanning the plane means `a_t = 0`: the contact
//!   stays stuck, with `f_t` inside the polygon `Σβ ≤ μ f_n`. With `λ > 0` the friction is on the
//!   polygon's boundary and only along directions with `d_j·a_t = −λ`, the most opposed to the
//!   tangential acceleration: the contact starts to slide, with maximal dissipation over the
//!   polygon.
//! - **Sliding contact** (tangential velocity `v_t ≠ 0`, given by the caller): the exact isotropic
//!   law `f_t = −μ f_n v_t/|v_t|`, so the normal force's column of `A` becomes
//!   `A_:n − μ Σ_k A_:t_k v̂_k` and only `a_n ≥ 0 ⊥ f_n ≥ 0` remains. This makes the problem
//!   non-symmetric; when `A_nn − μ A_n t v̂` is negative no solution may exist: Painlevé's paradox.
//! - A contact with μ = 0 or without tangent rows, and a `Unilateral` row not owned by a contact,
//!   keep only `a ≥ 0 ⊥ f ≥ 0`.
//! - `Bilateral` rows are eliminated first by the Schur complement
//!   `Ã = A_OO − A_OB A_BB⁻¹ A_BO`, `b̃ = b_O − A_OB A_BB⁻¹ b_B` (O the other rows; `A_BB` factored
//!   with pivot skipping), and their forces recovered afterwards from
//!   `f_B = −A_BB⁻¹ (b_B + A_BO f_O)`.
//!
//! The resulting problem `w = M z + q` in the variables `z = (f_n, β, λ, …)` has a matrix that is
//! neither symmetric nor positive semi-definite, so Baraff's method does not apply; Lemke's method
//! does. To give `M` entries of one magnitude, `λ` is measured in units of `s = max_i A_ii`
//! (its entries become `s`, `s·μ`, `−s`), then `M` is divided by `s` and `q` by `‖q‖∞`.
//!
//! # Why this formulation
//!
//! Pivoting gives the exact solution (to rounding: hand-checkable examples agree to 10⁻¹²), the
//! same every time, with no iteration count or convergence tolerance to tune, and reports when it
//! finds no solution. A projected Gauss–Seidel iteration was the alternative: simpler, but only
//! approximate, slow on stacks and mass ratios, and unable to tell a slow convergence from a
//! problem without solution. Baraff's own friction extension handles planar contacts only.
//!
//! Limits, documented rather than hidden:
//! - the polygon inscribes the friction circle: between two of its `k` vertices the available
//!   friction is short by up to `1 − cos(π/k)` (7.6 % for the default k = 8, 29 % for k = 4);
//!   planar contacts and sliding contacts are exact;
//! - the problem has no solution in some configurations (Painlevé). Lemke's method is only
//!   guaranteed to find an existing solution for copositive-plus matrices; `M` is copositive but
//!   not copositive-plus with sticking contacts, and not even copositive with sliding ones
//!   (Pang & Trinkle 1996), so alone it missed existing solutions (about 0.8 % of random planar
//!   problems with half the contacts sliding). The strategy of `complementarity.rs` therefore
//!   follows a failed pivoting with a second covering vector and, for problems of up to 14
//!   variables (its `ENUMERATION_LIMIT`), the exact enumeration of complementary index sets,
//!   above that up to 64 variables an exact branch-and-bound search (`branch.rs`): on the corpus
//!   of `benches/support/lcp_corpus.rs` (random and degenerate problems, ≥ 10 000, and larger
//!   ones of 16–48 variables) it misses no solution. A remaining failure is
//!   [`ConstraintError::FrictionInfeasible`] naming the contact whose variable was entering;
//!   above 64 variables (or past the search's node budget) it is not a proof that no solution
//!   exists;
//! - the previous solve's contact mode is remembered in the workspace (the warm start of
//!   `complementarity.rs`); [`FrictionWorkspace::forget_mode`] clears it;
//! - cost O(N³) for N variables (`1 + k + 1` per sticking spatial contact), allocated once in
//!   [`FrictionWorkspace`].
//!
//! # Tolerances
//!
//! ε = [`relative_tolerance`](FrictionSettings::relative_tolerance) (default 10⁻⁹). After the
//! solve, `a = A f + b` is recomputed; a bilateral row with `|a_i| > 10 ε·max(‖b‖∞, max A_ii·‖f‖∞)`
//! is [`ConstraintError::Infeasible`] (redundant loop closures demanding incompatible
//! accelerations), and a complementarity condition of the scaled problem violated by more than
//! `10 ε·max(1, max|M|·‖z‖∞)` is [`ConstraintError::Inaccurate`]; every candidate of the strategy
//! (warm start, pivoting, enumeration) must pass that test before it is taken. Inside Lemke's
//! method (scaled problem, entries of order 1): entries of the entering column below
//! `10⁻⁹·max|column|` (and below 10⁻¹²) are not pivots, and the lexicographic minimum-ratio test
//! of `lemke.rs` (Cottle, Pang & Stone §4.9) chooses the leaving row, which rules out cycling.

use super::complementarity::SolveMethod;
use super::errors::ConstraintError;
#[cfg(doc)]
use super::friction_problem::FrictionSettings;
use super::friction_problem::{FrictionWorkspace, FrictionalContact, Variable};
use super::friction_setup::{build_lcp, build_variables, eliminate_bilateral, validate_contacts};
use super::lcp::{validate_problem, RowKind};
use super::lcp_problem::Lcp;
use super::lemke::LemkeFailure;
use nalgebra::DMatrixView;

/// What a frictional solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrictionStats {
    /// Variables of the complementarity problem.
    pub variables: usize,
    /// Lemke pivots (over every attempt).
    pub pivots: usize,
    /// Complementary index sets tried directly (warm start, enumeration).
    pub sets: usize,
    /// Nodes of the branch-and-bound search (problems above the enumeration limit only).
    pub nodes: usize,
    /// The step of the strategy that solved it.
    pub method: SolveMethod,
}

/// Solves the frictional problem (module documentation): writes the row forces `f` (normal and
/// tangential contact forces, joint-limit and loop-closure forces; N) and leaves `a = A f + b`
/// in [`ws.accelerations()`](FrictionWorkspace::accelerations). `A` is n × n, `b`, `kinds` and
/// `f` have n entries; every `Tangent` row must belong to exactly one contact. Does not allocate.
///
/// Errors: [`ConstraintError::FrictionInfeasible`] names the contact where no solution was found
/// (Painlevé), [`ConstraintError::Infeasible`] a frictionless row without solution or an
/// inconsistent bilateral row, plus the checks of the input and [`ConstraintError::PivotLimit`],
/// [`ConstraintError::Inaccurate`], [`ConstraintError::NotPositiveSemidefinite`].
pub fn solve_frictional(
    a: DMatrixView<'_, f64>,
    b: &[f64],
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
    ws: &mut FrictionWorkspace,
    f: &mut [f64],
) -> Result<FrictionStats, ConstraintError> {
    let scales = validate_problem(&a, b, kinds, f.len(), ws.capacity)?;
    let n = b.len();
    validate_contacts(kinds, contacts, &mut ws.claimed[..n])?;
    ws.rows = n;
    eliminate_bilateral(&a, b, kinds, ws)?;
    build_variables(kinds, contacts, ws);
    // λ's unit and M's scale: max A_ii (1 for a problem without any effect, A = 0).
    let s = if scales.a > 0.0 { scales.a } else { 1.0 };
    let q_scale = build_lcp(contacts, s, ws);
    let nv = ws.variables.len();
    let max_pivots = ws.settings.pivots_per_variable * nv + 2;
    let lcp = Lcp {
        n: nv,
        m: &ws.m,
        stride: ws.var_capacity,
        q: &ws.q,
    };
    let key = layout_key(&ws.variables);
    let tol = 10.0 * ws.settings.relative_tolerance;
    let outcome = ws
        .solver
        .solve(lcp, key, tol, max_pivots, &mut ws.z)
        .map_err(|failure| lemke_error(failure, &ws.variables))?;
    check_lcp(ws)?;
    recover_forces(a, b, kinds, q_scale / s, ws, f);
    check_bilateral(b, kinds, scales.a, ws, f)?;
    Ok(FrictionStats {
        variables: nv,
        pivots: outcome.pivots,
        sets: outcome.sets,
        nodes: outcome.nodes,
        method: outcome.method,
    })
}

/// A key of the variables' layout (each one's row, contact and role; FNV-1a): a remembered mode
/// applies only to a problem with the same key.
fn layout_key(vars: &[Variable]) -> u64 {
    let mut key = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| {
        key ^= x;
        key = key.wrapping_mul(0x0100_0000_01b3);
    };
    mix(vars.len() as u64);
    for v in vars {
        mix(v.row as u64);
        mix(v.contact.map_or(u64::MAX, |c| c as u64));
        mix(v.role_code());
    }
    key
}

/// The error for a failed pivoting, naming the entering variable's contact or row.
fn lemke_error(failure: LemkeFailure, vars: &[Variable]) -> ConstraintError {
    match failure {
        LemkeFailure::Ray { variable } => {
            let v = &vars[variable];
            match v.contact {
                Some(contact) => ConstraintError::FrictionInfeasible {
                    contact,
                    row: v.row,
                },
                None => ConstraintError::Infeasible { row: v.row },
            }
        }
        LemkeFailure::PivotLimit { variable, pivots } => ConstraintError::PivotLimit {
            row: vars[variable].row,
            pivots,
        },
        LemkeFailure::Unstable { variable } => ConstraintError::Unstable {
            row: vars[variable].row,
        },
    }
}

/// Checks `w = M z + q ≥ 0`, `z ≥ 0`, `wᵀz = 0` of the scaled problem within
/// `10 ε·max(1, max|M|·‖z‖∞)`.
fn check_lcp(ws: &FrictionWorkspace) -> Result<(), ConstraintError> {
    let (vc, nv) = (ws.var_capacity, ws.variables.len());
    let z = &ws.z[..nv];
    let z_max = z.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let m_max = (0..nv * vc).fold(
        0.0f64,
        |m, k| if k % vc < nv { m.max(ws.m[k].abs()) } else { m },
    );
    let tol = 10.0 * ws.settings.relative_tolerance * (m_max * z_max).max(1.0);
    for i in 0..nv {
        let w: f64 = ws.q[i] + (0..nv).map(|j| ws.m[i * vc + j] * z[j]).sum::<f64>();
        let violation = (-w).max(if z[i] > tol { w.abs() } else { 0.0 });
        if violation > tol {
            return Err(ConstraintError::Inaccurate {
                row: ws.variables[i].row,
                violation: violation / (m_max * z_max).max(1.0),
            });
        }
    }
    Ok(())
}

/// Row forces from the variables (`z · unscale` in N), the bilateral forces, and `a = A f + b`.
fn recover_forces(
    a: DMatrixView<'_, f64>,
    b: &[f64],
    kinds: &[RowKind],
    unscale: f64,
    ws: &mut FrictionWorkspace,
    f: &mut [f64],
) {
    let (n, cap) = (b.len(), ws.capacity);
    f.fill(0.0);
    for (v, &z) in ws.variables.iter().zip(&ws.z) {
        for &(r, alpha) in v.force.terms() {
            f[r] += alpha * z * unscale;
        }
    }
    for (k, &rb) in ws.bilateral.iter().enumerate() {
        let coupling: f64 = (0..n)
            .filter(|&o| kinds[o] != RowKind::Bilateral)
            .map(|o| ws.elimination[k * cap + o] * f[o])
            .sum();
        f[rb] = -(ws.elimination_b[k] + coupling);
    }
    for i in 0..n {
        ws.accel[i] = b[i] + (0..n).map(|j| a[(i, j)] * f[j]).sum::<f64>();
    }
}

/// Bilateral rows must hold: `|a_i| ≤ 10 ε·max(‖b‖∞, max A_ii·‖f‖∞)`.
fn check_bilateral(
    b: &[f64],
    kinds: &[RowKind],
    a_scale: f64,
    ws: &FrictionWorkspace,
    f: &[f64],
) -> Result<(), ConstraintError> {
    let f_max = f.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let b_max = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let tol = 10.0 * ws.settings.relative_tolerance * b_max.max(a_scale * f_max);
    match (0..b.len()).find(|&i| kinds[i] == RowKind::Bilateral && ws.accel[i].abs() > tol) {
        Some(row) => Err(ConstraintError::Infeasible { row }),
        None => Ok(()),
    }
}

#[cfg(test)]
#[path = "friction_tests.rs"]
mod tests;
