//! Which paths an output may go to (checked before a run, so that a bad path costs no run time).
//!
//! **The rule.** An output replaces only a regular file that is not an input of the run, or
//! creates a new file in an existing directory. Refused, with the path and the reason:
//! - a path that does not name a file: empty, `out/..`, or ending with `/` (`--csv new/`);
//! - a directory, a missing directory, a parent that is a file;
//! - an existing target that is not a regular file: a character or block device, a FIFO, a
//!   socket, or anything under `/proc`, `/sys` or `/dev` (a link to `/proc/self/fd/1` is
//!   followed: it is the terminal or a pipe);
//! - a file the run reads ([`InputFiles`]: the model, each URDF, each mesh), compared by
//!   canonical path and by (device, inode), so that a symbolic link or a hard link to an input is
//!   caught as well as the input itself;
//! - two outputs of one run naming the same file.

use std::fs;
use std::path::{Path, PathBuf};

use super::atomic::target_directory;
use super::error::OutputError;

/// A file the run reads, identified by canonical path and, where it exists, (device, inode).
#[derive(Clone, Debug)]
struct InputFile {
    shown: PathBuf,
    canonical: PathBuf,
    identity: Option<(u64, u64)>,
    is_model: bool,
}

/// The files a run reads: what no output may replace.
#[derive(Clone, Debug, Default)]
pub struct InputFiles {
    files: Vec<InputFile>,
}

impl InputFiles {
    /// The model file `model` and the files it reads (`read`: URDFs, meshes; see
    /// [`crate::Diagram::input_files`]).
    pub fn new(model: &Path, read: &[PathBuf]) -> InputFiles {
        let mut inputs = InputFiles::default();
        inputs.push(model, true);
        for path in read {
            inputs.push(path, false);
        }
        inputs
    }

    fn push(&mut self, path: &Path, is_model: bool) {
        self.files.push(InputFile {
            shown: path.to_path_buf(),
            canonical: fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            identity: identity(path),
            is_model,
        });
    }

    /// The input that `target` would replace: same canonical path (the target's directory
    /// resolved, or the target itself when it is a link), or same (device, inode).
    fn replaced_by(&self, target: &Path) -> Option<&InputFile> {
        let here = resolved(target);
        let linked = fs::canonicalize(target).ok();
        let id = identity(target);
        self.files.iter().find(|input| {
            input.canonical == here
                || linked.as_ref() == Some(&input.canonical)
                || (id.is_some() && id == input.identity)
        })
    }
}

/// (device, inode) of the file at `path` (links followed), when it exists (Unix).
fn identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// `path` with its directory resolved (so `out.csv` and `./out.csv` are one file).
fn resolved(path: &Path) -> PathBuf {
    let dir = target_directory(path);
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    dir.join(path.file_name().unwrap_or_default())
}

/// A file name for a help text about an output of kind `what`.
fn example_name(what: &str) -> &'static str {
    match what {
        "plot" => "plot.png",
        "animation" => "run.gif",
        _ => "run.csv",
    }
}

/// `path` (naming a directory) with a file name for an output of kind `what`: `new/run.csv`.
fn example_path(path: &Path, what: &str) -> String {
    let text = path.to_string_lossy();
    let dir = text.strip_suffix('.').unwrap_or(&text);
    let dir = if dir.is_empty() || dir.ends_with('/') {
        dir.to_string()
    } else {
        format!("{dir}/")
    };
    format!("{dir}{}", example_name(what))
}

/// Whether the path's text ends with a separator or a `.` component (`new/`, `new/.`), which
/// `Path::file_name` hides.
fn names_a_directory(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    let is_sep = |b: &u8| *b == b'/' || (cfg!(windows) && *b == b'\\');
    text.last().is_some_and(is_sep)
        || (text.ends_with(b".") && (text.len() == 1 || is_sep(&text[text.len() - 2])))
}

/// The file systems of the kernel, whose entries are not files an output may replace.
const KERNEL_ROOTS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// The kernel file system `path` lies in (its directory resolved), if any.
fn kernel_root(path: &Path) -> Option<&'static str> {
    let dir = fs::canonicalize(target_directory(path)).ok();
    KERNEL_ROOTS
        .into_iter()
        .find(|root| path.starts_with(root) || dir.as_ref().is_some_and(|d| d.starts_with(root)))
}

/// When `path` is a symbolic link, or a chain of them, through a kernel file system (a link to
/// `/proc/self/fd/1`): the link met there. Resolving the chain would hide it, since
/// `/proc/self/fd/1` resolves to whatever standard output is.
fn link_into_kernel(path: &Path) -> Option<(PathBuf, &'static str)> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        if !fs::symlink_metadata(&at).ok()?.file_type().is_symlink() {
            return None;
        }
        let to = fs::read_link(&at).ok()?;
        at = if to.is_absolute() {
            to
        } else {
            target_directory(&at).join(to)
        };
        if let Some(root) = kernel_root(&at) {
            return Some((at, root));
        }
    }
    None
}

/// What the existing file at `path` is, when it is not a regular file or a directory; links are
/// followed (a dangling link is a new file).
fn special_kind(path: &Path) -> Option<String> {
    if let Some(root) = kernel_root(path) {
        return Some(format!("a file under {root}"));
    }
    if let Some((to, root)) = link_into_kernel(path) {
        return Some(format!("a link to '{}' (under {root})", to.display()));
    }
    let meta = fs::metadata(path).ok()?;
    let kind = meta.file_type();
    if kind.is_file() || kind.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let name = if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_fifo() {
            "a FIFO (named pipe)"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a special file"
        };
        Some(name.to_string())
    }
    #[cfg(not(unix))]
    Some("a special file".to_string())
}

/// Checks that `path` can take an output file (`what`, e.g. "CSV"): it names a file (no trailing
/// `/`), its directory exists, and it is not a directory nor a device, FIFO, socket or file of
/// /proc. [`super::write_atomically`] checks the same; call this before a run, so that a bad path
/// is reported before the run's time is spent.
pub fn check_target(path: &Path, what: &'static str) -> Result<(), OutputError> {
    let path_buf = || path.to_path_buf();
    if path.file_name().is_none() {
        return Err(OutputError::NotAFilePath {
            what,
            path: path_buf(),
        });
    }
    if names_a_directory(path) {
        return Err(OutputError::TrailingSlash {
            what,
            path: path_buf(),
            ending: if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
                "/"
            } else if path.as_os_str().len() == 1 {
                "."
            } else {
                "/."
            },
            example: example_path(path, what),
        });
    }
    let dir = target_directory(path);
    if dir.exists() && !dir.is_dir() {
        return Err(OutputError::ParentNotADirectory {
            what,
            path: path_buf(),
            dir,
        });
    }
    if !dir.is_dir() {
        return Err(OutputError::MissingDirectory {
            what,
            path: path_buf(),
            dir,
        });
    }
    if path.is_dir() {
        return Err(OutputError::TargetIsDirectory {
            what,
            path: path_buf(),
        });
    }
    if let Some(kind) = special_kind(path) {
        return Err(OutputError::NotARegularFile {
            what,
            path: path_buf(),
            kind,
        });
    }
    Ok(())
}

/// Checks that `path` (an output of kind `what`) is a possible target ([`check_target`]) and
/// replaces none of `inputs`.
pub fn check_not_input(
    path: &Path,
    what: &'static str,
    inputs: &InputFiles,
) -> Result<(), OutputError> {
    check_target(path, what)?;
    match inputs.replaced_by(path) {
        None => Ok(()),
        Some(input) => Err(OutputError::OverwritesInput {
            what,
            path: path.to_path_buf(),
            input: if input.is_model {
                "the model file being run".to_string()
            } else {
                format!(
                    "'{}', a file the model reads (a subsystem file, a URDF or a mesh)",
                    input.shown.display()
                )
            },
        }),
    }
}

/// Checks a run's outputs before it starts: each as [`check_not_input`] does, and no two of them
/// the same file (paths compared after resolving the directory, so `out.csv` and `./out.csv` are
/// one file).
pub fn check_outputs(
    inputs: &InputFiles,
    outputs: &[(&'static str, &Path)],
) -> Result<(), OutputError> {
    for (i, &(what, path)) in outputs.iter().enumerate() {
        check_not_input(path, what, inputs)?;
        let here = resolved(path);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_slash_and_dot_name_directories() {
        for p in ["new/", "a/b/", "new/.", "."] {
            assert!(names_a_directory(Path::new(p)), "{p}");
        }
        for p in ["new", "a/b.csv", "x.", "a/.hidden"] {
            assert!(!names_a_directory(Path::new(p)), "{p}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_links_to_inputs_are_refused() {
        let dir = crate::output::test_dirs::scratch_dir("target", "links");
        let model = dir.join("m.toml");
        fs::write(&model, "model").unwrap();
        let inputs = InputFiles::new(&model, &[]);
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink(&model, &link).unwrap();
        let hard = dir.join("hard.csv");
        fs::hard_link(&model, &hard).unwrap();
        for p in [&model, &link, &hard] {
            let e = check_not_input(p, "CSV", &inputs).unwrap_err();
            assert!(e.to_string().contains("the model file being run"), "{e}");
        }
        let null = dir.join("null.csv");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        let e = check_target(&null, "CSV").unwrap_err();
        assert!(
            e.to_string().contains("a link to '/dev/null' (under /dev)"),
            "{e}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
