//! A SpatialContactForce's pair overlapping at the start (issue 28): how deep, against the depth
//! at which its normal law would carry the mechanism's weight at rest.

use super::side::Side;
use crate::block::{Binding, StartOverlap};
use crate::contact::normal_force::NormalForceLaw;
use nalgebra::Isometry3;

/// The pair's overlap at the start, d = −(signed separation) of the two geometries at their
/// initial World poses, against the normal law's static depth d₀ under the whole mechanism's
/// weight (see [`super::super::contact_advice::ContactAdvice`]: W/k for the linear laws).
pub(super) fn start_overlap(
    [base, follower]: [&Side; 2],
    normal: &NormalForceLaw,
    binding: &Binding,
    body_pose: &dyn Fn(usize) -> Isometry3<f64>,
    total_mass: f64,
    gravity: f64,
) -> Option<StartOverlap> {
    let pose = |port: &str, side: &Side| Some(body_pose(binding.port(port)?.body) * side.placement);
    let (pose_base, pose_follower) = (pose("B", base)?, pose("F", follower)?);
    let contact =
        crate::geometry::query(&base.shape, &pose_base, &follower.shape, &pose_follower).ok()?;
    let depth = -contact.separation;
    if depth.is_nan() || depth <= 0.0 {
        return None;
    }
    let weight = total_mass * gravity;
    let advice = super::super::contact_advice::ContactAdvice::compute(normal, weight, total_mass)?;
    Some(StartOverlap {
        pair: format!("{} and {}", base.label, follower.label),
        depth,
        static_depth: advice.static_depth,
        static_law: format!(
            "the {} law's depth under the mechanism's weight W = {weight:.4} N, k = {}",
            advice.law, advice.stiffness
        ),
    })
}
