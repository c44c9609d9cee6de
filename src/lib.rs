//! blockdyn: block-diagram simulation of rigid-body mechanisms in contact.
//!
//! A model is a diagram of blocks, written in TOML (see `docs/model-format.md`) or built in code
//! ([`builder`]). The flow of one run: parse ([`model`]) → build the diagram ([`diagram`]) →
//! schedule → simulate ([`sim`], driving a [`solver`]) → record ([`output`]).
//!
//! # The API
//!
//! `docs/library.md` is the guide; these are the parts meant for use:
//! - **Load and run**: [`load_model`] (and [`load_model_str`], [`build_model`], their `_with`
//!   forms for a [`library::Registry`] of your own), [`simulate`] with [`RunOptions`], giving a
//!   [`RunResult`] (its [`output::Recording`], the solver's [`solver::SolverStats`], the located
//!   events, a [`sim::Checkpoint`] to resume from). Model errors are [`Diagnostic`]s (file,
//!   line, block, hint); run errors are [`SimError`]s.
//! - **Build in code**: [`builder::ModelBuilder`], blocks added by the typed constructors of
//!   [`builder::blocks`] (`Gain::new(2.0)`, `Solid::new(Shape::sphere(0.1)).mass(1.0)`) or as a
//!   [`builder::BlockSpec`] of any registered type.
//! - **Your own block types**: the [`block::Block`] trait and its [`block::BlockType`]
//!   declaration, registered in a [`library::Registry`]; parameters declared once with
//!   [`block::Param`] ([`param!`]), errors as [`block::BlockError`]; physics to build them from in
//!   [`geometry`] (shapes and their queries), [`contact`] (force laws) and [`multibody`]
//!   (spatial algebra and the articulated-body algorithm).
//! - **Many runs of one model**: [`ParameterSet`] (other parameter values without a rebuild),
//!   [`ParameterVector`] (chosen parameters as numbers, for optimisers and fitting loops), both
//!   made with the [`Blueprint`] that [`load_model_parts`] (and [`load_model_str_parts`],
//!   [`build_model_parts`]) return beside the diagram,
//!   checkpoints, [`sweep`] (every combination of values, on threads or sharded over a cluster).
//! - **Below the model**: [`sim::Engine`] is the diagram as a [`solver::System`], for driving a
//!   [`solver::Solver`] yourself.
//!
//! The modules hidden from this documentation (`blocks`: the library's block types, reached
//! through the registry; the command line's plots, animations, progress bar and URDF import)
//! are public only because the `blockdyn` binary, the Python package and the benches use them:
//! they are not part of the API and may change.
#![warn(missing_docs)]
#![warn(unnameable_types)]

pub mod block;
#[doc(hidden)]
pub mod blocks;
pub mod builder;
pub mod command;
pub mod contact;
pub mod diagram;
mod expr;
pub mod geometry;
pub mod library;
pub mod model;
pub mod multibody;
pub mod output;
pub mod params;
#[doc(hidden)]
pub mod plot;
#[doc(hidden)]
pub mod progress;
#[doc(hidden)]
pub mod render;
pub mod report;
pub mod sim;
pub mod solver;
pub mod sweep;
#[doc(hidden)]
pub mod urdf;
pub mod view;

pub use diagram::parameters::{ParameterSet, ParameterVector, VectorLengthError};
pub use diagram::{Blueprint, Diagram};
pub use model::{Diagnostic, Override, OverrideError};
pub use sim::linearize::{
    linearize, trim, Linearization, LinearizeError, LinearizeSpec, Trim, TrimError, TrimSpec,
};
pub use sim::{
    simulate, simulate_keeping_rows, FailedRun, RunOptions, RunOptionsError, RunResult, SimError,
};

use diagram::build::Model;
use library::Registry;
use model::Document;

/// Reads, overrides and builds a model file. An [`Override`] is a path and a typed value
/// (`Override::new("contact.normal.stiffness", 1e6)`); `--set PATH=VALUE` text is read into one
/// with [`Override::parse`].
pub fn load_model(path: &std::path::Path, overrides: &[Override]) -> Result<Diagram, Diagnostic> {
    load_model_with(path, overrides, Registry::standard())
}

/// Like [`load_model`], with the block types of `registry` (the standard library plus a
/// program's own; see [`library::Registry`]).
pub fn load_model_with(
    path: &std::path::Path,
    overrides: &[Override],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    let document = Document::load(path)?;
    build_document(document, overrides, [None, None], registry, Model::Dropped)
        .map(|(_, diagram)| diagram)
}

/// Like [`load_model`], with the animation written to `animation` whatever `[output] animation`
/// says (the `--animate` option): the contact blocks then compute the forces it draws.
pub fn load_model_animated(
    path: &std::path::Path,
    overrides: &[Override],
    animation: Option<&std::path::Path>,
) -> Result<Diagram, Diagnostic> {
    load_model_drawn(path, overrides, animation, None)
}

/// Like [`load_model_animated`], with the viewer page written to `view` whatever `[output] view`
/// says (the `--view` option); the contact blocks compute the forces either draws.
pub fn load_model_drawn(
    path: &std::path::Path,
    overrides: &[Override],
    animation: Option<&std::path::Path>,
    view: Option<&std::path::Path>,
) -> Result<Diagram, Diagnostic> {
    let document = Document::load(path)?;
    build_document(
        document,
        overrides,
        [animation, view],
        Registry::standard(),
        Model::Dropped,
    )
    .map(|(_, diagram)| diagram)
}

/// Like [`load_model`], from text (`label` is the file name shown in messages).
pub fn load_model_str(
    label: &str,
    text: &str,
    overrides: &[Override],
) -> Result<Diagram, Diagnostic> {
    load_model_str_with(label, text, overrides, Registry::standard())
}

/// Like [`load_model_str`], with the block types of `registry`.
pub fn load_model_str_with(
    label: &str,
    text: &str,
    overrides: &[Override],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    build_document(
        Document::parse(label, text)?,
        overrides,
        [None, None],
        registry,
        Model::Dropped,
    )
    .map(|(_, diagram)| diagram)
}

/// Builds a parsed model file with overrides (see [`Override`]): what
/// [`load_model`] does once the file is read. A sweep parses its model once and builds each point
/// from a clone of the document.
pub fn build_model(document: Document, overrides: &[Override]) -> Result<Diagram, Diagnostic> {
    build_model_with(document, overrides, Registry::standard())
}

/// Like [`build_model`], with the block types of `registry`.
pub fn build_model_with(
    document: Document,
    overrides: &[Override],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    build_document(document, overrides, [None, None], registry, Model::Dropped)
        .map(|(_, diagram)| diagram)
}

/// Like [`build_model_with`], keeping the model beside the diagram: the [`Blueprint`] that
/// parameter sets and vectors are made with ([`Blueprint::parameters`],
/// [`Blueprint::parameter_vector`]). The plain loaders drop it after the build, so that a run
/// keeps only what it reads.
pub fn build_model_parts(
    document: Document,
    overrides: &[Override],
    registry: &Registry,
) -> Result<(Blueprint, Diagram), Diagnostic> {
    build_document(document, overrides, [None, None], registry, Model::Kept).map(
        |(blueprint, diagram)| {
            let blueprint = blueprint.expect("a build that keeps its model returns it");
            (blueprint, diagram)
        },
    )
}

/// Like [`load_model`], keeping the model beside the diagram (see [`build_model_parts`]).
pub fn load_model_parts(
    path: &std::path::Path,
    overrides: &[Override],
) -> Result<(Blueprint, Diagram), Diagnostic> {
    build_model_parts(Document::load(path)?, overrides, Registry::standard())
}

/// Like [`load_model_str`], keeping the model beside the diagram (see [`build_model_parts`]).
pub fn load_model_str_parts(
    label: &str,
    text: &str,
    overrides: &[Override],
) -> Result<(Blueprint, Diagram), Diagnostic> {
    build_model_parts(
        Document::parse(label, text)?,
        overrides,
        Registry::standard(),
    )
}

/// `drawn`: the GIF's and the viewer page's paths from the command line, when given. With
/// [`Model::Kept`] the model is returned beside the diagram; with [`Model::Dropped`] the build
/// empties what it has read of it as it goes (see `diagram::build::Model`) and returns `None`.
fn build_document(
    mut document: Document,
    overrides: &[Override],
    drawn: [Option<&std::path::Path>; 2],
    registry: &Registry,
    model: Model,
) -> Result<(Option<Blueprint>, Diagram), Diagnostic> {
    // Overrides of what the file writes apply before its Urdf blocks are expanded (so that
    // `--set robot.base=floating` is expanded), overrides of the blocks an expansion makes
    // (`--set robot/knee.q0=0.3`) after.
    let (before, after): (Vec<&Override>, Vec<&Override>) = overrides
        .iter()
        .partition(|o| document.addresses_written(o));
    for o in before {
        document.apply_override(o)?;
    }
    let has_lines = document.source.has_lines();
    // A model with variables keeps the document as it is now (overrides of what the file writes
    // applied, nothing expanded or evaluated), so that a parameter set can read it again with
    // other values of its variables (`diagram::parameters::variables`).
    let unread = document
        .root
        .get(model::variables::VARIABLES)
        .is_some()
        .then(|| document.clone());
    // The expansion's connections are handed to `take_spec_with` below, not written back into
    // the document as text to be parsed again.
    let mut expansion = model::resolve::expand_and_resolve_to(
        &mut document,
        &after,
        overrides,
        library::IMPORTERS,
        model::subsystem::ConnectionsTo::Caller,
    )?;
    let urdf_warnings = std::mem::take(&mut expansion.warnings);
    let recipe = match unread {
        Some(unread) => Some(std::sync::Arc::new(diagram::recipe::Recipe::new(
            unread,
            after.into_iter().cloned().collect(),
            overrides.to_vec(),
            &document.root,
        )?)),
        None => None,
    };
    // The blocks' tables are moved into the spec, not copied, and the rest of the document's
    // tables dropped before the diagram is built: a large model (a 20,000-joint URDF) never
    // holds its tables twice.
    let spec = document.take_spec_with(expansion.connections.take());
    let source = document.source;
    drop(document.root);
    let built = spec.and_then(|mut spec| {
        let [animation, view] = drawn;
        if let Some(path) = animation {
            spec.output.animation.path = Some(path.display().to_string());
        }
        if let Some(path) = view {
            spec.output.animation.view = Some(path.display().to_string());
        }
        let mut diagram = diagram::build::build_diagram_owned(&source, &mut spec, registry, model)?;
        let build_id = diagram::blueprint::next_build_id();
        diagram.build_id = build_id;
        diagram.reading = recipe.as_ref().map(|r| r.reading(build_id));
        diagram.expansion_warnings = urdf_warnings.len();
        diagram.input_files = document.inputs.clone();
        diagram.subsystems = expansion.instances;
        diagram.warnings.splice(0..0, urdf_warnings);
        // A model the build has emptied is not returned: only its messages read it.
        let blueprint = (model == Model::Kept).then_some(Blueprint {
            source,
            spec,
            recipe,
            skipped: expansion.skipped,
            build_id,
        });
        Ok((blueprint, diagram))
    });
    built.map_err(|d| model::resolve::name_the_override(d, overrides, has_lines))
}
