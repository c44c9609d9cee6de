//! Joint friction: a passive generalized force on each joint axis, computed with the contact
//! friction laws of [`crate::contact::friction`] with the largest friction force or torque in
//! place of μ·f_n.
//!
//! For axis k of a joint with velocity coordinate q̇_k (rad/s for a rotational axis, m/s for a
//! translational one, in the joint's coordinates of [`joint`](super::joint)), the friction is
//!
//! τ_f,k = −τ(|q̇_k|)·q̇_k/|q̇_k|   (N·m or N; 0 at q̇_k = 0)
//!
//! where τ(v) is a [`FrictionLaw`]'s coefficient curve μ(v) whose "coefficients" are the limits
//! themselves (N·m or N) and whose normal force is 1: the law's static coefficient is the static
//! limit, its dynamic coefficient the dynamic limit. A Coulomb limit τ_c is Stribeck's curve with
//! static = dynamic = τ_c: τ rises as τ_c·step5(|q̇|/v_s) from 0 to τ_c at the stiction velocity
//! v_s and is exactly τ_c beyond. Every law is thus a C² regularisation of set-valued Coulomb
//! friction, |τ_f| ≤ τ_s: near rest it acts as a stiff damper, so a joint whose static load is
//! below the limit does not stand exactly still but creeps with |q̇| below the law's velocity
//! scale (v_s or the critical velocity v_c).
//!
//! **Disk friction** ([`JointSpec::friction_disk`](super::JointSpec), spherical and six-dof
//! joints): the rotational triple's friction is one torque opposing the relative angular
//! velocity ω (F relative to B, resolved in F, rad/s) with the same curve of its magnitude,
//!
//! τ_f = −τ(|ω|)·ω/|ω|   (N·m; 0 at ω = 0),
//!
//! the contact laws' 2-D (here 3-D) tangential treatment ([`FrictionLaw::force`]): isotropic, so a
//! spin about any axis meets the same limit, where the per-axis default (a box) gives up to √3
//! times the limit off the axes. The triple's three laws must be equal (checked when the mechanism is built).
//!
//! The force enters the mechanism with the joint's spring and damper, in τ_passive
//! ([`passive_forces`](super::aba::passive_forces)): a driven axis's required actuation includes it.

use super::mechanism::JointPassive;
use crate::contact::friction::FrictionLaw;
use nalgebra::Vector3;

/// The friction force or torque (N or N·m) of `law` on an axis moving at `rate` (m/s or rad/s):
/// −τ(|rate|)·sign(rate), 0 at rest and for [`FrictionLaw::None`]. Does not allocate.
#[inline]
pub fn axis_friction(law: &FrictionLaw, rate: f64) -> f64 {
    law.force(1.0, &Vector3::new(rate, 0.0, 0.0)).x
}

/// The velocity scale (m/s or rad/s) of `law`'s stick band: the stiction velocity (Stribeck,
/// Coulomb) or the critical velocity (smooth stick-slip), where the friction first reaches its
/// static limit; `None` for a law without friction.
pub fn stick_velocity(law: &FrictionLaw) -> Option<f64> {
    match *law {
        FrictionLaw::Stribeck {
            stiction_velocity, ..
        } => Some(stiction_velocity),
        FrictionLaw::SmoothStickSlip {
            critical_velocity, ..
        } => Some(critical_velocity),
        FrictionLaw::None | FrictionLaw::Input => None,
    }
}

/// The disk friction torque (N·m, resolved as `w`) of `law` at the relative angular velocity `w`
/// (rad/s): −τ(|w|)·w/|w|, 0 at rest. Does not allocate.
#[inline]
pub fn disk_friction(law: &FrictionLaw, w: &Vector3<f64>) -> Vector3<f64> {
    law.force(1.0, w)
}

/// Checks a disk friction: a joint with a rotational triple (spherical, six-dof) whose triple's
/// laws (`laws`, one per velocity coordinate, or none) are equal.
pub(crate) fn check_disk(laws: &[FrictionLaw], kind: super::JointKind) -> Result<(), String> {
    if kind.quaternion_offset().is_none() {
        return Err(format!(
            "disk friction needs a rotation with three axes (a spherical or six-dof joint), not a {} joint",
            kind.name()
        ));
    }
    let r = kind.nv() - 3;
    match laws.get(r..r + 3) {
        Some([a, b, c]) if a != b || a != c => Err(
            "disk friction has one law for the whole rotation: give its three axes the same limits"
                .to_string(),
        ),
        _ => Ok(()),
    }
}

/// A Coulomb friction of limit `limit` (N or N·m), regularised over `stiction_velocity`
/// (m/s or rad/s): Stribeck's curve with equal static and dynamic limits.
pub fn coulomb(limit: f64, stiction_velocity: f64) -> FrictionLaw {
    FrictionLaw::Stribeck {
        static_coefficient: limit,
        dynamic_coefficient: limit,
        stiction_velocity,
    }
}

/// Checks a joint's friction laws: none, or one per velocity coordinate (`nv`), each a valid law
/// with the dynamic limit not above the static one (the input law is not a joint friction).
/// Returns what is wrong, for [`MechanismError::BadJointSpec`](super::MechanismError).
pub(crate) fn check_laws(laws: &[FrictionLaw], nv: usize) -> Result<(), String> {
    if !laws.is_empty() && laws.len() != nv {
        return Err(format!(
            "friction has {} laws; give none or one per degree of freedom ({nv})",
            laws.len()
        ));
    }
    for law in laws {
        if law.is_input() {
            return Err("joint friction cannot be an input".to_string());
        }
        let warnings = law.validate().map_err(|e| e.to_string())?;
        if !warnings.is_empty() {
            return Err("the dynamic friction limit must not exceed the static one".to_string());
        }
    }
    Ok(())
}

impl JointPassive {
    /// The friction force or torque (N or N·m) on axis `k` of the body's inbound joint at
    /// velocity `rate` (m/s or rad/s), see [`axis_friction`].
    #[inline]
    pub(crate) fn friction_force(&self, k: usize, rate: f64) -> f64 {
        axis_friction(&self.friction[k], rate)
    }

    /// The friction forces and torques (N or N·m) of all axes of the body's inbound joint at
    /// the velocities `rates` (its nv velocity coordinates) into `out`: each axis's own law, or
    /// for a disk the rotational triple's [`disk_friction`]. Does not allocate.
    #[inline]
    pub(crate) fn friction_forces(&self, rates: &[f64], out: &mut [f64; 6]) {
        for (k, rate) in rates.iter().enumerate() {
            out[k] = self.friction_force(k, *rate);
        }
        if let Some(r) = self.friction_disk {
            let w = Vector3::new(rates[r], rates[r + 1], rates[r + 2]);
            out[r..r + 3].copy_from_slice(disk_friction(&self.friction[r], &w).as_slice());
        }
    }

    /// Whether the inbound joint has friction on any axis.
    pub(crate) fn has_friction(friction: &[FrictionLaw; 6]) -> bool {
        friction.iter().any(|l| *l != FrictionLaw::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Coulomb law is ±limit beyond the stiction velocity, 0 at rest, odd in the rate, and
    /// τ_c·step5(1/2) = τ_c/2 half-way up.
    #[test]
    fn coulomb_is_the_limit_beyond_the_stiction_velocity() {
        let law = coulomb(2.5, 1e-3);
        assert_eq!(axis_friction(&law, 0.0), 0.0);
        for rate in [1e-3, 3e-3, 0.7, 40.0] {
            assert!((axis_friction(&law, rate) + 2.5).abs() < 1e-12, "{rate}");
            assert!((axis_friction(&law, -rate) - 2.5).abs() < 1e-12, "{rate}");
        }
        assert!((axis_friction(&law, 0.5e-3) + 1.25).abs() < 1e-12);
        assert_eq!(stick_velocity(&law), Some(1e-3));
        assert_eq!(axis_friction(&FrictionLaw::None, 3.0), 0.0);
    }

    /// The mechanism applies the friction as a passive force: `passive_forces` (what inverse
    /// dynamics and a driven axis's required actuation subtract) holds −τ_c·sign(q̇) beside the
    /// damper's −c·q̇, and forward dynamics accelerates a point mass m = 2 kg on a 0.5 m arm about a
    /// vertical axis (no gravity torque, I = m·r² = 0.5 kg·m²) at (−τ_c − c·q̇)/I.
    #[test]
    fn the_mechanism_applies_the_friction_as_a_passive_force() {
        use crate::multibody::*;
        use nalgebra::{Matrix3, Vector3};
        let (tau_c, c, rate) = (0.3, 0.1, 2.0);
        let mut net = FrameNetworkBuilder::new();
        let w = net.add_frame("world.W");
        let b = net.add_frame("hinge.B");
        let f = net.add_frame("hinge.F");
        net.set_world(w);
        net.connect(w, b);
        let spec = JointSpec::new(JointKind::Revolute)
            .with_state(&[0.0], &[rate])
            .with_spring_damper(&[], &[c])
            .with_friction(&[coulomb(tau_c, 1e-3)]);
        net.add_joint(b, f, spec, "hinge");
        net.add_solid(f, 2.0, Vector3::new(0.5, 0.0, 0.0), Matrix3::zeros(), "bob");
        let m = net.build(Vector3::new(0.0, 0.0, -9.81)).unwrap();
        let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
        m.initial_state(&mut q, &mut v);
        let mut passive = [0.0];
        passive_forces(&m, &q, &v, &mut passive);
        assert!(
            (passive[0] - (-tau_c - c * rate)).abs() < 1e-12,
            "{passive:?}"
        );
        let mut ws = Workspace::new(&m);
        let mut vdot = [0.0];
        forward_dynamics(&m, &q, &v, &[0.0], &[], &mut ws, &mut vdot);
        assert!(
            (vdot[0] - (-tau_c - c * rate) / 0.5).abs() < 1e-12,
            "{vdot:?}"
        );
        // A loop's cut joint cannot carry friction, and bad laws are refused by name.
        let bad = JointSpec::new(JointKind::Revolute).with_friction(&[coulomb(-1.0, 1e-3)]);
        let mut net = FrameNetworkBuilder::new();
        let (w, b, f) = (net.add_frame("W"), net.add_frame("B"), net.add_frame("F"));
        net.set_world(w);
        net.connect(w, b);
        net.add_joint(b, f, bad, "bad");
        net.add_solid(f, 1.0, Vector3::new(0.5, 0.0, 0.0), Matrix3::zeros(), "bob");
        let e = net.build(Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("bad") && e.contains("static"), "{e}");
    }

    #[test]
    fn laws_are_checked() {
        let good = coulomb(1.0, 1e-3);
        assert!(check_laws(&[], 3).is_ok());
        assert!(check_laws(&[good, good], 2).is_ok());
        assert!(check_laws(&[good], 2)
            .unwrap_err()
            .contains("one per degree"));
        let swapped = FrictionLaw::Stribeck {
            static_coefficient: 1.0,
            dynamic_coefficient: 2.0,
            stiction_velocity: 1e-3,
        };
        assert!(check_laws(&[swapped], 1)
            .unwrap_err()
            .contains("must not exceed"));
        assert!(check_laws(&[coulomb(-1.0, 1e-3)], 1).is_err());
        assert!(check_laws(&[FrictionLaw::Input], 1).is_err());
    }
}
