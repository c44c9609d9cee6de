//! `blockdyn run --view` and `[output] view`: the viewer page's content (its data against closed
//! forms, self-containment, the size budget) and the run's checks of the page's path. The page in
//! a browser is tested by `tests/view_browser.rs`.

mod cli_common;
use cli_common::{blockdyn_in, snapshot, temp_dir, text, RAMP};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// g, m/s² (the models' gravity).
const G: f64 = 9.81;

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .display()
        .to_string()
}

/// Runs `models/NAME.toml --view` in a fresh temporary directory (the models' own `[output]`
/// files land there too) and returns the page's text and path.
fn view_page(name: &str) -> (String, PathBuf) {
    let dir = temp_dir(name);
    let page = dir.join(format!("{name}.html"));
    let out = blockdyn_in(
        &dir,
        &[
            "run",
            &model(&format!("{name}.toml")),
            "--view",
            page.to_str().unwrap(),
            "-q",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    (std::fs::read_to_string(&page).expect("page written"), page)
}

/// The JSON data inside the page.
fn page_data(page: &str) -> Value {
    let open = r#"<script type="application/json" id="blockdyn-data">"#;
    let start = page.find(open).expect("data element") + open.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("data element closed");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(num).collect()
}

/// models/ball_drop.toml: a 1 kg ball (r = 0.1 m) released at rest from z = 1 m onto a plane,
/// k = 1e5 N/m, no friction, 3 s at 25 frames/s.
///
/// - 76 frames at t = 0.04·k (the times are written as f32: within 1e-6 s);
/// - at t = 0.2 s, in free fall: z = 1 − g·t²/2 = 0.8038 m, within 1e-5 m (the solver's
///   rel_tol 1e-6 on the dense output, and f32's 7 digits), no rotation; the contact force 0;
/// - at t = 3 s, at rest: z = r − m·g/k = 0.0999019 m within 1e-6 m (1 % of the penetration,
///   which is the last of the decaying oscillation), and the arrow's force is (0, 0, m·g) on the
///   ball within 1e-3 N;
/// - the first located event is the contact onset at sqrt(2·0.9/g) = 0.4283529369 s (within
///   1e-6 s), by the block `contact`;
/// - the signal `free.p[2]` (unit m) in panel `scope [m]`: every point before the onset lies on
///   the parabola within 3.1e-3 m. The plot's rows place a bucket's min and max rows up to one
///   bucket (3 s / 4096 = 0.73 ms) from their own time; at most 4.2 m/s (g times the onset time)
///   that moves a value by 3.1e-3 m.
#[test]
fn the_ball_drop_page_holds_its_frames_events_and_signals() {
    let (page, _) = view_page("ball_drop");
    let data = page_data(&page);
    assert_eq!(num(&data["t0"]), 0.0);
    assert_eq!(num(&data["t1"]), 3.0);
    let labels: Vec<&str> = data["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    // The geometries; the ball's free joint has no glyph (its Solid would hide it).
    assert_eq!(labels, ["floor", "ball"]);
    let frames = data["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 76);
    for (k, f) in frames.iter().enumerate() {
        assert!((num(&f["t"]) - 0.04 * k as f64).abs() < 1e-6, "frame {k}");
        assert_eq!(f["pose"].as_array().unwrap().len(), 14, "7 per item");
    }
    // The ball is item 1: its pose is pose[7..14] = x, y, z, qx, qy, qz, qw.
    let ball = |k: usize| nums(&frames[k]["pose"])[7..14].to_vec();
    let falling = ball(5);
    let z = 1.0 - 0.5 * G * 0.2f64.powi(2);
    assert!((falling[2] - z).abs() < 1e-5, "{falling:?} vs z = {z}");
    assert!(falling[0].abs() < 1e-9 && falling[1].abs() < 1e-9);
    assert!((falling[6] - 1.0).abs() < 1e-6, "no rotation: {falling:?}");
    let arrow = nums(&frames[5]["arrows"]);
    assert_eq!(arrow.len(), 6, "one resultant arrow");
    assert!(arrow[3..].iter().all(|f| f.abs() < 1e-12), "{arrow:?}");
    let resting = ball(75);
    let z_rest = 0.1 - 1.0 * G / 1e5;
    assert!(
        (resting[2] - z_rest).abs() < 1e-6,
        "{resting:?} vs {z_rest}"
    );
    let arrow = nums(&frames[75]["arrows"]);
    assert!(
        arrow[3].abs() < 1e-3 && arrow[4].abs() < 1e-3 && (arrow[5] - G).abs() < 1e-3,
        "{arrow:?}"
    );

    let events = data["events"].as_array().unwrap();
    assert!(events.len() >= 2, "contact onset and end: {events:?}");
    assert!((num(&events[0]["t"]) - (2.0 * 0.9 / G).sqrt()).abs() < 1e-6);
    assert_eq!(events[0]["block"], "contact");

    let panels = data["panels"].as_array().unwrap();
    let titles: Vec<&str> = panels
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    // Grouped as the PNG plot groups them: per Scope, split by unit.
    assert_eq!(
        titles,
        ["scope [m]", "forces [N]", "logged [m]", "logged [m/s]"]
    );
    let series = &panels[0]["series"][0];
    assert_eq!(series["name"], "free.p[2]");
    assert_eq!(series["unit"], "m");
    assert_eq!(series["legend"], "free: p[2] (position, m)");
    let mut checked = 0;
    for line in series["lines"].as_array().unwrap() {
        for p in nums(line).chunks(2) {
            let (t, v) = (p[0], p[1]);
            if t < 0.42 {
                assert!((v - (1.0 - 0.5 * G * t * t)).abs() < 3.1e-3, "t = {t}: {v}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} points before the onset");
}

/// The page needs nothing outside itself: its markup (the page without its script elements'
/// bodies) loads no file or URL (no `src=`, `href=`, `<link`, `<iframe`), its style imports
/// nothing (`url(`, `@import`), its own script fetches nothing (`fetch(`, `XMLHttpRequest`; it
/// imports three.js from `blob:` URLs it makes), and the only URL anywhere in it (`http://`, `https://`) is the XHTML
/// namespace name inside three.js (an identifier, never fetched). three.js's licence travels
/// with it. The README's scenes (the GIF's ContactSim blocks, the plot's ball drop) stay under the
/// 5 MiB budget.
#[test]
fn the_page_is_self_contained_licensed_and_within_its_budget() {
    for name in ["contactsim_blocks", "ball_drop"] {
        let (page, _) = view_page(name);
        assert!(
            page.len() <= blockdyn::view::SIZE_BUDGET_BYTES,
            "{name}: {}",
            page.len()
        );
        let lower = page.to_ascii_lowercase();
        let mut markup = String::new();
        let mut rest = lower.as_str();
        while let Some(open) = rest.find("<script") {
            let body = open + rest[open..].find('>').unwrap() + 1;
            markup.push_str(&rest[..body]);
            rest = &rest[body + rest[body..].find("</script>").expect("closed")..];
        }
        markup.push_str(rest);
        for needle in [" src=", " href=", "<link", "<iframe"] {
            assert!(!markup.contains(needle), "{name}: '{needle}' in the markup");
        }
        let style = &markup[markup.find("<style>").unwrap()..markup.find("</style>").unwrap()];
        assert!(!style.contains("url(") && !style.contains("@import"));
        let own = blockdyn::view::page::VIEWER_JS;
        assert!(page.contains(own));
        assert!(!own.contains("fetch(") && !own.contains("XMLHttpRequest"));
        assert!(!lower.contains("https://"), "{name}");
        let mut rest = lower.as_str();
        while let Some(i) = rest.find("http://") {
            assert!(
                rest[i..].starts_with("http://www.w3.org/1999/xhtml"),
                "{name}: {}",
                &rest[i..(i + 60).min(rest.len())]
            );
            rest = &rest[i + 7..];
        }
        assert!(page.contains("Copyright © 2010-2024 three.js authors"));
        assert!(page.contains("Permission is hereby granted, free of charge"));
        let data = page_data(&page);
        assert!(!data["frames"].as_array().unwrap().is_empty(), "{name}");
        assert!(!data["panels"].as_array().unwrap().is_empty(), "{name}");
    }
}

/// A falling ball whose `[output]` table is `output`.
fn falling_ball(output: &str) -> String {
    format!(
        "connect = [\"world.W -- free.B\", \"free.F -- ball.R\", \"free.p[2] -> scope.in1\"]\n\
         [model]\nstop_time = 0.2\n[output]\n{output}\n\
         [blocks.world]\ntype = \"WorldFrame\"\n\
         [blocks.ball]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.1 }}\nmass = 1.0\n\
         [blocks.free]\ntype = \"SixDofJoint\"\nposition = [0.0, 0.0, 1.0]\n\
         [blocks.scope]\ntype = \"Scope\"\ninputs = 1\n"
    )
}

/// `[output] view` writes the page (relative to the directory blockdyn runs in), `--view`
/// overrides it, and the report names the page.
#[test]
fn output_view_writes_the_page_and_the_option_overrides_it() {
    let dir = temp_dir("output-view");
    std::fs::write(dir.join("ball.toml"), falling_ball("view = \"ball.html\"")).unwrap();
    let out = blockdyn_in(&dir, &["run", "ball.toml"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("view: ball.html"),
        "{}",
        text(&out.stdout)
    );
    let data = page_data(&std::fs::read_to_string(dir.join("ball.html")).unwrap());
    // 0.2 s at 25 frames/s: t = 0, 0.04, ..., 0.2.
    assert_eq!(data["frames"].as_array().unwrap().len(), 6);
    let out = blockdyn_in(
        &dir,
        &["run", "ball.toml", "--view", "other.html", "-q"],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.join("other.html").is_file());
}

/// A page never replaces an input of the run, and a model with nothing to draw is refused before
/// it runs; either way nothing in the directory changes.
#[test]
fn the_page_never_replaces_an_input_and_needs_a_mechanism() {
    let dir = temp_dir("view-refused");
    std::fs::write(dir.join("ball.toml"), falling_ball("")).unwrap();
    std::fs::write(dir.join("ramp.toml"), RAMP).unwrap();
    let before = snapshot(&dir);
    let out = blockdyn_in(
        &dir,
        &["run", "ball.toml", "--view", "ball.toml", "-q"],
        &[],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("ball.toml"),
        "{}",
        text(&out.stderr)
    );
    let out = blockdyn_in(
        &dir,
        &["run", "ramp.toml", "--view", "ramp.html", "-q"],
        &[],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("cannot write the viewer")
            && text(&out.stderr).contains("no mechanism"),
        "{}",
        text(&out.stderr)
    );
    cli_common::assert_unchanged(&dir, &before);
    let bad = falling_ball("view = \"pages/\"");
    std::fs::write(dir.join("bad.toml"), &bad).unwrap();
    let before_bad = snapshot(&dir);
    let out = blockdyn_in(&dir, &["run", "bad.toml", "-q"], &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("'view'"),
        "{}",
        text(&out.stderr)
    );
    cli_common::assert_unchanged(&dir, &before_bad);
}
