//! Joints between two frames, and their limits.

use super::MethodTable;
use crate::builder::BlockSpec;

/// A joint's position limits, for [`Joint::limits`]: rigid (impacts) or a spring-damper.
#[derive(Clone, Debug, PartialEq)]
pub struct JointLimits(MethodTable);

impl JointLimits {
    /// Rigid bounds: the joint stops at them with an impact law. Set the bounds with
    /// [`JointLimits::lower`] and [`JointLimits::upper`] (one of them may be left out).
    pub fn rigid() -> JointLimits {
        JointLimits(MethodTable::new("rigid"))
    }
    /// Spring-damper bounds of `stiffness` (N/m or N·m/rad) past the bound.
    pub fn spring_damper(stiffness: f64) -> JointLimits {
        JointLimits(MethodTable::new("spring_damper")).with("stiffness", stiffness)
    }
    fn with(self, key: &str, value: f64) -> JointLimits {
        JointLimits(self.0.with(key, value))
    }
    /// The lower bound (m or rad).
    pub fn lower(self, bound: f64) -> JointLimits {
        self.with("lower", bound)
    }
    /// The upper bound (m or rad).
    pub fn upper(self, bound: f64) -> JointLimits {
        self.with("upper", bound)
    }
    /// Rigid bounds: Newton's coefficient of restitution of an impact, 0 to 1.
    pub fn restitution(self, e: f64) -> JointLimits {
        self.with("restitution", e)
    }
    /// Rigid bounds: the speed (m/s or rad/s) under which an impact leaves the joint at rest.
    pub fn rest_velocity(self, speed: f64) -> JointLimits {
        self.with("rest_velocity", speed)
    }
    /// Spring-damper bounds: the damping (N·s/m or N·m·s/rad) past the bound.
    pub fn damping(self, c: f64) -> JointLimits {
        self.with("damping", c)
    }
}

/// A joint of one degree of freedom between frames B and F: [`Joint::revolute`] (about their z
/// axis; q in rad) or [`Joint::prismatic`] (along z; q in m).
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
    pub fn limits(mut self, limits: JointLimits) -> Self {
        self.spec = self.spec.param("limits", limits.0.into_value());
        self
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

into_spec!(Joint, SixDofJoint, WeldJoint);
