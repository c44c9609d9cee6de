//! Closed-form references for tests of the integrated motion.

/// Arithmetic–geometric mean of `a` and `b` (both > 0), to machine precision.
pub fn agm(mut a: f64, mut b: f64) -> f64 {
    for _ in 0..64 {
        if (a - b).abs() <= 1e-16 * a.abs() {
            break;
        }
        let next_a = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = next_a;
    }
    a
}

/// Exact period (s) of a pendulum `θ̈ = −ω₀² sin θ` released at rest from `amplitude` (rad,
/// |amplitude| < π): `T = 2π / (ω₀ · AGM(1, cos(amplitude/2)))`. For a compound pendulum
/// `ω₀² = m g l / I_pivot` (l: pivot-to-centre-of-mass distance, I_pivot: inertia about the axis).
pub fn pendulum_period(omega0_squared: f64, amplitude: f64) -> f64 {
    2.0 * std::f64::consts::PI / (omega0_squared.sqrt() * agm(1.0, (0.5 * amplitude).cos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pendulum_period_limits_and_known_value() {
        // Small amplitude: 2π/ω₀ (1 + θ₀²/16), relative error O(θ₀⁴) ≈ 1e-13 at θ₀ = 1e-3.
        let t0 = 2.0 * std::f64::consts::PI / 2.0;
        let t = pendulum_period(4.0, 1e-3);
        assert!((t / t0 - (1.0 + 1e-6 / 16.0)).abs() < 1e-12);
        // θ₀ = 90°: T/T₀ = 1.180340599016096 (tables of the complete elliptic integral 2K(1/√2)/π).
        let t = pendulum_period(1.0, std::f64::consts::FRAC_PI_2);
        assert!((t / (2.0 * std::f64::consts::PI) - 1.180_340_599_016_096).abs() < 1e-13);
    }
}
