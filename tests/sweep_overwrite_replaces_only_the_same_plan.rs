//! Issue 28, part 2: "never write over a file that is not a sweep output of the same plan".
//! `--overwrite` used to take any `run_<k>.csv` whose first line starts with `time,` for a
//! sweep's output: a user's `out/run_0.csv` holding "time,foo.bar\n0,42" was replaced, exit 0.
//! A sweep now records its plan in `--out/sweep_plan.txt` (the `--vary` lists and their FNV-1a
//! digest) before its first point runs, and `--overwrite` replaces only the outputs of a
//! directory whose record is this plan's.
//!
//! Each refusal exits 1 with its message and leaves every file byte for byte. Through the built
//! binary, in fresh temporary directories.

use std::path::Path;
mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text, RAMP};

/// `blockdyn sweep m.toml --vary one.value=<values> --out out -q <extra>` in `dir`.
fn sweep(dir: &Path, values: &str, extra: &[&str]) -> std::process::Output {
    let vary = format!("one.value={values}");
    let mut args = vec!["sweep", "m.toml", "--vary", &vary, "--out", "out", "-q"];
    args.extend(extra);
    blockdyn_in(dir, &args, &[])
}

/// The ramp model (x' = c) in a fresh directory.
fn setup(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("m.toml"), RAMP).unwrap();
    dir
}

/// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of one `--vary` axis as
/// docs/sweep.md defines the plan's encoding: the path, 0x1f, each value followed by 0x1e, 0x1d.
fn digest(path: &str, values: &[&str]) -> String {
    let mut bytes = path.as_bytes().to_vec();
    bytes.push(0x1f);
    for v in values {
        bytes.extend(v.as_bytes());
        bytes.push(0x1e);
    }
    bytes.push(0x1d);
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}

/// Runs `sweep(values, --overwrite)` in `dir` and checks it is refused with `expected` as all of
/// stderr, nothing changed.
fn refused(dir: &Path, values: &str, expected: &str) {
    let before = snapshot(dir);
    let out = sweep(dir, values, &["--overwrite"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), expected);
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    assert_unchanged(dir, &before);
}

#[test]
fn overwrite_never_replaces_a_users_csv_that_starts_like_a_run_csv() {
    // The audit's case: a user's table under a run CSV's name, with a CSV header `time,...`.
    let dir = setup("users_csv");
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/run_0.csv"), "time,foo.bar\n0,42\n").unwrap();
    refused(
        &dir,
        "1,2",
        "error: --out 'out' holds 'run_0.csv' with no sweep_plan.txt recording which sweep plan wrote them, so --overwrite does not replace them (a file that merely starts like a sweep's output may be the user's)\n  help: choose another --out directory, or move these files away first\n",
    );
    // Also a whole earlier sweep whose record was removed (or a blockdyn that wrote none).
    let dir2 = setup("unrecorded_sweep");
    assert!(sweep(&dir2, "1,2,3", &[]).status.success());
    std::fs::remove_file(dir2.join("out/sweep_plan.txt")).unwrap();
    refused(
        &dir2,
        "1,2,3",
        "error: --out 'out' holds 'run_0.csv', 'run_1.csv', 'run_2.csv', 'summary.csv' with no sweep_plan.txt recording which sweep plan wrote them, so --overwrite does not replace them (a file that merely starts like a sweep's output may be the user's)\n  help: choose another --out directory, or move these files away first\n",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&dir2).unwrap();
}

#[test]
fn overwrite_refuses_the_outputs_of_another_plan_naming_both() {
    let dir = setup("other_plan");
    assert!(sweep(&dir, "1,2,3,4,5,6,7,8", &[]).status.success());
    let record = std::fs::read_to_string(dir.join("out/sweep_plan.txt")).unwrap();
    let earlier = digest("one.value", &["1", "2", "3", "4", "5", "6", "7", "8"]);
    assert_eq!(
        record,
        format!("# blockdyn sweep plan: the --vary lists the run_<k>.csv and summary files here were written for\ndigest = {earlier}\npoints = 8\nvary = one.value=1,2,3,4,5,6,7,8\n")
    );
    let now = digest("one.value", &["10", "20"]);
    refused(
        &dir,
        "10,20",
        &format!("error: --out 'out' holds the outputs of another sweep plan ({earlier}, --vary one.value=1,2,3,4,5,6,7,8), not of this one ({now}, --vary one.value=10,20): --overwrite replaces only the outputs of the same plan\n  help: choose another --out directory, or move the earlier sweep's files away first\n"),
    );
    // The same values written another way are another plan (values are compared as written).
    let other = digest("one.value", &["1.0", "2", "3", "4", "5", "6", "7", "8"]);
    refused(
        &dir,
        "1.0,2,3,4,5,6,7,8",
        &format!("error: --out 'out' holds the outputs of another sweep plan ({earlier}, --vary one.value=1,2,3,4,5,6,7,8), not of this one ({other}, --vary one.value=1.0,2,3,4,5,6,7,8): --overwrite replaces only the outputs of the same plan\n  help: choose another --out directory, or move the earlier sweep's files away first\n"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn overwrite_replaces_the_outputs_of_the_same_plan() {
    let dir = setup("same_plan");
    assert!(sweep(&dir, "1,2", &[]).status.success());
    std::fs::write(dir.join("out/notes.txt"), "mine").unwrap();
    let record = std::fs::read(dir.join("out/sweep_plan.txt")).unwrap();
    // The model changed (x(0) = 5); the same plan again replaces the run CSVs.
    std::fs::write(
        dir.join("m.toml"),
        RAMP.replace(
            "type = \"Integrator\"",
            "type = \"Integrator\"\ninitial = 5.0",
        ),
    )
    .unwrap();
    let out = sweep(&dir, "1,2", &["--overwrite"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(dir.join("out/notes.txt")).unwrap(), b"mine");
    assert_eq!(
        std::fs::read(dir.join("out/sweep_plan.txt")).unwrap(),
        record
    );
    // x(1) = 5 + c·1 for c = 2 (to 1e-9: the ramp is integrated exactly but for round-off).
    let csv = std::fs::read_to_string(dir.join("out/run_1.csv")).unwrap();
    let last = csv.lines().last().unwrap();
    let x: f64 = last.split(',').nth(1).unwrap().parse().unwrap();
    assert!((x - 7.0).abs() < 1e-9, "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_users_file_named_sweep_plan_txt_is_never_replaced() {
    let dir = setup("users_record");
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/sweep_plan.txt"), "my plan for the week\n").unwrap();
    for extra in [&[][..], &["--overwrite"][..]] {
        let before = snapshot(&dir);
        let out = sweep(&dir, "1,2", extra);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert!(
            text(&out.stderr).starts_with("error: cannot write 'out/sweep_plan.txt': the file is there and is not the output of a sweep"),
            "{}",
            text(&out.stderr)
        );
        assert_unchanged(&dir, &before);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
