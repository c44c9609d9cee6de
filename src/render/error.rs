//! Why an animation could not be drawn, encoded or written: below the renderer, the GIF writer
//! and the file writer, which all raise it.

use super::camera::CameraError;
use crate::output::image::{MAX_SIDE, MIN_SIDE};
use crate::output::OutputError;
use std::path::PathBuf;
use thiserror::Error;

/// Why frames could not be drawn or encoded.
#[derive(Debug, Error)]
pub enum RenderError {
    #[error("image size {width}×{height} px is outside {MIN_SIDE}..={MAX_SIDE} px per side")]
    InvalidSize { width: u32, height: u32 },
    #[error(transparent)]
    Camera(#[from] CameraError),
    #[error("the run recorded no frames")]
    NoFrames,
    #[error("drawing the time label failed: {0}")]
    Text(String),
    #[error("GIF encoding failed: {0}")]
    Encode(String),
}

/// Why an animation file could not be written. Every variant names the target path.
#[derive(Debug, Error)]
pub enum AnimationError {
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("cannot write animation '{}': {source}", path.display())]
    Render {
        path: PathBuf,
        #[source]
        source: RenderError,
    },
}
