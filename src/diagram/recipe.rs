//! How a model with variables was read (`[variables]`, issue 32 part 1): its [`Recipe`], the
//! document before any expression was evaluated, enough to read it again with other variable
//! values, and its [`Reading`], what a diagram keeps of it to compare a parameter vector's.
//!
//! The build makes the recipe (`lib.rs`), the [`super::Blueprint`] keeps it and the
//! [`super::Diagram`] its reading; a parameter set that moves a variable reads the model again
//! with it (`parameters/variables.rs`). Below all three, so that neither the blueprint nor the
//! diagram depends on the parameter sets made from them.

use crate::model::document::{set_path, ModelSpec};
use crate::model::value::{Table, Value};
use crate::model::variables::{evaluate_file, Variables, VARIABLES};
use crate::model::{Diagnostic, Document, Override};

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
    pub(crate) fn read_with(
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

impl Recipe {
    /// The names of the model's variables.
    pub(crate) fn variable_names(&self) -> impl Iterator<Item = &str> {
        self.variables.names()
    }

    /// The `[model]`, `[solver]` and `[output]` sections as built (expressions evaluated), in
    /// order.
    pub(crate) fn settings(&self) -> &[(String, Value)] {
        &self.settings
    }
}
