//! `[output]` paths (`csv`, `plot`, `animation`, `view`) checked where they are written.

use super::{Diagnostic, TableReader};

/// An `[output]` path (`csv`, `plot`, `animation`), refused at its line when it cannot name a
/// file: empty, ending with a separator (a directory), or a last component `.` or `..`. (The run
/// checks again the paths given on the command line, which have no line.)
pub(crate) fn output_path(
    o: &TableReader<'_>,
    key: &'static str,
    example: &str,
) -> Result<Option<String>, Diagnostic> {
    let Some(path) = o.string(key)? else {
        return Ok(None);
    };
    let why = if path.trim().is_empty() {
        Some("is empty".to_string())
    } else if path.ends_with('/') || path.ends_with(std::path::MAIN_SEPARATOR) {
        Some(format!(
            "\"{path}\" ends with '/': it names a directory, not a file"
        ))
    } else if std::path::Path::new(path).file_name().is_none()
        // `Path` drops a trailing `.` ("out/." names "out"): the last component as written.
        || matches!(path.rsplit(['/', std::path::MAIN_SEPARATOR]).next(), Some("." | ".."))
    {
        Some(format!("\"{path}\" does not name a file"))
    } else {
        None
    };
    match why {
        None => Ok(Some(path.to_string())),
        Some(why) => Err(o
            .error(key, format!("'{key}' {why}"))
            .hint(format!("write {key} = \"{example}\" (a file, relative to the directory blockdyn runs in), or remove the line to write no {key}"))),
    }
}
