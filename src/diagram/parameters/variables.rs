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
use crate::model::diagnostic::closest;
use crate::model::document::{set_path, ModelSpec};
use crate::model::value::{Table, Value};
use crate::model::variables::{evaluate_file, Variables, VARIABLES};
use crate::model::{Diagnostic, Document, Override};
use crate::params::ParamValue;

/// The sections of a model a set never changes, compared after a variable moved.
const SETTINGS: [&str; 3] = ["model", "solver", "output"];

/// How a model with variables was read: enough to read it again with other variable values.
#[derive(Debug)]
pub(crate) struct Recipe {
    /// The model file as parsed, with the overrides of what it writes applied (`--set l=0.5`,
    /// `--set hinge.q0=0.1`), before its subsystems were expanded or its expressions evaluated.
    document: Document,
    /// The overrides of blocks the expansion makes (`--set leg1/knee.q0=0.2`), applied after it.
    after: Vec<Override>,
    /// Every override the build was given, for messages.
    overrides: Vec<Override>,
    /// The variables' values as built.
    variables: Variables,
    /// The `[model]`, `[solver]` and `[output]` sections as built (expressions evaluated).
    settings: Vec<(String, Value)>,
}

impl PartialEq for Recipe {
    /// The same file read with the same overrides.
    fn eq(&self, other: &Recipe) -> bool {
        self.document.source.path == other.document.source.path
            && self.document.root == other.document.root
            && self.after == other.after
            && self.overrides == other.overrides
    }
}

/// How a model with variables was read, as a parameter vector that moves a variable compares
/// it with a diagram's: the build, and a digest of its [`Recipe`] (the file's path, its table as
/// parsed, the overrides; `None` when a NaN leaves the table without a digest). Two readings are
/// the same when they are of one build, or when their digests are equal: what `Recipe`'s `==`
/// says of two builds of the same text with the same overrides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reading {
    /// The build (see `Diagram::build_id`).
    build: u64,
    /// The recipe's digest.
    digest: Option<u64>,
}

impl Reading {
    /// Whether `self` and `other` read the model the same way.
    pub(crate) fn same(&self, other: &Reading) -> bool {
        self.build == other.build || (self.digest.is_some() && self.digest == other.digest)
    }
}

impl Recipe {
    /// How build `build` read the model, as [`Reading`] compares it.
    pub(crate) fn reading(&self, build: u64) -> Reading {
        use std::hash::{Hash, Hasher};
        let digest = super::digest::digest(&self.document.root).map(|root| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.document.source.path.hash(&mut h);
            root.hash(&mut h);
            // Each override as the user gave it (or as `PATH=VALUE` with the value's TOML):
            // equal overrides show alike.
            for o in self.after.iter().chain(&self.overrides) {
                o.to_string().hash(&mut h);
            }
            self.after.len().hash(&mut h);
            h.finish()
        });
        Reading { build, digest }
    }

    /// The recipe of a build from `document` (not yet expanded or evaluated), `after` and
    /// `overrides` as `model::resolve::expand_and_resolve` takes them, `built` the root table the build
    /// read its spec from.
    pub(crate) fn new(
        document: Document,
        after: Vec<Override>,
        overrides: Vec<Override>,
        built: &Table,
    ) -> Result<Recipe, Diagnostic> {
        let variables = evaluate_file(&document.source, &document.root)?;
        Ok(Recipe {
            document,
            after,
            overrides,
            variables,
            settings: settings_of(built),
        })
    }

    /// The value variable `name` was built with: a number, or an array's numbers.
    pub(crate) fn built(&self, name: &str) -> Option<Result<f64, &[f64]>> {
        match self.variables.number_of(name) {
            Some(x) => Some(Ok(x)),
            None => self.variables.array_of(name).map(Err),
        }
    }

    /// The model read again with the variables `values` set (as `--set NAME=VALUE` sets them):
    /// its spec, and its settings sections.
    pub(super) fn read_with(
        &self,
        values: &[(&str, Value)],
    ) -> Result<(ModelSpec, Vec<(String, Value)>), Diagnostic> {
        let mut document = self.document.clone();
        for (name, value) in values {
            set_path(&mut document.root, &[VARIABLES, name], value.clone())
                .map_err(|why| Diagnostic::new(format!("variable '{name}': {why}")))?;
        }
        let after: Vec<&Override> = self.after.iter().collect();
        crate::model::resolve::expand_and_resolve(
            &mut document,
            &after,
            &self.overrides,
            crate::library::IMPORTERS,
        )?;
        let settings = settings_of(&document.root);
        Ok((document.spec()?, settings))
    }
}

/// The settings sections of a root table, in order.
fn settings_of(root: &Table) -> Vec<(String, Value)> {
    root.entries
        .iter()
        .filter(|e| SETTINGS.contains(&e.key.as_str()))
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect()
}

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
            .map(|r| r.variables.names().collect())
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
            .zip(&recipe.settings)
            .find(|(a, b)| a != b)
            .map(|(a, _)| a)
            .or_else(|| {
                (settings.len() != recipe.settings.len())
                    .then(|| settings.first().or(recipe.settings.first()))
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
