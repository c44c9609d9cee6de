//! The rotation vector of a quaternion joint's motion input (issue 31): how a prescribed
//! orientation is written, and how its rates become the joint's angular velocity coordinates.
//!
//! A spherical joint's (and a six-dof joint's rotational) `q_ref` is the rotation vector
//! `φ = θ n` (rad) of F in B: the rotation by θ about the unit axis n, resolved in B (and equally
//! in F: n is fixed by the rotation), `R_BF = exp([φ]×)`. Its velocity coordinates are the joint's
//! own, `ω` (rad/s, F relative to B, resolved in F). When the rates of φ are known instead (the
//! motion filter integrates φ), they map to ω through the right Jacobian of SO(3):
//!
//! ```text
//! ω = J_r(φ) φ̇,      J_r(φ) = I − c₁(a) [φ]× + c₂(a) [φ]×²,    a = |φ|
//! c₁ = (1 − cos a)/a²,   c₂ = (a − sin a)/a³
//! ω̇ = J_r φ̈ + J̇_r φ̇ = J_r φ̈ − ċ₁ φ×φ̇ + ċ₂ φ×(φ×φ̇) + c₂ φ̇×(φ×φ̇),   ċᵢ = (cᵢ′(a)/a)(φ·φ̇)
//! ```
//!
//! (`ω̇` is the derivative of ω's components in F, which is the joint's acceleration coordinate.)
//! Below a = 0.1 the coefficients are their Taylor series (to a⁶: truncation below 1e-12
//! relative), which avoids the cancellation of the closed forms near zero.

use nalgebra::Vector3;

/// The unit quaternion `[w, x, y, z]` of the rotation vector `φ` (rad): `[cos(a/2), sin(a/2) φ/a]`.
pub fn rotation_vector_to_quaternion(phi: &[f64]) -> [f64; 4] {
    let p = Vector3::new(phi[0], phi[1], phi[2]);
    let a = p.norm();
    // sin(a/2)/a, with its series 1/2 − a²/48 near zero.
    let s = if a < 1e-4 {
        0.5 - a * a / 48.0
    } else {
        (0.5 * a).sin() / a
    };
    [(0.5 * a).cos(), s * p.x, s * p.y, s * p.z]
}

/// `(c₁, c₂, c₁′/a, c₂′/a)` of the module's formulas at angle `a` (rad).
fn coefficients(a: f64) -> (f64, f64, f64, f64) {
    if a < 0.1 {
        let a2 = a * a;
        let a4 = a2 * a2;
        let a6 = a4 * a2;
        (
            0.5 - a2 / 24.0 + a4 / 720.0 - a6 / 40320.0,
            1.0 / 6.0 - a2 / 120.0 + a4 / 5040.0 - a6 / 362_880.0,
            -1.0 / 12.0 + a2 / 180.0 - a4 / 6720.0 + a6 / 453_600.0,
            -1.0 / 60.0 + a2 / 1260.0 - a4 / 60480.0 + a6 / 4_989_600.0,
        )
    } else {
        let (s, c) = a.sin_cos();
        let (a2, a3) = (a * a, a * a * a);
        (
            (1.0 - c) / a2,
            (a - s) / a3,
            (a * s - 2.0 * (1.0 - c)) / (a2 * a2),
            (a * (1.0 - c) - 3.0 * (a - s)) / (a3 * a2),
        )
    }
}

/// The angular velocity `ω` (rad/s) and acceleration `ω̇` (rad/s², both F relative to B,
/// resolved in F) of the rotation whose rotation vector is `phi` (rad) with rates `phi_dot`,
/// `phi_ddot` (module formulas).
pub fn body_rates(
    phi: &Vector3<f64>,
    phi_dot: &Vector3<f64>,
    phi_ddot: &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let (c1, c2, d1, d2) = coefficients(phi.norm());
    let jr = |x: &Vector3<f64>| x - c1 * phi.cross(x) + c2 * phi.cross(&phi.cross(x));
    let pxd = phi.cross(phi_dot);
    let rate = phi.dot(phi_dot);
    let omega = jr(phi_dot);
    let omega_dot =
        jr(phi_ddot) - d1 * rate * pxd + d2 * rate * phi.cross(&pxd) + c2 * phi_dot.cross(&pxd);
    (omega, omega_dot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, UnitQuaternion};

    /// The quaternion is nalgebra's `UnitQuaternion::from_scaled_axis` (an independent
    /// implementation) to round-off, at small and large angles.
    #[test]
    fn the_quaternion_is_the_rotation_about_the_vector() {
        for phi in [
            [0.0, 0.0, 0.0],
            [1e-6, -2e-6, 3e-7],
            [0.3, -0.2, 0.1],
            [2.0, 1.0, -0.5],
        ] {
            let q = rotation_vector_to_quaternion(&phi);
            let r = UnitQuaternion::from_scaled_axis(Vector3::from(phi));
            let e = [r.w, r.i, r.j, r.k];
            for k in 0..4 {
                assert!((q[k] - e[k]).abs() < 1e-15, "{phi:?}: {q:?} vs {e:?}");
            }
        }
    }

    /// ω and ω̇ against finite differences of R(t) = exp([φ(t)]×) along a curved path φ(t)
    /// (crossing from the series branch, a < 0.1, into the closed forms): ω = vee(Rᵀ Ṙ) by
    /// central differences of step 1e-5 s, whose error O(h²)·|R⃛| is below 1e-8; ω̇ by central
    /// differences of ω (1e-6 from the same truncation and round-off).
    #[test]
    fn the_rates_are_those_of_the_rotation_matrix() {
        let phi = |t: f64| Vector3::new(0.8 * t, 0.3 * t * t - 0.05, 0.2 * (2.0 * t).sin());
        let dphi = |t: f64| Vector3::new(0.8, 0.6 * t, 0.4 * (2.0 * t).cos());
        let ddphi = |t: f64| Vector3::new(0.0, 0.6, -0.8 * (2.0 * t).sin());
        let rot = |t: f64| Rotation3::from_scaled_axis(phi(t)).into_inner();
        let h = 1e-5;
        let omega_fd = |t: f64| {
            let r = rot(t);
            let rd = (rot(t + h) - rot(t - h)) / (2.0 * h);
            let w = r.transpose() * rd;
            Vector3::new(w[(2, 1)], w[(0, 2)], w[(1, 0)])
        };
        for t in [0.0, 0.02, 0.06, 0.3, 1.1] {
            let (w, wd) = body_rates(&phi(t), &dphi(t), &ddphi(t));
            let w_fd = omega_fd(t);
            assert!((w - w_fd).norm() < 1e-8, "t = {t}: {w} vs {w_fd}");
            let hh = 1e-4;
            let wd_fd = (body_rates(&phi(t + hh), &dphi(t + hh), &ddphi(t + hh)).0
                - body_rates(&phi(t - hh), &dphi(t - hh), &ddphi(t - hh)).0)
                / (2.0 * hh);
            assert!((wd - wd_fd).norm() < 1e-6, "t = {t}: {wd} vs {wd_fd}");
        }
    }
}
