//! Plots people can read (issue 14, part 2): a panel per unit, markers at located events, PNG only.

use blockdyn::output::{Column, Recording};
use blockdyn::plot::render::{event_times, plan_panels, PanelPlan, EVENT_MARKER};
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
/// inputs share a unit stays one panel.
#[test]
fn a_scope_with_two_units_gets_a_panel_per_unit() {
    let rec = Recording::new(
        vec!["scope".into(), "speeds".into()],
        vec![
            column("joint.p", Some("m"), Some(0)),
            column("contact.normal_force", Some("N"), Some(0)),
            column("joint.p2", Some("m"), Some(0)),
            column("joint.v", Some("m/s"), Some(1)),
            column("joint.v2", Some("m/s"), Some(1)),
            column("mode", None, None),
            column("x", Some("m"), None),
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
            plan("speeds", &[3, 4]),
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
        &["model.stop_time=0.01".to_string()],
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
