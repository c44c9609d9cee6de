//! The model a diagram was built from, kept beside the diagram rather than in it.
//!
//! A run reads only the [`Diagram`] (its blocks, schedule and [`super::RunSpec`]). What makes
//! blocks again — a [`super::ParameterSet`], a [`super::ParameterVector`], the warnings a set
//! would give —
//! reads the model as it was read: the text (to locate messages), the blocks' tables, the
//! recipe of a model with variables, and the parts an importer skipped. That is a [`Blueprint`],
//! returned beside the diagram by the `*_parts` loaders ([`crate::load_model_parts`],
//! [`crate::build_model_parts`], …); the plain loaders drop it after the build, so that a run
//! does not keep the model's tables (a 20,000-joint URDF's are tens of megabytes).

use super::recipe::Recipe;
use super::Diagram;
use crate::model::importer::SkippedPart;
use crate::model::{Diagnostic, ModelSpec, SourceFile};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The model a [`Diagram`] was built from: its text, its blocks' tables and settings as read,
/// how to read it again with other variable values, and the parts an importer did not make.
/// Made by the `*_parts` loaders beside the diagram, and only good with that diagram: its
/// methods refuse another (see [`Blueprint::parameters`]).
pub struct Blueprint {
    /// The model's text and name, for messages.
    pub(crate) source: SourceFile,
    /// The model as read (settings, blocks' tables, connections), subsystems and importers
    /// expanded.
    pub(crate) spec: ModelSpec,
    /// For a model with `[variables]`: the model as read before its expressions were evaluated,
    /// which a parameter set that moves a variable reads again (`None` for other models).
    pub(crate) recipe: Option<Arc<Recipe>>,
    /// The blocks importers did not make (a URDF collision whose mesh is missing), so that a
    /// set naming one is told why it is not there.
    pub(crate) skipped: Vec<SkippedPart>,
    /// The build both came from (see [`Diagram::build_id`]).
    pub(crate) build_id: u64,
}

impl std::fmt::Debug for Blueprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blueprint")
            .field("path", &self.source.path)
            .field("blocks", &self.spec.blocks.len())
            .field("variables", &self.recipe.is_some())
            .field("skipped", &self.skipped)
            .finish_non_exhaustive()
    }
}

/// A number no other build of this process has: what ties a [`Blueprint`] to its [`Diagram`].
pub(crate) fn next_build_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Blueprint {
    /// The model's text and file name.
    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The model as read: its settings, its blocks' tables (subsystems and importers expanded,
    /// expressions evaluated, overrides applied) and its connections.
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The parts importers did not make (a URDF collision whose mesh file is missing).
    pub fn skipped(&self) -> &[SkippedPart] {
        &self.skipped
    }

    /// Whether it is the blueprint of `diagram` (the two came from one build).
    pub fn is_of(&self, diagram: &Diagram) -> bool {
        self.build_id == diagram.build_id
    }

    /// The view of this blueprint with `diagram`, refused when they are not of one build (what
    /// the parameter sets' constructors, `parameters/`, read).
    pub(crate) fn with<'a>(&'a self, diagram: &'a Diagram) -> Result<Built<'a>, Diagnostic> {
        if !self.is_of(diagram) {
            return Err(Diagnostic::new(format!(
                "the blueprint of '{}' and the diagram come from two different builds (each build makes its own blocks, even of the same model)",
                self.source.path
            ))
            .hint(
                "pass the Blueprint that the same *_parts call returned with the diagram",
            ));
        }
        Ok(Built {
            source: &self.source,
            spec: &self.spec,
            recipe: self.recipe.as_ref(),
            skipped: &self.skipped,
            diagram,
        })
    }
}

/// A diagram with the model it was built from, as what makes blocks again reads them: the
/// diagram's fields through `Deref`, the model's as fields of their own. Made by
/// [`Blueprint::with`], for the parameter sets' constructors (`parameters/`).
#[derive(Clone, Copy)]
pub(crate) struct Built<'a> {
    /// The model's text, for messages.
    pub(crate) source: &'a SourceFile,
    /// The model as read.
    pub(crate) spec: &'a ModelSpec,
    /// How to read a model with variables again.
    pub(crate) recipe: Option<&'a Arc<Recipe>>,
    /// The parts importers did not make.
    pub(crate) skipped: &'a [SkippedPart],
    /// The diagram.
    pub(crate) diagram: &'a Diagram,
}

impl std::ops::Deref for Built<'_> {
    type Target = Diagram;

    fn deref(&self) -> &Diagram {
        self.diagram
    }
}
