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
//! over the budget is still written (a user asked for it).
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
