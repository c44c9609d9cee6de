//! `effort_limit`: the saturation of an actuated joint's input `t` (URDF's `<limit effort>`).
//!
//! With `actuation = "input"`, the generalized force sent to the mechanism on axis k is
//! clamp(t_k, −e_k, e_k), e_k the axis's effort limit (N for a translational axis, N·m for a
//! rotational one); one value for all axes or one per axis.

use crate::block::ParamDoc;
use crate::multibody::JointKind;
use crate::params::{ParamError, Params};

/// The documentation of `effort_limit`.
pub const EFFORT_LIMIT_DOC: ParamDoc = ParamDoc {
    name: "effort_limit",
    unit: "N·m or N per axis",
    default: "none",
    doc: "with actuation = \"input\": the input t is saturated to ±effort_limit on each axis (one value or one per axis), as URDF's <limit effort>",
};

/// Reads `effort_limit` of a joint of `kind` (`actuated`: whether it has the input `t`): empty
/// when absent, else one positive value per velocity coordinate.
pub fn read_effort_limit(
    p: &Params,
    kind: JointKind,
    actuated: bool,
) -> Result<Vec<f64>, ParamError> {
    const KEY: &str = "effort_limit";
    let Some(values) = p.vector(KEY)? else {
        return Ok(Vec::new());
    };
    p.ensure(
        actuated,
        KEY,
        "saturates the input t, and this joint has none",
        "write actuation = \"input\" to drive the joint through t, or remove effort_limit",
    )?;
    let nv = kind.nv();
    let values = match values.len() {
        1 => vec![values[0]; nv],
        n if n == nv => values,
        n => {
            return Err(p
                .error(
                    KEY,
                    format!(
                        "'effort_limit' has {n} values but the joint has {nv} degrees of freedom"
                    ),
                )
                .hint(format!(
                    "write one number (all axes), or {nv} (one per axis)"
                )))
        }
    };
    p.ensure(
        values.iter().all(|e| *e > 0.0),
        KEY,
        "must be positive",
        "write the largest force (N) or torque (N·m) the actuator can apply, e.g. effort_limit = 10, or remove it for no saturation",
    )?;
    Ok(values)
}

/// Clamps each `tau[k]` to ±`effort[k]` (no-op when `effort` is empty). Does not allocate.
#[inline]
pub fn saturate(effort: &[f64], tau: &mut [f64]) {
    for (t, e) in tau.iter_mut().zip(effort) {
        *t = t.clamp(-e, *e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturation_clamps_each_axis_symmetrically() {
        let mut tau = [5.0, -7.0, 0.5];
        saturate(&[2.0, 3.0, 1.0], &mut tau);
        assert_eq!(tau, [2.0, -3.0, 0.5]);
        let mut free = [5.0];
        saturate(&[], &mut free);
        assert_eq!(free, [5.0]);
    }
}
