//! Joint motion inputs and the `actuator_force` and `reaction` outputs (issue 31).
//!
//! `motion = "input"`: inputs `q_ref`, `w_ref`, `a_ref` (one element per degree of freedom; m or
//! rad, m/s or rad/s, m/s² or rad/s²) make the prescribed coordinates follow them exactly.
//! `motion = "input_filtered"`: input `q_ref` only, through the critically damped filter
//! `1/(τ s + 1)²` (`τ = motion_filter`, s) whose two states per axis `x`, `ẋ` belong to the
//! joint and start at rest at `q_ref(0)`:
//!
//! ```text
//! q = x,   w = ẋ,   a = ẍ = (q_ref − x − 2 τ ẋ) / τ²
//! ```
//!
//! Either way the joint sends `[q; w; a]` to the mechanism through a hidden output (see
//! `mechanism_drive.rs`). `motion_axes` (multi-axis joints) says which axes are prescribed; the
//! others stay free (forces).
//!
//! Quaternion joints (spherical, six-dof): the rotational triple is prescribed whole or not at
//! all. Its `q_ref` is the rotation vector φ (rad) of F in B, its `w_ref` and `a_ref` the joint's
//! own velocity coordinates, ω and ω̇ (F relative to B, resolved in F; rad/s, rad/s²). Filtered,
//! the filter's states are φ and φ̇, mapped to ω, ω̇ by SO(3)'s right Jacobian
//! ([`crate::multibody::rotation_vector`]).

use crate::block::{Ctx, HiddenPort, Param, PortDecl, Shape};
use crate::multibody::rotation_vector::body_rates;
use crate::multibody::{JointKind, ReactionFrame};
use crate::param;
use crate::params::{ParamError, ParamValue, Params};
use nalgebra::Vector3;

/// How a joint's coordinates are driven.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum MotionMode {
    /// By `q_ref`, `w_ref`, `a_ref` exactly.
    Input,
    /// By `q_ref` through the filter `1/(τ s + 1)²` of this time constant τ (s).
    Filtered(f64),
}

/// A joint's motion inputs: the mode and the prescribed axes (nv flags).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct MotionSpec {
    pub mode: MotionMode,
    pub axes: Vec<bool>,
}

pub(super) const MOTION: Param<&str> = param!(
    "motion",
    "",
    "none",
    "\"none\", \"input\" (adds inputs q_ref, w_ref, a_ref: the coordinates follow them exactly) or \"input_filtered\" (adds q_ref only, filtered by 1/(τs + 1)² from rest at q_ref(0))"; one_of["none", "input", "input_filtered"],
);
pub(super) const MOTION_FILTER: Param<f64> = param!(
    "motion_filter",
    "s",
    0.01,
    "time constant τ of the filter of motion = \"input_filtered\""; positive,
);
pub(super) const MOTION_AXES: crate::block::ParamDoc = crate::block::ParamDoc {
    name: "motion_axes",
    unit: "",
    default: "all true",
    doc: "which axes the motion input prescribes (one boolean per degree of freedom); q_ref keeps one element per degree of freedom, the free axes' ignored, and the free axes take forces (actuation)",
};
/// The documented parameters of motion and reaction (scalar joints).
pub(super) const SCALAR_PARAMS: [crate::block::ParamDoc; 3] =
    [MOTION.doc, MOTION_FILTER.doc, REACTION_FRAME.doc];
/// The documented ports of motion and reaction.
pub(super) const PORTS: [crate::block::PortDoc; 5] = [
    port_doc("q_ref", "input", "position reference, one per degree of freedom (motion = \"input\" or \"input_filtered\")"),
    port_doc("w_ref", "input", "velocity reference (motion = \"input\")"),
    port_doc("a_ref", "input", "acceleration reference (motion = \"input\")"),
    port_doc("actuator_force", "output", "force/torque per axis the actuator supplies: on a driven axis what the motion requires on top of the joint's spring, damper and friction; on a force-driven axis the input t (with motion or actuation)"),
    REACTION,
];
/// The documented motion inputs of the quaternion joints (spherical, six-dof).
pub(super) const QUATERNION_PORTS: [crate::block::PortDoc; 3] = [
    port_doc("q_ref", "input", "position reference, one per degree of freedom: [position of F in B (m, six-dof only);] rotation vector φ = θ·n of F in B (rad: the rotation by θ about the unit axis n); the rotation axes are driven together (motion = \"input\" or \"input_filtered\")"),
    port_doc("w_ref", "input", "velocity reference (motion = \"input\"): [velocity of F's origin in B (m/s, six-dof only);] angular velocity ω of F relative to B, resolved in F (rad/s; not dφ/dt)"),
    port_doc("a_ref", "input", "acceleration reference (motion = \"input\"): [acceleration in B (m/s², six-dof only);] ω̇, the rate of ω's components in F (rad/s²)"),
];
/// The `reaction` output's documentation.
pub(super) const REACTION: crate::block::PortDoc = crate::block::PortDoc {
    name: "reaction",
    kind: "output",
    shape: "6×1",
    unit: "N, N·m",
    doc: "[force; torque]: the wrench the base side exerts on the follower side through the joint, the torque about F's origin, resolved in reaction_frame",
};

/// The weld's `reaction` output's documentation.
pub(super) const WELD_REACTION: crate::block::PortDoc = crate::block::PortDoc {
    name: "reaction",
    kind: "output",
    shape: "6×1",
    unit: "N, N·m",
    doc: "[force; torque]: the wrench the base side exerts on the follower side through the weld (the parts rigidly connected to F once the weld is cut), the torque about F's origin, resolved in reaction_frame (B coincides with F); refused when the weld lies on a cycle of rigid connections (statically indeterminate); NaN when a rigid contact joins two parts of the welded body (a rigid contact with one side on it counts on the part its geometry is on)",
};

const fn port_doc(
    name: &'static str,
    kind: &'static str,
    doc: &'static str,
) -> crate::block::PortDoc {
    crate::block::PortDoc {
        name,
        kind,
        shape: "n×1",
        unit: "m, rad (/s, /s²); N, N·m",
        doc,
    }
}
pub(super) const REACTION_FRAME: Param<&str> = param!(
    "reaction_frame",
    "",
    "follower",
    "frame the reaction output is resolved in: \"follower\", \"base\" or \"world\" (its moment is about F's origin)"; one_of["follower", "base", "world"],
);

/// Reads `motion`, `motion_filter` and `motion_axes`; `None` without motion. Refuses a quaternion
/// joint's rotation axes driven in part, and initial values written on driven axes (the input
/// defines them).
pub(super) fn read_motion(p: &Params, kind: JointKind) -> Result<Option<MotionSpec>, ParamError> {
    let mode = MOTION.read(p)?;
    let tau = MOTION_FILTER.read(p)?;
    let axes_written = p.value("motion_axes");
    if mode == "none" {
        if axes_written.is_some() {
            return Err(p
                .error("motion_axes", "'motion_axes' needs a motion input")
                .hint("write motion = \"input\" or \"input_filtered\", or remove 'motion_axes'"));
        }
        return Ok(None);
    }
    let nv = kind.nv();
    let axes = match axes_written {
        None => vec![true; nv],
        Some(v) => {
            let flags: Option<Vec<bool>> = match &v {
                ParamValue::Array(items) => items
                    .iter()
                    .map(|i| match i {
                        ParamValue::Bool(b) => Some(*b),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            };
            match flags {
                Some(f) if f.len() == nv && f.iter().any(|x| *x) => f,
                _ => {
                    return Err(p
                        .error(
                            "motion_axes",
                            format!("'motion_axes' must be {nv} booleans, at least one true"),
                        )
                        .hint(format!(
                            "write e.g. motion_axes = [true{}]",
                            ", false".repeat(nv - 1)
                        )))
                }
            }
        }
    };
    check_rotation_axes(p, kind, &axes)?;
    for (key, range) in initial_value_keys(kind) {
        if p.has(key) {
            let all = axes[range.clone()].iter().all(|a| *a);
            if all {
                return Err(p
                    .error(
                        key,
                        format!("'{key}' is given by the motion input on this joint"),
                    )
                    .hint(format!(
                        "remove '{key}': the coordinates start at q_ref(0), w_ref(0)"
                    )));
            }
            // Partly driven: the free axes' initial values are read; a driven axis's must be
            // left at 0 (its input gives it), so that a value written there is not ignored. (A
            // quaternion's axes are driven all or none: it is refused above or read whole.)
            let n = range.len();
            let values = if key == "orientation" {
                Vec::new()
            } else {
                p.fixed_vector(key, n)?.unwrap_or_default()
            };
            if let Some(k) =
                (0..n).find(|&k| axes[range.start + k] && values.get(k).is_some_and(|v| *v != 0.0))
            {
                let k = range.start + k;
                return Err(p
                    .error(
                        key,
                        format!("'{key}'[{}] is on an axis the motion input drives (motion_axes[{k}] = true)", k - range.start),
                    )
                    .hint("write 0.0 there: the driven axes start at q_ref(0), w_ref(0); only the free axes' values are used"));
            }
        }
    }
    let mode = if mode == "input" {
        MotionMode::Input
    } else {
        MotionMode::Filtered(tau)
    };
    Ok(Some(MotionSpec { mode, axes }))
}

/// The parameters that set a `kind` joint's initial state, each with the axes (indices into its
/// velocity coordinates) it gives values to.
fn initial_value_keys(kind: JointKind) -> Vec<(&'static str, std::ops::Range<usize>)> {
    match kind {
        JointKind::Spherical => vec![("orientation", 0..3), ("angular_velocity", 0..3)],
        JointKind::SixDof => vec![
            ("position", 0..3),
            ("velocity", 0..3),
            ("orientation", 3..6),
            ("angular_velocity", 3..6),
        ],
        _ => vec![("q0", 0..kind.nv()), ("w0", 0..kind.nv())],
    }
}

/// A quaternion joint's rotational triple is prescribed whole or not at all: its orientation is
/// one quaternion, whose reference is one rotation vector.
fn check_rotation_axes(p: &Params, kind: JointKind, axes: &[bool]) -> Result<(), ParamError> {
    let Some(_) = kind.quaternion_offset() else {
        return Ok(());
    };
    let r = kind.nv() - 3;
    let triple = &axes[r..r + 3];
    if triple.iter().all(|a| *a) || triple.iter().all(|a| !*a) {
        return Ok(());
    }
    let mut fixed: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
    fixed[r..r + 3].iter_mut().for_each(|a| *a = "true".into());
    Err(p
        .error(
            "motion_axes",
            format!(
                "a {} joint's three rotation axes (motion_axes[{r}..{}]) are driven together or not at all: its orientation is one quaternion, driven by one rotation vector",
                kind.name(),
                r + 3
            ),
        )
        .hint(format!(
            "write motion_axes = [{}], or build the rotation from revolute joints (a gimbal) to drive some of its axes",
            fixed.join(", ")
        )))
}

/// Reads `reaction_frame`.
pub(super) fn read_reaction_frame(p: &Params) -> Result<ReactionFrame, ParamError> {
    Ok(match REACTION_FRAME.read(p)? {
        "base" => ReactionFrame::Base,
        "world" => ReactionFrame::World,
        _ => ReactionFrame::Follower,
    })
}

/// The filter's derivatives: `ẋ = w`, `ẇ = (q_ref − x − 2τw)/τ²` per axis (`states` = [x; w]).
pub(super) fn filter_derivatives(tau: f64, q_ref: &[f64], states: &[f64], dxdt: &mut [f64]) {
    let n = q_ref.len();
    for k in 0..n {
        let (x, w) = (states[k], states[n + k]);
        dxdt[k] = w;
        dxdt[n + k] = (q_ref[k] - x - 2.0 * tau * w) / (tau * tau);
    }
}

/// A joint block's motion inputs, its `actuator_force` and `reaction` outputs and the hidden
/// ports that carry them to and from the mechanism (port indices into the block's lists).
#[derive(Clone, Debug, Default)]
pub(super) struct JointDrive {
    motion: Option<MotionSpec>,
    frame: Option<ReactionFrame>,
    nv: usize,
    /// Inputs `q_ref`, `w_ref`, `a_ref` (the last two with `motion = "input"` only).
    refs: [Option<usize>; 3],
    actuator_output: Option<usize>,
    reaction_output: Option<usize>,
    motion_output: Option<usize>,
    drive_input: Option<usize>,
    /// A quaternion joint's rotational triple's offset in its velocity coordinates.
    rotation: Option<usize>,
}

impl JointDrive {
    /// Adds the user ports of a `kind` joint with `motion` (if any) whose reaction is resolved in
    /// `frame`: inputs `q_ref` (`w_ref`, `a_ref`), outputs `actuator_force` (with motion or
    /// actuation) and `reaction` (every joint; a weld has no coordinates, so only `reaction`).
    pub fn new(
        kind: JointKind,
        motion: Option<MotionSpec>,
        frame: ReactionFrame,
        actuated: bool,
        inputs: &mut Vec<PortDecl>,
        outputs: &mut Vec<PortDecl>,
    ) -> Self {
        let nv = kind.nv();
        let mut refs = [None; 3];
        if let Some(m) = &motion {
            let names: &[&str] = match m.mode {
                MotionMode::Input => &["q_ref", "w_ref", "a_ref"],
                MotionMode::Filtered(_) => &["q_ref"],
            };
            for (slot, name) in refs.iter_mut().zip(names) {
                *slot = Some(inputs.len());
                inputs.push(PortDecl::signal(*name, Shape::vector(nv)));
            }
        }
        let actuator_output = (actuated || motion.is_some()).then(|| {
            outputs.push(PortDecl::signal("actuator_force", Shape::vector(nv)));
            outputs.len() - 1
        });
        outputs.push(PortDecl::signal("reaction", Shape::vector(6)));
        Self {
            motion,
            frame: Some(frame),
            nv,
            refs,
            actuator_output,
            reaction_output: Some(outputs.len() - 1),
            motion_output: None,
            drive_input: None,
            rotation: kind.quaternion_offset().map(|_| nv - 3),
        }
    }

    /// Adds the hidden ports once the joint is bound: the motion output and the drive input.
    pub fn bind(&mut self, nv: usize, inputs: &mut Vec<PortDecl>, outputs: &mut Vec<PortDecl>) {
        let Some(frame) = self.frame else {
            return;
        };
        self.nv = nv;
        if self.motion.is_some() {
            self.motion_output = Some(outputs.len());
            outputs.push(
                PortDecl::signal("motion", Shape::vector(3 * nv)).hidden(HiddenPort::JointMotion),
            );
        }
        self.drive_input = Some(inputs.len());
        inputs.push(
            PortDecl::signal("drive", Shape::vector(nv + 6))
                .hidden(HiddenPort::JointDrive { frame }),
        );
    }

    /// The `reaction` output's index.
    pub fn reaction_output(&self) -> Option<usize> {
        self.reaction_output
    }

    /// Whether input `i` is read given the used outputs `read` (empty: all are).
    pub fn reads_input(&self, i: usize, read: &[bool]) -> bool {
        if Some(i) != self.drive_input {
            return true;
        }
        let used = |o: Option<usize>| o.is_some_and(|o| read.get(o).copied().unwrap_or(true));
        used(self.actuator_output) || used(self.reaction_output)
    }

    /// The filter's time constant τ (s) with `motion = "input_filtered"`.
    pub fn filtered(&self) -> Option<f64> {
        match self.motion.as_ref()?.mode {
            MotionMode::Filtered(tau) => Some(tau),
            MotionMode::Input => None,
        }
    }

    /// The filter's states `[x; ẋ]` (2·nv) with `motion = "input_filtered"`.
    pub fn num_states(&self) -> usize {
        if self.filtered().is_some() {
            2 * self.nv
        } else {
            0
        }
    }

    /// Adds the direct feedthrough pairs (`read`: the used outputs): the drive input, when read,
    /// to the actuator force and reaction,
    /// the force input `t` (input 0) to the actuator force, the references to the motion output.
    pub fn feedthrough(&self, actuated: bool, read: &[bool], pairs: &mut Vec<(usize, usize)>) {
        // An ignored drive input feeds nothing (the mechanism does not compute it).
        let drive = self.drive_input.filter(|&i| self.reads_input(i, read));
        for o in [self.actuator_output, self.reaction_output]
            .into_iter()
            .flatten()
        {
            if let Some(i) = drive {
                pairs.push((i, o));
            }
        }
        if let (true, Some(o)) = (actuated, self.actuator_output) {
            pairs.push((0, o));
        }
        if let Some(o) = self.motion_output {
            pairs.extend(self.refs.iter().flatten().map(|&i| (i, o)));
        }
    }

    /// Sets the filter at rest at `q_ref` (the start); returns whether its states changed.
    pub fn start_filter(&self, ctx: &mut Ctx) -> bool {
        let (Some(_), Some(q_ref)) = (self.filtered(), self.refs[0]) else {
            return false;
        };
        let n = self.nv;
        let mut changed = false;
        for k in 0..n {
            let target = ctx.io.input(q_ref)[k];
            changed |= ctx.states[k] != target || ctx.states[n + k] != 0.0;
            ctx.states[k] = target;
            ctx.states[n + k] = 0.0;
        }
        changed
    }

    /// The filter's derivatives.
    pub fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        if let (Some(tau), Some(q_ref)) = (self.filtered(), self.refs[0]) {
            filter_derivatives(tau, ctx.io.input(q_ref), ctx.states, dxdt);
        }
    }

    /// Zeroes the prescribed axes of the actuation sent to the mechanism (a force input acts on
    /// the free axes only).
    pub fn clear_prescribed(&self, tau: &mut [f64]) {
        if let Some(m) = &self.motion {
            for (t, p) in tau.iter_mut().zip(&m.axes) {
                if *p {
                    *t = 0.0;
                }
            }
        }
    }

    /// Writes the motion output `[q; w; a]` and, when read, `actuator_force` (the mechanism's on
    /// prescribed axes, the input `t` on the others) and `reaction`.
    /// `effort` is the joint's `effort_limit` per axis (empty without one): a force-driven
    /// axis's `actuator_force` is its input saturated as the mechanism receives it.
    pub fn outputs_eval(&self, ctx: &mut Ctx, actuated: bool, read: &[bool], effort: &[f64]) {
        let n = self.nv;
        if let (Some(o), Some(m)) = (self.motion_output, &self.motion) {
            match m.mode {
                MotionMode::Input => {
                    for (slot, r) in self.refs.iter().enumerate() {
                        if let Some(i) = *r {
                            let (u, out) = ctx.io.input_output(i, o);
                            out[slot * n..(slot + 1) * n].copy_from_slice(&u[..n]);
                        }
                    }
                }
                MotionMode::Filtered(tau) => {
                    // [x; ẋ; ẍ]: the filter's states and their derivative (no allocation).
                    let mut xwa = [0.0; 18];
                    xwa[..2 * n].copy_from_slice(&ctx.states[..2 * n]);
                    if let Some(i) = self.refs[0] {
                        let mut d = [0.0; 12];
                        filter_derivatives(tau, &ctx.io.input(i)[..n], ctx.states, &mut d[..2 * n]);
                        xwa[2 * n..3 * n].copy_from_slice(&d[n..2 * n]);
                    }
                    if let Some(r) = self.rotation.filter(|r| m.axes[*r]) {
                        // The filter's states are the rotation vector and its rates; the
                        // mechanism takes the angular velocity and acceleration in F.
                        let v3 = |k: usize| Vector3::new(xwa[k], xwa[k + 1], xwa[k + 2]);
                        let (w, wd) = body_rates(&v3(r), &v3(n + r), &v3(2 * n + r));
                        xwa[n + r..n + r + 3].copy_from_slice(w.as_slice());
                        xwa[2 * n + r..2 * n + r + 3].copy_from_slice(wd.as_slice());
                    }
                    ctx.output(o)[..3 * n].copy_from_slice(&xwa[..3 * n]);
                }
            }
        }
        let Some(drive) = self.drive_input else {
            return;
        };
        let used = |o: usize| read.get(o).copied().unwrap_or(true);
        if let Some(o) = self.actuator_output.filter(|o| used(*o)) {
            let axes = self.motion.as_ref().map(|m| &m.axes[..]);
            for k in 0..n {
                let prescribed = axes.is_some_and(|a| a[k]);
                ctx.output(o)[k] = if prescribed {
                    ctx.io.input(drive)[k]
                } else if actuated {
                    let u = ctx.io.input(0)[k];
                    effort.get(k).map_or(u, |e| u.clamp(-e, *e))
                } else {
                    0.0
                };
            }
        }
        if let Some(o) = self.reaction_output.filter(|o| used(*o)) {
            let (d, out) = ctx.io.input_output(drive, o);
            out[..6].copy_from_slice(&d[n..n + 6]);
        }
    }
}
