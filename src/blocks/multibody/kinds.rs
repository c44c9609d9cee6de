//! The names a model file gives the kinds of the mechanism's blocks: a Solid's
//! `geometry = { shape = "..." }` and a joint's `limits = { method = "..." }`. Each name is
//! written once, on its enum (`name()`, `ALL`); the blocks read them through
//! `Params::choice_value` (an unknown name is an error listing these), and the builder and the
//! URDF importer write them from here.

/// A Solid's shape by name (`geometry.shape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolidShape {
    /// `"sphere"`: `radius` (m).
    Sphere,
    /// `"brick"`: `size = [x, y, z]` (m, full edge lengths).
    Brick,
    /// `"cylinder"`: `radius` and `length` (m) along the frame's z.
    Cylinder,
    /// `"ellipsoid"`: `radii = [a, b, c]` (m).
    Ellipsoid,
    /// `"convex_hull"`: the hull of `points` (m).
    ConvexHull,
}

impl SolidShape {
    /// Every shape, in the order the documentation and the messages list them.
    pub const ALL: [SolidShape; 5] = [
        SolidShape::Sphere,
        SolidShape::Brick,
        SolidShape::Cylinder,
        SolidShape::Ellipsoid,
        SolidShape::ConvexHull,
    ];

    /// The shape's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            SolidShape::Sphere => "sphere",
            SolidShape::Brick => "brick",
            SolidShape::Cylinder => "cylinder",
            SolidShape::Ellipsoid => "ellipsoid",
            SolidShape::ConvexHull => "convex_hull",
        }
    }

    /// Each shape with its name, as `Params::choice_value` reads them.
    pub fn choices() -> [(&'static str, SolidShape); 5] {
        Self::ALL.map(|s| (s.name(), s))
    }
}

/// How a joint's limits are enforced, by name (`limits.method`), without their parameters
/// (those are `joint_limits::LimitMethod`'s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LimitKind {
    /// `"rigid"` (the default): unilateral constraints solved by the mechanism.
    #[default]
    Rigid,
    /// `"spring_damper"`: a penalty force beyond a bound.
    SpringDamper,
}

impl LimitKind {
    /// Both methods, in the order the documentation lists them.
    pub const ALL: [LimitKind; 2] = [LimitKind::Rigid, LimitKind::SpringDamper];

    /// The method's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            LimitKind::Rigid => "rigid",
            LimitKind::SpringDamper => "spring_damper",
        }
    }

    /// Each method with its name, as `Params::choice_value` reads them.
    pub fn choices() -> [(&'static str, LimitKind); 2] {
        Self::ALL.map(|m| (m.name(), m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names are the ones docs/model-format.md and the examples write, each once.
    #[test]
    fn names_are_distinct_and_as_documented() {
        let shapes = SolidShape::ALL.map(SolidShape::name);
        assert_eq!(
            shapes,
            ["sphere", "brick", "cylinder", "ellipsoid", "convex_hull"]
        );
        let limits = LimitKind::ALL.map(LimitKind::name);
        assert_eq!(limits, ["rigid", "spring_damper"]);
        assert_eq!(LimitKind::default(), LimitKind::Rigid);
    }
}
