//! The warnings a model gives when it is built: mistakes that run without an error but not as
//! meant (issue 28). Each is located like an error ([`Diagnostic`]'s rendering,
//! `file:line:column: block 'name': message`, then `  help: …` when there is advice): at the
//! parameter the warning is about when the block's table writes it, else at the block's name.
//!
//! - each block's own ([`Block::warnings`]: a revolute `q0` beyond a full turn, …);
//! - rk4's `fixed_step` above a penalty contact's stability limit ([`fixed_step_warnings`]);
//! - from the compiled mechanism ([`scene_warnings`]): gravity that no joint can move along, a
//!   GroundContact whose ground does not face gravity, and contact pairs that start deeper in
//!   each other than the depth at which they would rest.

use super::compiled::{CompiledBlock, SignalLine};
use super::physical::PhysicalScene;
use crate::block::{Block, PhysicalRole};
use crate::model::{Diagnostic, ModelSpec, SourceFile, Span};
use crate::multibody::{body_pose, forward_kinematics, Workspace};
use nalgebra::Vector3;

/// A block as the warnings see it: its name, the block, where its name is written, and its
/// entry in `ModelSpec::blocks` (`None` for blocks the build adds).
#[derive(Clone, Copy)]
pub(crate) struct Warned<'a> {
    /// The block's name.
    pub name: &'a str,
    /// The block.
    pub block: &'a dyn Block,
    /// Where its name is written.
    pub span: &'a Span,
    /// Its index in `ModelSpec::blocks`.
    pub entry: Option<usize>,
}

/// What the mechanism's warnings ([`scene_warnings`]) read of a built diagram: the model it was
/// built from (to locate each message) and the diagram's blocks and lines. A view of borrowed
/// parts, so that this file depends on neither the diagram nor its blueprint.
#[derive(Clone, Copy)]
pub(crate) struct BuiltView<'a> {
    /// The model's text, for messages.
    pub source: &'a SourceFile,
    /// The model as read (the blocks' tables, to locate a message at a parameter).
    pub spec: &'a ModelSpec,
    /// The diagram's blocks.
    pub blocks: &'a [CompiledBlock],
    /// The diagram's signal lines.
    pub lines: &'a [SignalLine],
}

/// Where in a block's table a warning points.
#[derive(Clone, Copy)]
pub(crate) enum At<'k> {
    /// At the value of this parameter when the table writes it, else at the block's name.
    Param(&'k str),
    /// At the parameter the message starts with ("q0 = 90 rad is …" at `q0`), else at the
    /// block's name.
    Leading,
    /// At the block's name.
    Block,
}

/// `message` about block `w`, located as `at` says.
pub(crate) fn locate(
    source: &SourceFile,
    spec: &ModelSpec,
    w: &Warned<'_>,
    at: At<'_>,
    message: &str,
) -> Diagnostic {
    let params = w.entry.and_then(|e| spec.blocks.get(e)).map(|e| &e.params);
    let written = params.and_then(|t| {
        t.entries
            .iter()
            .find(|e| match at {
                At::Param(k) => e.key == k,
                At::Leading => starts_with_key(message, &e.key),
                At::Block => false,
            })
            .map(|e| e.value.span.clone())
            .filter(Span::is_some)
    });
    let span = written.unwrap_or_else(|| w.span.clone());
    Diagnostic::at(source, &span, message).block(w.name)
}

/// True when `message` starts with `key` as a word ("q0 = …", "q0 …", "'q0' …").
fn starts_with_key(message: &str, key: &str) -> bool {
    let quoted = format!("'{key}'");
    message.starts_with(&quoted)
        || message
            .strip_prefix(key)
            .is_some_and(|rest| rest.starts_with(' '))
}

/// The warnings a model's blocks give when it is built: each block's own
/// ([`Block::warnings`]), then rk4's `fixed_step` against each penalty contact's stability limit
/// ([`fixed_step_warnings`]), each located (see [`locate`]). `blocks` are the model's blocks in
/// the diagram's order; a parameter set passes its own instances in place of the ones it
/// overrides, so that it warns as the model built with its values would.
pub(crate) fn block_warnings<'a>(
    blocks: impl Iterator<Item = Warned<'a>> + Clone,
    source: &SourceFile,
    spec: &ModelSpec,
) -> Vec<String> {
    let mut warnings: Vec<String> = blocks
        .clone()
        .flat_map(|w| {
            w.block
                .warnings()
                .into_iter()
                .map(move |m| locate(source, spec, &w, At::Leading, &m).to_string())
        })
        .collect();
    warnings.extend(fixed_step_warnings(blocks, source, spec));
    warnings
}

/// rk4's `fixed_step` against each penalty contact's stability limit (see
/// [`crate::block::Advice::contact_rates`]) with the weight of the body it carries on it: above it, the run is
/// unstable in contact (a ball rebounds higher than it fell), which nothing else would say.
fn fixed_step_warnings<'a>(
    blocks: impl Iterator<Item = Warned<'a>> + Clone,
    source: &SourceFile,
    spec: &ModelSpec,
) -> Vec<String> {
    if spec.solver.method != crate::solver::Method::Rk4 {
        return Vec::new();
    }
    let step = spec.solver.fixed_step;
    let rk4_boundary = crate::solver::Method::Rk4
        .stability_boundary()
        .expect("rk4 is explicit");
    let (mass, gravity) = super::physical::mass_and_gravity(blocks.clone().map(|w| w.block));
    blocks
        .filter_map(|w| {
            let rate = w.block.advice()?.contact_rates(mass, gravity)?.normal_rate;
            let limit = rk4_boundary / rate;
            (step > limit).then(|| {
                locate(source, spec, &w, At::Block, &format!(
                    "rk4's fixed_step = {step:e} s is above this contact's stability limit of about {limit:.2e} s (its fastest rate |λ| = {rate:.3e} 1/s with the weight of the body it carries on it): the run will be unstable in contact, e.g. a ball rebounding higher than it fell"
                ))
                .hint(format!(
                    "write fixed_step = {:.1e} or less under [solver], or method = \"dopri5\" (adaptive) or \"trbdf2\" (stiff)",
                    0.5 * limit
                ))
                .to_string()
            })
        })
        .collect()
}

/// The warnings of the compiled mechanism, located: gravity that moves nothing
/// ([`still_mechanism_warning`]), a GroundContact whose ground does not face gravity
/// ([`ground_facing_warnings`]) and pairs that start overlapping ([`start_overlap_warnings`]).
///
/// `stands_still` is [`mechanism_stands_still`]'s answer, which the build takes earlier.
pub(crate) fn scene_warnings(
    d: &BuiltView<'_>,
    scene: &PhysicalScene,
    stands_still: bool,
) -> Vec<String> {
    let mut found: Vec<Diagnostic> = Vec::new();
    found.extend(still_mechanism_warning(d, scene, stands_still));
    found.extend(ground_facing_warnings(d, scene));
    found.extend(start_overlap_warnings(d, scene));
    found.extend(stepped_motion_warnings(d));
    found.iter().map(Diagnostic::to_string).collect()
}

/// Source blocks whose output jumps (a step, a pulse train, a relay or a zero-order hold).
const STEPPED_SOURCES: [&str; 4] = ["Step", "PulseGenerator", "Relay", "ZeroOrderHold"];

/// A joint with `motion = "input"` whose `q_ref` comes straight from a block whose output jumps:
/// the coordinate would jump with it (an infinite velocity the `w_ref` input does not carry, and
/// an impulsive actuator force); `motion = "input_filtered"` smooths the reference.
fn stepped_motion_warnings(d: &BuiltView<'_>) -> Vec<Diagnostic> {
    d.lines
        .iter()
        .filter_map(|l| {
            let (to, from) = (&d.blocks[l.to], &d.blocks[l.from]);
            let inputs = to.block.inputs();
            // The per-line tests first, the scan of the block's inputs last: a contact group's
            // thousands of lines would each scan its thousands of inputs.
            (inputs.get(l.to_port).is_some_and(|p| p.name == "q_ref")
                && STEPPED_SOURCES.contains(&from.type_name)
                && matches!(to.block.role(), Some(PhysicalRole::Joint { .. }))
                && inputs.iter().any(|p| p.name == "a_ref"))
            .then(|| {
                locate(
                    d.source,
                    d.spec,
                    &warned(d, l.to),
                    At::Param("motion"),
                    &format!(
                        "q_ref comes from {} '{}', whose output jumps: with motion = \"input\" the joint's position jumps with it (an infinite velocity, an impulsive actuator force)",
                        from.type_name, from.name
                    ),
                )
                .hint("write motion = \"input_filtered\" (q_ref only, smoothed by 1/(τs + 1)² with τ = motion_filter), or feed a smooth q_ref with its w_ref and a_ref")
            })
        })
        .collect()
}

/// Block `b` of the diagram as the warnings see it.
fn warned<'a>(d: &BuiltView<'a>, b: usize) -> Warned<'a> {
    let cb = &d.blocks[b];
    Warned {
        name: &cb.name,
        block: &*cb.block,
        span: &cb.span,
        entry: cb.origin.map(|o| o.entry),
    }
}

/// Whether nothing moves the mechanism: nothing drives it (no initial velocity, no actuated or
/// sprung joint, no block that applies forces: contacts, force elements; sensors count too, to
/// be safe) and gravity moves no joint ([`crate::multibody::gravity_reach`]). Decided by the
/// build as soon as the mechanism is compiled, over the blocks it was compiled from (their roles
/// are the compiled blocks'): the gravity test's dynamics workspace (about 1 KB a body, 22 MB at
/// 20,000 URDF joints) is then made and freed below the build's peak rather than on top of the
/// compiled diagram, where it was the highest resident memory of `check` (issue 28, part 3).
pub(crate) fn mechanism_stands_still<'a>(
    mut blocks: impl Iterator<Item = &'a dyn Block>,
    scene: &PhysicalScene,
) -> bool {
    let m = &scene.mechanism;
    let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
    m.initial_state(&mut q, &mut v);
    let driven = v.iter().any(|x| *x != 0.0)
        || blocks.any(|b| match b.role() {
            Some(PhysicalRole::Joint { spec }) => {
                spec.actuated
                    || spec.stiffness.iter().any(|k| *k != 0.0)
                    || spec.motion.iter().any(|p| *p)
            }
            Some(PhysicalRole::Consumer) => true,
            _ => false,
        });
    !driven && !crate::multibody::gravity_reach::gravity_moves_a_joint(m)
}

/// A mechanism that gravity cannot move (every hinge about the vertical, every slider
/// horizontal) and that nothing else drives (`stands_still`, [`mechanism_stands_still`]).
/// Located at the configuration block's `gravity`, else (gravity by default) at the first joint.
fn still_mechanism_warning(
    d: &BuiltView<'_>,
    scene: &PhysicalScene,
    stands_still: bool,
) -> Option<Diagnostic> {
    if !stands_still {
        return None;
    }
    let m = &scene.mechanism;
    let g = m.gravity();
    let at = d
        .blocks
        .iter()
        .position(|b| matches!(b.block.role(), Some(PhysicalRole::Configuration { .. })))
        .or_else(|| {
            d.blocks
                .iter()
                .position(|b| matches!(b.block.role(), Some(PhysicalRole::Joint { .. })))
        })?;
    Some(locate(
        d.source,
        d.spec,
        &warned(d, at),
        At::Param("gravity"),
        &format!(
            "gravity [{}, {}, {}] m/s² has no component along any joint's motion and nothing else drives the mechanism (no initial velocity, actuated joint, joint spring or force block): nothing will move; a RevoluteJoint turns about its frames' z axis and a PrismaticJoint slides along it, so check the joints' frames (rotate them so that gravity is not along a hinge's axis)",
            g.x, g.y, g.z
        ),
    ))
}

/// A GroundContact's ground is the World x-y plane, z up (`dimension = 3`, the default), or the
/// x axis, y up (`dimension = 2`). Gravity with no component along that "up" axis never brings a
/// point onto the ground: a planar mechanism in the x-y plane with the 3-D ground falls past it
/// forever, with no crossing and no error. Warned when |g·up| ≤ 1e-9·|g| (gravity within
/// rounding of the ground's plane) and |g| > 0.
fn ground_facing_warnings<'a>(
    d: &'a BuiltView<'a>,
    scene: &'a PhysicalScene,
) -> impl Iterator<Item = Diagnostic> + 'a {
    let g: Vector3<f64> = scene.mechanism.gravity();
    (0..d.blocks.len()).filter_map(move |b| {
        if d.blocks[b].type_name != "GroundContact" || g.norm().is_nan() || g.norm() <= 0.0 {
            return None;
        }
        let w = warned(d, b);
        let dimension = w
            .entry
            .and_then(|e| d.spec.blocks.get(e))
            .and_then(|e| e.params.get("dimension"))
            .and_then(|e| e.value.as_f64())
            .unwrap_or(3.0);
        let (up, axis, ground, instead) = if dimension == 2.0 {
            (1, "y", "the World x axis with y up (dimension = 2)", "for a mechanism with z up write dimension = 3 (ground = the x-y plane), or turn gravity along −y")
        } else {
            (2, "z", "the World x-y plane with z up (dimension = 3, the default)", "for a planar mechanism in the x-y plane with y up write dimension = 2 (ground = the x axis); else turn gravity along −z")
        };
        if g[up].abs() > 1e-9 * g.norm() {
            return None;
        }
        let message = format!(
            "this GroundContact's ground is {ground}, but gravity [{}, {}, {}] m/s² has no {axis} component: no point ever falls onto the ground (a planar mechanism falls past it forever, with no contact and no error)",
            g.x, g.y, g.z
        );
        Some(locate(d.source, d.spec, &w, At::Param("dimension"), &message).hint(instead))
    })
}

/// Margin on the static depth: a pair placed by hand at its resting depth, rounded, is not
/// warned about.
const STATIC_DEPTH_MARGIN: f64 = 1.01;

/// Each penalty contact whose pair starts deeper in each other than the depth d₀ at which it
/// carries the whole mechanism's weight (see [`crate::block::Advice::start_overlap`]): its force at the start
/// is (d/d₀)^n times the weight (n = 1 for a linear spring, 1.5 for the ground's law), which
/// launches the bodies apart (a body started 8 cm inside a floor flew 15 m up). Warned when
/// d > 1.01·d₀ (see [`STATIC_DEPTH_MARGIN`]).
fn start_overlap_warnings(d: &BuiltView<'_>, scene: &PhysicalScene) -> Vec<Diagnostic> {
    let contacts: Vec<usize> = (0..d.blocks.len())
        .filter(|&b| matches!(d.blocks[b].block.role(), Some(PhysicalRole::Consumer)))
        .collect();
    if contacts.is_empty() {
        return Vec::new();
    }
    let m = &*scene.mechanism;
    let (mut q, mut v) = (vec![0.0; m.nq()], vec![0.0; m.nv()]);
    m.initial_state(&mut q, &mut v);
    let mut ws = Workspace::new(m);
    forward_kinematics(m, &q, &v, &mut ws);
    let pose = |b: usize| body_pose(&ws, b);
    let (mass, gravity) = super::physical::mass_and_gravity(d.blocks.iter().map(|b| &*b.block));
    contacts
        .into_iter()
        .filter_map(|b| {
            let binding = d.blocks[b].binding.as_ref()?;
            let advice = d.blocks[b].block.advice()?;
            let o = advice.start_overlap(binding, &pose, mass, gravity)?;
            // No weight (no gravity, or none on this pair): no static depth to compare with.
            let d0 = o.static_depth.filter(|d0| *d0 > 0.0)?;
            (o.depth > STATIC_DEPTH_MARGIN * d0).then(|| {
                locate(d.source, d.spec, &warned(d, b), At::Block, &format!(
                    "{} start {:.3e} m into each other, {:.0}× this contact's static depth {d0:.3e} m ({}): its force at the start is far above the weight and will launch them apart (a body started 8 cm inside a floor flies metres up)",
                    o.pair, o.depth, o.depth / d0, o.static_law
                ))
                .hint(format!(
                    "start the pair apart or just touching: move it {:.3e} m apart (a joint's q0, a frame's translation)",
                    o.depth
                ))
            })
        })
        .collect()
}
