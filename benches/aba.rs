//! ABA (and RNEA, CRBA) timing on the models of /work/shared/bench/chains.md, to compare with
//! Pinocchio 4.1 on the same machine: ABA 2.60 µs (chain7), 11.82 µs (chain30), 40.05 µs (chain100),
//! 5.14 µs (quadruped). Goal: at most 1.5× those. Run with `cargo bench --bench aba`.
//!
//! Every body is a solid cylinder along its local z axis: Ixx = Iyy = m(3r² + L²)/12, Izz = m r²/2.
//! Timed per call over 1000 precomputed random states, cycled.

use blockdyn::multibody::*;
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{DMatrix, Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};
use std::f64::consts::FRAC_PI_2;
use std::hint::black_box;

const GRAVITY: Vector3<f64> = Vector3::new(0.0, 0.0, -9.81);

fn cylinder_inertia(mass: f64, radius: f64, length: f64) -> Matrix3<f64> {
    let ixx = mass * (3.0 * radius * radius + length * length) / 12.0;
    Matrix3::from_diagonal(&Vector3::new(ixx, ixx, mass * radius * radius / 2.0))
}

/// Joint rotation axis in the (identity-rotation) joint placement frame.
#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// Adds a revolute joint about `axis` of the frame `joint_frame_parent` placed at `offset` in
/// `parent` (identity rotation). Our joints turn about z, so B is that frame rotated to put z on the
/// axis, and the returned link frame (rotated back) coincides with Pinocchio's joint frame at q = 0.
fn add_revolute(
    net: &mut FrameNetworkBuilder,
    parent: FrameId,
    offset: Vector3<f64>,
    axis: Axis,
    name: &str,
) -> FrameId {
    let z_to_axis = match axis {
        Axis::X => UnitQuaternion::from_axis_angle(&Vector3::y_axis(), FRAC_PI_2),
        Axis::Y => UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -FRAC_PI_2),
    };
    let b = net.add_frame(&format!("{name}.B"));
    let f = net.add_frame(&format!("{name}.F"));
    let link = net.add_frame(&format!("{name}.link"));
    net.add_rigid_transform(
        parent,
        b,
        Isometry3::from_parts(Translation3::from(offset), z_to_axis),
    );
    net.add_joint(b, f, JointSpec::new(JointKind::Revolute), name);
    net.add_rigid_transform(
        f,
        link,
        Isometry3::from_parts(Translation3::identity(), z_to_axis.inverse()),
    );
    link
}

fn chain(n: usize) -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let world = net.add_frame("world.W");
    net.set_world(world);
    let mut parent = world;
    for i in 1..=n {
        let axis = if i % 2 == 0 { Axis::X } else { Axis::Y };
        let offset = if i == 1 {
            Vector3::zeros()
        } else {
            Vector3::z()
        };
        let link = add_revolute(&mut net, parent, offset, axis, &format!("j{i}"));
        net.add_solid(
            link,
            1.0,
            Vector3::new(0.0, 0.0, 0.5),
            cylinder_inertia(1.0, 0.01, 1.0),
            &format!("link{i}"),
        );
        parent = link;
    }
    net.build(GRAVITY).expect("chain builds")
}

fn quadruped() -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let world = net.add_frame("world.W");
    net.set_world(world);
    let root = net.add_frame("root.F");
    net.add_joint(world, root, JointSpec::new(JointKind::SixDof), "root");
    let (a, b, c, m) = (0.6, 0.3, 0.1, 10.0);
    let torso = Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b))
        * (m / 12.0);
    net.add_solid(root, m, Vector3::zeros(), torso, "torso");
    for (leg, x, y) in [
        ("FL", 0.3, 0.15),
        ("FR", 0.3, -0.15),
        ("HL", -0.3, 0.15),
        ("HR", -0.3, -0.15),
    ] {
        let hip = add_revolute(
            &mut net,
            root,
            Vector3::new(x, y, 0.0),
            Axis::X,
            &format!("{leg}_hip_abd"),
        );
        net.add_solid(
            hip,
            0.5,
            Vector3::new(0.0, 0.0, -0.05),
            cylinder_inertia(0.5, 0.02, 0.1),
            "hip",
        );
        let thigh = add_revolute(
            &mut net,
            hip,
            Vector3::new(0.0, 0.0, -0.1),
            Axis::Y,
            &format!("{leg}_hip_flex"),
        );
        net.add_solid(
            thigh,
            1.0,
            Vector3::new(0.0, 0.0, -0.15),
            cylinder_inertia(1.0, 0.02, 0.3),
            "thigh",
        );
        let shank = add_revolute(
            &mut net,
            thigh,
            Vector3::new(0.0, 0.0, -0.3),
            Axis::Y,
            &format!("{leg}_knee"),
        );
        net.add_solid(
            shank,
            0.5,
            Vector3::new(0.0, 0.0, -0.15),
            cylinder_inertia(0.5, 0.015, 0.3),
            "shank",
        );
    }
    net.build(GRAVITY).expect("quadruped builds")
}

struct Rng(u64);
impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

struct States {
    q: Vec<Vec<f64>>,
    v: Vec<Vec<f64>>,
    tau: Vec<Vec<f64>>,
}

fn random_states(m: &Mechanism, count: usize) -> States {
    let mut rng = Rng(0xDEAD_BEEF_1234_5678);
    let mut s = States {
        q: vec![],
        v: vec![],
        tau: vec![],
    };
    for _ in 0..count {
        let mut q: Vec<f64> = (0..m.nq())
            .map(|_| rng.uniform() * std::f64::consts::PI)
            .collect();
        normalize_quaternions(m, &mut q);
        s.q.push(q);
        s.v.push((0..m.nv()).map(|_| rng.uniform()).collect());
        s.tau.push((0..m.nv()).map(|_| rng.uniform()).collect());
    }
    s
}

fn bench_models(c: &mut Criterion) {
    let models = [
        ("chain1", chain(1)),
        ("chain7", chain(7)),
        ("chain30", chain(30)),
        ("chain100", chain(100)),
        ("quadruped", quadruped()),
    ];
    for (name, m) in &models {
        let states = random_states(m, 1000);
        let mut ws = Workspace::new(m);
        let mut out = vec![0.0; m.nv()];
        let mut k = 0;
        c.bench_function(&format!("aba/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % 1000;
                forward_dynamics(
                    m,
                    &states.q[k],
                    &states.v[k],
                    &states.tau[k],
                    &[],
                    &mut ws,
                    &mut out,
                );
                black_box(&out);
            })
        });
        c.bench_function(&format!("rnea/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % 1000;
                inverse_dynamics(
                    m,
                    &states.q[k],
                    &states.v[k],
                    &states.tau[k],
                    &[],
                    &mut ws,
                    &mut out,
                );
                black_box(&out);
            })
        });
        let mut mm = DMatrix::zeros(m.nv(), m.nv());
        c.bench_function(&format!("crba/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % 1000;
                mass_matrix(m, &states.q[k], &mut ws, &mut mm);
                black_box(&mm);
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench_models
}
criterion_main!(benches);
