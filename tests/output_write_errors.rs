//! Issue 28, part 1: a write error (a full disk) is reported with the path and the OS error, no
//! output of the run is committed when one of them failed, and a failed run's note says what
//! was really written — not "N rows were written" when nothing was. Every old file stays, byte
//! for byte, and no temporary is left.
//!
//! The full disk is the output writer's test seam (`BLOCKDYN_TEST_DISK_FULL_AFTER=N`: every
//! output file takes N bytes, then fails with ENOSPC), through the built binary.

mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text, RAMP};

/// ENOSPC after this many bytes of each output file.
const DISK_FULL: (&str, &str) = ("BLOCKDYN_TEST_DISK_FULL_AFTER", "1000");

/// Fails at t = 1 (NaN) after about 10,000 rows (sample_time 1e-4): 200 kB of CSV, more than
/// the CSV's 64 KiB buffer, so the full disk shows while the run streams.
const FAILS_AT_1: &str = "connect = [\"x.out -> f.in\", \"f.out -> x.in\", \"x.out -> scope.in1\"]\n[model]\nstop_time = 2.0\n[output]\nsample_time = 1e-4\n[blocks.f]\ntype = \"Fcn\"\nexpression = \"sqrt(1 - t) + 0 * u\"\n[blocks.x]\ntype = \"Integrator\"\n[blocks.scope]\ntype = \"Scope\"\n";

/// The directory with the model and the old outputs (14 bytes of CSV, a 4-byte "plot").
fn with_old_outputs(name: &str, model: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("m.toml"), model).unwrap();
    std::fs::write(dir.join("run.csv"), "time,x\n0,1\n1,2\n").unwrap();
    std::fs::write(dir.join("run.png"), "old!").unwrap();
    dir
}

#[test]
fn a_full_disk_is_reported_with_the_path_and_no_output_is_committed() {
    // The ramp with sample_time 1e-5: 100,001 rows, the disk full long before the end.
    let model = RAMP.replace("[blocks.one]", "[output]\nsample_time = 1e-5\n[blocks.one]");
    let dir = with_old_outputs("disk_full_ok_run", &model);
    let before = snapshot(&dir);
    let args = ["run", "m.toml", "--csv", "run.csv", "--plot", "run.png"];
    let out = blockdyn_in(&dir, &args, &[DISK_FULL]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(
            "error: cannot write CSV 'run.csv': writing failed: No space left on device (os error 28)\n  note: no output was written"
        ),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_in_a_failed_run_says_no_output_was_written() {
    let dir = with_old_outputs("disk_full_failed_run", FAILS_AT_1);
    let before = snapshot(&dir);
    let args = [
        "run", "m.toml", "--csv", "run.csv", "--plot", "run.png", "-q",
    ];
    let out = blockdyn_in(&dir, &args, &[DISK_FULL]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("produced a non-finite output"), "{stderr}");
    assert!(
        stderr.contains(
            "\n  note: no output was written: cannot write CSV 'run.csv': writing failed: No space left on device (os error 28)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("partial run"), "{stderr}");
    assert!(!stderr.contains("were written"), "{stderr}");
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plot_that_cannot_be_written_keeps_the_old_csv_too() {
    // The CSV of the ramp (default rows) fits in 1000 bytes; the PNG does not.
    let dir = with_old_outputs("disk_full_plot", RAMP);
    let before = snapshot(&dir);
    let args = [
        "run", "m.toml", "--csv", "run.csv", "--plot", "run.png", "-q",
    ];
    let out = blockdyn_in(&dir, &args, &[("BLOCKDYN_TEST_DISK_FULL_AFTER", "2000")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "cannot write plot 'run.png': writing failed: No space left on device (os error 28)"
        ),
        "{stderr}"
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_partial_run_names_what_it_wrote() {
    let dir = with_old_outputs("partial_note", FAILS_AT_1);
    let args = ["run", "m.toml", "--csv", "run.csv", "-q"];
    let out = blockdyn_in(&dir, &args, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let rows = std::fs::read_to_string(dir.join("run.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert!(
        stderr.contains(&format!(
            "\n  note: a partial run: the {rows} rows recorded up to t = "
        )),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with("were written: CSV 'run.csv'"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(dir.join("run.png")).unwrap(),
        b"old!",
        "no plot asked for"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
