//! The viewer page in a real browser: Debian's headless Chromium (`/usr/bin/chromium`; the test
//! skips with a message when it is absent) opens models/ball_drop.toml's page from disk at
//! t = 0 and at t = stop_time (the page reads `#t=SECONDS` from its URL, as the slider sets the
//! time), takes a screenshot and dumps the DOM, where the page writes a JSON status.
//!
//! Asserted: the page loaded without an error (its status, which records uncaught errors,
//! rejected promises and console errors; and no "Uncaught" in Chromium's log), WebGL drew the
//! scene, the ball is drawn where the closed forms put it (z = 1 m at rest at t = 0; z = r −
//! m·g/k = 0.0999019 m resting at t = 3 s; within 1e-6 m: the frames' f32 digits), the plot
//! cursor sits at the slider's time on every panel, and the two screenshots' scene areas differ
//! and neither is blank. Everything is written into a temporary directory (the browser's profile
//! too).

mod cli_common;
use cli_common::{blockdyn_in, temp_dir, text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
/// A browser that has not exited by then is hung (a load takes about 3 s): it is killed and the
/// test fails saying so, instead of holding the suite until CI's cap. Not a performance limit.
const HANG: Duration = Duration::from_secs(300);

/// What one browser load gave: the page's status and the screenshot (RGB rows, width, height).
struct Load {
    status: Value,
    log: String,
    rgb: Vec<u8>,
    width: usize,
    height: usize,
}

fn open_page(page: &Path, t: &str, dir: &Path) -> Load {
    let profile = dir.join(format!("profile-{t}"));
    let shot = dir.join(format!("shot-{t}.png"));
    let url = format!("file://{}#t={t}", page.display());
    let (dom_path, log_path) = (
        dir.join(format!("dom-{t}.html")),
        dir.join(format!("log-{t}.txt")),
    );
    let mut child = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            // WebGL on the CPU (SwiftShader): there is no GPU in CI.
            "--enable-unsafe-swiftshader",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--window-size=800,700",
            "--virtual-time-budget=2000",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--screenshot={}", shot.display()),
            "--dump-dom",
            &url,
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        // Into files, not pipes: the DOM is about 1 MB, and a full pipe that is read only after
        // the browser exits would stop it.
        .stdout(std::fs::File::create(&dom_path).unwrap())
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > HANG {
            let _ = child.kill();
            panic!("chromium hung on {url} (killed after {HANG:?})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = std::fs::read_to_string(&dom_path).expect("the DOM");
    let log = std::fs::read_to_string(&log_path).expect("the log");
    let open = r#"<pre id="status">"#;
    let start = dom
        .find(open)
        .unwrap_or_else(|| panic!("no status in the DOM: {dom:.2000}"))
        + open.len();
    let end = start + dom[start..].find("</pre>").expect("status closed");
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let status: Value = serde_json::from_str(&json).expect("status is JSON");
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("screenshot written"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG decodes");
    let channels = info.color_type.samples();
    assert!(channels >= 3 && info.bit_depth == png::BitDepth::Eight);
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Load {
        status,
        log,
        rgb,
        width: info.width as usize,
        height: info.height as usize,
    }
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// The scene's pixels (the status's scene rectangle, in CSS px = screenshot px).
fn scene_pixels(load: &Load) -> Vec<[u8; 3]> {
    let s = &load.status["scene"];
    let (x0, y0) = (
        num(&s["left"]).ceil() as usize,
        num(&s["top"]).ceil() as usize,
    );
    let x1 = ((num(&s["left"]) + num(&s["width"])).floor() as usize).min(load.width);
    let y1 = ((num(&s["top"]) + num(&s["height"])).floor() as usize).min(load.height);
    assert!(x1 > x0 + 100 && y1 > y0 + 100, "scene {s}");
    let mut pixels = Vec::new();
    for y in y0..y1 {
        for x in x0..x1 {
            let i = 3 * (y * load.width + x);
            pixels.push([load.rgb[i], load.rgb[i + 1], load.rgb[i + 2]]);
        }
    }
    pixels
}

#[test]
fn the_page_loads_and_the_time_moves_the_scene_and_the_cursor() {
    if !Path::new(CHROMIUM).exists() {
        eprintln!("skipped: {CHROMIUM} is absent (install Debian's chromium package to run the browser test)");
        return;
    }
    let dir = temp_dir("browser");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/ball_drop.toml");
    let page = dir.join("ball.html");
    let out = blockdyn_in(
        &dir,
        &[
            "run",
            model.to_str().unwrap(),
            "--view",
            page.to_str().unwrap(),
            "-q",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The two loads run at once (each is mostly the browser starting).
    let loads: Vec<(f64, Load)> = std::thread::scope(|s| {
        let handles: Vec<_> = [("0", 0.0), ("3", 3.0)]
            .into_iter()
            .map(|(arg, t)| {
                let (page, dir) = (&page, &dir);
                s.spawn(move || (t, open_page(page, arg, dir)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let g = 9.81;
    for (t, load) in &loads {
        let st = &load.status;
        assert_eq!(st["state"], "ready", "t = {t}: {st}");
        assert_eq!(st["errors"].as_array().map(Vec::len), Some(0), "{st}");
        assert!(!load.log.contains("Uncaught"), "{}", load.log);
        assert_eq!(st["webgl"], true, "WebGL did not start: {st}");
        assert_eq!(num(&st["t"]), *t);
        assert_eq!(st["labels"][1], "ball");
        let z = num(&st["poses"][1][2]);
        let expected = if *t == 0.0 { 1.0 } else { 0.1 - g / 1e5 };
        assert!(
            (z - expected).abs() < 1e-6,
            "t = {t}: z = {z}, not {expected}"
        );
        assert_eq!(num(&st["frame"]), if *t == 0.0 { 0.0 } else { 75.0 });
        let cursors = st["cursors"].as_array().unwrap();
        // scope [m], forces [N], logged [m] and logged [m/s]: the plot's panels, split by unit.
        assert_eq!(cursors.len(), 4, "a cursor per panel");
        for c in cursors {
            let at = num(&c["plot_left"]) + num(&c["plot_width"]) * t / 3.0;
            assert!((num(&c["left"]) - at).abs() < 0.01, "t = {t}: {c}");
            assert!(num(&c["plot_width"]) > 100.0);
        }
    }
    // Not blank: 2 % of the scene is not its background (236, 239, 243): the ball and the floor's
    // patch, which the camera frames about the motion (about 1 % and 3 % of it), and the ball's
    // blue (70, 130, 200, shaded) shows. Different: the ball fell 0.9 m, 4.5 of its radii, so at
    // least 1 % of the scene's pixels change.
    let scenes: Vec<Vec<[u8; 3]>> = loads.iter().map(|(_, l)| scene_pixels(l)).collect();
    for (k, pixels) in scenes.iter().enumerate() {
        let drawn = pixels.iter().filter(|p| **p != [236, 239, 243]).count();
        let blue = pixels
            .iter()
            .filter(|p| p[2] as i32 > p[0] as i32 + 60)
            .count();
        assert!(
            drawn * 50 > pixels.len(),
            "screenshot {k} is blank: {drawn}"
        );
        assert!(
            blue > 200,
            "screenshot {k}: the ball is not drawn ({blue} px)"
        );
    }
    assert_eq!(scenes[0].len(), scenes[1].len());
    let changed = scenes[0]
        .iter()
        .zip(&scenes[1])
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed * 100 > scenes[0].len(), "only {changed} px changed");
    // The browser profiles are large: gone once the test passed (kept on a failure, to look at).
    let _ = std::fs::remove_dir_all(&dir);
}
