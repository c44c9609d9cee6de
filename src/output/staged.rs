//! Output files written while a run goes and committed together at its end.
//!
//! A [`StagedFile`] is a temporary file in its target's own directory (`.<name>.<pid>.<n>.tmp`),
//! created before the run, so that rows can be streamed into it as they are recorded.
//! [`commit_all`] flushes and fsyncs every staged file of a run and only then renames them over
//! their targets: when any output fails before the renames (a plot that cannot be encoded, a full
//! disk), no target is replaced and every temporary file is removed. The renames themselves are
//! atomic one by one; a rename that fails after others succeeded (the directory became read-only
//! in between) is reported and leaves the remaining temporaries removed.
//!
//! Every live temporary file is also listed in a process-wide registry, so that a signal handler
//! can remove them with [`remove_staged_files`] before the process exits (a second Ctrl-C).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::atomic::{create_temp_file, sync_directory, target_directory};
use super::error::OutputError;
use super::sink::FileSink;
use super::target::{check_not_input, check_target, InputFiles};

/// The temporary files not yet committed or removed, for [`remove_staged_files`].
static LIVE_TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn registry() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock leaves a plain list behind: still usable.
    LIVE_TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes every temporary file of this process that is not committed yet (best effort). For
/// signal handlers: the process is about to exit without running destructors.
pub fn remove_staged_files() {
    for path in registry().drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// One output file being written; see the module documentation. Dropped without [`commit_all`],
/// its temporary file is removed.
#[derive(Debug)]
pub struct StagedFile {
    what: &'static str,
    target: PathBuf,
    temp: PathBuf,
    writer: BufWriter<FileSink>,
    /// Set once the temporary file was renamed or removed.
    settled: bool,
}

impl StagedFile {
    /// Creates the temporary file for `target` (checked as [`check_target`] does); `what` names
    /// the kind of file in errors ("CSV", "plot").
    pub fn create(target: &Path, what: &'static str) -> Result<StagedFile, OutputError> {
        check_target(target, what)?;
        let dir = target_directory(target);
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        // Registered while the lock is held, so a handler never misses a file just created.
        let mut live = registry();
        let (file, temp) =
            create_temp_file(&dir, &name).map_err(|(temp, source)| OutputError::Io {
                what,
                path: target.to_path_buf(),
                action: format!("cannot create temporary file '{}'", temp.display()),
                source,
            })?;
        live.push(temp.clone());
        Ok(StagedFile {
            what,
            target: target.to_path_buf(),
            temp,
            writer: BufWriter::with_capacity(1 << 16, FileSink::new(file)),
            settled: false,
        })
    }

    /// The writer onto the temporary file (buffered).
    pub fn writer(&mut self) -> &mut BufWriter<FileSink> {
        &mut self.writer
    }

    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path.
    pub fn temporary(&self) -> &Path {
        &self.temp
    }

    /// An error about this file.
    pub fn error(&self, action: impl Into<String>, source: io::Error) -> OutputError {
        OutputError::Io {
            what: self.what,
            path: self.target.clone(),
            action: action.into(),
            source,
        }
    }

    /// Flushes and fsyncs the data: the file is complete on disk, not yet renamed.
    fn make_durable(&mut self) -> Result<(), OutputError> {
        self.writer
            .flush()
            .map_err(|e| self.error("writing failed", e))?;
        self.writer
            .get_ref()
            .file()
            .sync_all()
            .map_err(|e| self.error("cannot flush to disk", e))
    }

    fn rename(&mut self) -> Result<(), OutputError> {
        fs::rename(&self.temp, &self.target).map_err(|e| {
            self.error(
                format!(
                    "cannot rename temporary file '{}' over it",
                    self.temp.display()
                ),
                e,
            )
        })?;
        self.settle();
        sync_directory(&target_directory(&self.target));
        Ok(())
    }

    /// Takes the temporary file off the registry (renamed, or about to be removed).
    fn settle(&mut self) {
        self.settled = true;
        registry().retain(|p| p != &self.temp);
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if !self.settled {
            self.settle();
            // Best effort: an error is already on its way to the user.
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Commits outputs together when no input of a run is at stake: see [`commit_run_outputs`].
pub fn commit_all(files: Vec<StagedFile>) -> Result<(), OutputError> {
    commit_run_outputs(files, &InputFiles::default())
}

/// Commits a run's outputs together: all are made durable and their targets checked again (a
/// target that became a directory, a device or a FIFO during the run is refused, and so is one
/// that became one of the run's `inputs`: a model or URDF moved or linked onto an output path
/// while the run went on), then renamed over their targets. On an error before the renames, no
/// target is touched and every temporary file is removed.
pub fn commit_run_outputs(
    mut files: Vec<StagedFile>,
    inputs: &InputFiles,
) -> Result<(), OutputError> {
    for file in &mut files {
        file.make_durable()?;
        check_target(&file.target, file.what)?;
        check_not_input(&file.target, file.what, inputs)?;
    }
    for file in &mut files {
        file.rename()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::test_dirs::entries;

    fn scratch_dir(name: &str) -> PathBuf {
        crate::output::test_dirs::scratch_dir("staged", name)
    }

    #[test]
    fn committed_together_or_not_at_all() {
        let dir = scratch_dir("together");
        let (a, b) = (dir.join("a.csv"), dir.join("b.png"));
        fs::write(&a, "old a").unwrap();
        let mut first = StagedFile::create(&a, "CSV").unwrap();
        first.writer().write_all(b"new a").unwrap();
        let second = StagedFile::create(&b, "plot").unwrap();
        assert_eq!(entries(&dir).len(), 3, "two temporaries and the old a");
        // The second output fails before the commit: dropping both leaves the old a alone.
        drop(second);
        drop(first);
        assert_eq!(entries(&dir), ["a.csv"]);
        assert_eq!(fs::read_to_string(&a).unwrap(), "old a");

        let mut first = StagedFile::create(&a, "CSV").unwrap();
        first.writer().write_all(b"new a").unwrap();
        let mut second = StagedFile::create(&b, "plot").unwrap();
        second.writer().write_all(b"new b").unwrap();
        commit_all(vec![first, second]).unwrap();
        assert_eq!(entries(&dir), ["a.csv", "b.png"]);
        assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// An input moved onto an output's path while the run went on (the pre-run check saw a new
    /// file there) is refused at the commit, and neither it nor the other output is touched.
    #[cfg(unix)]
    #[test]
    fn an_input_moved_onto_a_target_during_the_run_is_kept() {
        let dir = scratch_dir("moved_input");
        let (model, csv, plot) = (dir.join("m.toml"), dir.join("out.csv"), dir.join("p.png"));
        fs::write(&model, "the model").unwrap();
        let inputs = InputFiles::new(&model, &[]);
        let mut first = StagedFile::create(&plot, "plot").unwrap();
        first.writer().write_all(b"new plot").unwrap();
        let mut second = StagedFile::create(&csv, "CSV").unwrap();
        second.writer().write_all(b"new rows").unwrap();
        // During the run: the model is moved to where the CSV goes.
        fs::rename(&model, &csv).unwrap();
        let e = commit_run_outputs(vec![first, second], &inputs).unwrap_err();
        assert!(e.to_string().contains("out.csv"), "{e}");
        assert_eq!(fs::read_to_string(&csv).unwrap(), "the model");
        assert!(
            !plot.exists(),
            "nothing committed when one target is refused"
        );
        assert_eq!(entries(&dir), ["out.csv"], "the temporaries are removed");
        fs::remove_dir_all(&dir).unwrap();
    }
}
