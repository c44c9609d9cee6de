//! A joint's `<limit effort>` and `<dynamics friction>`: read, checked, and mapped onto the joint
//! block's `effort_limit` (a saturation of the actuation input) and `friction` (Coulomb, with the
//! URDF value as its limit). `<dynamics damping>` is read beside them in `read.rs`.

use super::reader::Reader;
use crate::model::Diagnostic;

impl Reader<'_> {
    /// `<limit effort>` (N·m or N) when positive; `None` when 0 or absent (URDF files write 0 for
    /// joints without an actuator). Negative is refused.
    pub(super) fn limit_effort(
        &self,
        limit: &roxmltree::Node,
        joint: &str,
    ) -> Result<Option<f64>, Diagnostic> {
        let effort = self.number_or(limit, "effort", 0.0)?;
        if effort < 0.0 {
            return Err(self
                .attr_error(limit, "effort", format!("joint '{joint}': negative effort {effort}"))
                .hint("write the largest torque (N·m) or force (N) the joint's actuator applies, 0 or more"));
        }
        Ok((effort > 0.0).then_some(effort))
    }

    /// `<dynamics friction>` (N·m or N) when positive; `None` when 0 or absent. Negative is
    /// refused.
    pub(super) fn dynamics_friction(
        &self,
        dynamics: &roxmltree::Node,
        joint: &str,
    ) -> Result<Option<f64>, Diagnostic> {
        let friction = self.number_or(dynamics, "friction", 0.0)?;
        if friction < 0.0 {
            return Err(self
                .attr_error(
                    dynamics,
                    "friction",
                    format!("joint '{joint}': negative friction {friction}"),
                )
                .hint("write the largest friction torque (N·m) or force (N), 0 or more: friction always opposes the motion"));
        }
        Ok((friction > 0.0).then_some(friction))
    }
}
