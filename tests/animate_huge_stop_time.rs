//! Issue 28, part 1: `--animate a.gif --stop-time 7.4e17` on a model that runs there ended with
//! "the run recorded no frames", exit 1 and no CSV (the frame count, 7.4e17 s × 25 frames/s,
//! wrapped to zero in a usize). The run succeeds, the animation spreads its frames over the
//! run, and the CSV lands. Through the built binary, in a fresh temporary directory.

use std::path::Path;
mod cli_common;
use cli_common::{blockdyn_in, temp_dir, text};

#[test]
fn animate_with_a_huge_stop_time_writes_the_frames_and_the_csv() {
    let dir = temp_dir("huge_stop");
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/box_on_table.toml");
    std::fs::copy(&model, dir.join("m.toml")).unwrap();
    let model_bytes = std::fs::read(dir.join("m.toml")).unwrap();
    let args = [
        "run",
        "m.toml",
        "--animate",
        "a.gif",
        "--csv",
        "run.csv",
        "--stop-time",
        "7.4e17",
    ];
    let out = blockdyn_in(&dir, &args, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("no frames"));
    assert!(
        stdout.contains("  animation: a.gif (400 frames, one every "),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(dir.join("run.csv")).unwrap();
    let last = csv.lines().last().unwrap();
    assert!(
        last.starts_with("7.4e17,"),
        "the last row at the stop time: {last}"
    );
    assert!(std::fs::read(dir.join("a.gif"))
        .unwrap()
        .starts_with(b"GIF89a"));
    assert_eq!(std::fs::read(dir.join("m.toml")).unwrap(), model_bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}
