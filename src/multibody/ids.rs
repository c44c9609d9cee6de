//! The handles of the frame network and the mechanism: plain indices, below every file that
//! speaks of frames, joints and bodies (the mechanism re-exports them, `multibody::FrameId`, …).

/// Handle of a frame in the frame network (returned by `add_frame`).
pub type FrameId = usize;
/// Handle of a joint in the frame network (returned by `add_joint`), welds included.
pub type JointId = usize;
/// Index of a body in the mechanism; 0 is the World body.
pub type BodyIndex = usize;

/// The World body's index.
pub const WORLD_BODY: BodyIndex = 0;
