//! Whole-or-nothing file output.
//!
//! Every output file (CSV, PNG) is written to a uniquely named temporary file in the target's own
//! directory, flushed and fsynced, then renamed over the target. A rename within one directory is
//! atomic on POSIX file systems, so a reader sees either the old file or the complete new one, never a
//! half-written file. On any error (or a panic inside the writer) the temporary file is removed and
//! the old target is left untouched.
//!
//! Consequences worth knowing: the new file gets default permissions (not the old file's), and a
//! target that is a symbolic link is replaced by a regular file (the link's destination is untouched).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use super::staged::{commit_all, StagedFile};

/// Why an output file could not be written. Every variant names the kind of file (`what`, e.g.
/// "CSV", "plot") and the path the user asked for.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The directory the file should go into does not exist.
    #[error("cannot write {what} '{}': directory '{}' does not exist", path.display(), dir.display())]
    MissingDirectory {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// Its parent directory, which is missing.
        dir: PathBuf,
    },
    /// The target's parent path exists but is not a directory (e.g. `notes.txt/run.csv`).
    #[error("cannot write {what} '{}': '{}' is not a directory", path.display(), dir.display())]
    ParentNotADirectory {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// Its parent path, which is a file.
        dir: PathBuf,
    },
    /// The target path names an existing directory.
    #[error("cannot write {what} '{}': it is a directory", path.display())]
    TargetIsDirectory {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
    },
    /// The target path has no file name (e.g. `out/..` or an empty path).
    #[error("cannot write {what} '{}': the path does not name a file", path.display())]
    NotAFilePath {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
    },
    /// The output would replace the model file being run.
    #[error("cannot write {what} '{}': it is the model file being run", path.display())]
    OverwritesModel {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
    },
    /// Two outputs of one run name the same file.
    #[error("cannot write {what} '{}': the {other} goes to the same file", path.display())]
    SameTarget {
        /// Kind of file, e.g. "plot".
        what: &'static str,
        /// The other output's kind, e.g. "CSV".
        other: &'static str,
        /// The shared path.
        path: PathBuf,
    },
    /// The recording handed to the writer is internally inconsistent (a bug in the caller).
    #[error("cannot write {what} '{}': {reason}", path.display())]
    InvalidRecording {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// What is inconsistent.
        reason: String,
    },
    /// An I/O operation failed; `action` says which one.
    #[error("cannot write {what} '{}': {action}: {source}", path.display())]
    Io {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// The step that failed, e.g. "cannot create temporary file '.x.csv.tmp'".
        action: String,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Distinguishes temporary files of concurrent writes from one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The directory a target goes into (`.` for a bare file name).
pub(crate) fn target_directory(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Checks that `path` can take an output file (`what`, e.g. "CSV"): it names a file, its
/// directory exists, and it is not itself a directory. [`write_atomically`] checks the same;
/// call this before a run, so that a bad path is reported before the run's time is spent.
pub fn check_target(path: &Path, what: &'static str) -> Result<(), OutputError> {
    if path.file_name().is_none() {
        return Err(OutputError::NotAFilePath {
            what,
            path: path.to_path_buf(),
        });
    }
    let dir = target_directory(path);
    if dir.exists() && !dir.is_dir() {
        return Err(OutputError::ParentNotADirectory {
            what,
            path: path.to_path_buf(),
            dir,
        });
    }
    if !dir.is_dir() {
        return Err(OutputError::MissingDirectory {
            what,
            path: path.to_path_buf(),
            dir,
        });
    }
    if path.is_dir() {
        return Err(OutputError::TargetIsDirectory {
            what,
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Checks a run's outputs before it starts: each target as [`check_target`] does, none of them
/// the model file `model`, no two of them the same file (paths compared after resolving the
/// directory, so `out.csv` and `./out.csv` are one file).
pub fn check_outputs(model: &Path, outputs: &[(&'static str, &Path)]) -> Result<(), OutputError> {
    let resolved = |p: &Path| -> PathBuf {
        let dir = fs::canonicalize(target_directory(p)).unwrap_or_else(|_| target_directory(p));
        dir.join(p.file_name().unwrap_or_default())
    };
    let model = fs::canonicalize(model).unwrap_or_else(|_| model.to_path_buf());
    for (i, &(what, path)) in outputs.iter().enumerate() {
        check_target(path, what)?;
        let here = resolved(path);
        if here == model {
            return Err(OutputError::OverwritesModel {
                what,
                path: path.to_path_buf(),
            });
        }
        if let Some(&(other, _)) = outputs[..i].iter().find(|(_, p)| resolved(p) == here) {
            return Err(OutputError::SameTarget {
                what,
                other,
                path: path.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Writes the file at `path` whole or not at all.
///
/// `write` receives a buffered writer onto a fresh temporary file in the same directory as `path`
/// (named `.<file name>.<pid>.<n>.tmp`). When `write` returns `Ok`, the data is flushed and fsynced
/// and the temporary file is renamed over `path`; then the directory is fsynced (best effort, Unix).
/// When `write` or any step fails, the temporary file is removed, `path` is untouched and the error
/// names `what` (the kind of file, e.g. "CSV" or "plot") and `path`.
pub fn write_atomically(
    path: &Path,
    what: &'static str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), OutputError> {
    let mut staged = StagedFile::create(path, what)?;
    write(staged.writer()).map_err(|e| staged.error("writing failed", e))?;
    commit_all(vec![staged])
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
    use crate::output::test_dirs::entries;

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
