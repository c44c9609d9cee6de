//! The numbers behind `blockdyn check`'s advice for a penalty contact's normal law (the
//! SpatialContactForce block): the static depth under the weight it carries, the linearized
//! natural frequency and damping ratio about that rest state, and the step an explicit solver
//! (dopri5) will need while the contact is closed. Their text is `advice_text`'s; the rates
//! other modules read are `rates`'s.
//!
//! # The linearization
//!
//! A body of mass m (kg) resting on the contact under a weight W (N) sits at the static depth d₀
//! where the law's elastic part balances the weight, f_n(d₀, 0) = W. About that rest state the
//! normal motion x = d − d₀ obeys
//!
//! m·ẍ + b_eff·ẋ + k_eff·x = 0, with k_eff = ∂f_n/∂d and b_eff = ∂f_n/∂ḋ at (d₀, ḋ = 0),
//!
//! whose eigenvalues are λ = −ζω ± ω·sqrt(ζ² − 1), with the natural frequency ω = sqrt(k_eff/m)
//! (rad/s) and the damping ratio ζ = b_eff/(2·sqrt(k_eff·m)). Dormand–Prince 5(4)'s stability
//! region reaches about 3.3 along both the negative real and the imaginary axis, so an explicit
//! step of h ≈ 3.0/|λ|max (s) is stable; the solver takes steps of about that size (or smaller,
//! for accuracy) whenever the contact is closed.
//!
//! | law | d₀ | k_eff | b_eff |
//! |-----|----|-------|-------|
//! | linear spring-damper, limited damper | W/k | k | b |
//! | smooth spring-damper, W/k ≥ w | W/k | k | b |
//! | smooth spring-damper, W/k < w | s(d₀/w)·k·d₀ = W | k·x²(9 − 8x), x = d₀/w | s(x)·b |
//! | Hunt–Crossley | (W/k)^(1/n) | n·k·d₀^(n−1) | b·d₀^p (q = 1) |
//!
//! with the smoothstep s(x) = 3x² − 2x³ (its slope 6x(1 − x) gives d/dd [s·k·d] = k·x²(9 − 8x)).
//! The limited damper's min(k·d, b·ḋ) is b·ḋ for small rates at a positive depth, so it
//! linearizes like the plain spring-damper. A Hunt–Crossley damping term with velocity exponent
//! q ≠ 1 has no linear part at rest (its slope is 0 for q > 1 and unbounded for q < 1): b_eff is
//! then taken as 0 and the text says so.
//!
//! # Stiffness warning
//!
//! The contact is flagged stiff when dopri5 would need more than [`STIFF_STEPS_PER_SECOND`] steps
//! per simulated second, or when it is overdamped (ζ > 1) with its fast real eigenvalue more than
//! [`STIFF_EIGENVALUE_RATIO`] times its slow one (the fast one sets the explicit step, the slow one
//! the time scale of the motion).

use super::rest_state::{
    finite_or_zero, hunt_crossley_depth, hunt_crossley_stiffness, linear_depth, RestState,
};
use crate::contact::normal_force::NormalForceLaw;
use crate::solver::Method;

/// More steps per simulated second than this (in contact) flags the contact as stiff.
pub const STIFF_STEPS_PER_SECOND: f64 = 1e4;

/// An overdamped contact (ζ > 1) whose fast eigenvalue exceeds its slow one by more than this
/// factor is flagged as stiff.
pub const STIFF_EIGENVALUE_RATIO: f64 = 100.0;

/// The numbers behind the advice for one penalty contact carrying a weight. Built by
/// [`ContactAdvice::compute`]; its [`Display`](std::fmt::Display) (in `advice_text`) is the one-line advice text.
///
/// Every field is finite or a documented infinity/`None`, never NaN, for any finite inputs
/// (negative or non-finite weight and mass count as 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactAdvice {
    /// The law's method name in the model format, e.g. `smooth_spring_damper`.
    pub law: &'static str,
    /// The law's stiffness k (N/m; N/mⁿ for Hunt–Crossley).
    pub stiffness: f64,
    /// The law's damping b (N·s/m; N·s^q/m^(q+p) for Hunt–Crossley).
    pub damping: f64,
    /// The smooth law's transition width w (m).
    pub transition_width: Option<f64>,
    /// Hunt–Crossley's depth exponent n of the elastic term.
    pub exponent: Option<f64>,
    /// Hunt–Crossley's depth exponent p of the damping term.
    pub damping_depth_exponent: Option<f64>,
    /// Hunt–Crossley's velocity exponent q when it is not 1: its damping has no linear part at
    /// rest and is left out of b_eff.
    pub nonlinear_velocity_exponent: Option<f64>,
    /// The supported weight W ≥ 0 (N).
    pub supported_weight: f64,
    /// The supported mass m ≥ 0 (kg).
    pub supported_mass: f64,
    /// The static depth d₀ (m) at which the law's force equals W; `None` when the law has zero
    /// stiffness and cannot carry a positive weight.
    pub static_depth: Option<f64>,
    /// k_eff = ∂f_n/∂d at (d₀, ḋ = 0) (N/m); 0 when the contact cannot carry the weight.
    pub linear_stiffness: f64,
    /// b_eff = ∂f_n/∂ḋ at (d₀, ḋ = 0) (N·s/m).
    pub linear_damping: f64,
    /// ω = sqrt(k_eff/m) (rad/s); `None` without mass (m = 0) or without a static depth.
    pub natural_frequency: Option<f64>,
    /// ζ = b_eff/(2·sqrt(k_eff·m)); `None` when k_eff·m = 0.
    pub damping_ratio: Option<f64>,
    /// |λ|max (1/s): the fastest eigenvalue's modulus; 0 when nothing is linearizable.
    pub fastest_rate: f64,
    /// |λ|min (1/s): the slowest eigenvalue's modulus (equal to ω when underdamped).
    pub slowest_rate: f64,
    /// h ≈ [`Method::stability_reach`] of dopri5 / |λ|max (s); +∞ when the resting contact sets no limit.
    pub explicit_step: f64,
    /// The contact needs a stiff solver (see the module documentation).
    pub stiff: bool,
}

impl ContactAdvice {
    /// The advice for a contact with the normal law `normal` carrying `supported_weight` W (N) of
    /// a body of `supported_mass` m (kg); `None` for [`NormalForceLaw::Input`] (the magnitude is
    /// an input signal: there is no depth or stiffness to check). Pure, never panics.
    pub fn compute(
        normal: &NormalForceLaw,
        supported_weight: f64,
        supported_mass: f64,
    ) -> Option<ContactAdvice> {
        let weight = non_negative(supported_weight);
        let mass = non_negative(supported_mass);
        let mut advice = ContactAdvice::unlinearized(normal, weight, mass);
        let rest = advice.law_at_rest(normal, weight)?;
        advice.static_depth = rest.depth.map(finite_or_zero);
        if rest.depth.is_none() {
            return Some(advice);
        }
        advice.linearize(saturate(rest.k_eff), saturate(rest.b_eff));
        Some(advice)
    }

    /// The advice for the law's name, the weight W ≥ 0 (N) and the mass m ≥ 0 (kg), before the
    /// law's parameters are recorded: no static depth, zero rates, no step limit.
    fn unlinearized(normal: &NormalForceLaw, weight: f64, mass: f64) -> ContactAdvice {
        ContactAdvice {
            law: normal.method_name(),
            stiffness: 0.0,
            damping: 0.0,
            transition_width: None,
            exponent: None,
            damping_depth_exponent: None,
            nonlinear_velocity_exponent: None,
            supported_weight: weight,
            supported_mass: mass,
            static_depth: None,
            linear_stiffness: 0.0,
            linear_damping: 0.0,
            natural_frequency: None,
            damping_ratio: None,
            fastest_rate: 0.0,
            slowest_rate: 0.0,
            explicit_step: f64::INFINITY,
            stiff: false,
        }
    }

    /// Records the law's parameters and returns its rest state under the weight W ≥ 0 (N);
    /// `None` for [`NormalForceLaw::Input`].
    fn law_at_rest(&mut self, normal: &NormalForceLaw, weight: f64) -> Option<RestState> {
        match *normal {
            NormalForceLaw::Input => None,
            NormalForceLaw::LinearSpringDamper { stiffness, damping }
            | NormalForceLaw::LinearSpringLimitedDamper { stiffness, damping } => {
                self.stiffness = stiffness;
                self.damping = damping;
                Some(RestState {
                    depth: linear_depth(weight, stiffness),
                    k_eff: stiffness,
                    b_eff: damping,
                })
            }
            NormalForceLaw::SmoothSpringDamper {
                stiffness,
                damping,
                transition_width,
            } => {
                self.stiffness = stiffness;
                self.damping = damping;
                self.transition_width = Some(transition_width);
                Some(RestState::smooth(
                    weight,
                    stiffness,
                    damping,
                    transition_width,
                ))
            }
            NormalForceLaw::HuntCrossley {
                stiffness,
                damping,
                exponent,
                velocity_exponent,
                depth_exponent,
            } => {
                self.stiffness = stiffness;
                self.damping = damping;
                self.exponent = Some(exponent);
                self.damping_depth_exponent = Some(depth_exponent);
                if velocity_exponent != 1.0 {
                    self.nonlinear_velocity_exponent = Some(velocity_exponent);
                }
                let depth = hunt_crossley_depth(weight, stiffness, exponent);
                Some(match depth {
                    Some(depth) => RestState {
                        depth: Some(depth),
                        k_eff: hunt_crossley_stiffness(depth, stiffness, exponent),
                        b_eff: if velocity_exponent == 1.0 {
                            damping * depth.powf(depth_exponent)
                        } else {
                            0.0
                        },
                    },
                    None => RestState::CANNOT_CARRY,
                })
            }
        }
    }

    /// Sets the linearized stiffness k_eff (N/m) and damping b_eff (N·s/m) at rest and, with a
    /// mass, the natural frequency, damping ratio, eigenvalue moduli, explicit step and the
    /// stiffness flag they give (see the module documentation).
    fn linearize(&mut self, k_eff: f64, b_eff: f64) {
        let mass = self.supported_mass;
        self.linear_stiffness = k_eff;
        self.linear_damping = b_eff;
        if mass <= 0.0 {
            return;
        }
        let omega = saturate((k_eff / mass).sqrt());
        self.natural_frequency = Some(omega);
        if k_eff > 0.0 {
            self.damping_ratio = Some(saturate(b_eff / (2.0 * (k_eff * mass).sqrt())));
        }
        let (fast, slow) = eigenvalue_moduli(k_eff, b_eff, mass, omega);
        self.fastest_rate = fast;
        self.slowest_rate = slow;
        if fast > 0.0 {
            self.explicit_step = Method::Dopri5.stability_reach() / fast;
        }
        let too_many_steps = self.steps_per_second() > STIFF_STEPS_PER_SECOND;
        let overdamped_spread = self.damping_ratio.is_some_and(|zeta| zeta > 1.0)
            && slow > 0.0
            && fast > STIFF_EIGENVALUE_RATIO * slow;
        self.stiff = too_many_steps || overdamped_spread;
    }

    /// The explicit steps per simulated second while in contact, 1/h (0 when no limit).
    pub fn steps_per_second(&self) -> f64 {
        if self.explicit_step.is_finite() && self.explicit_step > 0.0 {
            saturate(1.0 / self.explicit_step)
        } else {
            0.0
        }
    }

    /// True when the contact can carry the supported weight (a static depth exists).
    pub fn carries_weight(&self) -> bool {
        self.static_depth.is_some()
    }
}

/// The moduli (fast, slow) (1/s) of the eigenvalues of m·x'' + b·x' + k·x = 0 (m > 0, ω =
/// sqrt(k/m) saturated): a complex pair of modulus ω when b² < 4mk, else real
/// −(b ± sqrt(b² − 4mk))/(2m); the slow one as (k/m)/fast avoids cancellation.
fn eigenvalue_moduli(k_eff: f64, b_eff: f64, mass: f64, omega: f64) -> (f64, f64) {
    let discriminant = b_eff * b_eff - 4.0 * mass * k_eff;
    if discriminant < 0.0 {
        (omega, omega)
    } else {
        let fast = saturate((b_eff + discriminant.sqrt()) / (2.0 * mass));
        let slow = if fast > 0.0 {
            saturate(k_eff / mass / fast)
        } else {
            0.0
        };
        (fast, slow)
    }
}

/// Negative and non-finite values (NaN, ±∞) as 0.
fn non_negative(value: f64) -> f64 {
    if value.is_finite() && value > 0.0 {
        value
    } else {
        0.0
    }
}

/// NaN as 0, +∞ as the largest finite number (an unbounded rate still gives a tiny, printable
/// step rather than 0 or NaN).
fn saturate(value: f64) -> f64 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(-f64::MAX, f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::super::advice_text::spatial_contact_advice;
    use super::*;
    use crate::contact::friction::FrictionLaw;
    use crate::contact::normal_force::smoothstep;

    const G: f64 = 9.81;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
    }

    fn no_nan(text: &str) {
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    }

    #[test]
    fn linear_law_hand_values() {
        // k = 1e5 N/m, b = 100 N·s/m, m = 1 kg, W = 9.81 N: d = 9.81e-5 m, ω = sqrt(1e5) =
        // 316.23 rad/s, ζ = 100/(2·316.23) = 0.1581 (underdamped: |λ| = ω), h = 3/ω = 9.49e-3 s.
        let law = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e5,
            damping: 100.0,
        };
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        assert!(rel(a.static_depth.unwrap(), 9.81e-5) < 1e-14);
        let omega = 1e5f64.sqrt();
        assert!(rel(a.natural_frequency.unwrap(), omega) < 1e-14);
        assert!((omega - 316.2).abs() < 0.05);
        assert!(rel(a.damping_ratio.unwrap(), 100.0 / (2.0 * omega)) < 1e-14);
        assert!((a.damping_ratio.unwrap() - 0.158).abs() < 1e-3);
        assert!(rel(a.fastest_rate, omega) < 1e-14);
        assert!(rel(a.explicit_step, 3.0 / omega) < 1e-14);
        assert!(!a.stiff);
        let text = a.to_string();
        assert!(text.contains("static depth d = W/k = 9.810e-5 m"), "{text}");
        assert!(text.contains("316.2 rad/s"), "{text}");
        assert!(text.contains("50.33 Hz"), "{text}");
        assert!(
            text.contains("ζ = b_eff/(2·sqrt(k_eff·m)) = 0.1581"),
            "{text}"
        );
        assert!(
            text.contains("dopri5 needs steps of about 9.49e-3 s"),
            "{text}"
        );
        assert!(
            text.contains("about 106 steps per simulated second"),
            "{text}"
        );
        assert!(text.contains("contact_points = \"manifold\""), "{text}");
        assert!(!text.contains("stiff:"), "{text}");
        assert!(!text.contains('\n'), "{text}");
        no_nan(&text);
    }

    #[test]
    fn limited_damper_linearizes_like_the_plain_one() {
        let plain = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e5,
            damping: 100.0,
        };
        let limited = NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: 1e5,
            damping: 100.0,
        };
        let a = ContactAdvice::compute(&plain, G, 1.0).unwrap();
        let b = ContactAdvice::compute(&limited, G, 1.0).unwrap();
        assert_eq!(a.static_depth, b.static_depth);
        assert_eq!(a.natural_frequency, b.natural_frequency);
        assert_eq!(a.damping_ratio, b.damping_ratio);
        assert_eq!(a.explicit_step, b.explicit_step);
    }

    #[test]
    fn smooth_law_inside_the_transition_width() {
        // W/k = 9.81e-5 < w = 1e-3: the depth lies on the smoothstep ramp.
        let (k, b, w) = (1e5, 100.0, 1e-3);
        let law = NormalForceLaw::SmoothSpringDamper {
            stiffness: k,
            damping: b,
            transition_width: w,
        };
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        let d = a.static_depth.unwrap();
        assert!(d > 0.0 && d < w);
        assert!(rel(smoothstep(d / w) * k * d, G) < 1e-9);
        // The law itself agrees at rest.
        assert!(rel(law.magnitude(d, 0.0), G) < 1e-9);
        // k_eff = k·x²(9 − 8x), b_eff = s(x)·b, checked against a central difference of the law.
        let x = d / w;
        assert!(rel(a.linear_stiffness, k * x * x * (9.0 - 8.0 * x)) < 1e-12);
        let h = 1e-6 * d;
        let slope = (law.magnitude(d + h, 0.0) - law.magnitude(d - h, 0.0)) / (2.0 * h);
        assert!(rel(a.linear_stiffness, slope) < 1e-6);
        assert!(rel(a.linear_damping, smoothstep(x) * b) < 1e-12);
        let omega = a.linear_stiffness.sqrt();
        assert!(rel(a.natural_frequency.unwrap(), omega) < 1e-14);
        assert!(a.to_string().contains("smoothstep(d/w)·k·d = W"));
    }

    #[test]
    fn smooth_law_beyond_the_transition_width_is_linear() {
        // W/k = 9.81e-4 ≥ w = 1e-4: d = W/k, k_eff = k, b_eff = b.
        let law = NormalForceLaw::SmoothSpringDamper {
            stiffness: 1e4,
            damping: 10.0,
            transition_width: 1e-4,
        };
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        assert!(rel(a.static_depth.unwrap(), 9.81e-4) < 1e-14);
        assert_eq!(a.linear_stiffness, 1e4);
        assert_eq!(a.linear_damping, 10.0);
        assert!(a.to_string().contains("d = W/k (≥ w) = 9.810e-4 m"));
    }

    #[test]
    fn hunt_crossley_hertz_exponent() {
        // n = 1.5: d = (W/k)^(2/3), k_eff = 1.5·k·d^0.5, b_eff = b·d^1.5 (= b·W/k).
        let (k, b) = (1e6, 1e3);
        let law = NormalForceLaw::hunt_crossley(k, b, 1.5);
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        let d = (G / k).powf(2.0 / 3.0);
        assert!(rel(a.static_depth.unwrap(), d) < 1e-14);
        assert!(rel(law.magnitude(d, 0.0), G) < 1e-12);
        assert!(rel(a.linear_stiffness, 1.5 * k * d.sqrt()) < 1e-12);
        assert!(rel(a.linear_damping, b * G / k) < 1e-12);
        let omega = (1.5 * k * d.sqrt()).sqrt();
        assert!(rel(a.natural_frequency.unwrap(), omega) < 1e-12);
        let text = a.to_string();
        assert!(
            text.contains("N/m^1.5") && text.contains("(W/k)^(1/n)"),
            "{text}"
        );
        no_nan(&text);
    }

    #[test]
    fn hunt_crossley_nonlinear_velocity_exponent_is_left_out_and_said() {
        let law = NormalForceLaw::HuntCrossley {
            stiffness: 1e6,
            damping: 1e3,
            exponent: 1.5,
            velocity_exponent: 2.0,
            depth_exponent: 1.5,
        };
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        assert_eq!(a.linear_damping, 0.0);
        assert_eq!(a.damping_ratio, Some(0.0));
        assert!(a.to_string().contains("no linear part at rest"));
    }

    #[test]
    fn mathworks_typical_parameters_are_stiff() {
        // Simscape's defaults: k = 8e7 N/m, b = 4e6 N·s/m, w = 1e-4 m; m = 1 kg.
        let law = NormalForceLaw::SmoothSpringDamper {
            stiffness: 8e7,
            damping: 4e6,
            transition_width: 1e-4,
        };
        let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
        // x³(3 − 2x) = 9.81/8e3 ⇒ x ≈ 0.0755; ζ ≫ 1 with eigenvalues ≈ b_eff/m and k_eff/b_eff.
        assert!(a.damping_ratio.unwrap() > 1.0);
        assert!(a.fastest_rate > STIFF_EIGENVALUE_RATIO * a.slowest_rate);
        assert!(a.steps_per_second() > STIFF_STEPS_PER_SECOND);
        assert!(a.stiff);
        let text = a.to_string();
        assert!(
            text.contains("stiff: an explicit method will crawl here"),
            "{text}"
        );
        assert!(
            text.contains("method = \"auto\" (the default) goes implicit"),
            "{text}"
        );
        assert!(text.contains("method = \"trbdf2\""), "{text}");
        assert!(text.contains("raise transition_width"), "{text}");
        assert!(text.contains("overdamped"), "{text}");
        no_nan(&text);
    }

    #[test]
    fn soft_contact_is_not_stiff() {
        // k = 1e4 N/m, b = 10 N·s/m, m = 1 kg: ω = 100 rad/s, ζ = 0.05, h = 0.03 s, 34 steps/s.
        for law in [
            NormalForceLaw::LinearSpringDamper {
                stiffness: 1e4,
                damping: 10.0,
            },
            NormalForceLaw::SmoothSpringDamper {
                stiffness: 1e4,
                damping: 10.0,
                transition_width: 1e-4,
            },
        ] {
            let a = ContactAdvice::compute(&law, G, 1.0).unwrap();
            assert!(rel(a.natural_frequency.unwrap(), 100.0) < 1e-14);
            assert!(rel(a.damping_ratio.unwrap(), 0.05) < 1e-14);
            assert!(rel(a.explicit_step, 0.03) < 1e-14);
            assert!(!a.stiff);
            let text = a.to_string();
            assert!(
                text.contains("about 34 steps per simulated second"),
                "{text}"
            );
            assert!(!text.contains("stiff:"), "{text}");
        }
    }

    #[test]
    fn overdamped_spread_alone_flags_stiff() {
        // k = 1, b = 100, m = 1: ζ = 50, fast ≈ 100, slow ≈ 0.01 (ratio 1e4), only ~33 steps/s.
        let law = NormalForceLaw::LinearSpringDamper {
            stiffness: 1.0,
            damping: 100.0,
        };
        let a = ContactAdvice::compute(&law, 0.1, 1.0).unwrap();
        assert!(a.steps_per_second() < STIFF_STEPS_PER_SECOND);
        assert!(rel(a.fastest_rate * a.slowest_rate, 1.0) < 1e-12);
        assert!(a.stiff);
    }

    #[test]
    fn input_law_has_no_advice() {
        assert!(ContactAdvice::compute(&NormalForceLaw::Input, G, 1.0).is_none());
        assert!(
            spatial_contact_advice(&NormalForceLaw::Input, &FrictionLaw::None, G, 1.0).is_none()
        );
    }

    #[test]
    fn degenerate_inputs_give_sensible_text() {
        let laws = [
            NormalForceLaw::LinearSpringDamper {
                stiffness: 0.0,
                damping: 0.0,
            },
            NormalForceLaw::LinearSpringLimitedDamper {
                stiffness: 1e5,
                damping: 0.0,
            },
            NormalForceLaw::SmoothSpringDamper {
                stiffness: 0.0,
                damping: 10.0,
                transition_width: 1e-4,
            },
            NormalForceLaw::SmoothSpringDamper {
                stiffness: 8e7,
                damping: 4e6,
                transition_width: 1e-4,
            },
            NormalForceLaw::hunt_crossley(0.0, 1.0, 1.5),
            NormalForceLaw::hunt_crossley(1e6, 1e3, 0.5),
            NormalForceLaw::hunt_crossley(1e6, 1e3, 1.0),
            NormalForceLaw::HuntCrossley {
                stiffness: 1e6,
                damping: 1e3,
                exponent: 2.0,
                velocity_exponent: 0.5,
                depth_exponent: 0.0,
            },
        ];
        let loads = [
            (0.0, 0.0),
            (G, 0.0),
            (0.0, 1.0),
            (G, 1.0),
            (1e-300, 1e-300),
            (1e300, 1e-300),
            (-1.0, -1.0),
            (f64::NAN, f64::INFINITY),
        ];
        for law in &laws {
            for &(weight, mass) in &loads {
                let a = ContactAdvice::compute(law, weight, mass).unwrap();
                for value in [
                    a.static_depth.unwrap_or(0.0),
                    a.linear_stiffness,
                    a.linear_damping,
                    a.natural_frequency.unwrap_or(0.0),
                    a.damping_ratio.unwrap_or(0.0),
                    a.fastest_rate,
                    a.slowest_rate,
                    a.explicit_step,
                ] {
                    assert!(!value.is_nan(), "{law:?} W = {weight} m = {mass}: {a:?}");
                }
                let text = a.to_string();
                no_nan(&text);
                assert!(!text.contains('\n'));
            }
        }
        // k = 0 under a positive weight.
        let zero = NormalForceLaw::LinearSpringDamper {
            stiffness: 0.0,
            damping: 5.0,
        };
        let a = ContactAdvice::compute(&zero, G, 1.0).unwrap();
        assert!(!a.carries_weight());
        assert!(a.to_string().contains("cannot carry"));
        // No load: depth 0, the linear law still has its full stiffness.
        let linear = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e4,
            damping: 0.0,
        };
        let a = ContactAdvice::compute(&linear, 0.0, 1.0).unwrap();
        assert_eq!(a.static_depth, Some(0.0));
        assert!(rel(a.natural_frequency.unwrap(), 100.0) < 1e-14);
        // No load on the smooth law: nothing to linearize, no step limit from resting contact.
        let smooth = NormalForceLaw::SmoothSpringDamper {
            stiffness: 1e4,
            damping: 10.0,
            transition_width: 1e-4,
        };
        let a = ContactAdvice::compute(&smooth, 0.0, 1.0).unwrap();
        assert_eq!(a.explicit_step, f64::INFINITY);
        let text = a.to_string();
        assert!(text.contains("no stiffness at this depth"), "{text}");
        assert!(text.contains("sets no step limit"), "{text}");
        // No mass.
        let a = ContactAdvice::compute(&linear, 0.0, 0.0).unwrap();
        assert!(a.natural_frequency.is_none());
        assert!(a.to_string().contains("without supported mass"));
    }
}
