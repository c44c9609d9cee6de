//! What the command-line tests share: the built binary, run from the crate root, and fresh
//! temporary directories (tests write only there).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs the built `blockdyn` with `args` from the crate root (so `models/...` resolves), with no
/// standard input, and waits for it.
pub fn blockdyn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blockdyn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("blockdyn runs")
}

/// A fresh, empty temporary directory for test `name` of this test binary and process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "blockdyn-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Process output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
