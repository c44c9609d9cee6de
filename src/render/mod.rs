//! Animations of a run: the mechanism's geometries drawn in their true shapes at each frame, with
//! the contact forces as arrows, written as an animated GIF.
//!
//! The renderer takes plain data ([`Animation`]: shapes, a pose per item per frame, arrows) and
//! knows nothing of blocks or of the engine; `sim::animation` fills it from a run.
//!
//! The pipeline, per frame: each item's mesh ([`mesh`], in its frame R) is moved to the World by
//! its pose, into the camera frame ([`camera`]: a pinhole with a 35° vertical field of view),
//! clipped at a near plane, projected, and filled into an indexed-colour framebuffer with a depth
//! buffer ([`raster`]); faces are flat-shaded (Lambert, a light fixed to the camera), then the
//! edges are drawn where visible, then the arrows and the time label over everything. The frames
//! are encoded as a GIF ([`gif_out`]) with a fixed 256-colour palette ([`palette`]).
//!
//! The automatic camera ([`camera::auto_camera`]) frames the bounding boxes of every bounded item
//! over the whole motion (the moving bodies' paths and the fixed geometry alike, glyphs by their
//! origins and a link by its ends), from a three-quarter view above; an infinite plane is drawn as
//! a patch under all of that (widened on each side by half its larger side, at least by a quarter
//! of the scene's size) and framed too. Arrows are scaled so that the largest force of the animation is 0.3 of the
//! scene's size, glyphs ([`glyph`]) to [`glyph::GLYPH_FRACTION`] of it.

pub mod camera;
pub mod draw;
mod error;
pub mod gif_out;
pub mod glyph;
pub mod mesh;
mod options;
pub mod palette;
pub mod raster;
pub mod scene;
mod text;

pub use camera::{Camera, CameraError};
pub use draw::Renderer;
pub use error::{AnimationError, RenderError};
pub use options::RenderOptions;
pub use scene::{
    Animation, Arrow, FrameSnapshot, Glyph, ItemShape, JointGlyph, Material, SceneItem,
};

use crate::output::write_atomically;
use std::path::Path;

pub use crate::output::image::{DEFAULT_FRAME_RATE, DEFAULT_SIZE, MAX_SIDE, MIN_SIDE};
/// Most frames in one animation: a longer run is sampled more sparsely (and plays faster than
/// real time).
pub const MAX_FRAMES: usize = 400;

/// Renders every frame of `animation` and encodes them as a GIF into memory; returns the bytes.
pub fn encode_gif(animation: &Animation, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    if animation.frames.is_empty() {
        return Err(RenderError::NoFrames);
    }
    let mut renderer = Renderer::new(animation, options)?;
    let mut stream = gif_out::GifStream::new(
        Vec::new(),
        options.width,
        options.height,
        options.delay_cs(),
    )?;
    for k in 0..animation.frames.len() {
        stream.push(renderer.render(k)?)?;
    }
    stream.finish()
}

/// Writes `animation` as an animated GIF to `path` (whole or not at all: a failed write never
/// replaces a good file).
pub fn write_gif(
    path: &Path,
    animation: &Animation,
    options: &RenderOptions,
) -> Result<(), AnimationError> {
    let bytes = encode_gif(animation, options).map_err(|source| AnimationError::Render {
        path: path.to_path_buf(),
        source,
    })?;
    write_atomically(path, "animation", |w| w.write_all(&bytes))?;
    Ok(())
}
