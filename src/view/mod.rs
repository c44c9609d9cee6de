//! The browser viewer (`blockdyn run --view PATH.html`, `[output] view = "PATH.html"`): one
//! self-contained HTML file that shows a run's mechanism in 3-D (orbit, pan, zoom), with a time
//! slider, play/pause and speed, the contact forces as arrows, the located events as marks on the
//! slider, and the recorded signals plotted under the scene with a cursor that follows the slider.
//!
//! The page needs no server and no network: it holds the run's data as JSON ([`data`]), the
//! WebGL library three.js (vendored, MIT licence, `src/view/vendor/README.md`) and its own
//! script (`viewer.js`, written by hand, no build step), assembled by [`page`].
//!
//! **Size budget**: a page of the README's scenes stays under [`SIZE_BUDGET_BYTES`] (5 MiB).
//! three.js takes about 0.7 MB; the frames are the animation's (at most
//! [`crate::render::MAX_FRAMES`]), the signals at most [`data::SIGNAL_POINTS`] points. A page
//! over the budget is still written (a user asked for it), with a warning ([`size_warning`])
//! that says what to change: fewer frames (a lower `[output] animation_fps`), fewer drawn frames'
//! axes, fewer logged signals.
//!
//! **Testing hooks**: the page reads `#t=SECONDS` from its URL (starts paused there) and writes a
//! JSON status into `<pre id="status">` after each drawn frame (loaded or not, console errors,
//! the time, the first item's pose, the plot cursor's position), so that a headless browser's
//! `--dump-dom` can be checked.

pub mod data;
pub mod json;
pub mod page;

pub use data::ViewData;

use crate::render::{RenderError, RenderOptions, Renderer};
use std::path::PathBuf;
use thiserror::Error;

/// The documented size budget of a viewer page of the README's scenes, bytes (5 MiB).
pub const SIZE_BUDGET_BYTES: usize = 5 << 20;

/// The warning for a viewer page `path` of `bytes` bytes holding `frames` animation frames taken
/// `frame_interval` s of simulated time apart: `None` within [`SIZE_BUDGET_BYTES`]. The frames
/// grow the page in proportion to their number (each holds a pose per drawn item), so the advice
/// names the frame rate that would bring the frames' share under the budget, estimated as
/// (1 / frame_interval) · budget / bytes (at least 1 frame/s), rounded down. The rate is the one
/// the frames were taken at, not `[output] animation_fps`: a long run's frames are capped at
/// [`crate::render::MAX_FRAMES`], spread further apart than the setting asks.
pub fn size_warning(
    path: &std::path::Path,
    bytes: usize,
    frames: usize,
    frame_interval: f64,
) -> Option<String> {
    if bytes <= SIZE_BUDGET_BYTES {
        return None;
    }
    let fps = if frame_interval > 0.0 {
        1.0 / frame_interval
    } else {
        1.0
    };
    let mib = |b: usize| b as f64 / (1u64 << 20) as f64;
    let suggested = (fps * SIZE_BUDGET_BYTES as f64 / bytes as f64)
        .floor()
        .max(1.0);
    Some(format!(
        "the viewer page '{}' is {:.1} MiB, over its budget of {:.0} MiB (it holds {frames} frames at {fps:.3} frames/s): write fewer frames with a lower [output] animation_fps (e.g. animation_fps = {suggested}), draw fewer frames' axes (draw_frames), or log fewer signals",
        path.display(),
        mib(bytes),
        mib(SIZE_BUDGET_BYTES),
    ))
}

/// Why a viewer page could not be made.
#[derive(Debug, Error)]
pub enum ViewError {
    /// The scene could not be set up (no frames, a bad camera).
    #[error("cannot write viewer '{}': {source}", path.display())]
    Scene {
        /// The page's path.
        path: PathBuf,
        /// What the scene setup reported.
        #[source]
        source: RenderError,
    },
}

/// The viewer page of `data` as HTML text. `path` is named in errors only.
pub fn page_html(data: &ViewData<'_>, path: &std::path::Path) -> Result<String, ViewError> {
    let scene_error = |source| ViewError::Scene {
        path: path.to_path_buf(),
        source,
    };
    if data.animation.frames.is_empty() {
        return Err(scene_error(RenderError::NoFrames));
    }
    // The GIF renderer's setup gives the meshes (plane patches sized to the motion), the camera
    // and the arrow scale; its canvas is the default GIF size, only to fix the camera's aspect.
    let options = RenderOptions {
        camera: data.camera,
        ..RenderOptions::default()
    };
    let renderer = Renderer::new(data.animation, &options).map_err(scene_error)?;
    let scene = data::SceneSetup {
        meshes: renderer.meshes().to_vec(),
        camera: *renderer.camera(),
        arrow_scale: renderer.arrow_scale(),
    };
    let json = data::write_json(data, &scene);
    Ok(page::assemble(data.title, &json))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// No warning up to the budget itself (5·2²⁰ bytes); one byte over warns, names the path,
    /// the size and a frame rate that would fit: 25 frames/s · 5 MiB / 10 MiB = 12.5 → 12.
    #[test]
    fn the_page_size_warning_fires_above_the_budget_only() {
        let path = Path::new("/tmp/page.html");
        assert_eq!(size_warning(path, SIZE_BUDGET_BYTES, 400, 0.04), None);
        assert_eq!(size_warning(path, 1000, 10, 0.04), None);
        let over = size_warning(path, SIZE_BUDGET_BYTES + 1, 400, 0.04).expect("over budget");
        assert!(
            over.contains("/tmp/page.html") && over.contains("5.0 MiB"),
            "{over}"
        );
        let twice = size_warning(path, 2 * SIZE_BUDGET_BYTES, 400, 0.04).unwrap();
        assert!(
            twice.contains("10.0 MiB") && twice.contains("animation_fps = 12"),
            "{twice}"
        );
        assert!(twice.contains("400 frames at 25.000 frames/s"), "{twice}");
        // 100 s at 25 frames/s is capped at 400 frames 0.2506 s apart (3.99 frames/s): the advice
        // halves that rate, not the setting's 25 (12 would still give 400 frames).
        let capped = size_warning(path, 2 * SIZE_BUDGET_BYTES, 400, 100.0 / 399.0).unwrap();
        assert!(
            capped.contains("3.990 frames/s") && capped.contains("animation_fps = 1"),
            "{capped}"
        );
    }
}
