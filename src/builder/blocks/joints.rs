//! Joints between two frames, and their limits.

use super::MethodTable;
use crate::builder::BlockSpec;

/// A joint's position limits, for [`Joint::limits`]: [`JointLimits::rigid`] (impacts) or
/// [`JointLimits::spring_damper`], each a type of its own that converts into this.
#[derive(Clone, Debug, PartialEq)]
pub struct JointLimits(MethodTable);

impl JointLimits {
    /// Rigid bounds: the joint stops at them with an impact law. Set the bounds with
    /// [`RigidLimits::lower`] and [`RigidLimits::upper`] (one of them may be left out).
    pub fn rigid() -> RigidLimits {
        RigidLimits(MethodTable::new("rigid"))
    }
    /// Spring-damper bounds of `stiffness` (N/m or N·m/rad) past the bound.
    pub fn spring_damper(stiffness: f64) -> SpringDamperLimits {
        SpringDamperLimits(MethodTable::new("spring_damper").with("stiffness", stiffness))
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
    pub fn limits(mut self, limits: impl Into<JointLimits>) -> Self {
        self.spec = self.spec.param("limits", limits.into().0.into_value());
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
