//! Contact law throughput. Targets: the ground law ≤ 20 ns per point (1000 points per
//! evaluation, mixed regimes); one normal + friction law evaluation per contact well below that.
//!
//! Run: `cargo bench --bench contact`.

use blockdyn::contact::friction::FrictionLaw;
use blockdyn::contact::ground_law::GroundContactLaw;
use blockdyn::contact::normal_force::NormalForceLaw;
use blockdyn::contact::resultant::ResultantCalculator;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nalgebra::{Vector2, Vector3};
use std::hint::black_box;

const POINTS: usize = 1000;

/// Point states spread over every regime: above ground, below and rising out of contact,
/// sticking and slipping (deterministic pseudo-random values).
fn ground_states() -> Vec<(Vector3<f64>, Vector3<f64>, Vector2<f64>)> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..POINTS)
        .map(|_| {
            let position = Vector3::new(next(), next(), 2e-3 * next());
            let velocity = Vector3::new(0.1 * next(), 0.1 * next(), 0.5 * next());
            let deflection = Vector2::new(1e-4 * next(), 1e-4 * next());
            (position, velocity, deflection)
        })
        .collect()
}

fn ground_law(c: &mut Criterion) {
    let ground = GroundContactLaw::new(1e6, 1e4, 0.5).unwrap();
    let states = ground_states();
    let mut forces = vec![Vector3::zeros(); POINTS];
    let mut deflection_rates = vec![Vector2::zeros(); POINTS];
    let mut group = c.benchmark_group("ground_law");
    group.throughput(Throughput::Elements(POINTS as u64));
    group.bench_function("3d_1000_points", |b| {
        b.iter(|| {
            for (i, (p, v, u)) in black_box(&states).iter().enumerate() {
                let r = ground.evaluate_3d(p, v, u);
                forces[i] = r.force_world();
                deflection_rates[i] = r.deflection_rate;
            }
            black_box((&forces, &deflection_rates));
        })
    });
    group.finish();
}

fn normal_and_friction(c: &mut Criterion) {
    let normal = NormalForceLaw::SmoothSpringDamper {
        stiffness: 8e7,
        damping: 4e6,
        transition_width: 1e-4,
    };
    let hunt_crossley = NormalForceLaw::hunt_crossley(1e9, 1e8, 1.5);
    let smooth = FrictionLaw::SmoothStickSlip {
        static_coefficient: 0.8,
        dynamic_coefficient: 0.6,
        critical_velocity: 1e-3,
    };
    let stribeck = FrictionLaw::Stribeck {
        static_coefficient: 0.8,
        dynamic_coefficient: 0.6,
        stiction_velocity: 1e-3,
    };
    let v_t = Vector3::new(2e-3, -1e-3, 0.0);
    let mut group = c.benchmark_group("contact_laws");
    group.bench_function("smooth_spring_damper+smooth_stick_slip", |b| {
        b.iter(|| {
            let f_n = normal.magnitude(black_box(5e-5), black_box(0.01));
            smooth.force(f_n, black_box(&v_t))
        })
    });
    group.bench_function("hunt_crossley+stribeck", |b| {
        b.iter(|| {
            let f_n = hunt_crossley.magnitude(black_box(5e-5), black_box(0.01));
            stribeck.force(f_n, black_box(&v_t))
        })
    });
    group.finish();
}

fn resultant(c: &mut Criterion) {
    let states = ground_states();
    let mut calculator = ResultantCalculator::with_capacity(POINTS);
    let mut group = c.benchmark_group("resultant");
    group.throughput(Throughput::Elements(POINTS as u64));
    group.bench_function("1000_forces", |b| {
        b.iter(|| {
            calculator.clear();
            for (p, v, _) in black_box(&states) {
                calculator.add_force(*p, Vector3::z(), Vector3::new(v.x, v.y, 1.0));
            }
            calculator.compute()
        })
    });
    group.finish();
}

criterion_group!(benches, ground_law, normal_and_friction, resultant);
criterion_main!(benches);
