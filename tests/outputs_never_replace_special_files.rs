//! Issue 28, part 1: an output replaces only a regular file. A device (directly, or through a
//! link such as a copy of /dev/null would be), a FIFO, or a link to /proc/self/fd/1 is refused
//! before the run with the path and what it is, exits 1, and stays as it was. Through the built
//! binary, in a fresh temporary directory.
#![cfg(unix)]

use std::path::Path;
mod cli_common;
use cli_common::{assert_unchanged, blockdyn_in, snapshot, temp_dir, text, RAMP};

/// Runs the ramp model with `--csv target` in `dir`: exit 1, `message`, nothing changed.
fn assert_refused(dir: &Path, target: &str, message: &str) {
    let before = snapshot(dir);
    let out = blockdyn_in(dir, &["run", "m.toml", "--csv", target, "-q"], &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{target}: {stderr}");
    assert!(stderr.contains(message), "{target}: {stderr}");
    assert!(
        stderr.contains("an output replaces only a regular file"),
        "{stderr}"
    );
    assert_unchanged(dir, &before);
}

#[test]
fn a_device_or_a_link_to_one_is_refused() {
    let dir = temp_dir("device");
    std::fs::write(dir.join("m.toml"), RAMP).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.join("null.csv")).unwrap();
    assert_refused(
        &dir,
        "null.csv",
        "cannot write CSV 'null.csv': it is a link to '/dev/null' (under /dev), not a regular file",
    );
    // A copy of /dev/null (a device node outside /dev) can be made only as root: checked where
    // the tests run as root (CI does).
    let copied = std::process::Command::new("mknod")
        .arg(dir.join("dev.csv"))
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if copied {
        assert_refused(
            &dir,
            "dev.csv",
            "cannot write CSV 'dev.csv': it is a character device, not a regular file",
        );
    }
    assert_refused(
        &dir,
        "/dev/null",
        "cannot write CSV '/dev/null': it is a file under /dev, not a regular file",
    );
    assert!(Path::new("/dev/null").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_link_to_proc_self_fd_1_is_refused() {
    let dir = temp_dir("proc_link");
    std::fs::write(dir.join("m.toml"), RAMP).unwrap();
    std::os::unix::fs::symlink("/proc/self/fd/1", dir.join("out.csv")).unwrap();
    assert_refused(
        &dir,
        "out.csv",
        "cannot write CSV 'out.csv': it is a link to '/proc/self/fd/1' (under /proc)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_is_refused() {
    let dir = temp_dir("fifo");
    std::fs::write(dir.join("m.toml"), RAMP).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.csv"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    assert_refused(
        &dir,
        "pipe.csv",
        "cannot write CSV 'pipe.csv': it is a FIFO (named pipe), not a regular file",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
