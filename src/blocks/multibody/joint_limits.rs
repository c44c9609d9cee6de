//! Joint limits of RevoluteJoint and PrismaticJoint: `limits = { lower, upper, method, ... }`.
//!
//! - `method = "rigid"` (default): unilateral constraints `q − lower ≥ 0`, `upper − q ≥ 0` in joint
//!   space, solved by the mechanism with the rigid contacts (see [`crate::multibody::rigid`]):
//!   resting against a bound with the exact force, impacts as located events with Newton's
//!   restitution `ω⁺ = −e·ω⁻`, and `rest_velocity` as the Zeno guard.
//! - `method = "spring_damper"`: a penalty force beyond a bound, `f = k·(lower − q) − c·q̇` below
//!   `lower`, `f = k·(upper − q) − c·q̇` above `upper` (N or N·m; zero inside the range), with a zero
//!   crossing at each bound so that steps never straddle one.
//!
//! The joint's output `limit_force` is the force or torque the limit applies along the joint's
//! axis: positive towards increasing q, 0 away from the bounds.

use super::kinds::LimitKind;
use crate::block::Param;
use crate::multibody::rigid::{ConstraintKind, JointLimit, RigidConstraint};
use crate::param;
use crate::params::{ParamError, Params};

/// The values of `method`.
pub const LIMIT_METHODS: [&str; 2] = [LimitKind::Rigid.name(), LimitKind::SpringDamper.name()];

/// The parameters of the `limits` table that have defaults, each written once; the joints'
/// `limits` documentation quotes them (a test checks it, see [`LIMIT_DEFAULTS`]).
pub const LIMIT_METHOD: Param<&str> = param!(
    "method",
    "",
    "rigid",
    "\"rigid\" (unilateral constraints) or \"spring_damper\" (a penalty force)"; one_of(LIMIT_METHODS),
);
pub const LIMIT_RESTITUTION: Param<f64> = param!(
    "restitution",
    "",
    0,
    "rigid: Newton's coefficient e in [0, 1]"; within(0, 1, "write e.g. restitution = 0.5 (0: plastic, 1: elastic)"),
);
pub const LIMIT_REST_VELOCITY: Param<f64> = param!(
    "rest_velocity",
    "rad/s or m/s",
    1e-3,
    "rigid: impacts slower than this are plastic"; non_negative,
);
pub const LIMIT_DAMPING: Param<f64> = param!(
    "damping",
    "N·m·s/rad or N·s/m",
    0,
    "spring_damper: the damping beyond a bound"; non_negative,
);

/// The numeric sub-parameters with defaults, for the documentation check.
pub const LIMIT_DEFAULTS: [Param<f64>; 3] = [LIMIT_RESTITUTION, LIMIT_REST_VELOCITY, LIMIT_DAMPING];

/// How the bounds are enforced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LimitMethod {
    /// Unilateral constraints solved by the mechanism.
    Rigid {
        /// Newton's coefficient of restitution in [0, 1].
        restitution: f64,
        /// Impacts slower than this (rad/s or m/s) end resting against the bound.
        rest_velocity: f64,
    },
    /// A penalty spring and damper beyond the bounds.
    SpringDamper {
        /// N·m/rad or N/m.
        stiffness: f64,
        /// N·m·s/rad or N·s/m.
        damping: f64,
    },
}

/// A joint's limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLimits {
    /// rad or m; `-∞` when absent.
    pub lower: f64,
    /// rad or m; `+∞` when absent.
    pub upper: f64,
    pub method: LimitMethod,
}

impl JointLimits {
    /// The penalty force (positive towards increasing q) at `(q, rate)`; 0 for rigid limits and
    /// inside the range.
    pub fn penalty_force(&self, q: f64, rate: f64) -> f64 {
        let LimitMethod::SpringDamper { stiffness, damping } = self.method else {
            return 0.0;
        };
        if q < self.lower {
            stiffness * (self.lower - q) - damping * rate
        } else if q > self.upper {
            stiffness * (self.upper - q) - damping * rate
        } else {
            0.0
        }
    }

    /// The zero-crossing values of a penalty limit: `q − lower`, `upper − q` (each finite: an
    /// absent bound gives a constant 1).
    pub fn crossings(&self, q: f64) -> [f64; 2] {
        let finite = |g: f64| if g.is_finite() { g } else { 1.0 };
        [finite(q - self.lower), finite(self.upper - q)]
    }

    /// The rigid constraint of joint `joint` (its coordinates resolved by the mechanism).
    pub fn rigid_constraint(&self, joint: usize) -> Option<RigidConstraint> {
        let LimitMethod::Rigid {
            restitution,
            rest_velocity,
        } = self.method
        else {
            return None;
        };
        Some(RigidConstraint {
            label: String::new(),
            kind: ConstraintKind::Limit(JointLimit {
                joint,
                q_index: 0,
                v_index: 0,
                lower: self.lower,
                upper: self.upper,
            }),
            restitution,
            rest_velocity,
        })
    }
}

/// Reads the optional `limits = { ... }` table of a scalar joint (`unit`: "rad" or "m").
pub fn read_limits(p: &Params, unit: &str) -> Result<Option<JointLimits>, ParamError> {
    let Some(t) = p.table("limits")? else {
        return Ok(None);
    };
    let lower = t.f64("lower")?;
    let upper = t.f64("upper")?;
    if lower.is_none() && upper.is_none() {
        return Err(t
            .table_error("'limits' needs a lower or an upper bound (or both)")
            .hint(format!(
                "write e.g. limits = {{ lower = -0.5, upper = 0.5 }} ({unit})"
            )));
    }
    let (lower, upper) = (
        lower.unwrap_or(f64::NEG_INFINITY),
        upper.unwrap_or(f64::INFINITY),
    );
    t.ensure(
        lower < upper,
        "upper",
        "the upper bound must be above the lower bound",
        "swap them, or widen the range",
    )?;
    let method = match t.choice_value(
        LIMIT_METHOD.name(),
        &LimitKind::choices(),
        LimitKind::default(),
    )? {
        LimitKind::SpringDamper => LimitMethod::SpringDamper {
            stiffness: t
                .required_f64("stiffness", &format!("N·m/rad or N/m, e.g. 1e4 ({unit})"))?,
            damping: LIMIT_DAMPING.read(&t)?,
        },
        LimitKind::Rigid => {
            let restitution = LIMIT_RESTITUTION.read(&t)?;
            LimitMethod::Rigid {
                restitution,
                rest_velocity: LIMIT_REST_VELOCITY.read(&t)?,
            }
        }
    };
    if let LimitMethod::SpringDamper { stiffness, .. } = method {
        t.ensure(
            stiffness > 0.0,
            "stiffness",
            "the limit's stiffness must be positive",
            "write e.g. stiffness = 1e4",
        )?;
    }
    t.finish()?;
    Ok(Some(JointLimits {
        lower,
        upper,
        method,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penalty_force_pushes_back_inside_and_is_zero_within() {
        let l = JointLimits {
            lower: -0.5,
            upper: 0.5,
            method: LimitMethod::SpringDamper {
                stiffness: 100.0,
                damping: 2.0,
            },
        };
        assert_eq!(l.penalty_force(0.0, 3.0), 0.0);
        assert!((l.penalty_force(0.6, 0.0) + 10.0).abs() < 1e-12);
        assert!((l.penalty_force(-0.6, -1.0) - (10.0 + 2.0)).abs() < 1e-12);
        assert_eq!(l.crossings(0.1), [0.6, 0.4]);
        assert!(l.rigid_constraint(3).is_none());
    }
}
