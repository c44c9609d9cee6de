//! Parameter sets and vectors that move model variables (`[variables]`, issue 32 part 1).
//!
//! A block parameter written as an expression (`size = ["= l", 0.02, 0.02]`) was evaluated when
//! the model was read; the diagram holds only its number. To move a variable `l`, a set reads the
//! model again from its [`Recipe`] (the document as it was before any expression was evaluated,
//! with the build's overrides) with `l` set, exactly as `--set l=VALUE` would, and compares every
//! block's table with the built one: each top-level parameter whose value differs (bit for bit)
//! becomes an assignment to that block, applied as any set's (`block.param=value`). So every
//! parameter that depends on `l`, directly or through other variables (`m = "= 2 * l"`), inside
//! subsystems and arrays too, follows it, and a run with the set is the run of a fresh build with
//! `--set l=VALUE`: the same tables, made into blocks by the same constructors.
//!
//! Refused, with a hint to build the model again: a value that changes the model's blocks (an
//! array's `count`, a block's type) or its `[model]`, `[solver]` and `[output]` sections (a
//! `stop_time` written as an expression of the variable), which a set never changes.

use super::remake::{BlockAssignment, ByBlock};
use crate::diagram::blueprint::Built;
use crate::diagram::recipe::Recipe;
use crate::model::diagnostic::closest;
use crate::model::document::ModelSpec;
use crate::model::value::Value;
use crate::model::Diagnostic;
use crate::params::ParamValue;

impl Built<'_> {
    /// The recipe, when the model has variable `name`; else the error for `written` (an
    /// assignment or a vector's path), with "did you mean".
    pub(super) fn variable(
        &self,
        name: &str,
        written: &str,
        label: &str,
    ) -> Result<&Recipe, Diagnostic> {
        let recipe = self.recipe;
        if let Some(r) = recipe.filter(|r| r.built(name).is_some()) {
            return Ok(r);
        }
        let names: Vec<&str> = recipe
            .map(|r| r.variable_names().collect())
            .unwrap_or_default();
        let d = Diagnostic::new(format!(
            "{label} '{written}': the model has no variable '{name}' (a name without '.' is a [variables] entry)"
        ));
        Err(match closest(name, names.iter().copied()) {
            Some(near) => d.hint(format!("did you mean '{near}'?")),
            None if names.is_empty() => {
                d.hint("write block.param for a block's parameter, e.g. contact.normal.stiffness")
            }
            None => d.hint(format!("the variables are: {}", names.join(", "))),
        })
    }

    /// The assignments to blocks that give `reread`, the model read again with some variables
    /// set (`written`, the assignments as text, for messages): one per top-level
    /// parameter whose value moved. Refuses a change of the blocks or the settings sections.
    pub(super) fn variable_assignments<'s>(
        &self,
        written: &str,
        reread: &'s ModelSpec,
        settings: &[(String, Value)],
    ) -> Result<ByBlock<'s>, Diagnostic> {
        let recipe = self.recipe.expect("checked by variable()");
        let rebuild = "build the model again with the value instead (load_model with the override, --set, a sweep's --vary)";
        let same_blocks = reread.blocks.len() == self.spec.blocks.len()
            && reread
                .blocks
                .iter()
                .zip(&self.spec.blocks)
                .all(|(a, b)| a.name == b.name && a.type_name == b.type_name);
        if !same_blocks {
            return Err(Diagnostic::new(format!(
                "parameter '{written}': the value changes the model's blocks (an array's count or a block's type depends on it)"
            ))
            .hint(rebuild));
        }
        if let Some((section, _)) = settings
            .iter()
            .zip(recipe.settings())
            .find(|(a, b)| a != b)
            .map(|(a, _)| a)
            .or_else(|| {
                (settings.len() != recipe.settings().len())
                    .then(|| settings.first().or(recipe.settings().first()))
                    .flatten()
            })
        {
            return Err(Diagnostic::new(format!(
                "parameter '{written}': the value changes the [{section}] section, which a parameter set does not change"
            ))
            .hint(rebuild));
        }
        let mut by_block: ByBlock = Vec::new();
        for (entry, (new, old)) in reread.blocks.iter().zip(&self.spec.blocks).enumerate() {
            let moved: Vec<BlockAssignment> = new
                .params
                .entries
                .iter()
                .filter(|e| old.params.get(&e.key).map(|o| &o.value) != Some(&e.value))
                .map(|e| BlockAssignment {
                    keys: vec![e.key.as_str()],
                    value: ParamValue::from(&e.value),
                    in_model: Some(&e.value),
                    written: format!("{written} (through {}.{})", new.name, e.key),
                })
                .collect();
            if moved.is_empty() {
                continue;
            }
            let Some(b) = self
                .blocks
                .iter()
                .position(|cb| cb.origin.is_some_and(|o| o.entry == entry))
            else {
                return Err(Diagnostic::new(format!(
                    "parameter '{written}': block '{}' depends on it but was not built from its table",
                    new.name
                ))
                .hint(rebuild));
            };
            by_block.push((b, moved));
        }
        Ok(by_block)
    }
}
