//! Scratch directories for the file-writing unit tests (tests write only into temporary
//! directories).

use std::fs;
use std::path::{Path, PathBuf};

/// A fresh, empty directory for test `name` of module `module` in this process.
pub fn scratch_dir(module: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("blockdyn-{module}-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the entries of `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
