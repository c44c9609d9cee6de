//! Sweeps (issue 13): the plan's points and order, value lists with arrays, shards that partition
//! the points, threaded runs equal to serial ones bit for bit, and `blockdyn sweep` end to end
//! (closed forms in the summary, shards that merge into the whole sweep, errors before any run,
//! a failing point among good ones). Every file goes into a fresh temporary directory.

#[path = "../benches/support/ball_drop_sweep.rs"]
mod ball_drop_sweep;
mod cli_common;

use blockdyn::sweep::{summary_file_name, PlanError, Shard, SweepPlan};
use cli_common::{blockdyn, temp_dir, text};
use std::collections::BTreeMap;
use std::path::Path;

const SPRING: &str = "models/mass_spring_damper.toml";

#[test]
fn plan_numbers_points_with_the_last_vary_fastest() {
    let plan = SweepPlan::parse(&["a.x=1,2", "b.y=p,q,r"]).unwrap();
    assert_eq!(plan.len(), 6);
    let points: Vec<Vec<&str>> = (0..6).map(|k| plan.values(k)).collect();
    assert_eq!(
        points,
        [
            ["1", "p"],
            ["1", "q"],
            ["1", "r"],
            ["2", "p"],
            ["2", "q"],
            ["2", "r"]
        ]
    );
    let shown: Vec<String> = plan.overrides(4).iter().map(|o| o.to_string()).collect();
    assert_eq!(shown, ["a.x=2", "b.y=q"]);
    // Read once, typed: an integer and a bare word (a string).
    let typed: Vec<_> = plan
        .overrides(4)
        .iter()
        .map(|o| o.value().clone())
        .collect();
    assert_eq!(typed, [2i64.into(), "q".into()]);
    let single = SweepPlan::parse(&["solver.rel_tol=1e-6"]).unwrap();
    assert_eq!(
        (single.len(), single.overrides(0)[0].to_string()),
        (1, "solver.rel_tol=1e-6".to_string())
    );
    assert_eq!(
        SweepPlan::parse(&["a.x=1", "a.x=2"]),
        Err(PlanError::RepeatedPath { path: "a.x".into() })
    );
    assert!(matches!(
        SweepPlan::parse(&["a.x"]),
        Err(PlanError::NoEquals { .. })
    ));
    assert!(matches!(
        SweepPlan::parse(&["a..x=1"]),
        Err(PlanError::NotADottedPath { .. })
    ));
    // A bare name is a model variable.
    assert!(SweepPlan::parse(&["mass=1,2"]).is_ok());
}

#[test]
fn values_are_split_on_commas_outside_brackets_braces_and_quotes() {
    let plan = SweepPlan::parse(&[
        "free.position=[0,0,1], [0, 0, 2],[0,0,3]",
        r#"contact.normal={ method = "linear_spring_damper", stiffness = 1e5, damping = 1 },{ method = "hunt_crossley", stiffness = 1e5, damping = 1, exponent = 1.5 }"#,
        r#"model.name="a,b",'c'"#,
    ])
    .unwrap();
    let axes = plan.axes();
    assert_eq!(axes[0].texts(), ["[0,0,1]", "[0, 0, 2]", "[0,0,3]"]);
    assert_eq!(axes[1].len(), 2);
    assert!(axes[1].texts()[1].contains("exponent = 1.5 }"));
    assert_eq!(axes[2].texts(), [r#""a,b""#, "'c'"]);
    assert_eq!(plan.len(), 12);
    for bad in ["a.x=[1,2", "a.x=1,,2", "a.x=1,", "a.x={a=1]", "a.x=\"1"] {
        assert!(SweepPlan::parse(&[bad]).is_err(), "{bad}");
    }
}

#[test]
fn shards_partition_the_points_round_robin() {
    for total in 0..40 {
        for count in 1..8 {
            let mut seen = vec![0; total];
            for index in 1..=count {
                let shard = Shard::new(index, count).unwrap();
                let points = shard.points(total);
                assert!(points.windows(2).all(|w| w[0] < w[1]));
                for &k in &points {
                    assert!(shard.contains(k) && k % count == index - 1);
                    seen[k] += 1;
                }
            }
            assert!(
                seen.iter().all(|&n| n == 1),
                "{total} points in {count} shards"
            );
        }
    }
    assert!(Shard::new(0, 3).is_err() && Shard::new(4, 3).is_err() && Shard::new(1, 0).is_err());
    assert_eq!(summary_file_name(Shard::WHOLE), "summary.csv");
    assert_eq!(
        summary_file_name(Shard::new(2, 5).unwrap()),
        "summary_2_of_5.csv"
    );
}

/// The library path of examples/sweep_threads.rs: the 64 ball drops run serially and on 3 threads
/// (more than the cores of a small machine) give the same recordings, bit for bit.
#[test]
fn threaded_sweep_equals_serial_sweep_bit_for_bit() {
    let sweep = ball_drop_sweep::sweep();
    assert_eq!(sweep.plan().len(), 64);
    let serial = ball_drop_sweep::run(&sweep, 1);
    let threaded = ball_drop_sweep::run(&sweep, 3);
    assert!(serial.iter().all(|p| p.result.is_ok()));
    assert_eq!(
        serial.iter().map(|p| p.index).collect::<Vec<_>>(),
        (0..64).collect::<Vec<_>>()
    );
    ball_drop_sweep::identical(&serial, &threaded).unwrap();
    // The points differ: the stiffness shows in the resting penetration m·g/k.
    let resting = |k: usize| {
        let r = serial[k].result.as_ref().unwrap();
        let column = r.recording.column_index("contact.penetration").unwrap();
        r.recording.column_values(column).last().unwrap()
    };
    assert!(
        (resting(3 * 8 + 3) - 9.81e-5).abs() < 1e-7,
        "{}",
        resting(27)
    );
    assert!(
        (resting(7 * 8 + 7) - 9.81 / 2e5).abs() < 1e-7,
        "{}",
        resting(63)
    );
}

/// A parsed CSV file: header and rows of fields (RFC 4180 quotes; one line per row).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let content =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = content.lines().map(fields);
    let header = lines.next().expect("a header");
    let rows: Vec<Vec<String>> = lines.collect();
    for row in &rows {
        assert_eq!(row.len(), header.len(), "{row:?}");
    }
    (header, rows)
}

fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// The summary's rows as maps from column name to field.
fn summary(path: &Path) -> Vec<BTreeMap<String, String>> {
    let (header, rows) = read_csv(path);
    rows.into_iter()
        .map(|row| header.iter().cloned().zip(row).collect())
        .collect()
}

fn number(row: &BTreeMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {:?}", row[column]))
}

/// The step response of m·x'' + c·x' + k·x = F (m = 1) from rest, `tau` s after the step:
/// (position, velocity).
fn step_response(k: f64, c: f64, force: f64, tau: f64) -> (f64, f64) {
    let omega = k.sqrt();
    let zeta = c / (2.0 * omega);
    let root = (1.0 - zeta * zeta).sqrt();
    let omega_d = omega * root;
    let decay = (-zeta * omega * tau).exp();
    let x =
        force / k * (1.0 - decay * ((omega_d * tau).cos() + zeta / root * (omega_d * tau).sin()));
    let v = force / k * decay * omega / root * (omega_d * tau).sin();
    (x, v)
}

/// The mass-spring-damper at 2 × 3 points (stiffness × damping), 2 s after its step: each row of
/// the summary holds the closed-form position and velocity, the solver's counts and the last row
/// of the point's CSV.
#[test]
fn cli_sweep_writes_csvs_and_a_summary_with_the_closed_form() {
    let dir = temp_dir("closed_form").join("out");
    let out = blockdyn(&[
        "sweep",
        SPRING,
        "--vary",
        "spring.gain=100,400",
        "--vary",
        "damper.gain=2,4,8",
        "--set",
        "model.stop_time=3",
        "--jobs",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("6 of 6 points ran (0 failed)"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        text(&out.stderr)
            .lines()
            .filter(|l| l.contains(": ok, "))
            .count(),
        6
    );
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "run_0.csv",
            "run_1.csv",
            "run_2.csv",
            "run_3.csv",
            "run_4.csv",
            "run_5.csv",
            "summary.csv",
            "sweep_plan.txt"
        ]
    );
    let (header, _) = read_csv(&dir.join("summary.csv"));
    assert_eq!(
        header.join(","),
        "index,spring.gain,damper.gain,status,steps,rejected_steps,function_evaluations,zero_crossings,method_switches,rows,final_time,force.out,position.out,velocity.out,message"
    );
    let rows = summary(&dir.join("summary.csv"));
    assert_eq!(rows.len(), 6);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["index"], k.to_string());
        assert_eq!(
            (row["status"].as_str(), row["message"].as_str()),
            ("ok", "")
        );
        let (stiffness, damping) = (number(row, "spring.gain"), number(row, "damper.gain"));
        assert_eq!(
            (stiffness, damping),
            ([100.0, 400.0][k / 3], [2.0, 4.0, 8.0][k % 3])
        );
        let (x, v) = step_response(stiffness, damping, 10.0, 2.0);
        assert_eq!(number(row, "final_time"), 3.0);
        assert!(
            (number(row, "position.out") - x).abs() < 1e-6,
            "{row:?}: x = {x}"
        );
        assert!(
            (number(row, "velocity.out") - v).abs() < 1e-5,
            "{row:?}: v = {v}"
        );
        assert!(number(row, "steps") > 10.0 && number(row, "function_evaluations") > 60.0);
        // The summary's final values are the last row of the point's CSV, and the CSV is the
        // one `blockdyn run --csv` writes for the same overrides.
        let csv = dir.join(format!("run_{k}.csv"));
        let (_, csv_rows) = read_csv(&csv);
        assert_eq!(number(row, "rows"), csv_rows.len() as f64);
        let last = csv_rows.last().unwrap();
        assert_eq!(
            (last[2].as_str(), last[3].as_str()),
            (row["position.out"].as_str(), row["velocity.out"].as_str())
        );
        if k == 4 {
            let single = dir.parent().unwrap().join("single.csv");
            // The model names a plot: write it beside the CSV, never into the working directory.
            let plot = dir.parent().unwrap().join("single.png");
            let run = blockdyn(&[
                "run",
                SPRING,
                "--plot",
                plot.to_str().unwrap(),
                "--set",
                "model.stop_time=3",
                "--set",
                "spring.gain=400",
                "--set",
                "damper.gain=4",
                "--csv",
                single.to_str().unwrap(),
                "-q",
            ]);
            assert!(run.status.success(), "{}", text(&run.stderr));
            assert_eq!(
                std::fs::read(&single).unwrap(),
                std::fs::read(&csv).unwrap()
            );
        }
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// A value that is an array: the ball's start position, with the free fall's closed form.
#[test]
fn array_values_run_and_are_quoted_in_the_summary() {
    let dir = temp_dir("arrays");
    let out = blockdyn(&[
        "sweep",
        "models/ball_drop.toml",
        "--vary",
        "free.position=[0, 0, 0.5],[0,0,1]",
        "--set",
        "model.stop_time=0.2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let content = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert!(content.contains("\n0,\"[0, 0, 0.5]\",ok,"), "{content}");
    for (row, z0) in summary(&dir.join("summary.csv")).iter().zip([0.5, 1.0]) {
        let z = z0 - 9.81 * 0.2 * 0.2 / 2.0;
        assert!((number(row, "free.p[2]") - z).abs() < 1e-9, "{row:?}");
        assert_eq!(number(row, "contact.normal_force"), 0.0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Four shards into one directory give the whole sweep's files: the same CSVs, and summaries
/// that concatenate (without their headers, sorted by index) into the whole summary.
#[test]
fn shards_merge_into_the_whole_sweep() {
    let root = temp_dir("shards");
    let args = |dir: &Path| {
        [
            "sweep",
            SPRING,
            "--vary",
            "spring.gain=100,200,400",
            "--vary",
            "damper.gain=2,4",
            "--set",
            "model.stop_time=1.5",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([dir.to_str().unwrap().to_string()])
        .collect::<Vec<String>>()
    };
    let run = |extra: &[&str], dir: &Path| {
        let mut all = args(dir);
        all.extend(extra.iter().map(|s| s.to_string()));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = blockdyn(&all);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    let (whole, sharded) = (root.join("whole"), root.join("sharded"));
    run(&["--jobs", "1"], &whole);
    for i in 1..=4 {
        run(&["--shard", &format!("{i}/4"), "--jobs", "2"], &sharded);
    }
    assert!(!sharded.join("summary.csv").exists());
    let (header, whole_rows) = read_csv(&whole.join("summary.csv"));
    let mut merged = Vec::new();
    for i in 1..=4 {
        let (shard_header, rows) = read_csv(&sharded.join(format!("summary_{i}_of_4.csv")));
        assert_eq!(shard_header, header);
        let indices: Vec<usize> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
        assert!(
            indices.iter().all(|k| k % 4 == i - 1),
            "shard {i}: {indices:?}"
        );
        merged.extend(rows);
    }
    merged.sort_by_key(|r| r[0].parse::<usize>().unwrap());
    assert_eq!(merged, whole_rows);
    for k in 0..6 {
        let name = format!("run_{k}.csv");
        assert_eq!(
            std::fs::read(whole.join(&name)).unwrap(),
            std::fs::read(sharded.join(&name)).unwrap(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A bad `--vary` (an unknown parameter, a bad later value) is reported with the located message
/// of `--set` before any run: nothing is written, not even the directory.
#[test]
fn a_bad_vary_is_reported_before_anything_is_written() {
    let root = temp_dir("bad_vary");
    let dir = root.join("out");
    let cases = [
        (
            "spring.gian=100,200",
            "--vary 'spring.gian=100': unknown parameter 'gian'",
        ),
        (
            "spring.gain=100,stiff",
            "--vary 'spring.gain=stiff': 'gain' must be an array of numbers, not a string",
        ),
        (
            "sprung.gain=100",
            "--vary 'sprung.gain=100': there is no block 'sprung'",
        ),
        ("spring.gain=[100", "a bracket or brace is not closed"),
    ];
    for (vary, expected) in cases {
        let out = blockdyn(&[
            "sweep",
            SPRING,
            "--vary",
            vary,
            "--out",
            dir.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{vary}");
        assert!(stderr.contains(expected), "{vary}: {stderr}");
        assert!(!stderr.contains(": ok,"), "{vary}: a point ran: {stderr}");
        assert!(!dir.exists(), "{vary}: the output directory was created");
    }
    // The message names the file and the block as `--set` does.
    let out = blockdyn(&[
        "sweep",
        SPRING,
        "--vary",
        "spring.gian=1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        text(&out.stderr).starts_with(&format!("error: {SPRING}: block 'spring': ")),
        "{}",
        text(&out.stderr)
    );
    let set = blockdyn(&["check", SPRING, "--set", "spring.gian=1"]);
    let set_message = text(&set.stderr).replace("--set", "--vary");
    assert!(
        text(&out.stderr).starts_with(set_message.trim_end()),
        "{}\n{set_message}",
        text(&out.stderr)
    );
    // A value out of range in point 5 of 6 (a later axis value) also stops the sweep before
    // any run, with the file's line.
    let out = blockdyn(&[
        "sweep",
        "models/ball_drop.toml",
        "--vary",
        "contact.normal.stiffness=1e5,-1",
        "--vary",
        "contact.normal.damping=1,2,3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("models/ball_drop.toml:") && stderr.contains("stiffness = -1 is invalid"),
        "{stderr}"
    );
    assert!(
        stderr.contains("in sweep point 3 (contact.normal.stiffness=-1, contact.normal.damping=1)"),
        "{stderr}"
    );
    assert!(!dir.exists());
    std::fs::remove_dir_all(&root).unwrap();
}

/// A point whose run fails is in the summary as `failed` with its message and its partial CSV;
/// the other points ran; the command exits non-zero after all of them.
#[test]
fn a_failing_point_is_reported_and_the_others_run() {
    let dir = temp_dir("failing");
    let out = blockdyn(&[
        "sweep",
        "models/ball_drop.toml",
        "--vary",
        "solver.max_steps=100000,50,200000",
        "--jobs",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("error: 1 of 3 sweep points failed"),
        "{stderr}"
    );
    assert!(stderr.contains("point 1: the run stalled"), "{stderr}");
    let rows = summary(&dir.join("summary.csv"));
    let status: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(status, ["ok", "failed", "ok"]);
    assert!(
        rows[1]["message"].contains("max_steps = 50"),
        "{:?}",
        rows[1]
    );
    assert!(!rows[1]["message"].contains('\n'));
    assert_eq!(rows[1]["steps"], "");
    assert_eq!(number(&rows[0], "final_time"), 3.0);
    assert!(number(&rows[1], "final_time") < 3.0);
    let (_, partial) = read_csv(&dir.join("run_1.csv"));
    assert_eq!(partial.len() as f64, number(&rows[1], "rows"));
    assert!(partial.len() > 10);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    // Three run CSVs (the failed point's holds its rows), the summary and the plan's record.
    assert_eq!(names.len(), 5, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An interrupt before the first point: no point runs, the summary has its header only, and the
/// report says every point did not run.
#[test]
fn an_interrupted_sweep_reports_the_points_that_did_not_run() {
    use blockdyn::sweep::{DirectoryRun, RunSettings, Sweep, SweepError};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = temp_dir("interrupted");
    let plan = SweepPlan::parse(&["spring.gain=100,200,400"]).unwrap();
    let sweep = Sweep::load(Path::new(SPRING), Vec::new(), plan).unwrap();
    let mut settings = RunSettings::with_jobs(std::num::NonZeroUsize::new(2).unwrap());
    let checked = sweep.check(&[0, 1, 2], &settings).unwrap();
    assert_eq!(
        checked.columns,
        ["force.out", "position.out", "velocity.out"]
    );
    settings.interrupt = Some(Arc::new(AtomicBool::new(true)));
    let run = DirectoryRun {
        dir: dir.clone(),
        shard: Shard::WHOLE,
        settings,
        overwrite: false,
    };
    let report = sweep
        .run_into(&run, &checked, |_| panic!("no point runs"))
        .unwrap();
    assert_eq!((report.points.len(), report.planned), (0, 3));
    assert_eq!(read_csv(&dir.join("summary.csv")).1.len(), 0);
    let failures = report.failures().expect("an error");
    assert!(matches!(
        failures,
        SweepError::PointsFailed { not_run: 3, .. }
    ));
    assert!(
        failures.to_string().contains("3 did not run (interrupted)"),
        "{failures}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
