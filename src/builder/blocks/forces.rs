//! Force elements, contact and sensing.

use super::MethodTable;
use crate::blocks::contact::laws_params;
use crate::builder::BlockSpec;
use crate::contact::friction::FrictionLaw as ContactFriction;
use crate::contact::law_methods::{FrictionMethod, NormalMethod};
use crate::contact::normal_force::NormalForceLaw;

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

/// A contact's normal force law, for [`SpatialContactForce::new`]: the table
/// `normal = { method = ..., ... }` with only the entries given (the others keep the block type's
/// defaults). The method names come from [`NormalMethod`] and the keys from the reader's
/// declarations ([`laws_params`]), so this front cannot drift from the law it writes. The laws
/// with optional entries are types of their own ([`SmoothLaw`], [`HuntCrossleyLaw`]) that convert
/// into it; a complete [`NormalForceLaw`] of the contact module converts into it too, with
/// every parameter written.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalLaw(pub(super) MethodTable);

impl NormalLaw {
    fn spring_damper(method: NormalMethod, stiffness: f64, damping: f64) -> MethodTable {
        let law = MethodTable::new(method.name());
        law.with(laws_params::NORMAL_STIFFNESS.name(), stiffness)
            .with(laws_params::NORMAL_DAMPING.name(), damping)
    }
    /// `f = k·d + c·ḋ`, clipped at 0 (k in N/m, c in N·s/m, d the penetration depth).
    pub fn linear(stiffness: f64, damping: f64) -> NormalLaw {
        let method = NormalMethod::LinearSpringDamper;
        NormalLaw(NormalLaw::spring_damper(method, stiffness, damping))
    }
    /// The linear law with the damping force limited to the spring force (no pull).
    pub fn linear_limited_damper(stiffness: f64, damping: f64) -> NormalLaw {
        let method = NormalMethod::LinearSpringLimitedDamper;
        NormalLaw(NormalLaw::spring_damper(method, stiffness, damping))
    }
    /// Simscape's smooth spring-damper (k in N/m, c in N·s/m), its damping blended in over the
    /// transition width ([`SmoothLaw::transition_width`]).
    pub fn smooth(stiffness: f64, damping: f64) -> SmoothLaw {
        let method = NormalMethod::SmoothSpringDamper;
        SmoothLaw(NormalLaw::spring_damper(method, stiffness, damping))
    }
    /// Hunt and Crossley: `f = k·dⁿ + c·dᵖ·ḋ^q` (k in N/mⁿ); the exponents are set on the
    /// [`HuntCrossleyLaw`].
    pub fn hunt_crossley(stiffness: f64, damping: f64) -> HuntCrossleyLaw {
        let method = NormalMethod::HuntCrossley;
        HuntCrossleyLaw(NormalLaw::spring_damper(method, stiffness, damping))
    }
    /// The normal force read from the block's input `fn` (N).
    pub fn input() -> NormalLaw {
        NormalLaw(MethodTable::new(NormalMethod::Input.name()))
    }
}

impl From<NormalForceLaw> for NormalLaw {
    /// The contact module's law with every parameter written.
    fn from(law: NormalForceLaw) -> NormalLaw {
        match law {
            NormalForceLaw::SmoothSpringDamper {
                stiffness,
                damping,
                transition_width,
            } => NormalLaw::smooth(stiffness, damping)
                .transition_width(transition_width)
                .into(),
            NormalForceLaw::LinearSpringDamper { stiffness, damping } => {
                NormalLaw::linear(stiffness, damping)
            }
            NormalForceLaw::LinearSpringLimitedDamper { stiffness, damping } => {
                NormalLaw::linear_limited_damper(stiffness, damping)
            }
            NormalForceLaw::HuntCrossley {
                stiffness,
                damping,
                exponent,
                velocity_exponent,
                depth_exponent,
            } => NormalLaw::hunt_crossley(stiffness, damping)
                .exponent(exponent)
                .velocity_exponent(velocity_exponent)
                .depth_exponent(depth_exponent)
                .into(),
            NormalForceLaw::Input => NormalLaw::input(),
        }
    }
}

method_type! {
    /// Simscape's smooth spring-damper, from [`NormalLaw::smooth`].
    SmoothLaw => NormalLaw {
        /// The width over which the damping is blended in, m.
        transition_width => laws_params::TRANSITION_WIDTH.name();
    }
}

method_type! {
    /// Hunt and Crossley's law, from [`NormalLaw::hunt_crossley`].
    HuntCrossleyLaw => NormalLaw {
        /// The stiffness exponent n.
        exponent => laws_params::EXPONENT.name();
        /// The velocity exponent q.
        velocity_exponent => laws_params::VELOCITY_EXPONENT.name();
        /// The depth exponent p of the damping term.
        depth_exponent => laws_params::DEPTH_EXPONENT;
    }
}

/// A contact's friction law, for [`SpatialContactForce::friction`]: the table
/// `friction = { method = ..., ... }` with only the entries given, its names from
/// [`FrictionMethod`] and [`laws_params`] as for [`NormalLaw`]. The laws with optional entries
/// are types of their own ([`SmoothStickSlipLaw`], [`StribeckLaw`]); a complete friction law of
/// the contact module ([`ContactFriction`]) converts into it, every parameter written.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionLaw(pub(super) MethodTable);

impl FrictionLaw {
    fn coefficients(method: FrictionMethod, static_coefficient: f64, dynamic: f64) -> MethodTable {
        let law = MethodTable::new(method.name());
        law.with(laws_params::STATIC.name(), static_coefficient)
            .with(laws_params::DYNAMIC.name(), dynamic)
    }
    /// No friction.
    pub fn none() -> FrictionLaw {
        FrictionLaw(MethodTable::new(FrictionMethod::None.name()))
    }
    /// Simscape's smooth stick-slip: static and dynamic coefficients, blended below the critical
    /// velocity ([`SmoothStickSlipLaw::critical_velocity`]).
    pub fn smooth_stick_slip(static_coefficient: f64, dynamic: f64) -> SmoothStickSlipLaw {
        let method = FrictionMethod::SmoothStickSlip;
        SmoothStickSlipLaw(FrictionLaw::coefficients(
            method,
            static_coefficient,
            dynamic,
        ))
    }
    /// Stribeck's curve: static and dynamic coefficients, the stiction velocity set with
    /// [`StribeckLaw::stiction_velocity`].
    pub fn stribeck(static_coefficient: f64, dynamic: f64) -> StribeckLaw {
        let method = FrictionMethod::Stribeck;
        StribeckLaw(FrictionLaw::coefficients(
            method,
            static_coefficient,
            dynamic,
        ))
    }
    /// The friction force's x, y (N, in the contact frame) read from the block's input `ff`.
    pub fn input() -> FrictionLaw {
        FrictionLaw(MethodTable::new(FrictionMethod::Input.name()))
    }
}

impl From<ContactFriction> for FrictionLaw {
    /// The contact module's law with every parameter written.
    fn from(law: ContactFriction) -> FrictionLaw {
        match law {
            ContactFriction::SmoothStickSlip {
                static_coefficient,
                dynamic_coefficient,
                critical_velocity,
            } => FrictionLaw::smooth_stick_slip(static_coefficient, dynamic_coefficient)
                .critical_velocity(critical_velocity)
                .into(),
            ContactFriction::Stribeck {
                static_coefficient,
                dynamic_coefficient,
                stiction_velocity,
            } => FrictionLaw::stribeck(static_coefficient, dynamic_coefficient)
                .stiction_velocity(stiction_velocity)
                .into(),
            ContactFriction::None => FrictionLaw::none(),
            ContactFriction::Input => FrictionLaw::input(),
        }
    }
}

method_type! {
    /// Simscape's smooth stick-slip law, from [`FrictionLaw::smooth_stick_slip`].
    SmoothStickSlipLaw => FrictionLaw {
        /// The velocity below which the coefficient blends from dynamic to static, m/s.
        critical_velocity => laws_params::CRITICAL_VELOCITY.name();
    }
}

method_type! {
    /// Stribeck's curve, from [`FrictionLaw::stribeck`].
    StribeckLaw => FrictionLaw {
        /// The stiction velocity, m/s.
        stiction_velocity => laws_params::STICTION_VELOCITY.name();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::contact::laws_params::{read_friction_law, read_normal_law};
    use crate::model::{Document, TableReader};

    /// The laws `normal` and `friction` read back from the tables the builder writes for them.
    fn read_back(normal: NormalLaw, friction: FrictionLaw) -> (NormalForceLaw, ContactFriction) {
        let text = format!(
            "normal = {}\nfriction = {}",
            normal.0.into_value().to_toml(),
            friction.0.into_value().to_toml()
        );
        let doc = Document::parse("laws.toml", &text).expect("the builder writes TOML");
        let reader = TableReader::new(&doc.source, Some("contact"), &doc.root, Some(0..0));
        let r = reader.params();
        let normal = read_normal_law(&r).expect("the reader takes the builder's normal table");
        let (friction, _) = read_friction_law(&r).expect("and its friction table");
        (normal, friction)
    }

    /// The laws `normal` and `friction` read from the builder's typed values, with no TOML and
    /// no model tree (`ParamMap`, the path of `BlockSpec::build`).
    fn read_typed(normal: NormalLaw, friction: FrictionLaw) -> (NormalForceLaw, ContactFriction) {
        let mut map = crate::params::ParamMap::default();
        map.set("normal", normal.0.into_value());
        map.set("friction", friction.0.into_value());
        let reader = map.reader();
        let r = crate::params::Params::new(&reader);
        let normal = read_normal_law(&r).expect("the typed values give the normal law");
        let (friction, _) = read_friction_law(&r).expect("and the friction law");
        (normal, friction)
    }

    /// Every contact law, each parameter away from its default, goes through the builder's
    /// table and the model reader unchanged, and through the typed values alike (exactly: numbers are written in Rust's shortest
    /// round-trip form). The builder's method names and keys are the reader's.
    #[test]
    fn every_contact_law_round_trips_through_the_builder() {
        let normals = [
            NormalForceLaw::SmoothSpringDamper {
                stiffness: 2e5,
                damping: 30.0,
                transition_width: 3e-4,
            },
            NormalForceLaw::LinearSpringDamper {
                stiffness: 1.5e4,
                damping: 0.25,
            },
            NormalForceLaw::LinearSpringLimitedDamper {
                stiffness: 7e3,
                damping: 11.0,
            },
            NormalForceLaw::HuntCrossley {
                stiffness: 4e7,
                damping: 0.7,
                exponent: 1.4,
                velocity_exponent: 0.9,
                depth_exponent: 1.1,
            },
            NormalForceLaw::Input,
        ];
        let frictions = [
            ContactFriction::SmoothStickSlip {
                static_coefficient: 0.8,
                dynamic_coefficient: 0.6,
                critical_velocity: 2e-3,
            },
            ContactFriction::Stribeck {
                static_coefficient: 0.45,
                dynamic_coefficient: 0.35,
                stiction_velocity: 3e-4,
            },
            ContactFriction::None,
            ContactFriction::Input,
        ];
        assert_eq!(normals.map(|l| l.method()), NormalMethod::ALL);
        assert_eq!(frictions.map(|l| l.method()), FrictionMethod::ALL);
        for (k, normal) in normals.into_iter().enumerate() {
            let friction = frictions[k % frictions.len()];
            let read = read_back(normal.into(), friction.into());
            assert_eq!(read, (normal, friction));
            let typed = read_typed(normal.into(), friction.into());
            assert_eq!(typed, (normal, friction));
        }
    }

    /// The short constructors leave the optional entries to the reader's defaults: the linear
    /// law is exactly k·d + c·ḋ, and Hunt–Crossley's depth exponent defaults to its exponent.
    #[test]
    fn the_constructors_leave_the_rest_to_the_declared_defaults() {
        let hunt = NormalLaw::hunt_crossley(1e6, 0.5).exponent(1.25).into();
        let (normal, friction) = read_back(hunt, FrictionLaw::stribeck(0.5, 0.4).into());
        assert_eq!(
            normal,
            NormalForceLaw::HuntCrossley {
                stiffness: 1e6,
                damping: 0.5,
                exponent: 1.25,
                velocity_exponent: laws_params::VELOCITY_EXPONENT.default,
                depth_exponent: 1.25,
            }
        );
        assert_eq!(
            friction,
            ContactFriction::Stribeck {
                static_coefficient: 0.5,
                dynamic_coefficient: 0.4,
                stiction_velocity: laws_params::STICTION_VELOCITY.default,
            }
        );
        let (normal, _) = read_back(NormalLaw::linear(1e5, 40.0), FrictionLaw::none());
        let linear = NormalForceLaw::LinearSpringDamper {
            stiffness: 1e5,
            damping: 40.0,
        };
        assert_eq!(normal, linear);
    }
}
