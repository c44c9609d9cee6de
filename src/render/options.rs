//! How to draw an animation ([`RenderOptions`]): below the renderer (`draw.rs`), which checks
//! and reads them, and the GIF encoding (`mod.rs`), which reads the frame delay.

use super::camera::Camera;
use super::error::RenderError;
use crate::output::image::{DEFAULT_FRAME_RATE, DEFAULT_SIZE, MAX_SIDE, MIN_SIDE};

/// How to draw an animation.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Image width, px.
    pub width: u32,
    /// Image height, px.
    pub height: u32,
    /// The camera; `None` frames the whole motion automatically.
    pub camera: Option<Camera>,
    /// Frames shown per second of playback.
    pub playback_rate: f64,
    /// Draw the simulated time in the top-left corner.
    pub time_label: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            width: DEFAULT_SIZE[0],
            height: DEFAULT_SIZE[1],
            camera: None,
            playback_rate: DEFAULT_FRAME_RATE,
            time_label: true,
        }
    }
}

impl RenderOptions {
    /// Checks the image size (each side within [`MIN_SIDE`], [`MAX_SIDE`] px).
    pub(super) fn check(&self) -> Result<(), RenderError> {
        let side = MIN_SIDE..=MAX_SIDE;
        if !side.contains(&self.width) || !side.contains(&self.height) {
            return Err(RenderError::InvalidSize {
                width: self.width,
                height: self.height,
            });
        }
        Ok(())
    }

    /// The GIF frame delay: 1/playback_rate rounded to hundredths of a second, at least 2 (the
    /// shortest delay browsers honour).
    pub fn delay_cs(&self) -> u16 {
        (100.0 / self.playback_rate).round().clamp(2.0, 6000.0) as u16
    }
}
