//! `blockdyn run --animate` and `[output] animation` end to end: the GIF's size, frame count and
//! content, and the errors of bad animation settings.

use std::path::Path;
mod cli_common;
use cli_common::{blockdyn, temp_dir, text};

/// A 0.2 m cube dropped from 0.6 m onto a plane, tumbling a little (tilted 20°), for 1 s.
fn falling_box(output: &str) -> String {
    format!(
        r#"
connect = [
  "world.W -- table.R",
  "world.W -- free.B",
  "free.F -- brick.R",
  "table.G -- contact.B",
  "brick.G -- contact.F",
]
[model]
name = "falling_box"
stop_time = 1.0
[solver]
rel_tol = 1e-5
abs_tol = 1e-8
[output]
{output}
[blocks.world]
type = "WorldFrame"
[blocks.table]
type = "InfinitePlane"
[blocks.brick]
type = "Solid"
geometry = {{ shape = "brick", size = [0.2, 0.2, 0.2] }}
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.6]
orientation = [0.9848078, 0.1736482, 0.0, 0.0]
[blocks.contact]
type = "SpatialContactForce"
normal = {{ method = "linear_spring_damper", stiffness = 1e5, damping = 200.0 }}
friction = {{ method = "smooth_stick_slip", static = 0.6, dynamic = 0.4, critical_velocity = 1e-3 }}
"#
    )
}

/// Every frame of a GIF as a full image (each frame drawn over the previous: disposal "keep"),
/// with the GIF's size.
fn decode(path: &Path) -> ((usize, usize), Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).expect("gif written"))
        .expect("a GIF");
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    let mut image = vec![0u8; w * h];
    let mut frames = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("frame decodes") {
        let (left, top, fw) = (f.left as usize, f.top as usize, f.width as usize);
        for j in 0..f.height as usize {
            let row = (top + j) * w + left;
            image[row..row + fw].copy_from_slice(&f.buffer[j * fw..(j + 1) * fw]);
        }
        frames.push(image.clone());
    }
    ((w, h), frames)
}

/// 25 frames/s over 1 s gives 26 frames (t = 0, 0.04, …, 1). The box falls for
/// sqrt(2·0.5/9.81) = 0.32 s, then bounces and rocks: at least 20 frames differ from the one
/// before below the time label (the top 40 rows, which change every frame anyway). None is blank:
/// each shows the box's colours besides the background and the ground.
#[test]
fn animate_writes_a_gif_of_the_falling_box_at_the_requested_size() {
    let dir = temp_dir("falling");
    let model = dir.join("falling_box.toml");
    std::fs::write(&model, falling_box("animation_size = [320, 240]")).unwrap();
    let gif = dir.join("falling.gif");
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--animate",
        gif.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("animation:"),
        "{}",
        text(&out.stdout)
    );
    let ((w, h), frames) = decode(&gif);
    assert_eq!((w, h), (320, 240));
    assert_eq!(frames.len(), 26);
    let below_label = 40 * w;
    let differing = frames
        .windows(2)
        .filter(|p| p[0][below_label..] != p[1][below_label..])
        .count();
    assert!(
        differing >= 20,
        "{differing} frames differ from the previous one"
    );
    let box_shades = blockdyn::render::palette::shade(blockdyn::render::Material::Body(0), 0.0)
        ..=blockdyn::render::palette::shade(blockdyn::render::Material::Body(0), 1.0);
    for (k, f) in frames.iter().enumerate() {
        let box_pixels = f.iter().filter(|c| box_shades.contains(c)).count();
        assert!(box_pixels > 100, "frame {k} shows {box_pixels} box pixels");
    }
}

/// `[output] animation` writes the GIF without `--animate`, at the default 640×480.
#[test]
fn output_animation_in_the_model_writes_the_gif() {
    let dir = temp_dir("section");
    let gif = dir.join("from_model.gif");
    let model = dir.join("falling_box.toml");
    let line = format!(
        "animation = {:?}\nanimation_fps = 10",
        gif.to_str().unwrap()
    );
    std::fs::write(&model, falling_box(&line)).unwrap();
    let out = blockdyn(&["run", model.to_str().unwrap(), "-q"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let ((w, h), frames) = decode(&gif);
    assert_eq!((w, h), (640, 480));
    assert_eq!(frames.len(), 11, "10 frames/s over 1 s");
}

#[test]
fn bad_animation_settings_are_located_errors() {
    let dir = temp_dir("bad");
    let cases = [
        (
            "animation_size = [640]",
            "'animation_size' must have 2 elements",
        ),
        (
            "animation_size = [10000, 480]",
            "must be two whole numbers of pixels",
        ),
        ("animation_fps = 0", "must be above 0"),
        (
            "camera = { eye = [0.0, 0.0, 1.0], target = [0.0, 0.0, 1.0] }",
            "eye and target are the same point",
        ),
        (
            "camera = { eye = [0.0, 0.0, 3.0], target = [0.0, 0.0, 0.0] }",
            "parallel to its viewing direction",
        ),
        (
            "camera = { eye = [1.0, 0.0, 3.0] }",
            "'camera' has no 'target'",
        ),
    ];
    for (k, (line, message)) in cases.iter().enumerate() {
        let model = dir.join(format!("bad{k}.toml"));
        std::fs::write(&model, falling_box(line)).unwrap();
        let out = blockdyn(&["run", model.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert!(!out.status.success());
        assert!(err.contains(message), "{line}: {err}");
        assert!(err.contains(&format!("bad{k}.toml:")), "located: {err}");
    }
}

#[test]
fn a_model_without_a_mechanism_cannot_be_animated() {
    let dir = temp_dir("nomech");
    let out = blockdyn(&[
        "run",
        "models/bouncing_ball.toml",
        "--plot",
        dir.join("b.png").to_str().unwrap(),
        "--animate",
        dir.join("b.gif").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("has no mechanism"),
        "{}",
        text(&out.stderr)
    );
}
