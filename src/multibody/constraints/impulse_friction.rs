//! Collision impulses with Coulomb friction: Poisson's restitution in two velocity-level
//! complementarity problems (compression, then restitution), each with the polyhedral friction
//! cone of [`solve_frictional`], and a final energy check.
//!
//! # The problem
//!
//! Rows as for [`solve_impulses`](super::impulse::solve_impulses): `A = J M⁻¹ Jᵀ` (1/kg for
//! translational rows), pre-impact row velocities `v⁻` (m/s, World-frame normal and tangent
//! components at each contact point), impulses `p` (N·s), `v = A p + v⁻`. Each
//! [`FrictionalContact`] owns a `Unilateral` normal row followed by its `Tangent` rows (unit
//! tangents orthogonal to the normal); its friction impulse `p_t` must stay in the cone
//! `|p_t| ≤ μ p_n`, as the polygon of `k` directions of [`solve_frictional`] (planar contacts:
//! exact; spatial: short of the circle by at most `1 − cos(π/k)` between two directions).
//!
//! 1. **Compression** (restitution 0): `v⁺ = A p_c + v⁻` with `v⁺_n ≥ 0 ⊥ p_n ≥ 0` on unilateral
//!    rows, `v⁺ = 0` on bilateral rows and maximal-dissipation friction on the tangents: the
//!    contact sticks at the end (`v⁺_t = 0`, `p_t` inside the cone) or slides with `p_t` on the
//!    cone's boundary opposing the final slip. This is [`solve_frictional`] with `b = v⁻` and every
//!    contact [`Sticking`](super::friction::ContactMotion::Sticking) (the cone, not a given sliding
//!    direction: the slip may stop or turn during the impact). Writing `v_c = A p_c + v⁻`.
//! 2. **Restitution** (Poisson): every unilateral row receives a further normal impulse
//!    `e_i·p_c,i` (fixed) plus `δ_i ≥ 0 ⊥ v⁺_i ≥ 0` (a row squeezed by the others), with friction
//!    in the cone of the fixed part, `|p_t| ≤ μ e p_c,n`. The fixed part enters the right-hand
//!    side, `b = v_c + A (e·p_c)`; each frictional contact gets an extra, decoupled row whose
//!    solution is exactly `e·p_c,n` (`A = s`, `b = −s·e·p_c,n`, `s` the contact's `A_nn`), which
//!    carries the cone in place of the normal row (so [`solve_frictional`] needs no change).
//!    The friction of `δ_i` is left to the next serial round, if it leaves the point approaching.
//!
//! # Energy
//!
//! The change of kinetic energy by an impulse `p` from row velocities `v` is
//! `ΔT = pᵀ v + ½ pᵀ A p` (J), computed from the rows. The compression phase never adds energy:
//! `ΔT₁ = p_cᵀ v_c − ½ p_cᵀ A p_c` with `p_n v⁺_n = 0`, `v⁺ = 0` on bilateral rows and
//! `p_t·v⁺_t = −λ Σβ ≤ 0` for the friction polygon. The restitution phase can (Poisson's law with
//! friction gains energy when the slip reverses between the phases, and Newton's law more often:
//! Kane's paradox). So when `ΔT₁ + ΔT₂ > 0`, the restitution impulse `p_r` is scaled by the
//! `α ∈ [0, 1)` that makes the total change zero — the root of
//! `ΔT₁ + α p_rᵀ v_c + ½ α² p_rᵀ A p_r = 0` — as an energetic coefficient of restitution capped at
//! the energy-conserving value. `α p_r` stays in the cone and the normal velocities stay
//! non-negative (a convex combination of `v_c` and `v⁺`), so the result remains admissible.
//!
//! Without friction and for a single contact point, Poisson's and Newton's laws agree:
//! `p = (1 + e)·p_c`.

use super::errors::ConstraintError;
use super::friction::{solve_frictional, FrictionWorkspace, FrictionalContact};
use super::lcp::RowKind;
use nalgebra::{DMatrix, DMatrixView};

/// What [`solve_frictional_impulses`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ImpactOutcome {
    /// The compression phase's change of kinetic energy `ΔT₁` (J, ≤ 0 to round-off).
    pub compression_energy: f64,
    /// The scale applied to the restitution impulse: 1, or less when it would have added energy.
    pub restitution_scale: f64,
    /// Whether a restitution phase was solved (some row with `e·p_c > 0`).
    pub restitution_phase: bool,
}

/// Buffers of [`solve_frictional_impulses`] for up to `capacity` rows, allocated once.
#[derive(Clone, Debug)]
pub struct ImpulseWorkspace {
    capacity: usize,
    friction: FrictionWorkspace,
    sticking: Vec<FrictionalContact>,
    /// The augmented problem of the restitution phase (rows plus one per frictional contact).
    aug_a: DMatrix<f64>,
    aug_b: Vec<f64>,
    aug_kinds: Vec<RowKind>,
    aug_contacts: Vec<FrictionalContact>,
    aug_f: Vec<f64>,
    /// The augmented index of each row.
    position: Vec<usize>,
    b: Vec<f64>,
    compression: Vec<f64>,
    v_mid: Vec<f64>,
    fixed: Vec<f64>,
    restitution_impulse: Vec<f64>,
    a_p: Vec<f64>,
}

impl ImpulseWorkspace {
    /// Buffers for problems of up to `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        let c = capacity.max(1);
        Self {
            capacity: c,
            friction: FrictionWorkspace::new(2 * c),
            sticking: Vec::with_capacity(c),
            aug_a: DMatrix::zeros(2 * c, 2 * c),
            aug_b: vec![0.0; 2 * c],
            aug_kinds: Vec::with_capacity(2 * c),
            aug_contacts: Vec::with_capacity(c),
            aug_f: vec![0.0; 2 * c],
            position: vec![0; c],
            b: vec![0.0; c],
            compression: vec![0.0; c],
            v_mid: vec![0.0; c],
            fixed: vec![0.0; c],
            restitution_impulse: vec![0.0; c],
            a_p: vec![0.0; c],
        }
    }

    /// The largest number of rows a problem may have.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

/// `out = A x` over the first `n` rows.
fn multiply(a: &DMatrixView<'_, f64>, x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        out[i] = (0..n).map(|j| a[(i, j)] * x[j]).sum();
    }
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// Solves for the impulses `p` (N·s) and post-impact row velocities `v_plus` (m/s) of rows with
/// pre-impact velocities `v_minus`, Poisson restitution coefficients `restitution` (per row, in
/// [0, 1]; read on unilateral rows only) and the frictional `contacts` (their `motion` is
/// ignored: both phases use the friction cone), as in the module documentation. Does not
/// allocate.
///
/// # Errors
/// The input checks of [`solve_frictional`] (dimensions, capacity, a restitution outside [0, 1]
/// as [`ConstraintError::BadRow`]), and its errors when a phase has no solution it finds.
#[allow(clippy::too_many_arguments)]
pub fn solve_frictional_impulses(
    a: DMatrixView<'_, f64>,
    v_minus: &[f64],
    restitution: &[f64],
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
    ws: &mut ImpulseWorkspace,
    p: &mut [f64],
    v_plus: &mut [f64],
) -> Result<ImpactOutcome, ConstraintError> {
    let n = v_minus.len();
    for (what, got) in [
        ("the restitution coefficients", restitution.len()),
        ("the row kinds", kinds.len()),
        ("the impulses", p.len()),
        ("v⁺", v_plus.len()),
    ] {
        if got != n {
            return Err(ConstraintError::Dimension {
                what,
                expected: n,
                got,
            });
        }
    }
    if n > ws.capacity || contacts.len() > ws.capacity {
        return Err(ConstraintError::CapacityExceeded {
            rows: n,
            capacity: ws.capacity,
        });
    }
    if let Some(row) = (0..n).find(|&i| !(0.0..=1.0).contains(&restitution[i])) {
        return Err(ConstraintError::BadRow {
            row,
            what: "the coefficient of restitution must be in [0, 1]",
        });
    }
    ws.sticking.clear();
    ws.sticking.extend(
        contacts
            .iter()
            .map(|c| FrictionalContact::sticking(c.normal_row, c.tangent_rows, c.mu)),
    );
    // 1. Compression.
    ws.b[..n].copy_from_slice(v_minus);
    solve_frictional(
        a,
        &ws.b[..n],
        kinds,
        &ws.sticking,
        &mut ws.friction,
        &mut ws.compression[..n],
    )?;
    multiply(&a, &ws.compression[..n], &mut ws.a_p[..n]);
    for ((mid, v), ap) in ws.v_mid.iter_mut().zip(v_minus).zip(&ws.a_p) {
        *mid = v + ap;
    }
    // ΔT₁ = p_cᵀ v⁻ + ½ p_cᵀ A p_c.
    let compression_energy =
        dot(&ws.compression[..n], v_minus) + 0.5 * dot(&ws.compression[..n], &ws.a_p[..n]);
    let mut outcome = ImpactOutcome {
        compression_energy,
        restitution_scale: 1.0,
        restitution_phase: false,
    };
    for i in 0..n {
        ws.fixed[i] = if kinds[i] == RowKind::Unilateral {
            restitution[i] * ws.compression[i].max(0.0)
        } else {
            0.0
        };
    }
    p.copy_from_slice(&ws.compression[..n]);
    v_plus.copy_from_slice(&ws.v_mid[..n]);
    if ws.fixed[..n].iter().all(|&x| x == 0.0) {
        return Ok(outcome);
    }
    // 2. Restitution.
    outcome.restitution_phase = true;
    restitution_phase(a, kinds, ws, n)?;
    let r = &ws.restitution_impulse[..n];
    multiply(&a, r, &mut ws.a_p[..n]);
    let linear = dot(r, &ws.v_mid[..n]);
    let quadratic = 0.5 * dot(r, &ws.a_p[..n]);
    let total = compression_energy + linear + quadratic;
    if total > 0.0 {
        outcome.restitution_scale = energy_scale(compression_energy, linear, quadratic);
    }
    let alpha = outcome.restitution_scale;
    for i in 0..n {
        p[i] += alpha * ws.restitution_impulse[i];
        v_plus[i] += alpha * ws.a_p[i];
    }
    Ok(outcome)
}

/// The `α ∈ [0, 1]` with `t₁ + α·l + α²·q = 0` (`t₁ ≤ 0`, `q ≥ 0`, `t₁ + l + q > 0`): the
/// larger root, or 0 when `t₁ ≥ 0` by round-off.
fn energy_scale(t1: f64, l: f64, q: f64) -> f64 {
    if t1 >= 0.0 {
        return 0.0;
    }
    let alpha = if q > 0.0 {
        // The root of q α² + l α + t₁ in (0, 1); written to avoid cancellation when l > 0.
        let disc = (l * l - 4.0 * q * t1).max(0.0).sqrt();
        if l > 0.0 {
            -2.0 * t1 / (l + disc)
        } else {
            (disc - l) / (2.0 * q)
        }
    } else if l > 0.0 {
        -t1 / l
    } else {
        0.0
    };
    // One part in 10¹² below the root, so that round-off cannot leave ΔT above zero.
    (alpha * (1.0 - 1e-12)).clamp(0.0, 1.0)
}

/// Solves the restitution phase (module documentation) into `ws.restitution_impulse`: the fixed
/// impulses `ws.fixed` plus the solution of the augmented problem.
fn restitution_phase(
    a: DMatrixView<'_, f64>,
    kinds: &[RowKind],
    ws: &mut ImpulseWorkspace,
    n: usize,
) -> Result<(), ConstraintError> {
    let frictional = |c: &FrictionalContact| c.tangent_rows > 0 && c.mu > 0.0;
    // Augmented layout: each frictional contact's normal row is followed by its cone row.
    let mut next = 0;
    for i in 0..n {
        ws.position[i] = next;
        next += 1;
        if ws
            .sticking
            .iter()
            .any(|c| c.normal_row == i && frictional(c))
        {
            next += 1;
        }
    }
    let m = next;
    ws.aug_a.view_mut((0, 0), (m, m)).fill(0.0);
    ws.aug_kinds.clear();
    ws.aug_kinds.resize(m, RowKind::Unilateral);
    multiply(&a, &ws.fixed[..n], &mut ws.a_p[..n]);
    for i in 0..n {
        let pi = ws.position[i];
        for j in 0..n {
            ws.aug_a[(pi, ws.position[j])] = a[(i, j)];
        }
        ws.aug_b[pi] = ws.v_mid[i] + ws.a_p[i];
        ws.aug_kinds[pi] = kinds[i];
    }
    ws.aug_contacts.clear();
    for c in &ws.sticking {
        let normal = ws.position[c.normal_row];
        if !frictional(c) {
            ws.aug_contacts.push(FrictionalContact {
                normal_row: normal,
                ..*c
            });
            continue;
        }
        let cone = normal + 1;
        let s = a[(c.normal_row, c.normal_row)];
        let s = if s > 0.0 { s } else { 1.0 };
        ws.aug_a[(cone, cone)] = s;
        ws.aug_b[cone] = -s * ws.fixed[c.normal_row];
        ws.aug_contacts.push(FrictionalContact {
            normal_row: cone,
            ..*c
        });
    }
    solve_frictional(
        ws.aug_a.view((0, 0), (m, m)),
        &ws.aug_b[..m],
        &ws.aug_kinds,
        &ws.aug_contacts,
        &mut ws.friction,
        &mut ws.aug_f[..m],
    )?;
    for i in 0..n {
        ws.restitution_impulse[i] = ws.fixed[i] + ws.aug_f[ws.position[i]];
    }
    Ok(())
}

#[cfg(test)]
#[path = "impulse_friction_tests.rs"]
mod tests;
