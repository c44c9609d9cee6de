//! Errors of the frame network compilation.

use super::mechanism::FrameId;
use thiserror::Error;

/// Why a frame network cannot be compiled into a mechanism. Messages name frames and joints by the
/// labels given to the builder and say what to change.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MechanismError {
    /// No frame was declared the World frame.
    #[error("the mechanism has no World frame: connect a WorldFrame block's W port to the frame network")]
    NoWorldFrame,
    /// More than one World frame.
    #[error("two World frames, '{first}' and '{second}': a mechanism has a single World frame; use one WorldFrame block (connect everything fixed to its W port)")]
    TwoWorldFrames {
        /// First World frame's label.
        first: String,
        /// Second World frame's label.
        second: String,
    },
    /// Some frames have no path to the World frame.
    #[error("frames {frames} are not connected to the World frame: connect them to it through joints or rigid transforms, or remove them")]
    NotConnectedToWorld {
        /// The unconnected frames' labels (quoted, comma separated, possibly abbreviated).
        frames: String,
        /// The first unconnected frame's label.
        first: String,
    },
    /// A joint closes a kinematic loop it cannot close: its two frames are on one rigid body, or
    /// it is of a kind, or carries actuation, springs or limits, that a loop closure does not take.
    #[error("joint '{joint}' closes a kinematic loop but {why} (its frames '{base}' and '{follower}' are already connected through other joints or rigid connections)")]
    ClosedLoop {
        /// The joint that closes the loop.
        joint: String,
        /// Its base frame's label.
        base: String,
        /// Its follower frame's label.
        follower: String,
        /// Why it cannot be a loop closure, and what to do.
        why: String,
    },
    /// A loop of rigid connections that does not close.
    #[error("inconsistent rigid connections: frame '{frame}' is placed differently by two chains of rigid transforms/connections (a loop of rigid connections must close exactly); remove one of the chains")]
    InconsistentRigidLoop {
        /// The frame placed twice.
        frame: String,
    },
    /// A joint must accelerate something without (enough) inertia.
    #[error("joint '{joint}' moves a body with no mass or inertia in the direction it moves (the body of frames {frames} and everything beyond it): add a Solid with mass to that body or beyond it, or replace joint '{joint}' by a weld joint")]
    MasslessBody {
        /// The joint.
        joint: String,
        /// The labels of the body's frames.
        frames: String,
    },
    /// Inconsistent joint parameters.
    #[error("joint '{joint}' ({kind}): {what}")]
    BadJointSpec {
        /// The joint.
        joint: String,
        /// Its kind's name.
        kind: &'static str,
        /// What is wrong and what to write instead.
        what: String,
    },
    /// Inconsistent solid parameters.
    #[error("solid '{solid}': {what}")]
    BadSolid {
        /// The solid.
        solid: String,
        /// What is wrong.
        what: String,
    },
    /// A handle not returned by `add_frame`.
    #[error(
        "internal error: frame handle {handle} used in '{context}' was not returned by add_frame"
    )]
    BadFrameHandle {
        /// The bad handle.
        handle: FrameId,
        /// Where it was used.
        context: String,
    },
    /// Gravity with a non-finite component.
    #[error("gravity must be finite, got {gravity:?}")]
    BadGravity {
        /// The given gravity.
        gravity: [f64; 3],
    },
}

/// What a [`MechanismError`] is about: the label a model author gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorSubject<'a> {
    /// A joint, by its label.
    Joint(&'a str),
    /// A solid, by its label.
    Solid(&'a str),
    /// A frame, by its label.
    Frame(&'a str),
}

impl MechanismError {
    /// The joint, solid or frame the error is about, if it is about one (for locating it in a
    /// model file without reading the message).
    pub fn subject(&self) -> Option<ErrorSubject<'_>> {
        use MechanismError::*;
        Some(match self {
            TwoWorldFrames { second, .. } => ErrorSubject::Frame(second),
            NotConnectedToWorld { first, .. } => ErrorSubject::Frame(first),
            ClosedLoop { joint, .. } | MasslessBody { joint, .. } | BadJointSpec { joint, .. } => {
                ErrorSubject::Joint(joint)
            }
            InconsistentRigidLoop { frame } => ErrorSubject::Frame(frame),
            BadSolid { solid, .. } => ErrorSubject::Solid(solid),
            NoWorldFrame | BadFrameHandle { .. } | BadGravity { .. } => return None,
        })
    }
}
