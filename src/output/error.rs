//! Why an output file could not be written (or may not be).

use std::io;
use std::path::PathBuf;

use thiserror::Error;

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
    /// The target path ends with a slash (`--csv new/`): it names a directory, existing or not.
    #[error("cannot write {what} '{}': the path ends with '{ending}', so it names a directory, not a file\n  help: write a file name after the '/', e.g. '{example}'", path.display())]
    TrailingSlash {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// How the path ends: "/", "/." or ".".
        ending: &'static str,
        /// A file path for the help, e.g. "new/run.csv".
        example: String,
    },
    /// The target exists and is not a regular file (a device, a FIFO, a socket, a file of
    /// /proc): an output replaces only regular files.
    #[error("cannot write {what} '{}': it is {kind}, not a regular file; an output replaces only a regular file\n  help: name a regular file or a new path", path.display())]
    NotARegularFile {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// What it is, e.g. "a character device".
        kind: String,
    },
    /// The output would replace a file the run reads: the model, a URDF, a mesh.
    #[error("cannot write {what} '{}': it is {input}\n  help: write the {what} to another path", path.display())]
    OverwritesInput {
        /// Kind of file, e.g. "CSV".
        what: &'static str,
        /// The requested target path.
        path: PathBuf,
        /// Which input: "the model file being run", "'robot.urdf', a file the model reads".
        input: String,
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
