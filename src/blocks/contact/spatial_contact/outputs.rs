//! SpatialContactForce's ports, listed once: each port's name, kind, size, unit, drawing role
//! and documentation are one row of [`INPUTS`] or of the `outputs!` list below. The output
//! indices (`CONTACT` … `POINTS`), the port declarations the block makes, the shapes it
//! propagates and the rows `blockdyn blocks` prints ([`PORT_DOCS`]) all come from these rows.
//!
//! Sizes, for a pair with N contact points (N the point cloud's size, 1 for a pair of bounded
//! geometries): a per-point port is `rows × N`, the rotations are N 3×3 matrices side by side
//! (`3 × 3N`), and a fixed port is `rows × 1` whatever N.

use crate::block::{DrawnAs, PortDecl, PortDoc, Shape};

/// How a port's size follows the number N of contact points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Size {
    /// `rows × N`: one column per contact point.
    PerPoint(usize),
    /// `3 × 3N`: one 3×3 rotation matrix per contact point, side by side.
    Rotations,
    /// `rows × 1`, whatever N.
    Fixed(usize),
    /// A geometry port (no values).
    Geometry,
}

impl Size {
    /// The shape for N = `points` contact points.
    pub(super) const fn shape(self, points: usize) -> Shape {
        match self {
            Size::PerPoint(rows) => Shape::new(rows, points),
            Size::Rotations => Shape::new(3, 3 * points),
            Size::Fixed(rows) => Shape::vector(rows),
            Size::Geometry => Shape::new(0, 0),
        }
    }

    /// The size as the documentation writes it. Evaluated when [`PORT_DOCS`] is (at compile
    /// time), so a size without a text here does not compile.
    const fn text(self) -> &'static str {
        match self {
            Size::PerPoint(1) => "1×1 or 1×N",
            Size::PerPoint(2) => "2×1 or 2×N",
            Size::PerPoint(3) => "3×1 or 3×N",
            Size::Rotations => "3×3 or 3×3N",
            Size::Fixed(1) => "1×1",
            Size::Fixed(3) => "3×1",
            Size::Geometry => "",
            Size::PerPoint(_) | Size::Fixed(_) => panic!("a port size without a documented text"),
        }
    }
}

/// One port of the block.
#[derive(Clone, Copy, Debug)]
pub(super) struct Port {
    /// The port's name.
    pub name: &'static str,
    /// "geometry", "input" or "output" (the documentation's kind).
    pub kind: &'static str,
    /// How its size follows the number of contact points.
    pub size: Size,
    /// The unit of its values ("" when dimensionless or not a quantity).
    pub unit: &'static str,
    /// What an animation draws from it, if anything.
    pub drawn: Option<DrawnAs>,
    /// What it carries.
    pub doc: &'static str,
}

impl Port {
    /// The declaration of a signal port (its shape inherited, set by `propagate_shapes`).
    pub(super) fn decl(&self) -> PortDecl {
        let mut d = PortDecl::inherited(self.name);
        if !self.unit.is_empty() {
            d = d.unit(self.unit);
        }
        match self.drawn {
            Some(role) => d.drawn(role),
            None => d,
        }
    }

    /// The documentation row.
    const fn port_doc(&self) -> PortDoc {
        PortDoc {
            name: self.name,
            kind: self.kind,
            shape: self.size.text(),
            unit: self.unit,
            doc: self.doc,
        }
    }
}

/// A row of [`INPUTS`].
const fn input(
    name: &'static str,
    kind: &'static str,
    size: Size,
    unit: &'static str,
    doc: &'static str,
) -> Port {
    Port {
        name,
        kind,
        size,
        unit,
        drawn: None,
        doc,
    }
}

/// The geometry ports and the inputs by which the forces may be given, in the documentation's
/// order: B, F, then `fn` and `ff` (each present only when its law is `"input"`).
pub(super) const INPUTS: [Port; 4] = [
    input("B", "geometry", Size::Geometry, "", "base geometry"),
    input("F", "geometry", Size::Geometry, "", "follower geometry"),
    input(
        "fn",
        "input",
        Size::PerPoint(1),
        "N",
        "normal force magnitude (normal method \"input\"; negative values clipped to 0)",
    ),
    input(
        "ff",
        "input",
        Size::PerPoint(2),
        "N",
        "friction force x, y in the contact frame (friction method \"input\")",
    ),
];
/// The `fn` input's row.
pub(super) const FN_INPUT: Port = INPUTS[2];
/// The `ff` input's row.
pub(super) const FF_INPUT: Port = INPUTS[3];

/// Declares the outputs, one row each: the index constant, then the port.
macro_rules! outputs {
    ($($index:ident: $name:literal, $size:expr, $unit:literal, $drawn:expr, $doc:literal;)*) => {
        /// The outputs' positions, in the order of the rows.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Index { $($index,)* }
        $(
            #[doc = concat!("The index of output `", $name, "`.")]
            pub(crate) const $index: usize = Index::$index as usize;
        )*
        /// The number of outputs a user may read (the two wrenches to the mechanism follow).
        pub(crate) const NUM_USER_OUTPUTS: usize = [$(Index::$index),*].len();
        /// Every user output, at its index.
        pub(super) const OUTPUTS: [Port; NUM_USER_OUTPUTS] = [$(Port {
            name: $name,
            kind: "output",
            size: $size,
            unit: $unit,
            drawn: $drawn,
            doc: $doc,
        }),*];
    };
}

outputs! {
    CONTACT: "contact", Size::PerPoint(1), "", None, "1 in contact, 0 otherwise";
    PENETRATION: "penetration", Size::PerPoint(1), "m", None, "penetration depth (0 when separated)";
    SEPARATION: "separation", Size::PerPoint(1), "m", None, "signed separation distance (negative when penetrating)";
    NORMAL_FORCE: "normal_force", Size::PerPoint(1), "N", None, "normal force magnitude";
    FRICTION_FORCE: "friction_force", Size::PerPoint(1), "N", None, "friction force magnitude";
    NORMAL_VELOCITY: "normal_velocity", Size::PerPoint(1), "m/s", None, "z of the relative velocity (follower − base) in the contact frame";
    TANGENTIAL_VELOCITY: "tangential_velocity", Size::PerPoint(2), "m/s", None, "x, y of the relative velocity in the contact frame";
    BASE_ROTATION: "base_rotation", Size::Rotations, "", None, "contact frame relative to the base geometry's frame";
    BASE_TRANSLATION: "base_translation", Size::PerPoint(3), "m", None, "contact point in the base geometry's frame";
    FOLLOWER_ROTATION: "follower_rotation", Size::Rotations, "", None, "contact frame relative to the follower geometry's frame";
    FOLLOWER_TRANSLATION: "follower_translation", Size::PerPoint(3), "m", None, "contact point in the follower geometry's frame";
    RESULTANT_FORCE: "resultant_force", Size::Fixed(3), "N", Some(DrawnAs::ResultantForce), "sum of the contact forces on the follower (World)";
    RESULTANT_TORQUE: "resultant_torque", Size::Fixed(3), "N·m", None, "torque about resultant_point (World; Drake's minimum-moment resultant)";
    RESULTANT_POINT: "resultant_point", Size::Fixed(3), "m", Some(DrawnAs::ResultantPoint), "application point on the central axis of the normal forces (World)";
    POINTS: "points", Size::Fixed(1), "", None, "number of contact points in contact (manifold points of the pair; cloud points in contact)";
}

/// Every port's documentation row: [`INPUTS`], then [`OUTPUTS`].
pub(super) const PORT_DOCS: [PortDoc; INPUTS.len() + NUM_USER_OUTPUTS] = {
    let mut docs = [INPUTS[0].port_doc(); INPUTS.len() + NUM_USER_OUTPUTS];
    let mut k = 0;
    while k < INPUTS.len() {
        docs[k] = INPUTS[k].port_doc();
        k += 1;
    }
    while k < docs.len() {
        docs[k] = OUTPUTS[k - INPUTS.len()].port_doc();
        k += 1;
    }
    docs
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented size of every port is the shape the block gives it, for one contact point
    /// and for a cloud of N = 5: "r×1 or r×N" for r×1 and r×5, "3×3 or 3×3N" for 3×3 and 3×15,
    /// and one shape for a size that does not follow N.
    #[test]
    fn the_documented_sizes_are_the_propagated_shapes() {
        let ports = INPUTS.iter().chain(&OUTPUTS);
        for port in ports.filter(|p| p.size != Size::Geometry) {
            let (one, five) = (port.size.shape(1), port.size.shape(5));
            let expected = if five == one {
                format!("{}×{}", one.rows, one.cols)
            } else if one.cols == 1 && five == Shape::new(one.rows, 5) {
                format!("{r}×1 or {r}×N", r = one.rows)
            } else {
                assert_eq!((one, five), (Shape::new(3, 3), Shape::new(3, 15)));
                "3×3 or 3×3N".to_string()
            };
            assert_eq!(port.size.text(), expected, "{}", port.name);
        }
        assert_eq!(OUTPUTS[CONTACT].name, "contact");
        assert_eq!(OUTPUTS[POINTS].name, "points");
        assert_eq!(PORT_DOCS.len(), 19);
    }
}
