//! Invariants of the contact laws over random finite inputs (proptest).

use blockdyn::contact::friction::FrictionLaw;
use blockdyn::contact::ground_law::{GroundContactLaw, GroundContactStatus};
use blockdyn::contact::normal_force::NormalForceLaw;
use nalgebra::{Vector2, Vector3};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_b10c), ..ProptestConfig::default() })]
    /// Friction opposes the slip velocity, with magnitude μ(|v_t|)·|f_n| and never above
    /// max(μ_s, μ_d)·|f_n|. Relative tolerance 1e-12: one normalisation and a few products.
    #[test]
    fn friction_force_opposes_slip_and_respects_the_coefficient(
        mu_s in 0.0..2.0f64, mu_d in 0.0..2.0f64, v_ref in 1e-5..1.0f64,
        vx in -10.0..10.0f64, vy in -10.0..10.0f64, f_n in 0.0..1e6f64, stribeck in any::<bool>(),
    ) {
        let law = if stribeck {
            FrictionLaw::Stribeck { static_coefficient: mu_s, dynamic_coefficient: mu_d, stiction_velocity: v_ref }
        } else {
            FrictionLaw::SmoothStickSlip { static_coefficient: mu_s, dynamic_coefficient: mu_d, critical_velocity: v_ref }
        };
        prop_assert!(law.validate().is_ok());
        let v = Vector3::new(vx, vy, 0.0);
        let f = law.force(f_n, &v);
        let speed = v.norm();
        let expected = law.coefficient(speed) * f_n;
        prop_assert!((f.norm() - expected).abs() <= 1e-12 * expected.max(1e-300));
        prop_assert!(f.dot(&v) <= 0.0);
        prop_assert!(f.cross(&v).norm() <= 1e-12 * f.norm() * speed + 1e-300);
        prop_assert!(law.coefficient(speed) <= mu_s.max(mu_d) * (1.0 + 1e-15));
    }

    /// Every normal law is repulsive (≥ 0), zero out of contact, and finite for finite inputs.
    #[test]
    fn normal_laws_are_repulsive_and_finite(
        k in 0.0..1e8f64, b in 0.0..1e6f64, w in 1e-6..1e-2f64, n in 1.0..3.0f64, q in 0.2..2.0f64,
        p in 0.0..3.0f64, d in -1e-2..1e-2f64, d_rate in -10.0..10.0f64,
    ) {
        let laws = [
            NormalForceLaw::SmoothSpringDamper { stiffness: k, damping: b, transition_width: w },
            NormalForceLaw::LinearSpringDamper { stiffness: k, damping: b },
            NormalForceLaw::LinearSpringLimitedDamper { stiffness: k, damping: b },
            NormalForceLaw::HuntCrossley { stiffness: k, damping: b, exponent: n, velocity_exponent: q, depth_exponent: p },
        ];
        for law in laws {
            prop_assert!(law.validate().is_ok());
            let f = law.magnitude(d, d_rate);
            prop_assert!(f.is_finite() && f >= 0.0);
            if d <= 0.0 {
                prop_assert_eq!(f, 0.0);
            }
        }
    }

    /// The ground's tangential force never leaves the friction cone, forces are finite, and the
    /// status agrees with the sign of the status functions.
    #[test]
    fn ground_force_stays_in_the_cone(
        z in -1e-2..1e-2f64, z_rate in -2.0..2.0f64, vx in -1.0..1.0f64, vy in -1.0..1.0f64,
        ux in -1e-3..1e-3f64, uy in -1e-3..1e-3f64, mu in 0.0..1.5f64,
    ) {
        let ground = GroundContactLaw::new(1e6, 1e4, mu).unwrap();
        let r = ground.evaluate(z, z_rate, &Vector2::new(vx, vy), &Vector2::new(ux, uy));
        prop_assert!(r.normal_force >= 0.0 && r.normal_force.is_finite());
        prop_assert!(r.tangential_force.norm() <= mu * r.normal_force * (1.0 + 1e-12));
        prop_assert!(r.deflection_rate.iter().all(|c| c.is_finite()));
        prop_assert_eq!(r.status != GroundContactStatus::NotInContact, r.contact_function > 0.0);
        if r.status != GroundContactStatus::NotInContact && mu > 0.0 {
            prop_assert_eq!(r.status == GroundContactStatus::Sticking, r.stick_function >= 0.0);
        }
    }
}
