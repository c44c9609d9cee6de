//! Friction force laws: a velocity-dependent coefficient μ(v) ≥ 0 and the friction force
//! f_f = −μ(|v_t|)·f_n·v_t/|v_t|, which opposes the relative tangential velocity v_t.
//!
//! # Conventions
//!
//! - `v_tangential` v_t (m/s): the velocity of the follower's contact point relative to the base's,
//!   projected on the contact plane, expressed in any frame (the result is in the same frame).
//!   The force returned is the one applied to the follower; the base receives its opposite.
//! - `normal_force` f_n (N): the normal force magnitude; |f_n| is used.
//! - The coefficient curves are regularised (μ(0) = 0), so the force is a continuous function of
//!   v_t and vanishes at v_t = 0: no sign discontinuity for the solver, no NaN.
//!
//! # Smooth stick-slip (Simscape's "Smooth Stick-Slip"; MathWorks does not publish its curve)
//!
//! With x = |v_t|/v_c (v_c the critical velocity, μ_s static, μ_d dynamic):
//!
//! - 0 ≤ x ≤ 1: μ = μ_s·x·(2 − x) — rises from μ(0) = 0 with slope 2μ_s/v_c (a viscous
//!   regularisation of stiction: f_f ≈ −(2μ_s f_n/v_c)·v_t near rest) to μ(v_c) = μ_s with zero slope;
//! - x > 1, y = x − 1: μ = μ_d + (μ_s − μ_d)/(1 + a·y²) — decays monotonically from μ_s towards
//!   μ_d as |v_t| → ∞ (the gap falls like 1/(a·y²)), with
//!   a = μ_s/(μ_s − μ_d) when μ_s > μ_d, which also matches the second derivative at x = 1
//!   (−2μ_s/v_c² on both sides): the curve is C² there, not only C¹.
//!
//! So μ(v_c) = μ_s is the global maximum whenever μ_s ≥ μ_d. When μ_d > μ_s (allowed, with a
//! [`FrictionWarning`]) the same formula with a = 1 gives a curve that rises monotonically through
//! μ(v_c) = μ_s and approaches μ_d from below (C¹ at x = 1): no stiction peak, supremum μ_d.
//!
//! # Stribeck (Drake's curve)
//!
//! With s = |v_t|/v_s (v_s the stiction velocity) and step5(x) = 10x³ − 15x⁴ + 6x⁵:
//! μ = μ_s·step5(s) for s < 1; μ = μ_s − (μ_s − μ_d)·step5((s − 1)/2) for 1 ≤ s < 3; μ = μ_d for
//! s ≥ 3. C² everywhere (step5 has zero first and second derivatives at 0 and 1).

use super::law_methods::FrictionMethod;
use nalgebra::Vector3;
use std::fmt;
use thiserror::Error;

/// An invalid parameter of a [`FrictionLaw`].
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FrictionLawError {
    /// A parameter is NaN or infinite.
    #[error(
        "friction law `{law}`: {parameter} = {value} is not a finite number; write a finite value, e.g. {parameter} = {example}"
    )]
    NonFinite {
        /// The law's model-format method name, e.g. `smooth_stick_slip`.
        law: &'static str,
        /// The parameter's model-format name.
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// A typical valid value, for the message.
        example: &'static str,
    },
    /// A parameter is out of its range.
    #[error("friction law `{law}`: {parameter} = {value} is invalid: it must be {requirement}; {advice}")]
    OutOfRange {
        /// The law's model-format method name.
        law: &'static str,
        /// The parameter's model-format name.
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
        /// What to write instead.
        advice: &'static str,
    },
}

/// A questionable but accepted friction parameter set, for the block to print at build time.
#[derive(Debug, Clone, PartialEq)]
pub enum FrictionWarning {
    /// μ_dynamic > μ_static: the curve has no stiction peak.
    DynamicExceedsStatic {
        /// The law's model-format method name.
        law: &'static str,
        /// μ_s.
        static_coefficient: f64,
        /// μ_d.
        dynamic_coefficient: f64,
    },
}

impl fmt::Display for FrictionWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrictionWarning::DynamicExceedsStatic {
                law,
                static_coefficient,
                dynamic_coefficient,
            } => write!(
                f,
                "friction law `{law}`: dynamic = {dynamic_coefficient} exceeds static = \
                 {static_coefficient}; the coefficient then rises monotonically towards the \
                 dynamic value and has no stiction peak. Usually static ≥ dynamic: check that the \
                 two values are not swapped."
            ),
        }
    }
}

/// How the friction force is computed (see the module documentation for the formulas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FrictionLaw {
    /// Simscape-style smooth stick-slip: μ rises from 0 to μ_s at v_c, then tends to μ_d.
    SmoothStickSlip {
        /// μ_s (dimensionless), ≥ 0: the maximum, reached at the critical velocity.
        static_coefficient: f64,
        /// μ_d (dimensionless), ≥ 0: the limit at high slip speed.
        dynamic_coefficient: f64,
        /// v_c (m/s), > 0.
        critical_velocity: f64,
    },
    /// Drake's Stribeck curve.
    Stribeck {
        /// μ_s (dimensionless), ≥ 0: reached at the stiction velocity.
        static_coefficient: f64,
        /// μ_d (dimensionless), ≥ 0: reached at three times the stiction velocity.
        dynamic_coefficient: f64,
        /// v_s (m/s), > 0.
        stiction_velocity: f64,
    },
    /// No friction: zero force.
    None,
    /// The friction force is an input signal (used as given by the block);
    /// [`FrictionLaw::force`] returns zero and [`FrictionLaw::coefficient`] returns 0.
    Input,
}

impl FrictionLaw {
    /// The law's method, without its parameters.
    pub fn method(&self) -> FrictionMethod {
        match self {
            FrictionLaw::SmoothStickSlip { .. } => FrictionMethod::SmoothStickSlip,
            FrictionLaw::Stribeck { .. } => FrictionMethod::Stribeck,
            FrictionLaw::None => FrictionMethod::None,
            FrictionLaw::Input => FrictionMethod::Input,
        }
    }

    /// The law's method name in the model format (`friction = { method = "..." }`).
    pub fn method_name(&self) -> &'static str {
        self.method().name()
    }

    /// True for [`FrictionLaw::Input`]: the block reads the friction force from its `ff` input.
    pub fn is_input(&self) -> bool {
        matches!(self, FrictionLaw::Input)
    }

    /// Checks the parameters: coefficients finite and ≥ 0, velocity finite and > 0. Returns the
    /// warnings for accepted but questionable values (μ_d > μ_s), for the block to print.
    pub fn validate(&self) -> Result<Vec<FrictionWarning>, FrictionLawError> {
        let law = self.method_name();
        let (mu_static, mu_dynamic, velocity, velocity_name) = match *self {
            FrictionLaw::SmoothStickSlip {
                static_coefficient,
                dynamic_coefficient,
                critical_velocity,
            } => (
                static_coefficient,
                dynamic_coefficient,
                critical_velocity,
                "critical_velocity",
            ),
            FrictionLaw::Stribeck {
                static_coefficient,
                dynamic_coefficient,
                stiction_velocity,
            } => (
                static_coefficient,
                dynamic_coefficient,
                stiction_velocity,
                "stiction_velocity",
            ),
            FrictionLaw::None | FrictionLaw::Input => return Ok(Vec::new()),
        };
        check_coefficient(law, "static", mu_static)?;
        check_coefficient(law, "dynamic", mu_dynamic)?;
        if !velocity.is_finite() {
            return Err(FrictionLawError::NonFinite {
                law,
                parameter: velocity_name,
                value: velocity,
                example: "1e-3",
            });
        }
        if velocity <= 0.0 {
            return Err(FrictionLawError::OutOfRange {
                law,
                parameter: velocity_name,
                value: velocity,
                requirement: "> 0 (m/s)",
                advice: "write a small positive slip speed such as 1e-3; smaller values model \
                         stiction more sharply but need smaller solver steps",
            });
        }
        let mut warnings = Vec::new();
        if mu_dynamic > mu_static {
            warnings.push(FrictionWarning::DynamicExceedsStatic {
                law,
                static_coefficient: mu_static,
                dynamic_coefficient: mu_dynamic,
            });
        }
        Ok(warnings)
    }

    /// The friction coefficient μ(v) ≥ 0 at slip speed v = |v_t| (m/s; the sign is ignored).
    /// 0 for [`FrictionLaw::None`] and [`FrictionLaw::Input`]. Assumes a validated law.
    #[inline]
    pub fn coefficient(&self, slip_speed: f64) -> f64 {
        let speed = slip_speed.abs();
        match *self {
            FrictionLaw::SmoothStickSlip {
                static_coefficient,
                dynamic_coefficient,
                critical_velocity,
            } => smooth_stick_slip(
                static_coefficient,
                dynamic_coefficient,
                speed / critical_velocity,
            ),
            FrictionLaw::Stribeck {
                static_coefficient,
                dynamic_coefficient,
                stiction_velocity,
            } => stribeck(
                static_coefficient,
                dynamic_coefficient,
                speed / stiction_velocity,
            ),
            FrictionLaw::None | FrictionLaw::Input => 0.0,
        }
    }

    /// μ(v)/v (s/m) for v = |slip_speed| ≥ 0, evaluated without dividing by v where μ(v) ∝ v
    /// near 0, so it is finite at v = 0: 2μ_s/v_c for smooth stick-slip, 0 for Stribeck.
    #[inline]
    fn coefficient_per_speed(&self, speed: f64) -> f64 {
        match *self {
            FrictionLaw::SmoothStickSlip {
                static_coefficient,
                dynamic_coefficient,
                critical_velocity,
            } => {
                let x = speed / critical_velocity;
                if x <= 1.0 {
                    static_coefficient * (2.0 - x) / critical_velocity
                } else {
                    smooth_stick_slip(static_coefficient, dynamic_coefficient, x) / speed
                }
            }
            FrictionLaw::Stribeck {
                static_coefficient,
                dynamic_coefficient,
                stiction_velocity,
            } => {
                let s = speed / stiction_velocity;
                if s < 1.0 {
                    // μ_s·step5(s)/v = μ_s·s²·(10 − 15s + 6s²)/v_s
                    static_coefficient * s * s * (10.0 + s * (-15.0 + 6.0 * s)) / stiction_velocity
                } else {
                    stribeck(static_coefficient, dynamic_coefficient, s) / speed
                }
            }
            FrictionLaw::None | FrictionLaw::Input => 0.0,
        }
    }

    /// The friction force (N) on the follower: f_f = −μ(|v_t|)·|f_n|·v_t/|v_t|, in the frame of
    /// `v_tangential` (m/s), which must lie in the contact plane. Exactly zero at v_t = 0 (no NaN);
    /// zero for [`FrictionLaw::None`] and [`FrictionLaw::Input`]. Does not allocate.
    #[inline]
    pub fn force(&self, normal_force: f64, v_tangential: &Vector3<f64>) -> Vector3<f64> {
        self.force_at_speed(normal_force, v_tangential, v_tangential.norm())
    }

    /// [`FrictionLaw::force`] with the slip speed `|v_t|` (m/s) already known (e.g. computed for
    /// many points in one vectorized pass).
    #[inline]
    pub fn force_at_speed(
        &self,
        normal_force: f64,
        v_tangential: &Vector3<f64>,
        slip_speed: f64,
    ) -> Vector3<f64> {
        v_tangential * (-normal_force.abs() * self.coefficient_per_speed(slip_speed))
    }
}

/// Smooth stick-slip coefficient at x = v/v_c ≥ 0 (see the module documentation).
#[inline]
fn smooth_stick_slip(mu_static: f64, mu_dynamic: f64, x: f64) -> f64 {
    if x <= 1.0 {
        mu_static * x * (2.0 - x)
    } else {
        let y = x - 1.0;
        let gap = mu_static - mu_dynamic;
        let a = if gap > 0.0 { mu_static / gap } else { 1.0 };
        mu_dynamic + gap / (1.0 + a * y * y)
    }
}

/// Drake's quintic step: 10x³ − 15x⁴ + 6x⁵ on [0, 1] (callers keep x in [0, 1]).
#[inline]
pub fn step5(x: f64) -> f64 {
    x * x * x * (10.0 + x * (-15.0 + 6.0 * x))
}

/// Drake's Stribeck coefficient at s = v/v_s ≥ 0.
#[inline]
fn stribeck(mu_static: f64, mu_dynamic: f64, s: f64) -> f64 {
    if s >= 3.0 {
        mu_dynamic
    } else if s >= 1.0 {
        mu_static - (mu_static - mu_dynamic) * step5((s - 1.0) / 2.0)
    } else {
        mu_static * step5(s)
    }
}

fn check_coefficient(
    law: &'static str,
    parameter: &'static str,
    value: f64,
) -> Result<(), FrictionLawError> {
    if !value.is_finite() {
        return Err(FrictionLawError::NonFinite {
            law,
            parameter,
            value,
            example: "0.5",
        });
    }
    if value < 0.0 {
        return Err(FrictionLawError::OutOfRange {
            law,
            parameter,
            value,
            requirement: "≥ 0",
            advice: "friction coefficients are non-negative ratios |f_f|/|f_n|, typically 0.1 \
                     to 1 (e.g. static = 0.8, dynamic = 0.6); write 0, or method = \"none\", for \
                     no friction",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // MathWorks' example values.
    const SMOOTH: FrictionLaw = FrictionLaw::SmoothStickSlip {
        static_coefficient: 0.8,
        dynamic_coefficient: 0.6,
        critical_velocity: 1e-3,
    };
    const STRIBECK: FrictionLaw = FrictionLaw::Stribeck {
        static_coefficient: 0.8,
        dynamic_coefficient: 0.6,
        stiction_velocity: 0.01,
    };

    fn smooth(mu_s: f64, mu_d: f64) -> FrictionLaw {
        FrictionLaw::SmoothStickSlip {
            static_coefficient: mu_s,
            dynamic_coefficient: mu_d,
            critical_velocity: 1e-3,
        }
    }

    #[test]
    fn smooth_stick_slip_anchor_points() {
        assert_eq!(SMOOTH.coefficient(0.0), 0.0);
        assert!((SMOOTH.coefficient(1e-3) - 0.8).abs() < 1e-15);
        // Half-way up: μ_s·0.5·1.5 = 0.6.
        assert!((SMOOTH.coefficient(0.5e-3) - 0.6).abs() < 1e-15);
        // a = 0.8/0.2 = 4; at x = 3 (y = 2): 0.6 + 0.2/17.
        assert!((SMOOTH.coefficient(3e-3) - (0.6 + 0.2 / 17.0)).abs() < 1e-15);
        // Far beyond: within (μ_s − μ_d)/(1 + 4·999²) of μ_d.
        let far = SMOOTH.coefficient(1.0);
        assert!(far > 0.6 && far - 0.6 < 0.2 / (1.0 + 4.0 * 999.0 * 999.0) * 1.0001);
        // The sign of the slip speed is ignored.
        assert_eq!(SMOOTH.coefficient(-0.5e-3), SMOOTH.coefficient(0.5e-3));
    }

    #[test]
    fn smooth_stick_slip_is_c1_and_c2_at_the_critical_velocity() {
        // One-sided first differences with h = 1e-7·v_c: slope 0 on both sides up to O(h)
        // (|μ''| h ≈ 2·0.8/v_c²·h = 1.6e-4); second differences ≈ −2μ_s/v_c² on both sides.
        let v_c = 1e-3;
        let h = 1e-7 * v_c;
        let mu = |v: f64| SMOOTH.coefficient(v);
        let left_slope = (mu(v_c) - mu(v_c - h)) / h;
        let right_slope = (mu(v_c + h) - mu(v_c)) / h;
        assert!(left_slope.abs() < 1e-3 && right_slope.abs() < 1e-3);
        let h2 = 1e-4 * v_c;
        let left_curv = (mu(v_c) - 2.0 * mu(v_c - h2) + mu(v_c - 2.0 * h2)) / (h2 * h2);
        let right_curv = (mu(v_c + 2.0 * h2) - 2.0 * mu(v_c + h2) + mu(v_c)) / (h2 * h2);
        let expected = -2.0 * 0.8 / (v_c * v_c);
        assert!((left_curv - expected).abs() < 1e-3 * expected.abs());
        assert!((right_curv - expected).abs() < 1e-3 * expected.abs());
        // Slope at 0: 2μ_s/v_c.
        let slope0 = mu(1e-9) / 1e-9;
        assert!((slope0 - 1600.0).abs() < 1e-3);
    }

    #[test]
    fn smooth_stick_slip_maximum_and_monotonicity() {
        for (mu_s, mu_d) in [(0.8, 0.6), (0.5, 0.0), (0.7, 0.7), (1.2, 0.1)] {
            let law = smooth(mu_s, mu_d);
            let mut previous = 0.0;
            for i in 1..=100_000 {
                let v = i as f64 * 1e-6; // up to 100 v_c
                let mu = law.coefficient(v);
                assert!(mu <= mu_s + 1e-15, "μ({v}) = {mu} > μ_s = {mu_s}");
                if v <= 1e-3 {
                    assert!(mu >= previous, "not rising at {v}");
                } else {
                    assert!(mu <= previous + 1e-16, "not falling at {v}");
                    assert!(mu >= mu_d);
                }
                previous = mu;
            }
        }
    }

    #[test]
    fn smooth_stick_slip_with_dynamic_above_static_rises_to_dynamic() {
        let law = smooth(0.4, 0.6);
        let warnings = law.validate().unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0]
            .to_string()
            .contains("dynamic = 0.6 exceeds static = 0.4"));
        assert!((law.coefficient(1e-3) - 0.4).abs() < 1e-15);
        let mut previous = 0.0;
        for i in 1..=20_000 {
            let mu = law.coefficient(i as f64 * 1e-5);
            assert!(mu >= previous && mu < 0.6);
            previous = mu;
        }
        assert!(0.6 - law.coefficient(1.0) < 0.2 / (999.0 * 999.0));
    }

    #[test]
    fn stribeck_hand_values() {
        let cases = [
            (0.0, 0.0),
            (0.0025, 0.8 * 0.103515625), // step5(0.25) = 10/64 − 15/256 + 6/1024
            (0.005, 0.4),                // step5(0.5) = 0.5
            (0.01, 0.8),
            (0.02, 0.7), // 0.8 − 0.2·step5(0.5)
            (0.03, 0.6),
            (5.0, 0.6),
        ];
        for (v, expected) in cases {
            let mu = STRIBECK.coefficient(v);
            assert!(
                (mu - expected).abs() < 1e-14,
                "μ({v}) = {mu}, expected {expected}"
            );
        }
    }

    #[test]
    fn friction_force_opposes_velocity_with_magnitude_mu_fn() {
        let v = Vector3::new(3e-3, 4e-3, 0.0); // |v| = 5e-3 = 5 v_c
        let f = SMOOTH.force(10.0, &v);
        let mu = SMOOTH.coefficient(5e-3);
        let expected = Vector3::new(-0.6, -0.8, 0.0) * (mu * 10.0);
        assert!((f - expected).norm() < 1e-12);
        // Inside the rising branch and for Stribeck.
        let slow = Vector3::new(0.0, -2e-4, 0.0);
        let f = SMOOTH.force(-2.0, &slow); // |f_n| is used
        let expected = 2.0 * SMOOTH.coefficient(2e-4);
        assert!((f - Vector3::new(0.0, expected, 0.0)).norm() < 1e-15);
        let f = STRIBECK.force(1.0, &Vector3::new(0.0, 0.0, 0.005));
        assert!((f - Vector3::new(0.0, 0.0, -0.4)).norm() < 1e-14);
    }

    #[test]
    fn friction_force_is_zero_without_nan_at_rest() {
        for law in [SMOOTH, STRIBECK, FrictionLaw::None, FrictionLaw::Input] {
            let f = law.force(100.0, &Vector3::zeros());
            assert_eq!(f, Vector3::zeros());
            let tiny = law.force(100.0, &Vector3::new(1e-300, 0.0, 0.0));
            assert!(tiny.iter().all(|c| c.is_finite()));
        }
        assert_eq!(
            FrictionLaw::None.force(1.0, &Vector3::new(1.0, 0.0, 0.0)),
            Vector3::zeros()
        );
    }

    #[test]
    fn validation() {
        assert!(SMOOTH.validate().unwrap().is_empty());
        assert!(STRIBECK.validate().unwrap().is_empty());
        assert!(FrictionLaw::None.validate().unwrap().is_empty());
        let negative = smooth(-0.1, 0.1);
        let message = negative.validate().unwrap_err().to_string();
        assert!(message.contains("static = -0.1"), "{message}");
        let zero_velocity = FrictionLaw::Stribeck {
            static_coefficient: 0.5,
            dynamic_coefficient: 0.4,
            stiction_velocity: 0.0,
        };
        let message = zero_velocity.validate().unwrap_err().to_string();
        assert!(message.contains("stiction_velocity"), "{message}");
        let nan = smooth(0.5, f64::NAN);
        assert!(matches!(
            nan.validate(),
            Err(FrictionLawError::NonFinite {
                parameter: "dynamic",
                ..
            })
        ));
        let stribeck_warn = FrictionLaw::Stribeck {
            static_coefficient: 0.3,
            dynamic_coefficient: 0.5,
            stiction_velocity: 0.1,
        };
        assert_eq!(stribeck_warn.validate().unwrap().len(), 1);
    }
}
