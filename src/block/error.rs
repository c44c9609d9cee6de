//! Why a block refuses its binding or its port shapes: [`BlockError`], what [`PhysicalBlock::bind`],
//! [`Block::propagate_shapes`] and [`Block::setup`] return.
//!
//! The diagram build locates the error (file, line, block) in a
//! [`Diagnostic`](crate::model::Diagnostic), which keeps it: a program matches on
//! [`Diagnostic::block_error`](crate::model::Diagnostic::block_error).
//!
//! [`PhysicalBlock::bind`]: super::PhysicalBlock::bind
//! [`Block::propagate_shapes`]: super::Block::propagate_shapes
//! [`Block::setup`]: super::Block::setup

use super::Shape;
use crate::geometry::kind::partners_list;
use crate::geometry::ShapeKind;
use thiserror::Error;

/// What is wrong with a block's ports, shapes or binding. The text (`Display`) is the message the
/// command line prints after the block's place and name; [`BlockError::hint`] says what to write
/// instead, when the error knows.
///
/// Shapes are `rows×columns` ([`Shape`]); ports are named as the block declares them (`in`, `x0`,
/// `out2`); geometries by their label (`ball.G`).
///
/// Non-exhaustive: a match needs a `_` arm, so that a variant added for a new kind of failure
/// does not break it.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum BlockError {
    // ------------------------------------------------------------------ shapes
    /// Two ports that must have the same shape (inherited ports of an element-wise block) do not.
    #[error("port '{port}' is {shape} but another port of this block is {other}")]
    PortsDisagree {
        /// The port found to disagree.
        port: String,
        /// Its shape.
        shape: Shape,
        /// The shape of the other port(s).
        other: Shape,
    },
    /// Two inputs of an element-wise block whose shapes cannot be broadcast to a common one
    /// (neither is 1×1 and they differ).
    #[error("inputs of shapes {first} and {second} cannot be combined element-wise (only a 1×1 input is broadcast)")]
    NotBroadcastable {
        /// One input's shape.
        first: Shape,
        /// Another input's shape, different from `first`.
        second: Shape,
    },
    /// An input whose shape must be the output's (or 1×1, when `scalar_ok`).
    #[error(
        "input '{port}' is {found} but the output is {output}; {}",
        if_else(*.scalar_ok, "element-wise inputs must match or be 1×1", "they must match")
    )]
    InputShape {
        /// The input port.
        port: String,
        /// The input's shape.
        found: Shape,
        /// The output's shape, which the input must have.
        output: Shape,
        /// Whether a 1×1 input is also accepted (broadcast to every element).
        scalar_ok: bool,
    },
    /// An input that must be a scalar (1×1): a control or reset signal.
    #[error("input '{port}' must be 1×1, not {found}")]
    NotScalar {
        /// The input port.
        port: String,
        /// Its shape.
        found: Shape,
    },
    /// A parameter with one value per element whose number of values is not the signal's number
    /// of elements (nor 1, when `single_ok`).
    #[error(
        "'{param}' has {len} values but the signal has {elements} elements; give one per element{}",
        if_else(*.single_ok, " or a single number", "")
    )]
    ParamLength {
        /// The parameter's name as written in the model.
        param: String,
        /// How many values it has.
        len: usize,
        /// How many elements the signal it applies to has.
        elements: usize,
        /// Whether a single number (the same for every element) is also accepted.
        single_ok: bool,
    },
    /// An output whose number of elements is not what the block produces there (a Mux's total,
    /// a Demux part).
    #[error("output '{port}' is {found} but it must have {expected} elements")]
    OutputLength {
        /// The output port.
        port: String,
        /// The shape it was given.
        found: Shape,
        /// The number of elements the block produces on it.
        expected: usize,
    },
    /// Part sizes (a Demux's `sizes`) that do not add up to the input's number of elements.
    #[error("'sizes' add up to {sum} but the input has {elements} elements")]
    SizesSum {
        /// The sum of the sizes.
        sum: usize,
        /// The input's number of elements.
        elements: usize,
    },
    /// An input that cannot be split into the given number of equal parts.
    #[error(
        "the input's {elements} elements cannot be split into {parts} equal parts; give 'sizes'"
    )]
    UnequalParts {
        /// The input's number of elements.
        elements: usize,
        /// The number of parts (outputs).
        parts: usize,
    },
    /// An element index (0-based) beyond the input's last element.
    #[error("index {index} in '{param}' is out of range for a {shape} input (0..{len})", len = .shape.len())]
    IndexOutOfRange {
        /// The parameter listing the indices.
        param: String,
        /// The offending index (0-based, column-major).
        index: usize,
        /// The input's shape.
        shape: Shape,
    },

    // ----------------------------------------------------------------- binding
    /// A physical port the block needs was not bound to a frame of the mechanism (a fault of the
    /// build, not of the model).
    #[error("internal: physical port '{port}' was not bound")]
    PortNotBound {
        /// The physical port.
        port: String,
    },
    /// A joint block bound without a joint of the mechanism (a fault of the build).
    #[error("internal: joint bound without a joint index")]
    NotAJoint,
    /// A geometry port left unconnected.
    #[error("geometry port {port} is not connected")]
    GeometryNotConnected {
        /// The geometry port.
        port: String,
    },
    /// A port connected to something other than a geometry.
    #[error("port {port} has no geometry")]
    NoGeometry {
        /// The port.
        port: String,
    },
    /// The block was set up without the geometries it binds to (a fault of the build: binding
    /// reports a missing geometry first).
    #[error("the block is not connected to {needs}")]
    MissingGeometry {
        /// What it needs (`two geometries`).
        needs: &'static str,
    },
    /// A geometry of a kind the block does not take.
    #[error("{geometry} is a {}: {accepts}", .kind.name())]
    GeometryNotAccepted {
        /// The geometry's label (`ball.G`).
        geometry: String,
        /// Its kind.
        kind: ShapeKind,
        /// What the block takes (`rigid contact takes solids, disks, ...`).
        accepts: &'static str,
        /// What to connect instead.
        instead: &'static str,
    },
    /// A point cloud with more points than the block takes.
    #[error("{geometry} has {points} points: rigid contact takes point clouds of at most {max} (every point is a row of a dense complementarity problem)")]
    TooManyPoints {
        /// The point cloud's label.
        geometry: String,
        /// Its number of points.
        points: usize,
        /// The most the block takes.
        max: usize,
    },
    /// Two geometries whose kinds have no contact query.
    #[error("contact between {base} ({}) and {follower} ({}) is not supported", .base_kind.name(), .follower_kind.name())]
    UnsupportedPair {
        /// The base geometry's label.
        base: String,
        /// Its kind.
        base_kind: ShapeKind,
        /// The follower geometry's label.
        follower: String,
        /// Its kind.
        follower_kind: ShapeKind,
    },
    /// The two geometries of a contact are fixed to the same rigid body.
    #[error("{base} and {follower} are on the same rigid body: contact between them exerts no net force")]
    SameBody {
        /// The base geometry's label.
        base: String,
        /// The follower geometry's label.
        follower: String,
    },
    /// A geometry fixed to the World where the block needs one that moves.
    #[error("{geometry} is fixed to the World: the ground cannot push it")]
    FixedToWorld {
        /// The geometry's label.
        geometry: String,
    },

    // ------------------------------------------------------------------- other
    /// A block's own message, for what no variant above describes (a user's block type).
    #[error("{message}")]
    Other {
        /// What is wrong.
        message: String,
    },
}

/// `yes` when `b`, else `no` (for the messages above).
fn if_else(b: bool, yes: &'static str, no: &'static str) -> &'static str {
    if b {
        yes
    } else {
        no
    }
}

impl BlockError {
    /// A block's own message ([`BlockError::Other`]).
    pub fn other(message: impl Into<String>) -> Self {
        BlockError::Other {
            message: message.into(),
        }
    }

    /// The variant's name (`"InputShape"`, `"UnsupportedPair"`, …): what a program outside Rust
    /// (the Python package's `ModelError.kind`) matches on, since it cannot match the enum.
    pub fn kind(&self) -> &'static str {
        match self {
            BlockError::PortsDisagree { .. } => "PortsDisagree",
            BlockError::NotBroadcastable { .. } => "NotBroadcastable",
            BlockError::InputShape { .. } => "InputShape",
            BlockError::NotScalar { .. } => "NotScalar",
            BlockError::ParamLength { .. } => "ParamLength",
            BlockError::OutputLength { .. } => "OutputLength",
            BlockError::SizesSum { .. } => "SizesSum",
            BlockError::UnequalParts { .. } => "UnequalParts",
            BlockError::IndexOutOfRange { .. } => "IndexOutOfRange",
            BlockError::PortNotBound { .. } => "PortNotBound",
            BlockError::NotAJoint => "NotAJoint",
            BlockError::GeometryNotConnected { .. } => "GeometryNotConnected",
            BlockError::NoGeometry { .. } => "NoGeometry",
            BlockError::MissingGeometry { .. } => "MissingGeometry",
            BlockError::GeometryNotAccepted { .. } => "GeometryNotAccepted",
            BlockError::TooManyPoints { .. } => "TooManyPoints",
            BlockError::UnsupportedPair { .. } => "UnsupportedPair",
            BlockError::SameBody { .. } => "SameBody",
            BlockError::FixedToWorld { .. } => "FixedToWorld",
            BlockError::Other { .. } => "Other",
        }
    }

    /// What to write or connect instead, when the error knows.
    pub fn hint(&self) -> Option<String> {
        match self {
            BlockError::InputShape {
                port,
                output,
                scalar_ok,
                ..
            } => Some(format!(
                "connect a {output} signal to '{port}'{}",
                if *scalar_ok { " (or a 1×1 one)" } else { "" }
            )),
            BlockError::NotScalar { port, .. } => Some(format!("connect a 1×1 signal to '{port}'")),
            BlockError::ParamLength {
                param,
                elements,
                single_ok,
                ..
            } => Some(if *single_ok {
                format!("write {elements} values in '{param}', or one number for all")
            } else {
                format!("write {elements} values in '{param}'")
            }),
            BlockError::IndexOutOfRange { shape, .. } => Some(match shape.len() {
                0 => "the input has no elements".to_string(),
                n => format!("the indices of a {shape} input are 0 to {}", n - 1),
            }),
            BlockError::GeometryNotAccepted { instead, .. } => Some(instead.to_string()),
            BlockError::TooManyPoints { .. } => Some(
                "use fewer points, or a SpatialContactForce (penalty contact) for large clouds"
                    .into(),
            ),
            BlockError::UnsupportedPair {
                base_kind,
                follower_kind,
                ..
            } => Some(format!(
                "a {} supports contact with: {}; a {} supports: {}",
                base_kind.name(),
                partners_list(*base_kind),
                follower_kind.name(),
                partners_list(*follower_kind)
            )),
            _ => None,
        }
    }
}

impl From<String> for BlockError {
    /// [`BlockError::Other`] with the message.
    fn from(message: String) -> Self {
        BlockError::Other { message }
    }
}

impl From<&str> for BlockError {
    /// [`BlockError::Other`] with the message.
    fn from(message: &str) -> Self {
        BlockError::other(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kind` is the variant's name: the start of its `Debug` text.
    #[test]
    fn kind_is_the_variants_name() {
        let errors = [
            BlockError::ParamLength {
                param: "upper".into(),
                len: 3,
                elements: 2,
                single_ok: true,
            },
            BlockError::NotBroadcastable {
                first: Shape::vector(2),
                second: Shape::vector(3),
            },
            BlockError::NotAJoint,
            BlockError::other("mine"),
        ];
        for e in errors {
            assert!(format!("{e:?}").starts_with(e.kind()), "{e:?}");
        }
    }

    #[test]
    fn messages_read_as_before() {
        let e = BlockError::ParamLength {
            param: "upper".into(),
            len: 2,
            elements: 3,
            single_ok: true,
        };
        assert_eq!(
            e.to_string(),
            "'upper' has 2 values but the signal has 3 elements; give one per element or a single number"
        );
        let e = BlockError::InputShape {
            port: "in2".into(),
            found: Shape::vector(2),
            output: Shape::vector(3),
            scalar_ok: true,
        };
        assert_eq!(
            e.to_string(),
            "input 'in2' is 2×1 but the output is 3×1; element-wise inputs must match or be 1×1"
        );
        assert_eq!(
            e.hint().as_deref(),
            Some("connect a 3×1 signal to 'in2' (or a 1×1 one)")
        );
        let e = BlockError::IndexOutOfRange {
            param: "indices".into(),
            index: 4,
            shape: Shape::vector(3),
        };
        assert_eq!(
            e.to_string(),
            "index 4 in 'indices' is out of range for a 3×1 input (0..3)"
        );
        assert_eq!(BlockError::from("mine").to_string(), "mine");
    }
}
