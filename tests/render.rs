//! The renderer on small scenes whose pixels can be predicted by hand: a cube seen along an axis,
//! two overlapping boxes, an arrow.

use blockdyn::geometry::Shape;
use blockdyn::render::camera::FIELD_OF_VIEW_Y;
use blockdyn::render::palette::{self, ARROW, BACKGROUND};
use blockdyn::render::{
    Animation, Arrow, Camera, FrameSnapshot, Material, RenderOptions, Renderer, SceneItem,
};
use nalgebra::{Isometry3, Point3, Vector3};

const W: u32 = 640;
const H: u32 = 480;

fn item(shape: Shape, material: Material) -> SceneItem {
    SceneItem {
        label: "test".into(),
        shape: shape.into(),
        material,
    }
}

fn one_frame(items: Vec<SceneItem>, poses: Vec<Isometry3<f64>>, arrows: Vec<Arrow>) -> Animation {
    Animation {
        items,
        frames: vec![FrameSnapshot {
            t: 0.0,
            r_world: poses,
            arrows,
        }],
        up_world: Vector3::z(),
        frame_interval: 0.04,
    }
}

/// The camera at (0, 0, 5) looking at the origin, image x along World x, image up along World y.
fn along_z() -> RenderOptions {
    RenderOptions {
        width: W,
        height: H,
        camera: Some(Camera {
            eye: Point3::new(0.0, 0.0, 5.0),
            target: Point3::origin(),
            up: Vector3::y(),
        }),
        time_label: false,
        ..RenderOptions::default()
    }
}

/// The inclusive pixel bounding box [i0, i1, j0, j1] of the pixels not of the background.
fn drawn_box(colors: &[u8]) -> [i64; 4] {
    let mut b = [i64::MAX, i64::MIN, i64::MAX, i64::MIN];
    for (k, &c) in colors.iter().enumerate() {
        if c != BACKGROUND {
            let (i, j) = ((k % W as usize) as i64, (k / W as usize) as i64);
            b = [b[0].min(i), b[1].max(i), b[2].min(j), b[3].max(j)];
        }
    }
    b
}

fn ramp(m: Material) -> std::ops::RangeInclusive<u8> {
    palette::shade(m, 0.0)..=palette::shade(m, 1.0)
}

/// A unit cube at the origin seen from (0, 0, 5) along −z shows only its front face z = 0.5, at
/// distance 4.5: a square of half-side s = f·0.5/4.5 px about the image centre (320, 240), with
/// f = (480/2)/tan(35°/2) = 761.2 px, so s = 84.58 px. Its pixels are those whose centres fall in
/// [320 − s, 320 + s]: columns 236..=404, the same rows about 240. Tolerance ±1 px (a centre on
/// the square's border may go either way).
#[test]
fn a_unit_cube_seen_along_an_axis_covers_the_predicted_square() {
    let animation = one_frame(
        vec![item(
            Shape::brick([1.0, 1.0, 1.0]).unwrap(),
            Material::Body(0),
        )],
        vec![Isometry3::identity()],
        vec![],
    );
    let mut r = Renderer::new(&animation, &along_z()).unwrap();
    let canvas = r.render(0).unwrap();
    let f = 0.5 * H as f64 / (0.5 * FIELD_OF_VIEW_Y).tan();
    let s = f * 0.5 / 4.5;
    let (cx, cy) = (0.5 * W as f64, 0.5 * H as f64);
    let expected = [
        (cx - s - 0.5).ceil() as i64,
        (cx + s - 0.5).floor() as i64,
        (cy - s - 0.5).ceil() as i64,
        (cy + s - 0.5).floor() as i64,
    ];
    let got = drawn_box(&canvas.color);
    for k in 0..4 {
        assert!(
            (got[k] - expected[k]).abs() <= 1,
            "drawn {got:?}, predicted {expected:?} (s = {s} px)"
        );
    }
    // Inside, every pixel is the cube (no holes): only its front face, in one flat shade.
    let front = canvas.at(cx as u32, cy as u32);
    assert!(ramp(Material::Body(0)).contains(&front));
    for j in expected[2] + 2..=expected[3] - 2 {
        for i in expected[0] + 2..=expected[1] - 2 {
            let c = canvas.at(i as u32, j as u32);
            assert!(c == front || c == palette::EDGE, "pixel ({i}, {j}) is {c}");
        }
    }
}

/// Two cubes overlapping in the image, the second 1 m nearer the eye: where they overlap the
/// nearer one shows, whichever is drawn first.
#[test]
fn the_nearer_of_two_overlapping_boxes_hides_the_other() {
    let cube = || Shape::brick([1.0, 1.0, 1.0]).unwrap();
    let far = Isometry3::translation(-0.3, 0.0, 0.0);
    let near = Isometry3::translation(0.3, 0.0, 1.0);
    for near_first in [false, true] {
        let (mut items, mut poses) = (
            vec![
                item(cube(), Material::Body(0)),
                item(cube(), Material::Body(1)),
            ],
            vec![far, near],
        );
        if near_first {
            items.reverse();
            poses.reverse();
        }
        let animation = one_frame(items, poses, vec![]);
        let mut r = Renderer::new(&animation, &along_z()).unwrap();
        let canvas = r.render(0).unwrap();
        // The overlap is about World x ∈ [−0.2, 0.2] (image centre column 320); only the far
        // cube is at World x = −0.7 (column ≈ 320 − 0.7·f/4.5 = 202 on its front face at z = 0.5).
        let at_overlap = canvas.at(325, 240);
        let far_only = canvas.at(215, 240);
        assert!(
            ramp(Material::Body(1)).contains(&at_overlap),
            "near_first {near_first}: {at_overlap}"
        );
        assert!(
            ramp(Material::Body(0)).contains(&far_only),
            "near_first {near_first}: {far_only}"
        );
    }
}

/// A force along World +x at the origin, camera along −z with image x = World x: the arrow's red
/// pixels run from the tail's pixel (320, 240) to the right, and its head (the widest columns)
/// is at its right end. An arrow along −y (image down) runs downwards. (The ball behind sets the
/// scene's size, 1.73 m: the arrow of the largest force is 0.3 of it, 79 px long at 5 m.)
#[test]
fn an_arrow_points_along_its_force() {
    let dot = item(Shape::sphere(0.5).unwrap(), Material::Body(0));
    for (force, direction) in [(Vector3::x(), [1.0, 0.0]), (-Vector3::y(), [0.0, 1.0])] {
        let animation = one_frame(
            vec![dot.clone()],
            vec![Isometry3::translation(0.0, 0.0, -1.0)],
            vec![Arrow {
                p_world_tail: Point3::origin(),
                f_world: 10.0 * force,
            }],
        );
        let mut r = Renderer::new(&animation, &along_z()).unwrap();
        let canvas = r.render(0).unwrap();
        let red: Vec<(f64, f64)> = (0..W * H)
            .filter(|&k| canvas.color[k as usize] == ARROW)
            .map(|k| ((k % W) as f64 + 0.5 - 320.0, (k / W) as f64 + 0.5 - 240.0))
            .collect();
        assert!(red.len() > 20, "the arrow is drawn");
        // Distance along the expected direction and across it, per red pixel.
        let along: Vec<f64> = red
            .iter()
            .map(|p| p.0 * direction[0] + p.1 * direction[1])
            .collect();
        let across: Vec<f64> = red
            .iter()
            .map(|p| p.0 * direction[1] - p.1 * direction[0])
            .collect();
        let length = along.iter().cloned().fold(f64::MIN, f64::max);
        assert!(along.iter().all(|&a| a > -2.0), "nothing behind the tail");
        assert!((length - 79.0).abs() < 3.0, "length {length} px");
        // The head: the widest spread across is in the last third of the length.
        let width_near = |lo: f64, hi: f64| {
            along
                .iter()
                .zip(&across)
                .filter(|(a, _)| **a >= lo && **a < hi)
                .map(|(_, c)| c.abs())
                .fold(0.0, f64::max)
        };
        assert!(width_near(2.0 * length / 3.0, length) > 2.0 * width_near(0.0, length / 3.0));
    }
}
