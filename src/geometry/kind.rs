//! The geometry kinds of the seed's supported-pair table, and which pairs of them can touch.
//!
//! A kind is what the contact queries and the geometry error speak of; it sits below both (the
//! shapes, the queries and [`GeometryError`](super::GeometryError) use it, it uses none of them).
//!
//! The supported pairs (the seed's table; symmetric in base and follower):
//!
//! |                | convex hull | disk | grid | plane | point | cloud |
//! |----------------|:-----------:|:----:|:----:|:-----:|:-----:|:-----:|
//! | convex hull    | yes | yes | no  | yes | yes | yes |
//! | disk           | yes | no  | no  | yes | no  | no  |
//! | grid surface   | no  | no  | no  | no  | yes | yes |
//! | infinite plane | yes | yes | no  | no  | yes | yes |
//! | point          | yes | no  | yes | yes | no  | no  |
//! | point cloud    | yes | no  | yes | yes | no  | no  |

/// The geometry kinds of the seed's supported-pair table. All solids are the kind
/// [`ShapeKind::ConvexHull`] ("convex hull of solid").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// Convex hull of a solid (sphere, brick, cylinder, ellipsoid, convex hull of points).
    ConvexHull,
    /// Disk.
    Disk,
    /// Grid surface.
    GridSurface,
    /// Infinite plane.
    InfinitePlane,
    /// Point.
    Point,
    /// Point cloud.
    PointCloud,
}

impl ShapeKind {
    /// Every kind, in the seed's table order.
    pub const ALL: [ShapeKind; 6] = [
        ShapeKind::ConvexHull,
        ShapeKind::Disk,
        ShapeKind::GridSurface,
        ShapeKind::InfinitePlane,
        ShapeKind::Point,
        ShapeKind::PointCloud,
    ];
    /// Human-readable name, as used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::ConvexHull => "convex hull of solid",
            ShapeKind::Disk => "disk",
            ShapeKind::GridSurface => "grid surface",
            ShapeKind::InfinitePlane => "infinite plane",
            ShapeKind::Point => "point",
            ShapeKind::PointCloud => "point cloud",
        }
    }
}

impl std::fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kinds a geometry of kind `kind` can be in contact with, in the seed's table order.
pub fn supported_partners(kind: ShapeKind) -> &'static [ShapeKind] {
    use ShapeKind::*;
    match kind {
        ConvexHull => &[ConvexHull, Disk, InfinitePlane, Point, PointCloud],
        Disk => &[ConvexHull, InfinitePlane],
        GridSurface => &[Point, PointCloud],
        InfinitePlane => &[ConvexHull, Disk, Point, PointCloud],
        Point => &[ConvexHull, GridSurface, InfinitePlane],
        PointCloud => &[ConvexHull, GridSurface, InfinitePlane],
    }
}

/// Whether a contact between kinds `a` and `b` is supported (in either order).
pub fn pair_supported(a: ShapeKind, b: ShapeKind) -> bool {
    supported_partners(a).contains(&b)
}

/// "convex hull of solid, disk, …" for error messages.
pub(crate) fn partners_list(kind: ShapeKind) -> String {
    supported_partners(kind)
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_symmetric() {
        for a in ShapeKind::ALL {
            for b in ShapeKind::ALL {
                assert_eq!(pair_supported(a, b), pair_supported(b, a), "{a} / {b}");
            }
        }
        // 10 unordered supported pairs in the seed's table.
        let count = ShapeKind::ALL
            .iter()
            .enumerate()
            .map(|(i, a)| {
                ShapeKind::ALL[i..]
                    .iter()
                    .filter(|b| pair_supported(*a, **b))
                    .count()
            })
            .sum::<usize>();
        assert_eq!(count, 10);
    }
}
