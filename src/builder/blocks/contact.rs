//! Rigid contact (impacts and resting forces), spatial_v2's compliant ground, and contact groups.

use super::forces::{FrictionLaw, NormalLaw};
use super::MethodTable;
use crate::blocks::contact::rigid_contact::RigidFrictionMethod;
use crate::builder::{BlockSpec, ParamValue};

/// How a [`RigidContact`] resolves impacts at several touching points: the mechanism's own
/// order, its names written once there.
pub use crate::multibody::rigid::ImpactOrder;

/// RigidContact: rigid contact between the geometries on ports B and F: resting contacts hold
/// exactly, collisions are impulses with Newton's restitution.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidContact {
    spec: BlockSpec,
}

impl RigidContact {
    /// Contact with the type's default restitution and no friction unless set.
    pub fn new() -> RigidContact {
        RigidContact {
            spec: BlockSpec::of_type("RigidContact"),
        }
    }
    setters! {
        /// Newton's coefficient of restitution e, in [0, 1]: normal velocity after an impact =
        /// −e · before.
        restitution: f64 => "restitution";
        /// The impact speed, m/s ≥ 0, under which an impact is plastic and leaves the contact
        /// resting.
        rest_velocity: f64 => "rest_velocity";
    }
    /// Coulomb friction of `coefficient` μ ≥ 0 (static = dynamic).
    pub fn coulomb_friction(mut self, coefficient: f64) -> Self {
        let coulomb = RigidFrictionMethod::Coulomb.name();
        let friction = MethodTable::new(coulomb).with("coefficient", coefficient);
        self.spec = self.spec.param("friction", friction.into_value());
        self
    }
    /// No friction.
    pub fn frictionless(mut self) -> Self {
        let none = RigidFrictionMethod::None.name();
        self.spec = self
            .spec
            .param("friction", MethodTable::new(none).into_value());
        self
    }
    /// How impacts at several touching points are resolved.
    pub fn impacts(mut self, order: ImpactOrder) -> Self {
        self.spec = self.spec.param("impacts", order.name());
        self
    }
}

impl Default for RigidContact {
    fn default() -> Self {
        RigidContact::new()
    }
}

/// GroundContact: spatial_v2's compliant ground acting on the points of the Point or
/// PointCloud on port F: normal force f_n = √(−z)·(−K·z − D·ż), tangential deflection states
/// with a friction cone. The ground is World's x-y plane, z up, unless [`GroundContact::planar`].
#[derive(Clone, Debug, PartialEq)]
pub struct GroundContact {
    spec: BlockSpec,
}

impl GroundContact {
    /// A ground of `stiffness` K (N/m^1.5: a point loaded by F sinks (F/K)^(2/3)) and `damping`
    /// D (N·s/m^1.5; D/K is the ground's recovery time constant, s).
    pub fn new(stiffness: f64, damping: f64) -> GroundContact {
        let spec = BlockSpec::of_type("GroundContact").param("stiffness", stiffness);
        GroundContact {
            spec: spec.param("damping", damping),
        }
    }
    setters! {
        /// The friction coefficient μ (0: frictionless, no deflection states).
        friction: f64 => "friction";
        /// Whether the solver locates every change of a point's state (contact, stick, slip).
        zero_crossings: bool => "zero_crossings";
    }
    /// A planar ground for planar mechanisms: World's x axis, y up.
    pub fn planar(mut self) -> Self {
        self.spec = self.spec.param("dimension", 2usize);
        self
    }
}

/// ContactGroup: penalty contact among the Solid and geometry blocks named by `members` (`*`
/// matches any run of characters), one normal law and one friction law for every pair; no `--`
/// line is written for the members.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactGroup {
    spec: BlockSpec,
    excluded: Vec<ParamValue>,
}

impl ContactGroup {
    /// A group of `members` (block names or patterns, in order) with the `normal` law and the
    /// type's default friction (set it with [`ContactGroup::friction`]).
    pub fn new(members: &[&str], normal: impl Into<NormalLaw>) -> ContactGroup {
        let names = members.iter().map(|m| ParamValue::from(*m)).collect();
        let spec = BlockSpec::of_type("ContactGroup")
            .param("members", ParamValue::Array(names))
            .param("normal", normal.into().0.into_value());
        ContactGroup {
            spec,
            excluded: Vec::new(),
        }
    }
    /// The friction law.
    pub fn friction(mut self, friction: impl Into<FrictionLaw>) -> Self {
        self.spec = self.spec.param("friction", friction.into().0.into_value());
        self
    }
    /// Members `a` and `b` never touch.
    pub fn exclude(mut self, a: &str, b: &str) -> Self {
        self.excluded
            .push(ParamValue::Array(vec![a.into(), b.into()]));
        self.spec = self
            .spec
            .param("exclude", ParamValue::Array(self.excluded.clone()));
        self
    }
    setters! {
        /// Whether the solver watches the separations of the pairs within the margin (and the
        /// approach of the others).
        zero_crossings: bool => "zero_crossings";
        /// The broad phase's watch distance, m > 0.
        margin: f64 => "margin";
    }
}

into_spec!(RigidContact, GroundContact, ContactGroup);
