//! The kinks of the normal force laws, as zero-crossing functions.
//!
//! Every law is clipped, f_n = max(0, f) with f the unclipped law (see `normal_force`), so f_n has
//! a kink where f crosses zero while the bodies still overlap: the *clip point*. After an impact
//! with damping the force reaches zero before the bodies part (k·d + b·ḋ = 0 at d > 0, ḋ < 0)
//! and the bodies move apart unforced until d = 0: the "slack" phase. Some laws have more kinks:
//!
//! | law | kink functions (d > 0) |
//! |-----|------------------------|
//! | linear spring-damper | clip: k·d + b·ḋ |
//! | smooth spring-damper | clip: k·d + b·ḋ (the smoothstep factor is > 0) |
//! | linear spring, limited damper | clip: k·d + min(k·d, b·ḋ); damper limit: b·ḋ − k·d |
//! | Hunt–Crossley | clip: the unclipped law k·dⁿ + b·ḋ·\|ḋ\|^(q−1)·d^p |
//! | input | none |
//!
//! Each function changes sign exactly at its kink, and is meant to be located when it *falls*
//! through zero (direction Falling): the force letting go while the bodies still overlap (and the
//! limited damper's switch from damper-limited to spring-limited). While the bodies are apart
//! (d ≤ 0) every function is +1 ([`APART`]): no function can then cross zero in flight (the apex of
//! a bounce would otherwise cross b·ḋ = 0); at contact onset it goes from +1 to b·ḋ > 0 without a
//! sign change, and at the parting after a slack phase it jumps from below zero to +1, a rise that
//! a Falling function does not fire on. The discontinuities thus never look like crossings, and
//! the solver's secant estimates on rejected steps are not misled by them (with −1 while apart,
//! the jump at onset did both, and ball_drop took 43 % more evaluations). Not located: the force
//! coming back while the bodies still overlap (a rise through zero), a rarer kink.
//!
//! The ends of the smooth law's ramp (d = 0 and d = w) are not kinks: the smoothstep has zero
//! slope at both, so f is C¹ there (only f'' jumps) and the 5th-order step control sees no reason
//! to reject a step across them. Declaring d − w anyway made a coin resting at a depth near w fire
//! it back and forth until the chattering guard stopped the run (models/coin_drop.toml), so it is
//! left out. The friction laws (`friction`) are C² regularisations without kinks (μ(0) = 0,
//! smooth at the critical or stiction velocity): they add no function either.

use super::normal_force::NormalForceLaw;

/// The value of every kink function while the bodies are apart.
pub const APART: f64 = 1.0;

impl NormalForceLaw {
    /// Number of kink functions of the law (see the module documentation).
    pub fn kink_count(&self) -> usize {
        match self {
            NormalForceLaw::LinearSpringDamper { .. }
            | NormalForceLaw::SmoothSpringDamper { .. }
            | NormalForceLaw::HuntCrossley { .. } => 1,
            NormalForceLaw::LinearSpringLimitedDamper { .. } => 2,
            NormalForceLaw::Input => 0,
        }
    }

    /// Writes the law's [`kink_count`](Self::kink_count) kink functions at penetration depth
    /// `depth` (m, > 0 overlapping) and rate `rate` (m/s, > 0 approaching) into `out`; all
    /// [`APART`] when `depth` ≤ 0 (or NaN).
    pub fn kink_values(&self, depth: f64, rate: f64, out: &mut [f64]) {
        // A NaN depth counts as apart, as in `magnitude`.
        if depth.is_nan() || depth <= 0.0 {
            out.fill(APART);
            return;
        }
        match *self {
            NormalForceLaw::LinearSpringDamper { stiffness, damping } => {
                out[0] = stiffness * depth + damping * rate;
            }
            NormalForceLaw::SmoothSpringDamper {
                stiffness, damping, ..
            } => {
                out[0] = stiffness * depth + damping * rate;
            }
            NormalForceLaw::LinearSpringLimitedDamper { stiffness, damping } => {
                let (spring, damper) = (stiffness * depth, damping * rate);
                out[0] = spring + spring.min(damper);
                out[1] = damper - spring;
            }
            NormalForceLaw::HuntCrossley { .. } => {
                // The unclipped law: magnitude() is its positive part, and it is negative only
                // where the damping term outweighs the elastic one.
                out[0] = self.unclipped(depth, rate);
            }
            NormalForceLaw::Input => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laws() -> [NormalForceLaw; 5] {
        [
            NormalForceLaw::LinearSpringDamper {
                stiffness: 1e5,
                damping: 100.0,
            },
            NormalForceLaw::SmoothSpringDamper {
                stiffness: 1e5,
                damping: 100.0,
                transition_width: 1e-4,
            },
            NormalForceLaw::LinearSpringLimitedDamper {
                stiffness: 1e5,
                damping: 100.0,
            },
            NormalForceLaw::hunt_crossley(1e7, 50.0, 1.5),
            NormalForceLaw::Input,
        ]
    }

    /// The clip function's sign is the sign of the unclipped force: it is ≤ 0 exactly where
    /// `magnitude` is 0 while overlapping, on a grid of depths and rates spanning both sides.
    #[test]
    fn clip_function_changes_sign_where_the_force_vanishes() {
        for law in laws() {
            let mut out = [0.0; 2];
            let count = law.kink_count();
            for i in 1..=40 {
                let d = i as f64 * 1e-5;
                for j in -40..=40 {
                    let rate = j as f64 * 0.05;
                    law.kink_values(d, rate, &mut out[..count]);
                    if count == 0 {
                        continue;
                    }
                    let force = law.magnitude(d, rate);
                    assert_eq!(
                        out[0] > 0.0,
                        force > 0.0,
                        "{law:?} at d = {d}, ḋ = {rate}: clip {} force {force}",
                        out[0]
                    );
                }
            }
        }
    }

    /// The limited damper's other kink: it switches where b·ḋ = k·d (there both sides of the min
    /// agree: f = 2k·d).
    #[test]
    fn other_kinks_are_where_the_formula_switches() {
        let [_, _, limited, ..] = laws();
        let mut out = [0.0; 2];
        // k·d = 1e5·1e-4 = 10 N = b·ḋ at ḋ = 0.1 m/s.
        limited.kink_values(1e-4, 0.1, &mut out);
        assert!(out[1].abs() < 1e-12, "{out:?}");
        assert!((limited.magnitude(1e-4, 0.1) - 20.0).abs() < 1e-12);
    }

    #[test]
    fn apart_is_positive_for_every_function() {
        for law in laws() {
            let mut out = [0.0; 2];
            for d in [0.0, -1e-3, f64::NAN] {
                law.kink_values(d, 1.0, &mut out);
                assert_eq!(out, [APART; 2], "{law:?} at d = {d}");
            }
        }
    }
}
