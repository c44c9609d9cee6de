//! Reading the `normal = {...}` and `friction = {...}` tables into force laws.

use crate::contact::friction::FrictionLaw;
use crate::contact::normal_force::NormalForceLaw;
use crate::model::{Diagnostic, TableReader};

/// The normal-force methods a model may name.
pub const NORMAL_METHODS: [&str; 5] = [
    "smooth_spring_damper",
    "linear_spring_damper",
    "linear_spring_limited_damper",
    "hunt_crossley",
    "input",
];
/// The friction methods a model may name.
pub const FRICTION_METHODS: [&str; 4] = ["smooth_stick_slip", "stribeck", "none", "input"];

/// Reads `normal = { method = ..., ... }` (default: smooth spring-damper, k = 1e6 N/m,
/// b = 1e3 N·s/m, w = 1e-4 m, Simscape's defaults).
pub fn read_normal_law(p: &TableReader) -> Result<NormalForceLaw, Diagnostic> {
    let Some(t) = p.table("normal")? else {
        return Ok(NormalForceLaw::SmoothSpringDamper {
            stiffness: 1e6,
            damping: 1e3,
            transition_width: 1e-4,
        });
    };
    let method = t.choice("method", &NORMAL_METHODS, "smooth_spring_damper")?;
    let law = match method {
        "smooth_spring_damper" => NormalForceLaw::SmoothSpringDamper {
            stiffness: t.f64_or("stiffness", 1e6)?,
            damping: t.f64_or("damping", 1e3)?,
            transition_width: t.f64_or("transition_width", 1e-4)?,
        },
        "linear_spring_damper" => NormalForceLaw::LinearSpringDamper {
            stiffness: t.f64_or("stiffness", 1e6)?,
            damping: t.f64_or("damping", 1e3)?,
        },
        "linear_spring_limited_damper" => NormalForceLaw::LinearSpringLimitedDamper {
            stiffness: t.f64_or("stiffness", 1e6)?,
            damping: t.f64_or("damping", 1e3)?,
        },
        "hunt_crossley" => {
            let exponent = t.f64_or("exponent", 1.5)?;
            NormalForceLaw::HuntCrossley {
                stiffness: t.f64_or("stiffness", 1e6)?,
                damping: t.f64_or("damping", 1e3)?,
                exponent,
                velocity_exponent: t.f64_or("velocity_exponent", 1.0)?,
                depth_exponent: t.f64_or("depth_exponent", exponent)?,
            }
        }
        _ => NormalForceLaw::Input,
    };
    law.validate().map_err(|e| t.table_error(e.to_string()))?;
    t.finish()?;
    Ok(law)
}

/// Reads `friction = { method = ..., ... }` (default: smooth stick-slip, μ_s = 0.5, μ_d = 0.3,
/// v_c = 1e-3 m/s, Simscape's defaults). Warnings (μ_d > μ_s) are returned for the user.
pub fn read_friction_law(p: &TableReader) -> Result<(FrictionLaw, Vec<String>), Diagnostic> {
    let Some(t) = p.table("friction")? else {
        return Ok((
            FrictionLaw::SmoothStickSlip {
                static_coefficient: 0.5,
                dynamic_coefficient: 0.3,
                critical_velocity: 1e-3,
            },
            vec![],
        ));
    };
    let method = t.choice("method", &FRICTION_METHODS, "smooth_stick_slip")?;
    let law = match method {
        "smooth_stick_slip" => FrictionLaw::SmoothStickSlip {
            static_coefficient: t.f64_or("static", 0.5)?,
            dynamic_coefficient: t.f64_or("dynamic", 0.3)?,
            critical_velocity: t.f64_or("critical_velocity", 1e-3)?,
        },
        "stribeck" => FrictionLaw::Stribeck {
            static_coefficient: t.f64_or("static", 0.5)?,
            dynamic_coefficient: t.f64_or("dynamic", 0.3)?,
            stiction_velocity: t.f64_or("stiction_velocity", 1e-4)?,
        },
        "none" => FrictionLaw::None,
        _ => FrictionLaw::Input,
    };
    let warnings = law.validate().map_err(|e| t.table_error(e.to_string()))?;
    t.finish()?;
    Ok((law, warnings.iter().map(|w| w.to_string()).collect()))
}
