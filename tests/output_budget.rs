//! Issue 28, part 3 (the output volume): a run's CSV volume is projected before the run
//! (rows × columns from sample_time, or the steps max_step forces) and refused past the output
//! budget, `[output] max_bytes` (default 1e10 bytes), with a message naming the budget and how
//! to raise it; `max_steps` past 1e18 (2^63 − 1) is refused where it is written. Nothing is written, every
//! old file stays byte for byte. Through the built binary, in a fresh temporary directory.

mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text, RAMP};

/// The ramp model with `output` lines under `[output]`.
fn ramp_with(output: &str) -> String {
    RAMP.replace("[blocks.one]", &format!("[output]\n{output}\n[blocks.one]"))
}

/// Runs `m.toml` (holding `model`) with `args` in a fresh directory holding an old CSV: exit 1,
/// the stderr, nothing changed.
fn refused(name: &str, model: &str, args: &[&str]) -> String {
    let dir = temp_dir(name);
    std::fs::write(dir.join("m.toml"), model).unwrap();
    std::fs::write(dir.join("run.csv"), "time,x\n0,1\n").unwrap();
    let before = snapshot(&dir);
    let mut all = vec!["run", "m.toml", "--csv", "run.csv"];
    all.extend(args);
    let out = blockdyn_in(&dir, &all, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
    stderr
}

#[test]
fn a_sample_time_of_1e_300_is_refused_before_the_run() {
    let stderr = refused("sample_1e-300", &ramp_with("sample_time = 1e-300"), &[]);
    assert!(
        stderr.starts_with("error: the run's output would be at least 4.000e292 GB (1.000e300 rows from stop_time / sample_time × 2 columns), more than the output budget of 10 GB\n  help: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("raise the budget: [output] max_bytes = "),
        "{stderr}"
    );
}

#[test]
fn a_csv_projected_past_the_budget_is_refused_and_names_the_budget() {
    // sample_time = 1e-3 over 1e9 s: 1e12 rows, 40,000 GB (it used to be only warned about).
    let model = ramp_with("sample_time = 1e-3").replace("stop_time = 1.0", "stop_time = 1e9");
    let stderr = refused("sample_1e-3", &model, &[]);
    assert!(
        stderr.contains("the run's output would be at least 40000 GB (1.000e12 rows from stop_time / sample_time × 2 columns), more than the output budget of 10 GB"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[output] max_bytes = 4.1e13 (or --set output.max_bytes=4.1e13)"),
        "{stderr}"
    );
    // max_step forces the rows too: 1e9 s / 1e-2 s = 1e11 steps.
    let model = RAMP.replace(
        "stop_time = 1.0",
        "stop_time = 1e9\n[solver]\nmax_step = 1e-2\nmax_steps = 1e12",
    );
    let stderr = refused("max_step", &model, &[]);
    assert!(
        stderr.contains("rows from the steps max_step forces × 2 columns), more than the output budget of 10 GB"),
        "{stderr}"
    );
}

#[test]
fn the_budget_is_set_by_max_bytes() {
    // 1001 rows × 2 columns: about 40 kB projected.
    let model = ramp_with("sample_time = 1e-3\nmax_bytes = 1e4");
    let stderr = refused("small_budget", &model, &[]);
    assert!(
        stderr.contains("more than the output budget of 0.00001 GB"),
        "{stderr}"
    );
    let dir = temp_dir("raised_budget");
    std::fs::write(dir.join("m.toml"), &model).unwrap();
    let args = [
        "run",
        "m.toml",
        "--csv",
        "run.csv",
        "-q",
        "--set",
        "output.max_bytes=1e5",
    ];
    let out = blockdyn_in(&dir, &args, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("run.csv"))
            .unwrap()
            .lines()
            .count(),
        1002
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = refused("zero_budget", &ramp_with("max_bytes = 0"), &[]);
    assert!(
        stderr.contains("m.toml:5:13: 'max_bytes' must be a positive number of bytes (got 0)"),
        "{stderr}"
    );
}

#[test]
fn max_steps_past_the_limit_is_refused() {
    let model = RAMP.replace(
        "stop_time = 1.0",
        "stop_time = 1.0\n[solver]\nmax_steps = 9223372036854775807",
    );
    let stderr = refused("max_steps", &model, &[]);
    assert_eq!(
        stderr,
        "error: m.toml:5:13: 'max_steps' is 9.22e18, above the largest step budget, 1e18\n  help: write max_steps = 1e18 or less (more steps than any run takes); bound a long run by the clock with max_wall_time\n"
    );
}

#[test]
fn a_sweep_past_the_budget_is_refused_before_anything_is_written() {
    let dir = temp_dir("sweep_budget");
    std::fs::write(dir.join("m.toml"), ramp_with("sample_time = 1e-300")).unwrap();
    let before = snapshot(&dir);
    let args = ["sweep", "m.toml", "--vary", "one.value=1,2", "--out", "out"];
    let out = blockdyn_in(&dir, &args, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: the run's output would be at least 4.000e292 GB (1.000e300 rows from stop_time / sample_time × 2 columns), more than the output budget of 10 GB\n"),
        "{stderr}"
    );
    assert_unchanged(&dir, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}
