//! Issue 28, part 2: a sweep never destroys what is in its `--out` directory.
//! - Into a non-empty `--out` it is refused unless `--overwrite`, naming what is there.
//! - Even with `--overwrite` it never writes over a file that is not a sweep's output (a model
//!   stored as `out/run_0.csv`).
//! - With `--overwrite`, the same plan's outputs are replaced and its stale summaries of another
//!   sharding removed, and said (another plan's outputs are refused: see
//!   sweep_overwrite_replaces_only_the_same_plan.rs).
//! - The shards of one plan share one `--out` without `--overwrite`.
//! - A plan larger than 1,000,000 points is refused before anything is allocated for it (a
//!   1000³-point plan aborted on an 8 GB allocation).
//!
//! Each refusal exits 1 with its message and leaves every file byte for byte. Through the built
//! binary, in fresh temporary directories.

use std::path::Path;
mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text, RAMP};

/// The ramp model (x' = c) in `dir`, swept over c.
fn setup(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("m.toml"), RAMP).unwrap();
    dir
}

/// `blockdyn sweep m.toml --vary one.value=<values> --out out <extra>` in `dir`.
fn sweep(dir: &Path, values: &str, extra: &[&str]) -> std::process::Output {
    let vary = format!("one.value={values}");
    let mut args = vec!["sweep", "m.toml", "--vary", &vary, "--out", "out", "-q"];
    args.extend(extra);
    blockdyn_in(dir, &args, &[])
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sweep_into_a_non_empty_out_is_refused_without_overwrite() {
    let dir = setup("not_empty");
    assert!(sweep(&dir, "1,2,3", &[]).status.success());
    std::fs::write(dir.join("out/notes.txt"), "mine").unwrap();
    let before = snapshot(&dir);
    let out = sweep(&dir, "4,5,6", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --out 'out' is not empty: it holds 'notes.txt', 'run_0.csv', 'run_1.csv', 'run_2.csv', 'summary.csv' and 1 more\n  help: choose an empty or new directory, or pass --overwrite to replace the outputs of an earlier sweep of the same --vary plan there (a file that is not that sweep's output is never replaced)\n"
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweep_never_overwrites_a_file_that_is_not_a_sweep_output() {
    let dir = setup("foreign_file");
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/run_0.csv"), RAMP).unwrap();
    std::fs::write(dir.join("out/summary.csv"), "my,own,table\n").unwrap();
    let before = snapshot(&dir);
    for extra in [&[][..], &["--overwrite"][..]] {
        let out = sweep(&dir, "1,2", extra);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert_eq!(
            text(&out.stderr),
            "error: cannot write 'out/run_0.csv': the file is there and is not the output of a sweep (a run CSV starts with a 'time,...' header, a summary with this sweep's 'index,...' header), so it is not replaced, even with --overwrite\n  help: move the file away, or choose another --out directory\n",
            "{extra:?}"
        );
        assert_unchanged(&dir, &before);
    }
    // The model itself as the summary: refused too.
    std::fs::remove_file(dir.join("out/run_0.csv")).unwrap();
    std::fs::rename(dir.join("out/summary.csv"), dir.join("out/keep.csv")).unwrap();
    std::fs::copy(dir.join("m.toml"), dir.join("out/summary.csv")).unwrap();
    let before = snapshot(&dir);
    let out = blockdyn_in(
        &dir,
        &[
            "sweep",
            "out/summary.csv",
            "--vary",
            "one.value=1,2",
            "--out",
            "out",
            "--overwrite",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: cannot write 'out/summary.csv': the file is there and is not the output of a sweep"),
        "{}",
        text(&out.stderr)
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn overwrite_replaces_the_same_plan_and_removes_its_stale_summaries() {
    let dir = setup("stale");
    // The plan run as two shards, then as a whole with --overwrite (after the model changed).
    for shard in ["1/2", "2/2"] {
        assert!(sweep(&dir, "1,2,3", &["--shard", shard]).status.success());
    }
    std::fs::write(dir.join("out/notes.txt"), "mine").unwrap();
    std::fs::write(
        dir.join("m.toml"),
        RAMP.replace(
            "type = \"Integrator\"",
            "type = \"Integrator\"\ninitial = 5.0",
        ),
    )
    .unwrap();
    let out = blockdyn_in(
        &dir,
        &[
            "sweep",
            "m.toml",
            "--vary",
            "one.value=1,2,3",
            "--out",
            "out",
            "--overwrite",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "  removed 2 stale outputs of an earlier sweep: summary_1_of_2.csv, summary_2_of_2.csv\n"
        ),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        names(&dir.join("out")),
        [
            "notes.txt",
            "run_0.csv",
            "run_1.csv",
            "run_2.csv",
            "summary.csv",
            "sweep_plan.txt"
        ]
    );
    assert_eq!(std::fs::read(dir.join("out/notes.txt")).unwrap(), b"mine");
    // The new model's point 1: x(1) = 5 + 2·1 = 7.
    let csv = std::fs::read_to_string(dir.join("out/run_1.csv")).unwrap();
    let last = csv.lines().last().unwrap();
    let x: f64 = last.split(',').nth(1).unwrap().parse().unwrap();
    assert!(
        (x - 7.0).abs() < 1e-9,
        "the new point 1 (x(0) = 5, x' = 2): {last}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweep_into_an_out_that_is_a_file_is_refused() {
    let dir = setup("out_is_a_file");
    std::fs::write(dir.join("out"), "my notes").unwrap();
    let before = snapshot(&dir);
    let out = sweep(&dir, "1,2", &["--overwrite"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: cannot create the output directory 'out': it is a file, not a directory\n"
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_of_one_plan_share_one_out_directory() {
    let dir = setup("shards");
    for shard in ["1/2", "2/2"] {
        let out = sweep(&dir, "1,2,3", &["--shard", shard]);
        assert!(out.status.success(), "{shard}: {}", text(&out.stderr));
    }
    assert_eq!(
        names(&dir.join("out")),
        [
            "run_0.csv",
            "run_1.csv",
            "run_2.csv",
            "summary_1_of_2.csv",
            "summary_2_of_2.csv",
            "sweep_plan.txt"
        ]
    );
    // Shard 1 again is refused: its own outputs are there.
    let before = snapshot(&dir);
    let out = sweep(&dir, "1,2,3", &["--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: --out 'out' is not empty: it holds 'run_0.csv', 'run_2.csv', 'summary_1_of_2.csv'\n"),
        "{}",
        text(&out.stderr)
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plan_over_the_point_limit_is_refused_before_allocating() {
    let dir = setup("huge_plan");
    let values: Vec<String> = (1..=1000).map(|k| k.to_string()).collect();
    let values = values.join(",");
    let before = snapshot(&dir);
    let (a, b, c) = (
        format!("one.value={values}"),
        format!("x.initial={values}"),
        format!("solver.rel_tol={}", values.replace(',', "e-9,") + "e-9"),
    );
    let out = blockdyn_in(
        &dir,
        &[
            "sweep", "m.toml", "--vary", &a, "--vary", &b, "--vary", &c, "--out", "out",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: the sweep has 1000000000 points (1000 × 1000 × 1000), more than the limit of 1000000 points\n  help: vary fewer values, or split the sweep into several (each --vary list a part of the values)\n"
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}
