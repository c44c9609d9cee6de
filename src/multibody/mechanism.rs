//! The compiled kinematic tree: bodies, their inbound joints and inertias.
//!
//! Built by [`FrameNetworkBuilder::build`](super::network::FrameNetworkBuilder::build); immutable
//! during a run. Body 0 is the World body (its frame is the World frame); bodies are numbered so that
//! every parent precedes its children. Each other body's reference frame is the follower frame F of
//! its inbound joint (its base frame B when the joint is connected the other way round, follower
//! toward the World). q and v are the concatenation of the joints' coordinates in body order.

use super::joint::{joint_qdot, JointKind};
use super::labels::Labels;
use super::spatial::{PluckerTransform, SpatialInertia};
use crate::contact::friction::FrictionLaw;
use nalgebra::{Isometry3, Matrix3, Vector3};
use std::ops::Range;

pub use super::ids::{BodyIndex, FrameId, JointId, WORLD_BODY};

/// One non-World body of the tree with its inbound joint (hot data of the dynamics loops).
#[derive(Clone, Debug)]
pub(crate) struct BodyModel {
    /// Parent body (< this body's index).
    pub parent: BodyIndex,
    /// Inbound joint kind (never Weld).
    pub kind: JointKind,
    /// First position coordinate of the inbound joint in q.
    pub q_start: usize,
    /// First velocity coordinate of the inbound joint in v.
    pub v_start: usize,
    /// `B_X_parent`: from the parent body frame to the joint's base frame B.
    pub x_tree: PluckerTransform,
    /// The body's spatial inertia in its own frame (sum of its solids).
    pub inertia: SpatialInertia,
    /// The inbound joint's spring, damper and friction laws, when any stiffness or damping is
    /// non-zero or any axis has friction: their index in [`Mechanism::passive`].
    pub passive: Option<u32>,
    /// True if the joint is connected with its follower frame on the parent side: the body's
    /// frame is then the joint's base frame B and the joint motion is inverted.
    pub reversed: bool,
    /// For a body without children and with positive-definite inertia: the index in
    /// [`Mechanism::leaf_inverses`] of its inverse inertia's closed form.
    pub leaf_inverse: Option<u32>,
    /// True if any dof of the inbound joint is prescribed (which: [`Mechanism::prescribed`] from
    /// `v_start`; see [`super::prescribed`]).
    pub any_prescribed: bool,
}

/// Every frame's body and pose in it, each distinct placement stored once: the two ports a `--`
/// connection joins are two frames at one placement, and a 20,000-joint URDF chain has 220,000
/// frames (64 bytes each, 14 MB) at about half as many placements.
#[derive(Clone, Debug, Default)]
pub(crate) struct FramePlacements {
    /// Per frame: the index of its placement in `placements`.
    of_frame: Vec<u32>,
    /// The distinct placements (body, pose in its reference frame).
    placements: Vec<(BodyIndex, Isometry3<f64>)>,
}

impl FramePlacements {
    /// The placements of frames `0..count`, frame f's `placement(f)`, equal ones (bit for bit)
    /// stored once. A function, not a slice: the network's build reads them from its own
    /// tables without a vector of them all (14 MB at 220,000 frames).
    pub(crate) fn new(
        count: usize,
        placement: impl Fn(FrameId) -> (BodyIndex, Isometry3<f64>),
    ) -> Self {
        let bits = |f: u32| {
            let (body, pose) = placement(f as usize);
            let (t, q) = (pose.translation.vector, pose.rotation.coords);
            (body, [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map(f64::to_bits))
        };
        let n = u32::try_from(count).expect("fewer than 2^32 frames");
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_unstable_by_key(|&f| bits(f));
        let mut of_frame = vec![0; count];
        let mut placements = Vec::new();
        let mut last = None;
        for f in order {
            let key = bits(f);
            if last != Some(key) {
                placements.push(placement(f as usize));
                last = Some(key);
            }
            of_frame[f as usize] = (placements.len() - 1) as u32;
        }
        placements.shrink_to_fit();
        FramePlacements {
            of_frame,
            placements,
        }
    }

    /// Frame `frame`'s body and pose in that body's reference frame.
    #[inline]
    pub(crate) fn get(&self, frame: FrameId) -> (BodyIndex, Isometry3<f64>) {
        self.placements[self.of_frame[frame] as usize]
    }
}

/// A joint's spring, damper and friction laws per dof, kept in [`Mechanism::passive`] for the
/// bodies whose inbound joint has any ([`BodyModel::passive`]): inline in every body they were
/// 300 bytes of its 650, most often all zero (a URDF chain without `<dynamics>`).
#[derive(Clone, Debug)]
pub(crate) struct JointPassive {
    /// Spring stiffness per dof of the inbound joint.
    pub stiffness: [f64; 6],
    /// Damping per dof of the inbound joint.
    pub damping: [f64; 6],
    /// Friction law per dof of the inbound joint ([`FrictionLaw::None`] where there is none;
    /// see [`joint_friction`](super::joint_friction)).
    pub friction: [FrictionLaw; 6],
    /// With disk friction ([`JointSpec::friction_disk`](super::joint::JointSpec)): the offset
    /// of the rotational triple in the joint's velocity coordinates.
    pub friction_disk: Option<usize>,
}

/// A leaf body's articulated inertia is its rigid inertia, whose inverse has a closed form
/// `(1/m, c, I_c⁻¹)`: `c` the centre of mass and `I_c⁻¹` the inverse rotational inertia about it
/// (body frame). Kept in [`Mechanism::leaf_inverses`] ([`BodyModel::leaf_inverse`]).
pub(crate) type LeafInverse = (f64, Vector3<f64>, Matrix3<f64>);

/// Per-joint bookkeeping (for every `JointId`, welds included).
#[derive(Clone, Debug)]
pub(crate) struct JointInfo {
    pub kind: JointKind,
    /// The body this joint moves (its follower body); `None` for welds.
    pub body: Option<BodyIndex>,
    pub q_range: Range<usize>,
    pub v_range: Range<usize>,
}

/// A joint that closes a kinematic loop (a *cut* joint): it has no coordinates of its own; its
/// motion constraints are loop-closure rows solved with the rigid contacts (see
/// [`crate::multibody::rigid`]).
#[derive(Clone, Debug)]
pub struct CutJoint {
    /// The joint.
    pub joint: JointId,
    /// Its kind (revolute or spherical).
    pub kind: JointKind,
    /// The body of its base frame B and B's pose in that body.
    pub base: (BodyIndex, Isometry3<f64>),
    /// The body of its follower frame F and F's pose in that body.
    pub follower: (BodyIndex, Isometry3<f64>),
    /// Its base and follower frames' handles.
    pub frames: (FrameId, FrameId),
}

/// A rigid-body mechanism: a kinematic tree rooted at the World body. See the module docs.
#[derive(Clone, Debug)]
pub struct Mechanism {
    /// Index 0 is a placeholder for the World body (never read by the algorithms).
    pub(crate) bodies: Vec<BodyModel>,
    /// Each body's label ([`Mechanism::body_label`]), as one text: a `String` a body and a
    /// joint was ~2 MB and 40,000 allocations of a 20,000-joint chain's diagram.
    pub(crate) body_labels: Labels,
    pub(crate) joints: Vec<JointInfo>,
    /// Each joint's label ([`Mechanism::joint_label`]), as one text.
    pub(crate) joint_labels: Labels,
    /// The frames' placements, each distinct one once ([`FramePlacements`]).
    pub(crate) frame_placements: FramePlacements,
    pub(crate) gravity: Vector3<f64>,
    pub(crate) nq: usize,
    pub(crate) nv: usize,
    pub(crate) q0: Vec<f64>,
    pub(crate) v0: Vec<f64>,
    /// (q offset) of every quaternion in q.
    pub(crate) quaternion_offsets: Vec<usize>,
    /// Joints that close loops.
    pub(crate) cuts: Vec<CutJoint>,
    /// The inbound joint of each body (`None` for the World body).
    pub(crate) body_joints: Vec<Option<JointId>>,
    /// Per velocity coordinate: whether it is prescribed (see [`super::prescribed`]).
    pub(crate) prescribed: Vec<bool>,
    /// True if any coordinate is prescribed.
    pub(crate) has_prescribed: bool,
    /// Each weld joint's split of its body, in joint order (see [`super::weld`]).
    pub(crate) welds: Vec<super::weld_split::WeldSplit>,
    /// Each frame's preorder number in the rigid-connection graph (empty without welds).
    pub(crate) frame_preorder: Vec<usize>,
    /// The passive laws of the joints that have any (see [`BodyModel::passive`]).
    pub(crate) passive: Vec<JointPassive>,
    /// The leaf bodies' inverse inertias (see [`BodyModel::leaf_inverse`]).
    pub(crate) leaf_inverses: Vec<LeafInverse>,
}

impl Mechanism {
    /// Number of position coordinates.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// Number of velocity coordinates (degrees of freedom).
    pub fn nv(&self) -> usize {
        self.nv
    }

    /// Number of bodies, the World body included.
    pub fn num_bodies(&self) -> usize {
        self.bodies.len()
    }

    /// Number of joints given to the builder (welds included).
    pub fn num_joints(&self) -> usize {
        self.joints.len()
    }

    /// Gravity resolved in the World frame (m/s²).
    pub fn gravity(&self) -> Vector3<f64> {
        self.gravity
    }

    /// Which body a frame belongs to and the frame's pose in that body's reference frame.
    /// Frames of the World body have body index [`WORLD_BODY`] and their pose in the World frame.
    ///
    /// # Panics
    /// If `frame` is not a handle of the builder that made this mechanism.
    pub fn frame_placement(&self, frame: FrameId) -> (BodyIndex, Isometry3<f64>) {
        self.frame_placements.get(frame)
    }

    /// The parent of body `b` (`None` for the World body).
    pub fn parent(&self, b: BodyIndex) -> Option<BodyIndex> {
        (b != WORLD_BODY).then(|| self.bodies[b].parent)
    }

    /// A label for body `b` (the label of its reference frame; "World" for body 0).
    pub fn body_label(&self, b: BodyIndex) -> &str {
        &self.body_labels[b]
    }

    /// The spatial inertia of body `b` in its own frame (sum of the solids attached to it).
    pub fn body_inertia(&self, b: BodyIndex) -> SpatialInertia {
        if b == WORLD_BODY {
            SpatialInertia::ZERO
        } else {
            self.bodies[b].inertia
        }
    }

    /// The body a joint moves (its follower body); `None` for a weld (folded) joint.
    pub fn joint_body(&self, j: JointId) -> Option<BodyIndex> {
        self.joints[j].body
    }

    /// The kind of joint `j`.
    pub fn joint_kind(&self, j: JointId) -> JointKind {
        self.joints[j].kind
    }

    /// The label joint `j` was added with.
    pub fn joint_label(&self, j: JointId) -> &str {
        &self.joint_labels[j]
    }

    /// The joints that close kinematic loops (no coordinates: loop-closure constraints).
    pub fn cut_joints(&self) -> &[CutJoint] {
        &self.cuts
    }

    /// The index in [`cut_joints`](Self::cut_joints) of joint `j`, if it closes a loop.
    pub fn cut_of(&self, j: JointId) -> Option<usize> {
        self.cuts.iter().position(|c| c.joint == j)
    }

    /// The sizes (nq, nv) of joint `j`'s state as its block sees it: its coordinates, or for a
    /// cut joint the relative motion of its frames, of the same sizes.
    pub fn joint_state_sizes(&self, j: JointId) -> (usize, usize) {
        let kind = self.joints[j].kind;
        match self.cut_of(j) {
            Some(_) => (kind.nq(), kind.nv()),
            None => (self.joints[j].q_range.len(), self.joints[j].v_range.len()),
        }
    }

    /// The position coordinates of joint `j` in q (empty for welds and cut joints).
    pub fn joint_q_range(&self, j: JointId) -> Range<usize> {
        self.joints[j].q_range.clone()
    }

    /// The velocity coordinates of joint `j` in v (and in τ, v̇); empty for welds.
    pub fn joint_v_range(&self, j: JointId) -> Range<usize> {
        self.joints[j].v_range.clone()
    }

    /// The joint whose coordinates hold coordinate `index` of v (`velocity`) or q, and the
    /// coordinate's place among them; `None` past the end. By bisection (q and v are in body
    /// order): naming every state of a 20,000-joint chain stays linear.
    pub fn coordinate_joint(&self, index: usize, velocity: bool) -> Option<(JointId, usize)> {
        let span = |b: &BodyModel| {
            if velocity {
                (b.v_start, b.kind.nv())
            } else {
                (b.q_start, b.kind.nq())
            }
        };
        let bodies = self.bodies.get(1..)?;
        let k = bodies
            .partition_point(|b| span(b).0 <= index)
            .checked_sub(1)?;
        let (start, len) = span(&bodies[k]);
        if index >= start + len {
            return None;
        }
        Some((
            self.body_joints.get(k + 1).copied().flatten()?,
            index - start,
        ))
    }

    /// Writes the initial state given in the joints' specs (`q` has `nq` values, `v` `nv`).
    pub fn initial_state(&self, q: &mut [f64], v: &mut [f64]) {
        q.copy_from_slice(&self.q0);
        v.copy_from_slice(&self.v0);
    }

    /// Per velocity coordinate: whether it is prescribed (driven by a motion input).
    pub fn prescribed(&self) -> &[bool] {
        &self.prescribed
    }

    /// The passive laws of body `b`'s inbound joint, if it has any.
    #[inline]
    pub(crate) fn passive_of(&self, b: &BodyModel) -> Option<&JointPassive> {
        b.passive.map(|p| &self.passive[p as usize])
    }

    /// Body `b`'s inverse inertia if it is a leaf (see [`LeafInverse`]).
    #[inline]
    pub(crate) fn leaf_inverse_of(&self, b: &BodyModel) -> Option<&LeafInverse> {
        b.leaf_inverse.map(|l| &self.leaf_inverses[l as usize])
    }

    /// Whether any velocity coordinate is prescribed.
    pub fn has_prescribed(&self) -> bool {
        self.has_prescribed
    }

    /// The q offsets of all quaternions [w, x, y, z] in q (Spherical and SixDof joints).
    pub fn quaternion_offsets(&self) -> &[usize] {
        &self.quaternion_offsets
    }
}

/// `q̇` from `(q, v)` (quaternion kinematics `Q̇ = ½ Q ⊗ (0, ω)` for quaternion joints, `q̇ = v`
/// otherwise). With the state `x = [q; v]`, `ẋ = [q̇; v̇]`.
pub fn qdot_from_v(m: &Mechanism, q: &[f64], v: &[f64], qdot: &mut [f64]) {
    qdot_from_v_of_bodies(m, q, v, qdot, None);
}

/// [`qdot_from_v`] for the joints of the bodies marked in `bodies` (indexed by body; all when
/// `None`): the other entries of `qdot` keep their values.
pub fn qdot_from_v_of_bodies(
    m: &Mechanism,
    q: &[f64],
    v: &[f64],
    qdot: &mut [f64],
    bodies: Option<&[bool]>,
) {
    for (i, b) in m.bodies.iter().enumerate().skip(1) {
        if bodies.is_some_and(|mask| !mask[i]) {
            continue;
        }
        let (nq, nv) = (b.kind.nq(), b.kind.nv());
        joint_qdot(
            b.kind,
            &q[b.q_start..b.q_start + nq],
            &v[b.v_start..b.v_start + nv],
            &mut qdot[b.q_start..b.q_start + nq],
        );
    }
}

/// Rescales every quaternion in `q` to unit length.
///
/// Integrating `Q̇ = ½ Q ⊗ (0, ω)` keeps |Q| = 1 only up to the integrator's error, so the
/// engine applies this projection to the state after each accepted step (never inside a step: the
/// dynamics themselves accept non-unit quaternions, using the rotation `Q/|Q|`). A zero quaternion
/// (only reachable through a corrupt state) is reset to the identity.
/// How far |q|² of a quaternion state may be from 1 before [`project_quaternions`] normalizes it:
/// a few round-offs (normalizing leaves |q|² within about 4ε of 1 itself). Much less than any
/// tolerance a run can be given, and the rotation a quaternion this close to unit length stands for
/// differs from its normalized one's by as little.
pub const QUATERNION_NORM_SLACK: f64 = 16.0 * f64::EPSILON;

/// Normalizes the quaternion states that are off unit length by more than
/// [`QUATERNION_NORM_SLACK`] (and resets non-finite or zero ones to the identity); returns whether
/// any changed. The projection after each accepted step: a state it leaves bit for bit as it was
/// keeps the outputs the solver's last evaluation computed at it (the step's end row reuses them).
pub fn project_quaternions(m: &Mechanism, q: &mut [f64]) -> bool {
    let mut changed = false;
    for &k in &m.quaternion_offsets {
        let n2 = q[k] * q[k] + q[k + 1] * q[k + 1] + q[k + 2] * q[k + 2] + q[k + 3] * q[k + 3];
        if (n2 - 1.0).abs() <= QUATERNION_NORM_SLACK {
            continue;
        }
        let n = n2.sqrt();
        if n > 0.0 && n.is_finite() {
            for x in &mut q[k..k + 4] {
                *x /= n;
            }
        } else {
            q[k..k + 4].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        }
        changed = true;
    }
    changed
}

/// Scales every quaternion of `q` (free and spherical joints) to unit length; one of zero or
/// non-finite length becomes the identity.
pub fn normalize_quaternions(m: &Mechanism, q: &mut [f64]) {
    for &k in &m.quaternion_offsets {
        let n =
            (q[k] * q[k] + q[k + 1] * q[k + 1] + q[k + 2] * q[k + 2] + q[k + 3] * q[k + 3]).sqrt();
        if n > 0.0 && n.is_finite() {
            for x in &mut q[k..k + 4] {
                *x /= n;
            }
        } else {
            q[k..k + 4].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FramePlacements;
    use nalgebra::{Isometry3, Vector3};

    /// Each frame gets back its own placement; equal ones (same body, same pose bit for bit)
    /// are stored once, and the same pose on another body or -0.0 against 0.0 are not equal.
    #[test]
    fn frame_placements_store_each_distinct_placement_once() {
        let a = Isometry3::new(Vector3::new(0.0, 0.0, 0.01), Vector3::new(0.0, 0.3, 0.0));
        let b = Isometry3::new(Vector3::new(-0.0, 0.0, 0.01), Vector3::new(0.0, 0.3, 0.0));
        let all = [
            (1, a),
            (2, a),
            (1, a),
            (0, Isometry3::identity()),
            (1, b),
            (2, a),
        ];
        let placements = FramePlacements::new(all.len(), |f| all[f]);
        for (f, placement) in all.iter().enumerate() {
            assert_eq!(placements.get(f), *placement, "frame {f}");
        }
        assert_eq!(placements.placements.len(), 4);
    }
}
