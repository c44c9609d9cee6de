//! What an animation draws: the settings of `[output] animation` / `view` (path, size, frame
//! rate, camera, frames), read by `model` and followed by the GIF and viewer writers.

use super::image::{Camera, DEFAULT_FRAME_RATE, DEFAULT_SIZE};

/// `[output]` animation settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationSettings {
    /// Where to write the animated GIF (`--animate` overrides it); `None`: no animation.
    pub path: Option<String>,
    /// Where to write the browser viewer page (`[output] view`, `--view` overrides it); `None`:
    /// none. It shows the same frames (same rate) as the GIF.
    pub view: Option<String>,
    /// Image width and height, px.
    pub size: [u32; 2],
    /// Frames per second of simulated time (and of playback).
    pub fps: f64,
    /// A fixed camera; `None` frames the motion automatically.
    pub camera: Option<Camera>,
    /// The frames whose axes are drawn (GIF and viewer alike), `[output] draw_frames`.
    pub frames: DrawFrames,
}

/// Which frames' axes an animation draws (`[output] draw_frames`).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum DrawFrames {
    /// None (the default; `draw_frames = false`).
    #[default]
    None,
    /// Every frame port of every physical block (`draw_frames = true`).
    All,
    /// The frames named "block.port" (`draw_frames = ["arm.F", "pivot.B"]`).
    Named(Vec<String>),
}

impl Default for AnimationSettings {
    fn default() -> Self {
        Self {
            path: None,
            view: None,
            size: DEFAULT_SIZE,
            fps: DEFAULT_FRAME_RATE,
            camera: None,
            frames: DrawFrames::None,
        }
    }
}
