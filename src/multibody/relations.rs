//! The frame network's rigid relations (a `--` connection: two frames coincident; a rigid
//! transform: one frame at a fixed pose in another), in the order they were added, with only the
//! transforms' poses stored. A 20,000-joint URDF chain has 120,000 connections and 80,000
//! transforms: as `(FrameId, FrameId, Isometry3)` each (72 bytes), in a vector grown by
//! doubling, they were 18.9 MB of the build's peak; 12 bytes a relation and 56 a transform's
//! pose are ~7 MB.

use super::mechanism::FrameId;
use nalgebra::Isometry3;

/// [`Relation::pose`] of a connection (the identity pose, not stored).
const IDENTITY: u32 = u32::MAX;

/// One relation: frame `b` at a pose in frame `a`.
#[derive(Clone, Copy, Debug)]
struct Relation {
    a: u32,
    b: u32,
    /// The index of `b`'s pose in `a` in [`RigidRelations::poses`]; [`IDENTITY`] for a
    /// connection.
    pose: u32,
}

/// The rigid relations, numbered in the order they were added.
#[derive(Clone, Debug, Default)]
pub(crate) struct RigidRelations {
    relations: Vec<Relation>,
    /// The rigid transforms' poses, in the order they were added.
    poses: Vec<Isometry3<f64>>,
}

/// A frame handle as stored: a handle past `u32::MAX` is past the network's frames (fewer than
/// 2^32), which `FrameNetworkBuilder::check` has already recorded as a bad handle, refused
/// before any relation is read; it is stored as `u32::MAX`.
fn stored(f: FrameId) -> u32 {
    u32::try_from(f).unwrap_or(u32::MAX)
}

impl RigidRelations {
    /// Frames `a` and `b` coincident.
    pub(crate) fn connect(&mut self, a: FrameId, b: FrameId) {
        self.relations.push(Relation {
            a: stored(a),
            b: stored(b),
            pose: IDENTITY,
        });
    }

    /// Frame `b` at `b_in_a` in frame `a`. Panics past 2^32 − 1 transforms.
    pub(crate) fn fix(&mut self, a: FrameId, b: FrameId, b_in_a: Isometry3<f64>) {
        let pose = u32::try_from(self.poses.len())
            .ok()
            .filter(|&k| k != IDENTITY)
            .expect("fewer than 2^32 - 1 rigid transforms");
        self.poses.push(b_in_a);
        self.relations.push(Relation {
            a: stored(a),
            b: stored(b),
            pose,
        });
    }

    /// How many relations.
    pub(crate) fn len(&self) -> usize {
        self.relations.len()
    }

    /// Relation `k`: its two frames and the second's pose in the first (the identity for a
    /// connection). Panics if there is none.
    pub(crate) fn get(&self, k: usize) -> (FrameId, FrameId, Isometry3<f64>) {
        let r = self.relations[k];
        let pose = match r.pose {
            IDENTITY => Isometry3::identity(),
            p => self.poses[p as usize],
        };
        (r.a as FrameId, r.b as FrameId, pose)
    }

    /// Every relation's two frames, in order.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (FrameId, FrameId)> + Clone + '_ {
        (self.relations.iter()).map(|r| (r.a as FrameId, r.b as FrameId))
    }

    /// Gives back the unused capacity (the network is complete: its build reads, never adds).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.relations.shrink_to_fit();
        self.poses.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::RigidRelations;
    use nalgebra::{Isometry3, Vector3};

    /// Connections and transforms come back in the order added, a connection with the identity
    /// pose and a transform with its own, bit for bit.
    #[test]
    fn relations_come_back_in_order() {
        let mut r = RigidRelations::default();
        let lift = Isometry3::translation(0.1, 0.2, 0.3);
        let turn = Isometry3::new(Vector3::zeros(), Vector3::new(0.0, 0.0, 0.7));
        r.connect(0, 1);
        r.fix(1, 2, lift);
        r.connect(2, 3);
        r.fix(3, 4, turn);
        r.shrink_to_fit();
        assert_eq!(r.len(), 4);
        assert_eq!(r.get(0), (0, 1, Isometry3::identity()));
        assert_eq!(r.get(1), (1, 2, lift));
        assert_eq!(r.get(2), (2, 3, Isometry3::identity()));
        assert_eq!(r.get(3), (3, 4, turn));
        let pairs: Vec<_> = r.pairs().collect();
        assert_eq!(pairs, [(0, 1), (1, 2), (2, 3), (3, 4)]);
    }
}
