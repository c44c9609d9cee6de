//! Parameter overrides per run: one compiled diagram run with other parameter values, without
//! building it again (Drake's numeric parameters in a Context; MuJoCo's editable mjModel fields).
//!
//! A [`ParameterSet`] is compiled once against a [`Diagram`] from assignments, each an
//! [`Override`] of `block.param[.sub...]` with a typed value (what `--set PATH=VALUE` reads
//! to). Each block an assignment addresses is made again by its type's constructor from typed
//! values (its model table's, with the new values put in: `parameters/remake.rs`), given the
//! same mechanism binding, used outputs and port shapes, and must declare the same structure (ports, states,
//! work slots, zero crossings with their directions, feedthrough, sample time). The diagram's
//! schedule, buffer layout, mechanism and every other block are shared untouched; a run given the
//! set ([`crate::RunOptions::parameters`]) dispatches the addressed blocks to their new
//! instances. So any number of runs with different sets share one diagram, on any threads.
//!
//! What can be overridden: any block parameter whose value keeps the block's structure — signal
//! blocks, the blocks that read the mechanism and apply forces (contact laws, friction, ground
//! contact, force elements), and the values compiled into the mechanism (a solid's mass and
//! inertia, gravity, a joint's values, a rigid constraint's law: see `parameters/mechanism.rs`, which
//! elaborates the mechanism again for such a set). What cannot, with a message saying to rebuild
//! instead (`load_model` with the overrides): values that change a block's structure (a vector's
//! length, a method that adds states, a joint's type), that move or reshape a geometry a contact
//! block reads, and the
//! `[model]`, `[solver]` and `[output]` settings.

mod from_blueprint;
mod mechanism;
mod remake;
mod slot;
mod variables;
mod vector;

pub use vector::{ParameterVector, VectorLengthError};

use super::blueprint::Built;
use super::physical::PhysicalScene;
use super::warnings::{block_warnings, Warned};
use super::Diagram;
use crate::block::{Block, PhysicalRole};
use crate::model::diagnostic::closest;
use crate::model::document::ModelSpec;
use crate::model::value::Value;
use crate::model::{Diagnostic, Override};
use remake::{BlockAssignment, ByBlock, Remade};

/// Parameter overrides compiled against one diagram: the blocks they address, made again with
/// the new values. Immutable and `Send + Sync`; share it in an `Arc` between runs.
pub struct ParameterSet {
    /// The assignments as given, in order.
    assignments: Vec<Override>,
    /// The blocks made again, by block index, sorted by it.
    blocks: Remade,
    /// The physical scene of the mechanism elaborated again, when the set changes mechanism
    /// values (the animation draws with it).
    scene: Option<PhysicalScene>,
    /// The warnings of the model built with the set's values.
    warnings: Vec<String>,
    /// The diagram it was compiled against, as far as the blocks it makes again tell.
    made_from: Provenance,
}

impl std::fmt::Debug for ParameterSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParameterSet")
            .field("assignments", &self.assignments)
            .finish_non_exhaustive()
    }
}

impl ParameterSet {
    /// The assignments it was compiled from, in order: each an [`Override`] (a dotted path and a
    /// typed value) that shows (`Display`) as the user gave it (`block.param=value`). A vector's
    /// slot is the override of its parameter (`free.position`, the whole array with that
    /// slot's element moved and the others as built) and shows as the slot (`free.position[2]=0.5`).
    pub fn assignments(&self) -> &[Override] {
        &self.assignments
    }

    /// The new instance of block `b`, if the set overrides it.
    pub fn block(&self, b: usize) -> Option<&dyn Block> {
        self.blocks
            .binary_search_by_key(&b, |(k, _)| *k)
            .ok()
            .map(|i| &*self.blocks[i].1)
    }

    /// The mechanism and geometry placement of runs with this set, when it differs from the
    /// diagram's (a set that changes mechanism values); `None` when the diagram's holds.
    pub fn scene(&self) -> Option<&PhysicalScene> {
        self.scene.as_ref()
    }

    /// The warnings the model built with the set's values would give, in place of
    /// [`Diagram::warnings`]: the blocks' own (a friction law whose dynamic coefficient exceeds
    /// the static one) and rk4's stability limit of each contact, which a set that changes a
    /// stiffness, a mass or gravity moves.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether it was compiled against `diagram`, or one with the same blocks whose blocks it
    /// makes again have the same model tables (the same file built with the same values).
    pub fn fits(&self, diagram: &Diagram) -> bool {
        self.made_from.fits(diagram)
    }
}

/// What addresses a block parameter, for messages: an assignment `path=value` or a vector's slot.
#[derive(Clone, Copy)]
enum Addressed {
    Assignment,
    Slot,
}

/// What a set or a vector was made from, to refuse it on another diagram: the diagram's number
/// of blocks and their names' total length (a cheap check), and the digests of the model tables
/// of the blocks it depends on, by entry of the model (see [`crate::diagram::digest::digest`]). A diagram of the
/// same blocks built with other values (another override of the same file) would run those
/// blocks with the first diagram's values, so it does not fit.
#[derive(Clone, Debug, PartialEq)]
struct Provenance {
    fingerprint: (usize, usize),
    tables: Vec<(usize, Option<u64>)>,
}

impl Provenance {
    /// The provenance of something made on `d` from blocks `blocks` (indices in the diagram;
    /// blocks the build adds have no table and are left out).
    fn of(d: &Diagram, blocks: impl IntoIterator<Item = usize>) -> Provenance {
        let mut entries: Vec<usize> = blocks
            .into_iter()
            .filter_map(|b| d.blocks[b].origin.map(|o| o.entry))
            .collect();
        entries.sort_unstable();
        entries.dedup();
        Provenance {
            fingerprint: (d.blocks.len(), d.blocks.iter().map(|b| b.name.len()).sum()),
            tables: entries
                .into_iter()
                .map(|e| (e, d.table_digests[e]))
                .collect(),
        }
    }

    /// Whether `d` has the same fingerprint and the same tables (a table with a NaN has no
    /// digest and fits nothing, as it is not `==` to itself).
    fn fits(&self, d: &Diagram) -> bool {
        let fingerprint = (d.blocks.len(), d.blocks.iter().map(|b| b.name.len()).sum());
        self.fingerprint == fingerprint
            && self.tables.iter().all(|(entry, digest)| {
                digest.is_some() && d.table_digests.get(*entry) == Some(digest)
            })
    }
}

impl Built<'_> {
    /// Compiles parameter overrides (`block.param[.sub...]` with a value, as `--set` gives them)
    /// for runs of this diagram; see the [module documentation](self) for what can be overridden.
    /// A bare name sets a model variable (`length=0.7`, `size=[0.1, 0.2, 0.3]`): every parameter
    /// that depends on it follows, as in a build with `--set length=0.7` (see
    /// `parameters/variables.rs`); assignments to block parameters apply after those.
    /// Errors name the assignment, the block and what to do instead.
    pub fn parameters(&self, assignments: &[Override]) -> Result<ParameterSet, Diagnostic> {
        let mut values: Vec<(&str, Value)> = Vec::new();
        let mut to_blocks: Vec<&Override> = Vec::new();
        for o in assignments {
            let path = o.path();
            if is_variable_name(path) {
                self.variable(path, &o.to_string(), "parameter")?;
                values.push((path, o.tree_value()));
            } else {
                to_blocks.push(o);
            }
        }
        let explicit = |_: Option<&crate::model::ModelSpec>| {
            let mut by_block: ByBlock = Vec::new();
            for o in &to_blocks {
                let written = o.to_string();
                let (b, keys) = self.address_path(o.path(), &written, Addressed::Assignment)?;
                let one = BlockAssignment {
                    keys,
                    value: o.value().clone(),
                    in_model: None,
                    written,
                };
                match by_block.iter_mut().find(|(k, _)| *k == b) {
                    Some((_, list)) => list.push(one),
                    None => by_block.push((b, vec![one])),
                }
            }
            Ok(by_block)
        };
        self.compile_with_variables(&values, explicit, assignments.to_vec())
    }

    /// The set of assignments grouped by block, `written` the assignments as the user gave them.
    fn compile_set(
        &self,
        by_block: &ByBlock,
        written: Vec<Override>,
    ) -> Result<ParameterSet, Diagnostic> {
        for (b, list) in by_block {
            self.check_written(*b, &list[0].written)?;
        }
        let (mut blocks, scene) = if by_block.iter().any(|(b, _)| self.in_mechanism(*b)) {
            let (blocks, scene) = self.remake_with_mechanism(by_block)?;
            (blocks, Some(scene))
        } else {
            let mut blocks = Vec::with_capacity(by_block.len());
            for (b, list) in by_block {
                blocks.push((*b, self.remake(*b, list)?));
            }
            (blocks, None)
        };
        blocks.sort_by_key(|(b, _)| *b);
        let warnings = self.warnings_with(&blocks);
        let made_from = Provenance::of(self, blocks.iter().map(|(b, _)| *b));
        Ok(ParameterSet {
            assignments: written,
            blocks,
            scene,
            warnings,
            made_from,
        })
    }

    /// Reads the model again with `values` set and compiles the set of the assignments that
    /// gives, then those `explicit` makes (assignments to block parameters, given the re-read
    /// spec when variables moved; applied after, so that they win). `written` is the set's text.
    fn compile_with_variables<'e>(
        &self,
        values: &[(&str, Value)],
        explicit: impl FnOnce(Option<&ModelSpec>) -> Result<ByBlock<'e>, Diagnostic>,
        written: Vec<Override>,
    ) -> Result<ParameterSet, Diagnostic> {
        let text = written
            .iter()
            .map(Override::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let reread = match (values.is_empty(), self.recipe) {
            (false, Some(recipe)) => Some(recipe.read_with(values).map_err(|mut d| {
                d.message = format!("parameter '{text}': {}", d.message);
                d
            })?),
            _ => None,
        };
        let mut by_block: ByBlock = match &reread {
            Some((spec, settings)) => self.variable_assignments(&text, spec, settings)?,
            None => Vec::new(),
        };
        for (b, list) in explicit(reread.as_ref().map(|(s, _)| s))? {
            match by_block.iter_mut().find(|(k, _)| *k == b) {
                Some((_, existing)) => existing.extend(list),
                None => by_block.push((b, list)),
            }
        }
        self.compile_set(&by_block, written)
    }

    /// The diagram's warnings with those its blocks give ([`block_warnings`], the ones of
    /// [`Diagram::warnings`] after the expansion's) worked out again with `remade` in place of
    /// the blocks it overrides.
    fn warnings_with(&self, remade: &Remade) -> Vec<String> {
        let with_set = self.blocks.iter().enumerate().map(|(b, cb)| {
            let block = match remade.binary_search_by_key(&b, |(k, _)| *k) {
                Ok(i) => &*remade[i].1,
                Err(_) => &*cb.block,
            };
            Warned {
                name: &cb.name,
                block,
                span: &cb.span,
                entry: cb.origin.map(|o| o.entry),
            }
        });
        let expansion = self.expansion_warnings.min(self.warnings.len());
        let mut warnings = self.warnings[..expansion].to_vec();
        warnings.extend(block_warnings(with_set, self.source, self.spec));
        warnings
    }

    /// The block a dotted path `block.param[.sub...]` addresses and the keys below the block;
    /// `written` is what the user wrote, for messages, as `what`.
    fn address_path<'a>(
        &self,
        path: &'a str,
        written: &str,
        what: Addressed,
    ) -> Result<(usize, Vec<&'a str>), Diagnostic> {
        let (label, example) = match what {
            Addressed::Assignment => (
                "parameter",
                "block.param=value, e.g. contact.normal.stiffness=1e6",
            ),
            Addressed::Slot => (
                "parameter vector: path",
                "block.param, e.g. contact.normal.stiffness",
            ),
        };
        let keys: Vec<&str> = path.split('.').collect();
        if keys.len() == 1 && !path.is_empty() {
            return Err(Diagnostic::new(format!(
                "{label} '{written}': '{path}' is neither a dotted path block.param nor a variable's name"
            ))
            .hint(format!(
                "write {example}, or a [variables] entry's name (a whole array variable: size=[0.1, 0.2, 0.3])"
            )));
        }
        if keys.len() < 2 || keys.iter().any(|k| k.is_empty()) {
            return Err(Diagnostic::new(format!(
                "{label} '{written}': '{path}' is not a dotted path block.param"
            ))
            .hint(format!("write {example}")));
        }
        if matches!(keys[0], "model" | "solver" | "output") {
            return Err(Diagnostic::new(format!(
                "{label} '{written}': the [{}] section is a setting of the model, not a block parameter",
                keys[0]
            ))
            .hint("set it when the model is loaded (load_model's overrides, --set), or use RunOptions (stop_time)"));
        }
        let Some(b) = self.block_index(keys[0]) else {
            if let Some(part) = self.skipped.iter().find(|p| p.block == keys[0]) {
                let why = crate::model::importer::skipped_reason(keys[0], part);
                return Err(Diagnostic::new(format!("{label} '{written}': {why}")).hint(
                    "put the mesh file where the URDF says (relative to the URDF file), or fix its filename in the URDF",
                ));
            }
            let mut d = Diagnostic::new(format!(
                "{label} '{written}': there is no block '{}'",
                keys[0]
            ));
            if let Some(near) = closest(keys[0], self.blocks.iter().map(|b| b.name.as_str())) {
                d = d.hint(format!("did you mean '{near}'?"));
            }
            return Err(d);
        };
        if keys[1] == "type" {
            return Err(Diagnostic::new(format!(
                "{label} '{written}': a block's type cannot be overridden"
            ))
            .block(keys[0]));
        }
        Ok((b, keys[1..].to_vec()))
    }
}

/// Whether an assignment's path is a variable's name (no `.`, no `[`): a model variable.
fn is_variable_name(path: &str) -> bool {
    !path.is_empty() && !path.contains('.') && !path.contains('[')
}

impl Built<'_> {
    /// Whether block `b`'s values are compiled into the mechanism: solids, geometries, frames,
    /// joints and the mechanism's settings, and rigid constraints (whose rows the mechanism
    /// solves). A new instance of such a block alone would change nothing.
    fn in_mechanism(&self, b: usize) -> bool {
        let cb = &self.blocks[b];
        let joint_or_constraint = cb.binding.as_ref().is_some_and(|b| b.joint.is_some())
            || cb
                .block
                .physical()
                .is_some_and(|p| p.has_rigid_constraints());
        match cb.block.role() {
            None | Some(PhysicalRole::Consumer) => joint_or_constraint,
            Some(_) => true,
        }
    }
}
