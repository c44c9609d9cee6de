//! Contact laws driving small ODEs with closed-form answers: impacts against the normal laws
//! (energy conservation), creep under regularised friction, and a point sliding to rest on the
//! spatial_v2 compliant ground.

use blockdyn::contact::friction::FrictionLaw;
use blockdyn::contact::ground_law::{GroundContactLaw, GroundContactStatus};
use blockdyn::contact::normal_force::NormalForceLaw;
use nalgebra::{Vector2, Vector3};

/// One classical RK4 step of ẏ = f(y) for a state of N components.
fn rk4<const N: usize>(y: [f64; N], h: f64, f: impl Fn(&[f64; N]) -> [f64; N]) -> [f64; N] {
    let add = |a: &[f64; N], b: &[f64; N], s: f64| {
        let mut out = *a;
        for i in 0..N {
            out[i] += s * b[i];
        }
        out
    };
    let k1 = f(&y);
    let k2 = f(&add(&y, &k1, h / 2.0));
    let k3 = f(&add(&y, &k2, h / 2.0));
    let k4 = f(&add(&y, &k3, h));
    let mut out = y;
    for i in 0..N {
        out[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    out
}

/// Drops a mass m onto the law at approach speed v (no gravity) and returns the deepest
/// penetration and the rebound speed. State (d, ḋ); m·d̈ = −f_n(d, ḋ).
fn impact(law: &NormalForceLaw, mass: f64, speed: f64, step: f64) -> (f64, f64) {
    let mut y = [0.0, speed];
    let mut deepest: f64 = 0.0;
    while y[0] >= 0.0 {
        y = rk4(y, step, |s| [s[1], -law.magnitude(s[0], s[1]) / mass]);
        deepest = deepest.max(y[0]);
    }
    (deepest, -y[1])
}

/// Undamped laws conserve energy: ½mv² equals the spring energy at the deepest point and the
/// rebound speed equals the approach speed. Tolerance 1e-6 relative: RK4 with ~10⁴ steps per
/// contact has a truncation error far below, but the sampled maximum is off by O((h·ω)²) ≈ 1e-8.
#[test]
fn undamped_impacts_conserve_energy() {
    let (mass, speed) = (0.5, 2.0);
    // MapleSim's figure for the linear spring: d_max = sqrt(m/k)·v.
    let linear = NormalForceLaw::LinearSpringDamper {
        stiffness: 1e4,
        damping: 0.0,
    };
    let (deepest, rebound) = impact(&linear, mass, speed, 1e-6);
    let expected = (mass / 1e4_f64).sqrt() * speed;
    assert!(
        (deepest - expected).abs() < 1e-6 * expected,
        "{deepest} vs {expected}"
    );
    assert!((rebound - speed).abs() < 1e-6 * speed);

    // Hertz (n = 1.5): ½mv² = k·d^(n+1)/(n+1).
    let hertz = NormalForceLaw::hunt_crossley(1e6, 0.0, 1.5);
    let (deepest, rebound) = impact(&hertz, mass, speed, 1e-6);
    let expected = (2.5 * mass * speed * speed / (2.0 * 1e6_f64)).powf(1.0 / 2.5);
    assert!(
        (deepest - expected).abs() < 1e-6 * expected,
        "{deepest} vs {expected}"
    );
    assert!((rebound - speed).abs() < 1e-6 * speed);

    // Smooth law: ∫₀ʷ s·k·x dx = k·w²·(3/4 − 2/5) = 0.35·k·w², so beyond w
    // ½mv² = 0.35·k·w² + ½k·(d² − w²) → d_max = sqrt(m·v²/k + 0.3·w²).
    let (k, w) = (1e4, 5e-3);
    let smooth = NormalForceLaw::SmoothSpringDamper {
        stiffness: k,
        damping: 0.0,
        transition_width: w,
    };
    let (deepest, rebound) = impact(&smooth, mass, speed, 1e-6);
    let expected = (mass * speed * speed / k + 0.3 * w * w).sqrt();
    assert!(
        (deepest - expected).abs() < 1e-6 * expected,
        "{deepest} vs {expected}"
    );
    assert!((rebound - speed).abs() < 1e-6 * speed);
}

/// Damping dissipates: every damped law rebounds slower than it arrived, and the limited damper
/// never exceeds twice the spring force.
#[test]
fn damped_impacts_lose_energy() {
    let laws = [
        NormalForceLaw::LinearSpringDamper {
            stiffness: 1e4,
            damping: 10.0,
        },
        NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: 1e4,
            damping: 10.0,
        },
        NormalForceLaw::hunt_crossley(1e6, 1e5, 1.5),
        NormalForceLaw::SmoothSpringDamper {
            stiffness: 1e4,
            damping: 10.0,
            transition_width: 1e-3,
        },
    ];
    for law in laws {
        let (_, rebound) = impact(&law, 0.5, 2.0, 1e-6);
        assert!(rebound < 2.0 && rebound > 0.0, "{law:?}: rebound {rebound}");
    }
}

/// A constant tangential push F below μ_s·f_n makes a mass creep at the speed where the rising
/// branch balances it: μ_s·x·(2 − x) = F/f_n, x = v/v_c → v = v_c·(1 − sqrt(1 − F/(μ_s f_n))).
/// The velocity relaxes there exponentially (time constant m/(f_n·μ'(v)) ≈ 9e-5 s); after
/// 0.05 s the remaining error is far below the 1e-9 relative tolerance.
#[test]
fn regularised_friction_creeps_at_the_balance_speed() {
    let law = FrictionLaw::SmoothStickSlip {
        static_coefficient: 0.8,
        dynamic_coefficient: 0.6,
        critical_velocity: 1e-3,
    };
    let (mass, normal_force, push) = (1.0, 9.81, 0.4 * 9.81);
    let mut v = [0.0];
    for _ in 0..50_000 {
        v = rk4(v, 1e-6, |s| {
            let friction = law.force(normal_force, &Vector3::new(s[0], 0.0, 0.0));
            [(push + friction.x) / mass]
        });
    }
    let expected = 1e-3 * (1.0 - (1.0 - 0.4 / 0.8_f64).sqrt());
    assert!(
        (v[0] - expected).abs() < 1e-9 * expected,
        "{} vs {expected}",
        v[0]
    );
}

/// A 1 kg point on the compliant ground (K = 1e6 N/m^1.5, D critical for the linearised normal
/// motion, μ = 0.5) launched sideways at 1 m/s: it slips with deceleration μ·g, stops after
/// v₀²/(2μg) = 0.1019 m, then sticks at the static compression (F/K)^(2/3).
/// Tolerances: the stopping point within 1% (the tangential spring deflects by
/// μ·m·g/(K·√d) ≈ 2.3e-4 m when it catches the point, 0.2% of the distance); the compression
/// within 1e-6 relative once the normal motion has settled.
#[test]
fn point_slides_to_rest_on_the_compliant_ground() {
    let (mass, gravity, mu): (f64, f64, f64) = (1.0, 9.81, 0.5);
    let stiffness: f64 = 1e6;
    let compression = (mass * gravity / stiffness).powf(2.0 / 3.0);
    let linear_stiffness = 1.5 * stiffness * compression.sqrt();
    let damping = 2.0 * (linear_stiffness * mass).sqrt() / compression.sqrt();
    let ground = GroundContactLaw::new(stiffness, damping, mu).unwrap();
    // State: x, z, vx, vz, ux.
    let derivative = |s: &[f64; 5]| {
        let r = ground.evaluate_2d(&Vector2::new(s[0], s[1]), &Vector2::new(s[2], s[3]), s[4]);
        let f = r.force_world();
        [
            s[2],
            s[3],
            f.x / mass,
            f.y / mass - gravity,
            r.deflection_rate[0],
        ]
    };
    let mut y = [0.0, -compression, 1.0, 0.0, 0.0];
    let step = 1e-5;
    let mut slipping_deceleration_checked = false;
    for i in 0..60_000 {
        y = rk4(y, step, derivative);
        if i == 10_000 {
            // t = 0.1 s, mid-slide: v = 1 − μ·g·t.
            assert!((y[2] - (1.0 - mu * gravity * 0.1)).abs() < 1e-3, "{}", y[2]);
            let r = ground.evaluate_2d(&Vector2::new(y[0], y[1]), &Vector2::new(y[2], y[3]), y[4]);
            assert_eq!(r.status, GroundContactStatus::Slipping);
            slipping_deceleration_checked = true;
        }
    }
    assert!(slipping_deceleration_checked);
    let stop = 1.0 / (2.0 * mu * gravity);
    assert!((y[0] - stop).abs() < 0.01 * stop, "{} vs {stop}", y[0]);
    assert!(y[2].abs() < 1e-6, "still moving: {}", y[2]);
    assert!((-y[1] - compression).abs() < 1e-6 * compression);
    let r = ground.evaluate_2d(&Vector2::new(y[0], y[1]), &Vector2::new(y[2], y[3]), y[4]);
    assert_eq!(r.status, GroundContactStatus::Sticking);
}
