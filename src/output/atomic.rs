//! Whole-or-nothing file output: the temporary file, the target's directory and its fsync that
//! [`super::staged`] builds on ([`super::write_atomically`] writes one file this way).
//!
//! Every output file (CSV, PNG) is written to a uniquely named temporary file in the target's own
//! directory, flushed and fsynced, then renamed over the target. A rename within one directory is
//! atomic on POSIX file systems, so a reader sees either the old file or the complete new one, never a
//! half-written file. On any error (or a panic inside the writer) the temporary file is removed and
//! the old target is left untouched.
//!
//! Consequences worth knowing: the new file gets default permissions (not the old file's), and a
//! target that is a symbolic link is replaced by a regular file (the link's destination is untouched).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes temporary files of concurrent writes from one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The directory a target goes into (`.` for a bare file name).
pub(crate) fn target_directory(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates a new temporary file next to the target; retries with another name if one exists.
pub(crate) fn create_temp_file(
    dir: &Path,
    file_name: &str,
) -> Result<(File, PathBuf), (PathBuf, io::Error)> {
    let pid = std::process::id();
    let mut attempts = 0;
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp_path = dir.join(format!(".{file_name}.{pid}.{n}.tmp"));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp_path)
        {
            Ok(file) => return Ok((file, temp_path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => attempts += 1,
            Err(e) => return Err((temp_path, e)),
        }
    }
}

/// Makes the rename durable by fsyncing the directory. Best effort: a failure here does not undo a
/// completed rename, so it is not reported.
pub(crate) fn sync_directory(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::error::OutputError;
    use crate::output::staged::write_atomically;
    use crate::output::test_dirs::entries;
    use std::fs;

    fn scratch_dir(name: &str) -> PathBuf {
        crate::output::test_dirs::scratch_dir("atomic", name)
    }

    #[test]
    fn writes_whole_file_and_leaves_no_temporary() {
        let dir = scratch_dir("ok");
        let target = dir.join("a.txt");
        write_atomically(&target, "test file", |w| w.write_all(b"hello")).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"hello");
        write_atomically(&target, "test file", |w| w.write_all(b"again")).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"again");
        assert_eq!(entries(&dir), vec!["a.txt".to_string()]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failing_writer_keeps_old_file_and_removes_temporary() {
        let dir = scratch_dir("fail");
        let target = dir.join("a.txt");
        fs::write(&target, b"good").unwrap();
        let err = write_atomically(&target, "test file", |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("encoder broke"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("encoder broke"), "{err}");
        assert!(err.to_string().contains("a.txt"), "{err}");
        assert_eq!(fs::read(&target).unwrap(), b"good");
        assert_eq!(entries(&dir), vec!["a.txt".to_string()]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn panicking_writer_removes_temporary() {
        let dir = scratch_dir("panic");
        let target = dir.join("a.txt");
        let result = std::panic::catch_unwind(|| {
            let _ = write_atomically(&target, "test file", |_| panic!("writer panicked"));
        });
        assert!(result.is_err());
        assert!(entries(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_directory_is_named() {
        let dir = scratch_dir("missing");
        let target = dir.join("out").join("x.png");
        let err = write_atomically(&target, "plot", |w| w.write_all(b"x")).unwrap_err();
        assert!(matches!(err, OutputError::MissingDirectory { .. }));
        let expected = format!(
            "cannot write plot '{}': directory '{}' does not exist",
            target.display(),
            dir.join("out").display()
        );
        assert_eq!(err.to_string(), expected);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn directory_target_and_empty_path_are_errors() {
        let dir = scratch_dir("isdir");
        let err = write_atomically(&dir, "CSV", |w| w.write_all(b"x")).unwrap_err();
        assert!(
            matches!(err, OutputError::TargetIsDirectory { .. }),
            "{err}"
        );
        let file = dir.join("notes.txt");
        fs::write(&file, b"notes").unwrap();
        let err =
            write_atomically(&file.join("run.csv"), "CSV", |w| w.write_all(b"x")).unwrap_err();
        assert!(
            matches!(err, OutputError::ParentNotADirectory { .. }),
            "{err}"
        );
        fs::remove_file(&file).unwrap();
        let err = write_atomically(Path::new(""), "CSV", |w| w.write_all(b"x")).unwrap_err();
        assert!(matches!(err, OutputError::NotAFilePath { .. }), "{err}");
        assert!(entries(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
