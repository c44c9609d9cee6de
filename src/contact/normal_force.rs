//! Normal contact force laws: the magnitude of the repulsive force between two penetrating
//! geometries as a pure function of the penetration depth and its rate.
//!
//! # Conventions (all laws)
//!
//! - `penetration_depth` d (m): d > 0 when the geometries overlap, d ≤ 0 when they are apart
//!   (d is minus the separation distance). Every law returns 0 for d ≤ 0.
//! - `penetration_rate` ḋ (m/s): the time derivative of d; ḋ > 0 while the geometries approach
//!   (penetration grows), ḋ < 0 while they separate.
//! - The result is the **magnitude** f_n ≥ 0 (N) of the repulsive force: the block applies it along
//!   the contact normal, pushing the geometries apart, equal and opposite on both. A law that
//!   evaluates negative (typically while separating fast with a large damping) is clipped to 0, so
//!   contact never pulls.
//!
//! # MapleSim's sign convention and ours
//!
//! MapleSim writes its modes with a displacement u, an uncompressed length L0 and the velocity
//! v = u̇. Penetration happens when u < L0, and then d = L0 − u, ḋ = −v. Its compression force
//! f_c = −c·(u − L0) = c·d and its damping force f_d = −d·v = b·ḋ are positive in compression, so
//! MapleSim's f_n is exactly our repulsive magnitude: the formulas below are MapleSim's with
//! u − L0 → −d and v → −ḋ (and MapleSim's damping symbol "d" renamed b).
//!
//! # Laws (d > 0; k stiffness, b damping)
//!
//! | law | f_n before clipping |
//! |-----|---------------------|
//! | smooth spring-damper (Simscape) | s(d, w)·(k·d + b·ḋ), s = 3(d/w)² − 2(d/w)³ on [0, w], 1 beyond |
//! | linear spring-damper | k·d + b·ḋ |
//! | linear spring, limited damper | k·d + min(k·d, b·ḋ) |
//! | Hunt–Crossley | k·dⁿ + b·ḋ·\|ḋ\|^(q−1)·d^p |
//!
//! and f_n = max(0, ·) in every case.

use super::law_methods::NormalMethod;
use thiserror::Error;

/// An invalid parameter of a [`NormalForceLaw`].
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NormalForceLawError {
    /// A parameter is NaN or infinite.
    #[error(
        "normal force law `{law}`: {parameter} = {value} is not a finite number; write a finite value, e.g. {parameter} = {example}"
    )]
    NonFinite {
        /// The law's model-format method name, e.g. `smooth_spring_damper`.
        law: &'static str,
        /// The parameter's name.
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// A typical valid value, for the message.
        example: &'static str,
    },
    /// A parameter that must be ≥ 0 (or > 0) is out of range.
    #[error("normal force law `{law}`: {parameter} = {value} is invalid: it must be {requirement}; {advice}")]
    OutOfRange {
        /// The law's model-format method name.
        law: &'static str,
        /// The parameter's name.
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// What the value must satisfy, e.g. "≥ 0 (N/m)".
        requirement: &'static str,
        /// What to write instead.
        advice: &'static str,
    },
}

/// How the normal contact force magnitude is computed (see the module documentation for the
/// conventions and the formulas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NormalForceLaw {
    /// Simscape's smooth spring-damper: f_n = max(0, s(d, w)·(k·d + b·ḋ)) with the cubic
    /// smoothstep s(d, w) = 3(d/w)² − 2(d/w)³ for 0 ≤ d ≤ w and 1 for d > w: s(0) = 0, s(w) = 1,
    /// s'(0) = s'(w) = 0, monotone on [0, w]. The force and its slope are therefore continuous in
    /// d at the onset of contact.
    SmoothSpringDamper {
        /// k (N/m), ≥ 0.
        stiffness: f64,
        /// b (N·s/m), ≥ 0. Zero gives perfectly elastic impacts.
        damping: f64,
        /// w (m), > 0: the depth over which the force ramps up to the full spring-damper law.
        transition_width: f64,
    },
    /// MapleSim's linear spring and damper: f_n = max(0, k·d + b·ḋ).
    LinearSpringDamper {
        /// k (N/m), ≥ 0.
        stiffness: f64,
        /// b (N·s/m), ≥ 0.
        damping: f64,
    },
    /// MapleSim's linear spring with limited damper: with f_c = k·d and f_d = b·ḋ,
    /// f_n = max(0, f_c + min(f_c, f_d)). The damping contribution never exceeds the spring
    /// contribution, which removes the force jump of the plain spring-damper at impact
    /// (f_n → 0 as d → 0 whatever the impact speed).
    LinearSpringLimitedDamper {
        /// k (N/m), ≥ 0.
        stiffness: f64,
        /// b (N·s/m), ≥ 0.
        damping: f64,
    },
    /// Hunt–Crossley in MapleSim's general form:
    /// f_n = max(0, k·dⁿ + b·ḋ·|ḋ|^(q−1)·d^p).
    ///
    /// The classic Hunt–Crossley model (damping proportional to the elastic force's depth
    /// dependence) is p = n, q = 1: f_n = dⁿ·(k + b·ḋ); [`NormalForceLaw::hunt_crossley`] builds
    /// it. n = 1.5 is the Hertz exponent for a sphere on a plane.
    HuntCrossley {
        /// k (N/mⁿ), ≥ 0.
        stiffness: f64,
        /// b (N·s^q/m^(q+p)), ≥ 0.
        damping: f64,
        /// n, > 0: the depth exponent of the elastic term.
        exponent: f64,
        /// q, > 0 (default 1): the velocity exponent of the damping term.
        velocity_exponent: f64,
        /// p, ≥ 0 (default n): the depth exponent of the damping term.
        depth_exponent: f64,
    },
    /// The magnitude is an input signal: see [`NormalForceLaw::input_magnitude`].
    /// [`NormalForceLaw::magnitude`] returns 0 for this law.
    Input,
}

impl NormalForceLaw {
    /// The classic Hunt–Crossley law: velocity exponent q = 1 and damping depth exponent p = n,
    /// i.e. f_n = max(0, dⁿ·(k + b·ḋ)).
    pub fn hunt_crossley(stiffness: f64, damping: f64, exponent: f64) -> Self {
        NormalForceLaw::HuntCrossley {
            stiffness,
            damping,
            exponent,
            velocity_exponent: 1.0,
            depth_exponent: exponent,
        }
    }

    /// The law's method, without its parameters.
    pub fn method(&self) -> NormalMethod {
        match self {
            NormalForceLaw::SmoothSpringDamper { .. } => NormalMethod::SmoothSpringDamper,
            NormalForceLaw::LinearSpringDamper { .. } => NormalMethod::LinearSpringDamper,
            NormalForceLaw::LinearSpringLimitedDamper { .. } => {
                NormalMethod::LinearSpringLimitedDamper
            }
            NormalForceLaw::HuntCrossley { .. } => NormalMethod::HuntCrossley,
            NormalForceLaw::Input => NormalMethod::Input,
        }
    }

    /// The law's method name in the model format (`normal = { method = "..." }`).
    pub fn method_name(&self) -> &'static str {
        self.method().name()
    }

    /// True for [`NormalForceLaw::Input`]: the block reads the magnitude from its `fn` input.
    pub fn is_input(&self) -> bool {
        matches!(self, NormalForceLaw::Input)
    }

    /// Checks every parameter: finite; stiffness and damping ≥ 0; transition width > 0;
    /// Hunt–Crossley exponents n > 0, q > 0, p ≥ 0.
    pub fn validate(&self) -> Result<(), NormalForceLawError> {
        let law = self.method_name();
        match *self {
            NormalForceLaw::SmoothSpringDamper {
                stiffness,
                damping,
                transition_width,
            } => {
                check_stiffness(law, stiffness)?;
                check_damping(law, damping)?;
                check_finite(law, "transition_width", transition_width, "1e-4")?;
                if transition_width <= 0.0 {
                    return Err(NormalForceLawError::OutOfRange {
                        law,
                        parameter: "transition_width",
                        value: transition_width,
                        requirement: "> 0 (m)",
                        advice: "write a small positive width such as transition_width = 1e-4, \
                                 or use method = \"linear_spring_damper\" for an unsmoothed law",
                    });
                }
                Ok(())
            }
            NormalForceLaw::LinearSpringDamper { stiffness, damping }
            | NormalForceLaw::LinearSpringLimitedDamper { stiffness, damping } => {
                check_stiffness(law, stiffness)?;
                check_damping(law, damping)
            }
            NormalForceLaw::HuntCrossley {
                stiffness,
                damping,
                exponent,
                velocity_exponent,
                depth_exponent,
            } => {
                check_stiffness(law, stiffness)?;
                check_damping(law, damping)?;
                check_finite(law, "exponent", exponent, "1.5")?;
                if exponent <= 0.0 {
                    return Err(NormalForceLawError::OutOfRange {
                        law,
                        parameter: "exponent",
                        value: exponent,
                        requirement: "> 0",
                        advice: "write exponent = 1.5 for Hertzian (sphere on plane) contact \
                                 or exponent = 1 for a linear spring",
                    });
                }
                check_finite(law, "velocity_exponent", velocity_exponent, "1")?;
                if velocity_exponent <= 0.0 {
                    return Err(NormalForceLawError::OutOfRange {
                        law,
                        parameter: "velocity_exponent",
                        value: velocity_exponent,
                        requirement: "> 0",
                        advice:
                            "write velocity_exponent = 1 (damping linear in the approach speed)",
                    });
                }
                check_finite(law, "depth_exponent", depth_exponent, "1.5")?;
                if depth_exponent < 0.0 {
                    return Err(NormalForceLawError::OutOfRange {
                        law,
                        parameter: "depth_exponent",
                        value: depth_exponent,
                        requirement: "≥ 0",
                        advice: "write depth_exponent equal to exponent (the classic \
                                 Hunt–Crossley model)",
                    });
                }
                Ok(())
            }
            NormalForceLaw::Input => Ok(()),
        }
    }

    /// The repulsive normal force magnitude f_n ≥ 0 (N) at penetration depth d (m, > 0 in
    /// contact) and penetration rate ḋ (m/s, > 0 approaching). Returns 0 for d ≤ 0 and for
    /// [`NormalForceLaw::Input`]. Does not allocate; assumes a validated law.
    #[inline]
    pub fn magnitude(&self, penetration_depth: f64, penetration_rate: f64) -> f64 {
        if penetration_depth <= 0.0 {
            return 0.0;
        }
        clip_repulsive(self.unclipped(penetration_depth, penetration_rate))
    }

    /// The law before clipping, f in f_n = max(0, f), at a depth d > 0 (m) and rate ḋ (m/s);
    /// 0 for [`NormalForceLaw::Input`].
    #[inline]
    pub(crate) fn unclipped(&self, d: f64, d_rate: f64) -> f64 {
        match *self {
            NormalForceLaw::SmoothSpringDamper {
                stiffness,
                damping,
                transition_width,
            } => smoothstep(d / transition_width) * (stiffness * d + damping * d_rate),
            NormalForceLaw::LinearSpringDamper { stiffness, damping } => {
                stiffness * d + damping * d_rate
            }
            NormalForceLaw::LinearSpringLimitedDamper { stiffness, damping } => {
                let spring = stiffness * d;
                spring + spring.min(damping * d_rate)
            }
            NormalForceLaw::HuntCrossley {
                stiffness,
                damping,
                exponent,
                velocity_exponent,
                depth_exponent,
            } => {
                let depth_pow_n = depth_power(d, exponent);
                // ḋ·|ḋ|^(q−1) written as sign(ḋ)·|ḋ|^q: no 0·∞ at ḋ = 0 when q < 1.
                let speed_term = if velocity_exponent == 1.0 {
                    d_rate
                } else {
                    d_rate.signum() * d_rate.abs().powf(velocity_exponent)
                };
                let depth_term = if depth_exponent == exponent {
                    depth_pow_n
                } else {
                    depth_power(d, depth_exponent)
                };
                let elastic = stiffness * depth_pow_n;
                elastic + damping * speed_term * depth_term
            }
            NormalForceLaw::Input => 0.0,
        }
    }

    /// The magnitude applied by the [`NormalForceLaw::Input`] law for an input signal value:
    /// max(0, value) (N). Negative inputs are clipped to 0 (contact never pulls), NaN is passed
    /// through so that a broken input stays visible.
    #[inline]
    pub fn input_magnitude(value: f64) -> f64 {
        clip_repulsive(value)
    }
}

/// The cubic smoothstep on x = d/w: 0 for x ≤ 0, 3x² − 2x³ on [0, 1], 1 for x ≥ 1.
#[inline]
pub fn smoothstep(x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        x * x * (3.0 - 2.0 * x)
    }
}

/// dⁿ for d > 0, with exact fast paths for the common exponents 1, 1.5 (Hertz) and 2.
#[inline]
fn depth_power(depth: f64, exponent: f64) -> f64 {
    if exponent == 1.5 {
        depth * depth.sqrt()
    } else if exponent == 1.0 {
        depth
    } else if exponent == 2.0 {
        depth * depth
    } else {
        depth.powf(exponent)
    }
}

/// max(0, f) that keeps NaN (f64::max would silently turn NaN into 0).
#[inline]
fn clip_repulsive(force: f64) -> f64 {
    if force < 0.0 {
        0.0
    } else {
        force
    }
}

fn check_finite(
    law: &'static str,
    parameter: &'static str,
    value: f64,
    example: &'static str,
) -> Result<(), NormalForceLawError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(NormalForceLawError::NonFinite {
            law,
            parameter,
            value,
            example,
        })
    }
}

fn check_stiffness(law: &'static str, stiffness: f64) -> Result<(), NormalForceLawError> {
    check_finite(law, "stiffness", stiffness, "1e5")?;
    if stiffness < 0.0 {
        return Err(NormalForceLawError::OutOfRange {
            law,
            parameter: "stiffness",
            value: stiffness,
            requirement: "≥ 0",
            advice: "write a positive stiffness such as stiffness = 1e5 (a negative spring \
                     would pull the geometries into each other)",
        });
    }
    Ok(())
}

fn check_damping(law: &'static str, damping: f64) -> Result<(), NormalForceLawError> {
    check_finite(law, "damping", damping, "100")?;
    if damping < 0.0 {
        return Err(NormalForceLawError::OutOfRange {
            law,
            parameter: "damping",
            value: damping,
            requirement: "≥ 0",
            advice: "write damping = 0 for elastic impacts or a positive value such as \
                     damping = 100 (negative damping adds energy at every impact)",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-computed values are exact up to a few roundings: relative tolerance 1e-12.
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
    }

    const SMOOTH: NormalForceLaw = NormalForceLaw::SmoothSpringDamper {
        stiffness: 1e5,
        damping: 100.0,
        transition_width: 1e-4,
    };

    #[test]
    fn smoothstep_anchor_points_and_end_slopes() {
        assert_eq!(smoothstep(0.0), 0.0);
        assert_eq!(smoothstep(1.0), 1.0);
        assert_eq!(smoothstep(0.5), 0.5);
        assert_eq!(smoothstep(-3.0), 0.0);
        assert_eq!(smoothstep(7.0), 1.0);
        // s'(x) = 6x(1 − x): one-sided differences at the ends are O(h).
        let h = 1e-6;
        assert!(smoothstep(h) / h < 1e-5);
        assert!((1.0 - smoothstep(1.0 - h)) / h < 1e-5);
    }

    #[test]
    fn smooth_spring_damper_hand_values() {
        // d = w/2: s = 0.5, f = 0.5·(1e5·5e-5 + 100·0.1) = 0.5·15 = 7.5 N.
        assert!(close(SMOOTH.magnitude(5e-5, 0.1), 7.5));
        // d = 2w: s = 1, f = 1e5·2e-4 + 100·0.1 = 30 N.
        assert!(close(SMOOTH.magnitude(2e-4, 0.1), 30.0));
        assert_eq!(SMOOTH.magnitude(0.0, 5.0), 0.0);
        assert_eq!(SMOOTH.magnitude(-1e-3, 5.0), 0.0);
        // Separating fast: 1e5·2e-4 + 100·(−1) < 0 → clipped.
        assert_eq!(SMOOTH.magnitude(2e-4, -1.0), 0.0);
    }

    #[test]
    fn smooth_spring_damper_is_c1_at_the_transition_width() {
        // Value and slope continuous at d = w: both sides of a central difference agree to O(h).
        let w = 1e-4;
        let h = 1e-10;
        let left = (SMOOTH.magnitude(w, 0.0) - SMOOTH.magnitude(w - h, 0.0)) / h;
        let right = (SMOOTH.magnitude(w + h, 0.0) - SMOOTH.magnitude(w, 0.0)) / h;
        assert!((left - right).abs() <= 1e-3 * right, "{left} vs {right}");
        assert!((right - 1e5).abs() <= 1e-3 * 1e5);
    }

    #[test]
    fn linear_laws_hand_values() {
        let linear = NormalForceLaw::LinearSpringDamper {
            stiffness: 1000.0,
            damping: 100.0,
        };
        assert!(close(linear.magnitude(0.01, 1.0), 110.0));
        assert_eq!(linear.magnitude(0.01, -1.0), 0.0);
        let limited = NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: 1000.0,
            damping: 100.0,
        };
        // f_c = 10 N. f_d = 100 → capped at 10: 20. f_d = 5: 15. f_d = −5: 5. f_d = −100: clipped.
        assert!(close(limited.magnitude(0.01, 1.0), 20.0));
        assert!(close(limited.magnitude(0.01, 0.05), 15.0));
        assert!(close(limited.magnitude(0.01, -0.05), 5.0));
        assert_eq!(limited.magnitude(0.01, -1.0), 0.0);
        // Impact at d → 0+: the limited damper's force vanishes, the plain one jumps to b·ḋ.
        assert!(limited.magnitude(1e-12, 10.0) < 1e-8);
        assert!(close(linear.magnitude(1e-300, 10.0), 1000.0));
    }

    #[test]
    fn hunt_crossley_hand_values() {
        let classic = NormalForceLaw::hunt_crossley(1e6, 1e5, 1.5);
        // d^1.5 = 1e-6: f = 1e-6·(1e6 + 1e5·0.5) = 1.05 N.
        assert!(close(classic.magnitude(1e-4, 0.5), 1.05));
        let general = NormalForceLaw::HuntCrossley {
            stiffness: 1e6,
            damping: 10.0,
            exponent: 1.5,
            velocity_exponent: 2.0,
            depth_exponent: 1.0,
        };
        // 1 + 10·(−2)·|−2|·1e-4 = 1 − 4e-3.
        assert!(close(general.magnitude(1e-4, -2.0), 0.996));
        let sub_linear = NormalForceLaw::HuntCrossley {
            stiffness: 1e6,
            damping: 10.0,
            exponent: 1.5,
            velocity_exponent: 0.5,
            depth_exponent: 1.5,
        };
        // q < 1 at ḋ = 0: no 0·∞, the elastic term alone.
        assert!(close(sub_linear.magnitude(1e-4, 0.0), 1.0));
        // 1 + 10·(−sqrt(0.04))·1e-6 = 1 − 2e-6.
        assert!(close(sub_linear.magnitude(1e-4, -0.04), 1.0 - 2e-6));
    }

    #[test]
    fn input_law_clips_negative_values_and_keeps_nan() {
        assert_eq!(NormalForceLaw::input_magnitude(-3.0), 0.0);
        assert_eq!(NormalForceLaw::input_magnitude(2.5), 2.5);
        assert!(NormalForceLaw::input_magnitude(f64::NAN).is_nan());
        assert_eq!(NormalForceLaw::Input.magnitude(1.0, 1.0), 0.0);
        assert!(NormalForceLaw::Input.is_input());
    }

    #[test]
    fn validation_rejects_bad_parameters_with_advice() {
        assert!(SMOOTH.validate().is_ok());
        assert!(NormalForceLaw::Input.validate().is_ok());
        let negative = NormalForceLaw::LinearSpringDamper {
            stiffness: -1.0,
            damping: 0.0,
        };
        let message = negative.validate().unwrap_err().to_string();
        assert!(message.contains("stiffness = -1"), "{message}");
        assert!(message.contains("linear_spring_damper"), "{message}");
        let zero_width = NormalForceLaw::SmoothSpringDamper {
            stiffness: 1.0,
            damping: 0.0,
            transition_width: 0.0,
        };
        let message = zero_width.validate().unwrap_err().to_string();
        assert!(message.contains("transition_width"), "{message}");
        assert!(message.contains("linear_spring_damper"), "{message}");
        let nan_damping = NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: 1.0,
            damping: f64::NAN,
        };
        assert!(matches!(
            nan_damping.validate(),
            Err(NormalForceLawError::NonFinite {
                parameter: "damping",
                ..
            })
        ));
        let infinite_width = NormalForceLaw::SmoothSpringDamper {
            stiffness: 1.0,
            damping: 0.0,
            transition_width: f64::INFINITY,
        };
        assert!(infinite_width.validate().is_err());
        let bad_exponent = NormalForceLaw::hunt_crossley(1.0, 1.0, 0.0);
        assert!(matches!(
            bad_exponent.validate(),
            Err(NormalForceLawError::OutOfRange {
                parameter: "exponent",
                ..
            })
        ));
        let bad_q = NormalForceLaw::HuntCrossley {
            stiffness: 1.0,
            damping: 1.0,
            exponent: 1.5,
            velocity_exponent: -1.0,
            depth_exponent: 1.5,
        };
        assert!(bad_q.validate().is_err());
        let negative_damping = NormalForceLaw::hunt_crossley(1.0, -1.0, 1.5);
        assert!(negative_damping.validate().is_err());
    }
}
