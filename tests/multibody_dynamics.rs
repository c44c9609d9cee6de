//! Dynamics checks: ABA against CRBA + RNEA on random trees, closed-form pendulum, torque-free and
//! free-falling bodies, energy and momentum conservation.

mod multibody_common;

use blockdyn::multibody::*;
use multibody_common::*;
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

const G: Vector3<f64> = Vector3::new(0.0, 0.0, -9.81);

fn random_f_ext(rng: &mut Rng, m: &Mechanism) -> Vec<SpatialForce> {
    (0..m.num_bodies())
        .map(|_| SpatialForce::new(rng.v3() * 3.0, rng.v3() * 3.0))
        .collect()
}

/// ABA solves M v̇ + C = τ + τ_passive, and RNEA inverts ABA, on random chains and branching trees
/// with every joint kind, springs, dampers, actuation and external forces. All quantities are O(1)
/// to O(100) and the algorithms are backward stable, so 1e-10 relative leaves a wide margin over the
/// ~1e-14 round-off.
#[test]
fn aba_agrees_with_crba_and_rnea_on_random_trees() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for &shape in &[Shape::Chain, Shape::Branching] {
        for &kinds in &[
            &ALL_KINDS[..],
            &[JointKind::Revolute][..],
            &[JointKind::Spherical, JointKind::SixDof][..],
        ] {
            for trial in 0..6 {
                let n = 1 + trial * 2;
                let m =
                    random_mechanism(&mut rng, n, shape, kinds, G, trial % 2 == 0, trial % 3 == 0);
                let mut ws = Workspace::new(&m);
                let nv = m.nv();
                for _ in 0..3 {
                    let (q, v) = random_state(&mut rng, &m);
                    let tau: Vec<f64> = (0..nv).map(|_| rng.next() * 5.0).collect();
                    let f_ext = random_f_ext(&mut rng, &m);
                    let mut vdot = vec![0.0; nv];
                    forward_dynamics(&m, &q, &v, &tau, &f_ext, &mut ws, &mut vdot);

                    let mut mm = DMatrix::zeros(nv, nv);
                    mass_matrix(&m, &q, &mut ws, &mut mm);
                    let mut c = vec![0.0; nv];
                    bias_forces(&m, &q, &v, &f_ext, &mut ws, &mut c);
                    let mut passive = vec![0.0; nv];
                    passive_forces(&m, &q, &v, &mut passive);
                    let lhs =
                        &mm * DVector::from_column_slice(&vdot) + DVector::from_column_slice(&c);
                    let rhs: Vec<f64> = (0..nv).map(|k| tau[k] + passive[k]).collect();
                    // Round-off scale: |M| |v̇| + |C| + |τ| (entrywise absolute values).
                    let scale = mm.abs() * DVector::from_iterator(nv, vdot.iter().map(|x| x.abs()));
                    let scale =
                        (0..nv).fold(1.0f64, |s, k| s.max(scale[k] + c[k].abs() + rhs[k].abs()));
                    let err = (0..nv).fold(0.0f64, |e, k| e.max((lhs[k] - rhs[k]).abs())) / scale;
                    assert!(err < 1e-10, "{shape:?} n={n}: M vdot + C vs tau: {err}");

                    // M symmetric positive definite.
                    assert!((&mm - mm.transpose()).abs().max() < 1e-12 * (1.0 + mm.abs().max()));
                    assert!(mm.clone().cholesky().is_some());

                    // RNEA(v̇) − τ_passive fed to ABA returns v̇.
                    let mut tau_id = vec![0.0; nv];
                    inverse_dynamics(&m, &q, &v, &vdot, &f_ext, &mut ws, &mut tau_id);
                    let tau_act: Vec<f64> = (0..nv).map(|k| tau_id[k] - passive[k]).collect();
                    // Same round-off scale as above: the residual of a backward-stable solve.
                    let err =
                        (0..nv).fold(0.0f64, |e, k| e.max((tau_act[k] - tau[k]).abs())) / scale;
                    assert!(err < 1e-10, "{shape:?} n={n}: RNEA(ABA(tau)) vs tau: {err}");
                    let target: Vec<f64> = (0..nv).map(|_| rng.next() * 3.0).collect();
                    inverse_dynamics(&m, &q, &v, &target, &f_ext, &mut ws, &mut tau_id);
                    let tau_act: Vec<f64> = (0..nv).map(|k| tau_id[k] - passive[k]).collect();
                    forward_dynamics(&m, &q, &v, &tau_act, &f_ext, &mut ws, &mut vdot);
                    // Random trees reach cond(M) ~ 1e6, so the forward error may reach
                    // cond(M)·ε ~ 1e-10; the backward error (residual M (v̇_ABA − v̇) relative to
                    // |M||v̇| + |C| + |τ|) is what a stable algorithm bounds by ~ε. Check both:
                    // the residual to 1e-10, the forward error to 1e-10·max(1, cond estimate).
                    let diff = DVector::from_iterator(nv, (0..nv).map(|k| vdot[k] - target[k]));
                    let residual = &mm * diff;
                    let abs_t = DVector::from_iterator(nv, target.iter().map(|x| x.abs()));
                    let scale_t = mm.abs() * abs_t;
                    let scale_t = (0..nv).fold(1.0f64, |s, k| {
                        s.max(scale_t[k] + c[k].abs() + tau_id[k].abs())
                    });
                    let err = residual.amax() / scale_t;
                    assert!(
                        err < 1e-10,
                        "{shape:?} n={n}: ABA(RNEA(vdot)) residual: {err}"
                    );
                    let eig = mm.clone().symmetric_eigenvalues();
                    let cond = eig.max() / eig.min();
                    let forward = rel_err(&vdot, &target);
                    assert!(
                        forward < 1e-10 * cond.max(1.0),
                        "forward error {forward}, cond {cond}"
                    );
                }
            }
        }
    }
}

/// Pendulum: revolute about z, gravity −y, bob of mass m with its centre of mass at l below the
/// pivot at θ = 0 and rotational inertia I_c about it: θ̈ = −(m g l / I_pivot) sin θ with
/// I_pivot = I_c,zz + m l². A handful of flops: 1e-12.
#[test]
fn single_pendulum_matches_closed_form() {
    let (mass, l, g, icz) = (2.5, 0.8, 9.81, 0.07);
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let b = net.add_frame("pivot.B");
    let f = net.add_frame("pivot.F");
    net.set_world(w);
    net.connect(w, b);
    net.add_joint(b, f, JointSpec::new(JointKind::Revolute), "pivot");
    let inertia = Matrix3::from_diagonal(&Vector3::new(0.03, 0.05, icz));
    net.add_solid(f, mass, Vector3::new(0.0, -l, 0.0), inertia, "bob");
    let m = net.build(Vector3::new(0.0, -g, 0.0)).unwrap();
    let mut ws = Workspace::new(&m);
    let i_pivot = icz + mass * l * l;
    for &theta in &[0.0, 0.1, 1.0, 2.0, -2.9, 3.0] {
        for &omega in &[0.0, 1.7, -4.0] {
            let mut vdot = [0.0];
            forward_dynamics(&m, &[theta], &[omega], &[0.0], &[], &mut ws, &mut vdot);
            let expected = -(mass * g * l / i_pivot) * f64::sin(theta);
            assert!(
                (vdot[0] - expected).abs() < 1e-12,
                "θ={theta}: {} vs {expected}",
                vdot[0]
            );
        }
    }
}

/// A SixDof body with its centre of mass off the joint frame, no gravity, no forces: angular
/// momentum about the centre of mass and the centre-of-mass velocity are constant, so are the
/// kinetic energy. Derivatives computed from ABA's v̇ in closed form; 1e-10 absolute on O(1) values.
#[test]
fn torque_free_body_conserves_momentum_and_energy() {
    let mut rng = Rng(31337);
    for _ in 0..20 {
        let mut net = FrameNetworkBuilder::new();
        let w = net.add_frame("world.W");
        let f = net.add_frame("body.F");
        net.set_world(w);
        net.add_joint(w, f, JointSpec::new(JointKind::SixDof), "free");
        let mass = 1.0 + rng.next().abs();
        let ic = rng.inertia(mass);
        let c = rng.v3() * 0.3;
        net.add_solid(f, mass, c, ic, "body");
        let m = net.build(Vector3::zeros()).unwrap();
        let mut ws = Workspace::new(&m);
        let (q, v) = random_state(&mut rng, &m);
        let mut vdot = [0.0; 6];
        forward_dynamics(&m, &q, &v, &[0.0; 6], &[], &mut ws, &mut vdot);
        let r = body_rotation(&ws, 1);
        let omega = Vector3::new(v[3], v[4], v[5]); // in F
        let omega_dot = Vector3::new(vdot[3], vdot[4], vdot[5]);
        // d/dt (R I_c ω) = R (ω × I_c ω + I_c ω̇) = 0.
        let dl = omega.cross(&(ic * omega)) + ic * omega_dot;
        assert!(dl.norm() < 1e-10, "dL/dt = {dl}");
        // Centre of mass: p_c = p + R c; p̈_c = p̈ + R (ω̇ × c + ω × (ω × c)) = 0.
        let p_ddot = Vector3::new(vdot[0], vdot[1], vdot[2]);
        let a_com = p_ddot + r * (omega_dot.cross(&c) + omega.cross(&omega.cross(&c)));
        assert!(a_com.norm() < 1e-10, "a_com = {a_com}");
        // dT/dt = m ṗ_c · p̈_c + ω · I_c ω̇ (with ṗ_c = ṗ + R (ω × c)).
        let p_dot = Vector3::new(v[0], v[1], v[2]);
        let v_com = p_dot + r * omega.cross(&c);
        let dt = mass * v_com.dot(&a_com) + omega.dot(&(ic * omega_dot));
        assert!(dt.abs() < 1e-10, "dT/dt = {dt}");
    }
}

/// Free body under gravity with its centre of mass at the joint frame: the linear acceleration is
/// exactly g (to round-off, 1e-12) whatever the rotation, and the angular acceleration follows Euler's
/// equations I ω̇ = −ω × I ω.
#[test]
fn free_body_falls_with_g() {
    let mut rng = Rng(2718);
    let g = Vector3::new(0.3, -1.2, -9.81);
    for _ in 0..10 {
        let mut net = FrameNetworkBuilder::new();
        let w = net.add_frame("world.W");
        let f = net.add_frame("body.F");
        net.set_world(w);
        net.add_joint(w, f, JointSpec::new(JointKind::SixDof), "free");
        let ic = rng.inertia(2.0);
        net.add_solid(f, 2.0, Vector3::zeros(), ic, "body");
        let m = net.build(g).unwrap();
        let mut ws = Workspace::new(&m);
        let (q, v) = random_state(&mut rng, &m);
        let mut vdot = [0.0; 6];
        forward_dynamics(&m, &q, &v, &[0.0; 6], &[], &mut ws, &mut vdot);
        let a = Vector3::new(vdot[0], vdot[1], vdot[2]);
        assert!((a - g).norm() < 1e-12, "{a} vs {g}");
        let omega = Vector3::new(v[3], v[4], v[5]);
        let euler = ic * Vector3::new(vdot[3], vdot[4], vdot[5]) + omega.cross(&(ic * omega));
        assert!(euler.norm() < 1e-12);
        // At rest: exactly g and no rotation.
        let zero_v = [0.0; 6];
        forward_dynamics(&m, &q, &zero_v, &[0.0; 6], &[], &mut ws, &mut vdot);
        assert_eq!(&vdot[3..6], &[0.0; 3]);
        assert!((Vector3::new(vdot[0], vdot[1], vdot[2]) - g).norm() < 1e-14);
    }
}

/// External force convention: a world-resolved force f at world point p on a free body at rest
/// (centre of mass at its frame origin, no gravity) gives p̈ = f/m and I_c ω̇ = Rᵀ((p − p_c) × f).
#[test]
fn external_force_at_point_on_free_body() {
    let mut rng = Rng(11);
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let f = net.add_frame("body.F");
    net.set_world(w);
    net.add_joint(w, f, JointSpec::new(JointKind::SixDof), "free");
    let ic = rng.inertia(3.0);
    net.add_solid(f, 3.0, Vector3::zeros(), ic, "body");
    let m = net.build(Vector3::zeros()).unwrap();
    let mut ws = Workspace::new(&m);
    let (q, _) = random_state(&mut rng, &m);
    let force = Vector3::new(1.0, -2.0, 0.5);
    let p_com = Vector3::new(q[0], q[1], q[2]);
    let point = p_com + Vector3::new(0.2, 0.1, -0.3);
    let f_ext = [
        SpatialForce::ZERO,
        SpatialForce::from_force_at_point(force, point),
    ];
    let mut vdot = [0.0; 6];
    forward_dynamics(&m, &q, &[0.0; 6], &[0.0; 6], &f_ext, &mut ws, &mut vdot);
    assert!((Vector3::new(vdot[0], vdot[1], vdot[2]) - force / 3.0).norm() < 1e-12);
    let r = body_rotation(&ws, 1);
    let torque_body = r.transpose() * (point - p_com).cross(&force);
    let lhs = ic * Vector3::new(vdot[3], vdot[4], vdot[5]);
    assert!((lhs - torque_body).norm() < 1e-12);
}

/// Total energy T + V_gravity + V_springs is conserved along ABA's vector field (no damping, no
/// actuation, isotropic springs on scalar and quaternion joints): its time derivative, by a central
/// difference of step 1e-6 along (q̇, v̇), vanishes to the difference's O(h²) ≈ 1e-10 error; 1e-6
/// relative to the energy scale. Exercises gravity, springs and the quaternion kinematics together.
#[test]
fn energy_is_conserved_along_aba() {
    let mut rng = Rng(777);
    for &shape in &[Shape::Chain, Shape::Branching] {
        for n in [1, 4, 8] {
            let m = random_mechanism(&mut rng, n, shape, &ALL_KINDS, G, true, false);
            let mut ws = Workspace::new(&m);
            let (q, v) = random_state(&mut rng, &m);
            let (nq, nv) = (m.nq(), m.nv());
            let mut vdot = vec![0.0; nv];
            let zeros = vec![0.0; nv];
            forward_dynamics(&m, &q, &v, &zeros, &[], &mut ws, &mut vdot);
            let mut qdot = vec![0.0; nq];
            qdot_from_v(&m, &q, &v, &mut qdot);
            let energy = |q: &[f64], v: &[f64], ws: &mut Workspace| {
                forward_kinematics(&m, q, v, ws);
                kinetic_energy(&m, ws) + potential_energy(&m, ws) + spring_potential_energy(&m, q)
            };
            let h = 1e-6;
            let qp: Vec<f64> = (0..nq).map(|k| q[k] + h * qdot[k]).collect();
            let qm: Vec<f64> = (0..nq).map(|k| q[k] - h * qdot[k]).collect();
            let vp: Vec<f64> = (0..nv).map(|k| v[k] + h * vdot[k]).collect();
            let vm: Vec<f64> = (0..nv).map(|k| v[k] - h * vdot[k]).collect();
            let de = (energy(&qp, &vp, &mut ws) - energy(&qm, &vm, &mut ws)) / (2.0 * h);
            let scale = 1.0 + kinetic_energy(&m, &ws).abs();
            assert!(de.abs() < 1e-6 * scale, "{shape:?} n={n}: dE/dt = {de}");
        }
    }
}

/// With no gravity and a free-floating base, the spatial momentum about the World origin is
/// constant along ABA's vector field (central difference, h = 1e-6; 1e-6 relative).
#[test]
fn momentum_is_conserved_for_free_floating_tree() {
    let mut rng = Rng(4040);
    for n in [2, 5] {
        let mut net = FrameNetworkBuilder::new();
        let w = net.add_frame("world.W");
        net.set_world(w);
        let root = net.add_frame("root.F");
        net.add_joint(w, root, JointSpec::new(JointKind::SixDof), "root");
        net.add_solid(root, 2.0, Vector3::zeros(), rng.inertia(2.0), "torso");
        let mut frames = vec![root];
        for k in 0..n {
            let parent = frames[rng.index(frames.len())];
            let b = net.add_frame(&format!("j{k}.B"));
            let f = net.add_frame(&format!("j{k}.F"));
            net.add_rigid_transform(parent, b, rng.pose());
            let kind = ALL_KINDS[rng.index(6)];
            net.add_joint(b, f, JointSpec::new(kind), &format!("j{k}"));
            net.add_solid(f, 1.0, rng.v3() * 0.2, rng.inertia(1.0), &format!("s{k}"));
            frames.push(f);
        }
        let m = net.build(Vector3::zeros()).unwrap();
        let mut ws = Workspace::new(&m);
        let (q, v) = random_state(&mut rng, &m);
        let (nq, nv) = (m.nq(), m.nv());
        let mut vdot = vec![0.0; nv];
        forward_dynamics(&m, &q, &v, &vec![0.0; nv], &[], &mut ws, &mut vdot);
        let mut qdot = vec![0.0; nq];
        qdot_from_v(&m, &q, &v, &mut qdot);
        let h = 1e-6;
        let mut momentum = |s: f64| {
            let qs: Vec<f64> = (0..nq).map(|k| q[k] + s * h * qdot[k]).collect();
            let vs: Vec<f64> = (0..nv).map(|k| v[k] + s * h * vdot[k]).collect();
            forward_kinematics(&m, &qs, &vs, &mut ws);
            let p = spatial_momentum(&m, &ws);
            (p.n, p.f)
        };
        let (np, fp) = momentum(1.0);
        let (nm, fm) = momentum(-1.0);
        let (n0, f0) = momentum(0.0);
        let scale = 1.0 + n0.norm() + f0.norm();
        assert!(((np - nm) / (2.0 * h)).norm() < 1e-6 * scale);
        assert!(((fp - fm) / (2.0 * h)).norm() < 1e-6 * scale);
    }
}

/// The projection after each accepted step normalizes a quaternion state only when it is off unit
/// length by more than round-off (`QUATERNION_NORM_SLACK` on |q|²): a state within it is left bit
/// for bit (so the outputs evaluated at it stay valid), one further off is normalized, and a zero
/// or non-finite one becomes the identity.
#[test]
fn quaternions_are_projected_only_when_off_unit_length() {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let f = net.add_frame("body.F");
    net.set_world(w);
    net.add_joint(w, f, JointSpec::new(JointKind::SixDof), "free");
    net.add_solid(f, 1.0, Vector3::zeros(), Matrix3::identity(), "body");
    let m = net.build(Vector3::zeros()).unwrap();
    let k = m.quaternion_offsets()[0];
    let unit = [0.5f64.sqrt(), 0.0, 0.5f64.sqrt(), 0.0];
    let mut q = vec![0.0; m.nq()];
    // A few round-offs off: kept as it is.
    q[k..k + 4].copy_from_slice(&unit.map(|c| c * (1.0 + 2.0 * f64::EPSILON)));
    let before = q.clone();
    assert!(!project_quaternions(&m, &mut q));
    assert_eq!(q, before);
    // 1e-12 off: normalized, as the full normalization does.
    q[k..k + 4].copy_from_slice(&unit.map(|c| c * (1.0 + 1e-12)));
    let mut full = q.clone();
    normalize_quaternions(&m, &mut full);
    assert!(project_quaternions(&m, &mut q));
    assert_eq!(q, full);
    let n2: f64 = q[k..k + 4].iter().map(|c| c * c).sum();
    assert!((n2 - 1.0).abs() <= QUATERNION_NORM_SLACK);
    // Zero and NaN: the identity.
    for bad in [0.0, f64::NAN] {
        q[k..k + 4].fill(bad);
        assert!(project_quaternions(&m, &mut q));
        assert_eq!(&q[k..k + 4], &[1.0, 0.0, 0.0, 0.0]);
    }
}
