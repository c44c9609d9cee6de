//! The frame network (what the diagram's physical connections describe) and its compilation into a
//! [`Mechanism`].
//!
//! Frames are points with orientation. Three things make frames rigidly related: a coincident
//! connection ([`connect`](FrameNetworkBuilder::connect), a `--` line), a rigid transform, and a weld
//! joint. The groups of rigidly related frames are the **bodies**; every other joint connects two
//! bodies. The tree is rooted at the body holding the World frame (body 0, whose reference frame is
//! the World frame); each other body's reference frame is the follower frame F of the joint that
//! connects it to its parent (or the joint's base frame B if the joint is connected with its
//! follower toward the World). Joints connected base-toward-World are preferred when building the
//! tree, so the joint named when a loop is found is one that closes it. Solids attached to the World body are fixed and do not enter the
//! dynamics.

use super::aba::kinematics_pass;
pub use super::errors::MechanismError;
use super::joint::{JointKind, JointSpec};
use super::labels::Labels;
use super::mechanism::{
    BodyIndex, BodyModel, CutJoint, FrameId, FramePlacements, JointId, JointInfo, JointPassive,
    LeafInverse, Mechanism, WORLD_BODY,
};
use super::relations::RigidRelations;
use super::spatial::{ArticulatedInertia, PluckerTransform, SpatialForce, SpatialInertia};
use super::weld::{weld_splits, WeldNetwork, WeldSplit};
use super::workspace::Workspace;
use crate::contact::friction::FrictionLaw;
use nalgebra::{Isometry3, Matrix3, Matrix6, Vector3};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

#[derive(Clone, Debug)]
struct SolidEntry {
    frame: FrameId,
    mass: f64,
    com: Vector3<f64>,
    inertia: Matrix3<f64>,
    label: String,
}

#[derive(Clone, Debug)]
struct JointEntry {
    base: FrameId,
    follower: FrameId,
    spec: JointSpec,
    label: String,
}

/// Collects frames, connections, solids and joints, then [`build`](Self::build)s the mechanism.
#[derive(Clone, Debug, Default)]
pub struct FrameNetworkBuilder {
    labels: Labels,
    worlds: Vec<FrameId>,
    /// The connections (identity) and rigid transforms (follower in base), in the order added.
    rigid: RigidRelations,
    solids: Vec<SolidEntry>,
    joints: Vec<JointEntry>,
    bad_handle: Option<(FrameId, String)>,
}

/// "Not assigned yet" in the group and body tables of [`FrameNetworkBuilder::build`].
const UNSET: usize = usize::MAX;

/// Stage 1 of the build: the groups of rigidly related frames (the bodies to be).
struct RigidGroups {
    /// Each frame's group.
    group: Vec<usize>,
    /// Each frame's pose in its group's first frame, until `assemble_mechanism` takes the list
    /// (empty afterwards: it turns the poses into the frames' placements in place).
    pose_in_root: Vec<Isometry3<f64>>,
    /// Each group's frames.
    frames: Vec<Vec<FrameId>>,
}

/// Each frame's rigid relations, all in one array in the order they were added: relation k
/// between frames a and b is listed at a as `(b, k, false)` and at b as `(a, k, true)` (reversed:
/// a in b is the inverse of b in a). One list per frame (a `Vec` each, of at least four 64-byte
/// entries once pushed to) was 62 MB of a 20,000-joint chain's 220,000 frames, the build's peak.
struct Adjacency {
    /// Frame f's relations are `entries[start[f]..start[f + 1]]`.
    start: Vec<usize>,
    entries: Vec<(FrameId, usize, bool)>,
}

impl Adjacency {
    /// The lists of `nf` frames for the relations `(a, b)`, relation k the k-th.
    fn new(nf: usize, relations: impl Iterator<Item = (FrameId, FrameId)> + Clone) -> Self {
        let mut start = vec![0; nf + 1];
        for (a, b) in relations.clone() {
            start[a + 1] += 1;
            start[b + 1] += 1;
        }
        for f in 0..nf {
            start[f + 1] += start[f];
        }
        let mut next = start.clone();
        let mut entries = vec![(0, 0, false); start[nf]];
        for (k, (a, b)) in relations.enumerate() {
            entries[next[a]] = (b, k, false);
            next[a] += 1;
            entries[next[b]] = (a, k, true);
            next[b] += 1;
        }
        Adjacency { start, entries }
    }

    /// Frame `f`'s relations, in the order they were added.
    fn of(&self, f: FrameId) -> &[(FrameId, usize, bool)] {
        &self.entries[self.start[f]..self.start[f + 1]]
    }
}

/// Stage 2 of the build: the tree over the groups.
struct Tree {
    /// Each group's body index.
    body_of_group: Vec<BodyIndex>,
    /// Each body's group, in tree (breadth-first) order; body 0 is the World's.
    body_groups: Vec<usize>,
    /// Each body's joint from its parent, and whether it is connected follower toward the World.
    inbound: Vec<Option<(JointId, bool)>>,
    /// The joints that close loops.
    cuts: Vec<JointId>,
}

/// Every frame's body and pose in the body's reference frame, during stage 3 of the build: the
/// rigid groups' poses turned in place into the placements, the body read through the frame's
/// group. A vector of (body, pose) beside the groups' poses was 14 MB more at the build's peak
/// (220,000 frames of a 20,000-joint URDF chain).
struct Placements<'a> {
    group: &'a [usize],
    body_of_group: &'a [BodyIndex],
    /// Each frame's pose in its body's reference frame.
    pose: Vec<Isometry3<f64>>,
}

impl Placements<'_> {
    /// Frame `f`'s body and pose in that body's reference frame.
    fn get(&self, f: FrameId) -> (BodyIndex, Isometry3<f64>) {
        (self.body_of_group[self.group[f]], self.pose[f])
    }
}

/// The bodies' models and coordinates (stage 3 of the build).
struct Coordinates {
    bodies: Vec<BodyModel>,
    /// The passive laws of the joints that have any ([`BodyModel::passive`]).
    passive: Vec<JointPassive>,
    /// Per velocity coordinate: whether it is prescribed.
    prescribed: Vec<bool>,
    joints: Vec<JointInfo>,
    nq: usize,
    nv: usize,
    q0: Vec<f64>,
    v0: Vec<f64>,
    quaternion_offsets: Vec<usize>,
}

/// Closed-form inverse inertia of leaf bodies (used by the 6-dof fast path of the ABA), each
/// body's [`BodyModel::leaf_inverse`] set to its index in the list returned.
fn set_leaf_inverses(bodies: &mut [BodyModel]) -> Vec<LeafInverse> {
    let mut inverses = Vec::new();
    // One pass marks the bodies that are some body's parent (a search per body was quadratic:
    // 6 % of a 20,000-joint chain's `check`).
    let mut has_child = vec![false; bodies.len()];
    for other in bodies.iter().skip(1) {
        if let Some(mark) = has_child.get_mut(other.parent) {
            *mark = true;
        }
    }
    for b in 1..bodies.len() {
        let leaf = !has_child[b];
        let inertia = bodies[b].inertia;
        if leaf && inertia.mass > 0.0 {
            let c = inertia.h / inertia.mass;
            let i_c = inertia.i_origin
                - (Matrix3::identity() * c.norm_squared() - c * c.transpose()) * inertia.mass;
            if let (Some(inv), true) = (i_c.try_inverse(), i_c.cholesky().is_some()) {
                bodies[b].leaf_inverse = u32::try_from(inverses.len()).ok();
                inverses.push((1.0 / inertia.mass, c, inv));
            }
        }
    }
    inverses.shrink_to_fit();
    inverses
}

/// Labels of `frames`, quoted and comma separated, abbreviated after 8.
fn frame_list(labels: &Labels, frames: impl Iterator<Item = FrameId>) -> String {
    let all: Vec<FrameId> = frames.collect();
    let mut s = all
        .iter()
        .take(8)
        .map(|&f| format!("'{}'", &labels[f]))
        .collect::<Vec<_>>()
        .join(", ");
    if all.len() > 8 {
        s.push_str(&format!(" and {} more", all.len() - 8));
    }
    s
}

impl FrameNetworkBuilder {
    /// An empty network.
    pub fn new() -> Self {
        Self::default()
    }

    fn check(&mut self, f: FrameId, context: &str) {
        if f >= self.labels.len() && self.bad_handle.is_none() {
            self.bad_handle = Some((f, context.to_string()));
        }
    }

    /// Adds a frame; `label` (like "ball.R") names it in error messages.
    pub fn add_frame(&mut self, label: &str) -> FrameId {
        self.labels.push(&[label])
    }

    /// Declares `frame` the World frame (exactly one per network).
    pub fn set_world(&mut self, frame: FrameId) {
        self.check(frame, "set_world");
        self.worlds.push(frame);
    }

    /// Makes frames `a` and `b` coincident (a `--` connection).
    pub fn connect(&mut self, a: FrameId, b: FrameId) {
        self.check(a, "connect");
        self.check(b, "connect");
        self.rigid.connect(a, b);
    }

    /// Fixes `follower` to `base` at the pose `follower_in_base` (F's orientation and origin in B).
    pub fn add_rigid_transform(
        &mut self,
        base: FrameId,
        follower: FrameId,
        follower_in_base: Isometry3<f64>,
    ) {
        self.check(base, "add_rigid_transform");
        self.check(follower, "add_rigid_transform");
        self.rigid.fix(base, follower, follower_in_base);
    }

    /// Attaches a solid to `frame`: `mass` (kg), centre of mass `com_in_frame` (m) and rotational
    /// inertia about the centre of mass `inertia_about_com_in_frame` (kg·m²), both resolved in
    /// `frame`.
    pub fn add_solid(
        &mut self,
        frame: FrameId,
        mass: f64,
        com_in_frame: Vector3<f64>,
        inertia_about_com_in_frame: Matrix3<f64>,
        label: &str,
    ) {
        self.check(frame, label);
        self.solids.push(SolidEntry {
            frame,
            mass,
            com: com_in_frame,
            inertia: inertia_about_com_in_frame,
            label: label.to_string(),
        });
    }

    /// Adds a joint moving `follower` relative to `base`. Either side may face the World; when the
    /// follower does, the joint's coordinates keep their meaning (F relative to B) and the dynamics
    /// invert the motion.
    pub fn add_joint(
        &mut self,
        base: FrameId,
        follower: FrameId,
        joint: JointSpec,
        label: &str,
    ) -> JointId {
        self.check(base, label);
        self.check(follower, label);
        self.joints.push(JointEntry {
            base,
            follower,
            spec: joint,
            label: label.to_string(),
        });
        self.joints.len() - 1
    }

    fn validate(&self, gravity: &Vector3<f64>) -> Result<FrameId, MechanismError> {
        if let Some((handle, context)) = &self.bad_handle {
            return Err(MechanismError::BadFrameHandle {
                handle: *handle,
                context: context.clone(),
            });
        }
        if !gravity.iter().all(|g| g.is_finite()) {
            return Err(MechanismError::BadGravity {
                gravity: [gravity.x, gravity.y, gravity.z],
            });
        }
        for j in &self.joints {
            validate_joint(j)?;
        }
        for s in &self.solids {
            validate_solid(s)?;
        }
        match self.worlds.as_slice() {
            [] => Err(MechanismError::NoWorldFrame),
            [w] => Ok(*w),
            [a, b, ..] => Err(MechanismError::TwoWorldFrames {
                first: self.labels[*a].to_string(),
                second: self.labels[*b].to_string(),
            }),
        }
    }

    /// Compiles the network into a mechanism with gravity `gravity_in_world` (m/s², World frame),
    /// in three stages: the rigid groups (bodies) of frames (`rigid_groups`), the tree
    /// over them with its cut joints (`spanning_tree`), then the bodies' models,
    /// coordinates and cut joints (`assemble_mechanism`).
    pub fn build(mut self, gravity_in_world: Vector3<f64>) -> Result<Mechanism, MechanismError> {
        // Complete now: what the vectors grew by doubling would stay unused through the build
        // (the build's peak; at 20,000 URDF joints ~5 MB).
        self.rigid.shrink_to_fit();
        self.labels.shrink_to_fit();
        self.solids.shrink_to_fit();
        self.joints.shrink_to_fit();
        let world = self.validate(&gravity_in_world)?;
        let mut groups = self.rigid_groups()?;
        let tree = self.spanning_tree(world, &groups)?;
        let mechanism = self.assemble_mechanism(world, &mut groups, &tree, gravity_in_world);
        if let Some(b) = first_singular_body(&mechanism) {
            let (j, _) = tree.inbound[b].expect("non-World body");
            return Err(MechanismError::MasslessBody {
                joint: self.joints[j].label.clone(),
                frames: frame_list(
                    &self.labels,
                    groups.frames[tree.body_groups[b]].iter().copied(),
                ),
            });
        }
        Ok(mechanism)
    }

    /// Stage 1: the groups of rigidly related frames (connections, rigid transforms, welds), and
    /// each frame's pose in its group's first frame. A loop of rigid relations must agree.
    fn rigid_groups(&self) -> Result<RigidGroups, MechanismError> {
        let nf = self.labels.len();
        let welds: Vec<(FrameId, FrameId)> = (self.joints.iter())
            .filter(|j| j.spec.kind == JointKind::Weld)
            .map(|j| (j.base, j.follower))
            .collect();
        // Relation k: frame b at b_in_a in frame a (the rigid relations, then the welds).
        let relation = |k: usize| match k.checked_sub(self.rigid.len()) {
            None => self.rigid.get(k),
            Some(w) => {
                let (a, b) = welds[w];
                (a, b, Isometry3::identity())
            }
        };
        let adjacency = Adjacency::new(nf, self.rigid.pairs().chain(welds.iter().copied()));
        let mut group = vec![UNSET; nf];
        let mut pose_in_root = vec![Isometry3::identity(); nf];
        let mut frames: Vec<Vec<FrameId>> = Vec::new();
        let mut queue = VecDeque::new();
        for start in 0..nf {
            if group[start] != UNSET {
                continue;
            }
            let g = frames.len();
            frames.push(vec![start]);
            group[start] = g;
            queue.push_back(start);
            while let Some(f) = queue.pop_front() {
                for &(other, k, reversed) in adjacency.of(f) {
                    let b_in_a = relation(k).2;
                    let other_in_f = if reversed { b_in_a.inverse() } else { b_in_a };
                    let pose = pose_in_root[f] * other_in_f;
                    if group[other] == UNSET {
                        group[other] = g;
                        pose_in_root[other] = pose;
                        frames[g].push(other);
                        queue.push_back(other);
                    } else if !poses_match(&pose, &pose_in_root[other]) {
                        return Err(MechanismError::InconsistentRigidLoop {
                            frame: self.labels[other].to_string(),
                        });
                    }
                }
            }
        }
        Ok(RigidGroups {
            group,
            pose_in_root,
            frames,
        })
    }

    /// Stage 2: the tree over groups, breadth first from the World group, following joints from
    /// base to follower. A joint reaching an already reached group closes a loop (a cut joint); a
    /// joint left over with only its follower side reached is reversed. Every group must be
    /// reached.
    fn spanning_tree(&self, world: FrameId, groups: &RigidGroups) -> Result<Tree, MechanismError> {
        let group = &groups.group;
        let (nf, ng) = (self.labels.len(), groups.frames.len());
        let mut outgoing: Vec<Vec<JointId>> = vec![Vec::new(); ng];
        // By follower group: the candidates for a reversed joint once that group is reached.
        let mut incoming: Vec<Vec<JointId>> = vec![Vec::new(); ng];
        let moving: Vec<JointId> = (0..self.joints.len())
            .filter(|&j| self.joints[j].spec.kind != JointKind::Weld)
            .collect();
        for &j in &moving {
            let je = &self.joints[j];
            if group[je.base] == group[je.follower] {
                return Err(self.closed_loop(j));
            }
            outgoing[group[je.base]].push(j);
            incoming[group[je.follower]].push(j);
        }
        // Joints that can close loops (revolute, spherical) last: the tree takes the others
        // first, so that a loop is cut where a closure can be written.
        for list in &mut outgoing {
            list.sort_by_key(|&j| closes_loops(self.joints[j].spec.kind));
        }
        let mut cuts: Vec<JointId> = Vec::new();
        let mut body_of_group = vec![UNSET; ng];
        let mut body_groups = vec![group[world]];
        let mut inbound: Vec<Option<(JointId, bool)>> = vec![None];
        let mut used = vec![false; self.joints.len()];
        body_of_group[group[world]] = WORLD_BODY;
        // The joints whose follower side is reached, smallest first: the first unused one whose
        // base side is not reached is the next reversed joint (a joint failing that test never
        // passes it later, so it is dropped). A search of all joints per reversed joint was
        // quadratic in a chain connected follower toward the World.
        let mut candidates: BinaryHeap<Reverse<JointId>> = BinaryHeap::new();
        let mut next = 0;
        loop {
            while next < body_groups.len() {
                let g = body_groups[next];
                next += 1;
                candidates.extend(incoming[g].iter().map(|&j| Reverse(j)));
                for &j in &outgoing[g] {
                    if used[j] {
                        continue;
                    }
                    used[j] = true;
                    let other = group[self.joints[j].follower];
                    if body_of_group[other] != UNSET {
                        cuts.push(j);
                        continue;
                    }
                    body_of_group[other] = body_groups.len();
                    body_groups.push(other);
                    inbound.push(Some((j, false)));
                }
            }
            // Then joints connected the other way round (follower toward the World).
            let reached = |f: FrameId| body_of_group[group[f]] != UNSET;
            let reversed = std::iter::from_fn(|| candidates.pop())
                .map(|Reverse(j)| j)
                .find(|&j| !used[j] && !reached(self.joints[j].base));
            let Some(j) = reversed else { break };
            used[j] = true;
            let other = group[self.joints[j].base];
            body_of_group[other] = body_groups.len();
            body_groups.push(other);
            inbound.push(Some((j, true)));
        }
        cuts.extend(moving.iter().copied().filter(|&j| {
            !used[j]
                && body_of_group[group[self.joints[j].base]] != UNSET
                && body_of_group[group[self.joints[j].follower]] != UNSET
        }));
        for &j in &cuts {
            self.check_cut(j)?;
        }
        if body_groups.len() < ng {
            let unreached = |f: &FrameId| body_of_group[group[*f]] == UNSET;
            let first = (0..nf)
                .find(unreached)
                .map_or_else(String::new, |f| self.labels[f].to_string());
            let frames = frame_list(&self.labels, (0..nf).filter(unreached));
            return Err(MechanismError::NotConnectedToWorld { frames, first });
        }
        Ok(Tree {
            body_of_group,
            body_groups,
            inbound,
            cuts,
        })
    }

    /// Stage 3: each body's reference frame, every frame's placement on its body, the tree
    /// transforms, inertias, coordinates and initial values, and the cut joints.
    fn assemble_mechanism(
        &self,
        world: FrameId,
        groups: &mut RigidGroups,
        tree: &Tree,
        gravity_in_world: Vector3<f64>,
    ) -> Mechanism {
        let nb = tree.body_groups.len();
        let ref_frame: Vec<FrameId> = (0..nb)
            .map(|b| {
                tree.inbound[b].map_or(world, |(j, reversed)| {
                    let je = &self.joints[j];
                    if reversed {
                        je.base
                    } else {
                        je.follower
                    }
                })
            })
            .collect();
        // A frame's pose in its body's reference frame: the reference frame's pose in the group's
        // first frame, inverted, times the frame's (each inverse taken once, before the poses it
        // is taken of are overwritten).
        let mut pose = std::mem::take(&mut groups.pose_in_root);
        let ref_inverse: Vec<Isometry3<f64>> =
            ref_frame.iter().map(|&r| pose[r].inverse()).collect();
        for (f, p) in pose.iter_mut().enumerate() {
            *p = ref_inverse[tree.body_of_group[groups.group[f]]] * *p;
        }
        drop(ref_inverse);
        let frame_placements = Placements {
            group: &groups.group,
            body_of_group: &tree.body_of_group,
            pose,
        };
        let mut inertia = vec![SpatialInertia::ZERO; nb];
        for s in &self.solids {
            let (b, placement) = frame_placements.get(s.frame);
            let in_frame = SpatialInertia::from_mass_com_inertia(s.mass, s.com, s.inertia);
            // body_X_frame: the body frame's pose in the solid's frame is placement⁻¹.
            let x = PluckerTransform::from_pose(&placement.inverse());
            inertia[b] = inertia[b] + in_frame.transform(&x);
        }
        let (welds, frame_preorder) = self.weld_splits(tree, &frame_placements, &ref_frame);
        let coordinates = self.coordinates(tree, &frame_placements, &inertia);
        let mut body_labels = Labels::default();
        body_labels.push(&["World"]);
        for &frame in &ref_frame[1..] {
            body_labels.push(&[&self.labels[frame]]);
        }
        body_labels.shrink_to_fit();
        let mut joint_labels = Labels::default();
        for je in &self.joints {
            joint_labels.push(&[&je.label]);
        }
        joint_labels.shrink_to_fit();
        let body_joints = tree.inbound.iter().map(|i| i.map(|(j, _)| j)).collect();
        let cuts = tree
            .cuts
            .iter()
            .map(|&j| CutJoint {
                joint: j,
                kind: self.joints[j].spec.kind,
                base: frame_placements.get(self.joints[j].base),
                follower: frame_placements.get(self.joints[j].follower),
                frames: (self.joints[j].base, self.joints[j].follower),
            })
            .collect();
        let Coordinates {
            mut bodies,
            passive,
            prescribed,
            joints,
            nq,
            nv,
            q0,
            v0,
            quaternion_offsets,
        } = coordinates;
        let leaf_inverses = set_leaf_inverses(&mut bodies);
        let has_prescribed = prescribed.iter().any(|p| *p);
        Mechanism {
            bodies,
            body_labels,
            joint_labels,
            joints,
            frame_placements: FramePlacements::new(self.labels.len(), |f| frame_placements.get(f)),
            gravity: gravity_in_world,
            nq,
            nv,
            q0,
            v0,
            quaternion_offsets,
            cuts,
            body_joints,
            prescribed,
            has_prescribed,
            welds,
            frame_preorder,
            passive,
            leaf_inverses,
        }
    }

    /// Each weld joint's split of its body (see [`super::weld`]), in joint order, and the frames'
    /// preorder numbers the splits refer to (both empty without welds).
    fn weld_splits(
        &self,
        tree: &Tree,
        placements: &Placements,
        ref_frame: &[FrameId],
    ) -> (Vec<WeldSplit>, Vec<usize>) {
        let welds: Vec<(JointId, FrameId, FrameId)> = (self.joints.iter().enumerate())
            .filter(|(_, j)| j.spec.kind == JointKind::Weld)
            .map(|(k, j)| (k, j.base, j.follower))
            .collect();
        if welds.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let frame_placements: Vec<(BodyIndex, Isometry3<f64>)> =
            (0..self.labels.len()).map(|f| placements.get(f)).collect();
        let rigid: Vec<(FrameId, FrameId)> = self.rigid.pairs().collect();
        let solids: Vec<(FrameId, SpatialInertia)> = (self.solids.iter())
            .map(|s| {
                let in_frame = SpatialInertia::from_mass_com_inertia(s.mass, s.com, s.inertia);
                (s.frame, in_frame)
            })
            .collect();
        // The frame of each non-World body's inbound joint on the parent's side.
        let parent_side: Vec<Option<FrameId>> = (tree.inbound.iter())
            .map(|i| {
                i.map(|(j, reversed)| {
                    let je = &self.joints[j];
                    if reversed {
                        je.follower
                    } else {
                        je.base
                    }
                })
            })
            .collect();
        let network = WeldNetwork {
            num_frames: self.labels.len(),
            rigid: &rigid,
            welds: &welds,
            solids: &solids,
            parent_side: &parent_side,
            frame_placements: &frame_placements,
            ref_frame,
        };
        weld_splits(&network)
    }

    /// The bodies' models in tree order, each joint's coordinate ranges, and the initial
    /// coordinates (quaternions normalized).
    fn coordinates(
        &self,
        tree: &Tree,
        frame_placements: &Placements,
        inertia: &[SpatialInertia],
    ) -> Coordinates {
        let mut joints: Vec<JointInfo> = self
            .joints
            .iter()
            .map(|je| JointInfo {
                kind: je.spec.kind,
                body: None,
                q_range: 0..0,
                v_range: 0..0,
            })
            .collect();
        let placeholder = BodyModel {
            parent: 0,
            kind: JointKind::Weld,
            q_start: 0,
            v_start: 0,
            x_tree: PluckerTransform::IDENTITY,
            inertia: SpatialInertia::ZERO,
            passive: None,
            reversed: false,
            leaf_inverse: None,
            any_prescribed: false,
        };
        // Sized to the bodies and coordinates: the mechanism keeps these, and a vector grown by
        // pushes holds up to twice (a body is ~260 bytes: 3 MB unused at 20,000 bodies).
        let mut bodies = Vec::with_capacity(inertia.len().max(1));
        bodies.push(placeholder);
        let (nq, nv) = tree.inbound[1..]
            .iter()
            .flatten()
            .fold((0, 0), |(q, v), &(j, _)| {
                let kind = self.joints[j].spec.kind;
                (q + kind.nq(), v + kind.nv())
            });
        let mut c = Coordinates {
            bodies,
            passive: Vec::new(),
            prescribed: Vec::with_capacity(nv),
            joints: Vec::new(),
            nq: 0,
            nv: 0,
            q0: Vec::with_capacity(nq),
            v0: Vec::with_capacity(nv),
            quaternion_offsets: Vec::new(),
        };
        for (b, &body_inertia) in inertia.iter().enumerate().skip(1) {
            let (j, reversed) = tree.inbound[b].expect("every non-World body has an inbound joint");
            let je = &self.joints[j];
            let kind = je.spec.kind;
            let parent_side = if reversed { je.follower } else { je.base };
            let (parent, base_in_parent) = frame_placements.get(parent_side);
            let mut stiffness = [0.0; 6];
            let mut damping = [0.0; 6];
            stiffness[..je.spec.stiffness.len()].copy_from_slice(&je.spec.stiffness);
            damping[..je.spec.damping.len()].copy_from_slice(&je.spec.damping);
            let mut friction = [FrictionLaw::None; 6];
            friction[..je.spec.friction.len()].copy_from_slice(&je.spec.friction);
            let mut prescribed = [false; 6];
            prescribed[..je.spec.motion.len()].copy_from_slice(&je.spec.motion);
            c.prescribed.extend_from_slice(&prescribed[..kind.nv()]);
            let has_passive = stiffness.iter().chain(damping.iter()).any(|&x| x != 0.0)
                || JointPassive::has_friction(&friction);
            let passive = has_passive.then(|| {
                c.passive.push(JointPassive {
                    stiffness,
                    damping,
                    friction,
                    friction_disk: disk_triple(&je.spec),
                });
                u32::try_from(c.passive.len() - 1).expect("fewer than 2^32 joints")
            });
            c.bodies.push(BodyModel {
                parent,
                kind,
                q_start: c.nq,
                v_start: c.nv,
                x_tree: PluckerTransform::from_pose(&base_in_parent),
                inertia: body_inertia,
                passive,
                reversed,
                leaf_inverse: None,
                any_prescribed: prescribed.iter().any(|p| *p),
            });
            let info = &mut joints[j];
            info.body = Some(b);
            info.q_range = c.nq..c.nq + kind.nq();
            info.v_range = c.nv..c.nv + kind.nv();
            let mut q = je.spec.q0.clone();
            if let Some(k) = kind.quaternion_offset() {
                let n = q[k..k + 4].iter().map(|x| x * x).sum::<f64>().sqrt();
                q[k..k + 4].iter_mut().for_each(|x| *x /= n);
                c.quaternion_offsets.push(c.nq + k);
            }
            c.q0.extend_from_slice(&q);
            c.v0.extend_from_slice(&je.spec.v0);
            c.nq += kind.nq();
            c.nv += kind.nv();
        }
        c.joints = joints;
        c.passive.shrink_to_fit();
        c
    }

    fn closed_loop(&self, j: JointId) -> MechanismError {
        self.cannot_close(
            j,
            "its two frames are on the same rigid body, so it cannot move: remove it or use a WeldJoint",
        )
    }

    fn cannot_close(&self, j: JointId, why: &str) -> MechanismError {
        let je = &self.joints[j];
        MechanismError::ClosedLoop {
            joint: je.label.clone(),
            base: self.labels[je.base].to_string(),
            follower: self.labels[je.follower].to_string(),
            why: why.to_string(),
        }
    }

    /// Checks that joint `j` can be a loop closure: revolute or spherical, without actuation or
    /// internal spring-damper (a closure has no coordinates to act on).
    fn check_cut(&self, j: JointId) -> Result<(), MechanismError> {
        let spec = &self.joints[j].spec;
        if !closes_loops(spec.kind) {
            return Err(self.cannot_close(
                j,
                "only a RevoluteJoint or SphericalJoint can close a loop: make a revolute or spherical joint of this loop the one that closes it (connect it last), or open the loop",
            ));
        }
        let passive = spec
            .stiffness
            .iter()
            .chain(&spec.damping)
            .any(|x| *x != 0.0)
            || !spec.friction.is_empty();
        if spec.actuated || passive || spec.motion.iter().any(|p| *p) {
            return Err(self.cannot_close(
                j,
                "the joint closing a loop cannot be actuated, driven by a motion input or have stiffness, damping or friction: move them to another joint of the loop",
            ));
        }
        Ok(())
    }
}

/// The offset of the rotational triple in the joint's velocity coordinates when its friction is
/// a disk.
fn disk_triple(spec: &JointSpec) -> Option<usize> {
    let nv = spec.kind.nv();
    (spec.friction_disk && !spec.friction.is_empty() && spec.kind.quaternion_offset().is_some())
        .then(|| nv - 3)
}

/// Whether a joint of this kind can close a loop (its closure rows are written).
fn closes_loops(kind: JointKind) -> bool {
    matches!(kind, JointKind::Revolute | JointKind::Spherical)
}

/// Two poses equal to round-off (1e-9 in rotation-matrix entries and in m, relative to the size).
fn poses_match(a: &Isometry3<f64>, b: &Isometry3<f64>) -> bool {
    let scale = 1.0 + a.translation.vector.norm().max(b.translation.vector.norm());
    (a.translation.vector - b.translation.vector).norm() <= 1e-9 * scale
        && a.rotation.angle_to(&b.rotation) <= 1e-9
}

fn validate_joint(j: &JointEntry) -> Result<(), MechanismError> {
    let kind = j.spec.kind;
    let bad = |what: String| MechanismError::BadJointSpec {
        joint: j.label.clone(),
        kind: kind.name(),
        what,
    };
    let s = &j.spec;
    if s.q0.len() != kind.nq() {
        return Err(bad(format!(
            "initial position has {} values; a {} joint needs {}",
            s.q0.len(),
            kind.name(),
            kind.nq()
        )));
    }
    if s.v0.len() != kind.nv() {
        return Err(bad(format!(
            "initial velocity has {} values; a {} joint needs {}",
            s.v0.len(),
            kind.name(),
            kind.nv()
        )));
    }
    for (name, values) in [("stiffness", &s.stiffness), ("damping", &s.damping)] {
        if !values.is_empty() && values.len() != kind.nv() {
            return Err(bad(format!(
                "{name} has {} values; give none or one per degree of freedom ({})",
                values.len(),
                kind.nv()
            )));
        }
        if values.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(bad(format!("{name} must be finite and non-negative")));
        }
    }
    super::joint_friction::check_laws(&s.friction, kind.nv()).map_err(bad)?;
    if s.friction_disk {
        super::joint_friction::check_disk(&s.friction, kind).map_err(bad)?;
    }
    if s.q0.iter().chain(s.v0.iter()).any(|x| !x.is_finite()) {
        return Err(bad("the initial state must be finite".to_string()));
    }
    if let Some(k) = kind.quaternion_offset() {
        let n = s.q0[k..k + 4].iter().map(|x| x * x).sum::<f64>().sqrt();
        if n < 1e-6 {
            return Err(bad(
                "the orientation quaternion [w, x, y, z] is zero; write e.g. [1, 0, 0, 0]".into(),
            ));
        }
    }
    Ok(())
}

fn validate_solid(s: &SolidEntry) -> Result<(), MechanismError> {
    let bad = |what: &str| MechanismError::BadSolid {
        solid: s.label.clone(),
        what: what.to_string(),
    };
    if !s.mass.is_finite() || s.mass < 0.0 {
        return Err(bad("mass must be finite and non-negative (kg)"));
    }
    if !s.com.iter().chain(s.inertia.iter()).all(|x| x.is_finite()) {
        return Err(bad("centre of mass and inertia must be finite"));
    }
    let asym = (s.inertia - s.inertia.transpose()).abs().max();
    if asym > 1e-9 * (1.0 + s.inertia.abs().max()) {
        return Err(bad("the inertia matrix must be symmetric"));
    }
    let eig = s.inertia.symmetric_eigenvalues();
    let tol = 1e-12 * (1.0 + s.inertia.abs().max());
    if eig.min() < -tol {
        return Err(bad("the inertia matrix must be positive semi-definite"));
    }
    Ok(())
}

/// The first body (leaves first) whose joint-space articulated inertia `D = Sᵀ IA S` is singular at
/// the initial configuration, if any: its smallest eigenvalue is at most 1e-12 × the largest entry
/// of IA (exactly zero for a massless subtree).
fn first_singular_body(m: &Mechanism) -> Option<BodyIndex> {
    let mut ws = Workspace::new(m);
    let zeros = vec![0.0; m.nv];
    kinematics_pass(m, &m.q0, &zeros, &mut ws);
    let n = m.bodies.len();
    for i in 1..n {
        ws.ia[i] = ArticulatedInertia::from(m.bodies[i].inertia);
    }
    for i in (1..n).rev() {
        let b = &m.bodies[i];
        let nv = b.kind.nv();
        let ia = ws.ia[i];
        let scale = ia.a.abs().max().max(ia.b.abs().max()).max(ia.c.abs().max());
        let s = &ws.s[b.v_start..b.v_start + nv];
        let u_cols: Vec<SpatialForce> = s.iter().map(|s| ia.mul_motion(s)).collect();
        // D padded with `scale` on the unused diagonal so the padding never looks singular.
        let mut d = Matrix6::from_diagonal_element(scale.max(1.0));
        for (j, sj) in s.iter().enumerate() {
            for (k, uk) in u_cols.iter().enumerate() {
                d[(j, k)] = sj.dot(uk);
            }
        }
        let smallest = d.symmetric_eigenvalues().min();
        if smallest <= 1e-12 * scale || !smallest.is_finite() {
            return Some(i);
        }
        if b.parent != 0 {
            let Some(d_inv) = d.try_inverse() else {
                return Some(i);
            };
            let mut ia_a = ia;
            for (k, uk) in u_cols.iter().enumerate() {
                // W_k = Σ_j U_j D⁻¹_jk ; IA −= Σ_k U_k W_kᵀ.
                let w_k = u_cols
                    .iter()
                    .enumerate()
                    .fold(SpatialForce::ZERO, |acc, (j, uj)| acc + *uj * d_inv[(j, k)]);
                ia_a.sub_outer(uk, &w_k);
            }
            let contribution = ia_a.to_parent(&ws.x_up[i]);
            ws.ia[b.parent] += contribution;
        }
    }
    None
}
