//! The base geometry's motion and pose when the base is fixed to the World, worked out once when
//! the block is bound: the World body's kinematics signal is the same at every evaluation
//! (identity rotation, zero position and velocities), so an evaluation composes and converts
//! only the follower's side. The signal is still compared bit for bit with the one assumed, and
//! an evaluation that sees another one derives the base's motion from it as usual.

use crate::block::physical::KINEMATICS_LEN;
use crate::block::same_bits;
use crate::blocks::multibody::FrameMotion;
use nalgebra::Isometry3;

/// The World body's kinematics signal as the mechanism writes it: R_WB = I (column-major), then
/// p, ω and v all zero.
const WORLD_KINEMATICS: [f64; KINEMATICS_LEN] = [
    1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
];

/// The motion and pose of a frame at a fixed placement on the World body.
#[derive(Clone, Debug)]
pub(super) struct StaticBase {
    motion: FrameMotion,
    pose: Isometry3<f64>,
}

impl StaticBase {
    /// The frame at `placement` on the World body: exactly what [`FrameMotion::of`] and
    /// [`FrameMotion::isometry`] give for the World's kinematics signal.
    pub(super) fn at(placement: &Isometry3<f64>) -> Self {
        let motion = FrameMotion::of(&WORLD_KINEMATICS, placement);
        Self {
            pose: motion.isometry(),
            motion,
        }
    }

    /// The motion and pose for the kinematics signal `kin`, if it is the World's.
    #[inline]
    pub(super) fn for_signal(&self, kin: &[f64]) -> Option<(&FrameMotion, &Isometry3<f64>)> {
        same_bits(&kin[..KINEMATICS_LEN], &WORLD_KINEMATICS).then_some((&self.motion, &self.pose))
    }
}
