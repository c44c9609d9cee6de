//! PNG plots of a run's [`Recording`].
//!
//! [`plot_png`] draws one panel per Scope (`Recording::panels`), stacked vertically, plus a panel
//! titled "logged" for columns recorded only through `[output] log`; a panel whose columns have
//! different units is split into one panel per unit (`"scope [m]"`, `"scope [N]"`), and one whose
//! columns share a unit says it in its title as well (`"heights [m]"`). Located events are marked by
//! vertical lines, or by short ticks at the bottom when they are denser than one per
//! [`render::DENSE_EVENT_PIXELS`]. Each panel has its title, the time axis "time (s)" (shared
//! range across panels), a value axis fitted to the data with a 5 % margin and labelled with the
//! unit, and a legend on the right saying what each column is: the block, the port and element,
//! the quantity and the unit (`joint: p[2] (position, m)`, see
//! [`crate::output::Column::legend`]); a curve covered everywhere by one drawn after it says so
//! there (`free: v[0] (velocity, m/s) (hidden by [1])`).
//!
//! Behaviour at the edges:
//! - **Empty recording** (no rows): a plot is still written, with every panel saying "no data"
//!   (a panel without columns says "no signals"). This keeps `--plot` predictable: the file is there.
//! - **Non-finite values** (NaN, ±∞) are not drawn: the line has a gap there. A column without any
//!   finite value is marked "(no data)" in the legend.
//! - **Long recordings**: above 4 rows per pixel column of the plotting area, each column is reduced
//!   to the first, last, minimum and maximum row of each pixel column (see [`decimate`]), which
//!   draws the same picture at a cost independent of the row count.
//! - **Many panels**: each panel gets at least [`MIN_PANEL_HEIGHT`] px; the image is made taller than
//!   requested when needed (up to [`MAX_IMAGE_SIDE`]).
//!
//! Text is drawn with DejaVu Sans embedded in the binary (no system fonts are needed).
//! The image is rendered into memory and encoded as 8-bit RGB PNG through
//! [`crate::output::write_atomically`]: a failed write never replaces a good file.

pub mod axis;
pub mod decimate;
pub mod font;
pub mod panels;
pub mod render;

use std::io;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use thiserror::Error;

use crate::output::{write_atomically, OutputError, Recording};

pub use panels::LOGGED_PANEL_TITLE;
pub use render::MIN_PANEL_HEIGHT;

/// Largest accepted image width or height, px (bounds the in-memory buffer to 8192² × 3 bytes).
pub const MAX_IMAGE_SIDE: u32 = 8192;
/// Smallest accepted image width or height, px (below this, axes and legend cannot be laid out).
pub const MIN_IMAGE_SIDE: u32 = 200;

/// How to draw the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotOptions {
    /// Image width, px (default 1200).
    pub width: u32,
    /// Image height, px (default 800); grown to fit [`MIN_PANEL_HEIGHT`] per panel.
    pub height: u32,
    /// Optional title above all panels (e.g. the model's file name).
    pub title: Option<String>,
}

impl Default for PlotOptions {
    fn default() -> Self {
        Self {
            width: 1200,
            height: 800,
            title: None,
        }
    }
}

/// Why a plot could not be written. Every variant names the target path.
#[derive(Debug, Error)]
pub enum PlotError {
    /// Writing the file failed (missing directory, target is a directory, I/O error).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The requested image size is outside [`MIN_IMAGE_SIDE`]..=[`MAX_IMAGE_SIDE`] per side.
    #[error(
        "cannot write plot '{}': image size {width}×{height} px is outside {MIN_IMAGE_SIDE}..={MAX_IMAGE_SIDE} px per side",
        path.display()
    )]
    InvalidSize {
        /// The requested target path.
        path: PathBuf,
        /// Requested width, px.
        width: u32,
        /// Requested height, px.
        height: u32,
    },
    /// So many panels that even at [`MIN_PANEL_HEIGHT`] each they exceed [`MAX_IMAGE_SIDE`].
    #[error(
        "cannot write plot '{}': {panels} panels need {needed} px of height, more than {MAX_IMAGE_SIDE}; \
         plot fewer scopes",
        path.display()
    )]
    TooManyPanels {
        /// The requested target path.
        path: PathBuf,
        /// Number of panels.
        panels: usize,
        /// Height they would need, px.
        needed: u64,
    },
    /// The recording is internally inconsistent (a bug in the caller, reported instead of panicking).
    #[error("cannot write plot '{}': {reason}", path.display())]
    InvalidRecording {
        /// The requested target path.
        path: PathBuf,
        /// What is inconsistent.
        reason: String,
    },
    /// The path does not end in `.png`: plots are written as PNG only (an `.svg` name would get PNG
    /// bytes).
    #[error("cannot write plot '{}': plots are PNG only; name the file with .png (e.g. '{}')", path.display(), path.with_extension("png").display())]
    NotPng {
        /// The requested target path.
        path: PathBuf,
    },
    /// The embedded font could not be loaded (a broken build).
    #[error("cannot write plot '{}': the embedded DejaVu Sans font could not be loaded", path.display())]
    Font {
        /// The requested target path.
        path: PathBuf,
    },
    /// plotters reported a drawing failure.
    #[error("cannot write plot '{}': drawing failed: {message}", path.display())]
    Render {
        /// The requested target path.
        path: PathBuf,
        /// plotters' message.
        message: String,
    },
}

/// An image rendered in memory: `width × height` pixels, 8-bit RGB, row-major from the top left.
#[derive(Clone, Debug, PartialEq)]
pub struct RgbImage {
    /// Width, px.
    pub width: u32,
    /// Height, px.
    pub height: u32,
    /// `3 · width · height` bytes.
    pub pixels: Vec<u8>,
}

/// Draws `rec` and writes it as a PNG to `path`, whole or not at all. See the module documentation
/// for the layout and the handling of empty, non-finite and long recordings.
pub fn plot_png(rec: &Recording, path: &Path, options: &PlotOptions) -> Result<(), PlotError> {
    // Where the file cannot go (a directory, a missing directory) is said before its name's extension.
    crate::output::check_target(path, "plot")?;
    check_format(path)?;
    let image = render_rgb(rec, path, options)?;
    write_atomically(path, "plot", |w| encode_png(&image, w))?;
    Ok(())
}

/// Checks that `path` names a PNG file (its extension is `png`, in any case).
pub fn check_format(path: &Path) -> Result<(), PlotError> {
    let png = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        Ok(())
    } else {
        Err(PlotError::NotPng {
            path: path.to_path_buf(),
        })
    }
}

/// Draws `rec` into an in-memory RGB image (what [`plot_png`] encodes). `path` only names the
/// target in errors.
pub fn render_rgb(
    rec: &Recording,
    path: &Path,
    options: &PlotOptions,
) -> Result<RgbImage, PlotError> {
    render_rgb_with(rec, path, options, true)
}

/// [`render_rgb`], with the per-pixel-column reduction of long columns switchable (off only to
/// test that it does not change the picture).
fn render_rgb_with(
    rec: &Recording,
    path: &Path,
    options: &PlotOptions,
    decimate: bool,
) -> Result<RgbImage, PlotError> {
    let path_buf = || path.to_path_buf();
    let side_ok = |s: u32| (MIN_IMAGE_SIDE..=MAX_IMAGE_SIDE).contains(&s);
    if !side_ok(options.width) || !side_ok(options.height) {
        return Err(PlotError::InvalidSize {
            path: path_buf(),
            width: options.width,
            height: options.height,
        });
    }
    let expected_values = rec.times.len().checked_mul(rec.columns.len());
    if expected_values != Some(rec.values.len()) {
        return Err(PlotError::InvalidRecording {
            path: path_buf(),
            reason: format!(
                "the recording holds {} values, expected {} rows × {} columns",
                rec.values.len(),
                rec.times.len(),
                rec.columns.len()
            ),
        });
    }
    let plans = panels::plan_panels(rec).map_err(|reason| PlotError::InvalidRecording {
        path: path_buf(),
        reason,
    })?;
    let title_height: u64 = if options.title.is_some() { 40 } else { 0 };
    let needed = plans.len() as u64 * u64::from(MIN_PANEL_HEIGHT) + title_height;
    if needed > u64::from(MAX_IMAGE_SIDE) {
        return Err(PlotError::TooManyPanels {
            path: path_buf(),
            panels: plans.len(),
            needed,
        });
    }
    let width = options.width;
    let height = options.height.max(needed as u32);
    if !font::ensure_fonts_registered() {
        return Err(PlotError::Font { path: path_buf() });
    }

    let mut pixels = vec![255u8; 3 * width as usize * height as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        render::draw_recording(&root, rec, &plans, options.title.as_deref(), decimate).map_err(
            |e| PlotError::Render {
                path: path_buf(),
                message: e.0,
            },
        )?;
    }
    Ok(RgbImage {
        width,
        height,
        pixels,
    })
}

/// Encodes `image` as an 8-bit RGB PNG onto `w`.
pub fn encode_png(image: &RgbImage, w: &mut dyn io::Write) -> io::Result<()> {
    let to_io = |e: png::EncodingError| match e {
        png::EncodingError::IoError(e) => e,
        other => io::Error::other(format!("PNG encoding failed: {other}")),
    };
    let mut encoder = png::Encoder::new(w, image.width, image.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(to_io)?;
    writer.write_image_data(&image.pixels).map_err(to_io)?;
    writer.finish().map_err(to_io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Column;

    /// The reduction is meant to be invisible. 200 000 rows of a signal with content at every
    /// time scale (a chirp plus a slow drift, with one event jump) are rendered with and without
    /// it. The data drawn differ (4 points per pixel column instead of ~300), and a 2 px stroke
    /// widens a near-horizontal segment vertically but a steep one only sideways, so the edges of
    /// the envelope may move by up to the stroke width. The check: every line pixel of either
    /// image has a line pixel of the other within 2 px (a 5 × 5 neighbourhood), i.e. the pictures
    /// are at most one stroke width apart, and they cover nearly the same number of pixels.
    #[test]
    fn decimation_does_not_change_the_picture() {
        let n = 200_000;
        let mut rec = Recording::new(
            vec!["chirp".into()],
            vec![Column {
                name: "x".into(),
                unit: None,
                panel: Some(0),
            }],
        );
        for i in 0..n {
            let t = i as f64 / n as f64;
            let value = (2.0 * std::f64::consts::PI * 400.0 * t * t).sin() * (1.0 - t) + 0.5 * t;
            rec.push_row(t, &[value]);
            if i == n / 2 {
                rec.push_row(t, &[value - 1.0]);
            }
        }
        let options = PlotOptions {
            width: 600,
            height: 300,
            title: None,
        };
        let path = Path::new("decimation.png");
        let reduced = render_rgb_with(&rec, path, &options, true).unwrap();
        let full = render_rgb_with(&rec, path, &options, false).unwrap();
        let (w, h) = (options.width as usize, options.height as usize);
        let mask = |img: &RgbImage| -> Vec<bool> {
            img.pixels
                .chunks_exact(3)
                .map(|p| (p[0], p[1], p[2]) == (31, 119, 180))
                .collect()
        };
        let (a, b) = (mask(&reduced), mask(&full));
        let near = |m: &[bool], x: usize, y: usize| {
            (y.saturating_sub(2)..(y + 3).min(h))
                .any(|yy| (x.saturating_sub(2)..(x + 3).min(w)).any(|xx| m[yy * w + xx]))
        };
        let covered = b.iter().filter(|&&x| x).count();
        let covered_reduced = a.iter().filter(|&&x| x).count();
        assert!(covered > 10_000, "{covered}");
        let relative = (covered as f64 - covered_reduced as f64).abs() / covered as f64;
        assert!(
            relative < 0.05,
            "{covered_reduced} vs {covered} line pixels"
        );
        for y in 0..h {
            for x in 0..w {
                assert!(
                    !a[y * w + x] || near(&b, x, y),
                    "reduced has an extra pixel ({x}, {y})"
                );
                assert!(
                    !b[y * w + x] || near(&a, x, y),
                    "reduced misses pixel ({x}, {y})"
                );
            }
        }
    }
}
