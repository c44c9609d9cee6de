//! The command line end to end: run writes CSV and PNG, check/blocks/graph print, errors exit non-zero.

use std::path::Path;
use std::process::Command;
mod cli_common;
use cli_common::{blockdyn, temp_dir, text};

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).expect("png");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

#[test]
fn run_writes_csv_and_png_and_a_summary() {
    let dir = temp_dir("run");
    let csv = dir.join("ball.csv");
    let png = dir.join("ball.png");
    let out = blockdyn(&[
        "run",
        "models/bouncing_ball.toml",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for word in ["steps", "evaluations", "zero crossings", "wall"] {
        assert!(stdout.contains(word), "summary lacks '{word}': {stdout}");
    }
    let csv_text = std::fs::read_to_string(&csv).expect("csv written");
    let header = csv_text.lines().next().unwrap();
    assert!(header.starts_with("time,"), "{header}");
    assert!(
        header.contains("position.out") && header.contains("velocity.out"),
        "{header}"
    );
    assert!(csv_text.lines().count() > 20);
    assert_eq!(png_size(&png), (1200, 800));
}

/// Under `method = "auto"` the summary says how often the run switched and how many steps each
/// method took (ball_drop's contact comes to rest and turns stiff: one switch to esdirk43).
#[test]
fn run_summary_reports_auto_switches() {
    let dir = temp_dir("auto");
    let (csv, png) = (dir.join("b.csv"), dir.join("b.png"));
    let out = blockdyn(&[
        "run",
        "models/ball_drop.toml",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
        "--set",
        "solver.method=auto",
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(", 1 method switch (dopri5 "), "{stdout}");
    assert!(stdout.contains(" steps, esdirk43 "), "{stdout}");
}

#[test]
fn stop_time_and_set_override_the_file() {
    let dir = temp_dir("set");
    let csv = dir.join("b.csv");
    // The model's [output] also names a plot: send it to the temporary directory too (tests
    // write nothing into the repository).
    let png = dir.join("b.png");
    let out = blockdyn(&[
        "run",
        "models/bouncing_ball.toml",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
        "--stop-time",
        "1.0",
        "--set",
        "solver.rel_tol=1e-6",
        "-q",
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    let last = csv_text.lines().last().unwrap();
    let t: f64 = last.split(',').next().unwrap().parse().unwrap();
    assert_eq!(t, 1.0);
}

#[test]
fn check_prints_the_compiled_diagram() {
    let out = blockdyn(&["check", "models/bouncing_ball.toml"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let s = text(&out.stdout);
    for word in [
        "execution order",
        "states",
        "zero-crossing signals",
        "velocity",
        "position",
    ] {
        assert!(s.contains(word), "check output lacks '{word}':\n{s}");
    }
}

#[test]
fn blocks_lists_and_describes() {
    let out = blockdyn(&["blocks"]);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("Integrator") && s.contains("Scope"), "{s}");
    let out = blockdyn(&["blocks", "Integrator"]);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("initial") && s.contains("lower_limit"), "{s}");
    let out = blockdyn(&["blocks", "Integrater"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("did you mean \"Integrator\""));
}

#[test]
fn docs_blocks_md_is_current() {
    let out = blockdyn(&["blocks", "--markdown"]);
    assert!(out.status.success());
    let generated = text(&out.stdout);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/blocks.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    // Tests never write into the repository: the fix is a command to run.
    assert!(
        on_disk == generated,
        "docs/blocks.md is out of date: run `cargo run --release -- blocks --markdown > docs/blocks.md`"
    );
}

#[test]
fn graph_prints_dot() {
    let out = blockdyn(&["graph", "models/bouncing_ball.toml"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("digraph") && s.contains("->"), "{s}");
}

/// The graph shows what the user wrote: node labels break the line with DOT's own `\n` (not an
/// escaped backslash that dot would print), and the hidden mechanism node and its wiring to the
/// joints and contacts are left out; the physical connections stay.
#[test]
fn graph_labels_break_lines_and_hide_the_mechanism() {
    let out = blockdyn(&["graph", "models/box_stack_rigid.toml"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains(r#""c0" [label="c0\nRigidContact"];"#), "{s}");
    assert!(!s.contains(r"\\n"), "escaped line breaks: {s}");
    assert!(!s.contains("mechanism"), "hidden node shown: {s}");
    assert!(
        !s.contains("rigid_0") && !s.contains("joint_0"),
        "hidden lines shown: {s}"
    );
    assert!(
        s.contains(r#""world" -> "j1" [dir=none, style=dashed"#),
        "{s}"
    );
}

#[test]
fn errors_exit_non_zero_and_keep_old_outputs() {
    let dir = temp_dir("err");
    let model = dir.join("bad.toml");
    std::fs::write(
        &model,
        "[model]\nstop_time = 1\n[blocks.k]\ntype = \"Gian\"\n",
    )
    .unwrap();
    let out = blockdyn(&["run", model.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.toml:4:8") && err.contains("did you mean \"Gain\""),
        "{err}"
    );

    // A plot into a missing directory fails; an existing CSV elsewhere is not half-written.
    let csv = dir.join("keep.csv");
    std::fs::write(&csv, "old").unwrap();
    let out = blockdyn(&[
        "run",
        "models/bouncing_ball.toml",
        "--plot",
        dir.join("missing/x.png").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old");

    let out = blockdyn(&["run", "no/such/model.toml"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot read model"));
}

#[test]
fn check_advises_on_a_spatial_contact() {
    // The box on the slope: static depth W/k with W = 1 kg·g, the normal mode, and the stiffness
    // of the friction's regularisation (c_f = 2·μ_s/v_c·W = 2·0.8/0.01·9.80665 = 1569 N·s/m).
    let out = blockdyn(&["check", "models/box_on_slope.toml"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let s = text(&out.stdout);
    for needle in [
        "static depth d = W/k = 9.807e-5 m",
        "ω = sqrt(k_eff/m) = 316.2 rad/s",
        "c_f = 1.569e3 N·s/m",
        "dopri5 needs steps of about 1.91e-3 s while it sticks",
    ] {
        assert!(s.contains(needle), "check output lacks '{needle}':\n{s}");
    }
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    // `blockdyn blocks --markdown | head -1`: the reader goes away; the write fails with a broken
    // pipe, which must end the command quietly (it used to panic: "failed printing to stdout").
    let mut child = Command::new(env!("CARGO_BIN_EXE_blockdyn"))
        .args(["blocks", "--markdown"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("blockdyn runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("blockdyn ends");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert!(
        out.status.success(),
        "status {:?}, stderr: {stderr}",
        out.status
    );
}

#[test]
fn outputs_are_checked_before_the_run() {
    // Issue 12: `--csv model.toml` overwrote the model; `--csv` and `--plot` on one path exited
    // 0; a missing directory was reported after the whole run. All three are refused up front,
    // and the model file is left as it was.
    let dir = temp_dir("outputs_checked");
    let model = dir.join("ball.toml");
    std::fs::copy("models/mass_spring_damper.toml", &model).unwrap();
    let original = std::fs::read(&model).unwrap();
    let m = model.to_str().unwrap();
    let same = dir.join("out.x");
    let same_dot = dir.join(".").join("out.x");
    let missing = dir.join("no_such_dir").join("out.csv");
    for (args, needle) in [
        (vec!["run", m, "--csv", m], "it is the model file being run"),
        (
            vec![
                "run",
                m,
                "--csv",
                same.to_str().unwrap(),
                "--plot",
                same_dot.to_str().unwrap(),
            ],
            "the CSV goes to the same file",
        ),
        (
            vec!["run", m, "--csv", missing.to_str().unwrap()],
            "does not exist",
        ),
    ] {
        let out = blockdyn(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        // Refused before the run: no summary line was printed.
        assert!(!text(&out.stdout).contains("simulated"), "{args:?} ran");
    }
    assert_eq!(
        std::fs::read(&model).unwrap(),
        original,
        "the model was changed"
    );
    assert!(!same.exists());
}

#[test]
fn a_failed_run_writes_the_rows_it_recorded() {
    // The bouncing ball to 30 s chatters at rest near t = 12.85 s (the Zeno limit of e = 0.8 from
    // 10 m: t∞ = t1·(1 + e)/(1 − e) with t1 = sqrt(2·10/9.81) = 1.4278 s, 12.85 s). The run
    // still fails, but the rows up to the failure are written, whole, and said to be partial.
    let dir = temp_dir("partial");
    let (csv, png) = (dir.join("ball.csv"), dir.join("ball.png"));
    let out = blockdyn(&[
        "run",
        "models/bouncing_ball.toml",
        "--stop-time",
        "30",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("chattering") && stderr.contains("partial run"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&csv).expect("the partial CSV");
    let last: f64 = written
        .lines()
        .last()
        .and_then(|l| l.split(',').next())
        .and_then(|t| t.parse().ok())
        .expect("a last row");
    let t_inf = (2.0f64 * 10.0 / 9.81).sqrt() * 1.8 / 0.2;
    assert!(
        (last - t_inf).abs() < 0.01,
        "last row at {last}, Zeno limit {t_inf}"
    );
    assert!(png.exists(), "the partial plot");
}

#[test]
fn a_negative_stop_time_is_named_as_such() {
    // It used to be read as an unknown option "-1".
    let out = blockdyn(&["run", "models/bouncing_ball.toml", "--stop-time", "-1"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--stop-time must be a positive number of seconds, not -1"),
        "{stderr}"
    );
}

#[test]
fn blocks_list_keeps_abbreviations_in_its_summaries() {
    let out = blockdyn(&["blocks"]);
    assert!(out.status.success());
    let listing = text(&out.stdout);
    assert!(
        listing.contains("Plays back a table of samples (e.g. measured data)"),
        "{listing}"
    );
    assert!(
        !listing.lines().any(|l| l.trim_end().ends_with("(e.g")),
        "{listing}"
    );
}

#[test]
fn a_run_that_writes_nothing_says_how_to_get_output() {
    let dir = temp_dir("nothing");
    let model = dir.join("quiet.toml");
    std::fs::write(
        &model,
        "connect = [\"c.out -> i.in\"]\n[model]\nstop_time = 0.1\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.i]\ntype = \"Integrator\"\n",
    )
    .unwrap();
    let out = blockdyn(&["run", model.to_str().unwrap()]);
    assert!(out.status.success());
    let said = text(&out.stdout);
    assert!(said.contains("nothing was written: add --csv"), "{said}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only the model is there"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
