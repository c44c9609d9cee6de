//! The numbers behind `blockdyn check`'s advice on the friction of a penalty contact: how stiff
//! its regularisation is (the text is `advice_text`'s).
//!
//! A regularised friction law has no true sticking: below its critical (or stiction) velocity the
//! force grows from zero with the slip speed, so near rest it acts as a viscous damper of
//! coefficient c_f = W·max_v (dμ/dv) (N·s/m) on a body pressed on with the weight W (N):
//!
//! | law | steepest slope dμ/dv | where |
//! |---|---|---|
//! | smooth stick-slip, μ = μ_s·x(2 − x), x = v/v_c | 2·μ_s/v_c | at v = 0 |
//! | Stribeck, μ = μ_s·step5(v/v_s) | 1.875·μ_s/v_s | at v = v_s/2 |
//!
//! (step5(x) = 10x³ − 15x⁴ + 6x⁵ has the slope 30x²(1 − x)², 1.875 at x = 1/2.) The sliding
//! mode of a body of mass m then decays at the rate c_f/m (1/s), and an explicit solver (dopri5,
//! stability reach about 3 on the negative real axis) needs steps below 3·m/c_f while the contact
//! sticks. With a contact manifold the friction acts at each point, so it also damps twisting
//! about the contact normal: for a box's face (corners at r² = (a² + b²)/4, polar inertia
//! m(a² + b²)/12) that rate is three times the sliding one.

use super::contact_advice::STIFF_STEPS_PER_SECOND;
use crate::contact::friction::FrictionLaw;
use crate::solver::Method;

/// The numbers behind the friction advice for a contact carrying a weight.
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionAdvice {
    /// The law's method name, e.g. `smooth_stick_slip`.
    pub law: &'static str,
    /// The regularisation's damping coefficient c_f = W·max dμ/dv (N·s/m).
    pub damping: f64,
    /// The sliding mode's rate c_f/m (1/s); +∞ for a massless body.
    pub rate: f64,
    /// The step dopri5 needs while the contact sticks, 3/rate (s); +∞ without friction load.
    pub explicit_step: f64,
    /// The step is so small that the contact needs a stiff solver.
    pub stiff: bool,
}

impl FrictionAdvice {
    /// The advice for `friction` carrying `supported_weight` (N) of a body of `supported_mass`
    /// (kg); `None` for laws without regularisation (none, input). Never NaN for finite inputs
    /// (negative or non-finite weight and mass count as 0).
    pub fn compute(
        friction: &FrictionLaw,
        supported_weight: f64,
        supported_mass: f64,
    ) -> Option<FrictionAdvice> {
        let slope = match *friction {
            FrictionLaw::SmoothStickSlip {
                static_coefficient,
                critical_velocity,
                ..
            } => 2.0 * static_coefficient / critical_velocity,
            FrictionLaw::Stribeck {
                static_coefficient,
                stiction_velocity,
                ..
            } => 1.875 * static_coefficient / stiction_velocity,
            FrictionLaw::None | FrictionLaw::Input => return None,
        };
        let clean = |x: f64| if x.is_finite() && x > 0.0 { x } else { 0.0 };
        let (weight, mass) = (clean(supported_weight), clean(supported_mass));
        let damping = clean(slope * weight);
        let rate = if mass > 0.0 {
            damping / mass
        } else if damping > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        let explicit_step = if rate > 0.0 {
            Method::Dopri5.stability_reach() / rate
        } else {
            f64::INFINITY
        };
        Some(FrictionAdvice {
            law: friction.method_name(),
            damping,
            rate,
            explicit_step,
            stiff: 1.0 / explicit_step > STIFF_STEPS_PER_SECOND,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_stick_slip_damps_with_twice_mu_over_vc() {
        // μ_s = 0.8, v_c = 1e-2 m/s, W = 9.2152 N (1 kg on a 20° slope): c_f = 2·0.8/0.01·9.2152
        // = 1474.4 N·s/m, rate 1474.4 1/s, step 3/1474.4 = 2.035e-3 s.
        let law = FrictionLaw::SmoothStickSlip {
            static_coefficient: 0.8,
            dynamic_coefficient: 0.6,
            critical_velocity: 1e-2,
        };
        let a = FrictionAdvice::compute(&law, 9.2152, 1.0).unwrap();
        assert!((a.damping - 1474.432).abs() < 1e-9, "{a:?}");
        assert!((a.explicit_step - 3.0 / 1474.432).abs() < 1e-15);
        assert!(!a.stiff);
        // v_c = 1e-4: 100 times stiffer, flagged.
        let law = FrictionLaw::SmoothStickSlip {
            static_coefficient: 0.8,
            dynamic_coefficient: 0.6,
            critical_velocity: 1e-4,
        };
        assert!(FrictionAdvice::compute(&law, 9.2152, 1.0).unwrap().stiff);
    }

    #[test]
    fn stribeck_slope_is_its_steepest_at_half_the_stiction_velocity() {
        let law = FrictionLaw::Stribeck {
            static_coefficient: 0.5,
            dynamic_coefficient: 0.3,
            stiction_velocity: 1e-3,
        };
        let a = FrictionAdvice::compute(&law, 10.0, 1.0).unwrap();
        // 1.875·0.5/1e-3·10 = 9375 N·s/m; check the slope numerically from the law itself.
        assert!((a.damping - 9375.0).abs() < 1e-9);
        let h = 1e-9;
        let numeric = (law.coefficient(5e-4 + h) - law.coefficient(5e-4 - h)) / (2.0 * h);
        assert!((numeric - 1.875 * 0.5 / 1e-3).abs() < 1e-3, "{numeric}");
    }

    #[test]
    fn no_friction_or_no_load_gives_no_number_that_is_nan() {
        assert!(FrictionAdvice::compute(&FrictionLaw::None, 10.0, 1.0).is_none());
        let law = FrictionLaw::SmoothStickSlip {
            static_coefficient: 0.5,
            dynamic_coefficient: 0.3,
            critical_velocity: 1e-3,
        };
        for (w, m) in [(0.0, 1.0), (10.0, 0.0), (f64::NAN, 1.0), (-1.0, -1.0)] {
            let text = FrictionAdvice::compute(&law, w, m).unwrap().to_string();
            assert!(!text.contains("NaN"), "{text}");
        }
    }
}
