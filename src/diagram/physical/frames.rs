//! The scene's named frames ("block.port" and its frame in the network), the names kept as one
//! text: a 20,000-joint URDF chain has about 220,000 frame ports, whose names as one `String`
//! each (24 bytes inline, and an allocation of 32 for ~12 bytes of text) and `usize` frames were
//! 13 MB of the diagram.

use crate::multibody::labels::Labels;
use crate::multibody::FrameId;
use std::fmt;

/// Every frame port's frame with its name "block.port", in model order (what an animation's
/// `draw_frames` names).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct NamedFrames {
    /// Frame port k's name is `names[k]`.
    names: Labels,
    /// Frame port k's frame.
    frames: Vec<u32>,
}

impl NamedFrames {
    /// Appends the frame `frame` named `block.port`. Panics past 4 GiB of names or 2³² frames
    /// (a model of ~300 million frame ports).
    pub(crate) fn push(&mut self, block: &str, port: &str, frame: FrameId) {
        self.names.push(&[block, ".", port]);
        let frame = u32::try_from(frame).expect("frame handles past 2^32");
        self.frames.push(frame);
    }

    /// Gives back the unused capacity (the scene keeps it as built).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.names.shrink_to_fit();
        self.frames.shrink_to_fit();
    }

    /// How many named frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Frame port `k`'s name and frame.
    pub fn get(&self, k: usize) -> Option<(&str, FrameId)> {
        let frame = *self.frames.get(k)?;
        Some((&self.names[k], frame as FrameId))
    }

    /// Every frame port's name and frame, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, FrameId)> + '_ {
        (0..self.len()).filter_map(|k| self.get(k))
    }
}

impl fmt::Debug for NamedFrames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::NamedFrames;

    /// The names and frames come back as pushed, in order, an empty port name included.
    #[test]
    fn frames_come_back_as_pushed() {
        let mut frames = NamedFrames::default();
        assert!(frames.is_empty());
        frames.push("arm/l0", "F", 3);
        frames.push("b", "", 0);
        frames.push("world", "W", 7);
        frames.shrink_to_fit();
        let all: Vec<(&str, usize)> = frames.iter().collect();
        assert_eq!(all, [("arm/l0.F", 3), ("b.", 0), ("world.W", 7)]);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames.get(3), None);
    }
}
