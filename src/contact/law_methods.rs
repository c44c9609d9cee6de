//! The contact laws' methods by name, without their parameters: what a model's
//! `normal = { method = "..." }` and `friction = { method = "..." }` select. Each name is written
//! once, on its enum (`name()`, `ALL`); the parameter reader (`Params::choice_value`), the typed
//! builder, the block documentation and the laws' messages take it from there.

/// The normal-force laws by name, without their parameters: what a model's
/// `normal = { method = "..." }` selects. The names are written here only ([`NormalMethod::name`]);
/// the model reader, the builder and the messages take them from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NormalMethod {
    /// [`NormalForceLaw::SmoothSpringDamper`](super::normal_force::NormalForceLaw::SmoothSpringDamper), `"smooth_spring_damper"` (the default).
    #[default]
    SmoothSpringDamper,
    /// [`NormalForceLaw::LinearSpringDamper`](super::normal_force::NormalForceLaw::LinearSpringDamper), `"linear_spring_damper"`.
    LinearSpringDamper,
    /// [`NormalForceLaw::LinearSpringLimitedDamper`](super::normal_force::NormalForceLaw::LinearSpringLimitedDamper), `"linear_spring_limited_damper"`.
    LinearSpringLimitedDamper,
    /// [`NormalForceLaw::HuntCrossley`](super::normal_force::NormalForceLaw::HuntCrossley), `"hunt_crossley"`.
    HuntCrossley,
    /// [`NormalForceLaw::Input`](super::normal_force::NormalForceLaw::Input), `"input"`.
    Input,
}

impl NormalMethod {
    /// Every method, in the order the documentation and the messages list them.
    pub const ALL: [NormalMethod; 5] = [
        NormalMethod::SmoothSpringDamper,
        NormalMethod::LinearSpringDamper,
        NormalMethod::LinearSpringLimitedDamper,
        NormalMethod::HuntCrossley,
        NormalMethod::Input,
    ];

    /// The method's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            NormalMethod::SmoothSpringDamper => "smooth_spring_damper",
            NormalMethod::LinearSpringDamper => "linear_spring_damper",
            NormalMethod::LinearSpringLimitedDamper => "linear_spring_limited_damper",
            NormalMethod::HuntCrossley => "hunt_crossley",
            NormalMethod::Input => "input",
        }
    }

    /// Each method with its name, as `Params::choice_value` reads them.
    pub fn choices() -> [(&'static str, NormalMethod); 5] {
        Self::ALL.map(|m| (m.name(), m))
    }

    /// The method called `name` in a model file, if any.
    pub fn from_name(name: &str) -> Option<NormalMethod> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The friction laws by name, without their parameters: what a model's
/// `friction = { method = "..." }` selects. The names are written here only
/// ([`FrictionMethod::name`]); the model reader, the builder and the messages take them from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrictionMethod {
    /// [`FrictionLaw::SmoothStickSlip`](super::friction::FrictionLaw::SmoothStickSlip), `"smooth_stick_slip"` (the default).
    #[default]
    SmoothStickSlip,
    /// [`FrictionLaw::Stribeck`](super::friction::FrictionLaw::Stribeck), `"stribeck"`.
    Stribeck,
    /// [`FrictionLaw::None`](super::friction::FrictionLaw::None), `"none"`.
    None,
    /// [`FrictionLaw::Input`](super::friction::FrictionLaw::Input), `"input"`.
    Input,
}

impl FrictionMethod {
    /// Every method, in the order the documentation and the messages list them.
    pub const ALL: [FrictionMethod; 4] = [
        FrictionMethod::SmoothStickSlip,
        FrictionMethod::Stribeck,
        FrictionMethod::None,
        FrictionMethod::Input,
    ];

    /// The method's name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            FrictionMethod::SmoothStickSlip => "smooth_stick_slip",
            FrictionMethod::Stribeck => "stribeck",
            FrictionMethod::None => "none",
            FrictionMethod::Input => "input",
        }
    }

    /// Each method with its name, as `Params::choice_value` reads them.
    pub fn choices() -> [(&'static str, FrictionMethod); 4] {
        Self::ALL.map(|m| (m.name(), m))
    }

    /// The method called `name` in a model file, if any.
    pub fn from_name(name: &str) -> Option<FrictionMethod> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name is a method's and reads back to it; the names are distinct.
    #[test]
    fn names_round_trip() {
        for m in NormalMethod::ALL {
            assert_eq!(NormalMethod::from_name(m.name()), Some(m));
        }
        for m in FrictionMethod::ALL {
            assert_eq!(FrictionMethod::from_name(m.name()), Some(m));
        }
        assert_eq!(NormalMethod::from_name("hunt-crossley"), None);
        assert_eq!(FrictionMethod::from_name("coulomb"), None);
    }
}
