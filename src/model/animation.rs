//! The animation keys of `[output]`: `animation` (the GIF's path), `view` (the viewer page's),
//! `animation_size = [w, h]`,
//! `animation_fps`, `camera = { eye, target, up }` and `draw_frames` (`true`: every frame's axes;
//! a list of frame names "block.port": those frames' axes). Defaults and limits are the image
//! outputs' ([`crate::output::image::DEFAULT_SIZE`], [`crate::output::image::DEFAULT_FRAME_RATE`]).

use super::reader::{ParamResult, TableReader};
use super::value::ValueKind;
use crate::output::image::{Camera, DEFAULT_FRAME_RATE, DEFAULT_SIZE, MAX_SIDE, MIN_SIDE};
use crate::output::{AnimationSettings, DrawFrames};
use nalgebra::{Point3, Vector3};

/// Highest frame rate, frames/s: a GIF frame shows for at least 2/100 s in browsers.
pub const MAX_FRAME_RATE: f64 = 50.0;

/// Reads the animation keys of the `[output]` table `o`.
pub fn read_animation(o: &TableReader<'_>) -> ParamResult<AnimationSettings> {
    let mut a = AnimationSettings {
        path: super::output_path::output_path(o, "animation", "run.gif")?,
        view: super::output_path::output_path(o, "view", "run.html")?,
        ..AnimationSettings::default()
    };
    if let Some(size) = o.fixed_vector("animation_size", 2)? {
        let side_ok = |s: f64| s.fract() == 0.0 && (MIN_SIDE as f64..=MAX_SIDE as f64).contains(&s);
        o.ensure(
            side_ok(size[0]) && side_ok(size[1]),
            "animation_size",
            &format!(
                "must be two whole numbers of pixels from {MIN_SIDE} to {MAX_SIDE} (got [{}, {}])",
                size[0], size[1]
            ),
            &format!(
                "write animation_size = [{}, {}] (width, height in px)",
                DEFAULT_SIZE[0], DEFAULT_SIZE[1]
            ),
        )?;
        a.size = [size[0] as u32, size[1] as u32];
    }
    if let Some(fps) = o.f64("animation_fps")? {
        o.ensure(
            fps > 0.0 && fps <= MAX_FRAME_RATE,
            "animation_fps",
            &format!("must be above 0 and at most {MAX_FRAME_RATE} frames per second (got {fps})"),
            &format!("write animation_fps = {DEFAULT_FRAME_RATE}"),
        )?;
        a.fps = fps;
    }
    a.frames = read_draw_frames(o)?;
    if let Some(c) = o.table("camera")? {
        let point = |key: &'static str| -> ParamResult<Vector3<f64>> {
            let v = c.fixed_vector(key, 3)?.ok_or_else(|| {
                c.table_error(format!("'camera' has no '{key}'"))
                    .hint("write camera = { eye = [2.0, -3.0, 1.5], target = [0.0, 0.0, 0.0], up = [0.0, 0.0, 1.0] } (m, World)")
            })?;
            Ok(Vector3::new(v[0], v[1], v[2]))
        };
        let (eye, target) = (point("eye")?, point("target")?);
        let up = match c.fixed_vector("up", 3)? {
            Some(u) => Vector3::new(u[0], u[1], u[2]),
            None => Vector3::z(),
        };
        c.finish()?;
        let camera = Camera {
            eye: Point3::from(eye),
            target: Point3::from(target),
            up,
        };
        camera.axes().map_err(|e| {
            o.error("camera", format!("[output] camera: {e}"))
                .hint("the eye must be away from the target, and up must not point along the line from eye to target")
        })?;
        a.camera = Some(camera);
    }
    Ok(a)
}

/// `draw_frames = true | false | ["block.port", ...]`.
fn read_draw_frames(o: &TableReader<'_>) -> ParamResult<DrawFrames> {
    let hint = "write draw_frames = true (every frame) or draw_frames = [\"arm.F\", \"pivot.B\"] (frames named block.port)";
    let Some(v) = o.value("draw_frames") else {
        return Ok(DrawFrames::None);
    };
    match &v.kind {
        ValueKind::Bool(true) => Ok(DrawFrames::All),
        ValueKind::Bool(false) => Ok(DrawFrames::None),
        ValueKind::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>()
            .map(DrawFrames::Named)
            .ok_or_else(|| {
                o.error(
                    "draw_frames",
                    "'draw_frames' must list frame names (strings)",
                )
                .hint(hint)
            }),
        _ => Err(o
            .error(
                "draw_frames",
                format!(
                    "'draw_frames' must be true, false or a list of frame names, not {}",
                    v.type_name()
                ),
            )
            .hint(hint)),
    }
}
