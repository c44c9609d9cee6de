//! Plots people can read (issue 14, part 2): a panel per unit, markers at located events, PNG only.

use blockdyn::output::{Column, Recording};
use blockdyn::plot::render::{
    covered_by, event_times, legend_label, plan_panels, PanelPlan, EVENT_MARKER, EVENT_TICK_PIXELS,
};
use blockdyn::plot::{plot_png, render_rgb, PlotError, PlotOptions};
use std::path::Path;

fn column(name: &str, unit: Option<&str>, panel: Option<usize>) -> Column {
    Column {
        name: name.into(),
        unit: unit.map(str::to_string),
        panel,
    }
}

/// A Scope with a displacement (m), a force (N) and a second displacement: two panels, "[m]" with
/// both displacements, "[N]" with the force, in the order the units first appear; a Scope whose
/// inputs share a unit stays one panel, and its title says the unit too ("speeds [m/s]"); a panel
/// without units keeps its bare title.
#[test]
fn a_scope_with_two_units_gets_a_panel_per_unit() {
    let rec = Recording::new(
        vec!["scope".into(), "speeds".into(), "flags".into()],
        vec![
            column("joint.p", Some("m"), Some(0)),
            column("contact.normal_force", Some("N"), Some(0)),
            column("joint.p2", Some("m"), Some(0)),
            column("joint.v", Some("m/s"), Some(1)),
            column("joint.v2", Some("m/s"), Some(1)),
            column("mode", None, None),
            column("x", Some("m"), None),
            column("relay.out", None, Some(2)),
        ],
    );
    let plans = plan_panels(&rec).unwrap();
    let plan = |title: &str, columns: &[usize]| PanelPlan {
        title: title.into(),
        columns: columns.to_vec(),
    };
    assert_eq!(
        plans,
        vec![
            plan("scope [m]", &[0, 2]),
            plan("scope [N]", &[1]),
            plan("speeds [m/s]", &[3, 4]),
            plan("flags", &[7]),
            plan("logged (no unit)", &[5]),
            plan("logged [m]", &[6]),
        ]
    );
}

/// Events at t = 0.2, 0.4 and 0.8 of a run over [0, 1] (each recorded twice, before and after its
/// handlers): the plot has a vertical marker line at each, and their pixel columns are spaced as
/// the times are, (x₃ − x₂)/(x₂ − x₁) = 0.4/0.2 = 2, within a pixel of rounding per column.
#[test]
fn event_markers_sit_at_the_located_event_times() {
    let mut rec = Recording::new(vec!["s".into()], vec![column("h", Some("m"), Some(0))]);
    let events = [0.2, 0.4, 0.8];
    for k in 0..=100 {
        let t = k as f64 / 100.0;
        rec.push_row(t, &[t * (1.0 - t)]);
        if events.contains(&t) {
            rec.push_row(t, &[t * (1.0 - t)]);
        }
    }
    assert_eq!(event_times(&rec), events);
    let options = PlotOptions {
        width: 900,
        height: 400,
        title: None,
    };
    let image = render_rgb(&rec, Path::new("events.png"), &options).unwrap();
    let (w, h) = (image.width as usize, image.height as usize);
    let is_marker = |x: usize, y: usize| {
        let p = &image.pixels[3 * (y * w + x)..3 * (y * w + x) + 3];
        (p[0], p[1], p[2]) == (EVENT_MARKER.0, EVENT_MARKER.1, EVENT_MARKER.2)
    };
    // Columns where the marker colour runs down a third of the image or more.
    let columns: Vec<usize> = (0..w)
        .filter(|&x| (0..h).filter(|&y| is_marker(x, y)).count() > h / 3)
        .collect();
    assert_eq!(columns.len(), 3, "marker columns {columns:?}");
    let (x1, x2, x3) = (columns[0] as f64, columns[1] as f64, columns[2] as f64);
    let ratio = (x3 - x2) / (x2 - x1);
    assert!(
        (ratio - 2.0).abs() <= 2.0 / (x2 - x1),
        "ratio {ratio}: {columns:?}"
    );
}

#[test]
fn a_plot_not_named_png_is_refused_with_png_only() {
    let dir = std::env::temp_dir().join(format!("blockdyn-plot-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("x.svg");
    let err = plot_png(&Recording::default(), &path, &PlotOptions::default()).unwrap_err();
    assert!(matches!(err, PlotError::NotPng { .. }));
    let message = err.to_string();
    assert!(
        message.contains("PNG only") && message.contains("x.png"),
        "{message}"
    );
    assert!(!path.exists());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_blockdyn"))
        .args([
            "run",
            "models/mass_spring_damper.toml",
            "--plot",
            path.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("PNG only"), "{stderr}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("simulated"),
        "refused before the run"
    );
}

/// A joint whose coordinates differ in kind carries a unit per element: models/contactsim_blocks'
/// PlanarJoint `q` is [x, y, θ] in [m, m, rad], so each Scope input splits into an "[m]" panel
/// with x and y and a "[rad]" panel with θ, each labelled with its unit.
#[test]
fn a_planar_joints_coordinates_get_their_own_units() {
    let d = blockdyn::load_model(
        Path::new("models/contactsim_blocks.toml"),
        &["model.stop_time=0.01".parse().unwrap()],
    )
    .unwrap();
    let r = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let rec: &Recording = &r.recording;
    let unit = |name: &str| {
        let j = rec
            .column_index(name)
            .unwrap_or_else(|| panic!("no column {name}"));
        rec.columns[j].unit.clone()
    };
    assert_eq!(unit("block1_joint.q[0]").as_deref(), Some("m"));
    assert_eq!(unit("block1_joint.q[1]").as_deref(), Some("m"));
    assert_eq!(unit("block1_joint.q[2]").as_deref(), Some("rad"));
    let plans = plan_panels(rec).unwrap();
    let titles: Vec<String> = plans.iter().map(|p| p.title.clone()).collect();
    assert!(
        titles.iter().any(|t| t == "q1 [m]") && titles.iter().any(|t| t == "q1 [rad]"),
        "{titles:?}"
    );
}

/// Curves that lie under a later one everywhere (within the tolerance) are named in the legend:
/// two zero velocity components, and a signal equal to another one up to 1e-9. A curve that shows
/// where the other has a gap, or that differs anywhere, is not covered; the last one drawn never is.
#[test]
fn curves_hidden_under_a_later_one_are_named_in_the_legend() {
    let mut rec = Recording::new(
        vec!["s".into()],
        vec![
            column("free.v[0]", Some("m/s"), Some(0)),
            column("free.v[1]", Some("m/s"), Some(0)),
            column("free.v[2]", Some("m/s"), Some(0)),
            column("check.out", Some("m/s"), Some(0)),
            column("gappy.out", Some("m/s"), Some(0)),
            column("other.out", Some("m/s"), Some(0)),
        ],
    );
    for k in 0..100 {
        let t = k as f64 / 100.0;
        let v = (6.0 * t).sin();
        let gap = if k == 50 { f64::NAN } else { v };
        rec.push_row(t, &[0.0, 0.0, v, v + 1e-9, gap, v + 0.1]);
    }
    let columns: Vec<usize> = (0..6).collect();
    let covers = covered_by(&rec, &columns, 1e-6);
    // free.v[2] lies under check.out; check.out shows at t = 0.5, where gappy.out has its gap.
    assert_eq!(covers, vec![Some(1), None, Some(3), None, None, None]);
    assert_eq!(
        legend_label(&rec, 0, covers[0]),
        "free: v[0] (velocity, m/s) (hidden by [1])"
    );
    assert_eq!(
        legend_label(&rec, 2, covers[2]),
        "free: v[2] (velocity, m/s) (hidden by check: out)"
    );
    assert_eq!(
        legend_label(&rec, 1, covers[1]),
        "free: v[1] (velocity, m/s)"
    );
    // gappy.out is under check.out wherever it is drawn (covers name columns of the recording).
    assert_eq!(covered_by(&rec, &[4, 3], 1e-6), vec![Some(3), None]);
}

/// Hundreds of events (contact events of a rolling body) would paint the panel with marker lines:
/// beyond one per few pixels of the time axis they are short ticks at the bottom of the panel.
#[test]
fn dense_events_are_ticks_not_lines() {
    let mut rec = Recording::new(vec!["s".into()], vec![column("h", Some("m"), Some(0))]);
    let n = 1000;
    for k in 0..=n {
        let t = k as f64 / n as f64;
        rec.push_row(t, &[t]);
        if k % 2 == 1 {
            rec.push_row(t, &[t]);
        }
    }
    assert_eq!(event_times(&rec).len(), n / 2);
    let options = PlotOptions {
        width: 900,
        height: 400,
        title: None,
    };
    let image = render_rgb(&rec, Path::new("events.png"), &options).unwrap();
    let (w, h) = (image.width as usize, image.height as usize);
    let is_marker = |x: usize, y: usize| {
        let p = &image.pixels[3 * (y * w + x)..3 * (y * w + x) + 3];
        (p[0], p[1], p[2]) == (EVENT_MARKER.0, EVENT_MARKER.1, EVENT_MARKER.2)
    };
    let rows: Vec<usize> = (0..h)
        .filter(|&y| (0..w).filter(|&x| is_marker(x, y)).count() > 100)
        .collect();
    assert!(!rows.is_empty(), "no event ticks");
    assert!(
        rows.len() <= EVENT_TICK_PIXELS as usize + 1,
        "marker rows {rows:?}"
    );
    assert!(
        rows.iter().all(|&y| y > h / 2),
        "ticks at the bottom: {rows:?}"
    );
}
