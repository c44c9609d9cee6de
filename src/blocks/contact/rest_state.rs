//! A penalty contact's rest state under the weight it carries: the static depth d₀ where the
//! normal law's elastic part balances the weight W, f_n(d₀, 0) = W, and the law's slopes
//! k_eff = ∂f_n/∂d and b_eff = ∂f_n/∂ḋ there (the table of `contact_advice`'s module
//! documentation, which linearizes the normal motion about this state).

use crate::contact::normal_force::smoothstep;

/// The rest state of a contact under a weight and the law's slopes there (see the module
/// documentation's table).
pub(super) struct RestState {
    /// The static depth d₀ (m); `None` when the law cannot carry the weight.
    pub(super) depth: Option<f64>,
    /// k_eff = ∂f_n/∂d at (d₀, ḋ = 0) (N/m), before saturation.
    pub(super) k_eff: f64,
    /// b_eff = ∂f_n/∂ḋ at (d₀, ḋ = 0) (N·s/m), before saturation.
    pub(super) b_eff: f64,
}

impl RestState {
    /// A law that cannot carry the weight (zero stiffness).
    pub(super) const CANNOT_CARRY: RestState = RestState {
        depth: None,
        k_eff: 0.0,
        b_eff: 0.0,
    };

    /// The smooth spring-damper's rest state (stiffness k in N/m, damping b in N·s/m,
    /// transition width w in m) under the weight W (N): on the ramp (d₀ < w) the slopes of
    /// s(d/w)·k·d and s(d/w)·b·ḋ, past it k and b.
    pub(super) fn smooth(
        weight: f64,
        stiffness: f64,
        damping: f64,
        transition_width: f64,
    ) -> RestState {
        match smooth_static_depth(weight, stiffness, transition_width) {
            Some(depth) if transition_width > 0.0 && depth < transition_width => {
                let x = depth / transition_width;
                RestState {
                    depth: Some(depth),
                    k_eff: stiffness * x * x * (9.0 - 8.0 * x),
                    b_eff: smoothstep(x) * damping,
                }
            }
            Some(depth) => RestState {
                depth: Some(depth),
                k_eff: stiffness,
                b_eff: damping,
            },
            None => RestState::CANNOT_CARRY,
        }
    }
}

/// Hunt–Crossley's k_eff = n·k·d₀^(n−1) (N/m) at the static depth d₀ (m). At zero load k·dⁿ has
/// no slope for n > 1 and an unbounded one for n < 1.
pub(super) fn hunt_crossley_stiffness(depth: f64, stiffness: f64, exponent: f64) -> f64 {
    if depth > 0.0 {
        exponent * stiffness * depth.powf(exponent - 1.0)
    } else if exponent == 1.0 {
        stiffness
    } else if exponent > 1.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// d₀ = W/k (m) for a linear spring; 0 at zero load; `None` when k = 0 cannot carry W > 0.
pub(super) fn linear_depth(weight: f64, stiffness: f64) -> Option<f64> {
    if weight <= 0.0 {
        Some(0.0)
    } else if stiffness > 0.0 {
        Some(weight / stiffness)
    } else {
        None
    }
}

/// The smooth law's static depth d₀ (m): the root of s(d/w)·k·d = W. The left side is 0 at
/// d = 0, k·w at d = w and increasing in between, so d₀ = W/k when W/k ≥ w; otherwise
/// x = d₀/w ∈ (0, 1) solves x³·(3 − 2x) = r with r = W/(k·w) < 1, found by Newton's method
/// safeguarded by bisection on the bracket [cbrt(r/3), cbrt(r)] (x³ ≤ x³(3 − 2x) ≤ 3x³ on
/// [0, 1]) to about 1e-15 relative. `None` when k = 0 cannot carry W > 0.
fn smooth_static_depth(weight: f64, stiffness: f64, width: f64) -> Option<f64> {
    let depth = linear_depth(weight, stiffness)?;
    if depth == 0.0 || width.is_nan() || width <= 0.0 || depth >= width {
        return Some(depth);
    }
    let ratio = depth / width;
    Some(width * solve_smooth_balance(ratio))
}

/// The root x ∈ [0, 1] of x³·(3 − 2x) = r for 0 ≤ r ≤ 1 (see [`smooth_static_depth`]).
fn solve_smooth_balance(ratio: f64) -> f64 {
    if ratio.is_nan() || ratio <= 0.0 {
        return 0.0;
    }
    if ratio >= 1.0 {
        return 1.0;
    }
    let residual = |x: f64| x * x * x * (3.0 - 2.0 * x) - ratio;
    let mut lo = (ratio / 3.0).cbrt();
    let mut hi = ratio.cbrt().min(1.0);
    if lo <= 0.0 {
        return 0.0;
    }
    let mut x = lo;
    for _ in 0..200 {
        let r = residual(x);
        if r == 0.0 {
            return x;
        }
        if r < 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        // f'(x) = 9x² − 8x³ > 0 on (0, 1].
        let slope = x * x * (9.0 - 8.0 * x);
        let newton = x - r / slope;
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let converged = (next - x).abs() <= 1e-15 * x || hi - lo <= 1e-15 * lo;
        x = next;
        if converged {
            break;
        }
    }
    x
}

/// Hunt–Crossley's static depth d₀ = (W/k)^(1/n) (m); 0 at zero load; `None` when k = 0 cannot
/// carry W > 0.
pub(super) fn hunt_crossley_depth(weight: f64, stiffness: f64, exponent: f64) -> Option<f64> {
    let ratio = linear_depth(weight, stiffness)?;
    if ratio == 0.0 {
        return Some(0.0);
    }
    Some(finite_or_zero(ratio.powf(1.0 / exponent)))
}

/// NaN as 0, everything else unchanged.
pub(super) fn finite_or_zero(value: f64) -> f64 {
    if value.is_nan() {
        0.0
    } else {
        value.min(f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
    }

    #[test]
    fn smooth_law_balance_solves_to_high_relative_accuracy_over_many_decades() {
        for exponent in -30..=0 {
            for mantissa in [1.0, 2.5, 9.99] {
                let r = mantissa * 10f64.powi(exponent);
                if r >= 1.0 {
                    continue;
                }
                let x = solve_smooth_balance(r);
                assert!(x > 0.0 && x < 1.0, "r = {r}: x = {x}");
                assert!(rel(x * x * x * (3.0 - 2.0 * x), r) < 1e-13, "r = {r}");
            }
        }
        assert_eq!(solve_smooth_balance(0.0), 0.0);
        assert_eq!(solve_smooth_balance(1.0), 1.0);
    }
}
