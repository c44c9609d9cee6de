//! The plan a sweep's `--out` directory was written for: `sweep_plan.txt`.
//!
//! A sweep writes this small text file into its directory before its first point runs. It names
//! the plan (its `--vary` lists, as written, and their digest), so that `--overwrite` can tell the
//! outputs of the same plan (a rerun after the model changed, or the rest of an interrupted
//! sweep) from the outputs of another plan or a user's file that merely looks like one (a CSV
//! starting with `time,`). Its text:
//!
//! ```text
//! # blockdyn sweep plan: the --vary lists the run_<k>.csv and summary files here were written for
//! digest = fnv1a64:3f2a0c9d51e7b804
//! points = 6
//! vary = one.value=1,2,3
//! vary = x.initial=0,1
//! ```
//!
//! The digest is FNV-1a (64 bit) over the plan's unambiguous encoding: for each axis in `--vary`
//! order, its path, the byte 0x1f, each value's text followed by 0x1e, then 0x1d. Two plans are
//! the same when their files are byte for byte the same (the digest and the lists), which is when
//! they vary the same paths, in the same order, over the same values as written (`1e5` and
//! `100000.0` are different plans). Sharding is not part of the plan: the shards of one plan
//! write the same file.

use std::fs;
use std::io::Read;
use std::path::Path;

use super::SweepPlan;

/// The manifest's file name in `--out`.
pub const MANIFEST_FILE: &str = "sweep_plan.txt";

/// The manifest's first line, which marks the file as one.
const FIRST_LINE: &str =
    "# blockdyn sweep plan: the --vary lists the run_<k>.csv and summary files here were written for";

/// The largest manifest read (a plan of a million points written as lists is far smaller).
const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// What `--out` holds under [`MANIFEST_FILE`].
#[derive(Clone, Debug, PartialEq)]
pub enum ManifestState {
    /// No such file.
    Missing,
    /// This plan's manifest.
    Same,
    /// Another plan's manifest: its digest and `--vary` lines, for the message.
    Other {
        /// Its `digest = ...` value.
        digest: String,
        /// Its `vary = ...` values, `; `-joined.
        varies: String,
    },
    /// A file of that name that is not a manifest (or not a regular file).
    Foreign,
}

/// The manifest's text for `plan` (see the module documentation).
pub fn manifest_text(plan: &SweepPlan) -> String {
    let mut text = format!(
        "{FIRST_LINE}\ndigest = {}\npoints = {}\n",
        plan_digest(plan),
        plan.len()
    );
    for axis in plan.axes() {
        text += &format!("vary = {}={}\n", axis.path, axis.texts().join(","));
    }
    text
}

/// `fnv1a64:<16 hex digits>` of `plan`'s encoding (see the module documentation).
pub fn plan_digest(plan: &SweepPlan) -> String {
    let mut hash = Fnv1a::default();
    for axis in plan.axes() {
        hash.write(axis.path.as_bytes());
        hash.write(&[0x1f]);
        for text in axis.texts() {
            hash.write(text.as_bytes());
            hash.write(&[0x1e]);
        }
        hash.write(&[0x1d]);
    }
    format!("fnv1a64:{:016x}", hash.0)
}

/// What `dir` holds under [`MANIFEST_FILE`], compared with `plan`'s manifest.
pub fn read_manifest(dir: &Path, plan: &SweepPlan) -> ManifestState {
    let path = dir.join(MANIFEST_FILE);
    let Ok(meta) = fs::symlink_metadata(&path) else {
        return ManifestState::Missing;
    };
    if !meta.is_file() || meta.len() > MAX_MANIFEST_BYTES {
        return ManifestState::Foreign;
    }
    let mut bytes = Vec::new();
    let read =
        fs::File::open(&path).and_then(|f| f.take(MAX_MANIFEST_BYTES).read_to_end(&mut bytes));
    let Ok(text) = read.map(|_| String::from_utf8_lossy(&bytes).into_owned()) else {
        return ManifestState::Foreign;
    };
    if text == manifest_text(plan) {
        return ManifestState::Same;
    }
    let mut lines = text.lines();
    if lines.next() != Some(FIRST_LINE) {
        return ManifestState::Foreign;
    }
    let mut digest = String::new();
    let mut varies = Vec::new();
    for line in lines {
        if let Some(d) = line.strip_prefix("digest = ") {
            digest = d.to_string();
        } else if let Some(v) = line.strip_prefix("vary = ") {
            varies.push(v.to_string());
        }
    }
    ManifestState::Other {
        digest,
        varies: varies.join("; "),
    }
}

/// FNV-1a, 64 bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3 (a stable hash: the
/// same bytes give the same digest on every platform and version).
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_published_test_vectors() {
        // The FNV reference vectors: "" and "a" (isthe.com/chongo/tech/comp/fnv).
        let mut h = Fnv1a::default();
        assert_eq!(h.0, 0xcbf2_9ce4_8422_2325);
        h.write(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn plans_differ_by_paths_values_and_order() {
        let digest = |v: &[&str]| plan_digest(&SweepPlan::parse(v).unwrap());
        let a = digest(&["one.value=1,2", "x.initial=0"]);
        assert_eq!(a, digest(&["one.value=1,2", "x.initial=0"]));
        assert_ne!(a, digest(&["x.initial=0", "one.value=1,2"]));
        assert_ne!(a, digest(&["one.value=1,3", "x.initial=0"]));
        assert_ne!(a, digest(&["one.value=1.0,2", "x.initial=0"]));
        // The separators keep "1,2" + "" apart from "1" + "2".
        assert_ne!(digest(&["a.b=12"]), digest(&["a.b=1,2"]));
        let text = manifest_text(&SweepPlan::parse(&["one.value=1,2"]).unwrap());
        assert!(
            text.ends_with("points = 2\nvary = one.value=1,2\n"),
            "{text}"
        );
    }
}
