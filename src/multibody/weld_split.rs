//! One weld joint's place in its merged body ([`WeldSplit`]), which the mechanism keeps: below
//! the mechanism, which holds the splits, and the weld's reaction ([`super::weld`]), which finds
//! them at build time and sums one side at run time.
//!
//! A side is a set of preorder numbers of the body's frames (the rigid-connection graph's DFS
//! numbering, `weld.rs`): the group's contiguous range, and inside it the DFS subtree the weld's
//! edge leads into, or the rest of the group. A side test is two range comparisons.

use super::ids::{BodyIndex, JointId};
use super::spatial::SpatialInertia;
use nalgebra::Isometry3;
use std::ops::Range;

/// One weld joint's place in its body (built by the frame network).
#[derive(Clone, Debug)]
pub(crate) struct WeldSplit {
    /// The weld joint.
    pub joint: JointId,
    /// The merged body holding both its frames (0 for a weld on the World body).
    pub body: BodyIndex,
    /// F's pose in the body's frame.
    pub follower_in_body: Isometry3<f64>,
    /// The follower side, or `None` when the weld lies on a cycle of rigid connections.
    pub side: Option<WeldSide>,
}

/// The follower side of a weld that is a bridge of its body's rigid-connection graph.
#[derive(Clone, Debug)]
pub(crate) struct WeldSide {
    /// The preorder numbers of the body's frames.
    pub(super) group: Range<usize>,
    /// The preorder numbers of the DFS subtree the weld's edge leads into.
    pub(super) subtree: Range<usize>,
    /// Whether the follower side is that subtree (else the rest of the group).
    pub(super) inside: bool,
    /// The follower side's solids' spatial inertia, body frame, about the body origin.
    pub inertia: SpatialInertia,
    /// The tree children of the body whose joint attaches to a summed-side frame.
    pub children: Vec<BodyIndex>,
    /// Whether the summed side is the base side (then the reaction is its wrench negated).
    pub negate: bool,
}

impl WeldSide {
    /// Whether a frame of preorder number `pre` is on the summed side.
    pub(crate) fn holds(&self, pre: usize) -> bool {
        self.group.contains(&pre) && (self.subtree.contains(&pre) == self.inside)
    }

    /// Sums the other side instead (the base side's wrench, negated, is the reaction).
    pub(super) fn flip(&mut self) {
        self.inside = !self.inside;
        self.negate = !self.negate;
    }
}
