//! RigidContact's parameters (`restitution`, `rest_velocity`, `friction`, `impacts`), declared
//! once: the RigidContact block and a ContactGroup with `contact = "rigid"` read them here, with
//! the same names, defaults, checks and documentation, and build their rigid pairs with
//! [`RigidParams::constraint`].

use crate::block::{BlockError, Param, ParamDoc};
use crate::geometry::Shape as Geometry;
use crate::multibody::rigid::{
    ConstraintKind, ImpactOrder, PairSide, RigidConstraint, RigidPair, MAX_CLOUD_POINTS,
};
use crate::param;
use crate::params::{ParamError, Params};

/// Newton's coefficient of restitution.
pub(crate) const RESTITUTION: Param<f64> = param!(
    "restitution",
    "",
    0.5,
    "Newton's coefficient e in [0, 1]: normal velocity after an impact = −e · before (with friction: reached after a compression phase, kinetic energy never growing)"; within(0, 1, "write e.g. restitution = 0.5 (0: plastic, 1: elastic)"),
);
/// The Zeno guard's speed.
pub(crate) const REST_VELOCITY: Param<f64> = param!(
    "rest_velocity",
    "m/s",
    1e-3,
    "impacts slower than this are plastic and leave the contact resting (the Zeno guard)"; non_negative,
);
/// How simultaneous impacts are resolved.
pub(crate) const IMPACTS: Param<&str> = param!(
    "impacts",
    "",
    "serial",
    "\"serial\": one pair at a time, fastest first, until nothing approaches | \"simultaneous\": one impulse problem over every touching point"; one_of(IMPACT_CHOICES),
);
const IMPACT_CHOICES: [&str; 2] = [ImpactOrder::Serial.name(), ImpactOrder::Simultaneous.name()];
/// `method` of the `friction` table.
const FRICTION_METHOD: Param<&str> = param!("method", "", "none", "\"none\" or \"coulomb\"");
/// The documentation of the `friction` table.
pub(crate) const FRICTION_DOC: ParamDoc = ParamDoc {
    name: "friction",
    unit: "",
    default: "none",
    doc: "{ method = \"none\" } | { method = \"coulomb\", coefficient = μ } (static = dynamic)",
};
/// The keys of a model file that only rigid contact reads (the friction table is shared by name
/// with the penalty laws).
pub(crate) const RIGID_ONLY_KEYS: [&str; 3] = ["restitution", "rest_velocity", "impacts"];

/// RigidContact's friction laws by name (`friction.method`): each name is written once, here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RigidFrictionMethod {
    /// `"none"` (the default): frictionless.
    #[default]
    None,
    /// `"coulomb"`: Coulomb's law with one coefficient μ (static = dynamic).
    Coulomb,
}

impl RigidFrictionMethod {
    /// Both methods, in the order the documentation lists them.
    pub const ALL: [RigidFrictionMethod; 2] =
        [RigidFrictionMethod::None, RigidFrictionMethod::Coulomb];

    /// The method's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            RigidFrictionMethod::None => "none",
            RigidFrictionMethod::Coulomb => "coulomb",
        }
    }
}

/// A ContactGroup's `contact` by name: its pairs' penalty laws or rigid pairs. Each name is
/// written once, here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ContactKind {
    /// `"penalty"` (the default): the normal and friction laws, as SpatialContactForce.
    #[default]
    Penalty,
    /// `"rigid"`: every pair a RigidContact pair, with [`RigidParams`].
    Rigid,
}

impl ContactKind {
    /// Both kinds, in the order the documentation lists them.
    pub const ALL: [ContactKind; 2] = [ContactKind::Penalty, ContactKind::Rigid];

    /// The kind's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            ContactKind::Penalty => "penalty",
            ContactKind::Rigid => "rigid",
        }
    }

    /// The kind of a group whose pairs are rigid when `rigid`.
    pub const fn of(rigid: bool) -> ContactKind {
        if rigid {
            ContactKind::Rigid
        } else {
            ContactKind::Penalty
        }
    }
}

/// The parameters of a rigid pair, as written (see the constants above for each one's meaning).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RigidParams {
    /// Newton's coefficient e in [0, 1].
    pub(crate) restitution: f64,
    /// Impacts slower than this are plastic (m/s).
    pub(crate) rest_velocity: f64,
    /// Coulomb's μ (static = dynamic); 0 without friction.
    pub(crate) friction: f64,
    /// How simultaneous impacts are resolved.
    pub(crate) impacts: ImpactOrder,
}

impl RigidParams {
    /// The documentation of the four parameters, in the order RigidContact lists them.
    pub(crate) const DOCS: [ParamDoc; 4] = [
        RESTITUTION.doc,
        REST_VELOCITY.doc,
        FRICTION_DOC,
        IMPACTS.doc,
    ];

    /// Reads `restitution`, `rest_velocity`, `friction = { method, coefficient }` and `impacts`.
    pub(crate) fn read(p: &Params) -> Result<Self, ParamError> {
        let restitution = RESTITUTION.read(p)?;
        let rest_velocity = REST_VELOCITY.read(p)?;
        let friction = match p.table("friction")? {
            None => 0.0,
            Some(t) => {
                let method = t.choice_value(
                    FRICTION_METHOD.name(),
                    &RigidFrictionMethod::ALL.map(|m| (m.name(), m)),
                    RigidFrictionMethod::default(),
                )?;
                let mu = if method == RigidFrictionMethod::Coulomb {
                    let mu = t.required_f64("coefficient", "Coulomb's μ, e.g. 0.5")?;
                    t.ensure(
                        mu >= 0.0,
                        "coefficient",
                        "the friction coefficient must not be negative",
                        "write e.g. coefficient = 0.5",
                    )?;
                    mu
                } else {
                    0.0
                };
                t.finish()?;
                mu
            }
        };
        let impacts = p.choice_value(
            IMPACTS.name(),
            &ImpactOrder::ALL.map(|o| (o.name(), o)),
            ImpactOrder::default(),
        )?;
        Ok(RigidParams {
            restitution,
            rest_velocity,
            friction,
            impacts,
        })
    }

    /// The rigid pair of `base` and `follower` (the normal points from the base into the
    /// follower) with these parameters; `label` names it in messages (the binding prefixes the
    /// block's name).
    pub(crate) fn constraint(
        &self,
        base: PairSide,
        follower: PairSide,
        label: String,
    ) -> RigidConstraint {
        RigidConstraint {
            label,
            kind: ConstraintKind::Contact(Box::new(RigidPair {
                base,
                follower,
                friction: self.friction,
                impacts: self.impacts,
                broad_phase: false,
            })),
            restitution: self.restitution,
            rest_velocity: self.rest_velocity,
        }
    }
}

/// Refuses a geometry that rigid contact does not take: a grid surface, or a point cloud of more
/// than [`MAX_CLOUD_POINTS`] points. `label` names the geometry (`block.G`).
pub(crate) fn check_rigid_geometry(shape: &Geometry, label: &str) -> Result<(), BlockError> {
    if matches!(shape, Geometry::GridSurface(_)) {
        return Err(BlockError::GeometryNotAccepted {
            geometry: label.to_string(),
            kind: shape.kind(),
            accepts: "rigid contact takes solids, disks, planes, points and point clouds",
            instead: "use a SpatialContactForce (penalty contact) for grid surfaces",
        });
    }
    if let Geometry::PointCloud(cloud) = shape {
        if cloud.len() > MAX_CLOUD_POINTS {
            return Err(BlockError::TooManyPoints {
                geometry: label.to_string(),
                points: cloud.len(),
                max: MAX_CLOUD_POINTS,
            });
        }
    }
    Ok(())
}
