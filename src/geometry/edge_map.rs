//! A hash map keyed by a hull's directed edges `(from, to)` (vertex indices), with a
//! multiplicative hash: the standard SipHash, built to resist chosen keys, took most of the time
//! of hulling a 200,000-vertex mesh. Vertex indices are not chosen by an adversary the way
//! strings are (they count up from 0), so the collision resistance is not needed here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Directed edge → value.
pub(crate) type EdgeMap<V> = HashMap<(usize, usize), V, BuildHasherDefault<EdgeHasher>>;

/// An empty map with room for `capacity` edges.
pub(crate) fn edge_map<V>(capacity: usize) -> EdgeMap<V> {
    EdgeMap::with_capacity_and_hasher(capacity, BuildHasherDefault::default())
}

/// The multiply–rotate hash of rustc's FxHasher, over whole words.
#[derive(Default, Clone, Copy)]
pub(crate) struct EdgeHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for EdgeHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(SEED);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
