//! Errors of shape construction, mass properties and contact queries.

use super::kind::{partners_list, ShapeKind};

/// Everything that can be wrong with a geometry given by a user, or with a query asked of it.
///
/// Every message names the shape, the offending parameter and, where it helps, the index and the
/// value, so that a model author can find the mistake in the model file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// A size (radius, length, edge, radius of an ellipsoid) is zero, negative or not finite.
    #[error("{shape}: {parameter} must be positive and finite, got {value}")]
    NonPositive {
        /// Shape name, e.g. "sphere".
        shape: &'static str,
        /// Parameter name, e.g. `radius` or `size[1]`.
        parameter: String,
        /// The value given.
        value: f64,
    },
    /// A coordinate is NaN or infinite.
    #[error("{shape}: {parameter} must be finite, got {value}")]
    NonFinite {
        /// Shape name.
        shape: &'static str,
        /// Parameter name with index, e.g. `points[3][2]` or `z[1][4]`.
        parameter: String,
        /// The value given.
        value: f64,
    },
    /// A grid axis has fewer than two coordinates.
    #[error("grid surface: {axis} needs at least 2 coordinates, got {count}")]
    GridTooSmall {
        /// "x" or "y".
        axis: &'static str,
        /// Number of coordinates given.
        count: usize,
    },
    /// Grid coordinates are not strictly increasing.
    #[error(
        "grid surface: {axis} coordinates must be strictly increasing, but {axis}[{index}] = {value} \
         does not exceed {axis}[{previous_index}] = {previous}",
        previous_index = index - 1
    )]
    GridNotIncreasing {
        /// "x" or "y".
        axis: &'static str,
        /// Index of the first coordinate that is not larger than its predecessor.
        index: usize,
        /// Its value (m).
        value: f64,
        /// The predecessor's value (m).
        previous: f64,
    },
    /// The height table does not have len(x) rows of len(y) heights.
    #[error(
        "grid surface: z must have one row per x coordinate ({rows_expected} rows) and one height per \
         y coordinate in each row ({columns_expected} columns), but {detail}"
    )]
    GridDimensions {
        /// len(x).
        rows_expected: usize,
        /// len(y).
        columns_expected: usize,
        /// What is wrong, e.g. "row 2 has 3 heights".
        detail: String,
    },
    /// A point cloud with no points.
    #[error("point cloud: needs at least one point")]
    EmptyPointCloud,
    /// Two points of a point cloud coincide.
    #[error("point cloud: points {first} and {second} are the same point [{x}, {y}, {z}]")]
    RepeatedPoint {
        /// Index of the first occurrence.
        first: usize,
        /// Index of the repetition.
        second: usize,
        /// x (m).
        x: f64,
        /// y (m).
        y: f64,
        /// z (m).
        z: f64,
    },
    /// The points of a convex hull do not span a volume.
    #[error("convex hull: {reason}")]
    DegenerateHull {
        /// What is degenerate, e.g. "all 5 points are coplanar".
        reason: String,
    },
    /// Density not positive and finite.
    #[error("mass properties: density must be positive and finite, got {value} kg/m^3")]
    InvalidDensity {
        /// The value given (kg/m³).
        value: f64,
    },
    /// Mass not positive and finite.
    #[error("mass properties: mass must be positive and finite, got {value} kg")]
    InvalidMass {
        /// The value given (kg).
        value: f64,
    },
    /// Mass properties asked of a shape without volume.
    #[error(
        "mass properties: a geometry of kind {kind} has no volume; only solids (sphere, brick, cylinder, ellipsoid, \
         convex hull) have mass properties"
    )]
    NotASolid {
        /// The kind of the shape.
        kind: ShapeKind,
    },
    /// The two geometries cannot be in contact with each other.
    #[error(
        "unsupported geometry pair: {base} (base) and {follower} (follower); {base} supports contact \
         with: {base_partners}; {follower} supports contact with: {follower_partners}",
        base_partners = partners_list(*base),
        follower_partners = partners_list(*follower)
    )]
    UnsupportedPair {
        /// Kind of the base geometry.
        base: ShapeKind,
        /// Kind of the follower geometry.
        follower: ShapeKind,
    },
    /// The per-point query needs a point cloud on one side.
    #[error(
        "per-point contact query: one of the geometries must be a point cloud, got {base} (base) and \
         {follower} (follower)"
    )]
    NotAPointCloudPair {
        /// Kind of the base geometry.
        base: ShapeKind,
        /// Kind of the follower geometry.
        follower: ShapeKind,
    },
    /// The caller's output slice does not have one entry per cloud point.
    #[error("per-point contact query: the output has {got} entries but the point cloud has {expected} points")]
    OutputLength {
        /// Number of points in the cloud.
        expected: usize,
        /// Length of the slice given.
        got: usize,
    },
}

impl GeometryError {
    /// What to write instead: the `help:` line of the model error that carries this error.
    pub fn help(&self) -> String {
        use GeometryError::*;
        match self {
            NonPositive { parameter, .. } => {
                format!("write a positive size in m for {parameter}, e.g. 0.1")
            }
            NonFinite { parameter, .. } => format!("write a finite number for {parameter} (m)"),
            GridTooSmall { axis, .. } => {
                format!("give {axis} at least two increasing coordinates, e.g. {axis} = [0.0, 1.0]")
            }
            GridNotIncreasing { axis, .. } => format!(
                "list {axis} in increasing order without repeats, e.g. {axis} = [0.0, 0.5, 1.0] (m), and order the heights in z to match"
            ),
            GridDimensions {
                rows_expected,
                columns_expected,
                ..
            } => format!(
                "write z as {rows_expected} rows (one per x) of {columns_expected} heights (one per y)"
            ),
            EmptyPointCloud => "add points = [[x, y, z], ...] (m) with at least one point".into(),
            RepeatedPoint { second, .. } => {
                format!("remove point {second} (0-based) or move it: a cloud lists distinct points")
            }
            DegenerateHull { .. } => "give at least 4 points that span a volume (not all on one plane), e.g. the 8 corners of a box".into(),
            InvalidDensity { .. } => {
                "write a density in kg/m³, e.g. density = 1000 (water) or 7800 (steel)".into()
            }
            InvalidMass { .. } => "write the mass in kg, e.g. mass = 1.0".into(),
            NotASolid { .. } => {
                "give the Solid a sphere, brick, cylinder, ellipsoid or convex_hull geometry".into()
            }
            UnsupportedPair { .. } => {
                "connect one of the partners listed above (docs/contact.md has the pair table)"
                    .into()
            }
            NotAPointCloudPair { .. } => {
                "connect a PointCloud to one of the two geometry ports".into()
            }
            OutputLength { expected, .. } => {
                format!("pass an output of one entry per cloud point ({expected})")
            }
        }
    }

    /// The parameter of the geometry's block that the error is about, when it is not the one
    /// the caller would guess (a grid's `x` or `y`, not its `z`).
    pub fn parameter(&self) -> Option<&'static str> {
        match self {
            GeometryError::GridTooSmall { axis, .. }
            | GeometryError::GridNotIncreasing { axis, .. } => Some(axis),
            GeometryError::GridDimensions { .. } => Some("z"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GeometryError;

    #[test]
    fn grid_errors_name_their_axis_and_every_error_has_help() {
        let e = GeometryError::GridNotIncreasing {
            axis: "x",
            index: 2,
            value: 0.5,
            previous: 1.0,
        };
        assert_eq!(e.parameter(), Some("x"));
        assert_eq!(
            e.help(),
            "list x in increasing order without repeats, e.g. x = [0.0, 0.5, 1.0] (m), and order the heights in z to match"
        );
        assert_eq!(GeometryError::EmptyPointCloud.parameter(), None);
        assert!(!GeometryError::EmptyPointCloud.help().is_empty());
    }
}
