//! Block-level costs per minor step, measured through the engine (everything a real run pays:
//! kinematics, queries, force laws, wrenches, the mechanism's dynamics).
//!
//! Targets:
//! - ISSUE 3: the whole diagram's minor step for a 30-link chain within 1.3× of a bare ABA call.
//! - ISSUE 4: a SpatialContactForce with a 4096-point cloud against a plane: ≤ 25 ns per point.
//! - ISSUE 5: a GroundContact with 1000 points: ≤ 20 ns per point.
//!
//! The per-point figures subtract nothing: they are the whole minor step divided by the points.
//! Run: `cargo bench --bench blocks`.

use blockdyn::multibody::{forward_dynamics, FrameNetworkBuilder, JointKind, JointSpec, Workspace};
use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::System;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};
use std::hint::black_box;

/// chainN of `../shared/bench/chains.md` as a model: revolute joints alternating about y (odd) and
/// x (even), 1 m apart, cylinder links (1 kg, r = 0.01 m, L = 1 m) with their centre 0.5 m up.
fn chain_model(n: usize) -> String {
    let mut connect = vec!["\"world.W -- base.B\"".to_string()];
    let mut blocks = String::from("[blocks.world]\ntype = \"WorldFrame\"\n[blocks.gravity]\ntype = \"MechanismConfiguration\"\ngravity = [0.0, 0.0, -9.81]\n[blocks.base]\ntype = \"RigidTransform\"\n");
    let mut prev = "base.F".to_string();
    for i in 1..=n {
        // Joint frames: z along the rotation axis (y for odd i, x for even i).
        let axis = if i % 2 == 1 {
            "rotation = { axis = [1.0, 0.0, 0.0], angle = -1.5707963267948966 }"
        } else {
            "rotation = { axis = [0.0, 1.0, 0.0], angle = 1.5707963267948966 }"
        };
        blocks.push_str(&format!("[blocks.to{i}]\ntype = \"RigidTransform\"\n{axis}\n[blocks.j{i}]\ntype = \"RevoluteJoint\"\nq0 = 0.1\n[blocks.back{i}]\ntype = \"RigidTransform\"\n"));
        // Undo the axis rotation so the link frame is aligned with World at q = 0.
        let undo = if i % 2 == 1 {
            "rotation = { axis = [1.0, 0.0, 0.0], angle = 1.5707963267948966 }"
        } else {
            "rotation = { axis = [0.0, 1.0, 0.0], angle = -1.5707963267948966 }"
        };
        blocks.push_str(&format!("{undo}\n[blocks.com{i}]\ntype = \"RigidTransform\"\ntranslation = [0.0, 0.0, 0.5]\n[blocks.link{i}]\ntype = \"Solid\"\ngeometry = {{ shape = \"cylinder\", radius = 0.01, length = 1.0 }}\nmass = 1.0\n[blocks.next{i}]\ntype = \"RigidTransform\"\ntranslation = [0.0, 0.0, 1.0]\n"));
        connect.push(format!("\"{prev} -- to{i}.B\""));
        connect.push(format!("\"to{i}.F -- j{i}.B\""));
        connect.push(format!("\"j{i}.F -- back{i}.B\""));
        connect.push(format!("\"back{i}.F -- com{i}.B\""));
        connect.push(format!("\"com{i}.F -- link{i}.R\""));
        connect.push(format!("\"back{i}.F -- next{i}.B\""));
        prev = format!("next{i}.F");
    }
    format!(
        "connect = [{}]\n[model]\nstop_time = 1.0\n{blocks}",
        connect.join(",\n")
    )
}

/// The same chain built directly on the multibody API (no diagram).
fn chain_mechanism(n: usize) -> blockdyn::multibody::Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world");
    net.set_world(w);
    let mut prev = w;
    let (m, r, l) = (1.0, 0.01, 1.0);
    let inertia = Matrix3::from_diagonal(&Vector3::new(
        m * (3.0 * r * r + l * l) / 12.0,
        m * (3.0 * r * r + l * l) / 12.0,
        m * r * r / 2.0,
    ));
    for i in 1..=n {
        let rot = if i % 2 == 1 {
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -std::f64::consts::FRAC_PI_2)
        } else {
            UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2)
        };
        let b = net.add_frame(&format!("j{i}.B"));
        let f = net.add_frame(&format!("j{i}.F"));
        let offset = if i == 1 {
            Translation3::identity()
        } else {
            Translation3::new(0.0, 0.0, 1.0)
        };
        net.add_rigid_transform(prev, b, Isometry3::from_parts(offset, rot));
        net.add_joint(
            b,
            f,
            JointSpec::new(JointKind::Revolute).with_state(&[0.1], &[0.0]),
            &format!("j{i}"),
        );
        let link = net.add_frame(&format!("link{i}"));
        net.add_rigid_transform(
            f,
            link,
            Isometry3::from_parts(Translation3::identity(), rot.inverse()),
        );
        net.add_solid(
            link,
            m,
            Vector3::new(0.0, 0.0, 0.5),
            inertia,
            &format!("link{i}"),
        );
        prev = link;
    }
    net.build(Vector3::new(0.0, 0.0, -9.81)).expect("chain")
}

fn cloud_model(points: usize, ground: bool) -> String {
    let side = (points as f64).sqrt().ceil() as usize;
    let pts: Vec<String> = (0..points)
        .map(|k| {
            format!(
                "[{}, {}, -0.1]",
                (k % side) as f64 * 0.001,
                (k / side) as f64 * 0.001
            )
        })
        .collect();
    let contact = if ground {
        "[blocks.contact]\ntype = \"GroundContact\"\nstiffness = 1e6\ndamping = 1e3\nfriction = 0.5\n".to_string()
    } else {
        "[blocks.floor]\ntype = \"InfinitePlane\"\n[blocks.contact]\ntype = \"SpatialContactForce\"\nnormal = { method = \"linear_spring_damper\", stiffness = 1e3, damping = 10.0 }\nfriction = { method = \"stribeck\", static = 0.5, dynamic = 0.3, stiction_velocity = 1e-3 }\n".to_string()
    };
    let connect = if ground {
        "\"cloud.G -- contact.F\""
    } else {
        "\"world.W -- floor.R\", \"floor.G -- contact.B\", \"cloud.G -- contact.F\""
    };
    format!(
        "connect = [\"world.W -- free.B\", \"free.F -- body.R\", \"free.F -- cloud.R\", {connect}]\n[model]\nstop_time = 1.0\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.body]\ntype = \"Solid\"\ngeometry = {{ shape = \"brick\", size = [0.1, 0.1, 0.1] }}\nmass = 1.0\n[blocks.free]\ntype = \"SixDofJoint\"\nposition = [0.0, 0.0, 0.0999]\nvelocity = [0.1, 0.05, -0.01]\nangular_velocity = [0.0, 0.0, 0.1]\n[blocks.cloud]\ntype = \"PointCloud\"\npoints = [{}]\n{contact}",
        pts.join(", ")
    )
}

fn minor_step(c: &mut Criterion, name: &str, text: &str, elements: u64) {
    let d = blockdyn::load_model_str(&format!("{name}.toml"), text, &[]).expect(name);
    let mut engine = Engine::new(&d, Recorder::new(&d));
    let x = engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    let mut g = c.benchmark_group("minor_step");
    g.throughput(Throughput::Elements(elements));
    let mut t = 0.0;
    g.bench_function(name, |b| {
        b.iter(|| {
            // A new time each call: the engine's output cache must not short-cut the evaluation.
            t += 1e-9;
            engine.derivatives(black_box(t), black_box(&x), &mut dx);
            black_box(dx[0])
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    // ISSUE 3: a 30-link chain, diagram minor step vs one bare ABA call on the same mechanism.
    let m = chain_mechanism(30);
    let mut ws = Workspace::new(&m);
    let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
    m.initial_state(&mut q, &mut v);
    let (tau, mut vdot) = (vec![0.0; m.nv()], vec![0.0; m.nv()]);
    c.bench_function("chain30/bare_aba", |b| {
        b.iter(|| {
            forward_dynamics(
                &m,
                black_box(&q),
                black_box(&v),
                &tau,
                &[],
                &mut ws,
                &mut vdot,
            );
            black_box(vdot[0])
        })
    });
    minor_step(c, "chain30_diagram", &chain_model(30), 1);
    // ISSUE 4 and 5: per-point contact costs.
    minor_step(c, "cloud4096_vs_plane", &cloud_model(4096, false), 4096);
    minor_step(c, "ground1000", &cloud_model(1000, true), 1000);
    // ISSUE 11: one evaluation of the peers' problems in contact (the cost per evaluation that
    // whole runs multiply): the sphere resting 0.1 mm deep on the plane, and the cube on its 8
    // corners sliding down the slope (models as written, apart from the sphere's height).
    let sphere = std::fs::read_to_string("models/ball_drop.toml")
        .expect("ball_drop")
        .replace(
            "position = [0.0, 0.0, 1.0]",
            "position = [0.0, 0.0, 0.0999]",
        );
    minor_step(c, "sphere_on_plane", &sphere, 1);
    let cube = std::fs::read_to_string("models/box_on_incline.toml").expect("box_on_incline");
    minor_step(c, "cube_8_corners_sliding", &cube, 1);
}

criterion_group!(benches, bench);
criterion_main!(benches);
