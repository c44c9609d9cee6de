//! Issue 28, part 1: `--csv new/` (a path ending with '/') names a directory, not a file: it is
//! refused before the run — not after the run's time is spent — with the path and what to write
//! instead, exit 1, and no directory or file made. Through the built binary.

mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text};

/// A model that fails at t = 1 (NaN): were the path checked after the run, the run's error
/// would come first.
const FAILS_AT_1: &str = "connect = [\"x.out -> f.in\", \"f.out -> x.in\", \"x.out -> scope.in1\"]\n[model]\nstop_time = 2.0\n[blocks.f]\ntype = \"Fcn\"\nexpression = \"sqrt(1 - t) + 0 * u\"\n[blocks.x]\ntype = \"Integrator\"\n[blocks.scope]\ntype = \"Scope\"\n";

#[test]
fn csv_path_with_a_trailing_slash_is_refused_before_the_run() {
    let dir = temp_dir("trailing_slash");
    std::fs::write(dir.join("m.toml"), FAILS_AT_1).unwrap();
    std::fs::create_dir(dir.join("old")).unwrap();
    std::fs::write(dir.join("old/run.csv"), "time,x\n0,0\n").unwrap();
    let before = snapshot(&dir);
    for (option, target, what, example) in [
        ("--csv", "new/", "CSV", "new/run.csv"),
        ("--csv", "old/", "CSV", "old/run.csv"),
        ("--plot", "new/", "plot", "new/plot.png"),
        ("--csv", "old/.", "CSV", "old/run.csv"),
    ] {
        let out = blockdyn_in(&dir, &["run", "m.toml", option, target], &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        let expected = format!(
            "error: cannot write {what} '{target}': the path ends with '/', so it names a directory, not a file\n  help: write a file name after the '/', e.g. '{example}'\n"
        );
        assert_eq!(
            stderr,
            expected.replace(
                "'old/.': the path ends with '/'",
                "'old/.': the path ends with '/.'"
            )
        );
        assert!(
            !stderr.contains("non-finite"),
            "the run never started: {stderr}"
        );
        assert!(text(&out.stdout).is_empty());
        assert_unchanged(&dir, &before);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
