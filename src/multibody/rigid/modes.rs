//! Contact modes as located events: lift-off, slip onset and the sticking/sliding switch.
//!
//! The resting forces come from a complementarity problem solved at every evaluation, so the
//! right-hand side changes piece at the points where a contact's mode changes: a normal force
//! reaching zero while the contact starts to separate (lift-off), a sticking friction force
//! reaching the cone while the contact starts to slide (slip onset), and a slip speed crossing
//! [`SLIDING_VELOCITY`], where static friction (the polyhedral cone) and dynamic friction (the
//! exact isotropic law along the slip) take over from each other. Each is a kink or a jump of
//! the accelerations; a step that straddles one has its error estimate spoiled and is rejected,
//! often several times. Here each becomes a zero crossing, so that steps end at mode changes and
//! within a step the mode is fixed and the right-hand side smooth.
//!
//! # Indicators
//!
//! For every resting point, from the solved forces `f` and accelerations `a = A f + b`:
//!
//! - **normal** `φ_n = f_n − a_n / A_nn + τ` (N). Complementarity keeps `f_n ≥ 0`, `a_n ≥ 0`,
//!   `f_n·a_n = 0`, so `φ_n` is positive while the point is clamped (pressing) and negative once
//!   it separates, and — the forces and accelerations being continuous in the state — it changes
//!   sign exactly at lift-off (or at a landing without impact);
//! - **cone** (sticking contacts with friction) `φ_c = μ f_n − ‖f_t‖_P − ‖a_t‖ / A_tt + τ` (N),
//!   with `‖·‖_P` the gauge of the friction polygon (`max_m f_t·e_m / cos(π/k)` over its edge
//!   normals `e_m`, the disk's `|f_t|` for a planar contact): positive while the contact holds
//!   inside the cone, negative once it is on the cone and accelerating along it;
//! - **speed** (resting contacts with friction) `φ_s = |v_t| / V − 1` with `V` =
//!   [`SLIDING_VELOCITY`].
//!
//! `τ` = [`MODE_TOLERANCE`](super::mode_indicators::MODE_TOLERANCE) × the pair's force scale (the largest `|f_n|` and `|b_n| / A_nn` of its
//! points) keeps the degenerate zero-force rows of a redundant contact (one corner of a box
//! resting on four, whose force the pivoting leaves at zero with `a_n` zero to round-off), and a
//! contact sticking exactly at the cone, on the clamped side instead of flickering with the
//! round-off.
//!
//! # One crossing per pair
//!
//! Points of a manifold carry no identity from one evaluation to the next (the manifold is
//! computed again and may list its corners in another order), so the indicators are used through
//! their order statistics, which do not depend on the order: per family, sorted decreasingly,
//! with `N` the number that were positive at the last event,
//!
//! ```text
//! g_family = min(φ_(N), −φ_(N+1))        (φ_(0) = +∞, φ_(count+1) = −∞)
//! g_pair   = min over the three families
//! ```
//!
//! `g_pair` is continuous while the indicators are, positive while every family has its `N`
//! positive values, and falls through zero as soon as a family's count changes — one value
//! falling through zero (`φ_(N)`) or one rising (`φ_(N+1)`), several at once (the two back
//! corners of a tipping box) included. At the event the counts are taken again (lazily, at the
//! next evaluation of the crossing: the solver evaluates it at the event's state right after the
//! event). Infinite values are reported as ±1.

use super::mode_indicators::{CONE, FAMILIES, NORMAL, SPEED};
use super::workspace::RigidWorkspace;
use super::SLIDING_VELOCITY;
use crate::multibody::constraints::{ContactMotion, RowKind};

/// Computes the mode indicators of the resting rows just solved in `rw` (rows, kinds, contacts,
/// forces, the right-hand side `rw.bias` and `A`). Does not allocate.
pub fn record_modes(rw: &mut RigidWorkspace) {
    let RigidWorkspace {
        modes,
        rows,
        kinds,
        contacts,
        row_candidate,
        candidates,
        forces,
        bias,
        constraint_rows,
        ..
    } = rw;
    modes.clear();
    let n = rows.len();
    let a = constraint_rows.matrix();
    let acceleration = |r: usize| (0..n).map(|j| a[(r, j)] * forces[j]).sum::<f64>() + bias[r];
    let mut contact_of_row = contacts.iter().peekable();
    let mut r = 0;
    while r < n {
        // The rows of one pair are contiguous: find its scale first.
        let owner = candidates[row_candidate[r]].owner;
        let end = (r..n)
            .find(|&j| candidates[row_candidate[j]].owner != owner)
            .unwrap_or(n);
        let scale = (r..end)
            .filter(|&j| kinds[j] == RowKind::Unilateral && a[(j, j)] > 0.0)
            .map(|j| forces[j].abs().max(bias[j].abs() / a[(j, j)]))
            .fold(0.0f64, f64::max);
        let starts: [usize; FAMILIES] = std::array::from_fn(|f| modes.values[f].len());
        for j in r..end {
            if kinds[j] != RowKind::Unilateral || a[(j, j)] <= 0.0 {
                continue;
            }
            modes.push_held(NORMAL, acceleration(j) / a[(j, j)], scale);
            while contact_of_row.peek().is_some_and(|c| c.normal_row < j) {
                contact_of_row.next();
            }
            let Some(contact) = contact_of_row.peek().filter(|c| c.normal_row == j) else {
                continue;
            };
            if contact.tangent_rows == 0 || contact.mu <= 0.0 {
                continue;
            }
            let slip = candidates[row_candidate[j]].slip_speed();
            modes.values[SPEED].push((slip - SLIDING_VELOCITY) / (slip + SLIDING_VELOCITY));
            if contact.motion == ContactMotion::Sticking {
                let (mut a_t, mut diagonal) = (0.0f64, 0.0f64);
                for t in j + 1..j + 1 + contact.tangent_rows {
                    a_t += acceleration(t).powi(2);
                    diagonal = diagonal.max(a[(t, t)]);
                }
                if diagonal > 0.0 {
                    modes.push_held(CONE, a_t.sqrt() / diagonal, scale);
                }
            }
        }
        for (family, &start) in starts.iter().enumerate() {
            let values = &mut modes.values[family][start..];
            values.sort_unstable_by(|x, y| y.total_cmp(x));
            modes.spans[owner][family] = (start, values.len());
        }
        r = end;
    }
}
