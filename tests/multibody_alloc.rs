//! The per-step multibody calls do not allocate: a counting global allocator wraps the system one.

mod multibody_common;

use blockdyn::multibody::*;
use multibody_common::*;
use nalgebra::{DMatrix, Vector3};

mod alloc_counter;
use alloc_counter::count;

#[global_allocator]
static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;

#[test]
fn dynamics_calls_do_not_allocate() {
    let mut rng = Rng(5);
    let m = random_mechanism(
        &mut rng,
        8,
        Shape::Branching,
        &ALL_KINDS,
        Vector3::new(0.0, 0.0, -9.81),
        true,
        true,
    );
    let mut ws = Workspace::new(&m);
    let (mut q, v) = random_state(&mut rng, &m);
    let (nq, nv) = (m.nq(), m.nv());
    let tau = vec![0.5; nv];
    let f_ext = vec![SpatialForce::new(Vector3::x(), Vector3::y()); m.num_bodies()];
    let mut vdot = vec![0.0; nv];
    let mut qdot = vec![0.0; nq];
    let mut out = vec![0.0; nv];
    let mut mm = DMatrix::zeros(nv, nv);

    let ((), allocations) = count(|| {
        for _ in 0..3 {
            forward_dynamics(&m, &q, &v, &tau, &f_ext, &mut ws, &mut vdot);
            forward_dynamics(&m, &q, &v, &tau, &[], &mut ws, &mut vdot);
            qdot_from_v(&m, &q, &v, &mut qdot);
            normalize_quaternions(&m, &mut q);
            forward_kinematics(&m, &q, &v, &mut ws);
            let _ = body_velocity(&ws, 1);
            let _ = body_pose(&ws, 1);
            let _ = kinetic_energy(&m, &ws)
                + potential_energy(&m, &ws)
                + spring_potential_energy(&m, &q);
            let _ = spatial_momentum(&m, &ws);
            inverse_dynamics(&m, &q, &v, &vdot, &f_ext, &mut ws, &mut out);
            bias_forces(&m, &q, &v, &f_ext, &mut ws, &mut out);
            passive_forces(&m, &q, &v, &mut out);
            mass_matrix(&m, &q, &mut ws, &mut mm);
        }
    });
    assert_eq!(allocations, 0, "allocations during the dynamics calls");
}
