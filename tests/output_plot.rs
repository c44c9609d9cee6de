//! PNG plots: size, content, edge cases and whole-or-nothing writes.

use std::fs;
use std::path::{Path, PathBuf};

use blockdyn::output::{Column, Recording};
use blockdyn::plot::{plot_png, render_rgb, PlotError, PlotOptions};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("output_plot-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn column(name: &str, unit: Option<&str>, panel: Option<usize>) -> Column {
    Column {
        name: name.to_string(),
        unit: unit.map(str::to_string),
        panel,
    }
}

/// Width and height from the PNG signature and the IHDR chunk (bytes 16..24, big-endian).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.len() > 33, "PNG too short: {} bytes", bytes.len());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (width, height)
}

/// Decodes a PNG fully (checks the data stream too) and returns its RGB pixels.
fn decode_rgb(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn count_color(pixels: &[u8], rgb: (u8, u8, u8)) -> usize {
    pixels
        .chunks_exact(3)
        .filter(|p| (p[0], p[1], p[2]) == rgb)
        .count()
}

/// The first line colour of every panel (tab10 blue).
const FIRST_LINE: (u8, u8, u8) = (31, 119, 180);

/// A bouncing-ball-like recording: three scopes and one logged signal, with an event (two rows
/// at one time) at t = 0.45 s.
fn demo_recording() -> Recording {
    let mut rec = Recording::new(
        vec!["height".into(), "contact".into(), "velocity".into()],
        vec![
            column("joint.p[2]", Some("m"), Some(0)),
            column("contact.normal_force", Some("N"), Some(1)),
            column("contact.penetration", Some("m"), Some(1)),
            column("joint.v[2]", Some("m/s"), Some(2)),
            column("sine.out", None, None),
        ],
    );
    let n = 2000;
    for i in 0..=n {
        let t = 2.0 * i as f64 / n as f64;
        let phase = t % 0.9;
        let z = 1.0 - 4.9 * (phase - 0.45).powi(2) + 0.0077;
        let force = if (phase - 0.45).abs() < 0.02 {
            50.0 * (1.0 - ((phase - 0.45) / 0.02).powi(2))
        } else {
            0.0
        };
        let row = [
            z,
            force,
            force * 1e-4,
            -9.8 * (phase - 0.45),
            (7.0 * t).sin(),
        ];
        rec.push_row(t, &row);
        if i == 450 {
            let mut after = row;
            after[3] = -after[3];
            rec.push_row(t, &after);
        }
    }
    rec
}

#[test]
fn three_panels_and_logged_panel_png_has_requested_size_and_lines() {
    let dir = scratch_dir("three");
    let path = dir.join("demo.png");
    let options = PlotOptions {
        title: Some("bouncing ball (demo)".into()),
        ..PlotOptions::default()
    };
    plot_png(&demo_recording(), &path, &options).unwrap();
    let bytes = fs::read(&path).unwrap();
    assert_eq!(png_size(&bytes), (1200, 800));
    let (width, height, pixels) = decode_rgb(&bytes);
    assert_eq!((width, height), (1200, 800));
    // Lines of the first colour are drawn in all four panels: many pixels of that exact colour.
    assert!(
        count_color(&pixels, FIRST_LINE) > 2000,
        "{}",
        count_color(&pixels, FIRST_LINE)
    );
    // Every quarter of the image (one panel each) contains the first colour.
    let row_bytes = 3 * width as usize;
    for quarter in 0..4 {
        let rows = &pixels[quarter * 200 * row_bytes..(quarter + 1) * 200 * row_bytes];
        assert!(count_color(rows, FIRST_LINE) > 100, "panel {quarter}");
    }
    // No temporary files left beside it.
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn custom_size_is_respected() {
    let dir = scratch_dir("size");
    let path = dir.join("small.png");
    // Five panels (the "contact" scope splits into one panel per unit) of at least 140 px.
    let options = PlotOptions {
        width: 800,
        height: 720,
        title: None,
    };
    plot_png(&demo_recording(), &path, &options).unwrap();
    assert_eq!(png_size(&fs::read(&path).unwrap()), (800, 720));
}

#[test]
fn empty_recording_gives_no_data_plot() {
    let dir = scratch_dir("empty");
    let path = dir.join("empty.png");
    let rec = Recording::new(vec!["scope".into()], vec![column("a.out", None, Some(0))]);
    plot_png(&rec, &path, &PlotOptions::default()).unwrap();
    let (_, _, pixels) = decode_rgb(&fs::read(&path).unwrap());
    // No line drawn, but the legend swatch (3 px × ~25 px) of the first colour is there.
    let blue = count_color(&pixels, FIRST_LINE);
    assert!(blue > 0 && blue < 200, "{blue}");

    // Entirely empty: no panels, no columns.
    plot_png(&Recording::default(), &path, &PlotOptions::default()).unwrap();
    assert_eq!(png_size(&fs::read(&path).unwrap()), (1200, 800));
}

#[test]
fn non_finite_values_leave_gaps_without_failing() {
    let dir = scratch_dir("nonfinite");
    let path = dir.join("nan.png");
    let mut rec = Recording::new(
        vec!["p".into()],
        vec![
            column("a", None, Some(0)),
            column("b", None, Some(0)),
            column("c", None, Some(0)),
        ],
    );
    for i in 0..100 {
        let t = i as f64 * 0.01;
        let a = if i % 10 == 3 { f64::NAN } else { t };
        let b = if i == 50 { f64::INFINITY } else { -t };
        rec.push_row(t, &[a, b, f64::NAN]);
    }
    rec.push_row(f64::NAN, &[1.0, 1.0, 1.0]);
    plot_png(&rec, &path, &PlotOptions::default()).unwrap();
    let (_, _, pixels) = decode_rgb(&fs::read(&path).unwrap());
    assert!(count_color(&pixels, FIRST_LINE) > 500);

    // Constant and extreme data: ranges stay finite, nothing panics.
    let mut rec = Recording::new(
        vec!["p".into()],
        vec![
            column("zero", None, Some(0)),
            column("huge", None, Some(0)),
            column("tiny", None, Some(0)),
        ],
    );
    rec.push_row(0.0, &[0.0, f64::MAX, 1e-310]);
    rec.push_row(1.0, &[0.0, -f64::MAX, 2e-310]);
    plot_png(&rec, &path, &PlotOptions::default()).unwrap();
    let mut rec = Recording::new(vec!["p".into()], vec![column("c", None, Some(0))]);
    rec.push_row(3.0, &[7.0]);
    plot_png(&rec, &path, &PlotOptions::default()).unwrap();
}

#[test]
fn failing_write_leaves_old_file_intact() {
    let dir = scratch_dir("failing");
    let path = dir.join("good.png");
    plot_png(&demo_recording(), &path, &PlotOptions::default()).unwrap();
    let good = fs::read(&path).unwrap();

    // Invalid options fail before anything is written.
    let err = plot_png(
        &Recording::default(),
        &path,
        &PlotOptions {
            width: 0,
            ..PlotOptions::default()
        },
    )
    .unwrap_err();
    assert!(matches!(err, PlotError::InvalidSize { .. }), "{err}");
    // A recording with a column in a panel that does not exist.
    let bad = Recording::new(vec![], vec![column("x", None, Some(3))]);
    let err = plot_png(&bad, &path, &PlotOptions::default()).unwrap_err();
    assert!(matches!(err, PlotError::InvalidRecording { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), good);

    // A target that is a directory, and a missing directory: errors naming the path.
    let err = plot_png(&demo_recording(), &dir, &PlotOptions::default()).unwrap_err();
    assert!(err.to_string().contains("is a directory"), "{err}");
    let missing = dir.join("nope").join("x.png");
    let err = plot_png(&demo_recording(), &missing, &PlotOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "cannot write plot '{}': directory '{}' does not exist",
            missing.display(),
            dir.join("nope").display()
        )
    );
    assert_eq!(fs::read(&path).unwrap(), good);
    assert_eq!(
        fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn many_panels_grow_the_image() {
    let dir = scratch_dir("many");
    let path = dir.join("many.png");
    let panels: Vec<String> = (0..8).map(|k| format!("scope{k}")).collect();
    let columns: Vec<Column> = (0..8)
        .map(|k| column(&format!("s{k}.out"), None, Some(k)))
        .collect();
    let mut rec = Recording::new(panels, columns);
    for i in 0..50 {
        let t = i as f64 * 0.1;
        let row: Vec<f64> = (0..8).map(|k| (t * (k + 1) as f64).sin()).collect();
        rec.push_row(t, &row);
    }
    plot_png(&rec, &path, &PlotOptions::default()).unwrap();
    // 8 panels × 140 px minimum = 1120 px > 800 requested.
    assert_eq!(png_size(&fs::read(&path).unwrap()), (1200, 1120));
}

/// 1e5 rows × 4 columns (above the decimation threshold of 4 rows per pixel column) render.
#[test]
fn long_recording_renders() {
    let n = 100_000;
    let mut rec = Recording::new(
        vec!["fast".into(), "slow".into()],
        vec![
            column("a", None, Some(0)),
            column("b", None, Some(0)),
            column("c", None, Some(1)),
            column("d", None, None),
        ],
    );
    for i in 0..n {
        let t = i as f64 * 1e-4;
        rec.push_row(
            t,
            &[
                (300.0 * t).sin(),
                (31.0 * t).cos(),
                t * t,
                (t * 7.0).sin() * (-t).exp(),
            ],
        );
    }
    let image = render_rgb(&rec, Path::new("long.png"), &PlotOptions::default()).unwrap();
    assert_eq!((image.width, image.height), (1200, 800));
    assert!(count_color(&image.pixels, FIRST_LINE) > 1000);
}

/// More columns than legend rows fit, and long names: the legend is cut with "… and N more"
/// and names are shortened; the plot is still written.
#[test]
fn crowded_legend_is_summarised() {
    let dir = scratch_dir("crowded");
    let path = dir.join("crowded.png");
    let columns: Vec<Column> = (0..30)
        .map(|k| {
            column(
                &format!("a_rather_long_block_name_{k}.some_port[{k},2]"),
                Some("N·m"),
                Some(0),
            )
        })
        .collect();
    let mut rec = Recording::new(vec!["torques".into()], columns);
    for i in 0..200 {
        let t = i as f64 * 0.01;
        let row: Vec<f64> = (0..30)
            .map(|k| (t + k as f64 * 0.2).sin() * (k + 1) as f64)
            .collect();
        rec.push_row(t, &row);
    }
    let options = PlotOptions {
        width: 900,
        height: 400,
        title: None,
    };
    plot_png(&rec, &path, &options).unwrap();
    assert_eq!(png_size(&fs::read(&path).unwrap()), (900, 400));
}
