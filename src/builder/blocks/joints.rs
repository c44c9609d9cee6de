//! Joints between two frames, and their limits.

use super::MethodTable;
use crate::blocks::multibody::joint_friction::JointFrictionMethod;
use crate::blocks::multibody::kinds::LimitKind;
use crate::builder::BlockSpec;

/// A joint's position limits, for [`Joint::limits`]: [`JointLimits::rigid`] (impacts) or
/// [`JointLimits::spring_damper`], each a type of its own that converts into this.
#[derive(Clone, Debug, PartialEq)]
pub struct JointLimits(MethodTable);

impl JointLimits {
    /// Rigid bounds: the joint stops at them with an impact law. Set the bounds with
    /// [`RigidLimits::lower`] and [`RigidLimits::upper`] (one of them may be left out).
    pub fn rigid() -> RigidLimits {
        RigidLimits(MethodTable::new(LimitKind::Rigid.name()))
    }
    /// Spring-damper bounds of `stiffness` (N/m or N·m/rad) past the bound.
    pub fn spring_damper(stiffness: f64) -> SpringDamperLimits {
        SpringDamperLimits(
            MethodTable::new(LimitKind::SpringDamper.name()).with("stiffness", stiffness),
        )
    }
}

method_type! {
    /// Rigid bounds, from [`JointLimits::rigid`].
    RigidLimits => JointLimits {
        /// The lower bound (m or rad).
        lower => "lower";
        /// The upper bound (m or rad).
        upper => "upper";
        /// Newton's coefficient of restitution of an impact, 0 to 1.
        restitution => "restitution";
        /// The speed (m/s or rad/s) under which an impact leaves the joint at rest.
        rest_velocity => "rest_velocity";
    }
}

method_type! {
    /// Spring-damper bounds, from [`JointLimits::spring_damper`].
    SpringDamperLimits => JointLimits {
        /// The lower bound (m or rad).
        lower => "lower";
        /// The upper bound (m or rad).
        upper => "upper";
        /// The damping (N·s/m or N·m·s/rad) past the bound.
        damping => "damping";
    }
}

/// A joint of one degree of freedom between frames B and F: [`Joint::revolute`] (about their z
/// axis; q in rad) or [`Joint::prismatic`] (along z; q in m). [`Joint::cylindrical`],
/// [`Joint::universal`] and [`Joint::planar`] make the joints of several degrees of freedom
/// ([`MultiAxisJoint`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    spec: BlockSpec,
}

impl Joint {
    /// RevoluteJoint: rotation about the frames' common z axis.
    pub fn revolute() -> Joint {
        Joint {
            spec: BlockSpec::of_type("RevoluteJoint"),
        }
    }
    /// PrismaticJoint: translation along the frames' common z axis.
    pub fn prismatic() -> Joint {
        Joint {
            spec: BlockSpec::of_type("PrismaticJoint"),
        }
    }
    setters! {
        /// The initial position q(0) (rad or m).
        q0: f64 => "q0";
        /// The initial velocity (rad/s or m/s).
        w0: f64 => "w0";
        /// An internal spring (N·m/rad or N/m), at rest at q = 0.
        stiffness: f64 => "stiffness";
        /// An internal damper (N·m·s/rad or N·s/m).
        damping: f64 => "damping";
    }
    /// Adds the input `t`: a torque (N·m) or force (N) applied by the joint.
    pub fn actuated(mut self) -> Self {
        self.spec = self.spec.param("actuation", "input");
        self
    }
    /// Position limits.
    pub fn limits(mut self, limits: impl Into<JointLimits>) -> Self {
        self.spec = self.spec.param("limits", limits.into().0.into_value());
        self
    }

    /// Coulomb joint friction: its largest torque (N·m) or force (N) `limit`, regularised over
    /// `stiction_velocity` (rad/s or m/s; the model format's default is 1e-4).
    pub fn coulomb_friction(mut self, limit: f64, stiction_velocity: f64) -> Self {
        let friction = MethodTable::new(JointFrictionMethod::Coulomb.name())
            .with("limit", limit)
            .with("stiction_velocity", stiction_velocity);
        self.spec = self.spec.param("friction", friction.into_value());
        self
    }

    /// Stribeck joint friction: the torque (N·m) or force (N) rises to `static_limit` near rest
    /// and falls to `dynamic_limit` (≤ `static_limit`) in sliding, regularised over
    /// `stiction_velocity` (rad/s or m/s; the model format's default is 1e-4).
    pub fn stribeck_friction(
        mut self,
        static_limit: f64,
        dynamic_limit: f64,
        stiction_velocity: f64,
    ) -> Self {
        let friction = MethodTable::new(JointFrictionMethod::Stribeck.name())
            .with("static_limit", static_limit)
            .with("dynamic_limit", dynamic_limit)
            .with("stiction_velocity", stiction_velocity);
        self.spec = self.spec.param("friction", friction.into_value());
        self
    }

    /// With [`Joint::actuated`]: the input `t` is saturated to ±`effort` (N·m or N).
    pub fn effort_limit(mut self, effort: f64) -> Self {
        self.spec = self.spec.param("effort_limit", effort);
        self
    }
    /// CylindricalJoint: rotation about and translation along B's z axis, q = [θ (rad), d (m)].
    pub fn cylindrical() -> MultiAxisJoint<2> {
        MultiAxisJoint::of_type("CylindricalJoint")
    }
    /// UniversalJoint: rotation about B's x axis, then about the intermediate y axis,
    /// q = [α, β] (rad), R_BF = Rx(α)·Ry(β).
    pub fn universal() -> MultiAxisJoint<2> {
        MultiAxisJoint::of_type("UniversalJoint")
    }
    /// PlanarJoint: translation in B's x-y plane and rotation about B's z axis,
    /// q = [x (m), y (m), θ (rad)].
    pub fn planar() -> MultiAxisJoint<3> {
        MultiAxisJoint::of_type("PlanarJoint")
    }
}

/// A joint of N degrees of freedom with coordinates q (each in m or rad, as the joint's
/// constructor lists them): from [`Joint::cylindrical`], [`Joint::universal`] or
/// [`Joint::planar`].
#[derive(Clone, Debug, PartialEq)]
pub struct MultiAxisJoint<const N: usize> {
    spec: BlockSpec,
}

impl<const N: usize> MultiAxisJoint<N> {
    fn of_type(type_name: &str) -> MultiAxisJoint<N> {
        MultiAxisJoint {
            spec: BlockSpec::of_type(type_name),
        }
    }
    setters! {
        /// The initial coordinates q(0) (m or rad each).
        q0: [f64; N] => "q0";
        /// The initial velocities (m/s or rad/s each).
        w0: [f64; N] => "w0";
        /// An internal spring on every coordinate (N/m or N·m/rad), at rest at q = 0.
        stiffness: f64 => "stiffness";
        /// An internal spring per coordinate (N/m or N·m/rad each), at rest at q = 0.
        stiffness_per_axis: [f64; N] => "stiffness";
        /// An internal damper on every coordinate (N·s/m or N·m·s/rad).
        damping: f64 => "damping";
        /// An internal damper per coordinate (N·s/m or N·m·s/rad each).
        damping_per_axis: [f64; N] => "damping";
    }
    /// Adds the input `t`: a force (N) or torque (N·m) per coordinate.
    pub fn actuated(mut self) -> Self {
        self.spec = self.spec.param("actuation", "input");
        self
    }
}

impl<const N: usize> From<MultiAxisJoint<N>> for BlockSpec {
    fn from(joint: MultiAxisJoint<N>) -> BlockSpec {
        joint.spec
    }
}

/// SphericalJoint: F rotates freely about B's origin (a ball joint), starting unrotated and at
/// rest unless set.
#[derive(Clone, Debug, PartialEq)]
pub struct SphericalJoint {
    spec: BlockSpec,
}

impl SphericalJoint {
    /// The ball joint.
    pub fn new() -> SphericalJoint {
        SphericalJoint {
            spec: BlockSpec::of_type("SphericalJoint"),
        }
    }
    setters! {
        /// The initial orientation of F in B, a quaternion [w, x, y, z] (normalized by the
        /// block).
        orientation: [f64; 4] => "orientation";
        /// The initial angular velocity of F relative to B, rad/s, resolved in F.
        angular_velocity: [f64; 3] => "angular_velocity";
        /// An internal spring per rotational degree of freedom, N·m/rad.
        stiffness: f64 => "stiffness";
        /// An internal damper per rotational degree of freedom, N·m·s/rad.
        damping: f64 => "damping";
    }
    /// Adds the input `t`: a torque (N·m, 3×1, resolved in F).
    pub fn actuated(mut self) -> Self {
        self.spec = self.spec.param("actuation", "input");
        self
    }
}

impl Default for SphericalJoint {
    fn default() -> Self {
        SphericalJoint::new()
    }
}

/// SixDofJoint: F free relative to B (a floating body), starting at rest and unrotated unless set.
#[derive(Clone, Debug, PartialEq)]
pub struct SixDofJoint {
    spec: BlockSpec,
}

impl SixDofJoint {
    /// A six-DOF joint with F's origin starting at `position` (m, in B).
    pub fn new(position: [f64; 3]) -> SixDofJoint {
        SixDofJoint {
            spec: BlockSpec::of_type("SixDofJoint").param("position", position),
        }
    }
    setters! {
        /// The initial orientation of F in B, a unit quaternion [w, x, y, z].
        orientation: [f64; 4] => "orientation";
        /// The initial velocity of F's origin, m/s, resolved in B.
        velocity: [f64; 3] => "velocity";
        /// The initial angular velocity of F relative to B, rad/s, resolved in F.
        angular_velocity: [f64; 3] => "angular_velocity";
        /// An internal spring per degree of freedom (N/m, N·m/rad), at rest at q = 0.
        stiffness: f64 => "stiffness";
        /// An internal damper per degree of freedom (N·s/m, N·m·s/rad).
        damping: f64 => "damping";
    }
    /// Adds the input `t`: a force or torque per degree of freedom.
    pub fn actuated(mut self) -> Self {
        self.spec = self.spec.param("actuation", "input");
        self
    }
}

/// WeldJoint: F fixed to B.
#[derive(Clone, Debug, PartialEq)]
pub struct WeldJoint {
    spec: BlockSpec,
}

impl WeldJoint {
    /// The weld.
    pub fn new() -> WeldJoint {
        WeldJoint {
            spec: BlockSpec::of_type("WeldJoint"),
        }
    }
}

impl Default for WeldJoint {
    fn default() -> Self {
        WeldJoint::new()
    }
}

into_spec!(Joint, SphericalJoint, SixDofJoint, WeldJoint);
