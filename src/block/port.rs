//! Port declarations: what a block exposes to connections.

use super::shape::Shape;

/// The three kinds of port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortKind {
    /// A directed f64 array with a fixed shape.
    Signal,
    /// An undirected physical connection between coincident frames.
    Frame,
    /// An undirected physical connection from a solid or geometry block to a contact block.
    Geometry,
}

impl PortKind {
    /// Lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            PortKind::Signal => "signal",
            PortKind::Frame => "frame",
            PortKind::Geometry => "geometry",
        }
    }
}

/// The shape a signal port carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeSpec {
    /// Always this shape.
    Fixed(Shape),
    /// Decided from other ports during shape propagation (see [`super::Block::propagate_shapes`]).
    Inherited,
}

/// What an animation draws from an output (see `sim::animation`): a block's outputs say so by
/// this role, so that the drawing never goes by their names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawnAs {
    /// 3×1, World, N: a resultant force, drawn at the block's [`DrawnAs::ResultantPoint`].
    ResultantForce,
    /// 3×1, World, m: where the resultant force is drawn.
    ResultantPoint,
    /// 3×N, World, N: one force per point of the point or point cloud on the block's `F` port.
    PointForces,
}

/// What a builder-made (hidden) port carries. The physical lowering pass wires hidden ports by
/// this, never by their names (which are only shown in messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HiddenPort {
    /// Input: the kinematics (18×1, see [`super::physical`]) of the body that the block's
    /// physical port `port` is fixed to.
    BodyKinematics {
        /// The block's physical (frame or geometry) port.
        port: String,
    },
    /// Output: a wrench (6×1) applied to the body that the block's physical port `port` is fixed to.
    BodyWrench {
        /// The block's physical (frame or geometry) port.
        port: String,
    },
    /// Input: the bound joint's state (its positions, then its velocities).
    JointState,
    /// Output: the bound joint's actuation (force or torque per velocity coordinate).
    JointActuation,
    /// Output: the bound joint's motion reference `[q_ref; w_ref; a_ref]` (3·nv values).
    JointMotion,
    /// Input: the bound joint's actuator forces and reaction wrench `[τ_act (nv); f (3); n (3)]`,
    /// the reaction resolved in `frame`.
    JointDrive {
        /// The frame the reaction is resolved in.
        frame: crate::multibody::ReactionFrame,
    },
    /// Input: the solved state of the block's rigid contact pair or joint limit (see
    /// [`crate::multibody::rigid`]), from the mechanism that solves it.
    RigidConstraint,
    /// A port of the mechanism block itself, wired by index by the lowering pass.
    Mechanism,
}

/// One declared port.
#[derive(Clone, Debug, PartialEq)]
pub struct PortDecl {
    /// The name models write after the block's (`block.port`).
    pub name: String,
    /// Signal input or output, or physical frame or geometry.
    pub kind: PortKind,
    /// For signal ports.
    pub shape: ShapeSpec,
    /// Physical unit, e.g. "N", shown in plots and docs.
    pub unit: Option<&'static str>,
    /// Per-element units of a vector whose elements differ (a planar joint's `q`: x and y in m,
    /// θ in rad); `None` when every element has [`unit`](Self::unit).
    pub element_units: Option<&'static [&'static str]>,
    /// An input that may stay unconnected (it then reads zeros).
    pub optional: bool,
    /// Hidden ports are made by the diagram builder (mechanism wiring) and not shown to users;
    /// what they carry.
    pub hidden: Option<HiddenPort>,
    /// An output an animation draws, and as what.
    pub drawn: Option<DrawnAs>,
}

impl PortDecl {
    /// A signal port of fixed shape.
    pub fn signal(name: impl Into<String>, shape: Shape) -> Self {
        PortDecl {
            name: name.into(),
            kind: PortKind::Signal,
            shape: ShapeSpec::Fixed(shape),
            unit: None,
            element_units: None,
            optional: false,
            hidden: None,
            drawn: None,
        }
    }

    /// A scalar signal port.
    pub fn scalar(name: impl Into<String>) -> Self {
        Self::signal(name, Shape::SCALAR)
    }

    /// A signal port whose shape is propagated.
    pub fn inherited(name: impl Into<String>) -> Self {
        PortDecl {
            shape: ShapeSpec::Inherited,
            ..Self::scalar(name)
        }
    }

    /// A frame port.
    pub fn frame(name: impl Into<String>) -> Self {
        PortDecl {
            kind: PortKind::Frame,
            ..Self::scalar(name)
        }
    }

    /// A geometry port.
    pub fn geometry(name: impl Into<String>) -> Self {
        PortDecl {
            kind: PortKind::Geometry,
            ..Self::scalar(name)
        }
    }

    /// With a unit.
    pub fn unit(mut self, unit: &'static str) -> Self {
        self.unit = Some(unit);
        self
    }

    /// Drawn by animations as `role`.
    pub fn drawn(mut self, role: DrawnAs) -> Self {
        self.drawn = Some(role);
        self
    }

    /// With one unit per element (a vector whose elements differ in kind).
    pub fn element_units(mut self, units: &'static [&'static str]) -> Self {
        self.element_units = Some(units);
        self
    }

    /// The unit of element `k`: its own when the port has per-element units, else the port's.
    pub fn unit_of(&self, k: usize) -> Option<&'static str> {
        match self.element_units {
            Some(units) => units.get(k).copied().filter(|u| !u.is_empty()),
            None => self.unit,
        }
    }

    /// As an optional input.
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// As a hidden (builder-made) port carrying `what`.
    pub fn hidden(mut self, what: HiddenPort) -> Self {
        self.hidden = Some(what);
        self
    }

    /// Whether the port is hidden (made by the builder, not shown to users).
    pub fn is_hidden(&self) -> bool {
        self.hidden.is_some()
    }

    /// A hidden input reading the kinematics of the body that physical port `port` is fixed to.
    pub fn body_kinematics(port: &str) -> Self {
        Self::signal(
            format!("kin_{port}"),
            Shape::vector(super::physical::KINEMATICS_LEN),
        )
        .hidden(HiddenPort::BodyKinematics {
            port: port.to_string(),
        })
    }

    /// A hidden output applying a wrench to the body that physical port `port` is fixed to.
    pub fn body_wrench(port: &str) -> Self {
        Self::signal(
            format!("wrench_{port}"),
            Shape::vector(super::physical::WRENCH_LEN),
        )
        .hidden(HiddenPort::BodyWrench {
            port: port.to_string(),
        })
    }
}
