//! Reading the `normal = {...}` and `friction = {...}` tables into force laws.

use crate::block::Param;
use crate::contact::friction::FrictionLaw;
use crate::contact::law_methods::{FrictionMethod, NormalMethod};
use crate::contact::normal_force::NormalForceLaw;
use crate::param;
use crate::params::{ParamError, Params};

// The parameters of the two tables that have defaults, each written once (Simscape's defaults).
// SpatialContactForce's `normal` and `friction` documentation quotes them (a test checks it,
// see [`NORMAL_DEFAULTS`] and [`FRICTION_DEFAULTS`]).

/// `normal.method` (its default is [`NormalMethod::default`]'s name; a test checks it).
pub const NORMAL_METHOD: Param<&str> =
    param!("method", "", "smooth_spring_damper", "the normal-force law");
/// `normal.stiffness` (every spring-damper law and Hunt-Crossley).
pub const NORMAL_STIFFNESS: Param<f64> = param!("stiffness", "N/m", 1e6, "k");
/// `normal.damping`.
pub const NORMAL_DAMPING: Param<f64> = param!("damping", "N·s/m", 1e3, "b");
/// `normal.transition_width` (smooth spring-damper).
pub const TRANSITION_WIDTH: Param<f64> = param!("transition_width", "m", 1e-4, "w");
/// `normal.exponent` (Hunt-Crossley; also the default of `depth_exponent`).
pub const EXPONENT: Param<f64> = param!("exponent", "", 1.5, "n");
/// `normal.velocity_exponent` (Hunt-Crossley).
pub const VELOCITY_EXPONENT: Param<f64> = param!("velocity_exponent", "", 1, "q");
/// `normal.depth_exponent` p (Hunt-Crossley; its default is the `exponent` read).
pub const DEPTH_EXPONENT: &str = "depth_exponent";
/// The numeric `normal` parameters with defaults.
pub const NORMAL_DEFAULTS: [Param<f64>; 5] = [
    NORMAL_STIFFNESS,
    NORMAL_DAMPING,
    TRANSITION_WIDTH,
    EXPONENT,
    VELOCITY_EXPONENT,
];

/// `friction.method` (its default is [`FrictionMethod::default`]'s name; a test checks it).
pub const FRICTION_METHOD: Param<&str> =
    param!("method", "", "smooth_stick_slip", "the friction law");
/// `friction.static`.
pub const STATIC: Param<f64> = param!("static", "", 0.5, "μ_s");
/// `friction.dynamic`.
pub const DYNAMIC: Param<f64> = param!("dynamic", "", 0.3, "μ_d");
/// `friction.critical_velocity` (smooth stick-slip).
pub const CRITICAL_VELOCITY: Param<f64> = param!("critical_velocity", "m/s", 1e-3, "v_c");
/// `friction.stiction_velocity` (Stribeck).
pub const STICTION_VELOCITY: Param<f64> = param!("stiction_velocity", "m/s", 1e-4, "v_s");
/// The numeric `friction` parameters with defaults.
pub const FRICTION_DEFAULTS: [Param<f64>; 4] =
    [STATIC, DYNAMIC, CRITICAL_VELOCITY, STICTION_VELOCITY];

/// Reads `normal = { method = ..., ... }` (default: [`NORMAL_METHOD`] with the defaults of its
/// parameters).
pub fn read_normal_law(p: &Params) -> Result<NormalForceLaw, ParamError> {
    let Some(t) = p.table("normal")? else {
        return Ok(NormalForceLaw::SmoothSpringDamper {
            stiffness: NORMAL_STIFFNESS.default,
            damping: NORMAL_DAMPING.default,
            transition_width: TRANSITION_WIDTH.default,
        });
    };
    let method = t.choice_value(
        NORMAL_METHOD.name(),
        &NormalMethod::choices(),
        NormalMethod::default(),
    )?;
    let law = match method {
        NormalMethod::SmoothSpringDamper => NormalForceLaw::SmoothSpringDamper {
            stiffness: NORMAL_STIFFNESS.read(&t)?,
            damping: NORMAL_DAMPING.read(&t)?,
            transition_width: TRANSITION_WIDTH.read(&t)?,
        },
        NormalMethod::LinearSpringDamper => NormalForceLaw::LinearSpringDamper {
            stiffness: NORMAL_STIFFNESS.read(&t)?,
            damping: NORMAL_DAMPING.read(&t)?,
        },
        NormalMethod::LinearSpringLimitedDamper => NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: NORMAL_STIFFNESS.read(&t)?,
            damping: NORMAL_DAMPING.read(&t)?,
        },
        NormalMethod::HuntCrossley => {
            let exponent = EXPONENT.read(&t)?;
            NormalForceLaw::HuntCrossley {
                stiffness: NORMAL_STIFFNESS.read(&t)?,
                damping: NORMAL_DAMPING.read(&t)?,
                exponent,
                velocity_exponent: VELOCITY_EXPONENT.read(&t)?,
                depth_exponent: t.f64_or(DEPTH_EXPONENT, exponent)?,
            }
        }
        NormalMethod::Input => NormalForceLaw::Input,
    };
    law.validate().map_err(|e| t.table_error(e.to_string()))?;
    t.finish()?;
    Ok(law)
}

/// Reads `friction = { method = ..., ... }` (default: [`FRICTION_METHOD`] with the defaults of
/// its parameters). Warnings (μ_d > μ_s) are returned for the user.
pub fn read_friction_law(p: &Params) -> Result<(FrictionLaw, Vec<String>), ParamError> {
    let Some(t) = p.table("friction")? else {
        return Ok((
            FrictionLaw::SmoothStickSlip {
                static_coefficient: STATIC.default,
                dynamic_coefficient: DYNAMIC.default,
                critical_velocity: CRITICAL_VELOCITY.default,
            },
            vec![],
        ));
    };
    let method = t.choice_value(
        FRICTION_METHOD.name(),
        &FrictionMethod::choices(),
        FrictionMethod::default(),
    )?;
    let law = match method {
        FrictionMethod::SmoothStickSlip => FrictionLaw::SmoothStickSlip {
            static_coefficient: STATIC.read(&t)?,
            dynamic_coefficient: DYNAMIC.read(&t)?,
            critical_velocity: CRITICAL_VELOCITY.read(&t)?,
        },
        FrictionMethod::Stribeck => FrictionLaw::Stribeck {
            static_coefficient: STATIC.read(&t)?,
            dynamic_coefficient: DYNAMIC.read(&t)?,
            stiction_velocity: STICTION_VELOCITY.read(&t)?,
        },
        FrictionMethod::None => FrictionLaw::None,
        FrictionMethod::Input => FrictionLaw::Input,
    };
    let warnings = law.validate().map_err(|e| t.table_error(e.to_string()))?;
    t.finish()?;
    Ok((law, warnings.iter().map(|w| w.to_string()).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::param::quotes_default;
    use crate::blocks::contact::spatial_contact::SPATIAL_CONTACT_FORCE;

    fn doc(name: &str) -> &'static str {
        let params = SPATIAL_CONTACT_FORCE.params;
        params.iter().find(|p| p.name == name).unwrap().doc
    }

    /// The documented default method of each table is the enum's default, the one the readers
    /// use when `method` is not written.
    #[test]
    fn the_declared_default_methods_are_the_enums_defaults() {
        assert_eq!(NORMAL_METHOD.default, NormalMethod::default().name());
        assert_eq!(FRICTION_METHOD.default, FrictionMethod::default().name());
    }

    /// SpatialContactForce's documentation of `normal` and `friction` names every method of the
    /// enums, in their order, as `method = "NAME"`.
    #[test]
    fn the_tables_docs_name_every_method_in_order() {
        let normal: Vec<&str> = NormalMethod::ALL.iter().map(|m| m.name()).collect();
        let friction: Vec<&str> = FrictionMethod::ALL.iter().map(|m| m.name()).collect();
        for (table, names) in [("normal", normal), ("friction", friction)] {
            let doc = doc(table);
            let mut at = 0;
            for name in names {
                let quoted = format!("method = \"{name}\"");
                let found = doc[at..].find(&quoted);
                assert!(
                    found.is_some(),
                    "{table}: {quoted} not after byte {at}: {doc}"
                );
                at += found.unwrap_or(0) + quoted.len();
            }
        }
    }

    /// SpatialContactForce documents the `normal` and `friction` tables in prose: it quotes the
    /// defaults the readers use, and the default method first.
    #[test]
    fn the_tables_docs_quote_the_declared_defaults() {
        for (table, method, defaults) in [
            ("normal", &NORMAL_METHOD, &NORMAL_DEFAULTS[..]),
            ("friction", &FRICTION_METHOD, &FRICTION_DEFAULTS[..]),
        ] {
            let doc = doc(table);
            let first = format!("{{ method = {},", method.doc.default);
            assert!(doc.starts_with(&first), "{table}: {doc}");
            for p in defaults {
                assert!(quotes_default(doc, &p.doc), "{table}.{}: {doc}", p.name());
            }
        }
    }
}
