//! Shared helpers for the multibody integration tests: a deterministic RNG and random mechanisms.
#![allow(dead_code)]

use blockdyn::multibody::*;
use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};

/// xorshift64: deterministic, no extra dependency.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in [-1, 1).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    pub fn index(&mut self, n: usize) -> usize {
        (((self.next() + 1.0) * 0.5 * n as f64) as usize).min(n - 1)
    }
    pub fn v3(&mut self) -> Vector3<f64> {
        Vector3::new(self.next(), self.next(), self.next())
    }
    pub fn pose(&mut self) -> Isometry3<f64> {
        Isometry3::from_parts(
            Translation3::from(self.v3() * 0.5),
            UnitQuaternion::from_scaled_axis(self.v3() * 2.0),
        )
    }
    /// A physically valid rotational inertia about the centre of mass (principal moments obeying
    /// the triangle inequality), randomly rotated.
    pub fn inertia(&mut self, mass: f64) -> Matrix3<f64> {
        let a = 0.2 + 0.3 * (self.next() + 1.0);
        let b = 0.2 + 0.3 * (self.next() + 1.0);
        let c = 0.2 + 0.3 * (self.next() + 1.0);
        // A box of sides a, b, c.
        let d = Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b))
            * (mass / 12.0);
        let r = UnitQuaternion::from_scaled_axis(self.v3() * 2.0)
            .to_rotation_matrix()
            .into_inner();
        r * d * r.transpose()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Chain,
    Branching,
}

/// A random tree of `n` moving joints drawn from `kinds`, with random placements, rigid transforms,
/// welds and solids; about a third of the joints are connected follower-toward-World (reversed).
/// `spring` adds isotropic per-joint stiffness (and `damping` damping).
pub fn random_mechanism(
    rng: &mut Rng,
    n: usize,
    shape: Shape,
    kinds: &[JointKind],
    gravity: Vector3<f64>,
    spring: bool,
    damping: bool,
) -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let world = net.add_frame("world.W");
    net.set_world(world);
    let mut body_frames = vec![world];
    for k in 1..=n {
        let parent = match shape {
            Shape::Chain => k - 1,
            Shape::Branching => rng.index(k),
        };
        let b = net.add_frame(&format!("j{k}.B"));
        let f = net.add_frame(&format!("j{k}.F"));
        let pose = rng.pose();
        net.add_rigid_transform(body_frames[parent], b, pose);
        let kind = kinds[rng.index(kinds.len())];
        let stiffness = if spring {
            vec![0.5 + rng.next().abs(); kind.nv()]
        } else {
            vec![]
        };
        let damp = if damping {
            vec![0.1 + rng.next().abs(); kind.nv()]
        } else {
            vec![]
        };
        let spec = JointSpec::new(kind).with_spring_damper(&stiffness, &damp);
        if rng.next() > 0.33 {
            net.add_joint(b, f, spec, &format!("j{k}"));
        } else {
            net.add_joint(f, b, spec, &format!("j{k}"));
        }
        // A solid through a rigid transform, and sometimes a second one through a weld.
        let s = net.add_frame(&format!("s{k}.R"));
        net.add_rigid_transform(f, s, rng.pose());
        let mass = 0.5 + rng.next().abs() * 1.5;
        let inertia = rng.inertia(mass);
        net.add_solid(s, mass, rng.v3() * 0.2, inertia, &format!("s{k}"));
        if rng.next() > 0.3 {
            let wb = net.add_frame(&format!("w{k}.B"));
            let wf = net.add_frame(&format!("w{k}.F"));
            net.connect(f, wb);
            net.add_joint(wb, wf, JointSpec::new(JointKind::Weld), &format!("w{k}"));
            let mass = 0.2 + rng.next().abs();
            let inertia = rng.inertia(mass);
            net.add_solid(wf, mass, rng.v3() * 0.3, inertia, &format!("t{k}"));
        }
        body_frames.push(f);
    }
    net.build(gravity).expect("random mechanism builds")
}

/// A random state: unit quaternions, angles in [-π, π), velocities in [-2, 2).
pub fn random_state(rng: &mut Rng, m: &Mechanism) -> (Vec<f64>, Vec<f64>) {
    let mut q: Vec<f64> = (0..m.nq()).map(|_| rng.next() * 3.0).collect();
    normalize_quaternions(m, &mut q);
    let v = (0..m.nv()).map(|_| rng.next() * 2.0).collect();
    (q, v)
}

pub const ALL_KINDS: [JointKind; 7] = [
    JointKind::Revolute,
    JointKind::Prismatic,
    JointKind::Cylindrical,
    JointKind::Universal,
    JointKind::Spherical,
    JointKind::Planar,
    JointKind::SixDof,
];

/// Relative difference |a − b| / max(1, |b|) in the max norm.
pub fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(1.0f64, |s, x| s.max(x.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |e, (x, y)| e.max((x - y).abs()))
        / scale
}
