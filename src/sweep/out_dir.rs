//! What a sweep may write into its `--out` directory, decided before any point runs.
//!
//! **Recognised sweep outputs.** A file is taken for a sweep's output only by its name and its
//! first line: `run_<digits>.csv` whose first line is a CSV header `time,...`, and `summary.csv`
//! or `summary_<I>_of_<N>.csv` whose first line is this plan's summary header (`index,` then the
//! `--vary` paths, then `status,`). A staged temporary (`.<name>.<pid>.<n>.tmp`) of a shard
//! running beside this one is ignored. Anything else is the user's.
//!
//! **The plan.** A recognised output is this plan's only when the directory's
//! [`MANIFEST_FILE`] (`sweep_plan.txt`, see [`super::plan_manifest`]) is this plan's: the sweep
//! writes it before its first point runs. Recognised outputs in a directory without it (a user's
//! CSV that starts with `time,`, or a sweep of a blockdyn that wrote none) or with another plan's
//! are not this plan's.
//!
//! **The rule.**
//! - Without `--overwrite`, the directory may hold only this plan's manifest and the outputs of
//!   the other shards of this plan (`--shard I/N` runs into one directory): anything else (an
//!   earlier sweep's outputs, the user's files) refuses the sweep before it starts, naming what
//!   is there.
//! - With `--overwrite`, the sweep replaces this plan's outputs and removes the stale ones
//!   (summaries of another sharding) once its summary is written; it leaves the user's other
//!   files alone. A directory holding another plan's manifest, or recognised outputs without a
//!   manifest, refuses the sweep, naming the two plans or the files.
//! - Never, with or without `--overwrite`: a file that is not a recognised sweep output (a model
//!   stored as `out/run_0.csv`), an input of the run, or a device, FIFO or socket is replaced.

use std::fs;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use super::plan_manifest::{
    manifest_text, plan_digest, read_manifest, ManifestState, MANIFEST_FILE,
};
use super::{Shard, Sweep, SweepError};
use crate::output::{check_not_input, write_atomically, InputFiles};

/// The summary's file name for `shard`: `summary.csv` for the whole sweep, else
/// `summary_<I>_of_<N>.csv`.
pub fn summary_file_name(shard: Shard) -> String {
    if shard.is_whole() {
        "summary.csv".to_string()
    } else {
        format!("summary_{}_of_{}.csv", shard.index(), shard.count())
    }
}

/// The directory entries listed in a message before "and N more".
const LISTED: usize = 5;

/// What is in the directory, sorted out before the sweep runs.
#[derive(Debug, Default)]
pub struct OutputDirectory {
    /// Recognised outputs this sweep does not write, to remove once its summary is written
    /// (only with `--overwrite`).
    pub stale: Vec<PathBuf>,
}

/// A directory's entries, sorted out by [`Sweep::prepare_directory`].
#[derive(Default)]
struct SortedEntries {
    /// What the sweep removes once its summary is written.
    prepared: OutputDirectory,
    /// Names that only `--overwrite` lets the sweep go ahead with, in order.
    in_the_way: Vec<String>,
    /// Names of recognised outputs the manifest does not record as this plan's.
    unrecorded: Vec<String>,
}

/// The first [`LISTED`] of `entries` for a message, and how many more there are.
fn first_listed(mut entries: Vec<String>) -> (Vec<String>, usize) {
    let more = entries.len().saturating_sub(LISTED);
    entries.truncate(LISTED);
    (entries, more)
}

/// One entry of the directory, classified.
enum Entry {
    /// A staged temporary, or another shard's output of this plan: left alone.
    Neighbour,
    /// A recognised output that this sweep writes again.
    Own,
    /// A recognised output this sweep does not write.
    Stale,
    /// A recognised output that the directory's manifest does not record as this plan's.
    Unrecorded,
    /// Not a sweep output; `collides` when this sweep would write a file of its name.
    Foreign { collides: bool },
}

impl Sweep {
    /// Point `index`'s CSV file name, `run_<index>.csv` (zero-padded to the width of the
    /// plan's last index, so that the names sort in point order).
    pub fn csv_file_name(&self, index: usize) -> String {
        let width = (self.plan().len() - 1).max(1).ilog10() as usize + 1;
        format!("run_{index:0width$}.csv")
    }

    /// Checks `dir` for a sweep of the `shard`'s points (see the module documentation), creates
    /// it when missing, and writes this plan's manifest into it. `overwrite` is `--overwrite`;
    /// `inputs` are the files the run reads.
    pub fn prepare_directory(
        &self,
        dir: &Path,
        shard: Shard,
        overwrite: bool,
        inputs: &InputFiles,
    ) -> Result<OutputDirectory, SweepError> {
        let Some(names) = self.list_or_create(dir)? else {
            return Ok(OutputDirectory::default());
        };
        // Read after the listing: a neighbour shard writes it before any of its outputs.
        let manifest = read_manifest(dir, self.plan());
        let same_plan = manifest == ManifestState::Same;
        let sorted = self.sort_entries(dir, names, shard, &manifest, inputs)?;
        self.refuse_unfit(
            dir,
            overwrite,
            &manifest,
            sorted.in_the_way,
            sorted.unrecorded,
        )?;
        if !same_plan {
            self.write_manifest(dir)?;
        }
        Ok(sorted.prepared)
    }

    /// The names in `dir`, sorted; `None` when it did not exist: then it is created with this
    /// plan's manifest in it. A path that cannot be listed (a file) is an error.
    fn list_or_create(&self, dir: &Path) -> Result<Option<Vec<String>>, SweepError> {
        let listing = match fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                fs::create_dir_all(dir).map_err(|source| SweepError::OutputDirectory {
                    dir: dir.to_path_buf(),
                    source,
                })?;
                self.write_manifest(dir)?;
                return Ok(None);
            }
            Err(source) => {
                let source = if dir.exists() && !dir.is_dir() {
                    std::io::Error::other("it is a file, not a directory")
                } else {
                    source
                };
                return Err(SweepError::OutputDirectory {
                    dir: dir.to_path_buf(),
                    source,
                });
            }
        };
        let mut names: Vec<String> = listing
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        Ok(Some(names))
    }

    /// Sorts the directory's entries `names` out (see [`Entry`]) under its `manifest`: what is
    /// in the way of this sweep, what is recognised but unrecorded, and what is stale. A foreign
    /// file this sweep would write, a foreign manifest, or an input of a recognised name is an
    /// error.
    fn sort_entries(
        &self,
        dir: &Path,
        names: Vec<String>,
        shard: Shard,
        manifest: &ManifestState,
        inputs: &InputFiles,
    ) -> Result<SortedEntries, SweepError> {
        let same_plan = *manifest == ManifestState::Same;
        let mut sorted = SortedEntries::default();
        for name in names {
            let path = dir.join(&name);
            if name == MANIFEST_FILE {
                match manifest {
                    ManifestState::Foreign => return Err(SweepError::NotASweepOutput { path }),
                    // Another shard's (or a rerun's): in the way of a whole sweep only.
                    ManifestState::Same if !shard.is_whole() => {}
                    _ => sorted.in_the_way.push(name),
                }
                continue;
            }
            match self.classify(&name, &path, shard, same_plan) {
                Entry::Neighbour => {}
                Entry::Foreign { collides: true } => {
                    return Err(SweepError::NotASweepOutput { path });
                }
                Entry::Own => {
                    // An input, a device or a FIFO of a recognised name is still refused.
                    check_not_input(&path, "CSV", inputs)?;
                    sorted.in_the_way.push(name);
                }
                Entry::Stale => {
                    sorted.prepared.stale.push(path);
                    sorted.in_the_way.push(name);
                }
                Entry::Unrecorded => {
                    sorted.unrecorded.push(name.clone());
                    sorted.in_the_way.push(name);
                }
                Entry::Foreign { collides: false } => sorted.in_the_way.push(name),
            }
        }
        Ok(sorted)
    }

    /// Refuses a sweep into `dir` that has entries `in_the_way` without `overwrite`, another
    /// plan's `manifest` (naming both plans), or `unrecorded` outputs (recognised ones that the
    /// manifest does not record as this plan's), in that order; entries are named up to
    /// [`LISTED`].
    fn refuse_unfit(
        &self,
        dir: &Path,
        overwrite: bool,
        manifest: &ManifestState,
        in_the_way: Vec<String>,
        unrecorded: Vec<String>,
    ) -> Result<(), SweepError> {
        if !overwrite && !in_the_way.is_empty() {
            let (entries, more) = first_listed(in_the_way);
            return Err(SweepError::DirectoryNotEmpty {
                dir: dir.to_path_buf(),
                entries,
                more,
            });
        }
        if let ManifestState::Other { digest, varies } = manifest {
            return Err(SweepError::OtherPlan {
                dir: dir.to_path_buf(),
                theirs: format!("{digest}, --vary {varies}"),
                ours: self.plan_description(),
            });
        }
        if !unrecorded.is_empty() {
            let (entries, more) = first_listed(unrecorded);
            return Err(SweepError::UnrecordedOutputs {
                dir: dir.to_path_buf(),
                entries,
                more,
            });
        }
        Ok(())
    }

    /// Writes this plan's [`MANIFEST_FILE`] into `dir` (atomically: a shard beside this one may
    /// write the same bytes at the same time).
    fn write_manifest(&self, dir: &Path) -> Result<(), SweepError> {
        let text = manifest_text(self.plan());
        write_atomically(&dir.join(MANIFEST_FILE), "sweep plan", |w| {
            w.write_all(text.as_bytes())
        })?;
        Ok(())
    }

    /// This plan for a message: `<digest>, --vary <path>=<values>; ...`.
    fn plan_description(&self) -> String {
        let varies: Vec<String> = (self.plan().axes().iter())
            .map(|a| format!("{}={}", a.path, a.texts().join(",")))
            .collect();
        format!("{}, --vary {}", plan_digest(self.plan()), varies.join("; "))
    }

    /// Sorts one directory entry out (see [`Entry`]); `same_plan` when the directory's manifest
    /// is this plan's.
    fn classify(&self, name: &str, path: &Path, shard: Shard, same_plan: bool) -> Entry {
        if name.starts_with('.') && name.ends_with(".tmp") {
            return Entry::Neighbour;
        }
        let own_summary = summary_file_name(shard);
        if let Some(index) = run_index(name) {
            let in_plan = index < self.plan().len() && self.csv_file_name(index) == name;
            let own = in_plan && shard.contains(index);
            if !first_line(path).is_some_and(|l| l == "time" || l.starts_with("time,")) {
                return Entry::Foreign { collides: own };
            }
            if !same_plan {
                return Entry::Unrecorded;
            }
            return match (in_plan, own) {
                (_, true) => Entry::Own,
                (true, false) => Entry::Neighbour,
                (false, _) => Entry::Stale,
            };
        }
        if let Some(count) = summary_shards(name) {
            let recognised =
                first_line(path).is_some_and(|l| l.starts_with(&self.summary_header_prefix()));
            let own = name == own_summary;
            return match (recognised, own) {
                (false, collides) => Entry::Foreign { collides },
                (true, _) if !same_plan => Entry::Unrecorded,
                (true, true) => Entry::Own,
                (true, false) if count == shard.count() && !shard.is_whole() => Entry::Neighbour,
                (true, false) => Entry::Stale,
            };
        }
        Entry::Foreign { collides: false }
    }

    /// The start of this plan's summary header: `index,<paths>,status,`.
    fn summary_header_prefix(&self) -> String {
        let mut line = Vec::new();
        let paths = self.plan().axes().iter().map(|a| a.path.as_str());
        let fields: Vec<&str> = std::iter::once("index")
            .chain(paths)
            .chain(["status"])
            .collect();
        for (k, field) in fields.iter().enumerate() {
            if k > 0 {
                line.push(b',');
            }
            // Writing into a Vec cannot fail.
            let _ = crate::output::csv::write_field(&mut line, field);
        }
        line.push(b',');
        String::from_utf8_lossy(&line).into_owned()
    }
}

/// k of `run_<k>.csv`.
fn run_index(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("run_")?.strip_suffix(".csv")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The shard count N of `summary_<I>_of_<N>.csv` (1 for `summary.csv`).
fn summary_shards(name: &str) -> Option<usize> {
    if name == "summary.csv" {
        return Some(1);
    }
    let (index, count) = name
        .strip_prefix("summary_")?
        .strip_suffix(".csv")?
        .split_once("_of_")?;
    index.parse::<usize>().ok()?;
    count.parse().ok()
}

/// The first line of the regular file at `path` (its first 4 KiB), if it is text.
fn first_line(path: &Path) -> Option<String> {
    if !fs::metadata(path).ok()?.is_file() {
        return None;
    }
    // Up to the first newline (a summary's header grows with the plan's axes), within 1 MiB.
    let mut head = Vec::new();
    std::io::BufReader::new(fs::File::open(path).ok()?.take(1 << 20))
        .read_until(b'\n', &mut head)
        .ok()?;
    let line = head.strip_suffix(b"\n").unwrap_or(&head);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    Some(String::from_utf8_lossy(line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read() {
        assert_eq!(run_index("run_007.csv"), Some(7));
        assert_eq!(run_index("run_.csv"), None);
        assert_eq!(run_index("run_1a.csv"), None);
        assert_eq!(summary_shards("summary.csv"), Some(1));
        assert_eq!(summary_shards("summary_2_of_8.csv"), Some(8));
        assert_eq!(summary_shards("summary_x.csv"), None);
    }
}
