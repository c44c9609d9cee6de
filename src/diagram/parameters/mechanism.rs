//! Parameter sets that change the mechanism: a solid's mass or inertia, gravity, a joint's
//! values, a rigid constraint's law.
//!
//! Those values are compiled into the mechanism block when the diagram is built, and a joint or
//! force block bound to the mechanism carries what its binding gave it. So a set that touches
//! one of them makes every block of the model again from its table (with the assignments
//! applied to the addressed ones) and elaborates the physical network again, exactly as the
//! build does. The set then overrides the new mechanism block, every block bound to it, and the
//! addressed blocks; each must declare the structure of the block it replaces (the same check as
//! for any set: ports, states, work slots, zero crossings, feedthrough, sample time). A value
//! that would change the mechanism's structure (bodies, joints, coordinates) therefore changes
//! the mechanism block's ports or states and is refused; so is one that moves or reshapes a
//! geometry on its body that a contact block reads (the check report keeps the built diagram's
//! geometry). A geometry no contact reads may move or change shape (a pendulum's length). The set keeps the
//! scene of the mechanism it elaborated, which a run's animation draws with.

use super::remake::{check_same_structure, refused, BlockAssignment, Remade};
use crate::block::{Block, Ctx, PortDecl, Setup, Shape};
use crate::diagram::blueprint::Built;
use crate::diagram::instance::Instance;
use crate::diagram::physical::{
    elaborate, PhysicalEnd, PhysicalLine, PhysicalScene, PlacedGeometry,
};
use crate::model::{ConnectionKind, Diagnostic};
use std::collections::HashMap;

impl Built<'_> {
    /// The blocks a set addressing `by_block` (assignments grouped by block index) overrides,
    /// with the mechanism elaborated again from the model's tables and the assignments.
    pub(super) fn remake_with_mechanism(
        &self,
        by_block: &[(usize, Vec<BlockAssignment>)],
    ) -> Result<(Remade, PhysicalScene), Diagnostic> {
        let first = by_block[0].1[0].written.as_str();
        let refuse = |block: &str, why: String| refused(first, block, why);
        let Some(scene) = &self.scene else {
            return Err(refuse(
                &self.blocks[by_block[0].0].name,
                "the model has no mechanism".into(),
            ));
        };
        let mut instances = self.instances_with(by_block)?;
        if instances.len() != scene.mechanism_block {
            return Err(refuse(
                &self.blocks[scene.mechanism_block].name,
                "the mechanism block is not the last block of the diagram".into(),
            ));
        }
        // Resolved as the build resolved them (it refused a line whose block or port it could
        // not find; the blocks made again have the same ports).
        let by_name: HashMap<&str, usize> = (instances.iter().enumerate())
            .map(|(k, i)| (i.name.as_str(), k))
            .collect();
        // A line whose end the blocks made again no longer declare (a set that changed a
        // block's physical ports) is refused, not dropped: a mechanism missing an attachment
        // would run with the wrong physics and no message.
        let physical: Vec<PhysicalLine> = (self.spec.connections.iter())
            .filter(|c| c.kind == ConnectionKind::Physical)
            .map(|c| {
                let end = |r: &crate::model::PortRef| {
                    PhysicalEnd::find(&instances, &by_name, r).ok_or_else(|| {
                        refuse(
                            &r.block,
                            format!(
                                "the physical connection to '{}.{}' no longer finds its port",
                                r.block, r.port
                            ),
                        )
                    })
                };
                Ok(PhysicalLine {
                    a: end(&c.from)?,
                    b: end(&c.to)?,
                    span: c.span.clone(),
                })
            })
            .collect::<Result<_, Diagnostic>>()?;
        drop(by_name);
        let (mut lines, mut line_spans) = (Vec::new(), Vec::new());
        let new_scene = elaborate(
            self.source,
            &mut instances,
            physical,
            &mut lines,
            &mut line_spans,
            scene.lowering,
        )?;
        let Some(new_scene) =
            new_scene.filter(|s| geometries_fit(&scene.geometries, &s.geometries, &instances))
        else {
            return Err(refuse(
                &self.blocks[by_block[0].0].name,
                "the value moves or reshapes a geometry that a contact block reads".into(),
            ));
        };
        let mut blocks = Vec::new();
        for (b, instance) in instances.into_iter().enumerate() {
            let addressed = by_block.iter().any(|(k, _)| *k == b);
            if !(addressed || instance.binding.is_some() || b == scene.mechanism_block) {
                continue;
            }
            let compiled = &self.blocks[b];
            let mut block = instance.block;
            block.set_used_outputs(&compiled.used_outputs);
            check_same_structure(compiled, &mut *block)
                .map_err(|m| m.diagnostic(|why| refuse(&compiled.name, why)))?;
            blocks.push((b, block));
        }
        Ok((blocks, new_scene))
    }

    /// The blocks written in the model, in the diagram's order, as the elaboration needs them:
    /// the physical ones and the addressed ones made again by their constructors from their
    /// tables (the assignments applied), every other one a placeholder without ports (so that no
    /// data file is read again and no expression compiled again). The mechanism block, which the
    /// build adds after them, is not made here.
    fn instances_with(
        &self,
        by_block: &[(usize, Vec<BlockAssignment>)],
    ) -> Result<Vec<Instance>, Diagnostic> {
        let mut instances = Vec::with_capacity(self.blocks.len());
        for (b, compiled) in self.blocks.iter().enumerate() {
            let Some(origin) = compiled.origin else {
                break;
            };
            let addressed = by_block.iter().find(|(k, _)| *k == b);
            if addressed.is_none() && compiled.block.physical().is_none() {
                instances.push(Instance {
                    name: compiled.name.clone(),
                    type_name: compiled.type_name,
                    block: Box::new(Placeholder),
                    span: compiled.span.clone(),
                    origin: Some(origin),
                    binding: None,
                });
                continue;
            }
            let assignments = addressed.map_or(&[][..], |(_, list)| list);
            let block = self.construct(b, origin, assignments)?;
            instances.push(Instance {
                name: compiled.name.clone(),
                type_name: compiled.type_name,
                block,
                span: compiled.span.clone(),
                origin: Some(origin),
                binding: None,
            });
        }
        Ok(instances)
    }
}

/// Whether the geometries of a new elaboration may replace the `built` ones: the same blocks on
/// the same bodies, each unchanged or read by no contact block. A geometry no contact reads only
/// draws its body (the set's scene draws the new one) and gave its Solid's mass properties
/// (which the new mechanism carries): a pendulum's rod length moves its bob's geometry.
fn geometries_fit(
    built: &[PlacedGeometry],
    new: &[PlacedGeometry],
    instances: &[Instance],
) -> bool {
    built.len() == new.len()
        && built.iter().zip(new).all(|(a, b)| {
            a == b
                || (a.block == b.block
                    && a.solid == b.solid
                    && a.body == b.body
                    && !read_by_contact(&a.block, instances))
        })
}

/// Whether a block bound to the mechanism reads the geometry of block `block` (its port `G`).
fn read_by_contact(block: &str, instances: &[Instance]) -> bool {
    let label = format!("{block}.G");
    instances
        .iter()
        .filter_map(|i| i.binding.as_ref())
        .flat_map(|b| &b.ports)
        .any(|p| p.geometry.as_deref().is_some_and(|(_, l)| *l == label))
}

/// Stands in for a signal block the elaboration does not look at (it has no physical part).
struct Placeholder;

impl Block for Placeholder {
    fn inputs(&self) -> &[PortDecl] {
        &[]
    }
    fn outputs(&self) -> &[PortDecl] {
        &[]
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, crate::block::BlockError> {
        Ok(Setup::memoryless(0, 0))
    }
    fn outputs_eval(&self, _: &mut Ctx) {}
}
