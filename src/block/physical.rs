//! How blocks take part in the physical network: frames, bodies, joints, geometries, and the
//! blocks that read kinematics and apply forces (contact, external force, sensors).
//!
//! The diagram builder compiles every block with a [`PhysicalRole`] into one mechanism block
//! (Featherstone's articulated-body algorithm over the kinematic tree), then *binds* the joint and
//! consumer blocks to it: each gets hidden signal ports wired to the mechanism, so that the
//! physics runs through the same dataflow, schedule and solver as every other block.
//!
//! Hidden signal conventions (all in the World frame, SI units):
//! - body kinematics, 18×1: rotation matrix R_WB column-major (9), position of the body origin
//!   p_W (3), angular velocity ω_W (3), linear velocity of the body origin v_W (3);
//! - wrench, 6×1: torque about the World origin n_W (3), then force f_W (3) — a Plücker force at
//!   the World origin, so forces at different points add by n += p × f;
//! - joint state, (nq + nv)×1: the joint's position coordinates then its velocity coordinates.

use super::BlockError;
use crate::geometry::Shape;
use crate::multibody::{JointSpec, SpatialInertia};
use nalgebra::{Isometry3, Matrix3, Vector3};

/// Length of the hidden body-kinematics signal.
pub const KINEMATICS_LEN: usize = 18;
/// Length of the hidden wrench signal.
pub const WRENCH_LEN: usize = 6;

/// Mass properties of a solid, resolved in its reference frame R.
#[derive(Clone, Debug, PartialEq)]
pub struct SolidInertia {
    /// kg.
    pub mass: f64,
    /// Centre of mass in R, m.
    pub com: Vector3<f64>,
    /// Rotational inertia about the centre of mass, resolved in R, kg·m².
    pub inertia_about_com: Matrix3<f64>,
}

/// A block's part in the physical network.
#[derive(Clone, Debug)]
pub enum PhysicalRole {
    /// The World frame (port `W`).
    World,
    /// Mechanism-wide settings.
    Configuration {
        /// m/s², world frame.
        gravity: Vector3<f64>,
    },
    /// Frame `F` fixed to frame `B` at `follower_in_base`.
    RigidTransform {
        /// The pose of `F` in `B`.
        follower_in_base: Isometry3<f64>,
    },
    /// A body's mass attached to frame `R`, and its geometry (exported at port `G`).
    Solid {
        /// Mass (kg), centre of mass and inertia about it, in the body frame. Boxed, as the
        /// joint's spec: a role is stored in every frame block, and a URDF chain's
        /// RigidTransforms (four a joint) need only an isometry.
        inertia: Box<SolidInertia>,
        /// Its geometry, in the body frame.
        shape: Shape,
    },
    /// A geometry without mass attached to frame `R`, exported at port `G`.
    Geometry {
        /// The geometry, in the frame it is attached to.
        shape: Shape,
    },
    /// A joint moving `F` relative to `B`.
    Joint {
        /// Its type, axis, initial values, limits and actuation. Boxed (about 150 bytes): the
        /// role is sized by its largest variant, and most blocks with a role are frames.
        spec: Box<JointSpec>,
    },
    /// Reads kinematics of its frame/geometry ports and may apply wrenches (bound by the builder).
    Consumer,
}

/// Where one physical port of a consumer or joint block ended up.
#[derive(Clone, Debug)]
pub struct PortBinding {
    /// The port's name on the block.
    pub port: String,
    /// The body the port's frame is fixed to (0 = World).
    pub body: usize,
    /// The port frame's pose in the body frame (for a geometry port: the geometry's frame R).
    pub placement: Isometry3<f64>,
    /// The frame network's handle of that frame (which part of a welded body it is on).
    pub frame: crate::multibody::FrameId,
    /// For a geometry port: the connected geometry and its label (`ball.G`). Boxed: most bound
    /// ports are frames (a joint's two), and inline it was ~100 of a binding's ~300 bytes (at
    /// 20,000 URDF joints, 3.8 MB of the diagram).
    pub geometry: Option<Box<(Shape, String)>>,
    /// The mass properties of `body` alone, in its frame (zero for World and massless bodies):
    /// for advice and messages, not for the dynamics.
    pub body_inertia: SpatialInertia,
}

/// What the builder tells a block when it binds it to the mechanism.
#[derive(Clone, Debug)]
pub struct Binding {
    /// One entry per physical port of the block, in `physical_ports()` order.
    pub ports: Vec<PortBinding>,
    /// For joint blocks: the joint's index in the mechanism and its nq, nv.
    pub joint: Option<(usize, usize, usize)>,
    /// Gravity of the mechanism in World, m/s².
    pub gravity: Vector3<f64>,
    /// The pairs of bodies (lower index first) that a joint other than a six-degree-of-freedom
    /// one joins directly (tree joints and loop closures): contact groups leave such pairs out.
    pub joined_bodies: Vec<(usize, usize)>,
    /// For a weld joint: whether it lies on a cycle of rigid connections, so that its reaction
    /// is statically indeterminate (see [`crate::multibody::Mechanism::weld_on_rigid_cycle`]).
    pub weld_on_rigid_cycle: bool,
}

impl Binding {
    /// Where physical port `port` ended up.
    pub fn port(&self, port: &str) -> Option<&PortBinding> {
        self.ports.iter().find(|p| p.port == port)
    }

    /// Where physical port `port` ended up, looked for first at position `k` (the port's place
    /// in `physical_ports()` order, when the caller knows it): a block binding its ports in
    /// order (a contact group's members) then finds each in O(1), not O(ports).
    pub fn port_at(&self, k: usize, port: &str) -> Option<&PortBinding> {
        (self.ports.get(k))
            .filter(|p| p.port == port)
            .or_else(|| self.port(port))
    }

    /// A geometry port's binding with its geometry and the geometry's label (`ball.G`), or the
    /// error for a port left unconnected.
    pub fn geometry(&self, port: &str) -> Result<(&PortBinding, Shape, String), BlockError> {
        self.geometry_at(usize::MAX, port)
    }

    /// [`Self::geometry`], with the port looked for first at position `k` ([`Self::port_at`]).
    pub fn geometry_at(
        &self,
        k: usize,
        port: &str,
    ) -> Result<(&PortBinding, Shape, String), BlockError> {
        let bound = self
            .port_at(k, port)
            .ok_or_else(|| BlockError::GeometryNotConnected { port: port.into() })?;
        let (shape, label) = bound
            .geometry
            .as_deref()
            .cloned()
            .ok_or_else(|| BlockError::NoGeometry { port: port.into() })?;
        Ok((bound, shape, label))
    }

    /// For a block between two frames B and F (a spring-damper, a transform sensor): each
    /// port's placement on its body (body ← port frame), B's first; the error for a port not
    /// bound. The block then declares the hidden inputs that carry the two bodies' kinematics.
    pub fn frame_pair(&self) -> Result<[nalgebra::Isometry3<f64>; 2], BlockError> {
        let placement = |port: &str| {
            self.port(port)
                .map(|bound| bound.placement)
                .ok_or_else(|| BlockError::PortNotBound { port: port.into() })
        };
        Ok([placement("B")?, placement("F")?])
    }
}
