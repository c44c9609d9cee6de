//! Collision impulses with Coulomb friction: Newton's restitution for the normal velocities,
//! reached in two velocity-level complementarity problems (compression, then restitution), each
//! with the polyhedral friction cone of [`solve_frictional`], and a final energy check.
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
//! 1. **Compression** (restitution 0): `v_c = A p_c + v⁻` with `v_c,n ≥ 0 ⊥ p_c,n ≥ 0` on
//!    unilateral rows, `v_c = 0` on bilateral rows and maximal-dissipation friction on the
//!    tangents: the contact sticks at the end (`v_c,t = 0`, `p_c,t` inside the cone) or slides
//!    with `p_c,t` on the cone's boundary opposing the final slip. This is [`solve_frictional`]
//!    with `b = v⁻` and every contact [`Sticking`](super::friction_problem::ContactMotion::Sticking) (the
//!    cone, not a given sliding direction: the slip may stop or turn during the impact).
//! 2. **Restitution** (Newton's target): from `v_c`, a second impulse `p_r` with
//!    `v⁺_n + e v⁻_n ≥ 0 ⊥ p_r,n ≥ 0` on approaching unilateral rows (`v⁺_n ≥ 0` on the others),
//!    `v⁺ = 0` on bilateral rows, and friction in the cone of `p_r,n` opposing the final slip:
//!    [`solve_frictional`] again with `b = v_c + e·min(v⁻, 0)` on the unilateral rows.
//!
//! The total `p = p_c + p_r` keeps the friction in the cone (`|p_t| ≤ μ (p_c,n + p_r,n)`) and
//! leaves every point that received an impulse at `v⁺_n = −e v⁻_n`. For a point whose normal and
//! tangential rows are uncoupled (a sphere on a plane) this is Poisson's law as well
//! (`p_r,n = e p_c,n`) and gives Stronge's closed forms.
//!
//! # Why Newton's target rather than Poisson's `p_r = e·p_c`
//!
//! With redundant points (a face landing flat: four corners, `A` singular) the compression
//! impulses are not unique, only the velocities are. Poisson's law scales a non-unique impulse
//! and sets the face spinning by an arbitrary amount; Newton's law asks for velocities, so a face
//! landing flat leaves flat. Poisson's law does not keep energy from growing either (when the slip
//! reverses between the phases), so the energy check below is needed with both.
//!
//! # Energy
//!
//! The change of kinetic energy by an impulse `p` from row velocities `v` is
//! `ΔT = pᵀ v + ½ pᵀ A p` (J), computed from the rows. The compression phase never adds energy:
//! `ΔT₁ = p_cᵀ v_c − ½ p_cᵀ A p_c` with `p_n v_c,n = 0`, `v_c = 0` on bilateral rows and
//! `p_t·v_c,t = −λ Σβ ≤ 0` for the friction polygon. The restitution phase can (Newton's law with
//! friction gains energy for eccentric impacts: Kane's paradox). So when `ΔT₁ + ΔT₂ > 0`, the
//! restitution impulse `p_r` is scaled by the `α ∈ [0, 1)` that makes the total change zero — the
//! root of `ΔT₁ + α p_rᵀ v_c + ½ α² p_rᵀ A p_r = 0` — an energetic coefficient of restitution
//! capped at the energy-conserving value. `α p_r` stays in the cone and the normal velocities stay
//! non-negative (a convex combination of `v_c` and `v⁺`), so the result remains admissible.

use super::errors::{check_len, ConstraintError};
use super::friction::solve_frictional;
use super::friction_problem::{FrictionWorkspace, FrictionalContact};
use super::lcp::RowKind;
use nalgebra::DMatrixView;

/// What [`solve_frictional_impulses`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ImpactOutcome {
    /// The compression phase's change of kinetic energy `ΔT₁` (J, ≤ 0 to round-off).
    pub compression_energy: f64,
    /// The scale applied to the restitution impulse: 1, or less when it would have added energy.
    pub restitution_scale: f64,
    /// Whether a restitution phase was solved (an approaching row with `e > 0` and an impulse).
    pub restitution_phase: bool,
}

/// Buffers of [`solve_frictional_impulses`] for up to `capacity` rows, allocated once.
#[derive(Clone, Debug)]
pub struct ImpulseWorkspace {
    capacity: usize,
    friction: FrictionWorkspace,
    sticking: Vec<FrictionalContact>,
    b: Vec<f64>,
    compression: Vec<f64>,
    v_mid: Vec<f64>,
    restitution_impulse: Vec<f64>,
    a_p: Vec<f64>,
}

impl ImpulseWorkspace {
    /// Buffers for problems of up to `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        let c = capacity.max(1);
        Self {
            capacity: c,
            friction: FrictionWorkspace::new(c),
            sticking: Vec::with_capacity(c),
            b: vec![0.0; c],
            compression: vec![0.0; c],
            v_mid: vec![0.0; c],
            restitution_impulse: vec![0.0; c],
            a_p: vec![0.0; c],
        }
    }

    /// The largest number of rows a problem may have.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Takes `other`'s remembered contact mode (the frictional solver's warm start), so that
    /// buffers grown to a larger capacity solve their next problem as `other` would. Copies;
    /// does not allocate.
    pub fn copy_warm_start(&mut self, other: &ImpulseWorkspace) {
        self.friction.copy_warm_start(&other.friction);
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
/// pre-impact velocities `v_minus`, Newton restitution coefficients `restitution` (per row, in
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
    check_len("the restitution coefficients", restitution.len(), n)?;
    check_len("the row kinds", kinds.len(), n)?;
    check_len("the impulses", p.len(), n)?;
    check_len("v⁺", v_plus.len(), n)?;
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
    // Newton's target: b = v_c + e·min(v⁻, 0) on unilateral rows.
    let mut any = false;
    for i in 0..n {
        let target = if kinds[i] == RowKind::Unilateral {
            restitution[i] * v_minus[i].min(0.0)
        } else {
            0.0
        };
        any |= target < 0.0;
        ws.b[i] = ws.v_mid[i] + target;
    }
    p.copy_from_slice(&ws.compression[..n]);
    v_plus.copy_from_slice(&ws.v_mid[..n]);
    if !any {
        return Ok(outcome);
    }
    // 2. Restitution.
    outcome.restitution_phase = true;
    solve_frictional(
        a,
        &ws.b[..n],
        kinds,
        &ws.sticking,
        &mut ws.friction,
        &mut ws.restitution_impulse[..n],
    )?;
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

#[cfg(test)]
#[path = "impulse_friction_tests.rs"]
mod tests;
