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

/// Every entry under `dir` (recursively, links not followed): its path and what it is — a file's
/// bytes, a link's target, or the kind of a directory, FIFO, device or socket.
pub fn snapshot(dir: &std::path::Path) -> std::collections::BTreeMap<PathBuf, String> {
    let mut entries = std::collections::BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).expect("a directory") {
            let path = e.expect("an entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let what = if meta.file_type().is_symlink() {
                format!("link to {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                pending.push(path.clone());
                "directory".to_string()
            } else if meta.is_file() {
                // Bytes as text, losslessly enough to compare (every byte kept as a char).
                std::fs::read(&path)
                    .unwrap()
                    .iter()
                    .map(|&b| b as char)
                    .collect()
            } else {
                format!("special file {:?}", meta.file_type())
            };
            entries.insert(path, what);
        }
    }
    entries
}

/// Asserts that `dir` holds exactly what `before` recorded, byte for byte.
pub fn assert_unchanged(
    dir: &std::path::Path,
    before: &std::collections::BTreeMap<PathBuf, String>,
) {
    let after = snapshot(dir);
    for (path, what) in before {
        match after.get(path) {
            Some(now) => assert!(now == what, "'{}' changed", path.display()),
            None => panic!("'{}' is gone", path.display()),
        }
    }
    let added: Vec<&PathBuf> = after.keys().filter(|p| !before.contains_key(*p)).collect();
    assert!(added.is_empty(), "new files: {added:?}");
}

/// Runs the built `blockdyn` with `args` in `dir`, with `env` set.
pub fn blockdyn_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_blockdyn"));
    command.args(args).current_dir(dir).stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("blockdyn runs")
}

/// A model of two integrators and a scope (x' = 1): runs in a moment, records 2 columns.
pub const RAMP: &str = "connect = [\"one.out -> x.in\", \"x.out -> scope.in1\"]\n[model]\nstop_time = 1.0\n[blocks.one]\ntype = \"Constant\"\nvalue = 1.0\n[blocks.x]\ntype = \"Integrator\"\n[blocks.scope]\ntype = \"Scope\"\n";

/// The arm's URDF: `doctype` before the robot, `mesh` as the second collision's geometry.
pub fn arm_urdf(doctype: &str, name: &str, mesh: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
{doctype}<robot name="{name}">
  <link name="base"/>
  <joint name="shoulder" type="continuous">
    <parent link="base"/>
    <child link="fore"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="fore">
    <inertial>
      <mass value="1.0"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
    <collision>
      <geometry><box size="0.1 0.1 0.1"/></geometry>
    </collision>
    <collision>
      <geometry>{mesh}</geometry>
    </collision>
  </link>
</robot>
"#
    )
}
