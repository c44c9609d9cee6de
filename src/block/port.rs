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

/// One declared port.
#[derive(Clone, Debug, PartialEq)]
pub struct PortDecl {
    pub name: String,
    pub kind: PortKind,
    /// For signal ports.
    pub shape: ShapeSpec,
    /// Physical unit, e.g. "N", shown in plots and docs.
    pub unit: Option<&'static str>,
    /// An input that may stay unconnected (it then reads zeros).
    pub optional: bool,
    /// Hidden ports are made by the diagram builder (mechanism wiring) and not shown to users.
    pub hidden: bool,
}

impl PortDecl {
    /// A signal port of fixed shape.
    pub fn signal(name: impl Into<String>, shape: Shape) -> Self {
        PortDecl {
            name: name.into(),
            kind: PortKind::Signal,
            shape: ShapeSpec::Fixed(shape),
            unit: None,
            optional: false,
            hidden: false,
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

    /// As an optional input.
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// As a hidden (builder-made) port.
    pub fn hidden(mut self) -> Self {
        self.hidden = true;
        self
    }
}
