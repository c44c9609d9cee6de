//! Reading an input file whole (the model, a URDF, an STL mesh) within a budget: only a regular
//! file is opened, and only up to a documented size.
//!
//! A FIFO, a device, a socket or a directory named as an input is refused before it is opened
//! (opening a FIFO for reading blocks until some writer appears: a run given one waited forever).
//! The check is made on the path's metadata (links followed), then again on the opened file; the
//! read itself stops past the limit, so a file that grows meanwhile cannot exceed it either.
//! See docs/model-format.md ("Input limits").

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest model or URDF file read (bytes): 64 MiB, about ten times a 20,000-joint URDF.
pub const MAX_TEXT_FILE_BYTES: u64 = 64 << 20;

/// The largest STL mesh file read (bytes): 256 MiB, a binary STL of 5.3 million triangles.
pub const MAX_MESH_FILE_BYTES: u64 = 256 << 20;

/// Why an input file was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputFileError {
    /// The file could not be examined, opened or read.
    #[error("cannot read {what} '{path}': {source}")]
    Io {
        /// What the file is ("model", "URDF file", "mesh file").
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file.
    #[error("{what} '{path}' is {kind}, not a regular file")]
    NotRegular {
        /// What the file is.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// What it is instead ("a FIFO (named pipe)", "a directory", …).
        kind: &'static str,
    },
    /// The file is larger than the limit.
    #[error("{what} '{path}' is larger than the limit of {limit} MiB for a {what}", limit = limit >> 20)]
    TooLarge {
        /// What the file is.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The limit, bytes.
        limit: u64,
    },
}

impl InputFileError {
    /// What to do instead.
    pub fn hint(&self) -> &'static str {
        match self {
            InputFileError::Io { .. } => "check the path (relative to the model file) and its permissions",
            InputFileError::NotRegular { .. } => "name a regular file: a FIFO, device, socket or directory is never read as an input",
            InputFileError::TooLarge { .. } => "an input this large is not a model blockdyn can run: check the file (a mesh can be decimated, e.g. in MeshLab or Blender)",
        }
    }
}

/// What a path's metadata says it is, when that is not a regular file.
fn non_regular_kind(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// The bytes of the regular file at `path` (`what` names it in messages: "model", "URDF
/// file", "mesh file"), at most `limit` bytes. See the module documentation.
pub fn read_regular(
    path: &Path,
    what: &'static str,
    limit: u64,
) -> Result<Vec<u8>, InputFileError> {
    let io = |source: std::io::Error| InputFileError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let check = |meta: &Metadata| -> Result<(), InputFileError> {
        if let Some(kind) = non_regular_kind(meta) {
            return Err(InputFileError::NotRegular {
                what,
                path: path.to_path_buf(),
                kind,
            });
        }
        if meta.len() > limit {
            return Err(InputFileError::TooLarge {
                what,
                path: path.to_path_buf(),
                limit,
            });
        }
        Ok(())
    };
    check(&std::fs::metadata(path).map_err(io)?)?;
    let file = File::open(path).map_err(io)?;
    check(&file.metadata().map_err(io)?)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(InputFileError::TooLarge {
            what,
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_oversized_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("blockdyn-input-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let e = read_regular(&dir, "model", 100).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("is a directory, not a regular file"),
            "{e}"
        );
        let file = dir.join("a.toml");
        std::fs::write(&file, vec![b'#'; 2048]).unwrap();
        let e = read_regular(&file, "model", 1024).unwrap_err();
        assert!(matches!(e, InputFileError::TooLarge { .. }), "{e}");
        assert_eq!(read_regular(&file, "model", 4096).unwrap().len(), 2048);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
