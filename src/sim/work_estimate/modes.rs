//! The linearised system at the initial state: the eigenvalues of J = ∂f/∂x, how strongly the
//! initial state excites each of their modes, and the steps a decaying mode costs.
//!
//! # Modal excitation
//!
//! Near x0, ẋ = f(x) ≈ f0 + J·(x − x0). Writing f0 = Σ_k c_k·v_k on J's eigenvectors v_k, the
//! linear motion is x(t) = x* + Σ_k a_k·v_k·e^{λ_k·t} with a_k = c_k/λ_k: a_k·v_k is mode k's
//! displacement from the linear equilibrium x* at t = 0. Its size in the error test's units is
//! the excitation
//!
//! A_k = max_i |a_k·v_k,i| / (abs_tol + rel_tol·|x0_i|),
//!
//! so a mode with A_k < 1 never shows in the error estimate (a body resting at its contact's
//! static depth does not ring), and a decaying mode (σ_k = −Re λ_k > 0) stops mattering after
//! ln(A_k)/σ_k seconds. The eigenvectors come from the complex Schur form J = Q·T·Qᴴ: T's
//! eigenvector y_k by back substitution (y_k,k = 1), v_k = Q·y_k, and c = Y⁻¹·Qᴴ·f0 with Y the
//! unit upper triangular matrix of the y_k.

use crate::sim::engine::Engine;
use crate::solver::System;
use nalgebra::{Complex, DMatrix, DVector};

/// The time events whose forces the modes' excitation looks at (the first ones of the run).
pub(super) const SCHEDULED_EVENTS: usize = 32;

/// Of those, at most this many are one block's: a block's later events are skipped (its handler
/// not run), so that a fast sampled block cannot take all [`SCHEDULED_EVENTS`] and hide a Step
/// due later.
pub(super) const EVENTS_PER_BLOCK: usize = 4;

/// Past this many states the Jacobian's eigenvalues are not computed (O(n³)); the estimate
/// then counts only the contacts and the step floor.
pub const MAX_EIGEN_STATES: usize = 400;

/// One eigenvalue of J and how strongly the initial state excites its mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    /// Re λ (1/s).
    pub re: f64,
    /// |λ| (1/s).
    pub modulus: f64,
    /// A: the mode's displacement at t = 0 over the error tolerance (dimensionless; see the
    /// module documentation). Infinite when λ = 0 (a free motion has no equilibrium).
    pub excitation: f64,
}

/// The Jacobian's spectrum at the initial state and the rate of the initial acceleration.
pub(super) struct Linearisation {
    /// J = ∂f/∂x at x0; `None` when not formed (too many states, or not finite).
    jac: Option<DMatrix<f64>>,
    /// f(t0, x0).
    f0: Vec<f64>,
    /// J's modes; empty until [`Linearisation::excite`] (or when J was not formed).
    pub modes: Vec<Mode>,
    /// max_i sqrt(|(J·f)_i| / max(|x_i|, 1)) (1/s).
    pub acceleration_rate: f64,
}

impl Linearisation {
    /// J by forward differences (one evaluation per column). Leaves the engine evaluated at x0.
    pub(super) fn at(engine: &mut Engine<'_>, t0: f64, x0: &[f64]) -> Linearisation {
        let n = x0.len();
        let mut f0 = vec![0.0; n];
        engine.derivatives(t0, x0, &mut f0);
        let mut none = Linearisation {
            jac: None,
            f0: f0.clone(),
            modes: Vec::new(),
            acceleration_rate: 0.0,
        };
        if n > MAX_EIGEN_STATES {
            return none;
        }
        let mut jac = DMatrix::<f64>::zeros(n, n);
        let (mut x, mut f) = (x0.to_vec(), vec![0.0; n]);
        for j in 0..n {
            x[j] = x0[j] + (f64::EPSILON * x0[j].abs().max(1e-5)).sqrt();
            let delta = x[j] - x0[j];
            engine.derivatives(t0, &x, &mut f);
            for i in 0..n {
                jac[(i, j)] = (f[i] - f0[i]) / delta;
            }
            x[j] = x0[j];
        }
        // The contacts' state (closed or not) is read at x0 afterwards.
        engine.derivatives(t0, x0, &mut f0);
        if jac.iter().chain(&f0).any(|v| !v.is_finite()) {
            return none;
        }
        let acceleration = &jac * DVector::from_column_slice(&f0);
        none.acceleration_rate = (0..n)
            .map(|i| (acceleration[i].abs() / x0[i].abs().max(1.0)).sqrt())
            .fold(0.0, f64::max);
        none.jac = Some(jac);
        none
    }

    /// J's modes (complex Schur decomposition, a bounded number of iterations) and their
    /// excitation, weighed by `(abs_tol, rel_tol)`: the largest over f(t0, x0) and f(tₑ, x0)
    /// just after each of the first [`SCHEDULED_EVENTS`] time events tₑ before `t_end`, at most
    /// [`EVENTS_PER_BLOCK`] of them one block's (a Step or a table that applies a force later
    /// shifts the equilibrium and excites the modes then).
    /// Runs the events' handlers on the engine: call it last.
    pub(super) fn excite(
        &mut self,
        engine: &mut Engine<'_>,
        x0: &[f64],
        t_end: f64,
        (abs_tol, rel_tol): (f64, f64),
    ) {
        let Some(jac) = self.jac.take() else {
            return;
        };
        let mut forcings = vec![self.f0.clone()];
        let mut t = 0.0;
        let mut looked_at = vec![0usize; engine.diagram.blocks.len()];
        // Each pass either looks at an event or skips one whose blocks have all had their
        // EVENTS_PER_BLOCK: a skipped block's next event is not moved on, so it is never due
        // again (the loop ends after at most SCHEDULED_EVENTS + blocks passes).
        while forcings.len() <= SCHEDULED_EVENTS {
            let Some(te) = engine.next_time_event(t).filter(|&te| te < t_end) else {
                break;
            };
            t = te;
            let due: Vec<usize> = engine.time_events_due(te).collect();
            if due.iter().all(|&b| looked_at[b] >= EVENTS_PER_BLOCK) {
                continue;
            }
            due.iter().for_each(|&b| looked_at[b] += 1);
            let mut x = x0.to_vec();
            engine.handle_events(te, &mut x, &[], true);
            let mut f = vec![0.0; x0.len()];
            engine.derivatives(te, x0, &mut f);
            forcings.push(f);
        }
        forcings.retain(|f| f.iter().all(|v| v.is_finite()));
        let weights: Vec<f64> = x0
            .iter()
            .map(|xi| 1.0 / (abs_tol + rel_tol * xi.abs()).max(f64::MIN_POSITIVE))
            .collect();
        self.modes = modes(jac, &forcings, &weights).unwrap_or_default();
    }

    /// The modes below `cut` (1/s).
    pub(super) fn modes_below(&self, cut: f64) -> impl Iterator<Item = Mode> + '_ {
        self.modes.iter().copied().filter(move |m| m.modulus < cut)
    }
}

/// J's modes with their excitation (see the module documentation): the largest over the
/// `forcings` f(t_j, x0), with `weights` = 1/(abs_tol + rel_tol·|x0_i|); `None` when the Schur
/// iteration does not converge.
fn modes(jac: DMatrix<f64>, forcings: &[Vec<f64>], weights: &[f64]) -> Option<Vec<Mode>> {
    let n = weights.len();
    let complex = jac.map(|v| Complex::new(v, 0.0));
    let iterations = 100 * n.max(10);
    let (q, t) = nalgebra::linalg::Schur::try_new(complex, f64::EPSILON, iterations)?.unpack();
    let scale = t.iter().map(|z| z.norm()).fold(0.0, f64::max);
    let tiny = f64::EPSILON * scale.max(f64::MIN_POSITIVE);
    // Y: column k is T's eigenvector for t_kk (unit diagonal, upper triangular).
    let mut y = DMatrix::<Complex<f64>>::identity(n, n);
    for k in 0..n {
        let lambda = t[(k, k)];
        for i in (0..k).rev() {
            let sum: Complex<f64> = (i + 1..=k).map(|j| t[(i, j)] * y[(j, k)]).sum();
            let mut denominator = t[(i, i)] - lambda;
            if denominator.norm() < tiny {
                denominator = Complex::new(tiny, 0.0);
            }
            y[(i, k)] = -sum / denominator;
        }
    }
    // Each forcing's c = Y⁻¹·Qᴴ·f (back substitution, unit diagonal); |c_k| the largest.
    let mut c_max = vec![0.0f64; n];
    for f in forcings {
        let f = DVector::from_iterator(n, f.iter().map(|&v| Complex::new(v, 0.0)));
        let mut c = q.adjoint() * f;
        for i in (0..n).rev() {
            let sum: Complex<f64> = (i + 1..n).map(|j| y[(i, j)] * c[j]).sum();
            c[i] -= sum;
        }
        for (largest, ck) in c_max.iter_mut().zip(c.iter()) {
            *largest = largest.max(ck.norm());
        }
    }
    let v = &q * &y;
    Some(
        (0..n)
            .map(|k| {
                let lambda = t[(k, k)];
                let modulus = lambda.norm();
                let excitation = if modulus > tiny {
                    let a = c_max[k] / modulus;
                    (0..n)
                        .map(|i| a * v[(i, k)].norm() * weights[i])
                        .fold(0.0, f64::max)
                } else {
                    f64::INFINITY
                };
                Mode {
                    re: lambda.re,
                    modulus,
                    excitation,
                }
            })
            .collect(),
    )
}

/// The steps a mode costs over a run of `duration` (s) above a floor pace: the pace starts at
/// `pace` (steps/s) and, as the mode decays at σ = `decay` (1/s) with the error of an order-q
/// method ∝ (h·ω)^q·amplitude, falls as pace·e^{−σt/q}, until its amplitude is below the
/// tolerance (after ln(A)/σ, A = `excitation`) or the pace below `floor` (steps/s):
///
/// ∫₀ᵀ max(floor, m(t)) dt = floor·T + τ·pace·(1 − e^{−t_e/τ}) − floor·t_e,
///
/// τ = q/σ, t_e = min(T, ln(A)/σ, τ·ln(pace/floor)). A mode that does not decay (σ ≤ 0) costs
/// max(pace, floor)·T.
pub fn decaying_mode_steps(
    pace: f64,
    decay: f64,
    excitation: f64,
    order: f64,
    floor: f64,
    duration: f64,
) -> f64 {
    if pace <= floor {
        return floor * duration;
    }
    if decay <= 0.0 {
        return pace * duration;
    }
    let tau = order / decay;
    let lasts = excitation.max(1.0).ln() / decay;
    let above_floor = if floor > 0.0 {
        tau * (pace / floor).ln()
    } else {
        f64::INFINITY
    };
    let t_e = duration.min(lasts).min(above_floor);
    floor * duration + tau * pace * (1.0 - (-t_e / tau).exp()) - floor * t_e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damped_oscillators_modes_and_excitation_are_the_closed_forms() {
        // x'' + 2ζω x' + ω² x = 0 with ω = 10, ζ = 0.1, released from x = 1e-3 at rest:
        // λ = −ζω ± iω·sqrt(1 − ζ²), |λ| = ω. f0 = (0, −ω²·1e-3); the two modes' displacements
        // add up to x0 − x* = (1e-3, 0): each has |a·v_x| = 1e-3/(2·sqrt(1 − ζ²)) (the complex
        // pair's half amplitudes, |1/(2 cos φ)| with sin φ = ζ).
        let (w, z): (f64, f64) = (10.0, 0.1);
        let jac = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -w * w, -2.0 * z * w]);
        let x0 = [1e-3, 0.0];
        let f0 = [0.0, -w * w * x0[0]];
        // abs_tol 1e-9, rel_tol 0 on x; the velocity's weight 0 (not counted).
        let pair = modes(jac, &[f0.to_vec()], &[1e9, 0.0]).unwrap();
        assert_eq!(pair.len(), 2);
        for m in &pair {
            // Tolerance: 1e-12 relative, the Schur iteration's round-off on a 2×2 matrix.
            assert!((m.modulus - w).abs() < 1e-12 * w, "{m:?}");
            assert!((m.re + z * w).abs() < 1e-12 * w, "{m:?}");
            let expected = 1e-3 / (2.0 * (1.0 - z * z).sqrt()) * 1e9;
            assert!((m.excitation - expected).abs() < 1e-9 * expected, "{m:?}");
        }
        // At its equilibrium (f0 = 0) nothing is excited.
        let jac = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -w * w, -2.0 * z * w]);
        let still = modes(jac, &[vec![0.0, 0.0]], &[1e9, 1e9]).unwrap();
        assert!(still.iter().all(|m| m.excitation == 0.0), "{still:?}");
    }

    #[test]
    fn a_decaying_modes_steps_are_the_integral_of_its_falling_pace() {
        // pace 1000 steps/s decaying at σ = 50 1/s under an order-5 method (τ = 0.1 s), floor
        // 10 steps/s, run 10 s, excited far above the tolerance: the pace meets the floor at
        // t_c = τ·ln(100) = 0.4605 s; steps = 10·10 + 0.1·1000·(1 − 1/100) − 10·0.4605.
        let steps = decaying_mode_steps(1000.0, 50.0, 1e12, 5.0, 10.0, 10.0);
        let expected = 100.0 + 100.0 * 0.99 - 10.0 * 0.1 * 100f64.ln();
        assert!(
            (steps - expected).abs() < 1e-9 * expected,
            "{steps} vs {expected}"
        );
        // Excited only 10× above the tolerance: it matters for ln(10)/σ = 0.046 s.
        let weak = decaying_mode_steps(1000.0, 50.0, 10.0, 5.0, 10.0, 10.0);
        let t_e = 10f64.ln() / 50.0;
        let expected = 100.0 + 100.0 * (1.0 - (-t_e / 0.1).exp()) - 10.0 * t_e;
        assert!((weak - expected).abs() < 1e-9 * expected);
        // Undamped: the pace for the whole run; below the floor: the floor.
        assert_eq!(decaying_mode_steps(1000.0, 0.0, 1e12, 5.0, 10.0, 10.0), 1e4);
        assert_eq!(decaying_mode_steps(5.0, 50.0, 1e12, 5.0, 10.0, 10.0), 100.0);
    }
}
