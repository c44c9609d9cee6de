//! Typed constructors for the library's blocks: `Gain::new(2.0)`, `Solid::new(Shape::sphere(0.1))
//! .mass(1.0)`, `SpatialContactForce::new(NormalLaw::linear(1e5, 100.0))`.
//!
//! Each constructor takes the block's required values, and each method sets one optional
//! parameter with a value of its type and unit; what is not set keeps the block type's default,
//! which is written once, in the type's declaration (`blockdyn blocks TYPE` prints it). Every
//! type converts into the [`BlockSpec`](super::BlockSpec) that [`ModelBuilder::add`](super::ModelBuilder::add)
//! takes, so a model built from these goes through the same build, checks and messages as a model
//! file. A string where a number goes, a misspelt parameter, or a law's or limit's entry that its
//! method does not read (each method with optional entries is its own type: `HuntCrossleyLaw` has
//! `exponent`, the linear law has none) does not compile. A value out of its range (a negative
//! stiffness) is refused by the block at build, naming the block and the parameter.
//!
//! Units are SI throughout (m, kg, s, rad, N); vectors are `[x, y, z]` in the frame each method
//! names. Every library block type has a constructor here but `Urdf` (a robot expanded from its
//! file when the model is read); that one and a block type of your own are written with
//! [`BlockSpec::of_type`](super::BlockSpec::of_type) and
//! [`BlockSpec::param`](super::BlockSpec::param).

use super::ParamValue;
#[cfg(test)]
use super::{table, BlockSpec};

/// Implements `From<$t> for BlockSpec` for a type wrapping a `BlockSpec` in its field `spec`.
macro_rules! into_spec {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for $crate::builder::BlockSpec {
            fn from(block: $t) -> $crate::builder::BlockSpec {
                block.spec
            }
        }
    )*};
}

/// Methods that set one parameter each: `name(value: T) -> Self`, writing `key`.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $key:literal;)*) => {$(
        $(#[$doc])*
        pub fn $name(mut self, value: $ty) -> Self {
            self.spec = self.spec.param($key, value);
            self
        }
    )*};
}

/// A type for one method of a law or limit (`HuntCrossleyLaw`), wrapping its [`MethodTable`],
/// with the setters of that method's entries only, and converting into the general type.
macro_rules! method_type {
    ($(#[$doc:meta])* $name:ident => $general:ident {
        $($(#[$setter_doc:meta])* $setter:ident => $key:expr;)*
    }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name(super::MethodTable);

        impl $name {
            $(
                $(#[$setter_doc])*
                pub fn $setter(self, value: f64) -> $name {
                    $name(self.0.with($key, value))
                }
            )*
        }

        impl From<$name> for $general {
            fn from(law: $name) -> $general {
                $general(law.0)
            }
        }
    };
}

/// An inline table chosen by its `method` (a contact law, a joint's limits), entries in order.
#[derive(Clone, Debug, PartialEq)]
struct MethodTable(Vec<(String, ParamValue)>);

impl MethodTable {
    fn new(method: &str) -> MethodTable {
        MethodTable(vec![("method".into(), method.into())])
    }
    /// Sets `key` (the last value holds, as in a model file).
    fn with(mut self, key: &str, value: f64) -> MethodTable {
        super::set(&mut self.0, key, value.into());
        self
    }
    fn into_value(self) -> ParamValue {
        ParamValue::Table(self.0)
    }
}

fn rows<const N: usize>(matrix: &[[f64; N]]) -> ParamValue {
    ParamValue::Array(matrix.iter().map(|row| row.as_slice().into()).collect())
}

mod bodies;
mod contact;
mod continuous;
mod discrete;
mod forces;
mod geometry;
mod joints;
mod nonlinear;
mod routing;
mod signals;
mod sources;

pub use bodies::{InfinitePlane, MechanismConfiguration, RigidTransform, Shape, Solid, WorldFrame};
pub use contact::{ContactGroup, GroundContact, ImpactOrder, RigidContact};
pub use continuous::{Pid, StateSpace, TransferFunction};
pub use discrete::{UnitDelay, ZeroOrderHold};
pub use forces::{
    ExternalForceTorque, FrictionLaw, HuntCrossleyLaw, NormalLaw, ResolvedIn, SmoothLaw,
    SmoothStickSlipLaw, SpatialContactForce, SpringDamper, StribeckLaw, TransformSensor,
};
pub use geometry::{CollisionGeometry, Disk, GridSurface, Point, PointCloud};
pub use joints::{
    Joint, JointLimits, MultiAxisJoint, RigidLimits, SixDofJoint, SphericalJoint,
    SpringDamperLimits, WeldJoint,
};
pub use nonlinear::{Abs, CrossingDirection, HitCrossing, MinMax, Product, Relay};
pub use routing::{Demux, Inport, Mux, Outport, Selector, Switch, Terminator};
pub use signals::{Constant, Fcn, Gain, Integrator, Saturation, Scope, Sine, Step, Sum};
pub use sources::{Clock, FromTable, PulseGenerator, Ramp};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::ModelBuilder;

    /// Tables written as a model file writes them: a matrix gain's rows, a limit's and a law's
    /// entries, a convex hull's points.
    #[test]
    fn typed_values_are_the_tables_a_file_writes() {
        let matrix = BlockSpec::from(Gain::matrix(&[[1.0, 2.0], [3.0, 4.0]]));
        let rows = ParamValue::Array(vec![[1.0, 2.0].into(), [3.0, 4.0].into()]);
        assert_eq!(matrix, BlockSpec::of_type("Gain").param("gain", rows));

        let joint =
            Joint::prismatic().limits(JointLimits::spring_damper(1e4).upper(0.3).damping(5.0));
        let limits = table([
            ("method", "spring_damper".into()),
            ("stiffness", 1e4.into()),
            ("upper", 0.3.into()),
            ("damping", 5.0.into()),
        ]);
        assert_eq!(
            BlockSpec::from(joint),
            BlockSpec::of_type("PrismaticJoint").param("limits", limits)
        );

        let law = NormalLaw::hunt_crossley(1e7, 0.5)
            .exponent(1.5)
            .exponent(1.4);
        let contact = SpatialContactForce::new(law).single_point();
        let normal = table([
            ("method", "hunt_crossley".into()),
            ("stiffness", 1e7.into()),
            ("damping", 0.5.into()),
            ("exponent", 1.4.into()),
        ]);
        let expected = BlockSpec::of_type("SpatialContactForce")
            .param("normal", normal)
            .param("contact_points", "single");
        assert_eq!(BlockSpec::from(contact), expected);

        let hull = Solid::new(Shape::convex_hull(&[[0.0; 3], [1.0, 0.0, 0.0]])).density(500.0);
        let points = ParamValue::Array(vec![[0.0; 3].into(), [1.0, 0.0, 0.0].into()]);
        let geometry = table([("shape", "convex_hull".into()), ("points", points)]);
        let expected = BlockSpec::of_type("Solid")
            .param("geometry", geometry)
            .param("density", 500.0);
        assert_eq!(BlockSpec::from(hull), expected);
    }

    /// Signal blocks from their typed constructors, against a closed form: x' = k·(A·sin(ωt) + b),
    /// x(0) = 1, gives x(t) = 1 + k·(A·(1 − cos ωt)/ω + b·t). dopri5 at rel_tol 1e-10: x(1 s)
    /// within 1e-8.
    #[test]
    fn a_typed_signal_diagram_integrates_its_closed_form() {
        let (amplitude, omega, bias, k) = (2.0, 3.0, 0.5, 1.5);
        let mut m = ModelBuilder::new("typed_signals", 1.0);
        m.solver("rel_tol", 1e-10).solver("abs_tol", 1e-12);
        let wave = m.add("wave", Sine::new(amplitude, omega).bias(bias));
        let scale = m.add("scale", Fcn::new("k*u[0]", 1).constant("k", k));
        let x = m.add("x", Integrator::new(1.0));
        let scope = m.add("scope", Scope::new(1));
        m.connect(wave.port("out"), scale.port("in"))
            .connect(scale.port("out"), x.port("in"))
            .connect(x.port("out"), scope.port("in1"));
        let run = crate::simulate(&m.build().expect("builds"), Default::default()).expect("runs");
        let last = *x
            .column(&run.recording, "out")
            .expect("recorded")
            .last()
            .unwrap();
        let exact = 1.0 + k * (amplitude * (1.0 - omega.cos()) / omega + bias);
        assert!((last - exact).abs() < 1e-8, "{last} against {exact}");
    }

    /// Every constructor and setter, each used once, writes keys its block type declares (and
    /// every library type has a constructor but Urdf, a robot expanded from its file when the
    /// model is read), and
    /// every law and limit table builds: a ball on a plane (and on a hinge) with each normal law,
    /// friction law and limit kind, every setter of each applied.
    #[test]
    fn every_setter_writes_a_key_the_block_accepts() {
        let registry = crate::library::Registry::standard();
        let specs: Vec<BlockSpec> = vec![
            Constant::vector(&[1.0, 2.0]).into(),
            Step::new().time(0.5).before(1.0).after(2.0).into(),
            Sine::new(1.0, 2.0).phase(0.1).bias(0.2).into(),
            Gain::elementwise(&[1.0, 2.0]).into(),
            Sum::new("+-").into(),
            Integrator::new(0.0)
                .lower_limit(-1.0)
                .upper_limit(1.0)
                .into(),
            Saturation::new(-1.0, 1.0).into(),
            Fcn::new("k*u[0]", 1).constant("k", 2.0).into(),
            Scope::new(2).into(),
            WorldFrame::new().into(),
            MechanismConfiguration::new([0.0, 0.0, -9.81]).into(),
            RigidTransform::new([0.0; 3])
                .rotation_axis_angle([0.0, 0.0, 1.0], 0.5)
                .into(),
            RigidTransform::new([0.0; 3])
                .rotation_sequence("xyz", [0.1, 0.2, 0.3])
                .into(),
            RigidTransform::new([0.0; 3])
                .rotation_matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
                .into(),
            Solid::new(Shape::cylinder(0.1, 0.2))
                .mass(1.0)
                .center_of_mass([0.0; 3])
                .inertia([1.0; 3])
                .into(),
            Solid::new(Shape::sphere(0.1))
                .inertia_matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
                .into(),
            InfinitePlane::new().into(),
            Joint::revolute()
                .q0(0.1)
                .w0(0.2)
                .stiffness(1.0)
                .damping(0.1)
                .actuated()
                .into(),
            Joint::prismatic().into(),
            SixDofJoint::new([0.0; 3])
                .orientation([1.0, 0.0, 0.0, 0.0])
                .velocity([0.0; 3])
                .angular_velocity([0.0; 3])
                .stiffness(1.0)
                .damping(0.1)
                .actuated()
                .into(),
            WeldJoint::new().into(),
            SpringDamper::new(1.0).damping(0.1).free_length(0.5).into(),
            SpatialContactForce::new(NormalLaw::input())
                .zero_crossings(true)
                .kink_crossings(false)
                .into(),
            ExternalForceTorque::new(ResolvedIn::Own).into(),
            TransformSensor::new(ResolvedIn::World).into(),
            Ramp::new(2.0).start_time(0.5).initial_output(1.0).into(),
            Clock::new().into(),
            PulseGenerator::new(1.0, 0.5)
                .pulse_width(25.0)
                .phase_delay(0.1)
                .into(),
            FromTable::new(&[0.0, 1.0], &[1.0, 2.0]).hold().into(),
            FromTable::rows(&[0.0, 1.0], &[[1.0, 2.0], [3.0, 4.0]]).into(),
            TransferFunction::new(&[1.0], &[1.0, 1.0]).into(),
            StateSpace::new(&[[-1.0]], &[[1.0]], &[[1.0]])
                .feedthrough(&[[0.5]])
                .initial(&[0.0])
                .into(),
            Pid::new(1.0, 0.5, 0.1)
                .filter(50.0)
                .initial_integral(0.1)
                .initial_filter(0.2)
                .into(),
            ZeroOrderHold::new(0.1).offset(0.05).into(),
            UnitDelay::new(0.1).offset(0.05).initial(1.0).into(),
            UnitDelay::new(0.1).initial_vector(&[1.0, 2.0]).into(),
            Product::new(2).into(),
            Product::operations("*/").into(),
            Abs::new().into(),
            MinMax::min(2).into(),
            MinMax::max(1).into(),
            Relay::new(1.0, -1.0)
                .on_value(2.0)
                .off_value(-2.0)
                .initially_on()
                .into(),
            HitCrossing::new(0.5)
                .direction(CrossingDirection::Rising)
                .into(),
            Mux::new(3).into(),
            Demux::new(2).into(),
            Demux::sizes(&[2, 1]).into(),
            Selector::new(&[0, 2]).into(),
            Switch::at_least(0.5).into(),
            Switch::above(0.5).into(),
            Switch::nonzero().into(),
            Terminator::new().into(),
            Inport::width(3).into(),
            Outport::new().into(),
            SphericalJoint::new()
                .orientation([1.0, 0.0, 0.0, 0.0])
                .angular_velocity([0.0; 3])
                .stiffness(1.0)
                .damping(0.1)
                .actuated()
                .into(),
            Joint::cylindrical()
                .q0([0.1, 0.2])
                .w0([0.0; 2])
                .stiffness(1.0)
                .damping(0.1)
                .actuated()
                .into(),
            Joint::universal()
                .stiffness_per_axis([1.0, 2.0])
                .damping_per_axis([0.1, 0.2])
                .into(),
            Joint::planar().q0([0.0; 3]).w0([0.0; 3]).into(),
            Disk::new(0.1).into(),
            GridSurface::new(&[0.0, 1.0], &[0.0, 1.0], &[[0.0, 0.0], [0.0, 0.1]]).into(),
            CollisionGeometry::new(Shape::brick([0.1; 3])).into(),
            Point::new().into(),
            PointCloud::new(&[[0.0; 3], [0.1, 0.0, 0.0]]).into(),
            RigidContact::new()
                .restitution(0.5)
                .rest_velocity(1e-3)
                .coulomb_friction(0.3)
                .impacts(ImpactOrder::Simultaneous)
                .into(),
            RigidContact::new().frictionless().into(),
            ContactGroup::new(&["ball*", "floor"], NormalLaw::linear(1e5, 10.0))
                .friction(FrictionLaw::none())
                .exclude("ball0", "floor")
                .zero_crossings(true)
                .margin(1e-3)
                .into(),
            GroundContact::new(1e6, 1e3)
                .friction(0.5)
                .zero_crossings(false)
                .planar()
                .into(),
        ];
        let uncovered: Vec<&str> = registry
            .all()
            .map(|t| t.name)
            .filter(|name| !specs.iter().any(|s| s.type_name == *name))
            .collect();
        assert!(
            uncovered.is_empty(),
            "library types without a typed constructor: {uncovered:?}"
        );
        for spec in &specs {
            let block_type = registry.find(&spec.type_name).expect("a library type");
            for (key, _) in spec.params.entries() {
                assert!(
                    block_type.params.iter().any(|p| p.name == key),
                    "{}: '{key}' is not a parameter of the type",
                    spec.type_name
                );
            }
            // The typed path: the constructor reads every key set, from the typed values.
            if let Err(e) = spec.build(registry) {
                panic!("{}: {e}", spec.type_name);
            }
        }

        let normals = [
            NormalLaw::linear(1e5, 10.0),
            NormalLaw::linear_limited_damper(1e5, 10.0),
            NormalLaw::smooth(1e5, 10.0).transition_width(1e-4).into(),
            NormalLaw::hunt_crossley(1e7, 0.5)
                .exponent(1.5)
                .velocity_exponent(1.0)
                .depth_exponent(1.5)
                .into(),
        ];
        let frictions = [
            FrictionLaw::none(),
            FrictionLaw::smooth_stick_slip(0.5, 0.3)
                .critical_velocity(1e-3)
                .into(),
            FrictionLaw::stribeck(0.5, 0.3)
                .stiction_velocity(1e-4)
                .into(),
        ];
        for normal in &normals {
            for friction in &frictions {
                let contact = SpatialContactForce::new(normal.clone()).friction(friction.clone());
                let mut m = ModelBuilder::new("laws", 0.1);
                let world = m.add("world", WorldFrame::new());
                let floor = m.add("floor", InfinitePlane::new());
                let ball = m.add("ball", Solid::new(Shape::sphere(0.1)).mass(1.0));
                let free = m.add("free", SixDofJoint::new([0.0, 0.0, 0.5]));
                let contact = m.add("contact", contact);
                m.attach(world.port("W"), floor.port("R"))
                    .attach(world.port("W"), free.port("B"))
                    .attach(free.port("F"), ball.port("R"))
                    .attach(floor.port("G"), contact.port("B"))
                    .attach(ball.port("G"), contact.port("F"));
                if let Err(e) = m.build() {
                    panic!("{normal:?} with {friction:?}: {e}");
                }
            }
        }
        let limits: [JointLimits; 2] = [
            JointLimits::rigid()
                .lower(-1.0)
                .upper(1.0)
                .restitution(0.5)
                .rest_velocity(1e-3)
                .into(),
            JointLimits::spring_damper(1e3)
                .lower(-1.0)
                .upper(1.0)
                .damping(1.0)
                .into(),
        ];
        for limit in limits {
            let mut m = ModelBuilder::new("limits", 0.1);
            let world = m.add("world", WorldFrame::new());
            let hinge = m.add("hinge", Joint::revolute().limits(limit.clone()));
            let arm = m.add("arm", RigidTransform::new([1.0, 0.0, 0.0]));
            let bob = m.add(
                "bob",
                Solid::new(Shape::ellipsoid([0.1, 0.1, 0.2])).mass(1.0),
            );
            m.attach(world.port("W"), hinge.port("B"))
                .attach(hinge.port("F"), arm.port("B"))
                .attach(arm.port("F"), bob.port("R"));
            if let Err(e) = m.build() {
                panic!("{limit:?}: {e}");
            }
        }
    }
}

#[cfg(test)]
mod checks;
