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

/// A contact's normal force law, for [`SpatialContactForce::new`]. The laws with optional
/// entries are types of their own ([`SmoothLaw`], [`HuntCrossleyLaw`]) that convert into it.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalLaw(pub(super) MethodTable);

impl NormalLaw {
    fn spring_damper(method: &str, stiffness: f64, damping: f64) -> MethodTable {
        let law = MethodTable::new(method);
        law.with("stiffness", stiffness).with("damping", damping)
    }
    /// `f = k·d + c·ḋ`, clipped at 0 (k in N/m, c in N·s/m, d the penetration depth).
    pub fn linear(stiffness: f64, damping: f64) -> NormalLaw {
        NormalLaw(NormalLaw::spring_damper(
            "linear_spring_damper",
            stiffness,
            damping,
        ))
    }
    /// The linear law with the damping force limited to the spring force (no pull).
    pub fn linear_limited_damper(stiffness: f64, damping: f64) -> NormalLaw {
        let method = "linear_spring_limited_damper";
        NormalLaw(NormalLaw::spring_damper(method, stiffness, damping))
    }
    /// Simscape's smooth spring-damper (k in N/m, c in N·s/m), its damping blended in over the
    /// transition width ([`SmoothLaw::transition_width`]).
    pub fn smooth(stiffness: f64, damping: f64) -> SmoothLaw {
        SmoothLaw(NormalLaw::spring_damper(
            "smooth_spring_damper",
            stiffness,
            damping,
        ))
    }
    /// Hunt and Crossley: `f = k·dⁿ + c·dᵖ·ḋ^q` (k in N/mⁿ); the exponents are set on the
    /// [`HuntCrossleyLaw`].
    pub fn hunt_crossley(stiffness: f64, damping: f64) -> HuntCrossleyLaw {
        HuntCrossleyLaw(NormalLaw::spring_damper(
            "hunt_crossley",
            stiffness,
            damping,
        ))
    }
    /// The normal force read from the block's input `fn` (N).
    pub fn input() -> NormalLaw {
        NormalLaw(MethodTable::new("input"))
    }
}

method_type! {
    /// Simscape's smooth spring-damper, from [`NormalLaw::smooth`].
    SmoothLaw => NormalLaw {
        /// The width over which the damping is blended in, m.
        transition_width => "transition_width";
    }
}

method_type! {
    /// Hunt and Crossley's law, from [`NormalLaw::hunt_crossley`].
    HuntCrossleyLaw => NormalLaw {
        /// The stiffness exponent n.
        exponent => "exponent";
        /// The velocity exponent q.
        velocity_exponent => "velocity_exponent";
        /// The depth exponent p of the damping term.
        depth_exponent => "depth_exponent";
    }
}

/// A contact's friction law, for [`SpatialContactForce::friction`]. The laws with optional
/// entries are types of their own ([`SmoothStickSlipLaw`], [`StribeckLaw`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionLaw(pub(super) MethodTable);

impl FrictionLaw {
    fn coefficients(method: &str, static_coefficient: f64, dynamic: f64) -> MethodTable {
        let law = MethodTable::new(method);
        law.with("static", static_coefficient)
            .with("dynamic", dynamic)
    }
    /// No friction.
    pub fn none() -> FrictionLaw {
        FrictionLaw(MethodTable::new("none"))
    }
    /// Simscape's smooth stick-slip: static and dynamic coefficients, blended below the critical
    /// velocity ([`SmoothStickSlipLaw::critical_velocity`]).
    pub fn smooth_stick_slip(static_coefficient: f64, dynamic: f64) -> SmoothStickSlipLaw {
        let law = FrictionLaw::coefficients("smooth_stick_slip", static_coefficient, dynamic);
        SmoothStickSlipLaw(law)
    }
    /// Stribeck's curve: static and dynamic coefficients, the stiction velocity set with
    /// [`StribeckLaw::stiction_velocity`].
    pub fn stribeck(static_coefficient: f64, dynamic: f64) -> StribeckLaw {
        StribeckLaw(FrictionLaw::coefficients(
            "stribeck",
            static_coefficient,
            dynamic,
        ))
    }
    /// The friction force's x, y (N, in the contact frame) read from the block's input `ff`.
    pub fn input() -> FrictionLaw {
        FrictionLaw(MethodTable::new("input"))
    }
}

method_type! {
    /// Simscape's smooth stick-slip law, from [`FrictionLaw::smooth_stick_slip`].
    SmoothStickSlipLaw => FrictionLaw {
        /// The velocity below which the coefficient blends from dynamic to static, m/s.
        critical_velocity => "critical_velocity";
    }
}

method_type! {
    /// Stribeck's curve, from [`FrictionLaw::stribeck`].
    StribeckLaw => FrictionLaw {
        /// The stiction velocity, m/s.
        stiction_velocity => "stiction_velocity";
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
    pub fn new(normal: impl Into<NormalLaw>) -> SpatialContactForce {
        let spec = BlockSpec::of_type("SpatialContactForce");
        SpatialContactForce {
            spec: spec.param("normal", normal.into().0.into_value()),
        }
    }
    /// The friction law.
    pub fn friction(mut self, friction: impl Into<FrictionLaw>) -> Self {
        self.spec = self.spec.param("friction", friction.into().0.into_value());
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

impl ResolvedIn {
    /// The value a model file writes: `"world"`, or the block's own frame's port name.
    fn key(self, own_port: &str) -> &str {
        match self {
            ResolvedIn::World => "world",
            ResolvedIn::Own => own_port,
        }
    }
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
        let resolved = frame.key("R");
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
        let resolved = frame.key("B");
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
