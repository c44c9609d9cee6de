//! The compliant ground-contact law of spatial_v2's `gcontact` (Featherstone; Azad & Featherstone,
//! ACRA 2010), for one point, in 3-D and 2-D.
//!
//! # Frames, signs and units
//!
//! Everything is expressed in the world frame. 3-D: the ground is the x-y plane and z is up; the
//! tangent space is (x, y), so the tangential quantities have T = 2 components. 2-D: the ground is
//! the x axis and y is up; the tangent space is x, T = 1. Below, "height" z (m) is the point's
//! coordinate along the up axis (negative below the ground), ż (m/s) its rate, v_t (m/s) the
//! point's tangential velocity and u (m) its tangential deflection state (the displacement of the
//! ground's surface spring, integrated by the block). The forces returned act **on the point**.
//!
//! # The law, per point (K stiffness N/m^1.5, D damping N·s/m^1.5, μ friction coefficient)
//!
//! - depth root r = sqrt(max(0, −z)) (m^½);
//! - normal force f_n = r·(−K·z − D·ż). The point is in contact exactly when f_n > 0, i.e. when
//!   z < 0 **and** −K·z − D·ż > 0: a point below ground that rises faster than the ground
//!   recovers (ż > −K·z/D) is out of contact;
//! - not in contact: f = 0, u̇ = −(K/D)·u (the deflection relaxes with time constant D/K),
//!   status [`GroundContactStatus::NotInContact`], cone ratio reported as 2;
//! - in contact, sticking assumed first: f_t = −K·r·u − D·r·v_t, u̇ = v_t;
//! - cone ratio c = |f_t|/(μ·f_n). If c ≤ 1 the point sticks. If c > 1 it slips: f_t ← f_t/c (on the
//!   cone's surface, |f_t| = μ·f_n) and u̇ ← −(f_t + K·r·u)/(D·r), the deflection rate for which
//!   the spring-damper produces exactly the limited force;
//! - μ = 0 is the frictionless ground: f_t = 0, no deflection states (u̇ = 0 is returned), status
//!   [`GroundContactStatus::Slipping`] while in contact (the point slides freely), cone ratio 2.
//!
//! # Zero-crossing ("status") functions
//!
//! [`GroundPointResult`] carries two functions of (z, ż, u, v_t) that are continuous everywhere and
//! change sign exactly where the state changes, for the block's zero-crossing signals:
//!
//! - `contact_function` g_c = min(−K·z, −K·z − D·ż) (N/m^½): positive exactly when in contact
//!   (both factors of f_n/r positive), ≤ 0 otherwise. It rises through 0 when the point touches
//!   down (−K·z crosses 0 while −D·ż > 0) and falls through 0 when it lifts off (either factor
//!   crosses 0). Unlike f_n itself, which is identically 0 above ground, it has a proper sign
//!   change at both transitions.
//! - `stick_function` g_s = μ·(−K·z − D·ż) − |K·u + D·v_t| (N/m^½): equal to (μ·f_n − |f_t,stick|)/r
//!   in contact, so g_s > 0 ⇔ sticking (c < 1) and g_s < 0 ⇔ slipping (c > 1) there, with g_s = 0
//!   exactly at c = 1. It is continuous (it does not contain r, which vanishes at the surface),
//!   but only meaningful while in contact: a block should act on its crossings only when
//!   g_c > 0. For μ = 0 it is −|K·u + D·v_t| and should not be used.

use nalgebra::{SVector, Vector1, Vector2, Vector3};
use thiserror::Error;

/// An invalid parameter of a [`GroundContactLaw`].
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GroundLawError {
    /// A parameter is NaN, infinite or out of range.
    #[error(
        "ground contact: {parameter} = {value} is invalid: it must be {requirement}; {advice}"
    )]
    InvalidParameter {
        /// The parameter's model-format name (`stiffness`, `damping`, `friction`).
        parameter: &'static str,
        /// The value given.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
        /// What to write instead.
        advice: &'static str,
    },
}

/// The contact state of one point (the block's `status` output value is `status as u8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GroundContactStatus {
    /// f_n = 0: above the ground, or below it but rising faster than the ground recovers.
    NotInContact = 0,
    /// In contact, tangential force inside the friction cone (c ≤ 1).
    Sticking = 1,
    /// In contact, tangential force limited to the cone's surface (c > 1), or frictionless contact.
    Slipping = 2,
}

impl GroundContactStatus {
    /// The numeric code written to the block's `status` output (0, 1, 2).
    pub fn code(self) -> f64 {
        self as u8 as f64
    }
}

/// The cone ratio reported when the point is not in contact (and for frictionless contact).
pub const CONE_RATIO_NOT_IN_CONTACT: f64 = 2.0;

/// Everything the law computes for one point, with T tangential components (T = 2 in 3-D,
/// T = 1 in 2-D). Vectors are in the world frame; forces act on the point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundPointResult<const T: usize> {
    /// f_n ≥ 0 (N), along the up axis.
    pub normal_force: f64,
    /// f_t (N), in the ground plane.
    pub tangential_force: SVector<f64, T>,
    /// u̇ (m/s): the derivative of the deflection state (zero for a frictionless ground).
    pub deflection_rate: SVector<f64, T>,
    /// Not in contact, sticking or slipping.
    pub status: GroundContactStatus,
    /// c = |f_t,stick|/(μ·f_n) in contact (before limiting), [`CONE_RATIO_NOT_IN_CONTACT`] otherwise.
    pub cone_ratio: f64,
    /// g_c = min(−K·z, −K·z − D·ż) (N/m^½): > 0 exactly in contact (see the module documentation).
    pub contact_function: f64,
    /// g_s = μ·(−K·z − D·ż) − |K·u + D·v_t| (N/m^½): in contact, > 0 sticking, < 0 slipping.
    pub stick_function: f64,
}

/// 3-D result: ground = x-y plane, z up, tangent (x, y).
pub type GroundPointResult3 = GroundPointResult<2>;
/// 2-D result: ground = x axis, y up, tangent x.
pub type GroundPointResult2 = GroundPointResult<1>;

impl GroundPointResult<2> {
    /// The force on the point in world coordinates: (f_t,x, f_t,y, f_n).
    #[inline]
    pub fn force_world(&self) -> Vector3<f64> {
        Vector3::new(
            self.tangential_force[0],
            self.tangential_force[1],
            self.normal_force,
        )
    }
}

impl GroundPointResult<1> {
    /// The force on the point in world coordinates of the 2-D ground: (f_t,x, f_n, 0).
    #[inline]
    pub fn force_world(&self) -> Vector3<f64> {
        Vector3::new(self.tangential_force[0], self.normal_force, 0.0)
    }
}

/// The spatial_v2 compliant ground: stiffness K (N/m^1.5), damping D (N·s/m^1.5), friction μ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundContactLaw {
    stiffness: f64,
    damping: f64,
    friction: f64,
}

impl GroundContactLaw {
    /// Validates and builds the law: K > 0, D > 0 (both divide in u̇), μ ≥ 0, all finite.
    pub fn new(stiffness: f64, damping: f64, friction: f64) -> Result<Self, GroundLawError> {
        if !(stiffness.is_finite() && stiffness > 0.0) {
            return Err(GroundLawError::InvalidParameter {
                parameter: "stiffness",
                value: stiffness,
                requirement: "finite and > 0 (N/m^1.5)",
                advice: "choose K = F/d^1.5 for a compression d (m) under a load F (N), \
                         e.g. stiffness = 1e6",
            });
        }
        if !(damping.is_finite() && damping > 0.0) {
            return Err(GroundLawError::InvalidParameter {
                parameter: "damping",
                value: damping,
                requirement: "finite and > 0 (N·s/m^1.5)",
                advice: "D/K is the ground's recovery time constant: choose e.g. \
                         damping = 0.01 × stiffness for 10 ms",
            });
        }
        if !(friction.is_finite() && friction >= 0.0) {
            return Err(GroundLawError::InvalidParameter {
                parameter: "friction",
                value: friction,
                requirement: "finite and ≥ 0",
                advice: "write friction = 0 for a frictionless ground, about 0.5 for a \
                         non-slip floor",
            });
        }
        Ok(GroundContactLaw {
            stiffness,
            damping,
            friction,
        })
    }

    /// K (N/m^1.5).
    pub fn stiffness(&self) -> f64 {
        self.stiffness
    }

    /// D (N·s/m^1.5).
    pub fn damping(&self) -> f64 {
        self.damping
    }

    /// μ (dimensionless).
    pub fn friction(&self) -> f64 {
        self.friction
    }

    /// False for μ = 0: the frictionless ground has no deflection states.
    pub fn has_deflection_states(&self) -> bool {
        self.friction > 0.0
    }

    /// Evaluates the law for one point with T tangential components (see the module
    /// documentation): `height` z (m, up, < 0 below ground), `height_rate` ż (m/s),
    /// `v_tangential` v_t (m/s), `deflection` u (m; ignored when μ = 0). Does not allocate.
    #[inline]
    pub fn evaluate<const T: usize>(
        &self,
        height: f64,
        height_rate: f64,
        v_tangential: &SVector<f64, T>,
        deflection: &SVector<f64, T>,
    ) -> GroundPointResult<T> {
        let k = self.stiffness;
        let d = self.damping;
        let mu = self.friction;
        let spring = -k * height;
        let spring_damper = spring - d * height_rate;
        let contact_function = spring.min(spring_damper);
        // Tangential spring-damper per unit r: K·u + D·v_t (sticking assumption).
        let tangential_per_root = deflection * k + v_tangential * d;
        let tangential_per_root_norm = tangential_per_root.norm();
        let stick_function = mu * spring_damper - tangential_per_root_norm;

        let root = (-height).max(0.0).sqrt();
        let normal_force = root * spring_damper;
        if normal_force <= 0.0 {
            return GroundPointResult {
                normal_force: 0.0,
                tangential_force: SVector::zeros(),
                deflection_rate: if mu > 0.0 {
                    deflection * (-k / d)
                } else {
                    SVector::zeros()
                },
                status: GroundContactStatus::NotInContact,
                cone_ratio: CONE_RATIO_NOT_IN_CONTACT,
                contact_function,
                stick_function,
            };
        }
        if mu == 0.0 {
            return GroundPointResult {
                normal_force,
                tangential_force: SVector::zeros(),
                deflection_rate: SVector::zeros(),
                status: GroundContactStatus::Slipping,
                cone_ratio: CONE_RATIO_NOT_IN_CONTACT,
                contact_function,
                stick_function,
            };
        }
        let stick_force = tangential_per_root * (-root);
        // |f_t,stick|/(μ f_n) = r·|K u + D v_t| / (μ·r·(−K z − D ż)): the root cancels.
        let cone_ratio = tangential_per_root_norm / (mu * spring_damper);
        if cone_ratio <= 1.0 {
            GroundPointResult {
                normal_force,
                tangential_force: stick_force,
                deflection_rate: *v_tangential,
                status: GroundContactStatus::Sticking,
                cone_ratio,
                contact_function,
                stick_function,
            }
        } else {
            let slip_force = stick_force / cone_ratio;
            // u̇ = −(f_t + K·r·u)/(D·r) = −(f_t/r + K·u)/D
            let deflection_rate = (slip_force / root + deflection * k) * (-1.0 / d);
            GroundPointResult {
                normal_force,
                tangential_force: slip_force,
                deflection_rate,
                status: GroundContactStatus::Slipping,
                cone_ratio,
                contact_function,
                stick_function,
            }
        }
    }

    /// 3-D convenience: ground = x-y plane, z up. `position`/`velocity` are the point's world
    /// position (m) and velocity (m/s); `deflection` u = (u_x, u_y) (m).
    #[inline]
    pub fn evaluate_3d(
        &self,
        position: &Vector3<f64>,
        velocity: &Vector3<f64>,
        deflection: &Vector2<f64>,
    ) -> GroundPointResult3 {
        self.evaluate(
            position.z,
            velocity.z,
            &Vector2::new(velocity.x, velocity.y),
            deflection,
        )
    }

    /// 2-D convenience: ground = x axis, y up. `position`/`velocity` are (x, y) (m, m/s);
    /// `deflection` u_x (m).
    #[inline]
    pub fn evaluate_2d(
        &self,
        position: &Vector2<f64>,
        velocity: &Vector2<f64>,
        deflection: f64,
    ) -> GroundPointResult2 {
        self.evaluate(
            position.y,
            velocity.y,
            &Vector1::new(velocity.x),
            &Vector1::new(deflection),
        )
    }

    /// The ground's recovery time constant D/K (s): an unloaded, lost contact's deflection decays
    /// as exp(−t·K/D).
    pub fn time_constant(&self) -> f64 {
        self.damping / self.stiffness
    }

    /// Static compression d = (F/K)^(2/3) (m) of one point carrying a load F ≥ 0 (N) at rest:
    /// with ż = 0, f_n = r·(−K·z) = K·d^1.5.
    pub fn static_compression(&self, load: f64) -> f64 {
        (load.max(0.0) / self.stiffness).powf(2.0 / 3.0)
    }

    /// A step-size estimate (s) for an explicit solver near a resting contact of one point of mass
    /// m (kg) carrying load F (N); a conservative stability bound, not an accuracy target (use
    /// several times smaller steps to resolve the contact dynamics).
    ///
    /// Derivation: about the static compression d₀ = (F/K)^(2/3), the normal force
    /// f_n = K·d^1.5 + D·d^½·ḋ (d = −z) linearises to a spring k = 1.5·K·d₀^½ and a damper
    /// c = D·d₀^½, so the point's normal motion m·δd̈ = −k·δd − c·δḋ has eigenvalues
    /// λ = (−c ± sqrt(c² − 4mk))/(2m); the sticking tangential motion has the spring K·d₀^½ and the
    /// same damper, a slower pair. The deflection state relaxes (out of contact or slipping) with
    /// λ = −K/D. Explicit Runge–Kutta methods of order ≥ 3 (RK4, Bogacki–Shampine,
    /// Dormand–Prince) are stable for h·|λ| ≤ 2 on both the negative real and the imaginary axis,
    /// so h = 2/max(|λ_normal|, K/D) (the K/D term only with friction, μ > 0). With F = 0 the
    /// linearised spring vanishes and only the K/D term (or an unlimited step) remains.
    pub fn explicit_step_estimate(&self, mass: f64, load: f64) -> f64 {
        let depth_root = self.static_compression(load).sqrt();
        let spring = 1.5 * self.stiffness * depth_root;
        let damper = self.damping * depth_root;
        let discriminant = damper * damper - 4.0 * mass * spring;
        let normal_rate = if discriminant >= 0.0 {
            (damper + discriminant.sqrt()) / (2.0 * mass)
        } else {
            (spring / mass).sqrt()
        };
        let relaxation_rate = if self.has_deflection_states() {
            self.stiffness / self.damping
        } else {
            0.0
        };
        let fastest = normal_rate.max(relaxation_rate);
        if fastest > 0.0 {
            2.0 / fastest
        } else {
            f64::INFINITY
        }
    }
}

/// The stiffness K = F/d^1.5 (N/m^1.5) that gives a static compression d (m) under a load F (N)
/// at one point.
pub fn stiffness_for_compression(load: f64, compression: f64) -> f64 {
    load / compression.powf(1.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    // K = 1000 N/m^1.5, D = 10 N·s/m^1.5, μ = 0.5: round numbers for hand computation.
    fn law() -> GroundContactLaw {
        GroundContactLaw::new(1000.0, 10.0, 0.5).unwrap()
    }

    // Hand values below involve a handful of roundings: absolute tolerance 1e-12 on O(1) numbers.
    const TOL: f64 = 1e-12;

    #[test]
    fn above_ground_no_force_and_deflection_relaxes() {
        let u = Vector2::new(0.01, -0.02);
        let r = law().evaluate(0.1, -1.0, &Vector2::new(3.0, 0.0), &u);
        assert_eq!(r.normal_force, 0.0);
        assert_eq!(r.tangential_force, Vector2::zeros());
        assert_eq!(r.status, GroundContactStatus::NotInContact);
        assert_eq!(r.cone_ratio, 2.0);
        // u̇ = −(K/D)·u = −100·u.
        assert!((r.deflection_rate - Vector2::new(-1.0, 2.0)).norm() < TOL);
        // g_c = min(−100, −100 + 10) = −100.
        assert!((r.contact_function + 100.0).abs() < TOL);
    }

    #[test]
    fn below_ground_but_rising_faster_than_recovery_is_out_of_contact() {
        // z = −0.01: recovery speed −K·z/D = 1 m/s. Rising at 2 m/s: −K·z − D·ż = 10 − 20 < 0.
        let r = law().evaluate(-0.01, 2.0, &Vector2::zeros(), &Vector2::zeros());
        assert_eq!(r.status, GroundContactStatus::NotInContact);
        assert_eq!(r.normal_force, 0.0);
        assert!((r.contact_function + 10.0).abs() < TOL);
        // Rising at 0.5 m/s: f_n = r·(10 − 5) = 0.1·5 = 0.5 N.
        let r = law().evaluate(-0.01, 0.5, &Vector2::zeros(), &Vector2::zeros());
        assert_ne!(r.status, GroundContactStatus::NotInContact);
        assert!((r.normal_force - 0.5).abs() < TOL);
        assert!((r.contact_function - 5.0).abs() < TOL);
    }

    #[test]
    fn sticking_3d() {
        // z = −0.01 (r = 0.1), ż = 0: f_n = 0.1·10 = 1 N.
        // K·u + D·v_t = (0.1, 0) + (0, 0.01); f_t = −0.1·(0.1, 0.01) = (−0.01, −0.001).
        let v_t = Vector2::new(0.0, 1e-3);
        let r = law().evaluate(-0.01, 0.0, &v_t, &Vector2::new(1e-4, 0.0));
        assert_eq!(r.status, GroundContactStatus::Sticking);
        assert!((r.normal_force - 1.0).abs() < TOL);
        assert!((r.tangential_force - Vector2::new(-0.01, -0.001)).norm() < TOL);
        assert_eq!(r.deflection_rate, v_t);
        let c = (0.01_f64.powi(2) + 0.001_f64.powi(2)).sqrt() / 0.5;
        assert!((r.cone_ratio - c).abs() < TOL);
        // g_s = μ·10 − |(0.1, 0.01)| > 0.
        assert!((r.stick_function - (5.0 - 0.1_f64.hypot(0.01))).abs() < TOL);
        assert!((r.force_world() - Vector3::new(-0.01, -0.001, 1.0)).norm() < TOL);
    }

    #[test]
    fn slipping_3d_and_2d_at_the_cone_edge() {
        // z = −0.01, ż = 0: f_n = 1. u = (0.02, 0), v_t = (0.1, 0): K·u + D·v_t = (21, 0),
        // f_t,stick = (−2.1, 0), c = 2.1/0.5 = 4.2 → f_t = (−0.5, 0);
        // u̇ = −(f_t + K·r·u)/(D·r) = −(−0.5 + 2)/1 = −1.5.
        let r = law().evaluate(
            -0.01,
            0.0,
            &Vector2::new(0.1, 0.0),
            &Vector2::new(0.02, 0.0),
        );
        assert_eq!(r.status, GroundContactStatus::Slipping);
        assert!((r.cone_ratio - 4.2).abs() < TOL);
        assert!((r.tangential_force - Vector2::new(-0.5, 0.0)).norm() < TOL);
        assert!((r.tangential_force.norm() - 0.5 * r.normal_force).abs() < TOL);
        assert!((r.deflection_rate - Vector2::new(-1.5, 0.0)).norm() < TOL);
        // Consistency: the spring-damper with u̇ reproduces f_t: −r·(K·u + D·u̇) = −0.1·(20 − 15).
        let rebuilt = -0.1 * (1000.0 * 0.02 + 10.0 * r.deflection_rate[0]);
        assert!((rebuilt + 0.5).abs() < TOL);
        assert!((r.stick_function - (5.0 - 21.0)).abs() < TOL);

        let planar = law().evaluate_2d(&Vector2::new(7.0, -0.01), &Vector2::new(0.1, 0.0), 0.02);
        assert_eq!(planar.status, GroundContactStatus::Slipping);
        assert!((planar.force_world() - Vector3::new(-0.5, 1.0, 0.0)).norm() < TOL);
        assert!((planar.deflection_rate[0] + 1.5).abs() < TOL);

        let spatial = law().evaluate_3d(
            &Vector3::new(1.0, 2.0, -0.01),
            &Vector3::new(0.0, 0.1, 0.0),
            &Vector2::new(0.0, 0.02),
        );
        assert!((spatial.force_world() - Vector3::new(0.0, -0.5, 1.0)).norm() < TOL);
        assert!((spatial.deflection_rate - Vector2::new(0.0, -1.5)).norm() < TOL);
    }

    #[test]
    fn frictionless_ground_has_only_normal_force() {
        let ground = GroundContactLaw::new(1000.0, 10.0, 0.0).unwrap();
        assert!(!ground.has_deflection_states());
        let r = ground.evaluate(-0.01, 0.0, &Vector2::new(5.0, 0.0), &Vector2::zeros());
        assert_eq!(r.status, GroundContactStatus::Slipping);
        assert!((r.normal_force - 1.0).abs() < TOL);
        assert_eq!(r.tangential_force, Vector2::zeros());
        assert_eq!(r.deflection_rate, Vector2::zeros());
        let r = ground.evaluate(0.01, 0.0, &Vector2::new(5.0, 0.0), &Vector2::new(1.0, 1.0));
        assert_eq!(r.deflection_rate, Vector2::zeros());
    }

    #[test]
    fn status_functions_change_sign_exactly_with_the_status() {
        let ground = law();
        // Sweep ż through the lift-off threshold (1 m/s at z = −0.01) and u through the cone edge
        // (|K·u + D·v_t| = μ·(−K·z − D·ż)): the sign of g_c / g_s must match the status.
        for i in -300..=300 {
            let z_rate = i as f64 * 0.01;
            for j in 0..=40 {
                let u = Vector1::new(j as f64 * 2.5e-4);
                let r = ground.evaluate(-0.01, z_rate, &Vector1::new(0.0), &u);
                let in_contact = r.status != GroundContactStatus::NotInContact;
                assert_eq!(in_contact, r.contact_function > 0.0, "ż = {z_rate}");
                if in_contact {
                    let sticking = r.status == GroundContactStatus::Sticking;
                    assert_eq!(sticking, r.stick_function >= 0.0, "ż = {z_rate}, u = {u}");
                    assert!((r.cone_ratio <= 1.0) == sticking);
                }
            }
        }
        // Touch-down from above: g_c rises through 0 as z goes through 0 with ż < 0.
        let above = ground.evaluate(1e-9, -1.0, &Vector1::zeros(), &Vector1::zeros());
        let below = ground.evaluate(-1e-9, -1.0, &Vector1::zeros(), &Vector1::zeros());
        assert!(above.contact_function < 0.0 && below.contact_function > 0.0);
        assert!(above.contact_function.abs() < 1e-5 && below.contact_function.abs() < 1e-5);
    }

    #[test]
    fn static_compression_identity_and_tuning_helpers() {
        let ground = GroundContactLaw::new(1e6, 1e3, 0.5).unwrap();
        let load = 100.0;
        let d = ground.static_compression(load);
        // d = (1e-4)^(2/3) = 10^(−8/3).
        assert!((d - 10f64.powf(-8.0 / 3.0)).abs() < 1e-15);
        let r = ground.evaluate(-d, 0.0, &Vector2::zeros(), &Vector2::zeros());
        assert!((r.normal_force - load).abs() < 1e-12 * load);
        assert!((stiffness_for_compression(load, d) - 1e6).abs() < 1e-9 * 1e6);
        assert!((ground.time_constant() - 1e-3).abs() < 1e-18);
        assert_eq!(ground.static_compression(-5.0), 0.0);
    }

    #[test]
    fn explicit_step_estimate_hand_value() {
        // K = 1e6, D = 1e3, m = 1 kg, F = 10 N: d₀ = (1e-5)^(2/3), √d₀ = 10^(−5/3);
        // k = 1.5e6·√d₀, c = 1e3·√d₀; c² < 4mk, so |λ| = sqrt(k/m).
        let sqrt_d0 = 10f64.powf(-5.0 / 3.0);
        let normal_rate = (1.5e6 * sqrt_d0).sqrt();
        let frictionless = GroundContactLaw::new(1e6, 1e3, 0.0).unwrap();
        let h = frictionless.explicit_step_estimate(1.0, 10.0);
        assert!((h - 2.0 / normal_rate).abs() < 1e-12 * h);
        // With friction the deflection relaxation K/D = 1000 1/s dominates: h = 2e-3 s.
        let with_friction = GroundContactLaw::new(1e6, 1e3, 0.5).unwrap();
        assert!((with_friction.explicit_step_estimate(1.0, 10.0) - 2e-3).abs() < 1e-15);
        // Overdamped: K = 1, D = 1e3, m = 1e-3, F = 1: d₀ = 1, k = 1.5, c = 1e3;
        // |λ| = (c + sqrt(c² − 4mk))/(2m).
        let overdamped = GroundContactLaw::new(1.0, 1e3, 0.0).unwrap();
        let rate = (1e3 + (1e6 - 4.0 * 1e-3 * 1.5f64).sqrt()) / 2e-3;
        let h = overdamped.explicit_step_estimate(1e-3, 1.0);
        assert!((h - 2.0 / rate).abs() < 1e-12 * h);
        assert_eq!(frictionless.explicit_step_estimate(1.0, 0.0), f64::INFINITY);
    }

    #[test]
    fn validation() {
        for (k, d, mu, name) in [
            (0.0, 1.0, 0.5, "stiffness"),
            (f64::NAN, 1.0, 0.5, "stiffness"),
            (1.0, 0.0, 0.5, "damping"),
            (1.0, -1.0, 0.5, "damping"),
            (1.0, 1.0, -0.1, "friction"),
            (1.0, 1.0, f64::INFINITY, "friction"),
        ] {
            let message = GroundContactLaw::new(k, d, mu).unwrap_err().to_string();
            assert!(message.contains(name), "{message}");
        }
        assert_eq!(GroundContactStatus::Slipping.code(), 2.0);
    }
}
