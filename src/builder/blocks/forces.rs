//! Force elements, contact and sensing.

use super::MethodTable;
use crate::builder::BlockSpec;

/// SpringDamper: a linear spring and damper between the origins of frames B and F.
#[derive(Clone, Debug, PartialEq)]
pub struct SpringDamper {
    spec: BlockSpec,
}

impl SpringDamper {
    /// A spring of `stiffness` (N/m ≥ 0).
    pub fn new(stiffness: f64) -> SpringDamper {
        SpringDamper {
            spec: BlockSpec::of_type("SpringDamper").param("stiffness", stiffness),
        }
    }
    setters! {
        /// The damping on the rate of the length, N·s/m ≥ 0.
        damping: f64 => "damping";
        /// The length at which the spring force is zero, m ≥ 0.
        free_length: f64 => "free_length";
    }
}

/// A contact's normal force law, for [`SpatialContactForce::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct NormalLaw(MethodTable);

impl NormalLaw {
    fn method(method: &str) -> NormalLaw {
        NormalLaw(MethodTable::new(method))
    }
    fn with(self, key: &str, value: f64) -> NormalLaw {
        NormalLaw(self.0.with(key, value))
    }
    /// `f = k·d + c·ḋ`, clipped at 0 (k in N/m, c in N·s/m, d the penetration depth).
    pub fn linear(stiffness: f64, damping: f64) -> NormalLaw {
        let law = NormalLaw::method("linear_spring_damper");
        law.with("stiffness", stiffness).with("damping", damping)
    }
    /// The linear law with the damping force limited to the spring force (no pull).
    pub fn linear_limited_damper(stiffness: f64, damping: f64) -> NormalLaw {
        let law = NormalLaw::method("linear_spring_limited_damper");
        law.with("stiffness", stiffness).with("damping", damping)
    }
    /// Simscape's smooth spring-damper (k in N/m, c in N·s/m), its damping blended in over the
    /// transition width ([`NormalLaw::transition_width`]).
    pub fn smooth(stiffness: f64, damping: f64) -> NormalLaw {
        let law = NormalLaw::method("smooth_spring_damper");
        law.with("stiffness", stiffness).with("damping", damping)
    }
    /// Hunt and Crossley: `f = k·dⁿ + c·dᵖ·ḋ^q` (k in N/mⁿ); set the exponents with
    /// [`NormalLaw::exponent`] and the others.
    pub fn hunt_crossley(stiffness: f64, damping: f64) -> NormalLaw {
        let law = NormalLaw::method("hunt_crossley");
        law.with("stiffness", stiffness).with("damping", damping)
    }
    /// The normal force read from the block's input `fn` (N).
    pub fn input() -> NormalLaw {
        NormalLaw::method("input")
    }
    /// The smooth law's transition width, m.
    pub fn transition_width(self, width: f64) -> NormalLaw {
        self.with("transition_width", width)
    }
    /// Hunt and Crossley's stiffness exponent n.
    pub fn exponent(self, n: f64) -> NormalLaw {
        self.with("exponent", n)
    }
    /// Hunt and Crossley's velocity exponent q.
    pub fn velocity_exponent(self, q: f64) -> NormalLaw {
        self.with("velocity_exponent", q)
    }
    /// Hunt and Crossley's depth exponent p of the damping term.
    pub fn depth_exponent(self, p: f64) -> NormalLaw {
        self.with("depth_exponent", p)
    }
}

/// A contact's friction law, for [`SpatialContactForce::friction`].
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionLaw(MethodTable);

impl FrictionLaw {
    fn method(method: &str) -> FrictionLaw {
        FrictionLaw(MethodTable::new(method))
    }
    fn with(self, key: &str, value: f64) -> FrictionLaw {
        FrictionLaw(self.0.with(key, value))
    }
    /// No friction.
    pub fn none() -> FrictionLaw {
        FrictionLaw::method("none")
    }
    /// Simscape's smooth stick-slip: static and dynamic coefficients, blended below the critical
    /// velocity ([`FrictionLaw::critical_velocity`]).
    pub fn smooth_stick_slip(static_coefficient: f64, dynamic_coefficient: f64) -> FrictionLaw {
        let law = FrictionLaw::method("smooth_stick_slip");
        law.with("static", static_coefficient)
            .with("dynamic", dynamic_coefficient)
    }
    /// Stribeck's curve: static and dynamic coefficients, the stiction velocity set with
    /// [`FrictionLaw::stiction_velocity`].
    pub fn stribeck(static_coefficient: f64, dynamic_coefficient: f64) -> FrictionLaw {
        let law = FrictionLaw::method("stribeck");
        law.with("static", static_coefficient)
            .with("dynamic", dynamic_coefficient)
    }
    /// The friction force's x, y (N, in the contact frame) read from the block's input `ff`.
    pub fn input() -> FrictionLaw {
        FrictionLaw::method("input")
    }
    /// The smooth stick-slip law's critical velocity, m/s.
    pub fn critical_velocity(self, speed: f64) -> FrictionLaw {
        self.with("critical_velocity", speed)
    }
    /// Stribeck's stiction velocity, m/s.
    pub fn stiction_velocity(self, speed: f64) -> FrictionLaw {
        self.with("stiction_velocity", speed)
    }
}

/// SpatialContactForce: penalty contact between the geometries on ports B and F.
#[derive(Clone, Debug, PartialEq)]
pub struct SpatialContactForce {
    spec: BlockSpec,
}

impl SpatialContactForce {
    /// Contact with the `normal` law and the type's default friction (set it with
    /// [`SpatialContactForce::friction`]).
    pub fn new(normal: NormalLaw) -> SpatialContactForce {
        let spec = BlockSpec::of_type("SpatialContactForce");
        SpatialContactForce {
            spec: spec.param("normal", normal.0.into_value()),
        }
    }
    /// The friction law.
    pub fn friction(mut self, friction: FrictionLaw) -> Self {
        self.spec = self.spec.param("friction", friction.0.into_value());
        self
    }
    setters! {
        /// Whether the solver locates the sign changes of the separation distance.
        zero_crossings: bool => "zero_crossings";
        /// With zero crossings, whether it also locates the kinks of the normal law.
        kink_crossings: bool => "kink_crossings";
    }
    /// One deepest point per pair (Simscape's convention) instead of the contact manifold.
    pub fn single_point(mut self) -> Self {
        self.spec = self.spec.param("contact_points", "single");
        self
    }
}

/// The frame a sensed or applied vector is resolved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolvedIn {
    /// The World frame.
    World,
    /// The block's own frame (`R` for ExternalForceTorque, `B` for TransformSensor).
    Own,
}

/// ExternalForceTorque: applies its inputs `force` (N) and `torque` (N·m), each optional, at
/// frame R's origin.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalForceTorque {
    spec: BlockSpec,
}

impl ExternalForceTorque {
    /// Inputs resolved in `frame`.
    pub fn new(frame: ResolvedIn) -> ExternalForceTorque {
        let resolved = match frame {
            ResolvedIn::World => "world",
            ResolvedIn::Own => "R",
        };
        let spec = BlockSpec::of_type("ExternalForceTorque").param("resolved_in", resolved);
        ExternalForceTorque { spec }
    }
}

/// TransformSensor: F's pose and velocities relative to B.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformSensor {
    spec: BlockSpec,
}

impl TransformSensor {
    /// Outputs resolved in `frame`.
    pub fn new(frame: ResolvedIn) -> TransformSensor {
        let resolved = match frame {
            ResolvedIn::World => "world",
            ResolvedIn::Own => "B",
        };
        let spec = BlockSpec::of_type("TransformSensor").param("resolved_in", resolved);
        TransformSensor { spec }
    }
}

into_spec!(
    SpringDamper,
    SpatialContactForce,
    ExternalForceTorque,
    TransformSensor
);
