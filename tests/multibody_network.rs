//! Frame network compilation: bodies, placements, folded welds, and every error class by message.

use blockdyn::multibody::*;
use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};

fn pose(x: f64, y: f64, z: f64, axis_angle: Vector3<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_scaled_axis(axis_angle),
    )
}

fn err_of(net: FrameNetworkBuilder) -> String {
    net.build(Vector3::new(0.0, 0.0, -9.81))
        .unwrap_err()
        .to_string()
}

/// world.W -- j.B ; j.F -- T.B ; T (rigid) -> T.F ; weld T.F -> s.R ; solid on s.R.
/// Placements compose; the welded solid's inertia lands in the joint's body frame.
#[test]
fn placements_compose_and_welds_fold() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let jb = net.add_frame("j.B");
    let jf = net.add_frame("j.F");
    let tb = net.add_frame("T.B");
    let tf = net.add_frame("T.F");
    let wb = net.add_frame("weld.B");
    let wf = net.add_frame("weld.F");
    let s = net.add_frame("s.R");
    let base_offset = pose(0.0, 0.0, 2.0, Vector3::new(0.3, 0.0, 0.0));
    let wt = net.add_frame("wt.F");
    net.set_world(w);
    net.add_rigid_transform(w, wt, base_offset);
    net.connect(wt, jb);
    let j = net.add_joint(jb, jf, JointSpec::new(JointKind::Revolute), "j");
    net.connect(jf, tb);
    let t_pose = pose(1.0, 0.5, 0.0, Vector3::new(0.0, 0.0, 0.7));
    net.add_rigid_transform(tb, tf, t_pose);
    net.connect(tf, wb);
    let weld = net.add_joint(wb, wf, JointSpec::new(JointKind::Weld), "weld");
    net.connect(wf, s);
    let ic = Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.3));
    net.add_solid(s, 2.0, Vector3::new(0.0, 0.1, 0.0), ic, "s");
    let m = net.build(Vector3::new(0.0, 0.0, -9.81)).unwrap();

    assert_eq!(m.num_bodies(), 2);
    assert_eq!((m.nq(), m.nv()), (1, 1));
    assert_eq!(m.joint_q_range(j), 0..1);
    assert_eq!(m.joint_v_range(weld), 0..0);
    assert_eq!(m.joint_body(weld), None);
    assert_eq!(m.joint_body(j), Some(1));
    // World body frames.
    let (b, p) = m.frame_placement(jb);
    assert_eq!(b, WORLD_BODY);
    assert!((p.translation.vector - base_offset.translation.vector).norm() < 1e-15);
    // Body 1's frame is j.F; s.R sits at t_pose in it.
    let (b, p) = m.frame_placement(s);
    assert_eq!(b, 1);
    assert!((p.translation.vector - t_pose.translation.vector).norm() < 1e-14);
    assert!(p.rotation.angle_to(&t_pose.rotation) < 1e-14);
    // Inertia: mass 2 kg, centre of mass t_pose * (0, 0.1, 0), rotated inertia about it.
    let inertia = m.body_inertia(1);
    assert!((inertia.mass - 2.0).abs() < 1e-15);
    let c = t_pose * nalgebra::Point3::new(0.0, 0.1, 0.0);
    assert!((inertia.com() - c.coords).norm() < 1e-14);
    let r = t_pose.rotation.to_rotation_matrix().into_inner();
    assert!((inertia.inertia_about_com() - r * ic * r.transpose()).norm() < 1e-14);

    // Kinematics: at q = π/2 the solid frame is at base_offset * Rz(π/2) * t_pose.
    let mut ws = Workspace::new(&m);
    forward_kinematics(&m, &[std::f64::consts::FRAC_PI_2], &[0.0], &mut ws);
    let expected =
        base_offset * pose(0.0, 0.0, 0.0, Vector3::z() * std::f64::consts::FRAC_PI_2) * t_pose;
    let got = frame_pose(&m, &ws, s);
    assert!((got.translation.vector - expected.translation.vector).norm() < 1e-14);
    assert!(got.rotation.angle_to(&expected.rotation) < 1e-7);
    // Frame velocity: ω about the joint axis (world-resolved) and v = ω × (p_s − p_pivot).
    forward_kinematics(&m, &[0.4], &[2.0], &mut ws);
    let (wv, vv) = frame_velocity(&m, &ws, s);
    let axis = base_offset.rotation * Vector3::z();
    let p_s = frame_pose(&m, &ws, s).translation.vector;
    assert!((wv - axis * 2.0).norm() < 1e-14);
    assert!((vv - (axis * 2.0).cross(&(p_s - base_offset.translation.vector))).norm() < 1e-14);
}

#[test]
fn initial_state_and_quaternion_normalization() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let f = net.add_frame("free.F");
    net.set_world(w);
    let spec = JointSpec::new(JointKind::SixDof).with_state(
        &[1.0, 2.0, 3.0, 2.0, 0.0, 0.0, 0.0],
        &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
    );
    net.add_joint(w, f, spec, "free");
    net.add_solid(f, 1.0, Vector3::zeros(), Matrix3::identity() * 0.1, "body");
    let m = net.build(Vector3::zeros()).unwrap();
    let (mut q, mut v) = (vec![0.0; 7], vec![0.0; 6]);
    m.initial_state(&mut q, &mut v);
    assert_eq!(q, vec![1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(v, vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    assert_eq!(m.quaternion_offsets(), &[3]);
    q[3..7].copy_from_slice(&[0.0, 3.0, 0.0, 4.0]);
    normalize_quaternions(&m, &mut q);
    assert_eq!(&q[3..7], &[0.0, 0.6, 0.0, 0.8]);
}

#[test]
fn a_closed_loop_is_cut_at_the_joint_that_closes_it() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let a = net.add_frame("a.F");
    let b = net.add_frame("b.F");
    net.add_joint(w, a, JointSpec::new(JointKind::Revolute), "a");
    net.add_solid(a, 1.0, Vector3::x(), Matrix3::identity(), "sa");
    net.add_joint(a, b, JointSpec::new(JointKind::Revolute), "b");
    net.add_solid(b, 1.0, Vector3::x(), Matrix3::identity(), "sb");
    let closing = net.add_joint(b, w, JointSpec::new(JointKind::Revolute), "closing");
    let m = net.build(Vector3::zeros()).unwrap();
    assert_eq!(m.cut_joints().len(), 1);
    assert_eq!(m.cut_of(closing), Some(0));
    assert_eq!(m.joint_q_range(closing), 0..0);
    assert_eq!(m.joint_state_sizes(closing), (1, 1));
    assert_eq!(m.nv(), 2);
}

#[test]
fn a_loop_of_prismatic_joints_cannot_be_closed() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let a = net.add_frame("a.F");
    net.add_joint(w, a, JointSpec::new(JointKind::Prismatic), "a");
    net.add_solid(a, 1.0, Vector3::x(), Matrix3::identity(), "sa");
    net.add_joint(a, w, JointSpec::new(JointKind::Prismatic), "closing");
    let msg = err_of(net);
    assert!(
        msg.contains("joint 'closing' closes a kinematic loop"),
        "{msg}"
    );
    assert!(
        msg.contains("only a RevoluteJoint or SphericalJoint"),
        "{msg}"
    );
}

#[test]
fn joint_within_one_rigid_body_is_a_closed_loop() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let x = net.add_frame("x.B");
    net.set_world(w);
    net.connect(w, x);
    net.add_joint(x, w, JointSpec::new(JointKind::Prismatic), "p");
    let msg = err_of(net);
    assert!(msg.contains("joint 'p' closes a kinematic loop"), "{msg}");
    assert!(msg.contains("on the same rigid body"), "{msg}");
}

#[test]
fn missing_and_duplicate_world_frames() {
    let mut net = FrameNetworkBuilder::new();
    let a = net.add_frame("a.F");
    let b = net.add_frame("b.F");
    net.add_joint(a, b, JointSpec::new(JointKind::Revolute), "j");
    assert!(err_of(net).contains("has no World frame"));

    let mut net = FrameNetworkBuilder::new();
    let w1 = net.add_frame("world1.W");
    let w2 = net.add_frame("world2.W");
    net.set_world(w1);
    net.set_world(w2);
    let msg = err_of(net);
    assert!(
        msg.contains("two World frames, 'world1.W' and 'world2.W'"),
        "{msg}"
    );
}

#[test]
fn unconnected_frames_are_listed() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let jb = net.add_frame("j.B");
    let jf = net.add_frame("j.F");
    net.add_joint(jb, jf, JointSpec::new(JointKind::Revolute), "j");
    net.add_solid(jf, 1.0, Vector3::x(), Matrix3::identity(), "s");
    let msg = err_of(net);
    assert!(
        msg.contains("frames 'j.B', 'j.F' are not connected to the World frame"),
        "{msg}"
    );
}

#[test]
fn massless_body_is_rejected() {
    // Nothing attached beyond the joint.
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let f = net.add_frame("j.F");
    net.add_joint(w, f, JointSpec::new(JointKind::Revolute), "j");
    let msg = err_of(net);
    assert!(msg.contains("joint 'j' moves a body with no mass"), "{msg}");
    assert!(msg.contains("'j.F'"), "{msg}");

    // A point mass on the rotation axis: no inertia about it.
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let f = net.add_frame("j.F");
    net.add_joint(w, f, JointSpec::new(JointKind::Revolute), "j");
    net.add_solid(
        f,
        1.0,
        Vector3::new(0.0, 0.0, 0.5),
        Matrix3::zeros(),
        "point",
    );
    assert!(err_of(net).contains("joint 'j' moves a body with no mass"));

    // A massless intermediate body carrying a mass is fine (two revolutes = a universal joint).
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let a = net.add_frame("a.F");
    let ab = net.add_frame("b.B");
    let b = net.add_frame("b.F");
    net.add_joint(w, a, JointSpec::new(JointKind::Revolute), "a");
    net.add_rigid_transform(
        a,
        ab,
        pose(0.0, 0.0, 0.0, Vector3::y() * std::f64::consts::FRAC_PI_2),
    );
    net.add_joint(ab, b, JointSpec::new(JointKind::Revolute), "b");
    net.add_solid(
        b,
        1.0,
        Vector3::new(1.0, 0.0, 0.0),
        Matrix3::identity() * 0.01,
        "bob",
    );
    assert!(net.build(Vector3::zeros()).is_ok());
}

#[test]
fn bad_parameters() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let f = net.add_frame("j.F");
    net.add_joint(
        w,
        f,
        JointSpec::new(JointKind::Spherical).with_state(&[0.0; 4], &[0.0; 3]),
        "j",
    );
    assert!(err_of(net).contains("joint 'j' (spherical): the orientation quaternion"));

    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let f = net.add_frame("j.F");
    net.add_joint(
        w,
        f,
        JointSpec::new(JointKind::Universal).with_state(&[0.0], &[0.0; 2]),
        "u",
    );
    let msg = err_of(net);
    assert!(
        msg.contains(
            "joint 'u' (universal): initial position has 1 values; a universal joint needs 2"
        ),
        "{msg}"
    );

    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    net.add_solid(w, -1.0, Vector3::zeros(), Matrix3::identity(), "neg");
    assert!(err_of(net).contains("solid 'neg': mass must be finite and non-negative"));
}

#[test]
fn inconsistent_rigid_loop_is_rejected() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let a = net.add_frame("a.F");
    net.set_world(w);
    net.add_rigid_transform(w, a, pose(1.0, 0.0, 0.0, Vector3::zeros()));
    net.connect(w, a);
    let msg = err_of(net);
    assert!(msg.contains("inconsistent rigid connections"), "{msg}");

    // A consistent duplicate is accepted.
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let a = net.add_frame("a.F");
    net.set_world(w);
    net.connect(w, a);
    net.connect(a, w);
    assert!(net.build(Vector3::zeros()).is_ok());
}

/// A revolute joint connected follower-toward-World: the bob (on the base frame B) turns by −q
/// about z relative to the World, so with θ = −q the closed form θ̈ = −(m g l / I_pivot) sin θ
/// holds. 1e-12 (a few flops).
#[test]
fn reversed_joint_pendulum() {
    let (mass, l, g, icz) = (1.5, 0.6, 9.81, 0.02);
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let jf = net.add_frame("j.F");
    let jb = net.add_frame("j.B");
    let bob = net.add_frame("bob.R");
    net.set_world(w);
    net.connect(w, jf);
    let j = net.add_joint(jb, jf, JointSpec::new(JointKind::Revolute), "j");
    net.connect(jb, bob);
    let ic = Matrix3::from_diagonal(&Vector3::new(0.01, 0.01, icz));
    net.add_solid(bob, mass, Vector3::new(0.0, -l, 0.0), ic, "bob");
    let m = net.build(Vector3::new(0.0, -g, 0.0)).unwrap();
    assert_eq!(m.frame_placement(bob).0, m.joint_body(j).unwrap());
    let mut ws = Workspace::new(&m);
    for &q in &[0.3, -1.2, 2.5] {
        let mut vdot = [0.0];
        forward_dynamics(&m, &[q], &[0.7], &[0.0], &[], &mut ws, &mut vdot);
        let theta = -q;
        let theta_ddot = -(mass * g * l / (icz + mass * l * l)) * theta.sin();
        assert!((-vdot[0] - theta_ddot).abs() < 1e-12);
        // The bob frame is at Rz(−q) in the World.
        let p = frame_pose(&m, &ws, bob);
        assert!(
            p.rotation
                .angle_to(&UnitQuaternion::from_scaled_axis(Vector3::z() * -q))
                < 1e-7
        );
    }
}

#[test]
fn bad_handle_and_gravity() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    net.connect(w, 7);
    let msg = err_of(net);
    assert!(msg.contains("frame handle 7 used in 'connect'"), "{msg}");

    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    net.set_world(w);
    let msg = net
        .build(Vector3::new(0.0, f64::NAN, 0.0))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("gravity must be finite"), "{msg}");
}
