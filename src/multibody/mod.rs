//! Rigid-body mechanisms: spatial algebra, the frame network → kinematic tree compilation, joints,
//! and Featherstone's dynamics algorithms. Knows nothing of TOML or blocks.
//!
//! Conventions (Simscape Multibody's for frames and joints, Featherstone's for the algorithms):
//! - Spatial vectors are [angular; linear] ([`spatial`]).
//! - Joints move their follower frame F relative to their base frame B along/about B's z axis
//!   ([`joint`] lists every kind's coordinates).
//! - Body 0 is the World body; other bodies are the rigid groups of frames, each with the follower
//!   frame of its inbound joint as reference frame ([`FrameNetworkBuilder`]).
//! - The state is `x = [q; v]` with `ẋ = [q̇; v̇]`: [`qdot_from_v`] and [`forward_dynamics`]; after
//!   each accepted step the engine applies [`project_quaternions`] (which normalizes the
//!   quaternions that are off unit length by more than round-off).
//! - External forces on bodies are World-resolved Plücker forces about the World origin.
//!
//! Typical use:
//! ```
//! use blockdyn::multibody::*;
//! use nalgebra::{Isometry3, Matrix3, Vector3};
//! let mut net = FrameNetworkBuilder::new();
//! let w = net.add_frame("world.W");
//! let b = net.add_frame("joint.B");
//! let f = net.add_frame("joint.F");
//! net.set_world(w);
//! net.connect(w, b);
//! let j = net.add_joint(b, f, JointSpec::new(JointKind::Revolute).with_state(&[0.3], &[0.0]), "joint");
//! net.add_solid(f, 1.0, Vector3::new(1.0, 0.0, 0.0), Matrix3::zeros(), "bob");
//! let m = net.build(Vector3::new(0.0, -9.81, 0.0)).unwrap();
//! let mut ws = Workspace::new(&m);
//! let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
//! m.initial_state(&mut q, &mut v);
//! let mut vdot = vec![0.0; m.nv()];
//! forward_dynamics(&m, &q, &v, &[0.0], &[], &mut ws, &mut vdot);
//! assert!((vdot[0] + 9.81 * 0.3f64.cos()).abs() < 1e-12);
//! # let _ = (j, Isometry3::<f64>::identity());
//! ```

/// Standard gravity, m/s² (World, z up), used when a model has no MechanismConfiguration block.
pub const STANDARD_GRAVITY: [f64; 3] = [0.0, 0.0, -9.80665];

pub(crate) mod aba;
pub mod analytic;
pub mod constraints;
pub(crate) mod crba;
pub(crate) mod energy;
pub(crate) mod errors;
pub(crate) mod gravity_reach;
pub(crate) mod ids;
pub mod joint;
pub mod joint_friction;
pub(crate) mod kinematics;
pub(crate) mod labels;
pub(crate) mod mechanism;
pub(crate) mod network;
pub(crate) mod prescribed;
pub mod reaction;
pub(crate) mod relations;
pub mod rigid;
pub(crate) mod rnea;
pub mod rotation_vector;
pub mod spatial;
pub(crate) mod weld;
pub(crate) mod weld_split;
pub(crate) mod workspace;

pub use aba::{
    forward_dynamics, forward_dynamics_after_kinematics, forward_dynamics_of_bodies, passive_forces,
};
pub use crba::mass_matrix;
pub use energy::{
    center_of_mass, kinetic_energy, potential_energy, spatial_momentum, spring_potential_energy,
    total_mass,
};
pub use errors::ErrorSubject;
pub use joint::{JointKind, JointSpec};
pub use kinematics::{
    body_pose, body_position, body_rotation, body_velocity, forward_kinematics,
    forward_kinematics_of_bodies, frame_pose, frame_velocity,
};
pub use mechanism::{
    normalize_quaternions, project_quaternions, qdot_from_v, qdot_from_v_of_bodies, BodyIndex,
    CutJoint, FrameId, JointId, Mechanism, QUATERNION_NORM_SLACK, WORLD_BODY,
};
pub use network::{FrameNetworkBuilder, MechanismError};
pub use reaction::{joint_reaction, ReactionFrame};
pub use rnea::{bias_forces, inverse_dynamics};
pub use spatial::{PluckerTransform, SpatialForce, SpatialInertia, SpatialMotion};
pub use workspace::Workspace;
