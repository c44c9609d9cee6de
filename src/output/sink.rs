//! The file under an output's buffer, with a test seam for a full disk.
//!
//! A [`FileSink`] writes through to its file. When the environment variable
//! [`DISK_FULL_AFTER_VAR`] holds a number of bytes N, every output file of the process accepts
//! its first N bytes and then fails each write with ENOSPC ("No space left on device"), as a
//! full disk does: this is how the tests (`tests/output_write_errors.rs`) drive the error paths of
//! a real run through the built binary, without a small file system to fill. Unset (always, in
//! normal use), it changes nothing.

use std::fs::File;
use std::io::{self, Write};
use std::sync::OnceLock;

/// The test seam's environment variable: output files fail with ENOSPC after this many bytes.
pub const DISK_FULL_AFTER_VAR: &str = "BLOCKDYN_TEST_DISK_FULL_AFTER";

/// The byte count of [`DISK_FULL_AFTER_VAR`], read once.
fn disk_full_after() -> Option<u64> {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    *LIMIT.get_or_init(|| std::env::var(DISK_FULL_AFTER_VAR).ok()?.trim().parse().ok())
}

/// An output file being written; see the module documentation.
#[derive(Debug)]
pub struct FileSink {
    file: File,
    written: u64,
    limit: Option<u64>,
}

impl FileSink {
    /// Writes into `file`.
    pub fn new(file: File) -> FileSink {
        FileSink {
            file,
            written: 0,
            limit: disk_full_after(),
        }
    }

    /// The file.
    pub fn file(&self) -> &File {
        &self.file
    }
}

/// The error a full disk gives.
fn disk_full() -> io::Error {
    #[cfg(unix)]
    return io::Error::from_raw_os_error(28);
    #[cfg(not(unix))]
    io::Error::new(io::ErrorKind::StorageFull, "no space left on device")
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self
            .limit
            .map_or(buf.len() as u64, |limit| limit.saturating_sub(self.written));
        if room == 0 && !buf.is_empty() {
            return Err(disk_full());
        }
        let take = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.file.write(&buf[..take])?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}
