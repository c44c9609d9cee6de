//! The two sides of each weld joint inside its merged rigid body, and the wrench through it.
//!
//! A weld folds its two frames into one rigid body (see [`network`](super::network)), so the
//! dynamics never see it. Its reaction is the wrench the *base side* exerts on the *follower side*
//! through it: cut the weld's own edge in the graph of rigid connections (`--` connections, rigid
//! transforms, welds) of its body; the frames still connected to the weld's follower frame F are
//! the follower side. The follower side's parts obey Newton–Euler:
//!
//! ```text
//! f_weld = I_F a + v ×* I_F v − f_applied,F + Σ_{c on F's side} c_X_i* f_c − [inbound on F's side] f_i
//! ```
//!
//! in the body's frame i, about its origin: `I_F` the follower side's solids' spatial inertia,
//! `a` (with the base's fictitious −g) and `v` the body's spatial acceleration and velocity,
//! `f_applied,F` the applied wrenches (user wrenches, contacts, loop closures) acting on
//! follower-side frames, `f_c` the wrench body i exerts on each tree child `c` whose joint is
//! attached to a follower-side frame (RNEA's backward pass, `ws.pa[c]`), and `f_i` the wrench the
//! parent exerts on body i when body i's inbound joint attaches on the follower side.
//!
//! The sum is taken over the side *without* the body's anchor — its inbound joint, or for the
//! World body the World frame (whose support is unknown) — so the `f_i` term never occurs: when
//! the anchor is on the follower side, the base side's wrench (the same sum over the base side's
//! parts) is what the follower side exerts on it, and the reaction is its negative (B and F
//! coincide, so no moment shift). The result is moved to F's origin and resolved in F, B or
//! World.
//!
//! When the weld lies on a cycle of rigid connections, cutting it leaves its two sides connected:
//! the split of load between the weld and the other path is statically indeterminate, and the
//! reaction is refused ([`WeldSplit::side`] is `None`).
//!
//! The sides are found once at build time by one depth-first search over all frames (bridges of
//! the rigid-connection graph, Tarjan's low-link): a weld that is a bridge splits its group into a
//! DFS subtree — a contiguous range of preorder numbers — and the rest, so a side test is two
//! comparisons.

use super::mechanism::{BodyIndex, FrameId, JointId, Mechanism, WORLD_BODY};
use super::reaction::ReactionFrame;
use super::spatial::{PluckerTransform, SpatialForce, SpatialInertia, SpatialMotion};
pub(crate) use super::weld_split::{WeldSide, WeldSplit};
use super::workspace::Workspace;
use nalgebra::{Isometry3, Vector3};
use std::ops::Range;

/// The DFS numbering of the rigid-connection graph: per frame its preorder number and, per
/// edge, whether it is a bridge and the (preorder) range of the subtree it leads into.
struct RigidDfs {
    /// Preorder number of each frame (numbered group by group: each group is a contiguous range).
    pre: Vec<usize>,
    /// Per group (in the order its first frame was reached): its preorder range.
    group_range: Vec<Range<usize>>,
    /// Per edge: `Some((child frame, subtree range))` when the edge is a bridge of the DFS tree.
    bridge: Vec<Option<(FrameId, Range<usize>)>>,
    /// Each frame's group (the index into `group_range`).
    group_of: Vec<usize>,
}

/// Numbers the frames of the graph with `nf` frames and `edges` (each an unordered pair) by an
/// iterative depth-first search and finds its bridges (Tarjan's low-link; parallel edges and
/// self-loops are cycles).
fn rigid_dfs(nf: usize, edges: &[(FrameId, FrameId)]) -> RigidDfs {
    const UNSEEN: usize = usize::MAX;
    let mut adjacency: Vec<Vec<(FrameId, usize)>> = vec![Vec::new(); nf];
    for (e, &(a, b)) in edges.iter().enumerate() {
        adjacency[a].push((b, e));
        if a != b {
            adjacency[b].push((a, e));
        }
    }
    let mut pre = vec![UNSEEN; nf];
    let mut low = vec![0; nf];
    let mut end = vec![0; nf];
    let mut bridge = vec![None; edges.len()];
    let mut group_range = Vec::new();
    let mut group_of = vec![0; nf];
    let mut counter = 0;
    // (frame, edge it was reached by, next adjacency index)
    let mut stack: Vec<(FrameId, usize, usize)> = Vec::new();
    for root in 0..nf {
        if pre[root] != UNSEEN {
            continue;
        }
        let start = counter;
        let g = group_range.len();
        pre[root] = counter;
        low[root] = counter;
        group_of[root] = g;
        counter += 1;
        stack.push((root, usize::MAX, 0));
        while let Some(top) = stack.last_mut() {
            let (f, via, k) = *top;
            if let Some(&(other, e)) = adjacency[f].get(k) {
                top.2 += 1;
                if e == via {
                    continue;
                }
                if pre[other] == UNSEEN {
                    pre[other] = counter;
                    low[other] = counter;
                    group_of[other] = g;
                    counter += 1;
                    stack.push((other, e, 0));
                } else {
                    low[f] = low[f].min(pre[other]);
                }
                continue;
            }
            stack.pop();
            end[f] = counter;
            if let Some(&(parent, _, _)) = stack.last() {
                low[parent] = low[parent].min(low[f]);
                if low[f] > pre[parent] {
                    bridge[via] = Some((f, pre[f]..end[f]));
                }
            }
        }
        group_range.push(start..counter);
    }
    RigidDfs {
        pre,
        group_range,
        bridge,
        group_of,
    }
}

impl RigidDfs {
    /// The follower side of the weld that is edge `edge` with follower frame `follower`, without
    /// its mass properties and attachments (see [`WeldSide`]); `None` if it lies on a cycle.
    fn side(&self, edge: usize, follower: FrameId) -> Option<WeldSide> {
        let (child, subtree) = self.bridge[edge].clone()?;
        Some(WeldSide {
            group: self.group_range[self.group_of[follower]].clone(),
            subtree,
            inside: child == follower,
            inertia: SpatialInertia::ZERO,
            children: Vec::new(),
            negate: false,
        })
    }
}

/// What [`weld_splits`] needs of the frame network being built.
pub(crate) struct WeldNetwork<'a> {
    /// Number of frames.
    pub num_frames: usize,
    /// The `--` connections and rigid transforms (frame pairs).
    pub rigid: &'a [(FrameId, FrameId)],
    /// The weld joints: (joint, base frame, follower frame), in joint order.
    pub welds: &'a [(JointId, FrameId, FrameId)],
    /// The solids: (frame, spatial inertia in that frame).
    pub solids: &'a [(FrameId, SpatialInertia)],
    /// Per body: the frame its inbound joint attaches to on the parent's side (`None` for World).
    pub parent_side: &'a [Option<FrameId>],
    /// Per frame: its body and its pose in the body's frame.
    pub frame_placements: &'a [(BodyIndex, Isometry3<f64>)],
    /// Per body: its reference frame (the World frame for body 0).
    pub ref_frame: &'a [FrameId],
}

/// Each weld's split of its body, in joint order, and the frames' preorder numbers the splits
/// refer to.
pub(crate) fn weld_splits(n: &WeldNetwork) -> (Vec<WeldSplit>, Vec<usize>) {
    let mut edges = n.rigid.to_vec();
    let first_weld_edge = edges.len();
    edges.extend(n.welds.iter().map(|&(_, b, f)| (b, f)));
    let dfs = rigid_dfs(n.num_frames, &edges);
    let splits = (n.welds.iter().enumerate())
        .map(|(k, &(joint, _, follower))| {
            let (body, follower_in_body) = n.frame_placements[follower];
            let side = dfs
                .side(first_weld_edge + k, follower)
                .map(|side| summed_side(n, &dfs, body, side));
            WeldSplit {
                joint,
                body,
                follower_in_body,
                side,
            }
        })
        .collect();
    (splits, dfs.pre)
}

/// The side without `body`'s anchor (see the module docs), with its solids' inertia and the tree
/// children attached to it.
fn summed_side(n: &WeldNetwork, dfs: &RigidDfs, body: BodyIndex, mut side: WeldSide) -> WeldSide {
    if side.holds(dfs.pre[n.ref_frame[body]]) {
        side.flip();
    }
    let holds = |f: FrameId| side.holds(dfs.pre[f]);
    let mut inertia = SpatialInertia::ZERO;
    for (frame, in_frame) in n.solids.iter().filter(|s| holds(s.0)) {
        // body_X_frame, as for the body's own inertia.
        let x = PluckerTransform::from_pose(&n.frame_placements[*frame].1.inverse());
        inertia = inertia + in_frame.transform(&x);
    }
    let children = (1..n.parent_side.len())
        .filter(|&c| n.parent_side[c].is_some_and(|f| n.frame_placements[f].0 == body && holds(f)))
        .collect();
    side.inertia = inertia;
    side.children = children;
    side
}

impl Mechanism {
    /// The split of weld joint `j`, if `j` is a weld.
    pub(crate) fn weld_split(&self, j: JointId) -> Option<&WeldSplit> {
        let k = self.welds.binary_search_by_key(&j, |w| w.joint).ok()?;
        Some(&self.welds[k])
    }

    /// Whether weld joint `j`'s reaction is statically indeterminate (it lies on a cycle of rigid
    /// connections); false for every other joint.
    pub fn weld_on_rigid_cycle(&self, j: JointId) -> bool {
        self.weld_split(j).is_some_and(|w| w.side.is_none())
    }

    /// Whether `frame` is on the side of weld joint `j` whose wrenches its reaction sums (the
    /// side without the body's inbound joint, or without the World frame on the World body;
    /// false when `j` is not a weld or lies on a rigid cycle).
    pub(crate) fn on_weld_summed_side(&self, j: JointId, frame: FrameId) -> bool {
        let side = self.weld_split(j).and_then(|w| w.side.as_ref());
        side.is_some_and(|s| s.holds(self.frame_preorder[frame]))
    }
}

/// The reaction of weld `split` (see the module docs) as (force N, torque N·m about F's origin)
/// resolved in `frame`; `None` when it lies on a rigid cycle. `ws` must hold an
/// [`inverse_dynamics`](super::inverse_dynamics) call's backward pass, `applied` the sum of the
/// wrenches applied to the summed side's frames ([`Mechanism::on_weld_summed_side`];
/// World-resolved, about the World origin).
/// Does not allocate.
pub(crate) fn weld_reaction(
    m: &Mechanism,
    ws: &Workspace,
    split: &WeldSplit,
    applied: &SpatialForce,
    frame: ReactionFrame,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    let side = split.side.as_ref()?;
    let i = split.body;
    let (a, v) = if i == WORLD_BODY {
        (
            SpatialMotion::new(Vector3::zeros(), -m.gravity),
            SpatialMotion::ZERO,
        )
    } else {
        (ws.a[i], ws.v[i])
    };
    let x_world = &ws.x_world[i];
    let inertia = &side.inertia;
    let mut f = inertia.mul_motion(&a) + v.cross_force(&inertia.mul_motion(&v));
    f -= x_world.apply_force(applied);
    for &c in &side.children {
        f += ws.x_up[c].inv_apply_force(&ws.pa[c]);
    }
    if side.negate {
        f = -f;
    }
    // To F's origin, resolved in F (B coincides with F).
    let f_f = PluckerTransform::from_pose(&split.follower_in_body).apply_force(&f);
    let rot = match frame {
        ReactionFrame::Follower | ReactionFrame::Base => nalgebra::Matrix3::identity(),
        ReactionFrame::World => {
            x_world.rot.transpose()
                * split
                    .follower_in_body
                    .rotation
                    .to_rotation_matrix()
                    .matrix()
        }
    };
    Some((rot * f_f.f, rot * f_f.n))
}
