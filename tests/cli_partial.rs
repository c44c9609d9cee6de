//! Runs keep their data (issue 12, part 4), through the built binary: a run that fails or is
//! interrupted writes the rows it recorded, whole, and exits non-zero; outputs are committed
//! together or not at all; no temporary file is left behind; a million columns stream through
//! without reserving rows × columns. Every file goes into a fresh temporary directory.

use std::path::Path;
use std::process::{Command, Stdio};
mod cli_common;
use cli_common::{blockdyn, temp_dir, text};

/// Files in `dir` whose name ends in `.tmp` (the staged outputs).
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Parses a CSV whole: a `time,...` header, then rows of as many numbers. Returns the rows.
fn parse_csv(path: &Path) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).expect("the CSV");
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("time,"), "{header}");
    let width = header.split(',').count();
    assert!(text.ends_with('\n'), "the last row is cut");
    lines
        .map(|line| {
            let row: Vec<f64> = line
                .split(',')
                .map(|f| f.parse().unwrap_or_else(|_| panic!("not a number: {line}")))
                .collect();
            assert_eq!(row.len(), width, "{line}");
            row
        })
        .collect()
}

/// The number after `prefix` in `message` (up to the next space).
fn number_after(message: &str, prefix: &str) -> f64 {
    let start = message.find(prefix).unwrap_or_else(|| panic!("{message}")) + prefix.len();
    message[start..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after '{prefix}': {message}"))
}

#[test]
fn a_non_finite_state_keeps_the_rows_up_to_it() {
    // x' = sqrt(1 − t) is NaN after t = 1: the run fails there; x(1) = 2/3 in closed form.
    let dir = temp_dir("non_finite");
    let model = dir.join("nan.toml");
    std::fs::write(
        &model,
        "connect = [\"x.out -> f.in\", \"f.out -> x.in\", \"x.out -> scope.in1\"]\n[model]\nstop_time = 2.0\n[blocks.f]\ntype = \"Fcn\"\nexpression = \"sqrt(1 - t) + 0 * u\"\n[blocks.x]\ntype = \"Integrator\"\n[blocks.scope]\ntype = \"Scope\"\n",
    )
    .unwrap();
    let (csv, png) = (dir.join("nan.csv"), dir.join("nan.png"));
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("non-finite") && stderr.contains("partial run"),
        "{stderr}"
    );
    let failed_at = number_after(&stderr, "at t = ");
    let rows = parse_csv(&csv);
    let last = rows.last().expect("rows");
    // The last good step ends within the step-size floor (~1e-14 s) of the failure and of t = 1.
    assert!(
        last[0] <= failed_at && failed_at - last[0] < 1e-12,
        "{} vs {failed_at}",
        last[0]
    );
    assert!((last[0] - 1.0).abs() < 1e-12, "last row at {}", last[0]);
    // x there: 2/3 within the default tolerances (rel_tol 1e-3 controls the local error; the
    // integrand is smooth except at the end): 1e-4.
    assert!((last[1] - 2.0 / 3.0).abs() < 1e-4, "x = {}", last[1]);
    assert!(png.exists(), "the partial plot");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A harmonic oscillator that would run for hours (max_step 1 ms over 1e5 s): long enough to
/// outlast the signal, and under the output budget (issue 28: 1e8 steps, 2 columns, at least
/// 4 GB of CSV were it not stopped; over 1e6 s it would be refused before it starts).
const ENDLESS: &str = "connect = [\"x.out -> v.in\", \"v.out -> k.in\", \"k.out -> x.in\", \"v.out -> scope.in1\"]\n[model]\nstop_time = 1e5\n[solver]\nmax_step = 1e-3\nmax_steps = 1e10\n[blocks.x]\ntype = \"Integrator\"\ninitial = 1.0\n[blocks.v]\ntype = \"Integrator\"\n[blocks.k]\ntype = \"Gain\"\ngain = -1.0\n[blocks.scope]\ntype = \"Scope\"\n";

#[test]
fn a_signal_stops_the_run_and_keeps_its_rows() {
    for signal in ["INT", "TERM"] {
        let dir = temp_dir(&format!("signal_{signal}"));
        let model = dir.join("endless.toml");
        std::fs::write(&model, ENDLESS).unwrap();
        let (csv, png) = (dir.join("endless.csv"), dir.join("endless.png"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_blockdyn"))
            .arg("run")
            .arg(&model)
            .arg("--csv")
            .arg(&csv)
            .arg("--plot")
            .arg(&png)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("blockdyn starts");
        // The staged CSV appears once the run is about to start (the handler is installed
        // before it); then the signal.
        while temporaries(&dir).is_empty() {
            // A run refused or ended before it started would never stage its CSV.
            if let Ok(Some(status)) = child.try_wait() {
                let out = child.wait_with_output().unwrap();
                panic!(
                    "SIG{signal}: the run ended ({status}) before the signal: {}",
                    text(&out.stderr)
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let status = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert!(
            !out.status.success(),
            "SIG{signal}: exit status {}",
            out.status
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("interrupted at t = "),
            "SIG{signal}: {stderr}"
        );
        assert!(stderr.contains("partial run"), "SIG{signal}: {stderr}");
        let stopped_at = number_after(&stderr, "interrupted at t = ");
        let rows = parse_csv(&csv);
        // The run stops before its next step: the last row is the last step's end, exactly.
        assert_eq!(rows.last().unwrap()[0], stopped_at, "SIG{signal}");
        assert!(stopped_at < 1e6);
        assert!(png.exists(), "SIG{signal}: the partial plot");
        assert!(
            temporaries(&dir).is_empty(),
            "SIG{signal}: {:?}",
            temporaries(&dir)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_failed_plot_commits_no_output() {
    // 70 Scopes need 70 × 140 px of panels, more than the 8192 px a plot may be: the plot fails
    // after the run, when the CSV is complete. The CSV must not be replaced either.
    let dir = temp_dir("all_or_nothing");
    let model = dir.join("scopes.toml");
    let mut text_model = String::from("connect = [");
    for k in 0..70 {
        text_model.push_str(&format!("\"c.out -> s{k}.in1\", "));
    }
    text_model
        .push_str("]\n[model]\nstop_time = 1.0\n[blocks.c]\ntype = \"Constant\"\nvalue = 1.0\n");
    for k in 0..70 {
        text_model.push_str(&format!("[blocks.s{k}]\ntype = \"Scope\"\n"));
    }
    std::fs::write(&model, text_model).unwrap();
    let (csv, png) = (dir.join("scopes.csv"), dir.join("scopes.png"));
    std::fs::write(&csv, "old\n").unwrap();
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("panels"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old\n");
    assert!(!png.exists());
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    // Without the plot, the same run writes its CSV.
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(parse_csv(&csv).last().unwrap()[0], 1.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_million_column_scope_runs() {
    // Issue 12: a 1,000,000-element Constant wired to a Scope aborted ("memory allocation of
    // 32768000000 bytes failed"): the recorder reserved 4096 rows × columns. Streamed, it runs;
    // sample_time = 0.5 keeps the CSV at 3 rows (t = 0, 0.5 and the stop time 1).
    const N: usize = 1_000_000;
    let dir = temp_dir("million");
    let model = dir.join("big.toml");
    let values = vec!["1.5"; N].join(", ");
    std::fs::write(
        &model,
        format!("connect = [\"c.out -> s.in1\"]\n[model]\nstop_time = 1.0\n[output]\nsample_time = 0.5\n[blocks.c]\ntype = \"Constant\"\nvalue = [{values}]\n[blocks.s]\ntype = \"Scope\"\n"),
    )
    .unwrap();
    let csv = dir.join("big.csv");
    let out = blockdyn(&[
        "run",
        model.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = parse_csv(&csv);
    assert_eq!(
        rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
        [0.0, 0.5, 1.0]
    );
    for row in &rows {
        assert_eq!(row.len(), N + 1);
        assert!(row[1..].iter().all(|&v| v == 1.5));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
