//! Tests of [`ConstraintRows`]: hand formulas for a free box and a pendulum, and random trees
//! against a dense `J M⁻¹ Jᵀ` and finite differences of the row velocities.

use super::*;
use crate::multibody::constraints::testutil::{XorShift, G};
use crate::multibody::constraints::{solve_lcp, LcpWorkspace, RowKind};
use crate::multibody::{
    body_pose, body_velocity, forward_dynamics, qdot_from_v, FrameNetworkBuilder, JointKind,
    JointSpec,
};
use nalgebra::{DVector, Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3 as V3};

/// `max |x − y| / max(1, max |y|)`.
fn rel_err(x: &[f64], y: &[f64]) -> f64 {
    let scale = y.iter().fold(1.0f64, |s, v| s.max(v.abs()));
    x.iter()
        .zip(y)
        .fold(0.0f64, |e, (a, b)| e.max((a - b).abs()))
        / scale
}

/// A free box (SixDof from the World) of mass `mass`, rotational inertia `inertia` about its
/// centre of mass (F axes), centre of mass at `com` in F.
fn free_body(mass: f64, com: V3<f64>, inertia: Matrix3<f64>, gravity: V3<f64>) -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let b = net.add_frame("free.B");
    let f = net.add_frame("free.F");
    net.set_world(w);
    net.connect(w, b);
    net.add_joint(b, f, JointSpec::new(JointKind::SixDof), "free");
    net.add_solid(f, mass, com, inertia, "box");
    net.build(gravity).unwrap()
}

/// The box of the resting tests: 2 kg, 0.6 × 0.4 × 0.2 m, its centre of mass offset from its
/// frame by `com` (F axes), turned 0.4 rad about the vertical, resting on z = 0 at (1, 2).
struct BoxCase {
    m: Mechanism,
    mass: f64,
    q: Vec<f64>,
    rot: Matrix3<f64>,
    centre: V3<f64>,
    inertia_world: Matrix3<f64>,
    corners: [V3<f64>; 4],
}

fn box_case() -> BoxCase {
    let (mass, h) = (2.0, V3::new(0.3, 0.2, 0.1));
    let inertia = Matrix3::from_diagonal(&V3::new(
        h.y * h.y + h.z * h.z,
        h.x * h.x + h.z * h.z,
        h.x * h.x + h.y * h.y,
    )) * (mass / 3.0);
    let com = V3::new(0.05, -0.02, 0.03);
    let m = free_body(mass, com, inertia, V3::new(0.0, 0.0, -G));
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), 0.4);
    let rot = turn.to_rotation_matrix().into_inner();
    let centre = V3::new(1.0, 2.0, h.z);
    let origin = centre - rot * com;
    let qv = turn.quaternion();
    let q = vec![origin.x, origin.y, origin.z, qv.w, qv.i, qv.j, qv.k];
    let corner = |sx: f64, sy: f64| centre + rot * V3::new(sx * h.x, sy * h.y, -h.z);
    BoxCase {
        m,
        mass,
        q,
        rot,
        centre,
        inertia_world: rot * inertia * rot.transpose(),
        corners: [
            corner(1.0, 1.0),
            corner(-1.0, 1.0),
            corner(-1.0, -1.0),
            corner(1.0, -1.0),
        ],
    }
}

fn ground_rows(corners: &[V3<f64>; 4]) -> Vec<ContactRow> {
    corners
        .iter()
        .map(|p| ContactRow::point(0, 1, *p, V3::z()))
        .collect()
}

#[test]
fn box_on_ground_matches_the_rigid_body_formula() {
    let c = box_case();
    let rows = ground_rows(&c.corners);
    let mut ws = Workspace::new(&c.m);
    let mut cr = ConstraintRows::new(&c.m, 8);
    let a = cr
        .rows_matrix(&c.m, &c.q, &rows, &mut ws)
        .unwrap()
        .clone_owned();
    let i_inv = c.inertia_world.try_inverse().unwrap();
    let n = V3::z();
    for (i, pi) in c.corners.iter().enumerate() {
        for (j, pj) in c.corners.iter().enumerate() {
            let (ri, rj) = (pi - c.centre, pj - c.centre);
            let expected = n.dot(&(n / c.mass + (i_inv * rj.cross(&n)).cross(&ri)));
            assert!((a[(i, j)] - expected).abs() < 1e-13, "A[{i},{j}]");
        }
    }
    let zeros = vec![0.0; 6];
    let b = cr
        .rows_acceleration_bias(&c.m, &c.q, &zeros, &zeros, &[], &rows, &mut ws)
        .unwrap();
    assert!(b.iter().all(|bi| (bi + G).abs() < 1e-13));
    // The LCP: the normal forces carry the weight, and with Jᵀ f the box stays at rest.
    let b = b.to_vec();
    let mut f = [0.0; 4];
    let mut lcp = LcpWorkspace::new(8);
    solve_lcp(a.as_view(), &b, &[RowKind::Unilateral; 4], &mut lcp, &mut f).unwrap();
    assert!((f.iter().sum::<f64>() - c.mass * G).abs() < 1e-9 * c.mass * G);
    let mut tau = vec![0.0; 6];
    cr.apply_row_forces(&f, &mut tau).unwrap();
    let mut vdot = vec![0.0; 6];
    forward_dynamics(&c.m, &c.q, &zeros, &tau, &[], &mut ws, &mut vdot);
    assert!(vdot.iter().all(|x| x.abs() < 1e-9 * G), "{vdot:?}");
}

#[test]
fn spinning_box_bias_has_the_centripetal_and_euler_terms() {
    let c = box_case();
    let rows = ground_rows(&c.corners);
    let omega = V3::new(0.7, -1.1, 2.3);
    let w_body = c.rot.transpose() * omega;
    let v = [0.4, -0.3, 0.2, w_body.x, w_body.y, w_body.z];
    let mut ws = Workspace::new(&c.m);
    let mut cr = ConstraintRows::new(&c.m, 4);
    let b = cr
        .rows_acceleration_bias(&c.m, &c.q, &v, &[0.0; 6], &[], &rows, &mut ws)
        .unwrap();
    // Euler: I α = −ω × I ω (World); the centre of mass falls at g.
    let i = c.inertia_world;
    let alpha = i.try_inverse().unwrap() * (-omega.cross(&(i * omega)));
    for (k, p) in c.corners.iter().enumerate() {
        let r = p - c.centre;
        let acc = V3::new(0.0, 0.0, -G) + alpha.cross(&r) + omega.cross(&omega.cross(&r));
        assert!(
            (b[k] - acc.z).abs() < 1e-12,
            "corner {k}: {} vs {}",
            b[k],
            acc.z
        );
    }
}

/// A uniform rod of mass `mass` and length `len` on a revolute joint about z at the World origin,
/// along its x axis, gravity −g along y.
fn pendulum(mass: f64, len: f64) -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let w = net.add_frame("world.W");
    let b = net.add_frame("pivot.B");
    let f = net.add_frame("pivot.F");
    net.set_world(w);
    net.connect(w, b);
    net.add_joint(b, f, JointSpec::new(JointKind::Revolute), "pivot");
    let i_c = mass * len * len / 12.0;
    let inertia = Matrix3::from_diagonal(&V3::new(0.0, i_c, i_c));
    net.add_solid(f, mass, V3::new(len / 2.0, 0.0, 0.0), inertia, "rod");
    net.build(V3::new(0.0, -G, 0.0)).unwrap()
}

#[test]
fn pendulum_tip_rows_match_the_closed_forms() {
    let (mass, len, theta, omega) = (1.5, 0.8, 0.3, 2.0);
    let m = pendulum(mass, len);
    let (s, c) = f64::sin_cos(theta);
    let tip = V3::new(c, s, 0.0) * len;
    let tangent = V3::new(-s, c, 0.0);
    let inward = V3::new(-c, -s, 0.0);
    let rows = [
        ContactRow::point(0, 1, tip, tangent),
        ContactRow::point(0, 1, tip, inward),
        ContactRow::coordinate(0, 1.0),
        ContactRow::coordinate(0, -1.0),
    ];
    let mut ws = Workspace::new(&m);
    let mut cr = ConstraintRows::new(&m, 4);
    let a = cr
        .rows_matrix(&m, &[theta], &rows, &mut ws)
        .unwrap()
        .clone_owned();
    let i_pivot = mass * len * len / 3.0;
    let m_eff = i_pivot / (len * len);
    // Row gains along the rotation: tangent L, radial 0, coordinates ±1.
    let gain = [len, 0.0, 1.0, -1.0];
    for i in 0..4 {
        for j in 0..4 {
            let expected = gain[i] * gain[j] / i_pivot;
            assert!((a[(i, j)] - expected).abs() < 1e-14, "A[{i},{j}]");
        }
    }
    assert!((a[(0, 0)] - 1.0 / m_eff).abs() < 1e-14);
    let b = cr
        .rows_acceleration_bias(&m, &[theta], &[omega], &[0.0], &[], &rows, &mut ws)
        .unwrap()
        .to_vec();
    let theta_ddot = -1.5 * G * c / len;
    assert!((b[0] - len * theta_ddot).abs() < 1e-13);
    assert!(
        (b[1] - omega * omega * len).abs() < 1e-13,
        "centripetal {}",
        b[1]
    );
    assert!((b[2] - theta_ddot).abs() < 1e-13 && (b[3] + theta_ddot).abs() < 1e-13);
    // A wall under the tip (the tangent row unilateral) holds the rod: θ̈ = 0.
    let mut f = [0.0];
    let mut lcp = LcpWorkspace::new(1);
    let a1 = a.view((0, 0), (1, 1));
    solve_lcp(a1, &b[..1], &[RowKind::Unilateral], &mut lcp, &mut f).unwrap();
    assert!((f[0] + b[0] * m_eff).abs() < 1e-12);
    let mut tau = [0.0];
    cr.rows_matrix(&m, &[theta], &rows[..1], &mut ws).unwrap();
    cr.apply_row_forces(&f, &mut tau).unwrap();
    let mut vdot = [0.0];
    forward_dynamics(&m, &[theta], &[omega], &tau, &[], &mut ws, &mut vdot);
    assert!(vdot[0].abs() < 1e-12);
}

const KINDS: [JointKind; 7] = [
    JointKind::Revolute,
    JointKind::Prismatic,
    JointKind::Cylindrical,
    JointKind::Universal,
    JointKind::Spherical,
    JointKind::Planar,
    JointKind::SixDof,
];

fn v3(rng: &mut XorShift, s: f64) -> V3<f64> {
    V3::new(rng.uniform(-s, s), rng.uniform(-s, s), rng.uniform(-s, s))
}

fn pose(rng: &mut XorShift) -> Isometry3<f64> {
    let t = Translation3::from(v3(rng, 0.5));
    Isometry3::from_parts(t, UnitQuaternion::from_scaled_axis(v3(rng, 2.0)))
}

/// A physically valid rotational inertia (a box's, randomly turned).
fn inertia(rng: &mut XorShift, mass: f64) -> Matrix3<f64> {
    let s = v3(rng, 0.3).map(|x| x.abs() + 0.2);
    let d = V3::new(
        s.y * s.y + s.z * s.z,
        s.x * s.x + s.z * s.z,
        s.x * s.x + s.y * s.y,
    );
    let r = UnitQuaternion::from_scaled_axis(v3(rng, 2.0))
        .to_rotation_matrix()
        .into_inner();
    r * Matrix3::from_diagonal(&d) * r.transpose() * (mass / 12.0)
}

/// A random branching tree of `n` joints of every kind, a third of them connected
/// follower-toward-World, with springs, dampers and welded second solids.
fn random_tree(rng: &mut XorShift, n: usize) -> Mechanism {
    let mut net = FrameNetworkBuilder::new();
    let world = net.add_frame("world.W");
    net.set_world(world);
    let mut frames = vec![world];
    for k in 1..=n {
        let parent = rng.below(k);
        let (b, f) = (
            net.add_frame(&format!("j{k}.B")),
            net.add_frame(&format!("j{k}.F")),
        );
        net.add_rigid_transform(frames[parent], b, pose(rng));
        let kind = KINDS[rng.below(KINDS.len())];
        let stiffness = vec![rng.uniform(0.5, 1.5); kind.nv()];
        let damping = vec![rng.uniform(0.1, 0.5); kind.nv()];
        let spec = JointSpec::new(kind).with_spring_damper(&stiffness, &damping);
        if rng.uniform(0.0, 1.0) > 0.33 {
            net.add_joint(b, f, spec, &format!("j{k}"));
        } else {
            net.add_joint(f, b, spec, &format!("j{k}"));
        }
        let mass = rng.uniform(0.5, 2.0);
        let i = inertia(rng, mass);
        net.add_solid(f, mass, v3(rng, 0.2), i, &format!("s{k}"));
        if rng.uniform(0.0, 1.0) > 0.5 {
            let (wb, wf) = (
                net.add_frame(&format!("w{k}.B")),
                net.add_frame(&format!("w{k}.F")),
            );
            net.add_rigid_transform(f, wb, pose(rng));
            net.add_joint(wb, wf, JointSpec::new(JointKind::Weld), &format!("w{k}"));
            let mass = rng.uniform(0.2, 1.0);
            let i = inertia(rng, mass);
            net.add_solid(wf, mass, v3(rng, 0.3), i, &format!("t{k}"));
        }
        frames.push(f);
    }
    net.build(V3::new(0.3, -9.81, 0.5)).unwrap()
}

/// A random state: unit quaternions, coordinates in [−3, 3), velocities in [−2, 2).
fn random_state(rng: &mut XorShift, m: &Mechanism) -> (Vec<f64>, Vec<f64>) {
    let mut q: Vec<f64> = (0..m.nq()).map(|_| rng.uniform(-3.0, 3.0)).collect();
    crate::multibody::normalize_quaternions(m, &mut q);
    (q, (0..m.nv()).map(|_| rng.uniform(-2.0, 2.0)).collect())
}

/// Random point rows between distinct bodies (the World included) near the bodies, and a
/// coordinate row.
fn random_rows(rng: &mut XorShift, m: &Mechanism, q: &[f64], count: usize) -> Vec<ContactRow> {
    let mut ws = Workspace::new(m);
    crate::multibody::forward_kinematics(m, q, &vec![0.0; m.nv()], &mut ws);
    let mut rows = Vec::new();
    for _ in 0..count - 1 {
        let body_b = 1 + rng.below(m.num_bodies() - 1);
        let mut body_a = rng.below(m.num_bodies());
        if body_a == body_b {
            body_a = 0;
        }
        let point = body_pose(&ws, body_b).translation.vector + v3(rng, 0.5);
        rows.push(ContactRow::point(
            body_a,
            body_b,
            point,
            v3(rng, 1.0).normalize(),
        ));
    }
    rows.push(ContactRow::coordinate(rng.below(m.nv()), -1.0));
    rows
}

/// The row velocities with each point row's two material points followed from `(q0, v0)`:
/// `locals` holds, per row, the points in body a's and body b's frames.
fn material_row_velocities(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    rows: &[ContactRow],
    locals: &[(V3<f64>, V3<f64>)],
) -> Vec<f64> {
    let mut ws = Workspace::new(m);
    crate::multibody::forward_kinematics(m, q, v, &mut ws);
    let velocity = |k: usize, local: &V3<f64>| {
        if k == 0 {
            return V3::zeros();
        }
        let pose = body_pose(&ws, k);
        let (w, v_o) = body_velocity(&ws, k);
        v_o + w.cross(&(pose.rotation * local))
    };
    let row = |(r, l): (&ContactRow, &(V3<f64>, V3<f64>))| match *r {
        ContactRow::Point {
            body_a,
            body_b,
            direction,
            ..
        } => direction.dot(&(velocity(body_b, &l.1) - velocity(body_a, &l.0))),
        ContactRow::Rotation {
            body_a,
            body_b,
            direction,
        } => {
            let omega = |k: usize| {
                if k == 0 {
                    V3::zeros()
                } else {
                    body_velocity(&ws, k).0
                }
            };
            direction.dot(&(omega(body_b) - omega(body_a)))
        }
        ContactRow::Coordinate { index, sign } => sign * v[index],
    };
    rows.iter().zip(locals).map(row).collect()
}

/// One RK4 step of length `h` of the free motion.
fn rk4(m: &Mechanism, x: &[f64], h: f64, tau: &[f64], f_ext: &[SpatialForce]) -> Vec<f64> {
    let (nq, nv) = (m.nq(), m.nv());
    let mut ws = Workspace::new(m);
    let mut deriv = |x: &[f64]| {
        let mut d = vec![0.0; nq + nv];
        qdot_from_v(m, &x[..nq], &x[nq..], &mut d[..nq]);
        forward_dynamics(m, &x[..nq], &x[nq..], tau, f_ext, &mut ws, &mut d[nq..]);
        d
    };
    let axpy =
        |s: f64, d: &[f64]| -> Vec<f64> { x.iter().zip(d).map(|(a, b)| a + s * b).collect() };
    let k1 = deriv(x);
    let k2 = deriv(&axpy(h / 2.0, &k1));
    let k3 = deriv(&axpy(h / 2.0, &k2));
    let k4 = deriv(&axpy(h, &k3));
    (0..x.len())
        .map(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
        .collect()
}

/// `d/dt (J v)` along the free motion by the fourth-order central difference. With h = 10⁻⁴ the
/// truncation error measured on these trees is below 5·10⁻¹⁰ relative (it falls as h⁴: 4·10⁻⁸ at
/// h = 3·10⁻⁴) and the rounding ~10⁻¹⁶·|v|/h ≈ 10⁻¹¹; the tests accept 10⁻⁷.
fn row_rates_by_differences(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    rows: &[ContactRow],
    tau: &[f64],
    f_ext: &[SpatialForce],
) -> Vec<f64> {
    let mut ws = Workspace::new(m);
    crate::multibody::forward_kinematics(m, q, v, &mut ws);
    let local = |k: usize, p: &V3<f64>| {
        if k == 0 {
            *p
        } else {
            body_pose(&ws, k)
                .inverse_transform_point(&(*p).into())
                .coords
        }
    };
    let locals: Vec<_> = rows
        .iter()
        .map(|r| match *r {
            ContactRow::Point {
                body_a,
                body_b,
                point,
                ..
            } => (local(body_a, &point), local(body_b, &point)),
            ContactRow::Rotation { .. } | ContactRow::Coordinate { .. } => {
                (V3::zeros(), V3::zeros())
            }
        })
        .collect();
    let x: Vec<f64> = q.iter().chain(v).copied().collect();
    let h = 1e-4;
    let at = |s: f64| {
        let xs = rk4(m, &x, s * h, tau, f_ext);
        material_row_velocities(m, &xs[..m.nq()], &xs[m.nq()..], rows, &locals)
    };
    let (p1, m1, p2, m2) = (at(1.0), at(-1.0), at(2.0), at(-2.0));
    (0..rows.len())
        .map(|i| (8.0 * (p1[i] - m1[i]) - (p2[i] - m2[i])) / (12.0 * h))
        .collect()
}

#[test]
fn random_trees_match_dense_matrices_and_finite_differences() {
    let mut rng = XorShift::new(0x5eed_0010);
    for case in 0..12 {
        let m = random_tree(&mut rng, 2 + case % 6);
        let (q, v) = random_state(&mut rng, &m);
        let rows = random_rows(&mut rng, &m, &q, 2 + case % 5);
        let n = rows.len();
        let tau: Vec<f64> = (0..m.nv()).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let f_ext: Vec<SpatialForce> = (0..m.num_bodies())
            .map(|_| SpatialForce::new(v3(&mut rng, 1.0), v3(&mut rng, 1.0)))
            .collect();
        let mut ws = Workspace::new(&m);
        let mut cr = ConstraintRows::new(&m, 8);
        let a = cr
            .rows_matrix(&m, &q, &rows, &mut ws)
            .unwrap()
            .clone_owned();
        // The explicit J, column k = the row velocities of v = e_k.
        let mut j_dense = DMatrix::zeros(n, m.nv());
        let mut e = vec![0.0; m.nv()];
        let mut col = vec![0.0; n];
        for k in 0..m.nv() {
            e.fill(0.0);
            e[k] = 1.0;
            cr.row_velocities(&m, &q, &e, &rows, &mut ws, &mut col)
                .unwrap();
            j_dense.column_mut(k).copy_from_slice(&col);
        }
        assert!((cr.jacobian() - &j_dense).amax() < 1e-12 * j_dense.amax().max(1.0));
        let mut mass = DMatrix::zeros(m.nv(), m.nv());
        mass_matrix(&m, &q, &mut ws, &mut mass);
        let dense = &j_dense * mass.clone().cholesky().unwrap().solve(&j_dense.transpose());
        let scale = dense.amax().max(1e-300);
        assert!(
            (&a - &dense).amax() < 1e-9 * scale,
            "case {case}: A vs dense"
        );
        assert_eq!(a, a.transpose(), "A is exactly symmetric");
        let eig = a.clone().symmetric_eigenvalues();
        assert!(
            eig.iter().all(|l| *l > -1e-12 * scale),
            "case {case}: {eig}"
        );
        // b against the differences of the row velocities along the free motion.
        let b = cr
            .rows_acceleration_bias(&m, &q, &v, &tau, &f_ext, &rows, &mut ws)
            .unwrap()
            .to_vec();
        let fd = row_rates_by_differences(&m, &q, &v, &rows, &tau, &f_ext);
        assert!(rel_err(&b, &fd) < 1e-7, "case {case}: b {b:?} vs {fd:?}");
        // With τ + Jᵀ f the row accelerations are A f + b.
        let f: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let mut tau_c = tau.clone();
        cr.apply_row_forces(&f, &mut tau_c).unwrap();
        let jt_f = j_dense.transpose() * DVector::from_column_slice(&f);
        let expected_tau: Vec<f64> = tau.iter().zip(jt_f.iter()).map(|(t, x)| t + x).collect();
        assert!(rel_err(&tau_c, &expected_tau) < 1e-12);
        // The impulse response M⁻¹ Jᵀ f against the dense Cholesky solve.
        let mut dv = vec![0.0; m.nv()];
        cr.velocity_change(&f, &mut dv).unwrap();
        let dense_dv = mass.clone().cholesky().unwrap().solve(&jt_f);
        assert!(
            rel_err(&dv, dense_dv.as_slice()) < 1e-9,
            "case {case}: M⁻¹ Jᵀ f"
        );
        let predicted = &a * DVector::from_column_slice(&f) + DVector::from_column_slice(&b);
        let after = cr
            .rows_acceleration_bias(&m, &q, &v, &tau_c, &f_ext, &rows, &mut ws)
            .unwrap();
        assert!(
            rel_err(after, predicted.as_slice()) < 1e-9,
            "case {case}: A f + b"
        );
    }
}

/// Data pointers and lengths of every buffer (to check that nothing is reallocated).
fn buffer_fingerprint(cr: &ConstraintRows) -> [usize; 14] {
    [
        cr.jac.as_ptr() as usize,
        cr.jac.len(),
        cr.factor.as_ptr() as usize,
        cr.factor.len(),
        cr.y.as_ptr() as usize,
        cr.y.len(),
        cr.a.as_ptr() as usize,
        cr.a.len(),
        cr.b.capacity(),
        cr.vdot.capacity(),
        cr.acc.capacity(),
        cr.dof_parent.capacity(),
        cr.b.as_ptr() as usize,
        cr.acc.as_ptr() as usize,
    ]
}

#[test]
fn no_allocation_after_construction() {
    let mut rng = XorShift::new(77);
    let m = random_tree(&mut rng, 6);
    let (q, v) = random_state(&mut rng, &m);
    let rows = random_rows(&mut rng, &m, &q, 6);
    let mut ws = Workspace::new(&m);
    let mut cr = ConstraintRows::new(&m, 6);
    let before = buffer_fingerprint(&cr);
    let (tau, mut out) = (vec![0.0; m.nv()], vec![0.0; 6]);
    for n in [1, 6, 3] {
        cr.rows_matrix(&m, &q, &rows[..n], &mut ws).unwrap();
        cr.rows_acceleration_bias(&m, &q, &v, &tau, &[], &rows[..n], &mut ws)
            .unwrap();
        let mut t = tau.clone();
        cr.apply_row_forces(&out[..n], &mut t).unwrap();
        cr.row_velocities(&m, &q, &v, &rows[..n], &mut ws, &mut out[..n])
            .unwrap();
        assert_eq!(buffer_fingerprint(&cr), before);
    }
}

#[test]
fn bad_rows_are_typed_errors() {
    let c = box_case();
    let mut ws = Workspace::new(&c.m);
    let mut cr = ConstraintRows::new(&c.m, 2);
    let p = V3::zeros();
    let mut check = |rows: &[ContactRow], expected: ConstraintError| {
        let got = cr
            .rows_matrix(&c.m, &c.q, rows, &mut ws)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(got, expected);
    };
    let ok = ContactRow::point(0, 1, p, V3::z());
    check(
        &[ok; 3],
        ConstraintError::CapacityExceeded {
            rows: 3,
            capacity: 2,
        },
    );
    let far = ContactRow::point(0, 5, p, V3::z());
    check(
        &[ok, far],
        ConstraintError::BodyOutOfRange {
            row: 1,
            body: 5,
            bodies: 2,
        },
    );
    let long = ContactRow::point(0, 1, p, V3::z() * 2.0);
    assert!(matches!(
        cr.rows_matrix(&c.m, &c.q, &[long], &mut ws),
        Err(ConstraintError::BadRow { row: 0, .. })
    ));
    let nan = ContactRow::point(0, 1, V3::new(f64::NAN, 0.0, 0.0), V3::z());
    assert!(matches!(
        cr.rows_matrix(&c.m, &c.q, &[nan], &mut ws),
        Err(ConstraintError::NonFinite { row: 0 })
    ));
    // The builder refuses massless bodies: zero a built pendulum's inertia (M = 0).
    let mut point_mass = pendulum(1.0, 1.0);
    point_mass.bodies[1].inertia = crate::multibody::SpatialInertia::ZERO;
    let mut ws0 = Workspace::new(&point_mass);
    let mut cr0 = ConstraintRows::new(&point_mass, 1);
    let row = ContactRow::coordinate(0, 1.0);
    assert!(matches!(
        cr0.rows_matrix(&point_mass, &[0.0], &[row], &mut ws0),
        Err(ConstraintError::SingularMassMatrix { coordinate: 0 })
    ));
}
