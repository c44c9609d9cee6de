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
//!   [`ParameterVector`] (chosen parameters as numbers, for optimisers and fitting loops),
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
pub use diagram::Diagram;
pub use model::Diagnostic;
pub use sim::linearize::{
    linearize, trim, Linearization, LinearizeError, LinearizeSpec, Trim, TrimError, TrimSpec,
};
pub use sim::{
    simulate, simulate_keeping_rows, FailedRun, RunOptions, RunOptionsError, RunResult, SimError,
};

use library::Registry;
use model::Document;

/// Reads, overrides (`PATH=VALUE` strings, as `--set` takes them) and builds a model file.
pub fn load_model(path: &std::path::Path, overrides: &[String]) -> Result<Diagram, Diagnostic> {
    load_model_with(path, overrides, Registry::standard())
}

/// Like [`load_model`], with the block types of `registry` (the standard library plus a
/// program's own; see [`library::Registry`]).
pub fn load_model_with(
    path: &std::path::Path,
    overrides: &[String],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    let document = Document::load(path)?;
    build_document(document, overrides, [None, None], registry)
}

/// Like [`load_model`], with the animation written to `animation` whatever `[output] animation`
/// says (the `--animate` option): the contact blocks then compute the forces it draws.
pub fn load_model_animated(
    path: &std::path::Path,
    overrides: &[String],
    animation: Option<&std::path::Path>,
) -> Result<Diagram, Diagnostic> {
    load_model_drawn(path, overrides, animation, None)
}

/// Like [`load_model_animated`], with the viewer page written to `view` whatever `[output] view`
/// says (the `--view` option); the contact blocks compute the forces either draws.
pub fn load_model_drawn(
    path: &std::path::Path,
    overrides: &[String],
    animation: Option<&std::path::Path>,
    view: Option<&std::path::Path>,
) -> Result<Diagram, Diagnostic> {
    let document = Document::load(path)?;
    build_document(document, overrides, [animation, view], Registry::standard())
}

/// Like [`load_model`], from text (`label` is the file name shown in messages).
pub fn load_model_str(
    label: &str,
    text: &str,
    overrides: &[String],
) -> Result<Diagram, Diagnostic> {
    load_model_str_with(label, text, overrides, Registry::standard())
}

/// Like [`load_model_str`], with the block types of `registry`.
pub fn load_model_str_with(
    label: &str,
    text: &str,
    overrides: &[String],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    build_document(
        Document::parse(label, text)?,
        overrides,
        [None, None],
        registry,
    )
}

/// Builds a parsed model file with overrides (`PATH=VALUE` strings, as `--set` takes them): what
/// [`load_model`] does once the file is read. A sweep parses its model once and builds each point
/// from a clone of the document.
pub fn build_model(document: Document, overrides: &[String]) -> Result<Diagram, Diagnostic> {
    build_document(document, overrides, [None, None], Registry::standard())
}

/// Like [`build_model`], with the block types of `registry`.
pub fn build_model_with(
    document: Document,
    overrides: &[String],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    build_document(document, overrides, [None, None], registry)
}

/// `drawn`: the GIF's and the viewer page's paths from the command line, when given.
fn build_document(
    mut document: Document,
    overrides: &[String],
    drawn: [Option<&std::path::Path>; 2],
    registry: &Registry,
) -> Result<Diagram, Diagnostic> {
    // Overrides of what the file writes apply before its Urdf blocks are expanded (so that
    // `--set robot.base=floating` is expanded), overrides of the blocks an expansion makes
    // (`--set robot/knee.q0=0.3`) after.
    let (before, after): (Vec<&String>, Vec<&String>) = overrides
        .iter()
        .partition(|o| document.addresses_written(o));
    for o in before {
        document.apply_override(o)?;
    }
    let has_lines = document.source.has_lines();
    let after: Vec<String> = after.into_iter().cloned().collect();
    // A model with variables keeps the document as it is now (overrides of what the file writes
    // applied, nothing expanded or evaluated), so that a parameter set can read it again with
    // other values of its variables (`diagram::parameters::variables`).
    let unread = document
        .root
        .get(model::variables::VARIABLES)
        .is_some()
        .then(|| document.clone());
    let mut expansion = expand_and_resolve(&mut document, &after, overrides)?;
    let urdf_warnings = std::mem::take(&mut expansion.warnings);
    let recipe = match unread {
        Some(unread) => Some(std::sync::Arc::new(diagram::parameters::Recipe::new(
            unread,
            after,
            overrides.to_vec(),
            &document.root,
        )?)),
        None => None,
    };
    // The document's tables are not needed once the spec holds its own: dropped before the
    // diagram is built, so that a large model (a 20,000-joint URDF) does not keep a third copy.
    let spec = document.spec();
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
        let mut diagram = diagram::build::build_diagram_owned(&source, spec, registry)?;
        // The recorded signals are part of the model: check `[output] log` now, not when the run
        // starts.
        sim::Recorder::check(&diagram)?;
        diagram.expansion_warnings = urdf_warnings.len();
        diagram.input_files = document.inputs.clone();
        diagram.subsystems = expansion.instances;
        diagram.recipe = recipe;
        diagram.warnings.splice(0..0, urdf_warnings);
        Ok(diagram)
    });
    built.map_err(|d| name_the_override(d, overrides, has_lines))
}

/// Expands the subsystems, arrays and Urdf blocks of `document`, evaluates its expressions and
/// applies `after`, the overrides (of `overrides`, all the user gave, for messages) that address
/// blocks the expansion makes: after this, [`Document::spec`] reads the model as it is built.
/// The build and a parameter set that moves a variable both read a model this way.
pub(crate) fn expand_and_resolve(
    document: &mut Document,
    after: &[String],
    overrides: &[String],
) -> Result<model::subsystem::Expansion, Diagnostic> {
    // A model built in code has no lines, so an error without one need not be an override's.
    let has_lines = document.source.has_lines();
    // Subsystems, Urdf blocks and arrays become flat blocks first (each applying the overrides
    // that name the blocks it makes, `--set leg1/knee.q0=0.2`, `--set robot/knee.q0=0.3`,
    // `--set dom[2].mass=0.02`).
    let mut after: Vec<&String> = after.iter().collect();
    let expansion = model::subsystem::expand_document(document, &mut after, library::IMPORTERS)
        .map_err(|d| name_the_override(d, overrides, has_lines))?;
    document
        .resolve_variables()
        .map_err(|d| name_the_override(d, overrides, has_lines))?;
    let resolve_again = !after.is_empty();
    for o in after {
        document.apply_override(o)?;
    }
    if resolve_again {
        // An override of an expanded block may itself be an expression.
        document
            .resolve_variables()
            .map_err(|d| name_the_override(d, overrides, has_lines))?;
    }
    Ok(expansion)
}

/// Every value written in the file has a line; a value set with `--set` has none. So an error
/// about the model that has no line, when options were given, is about one of them: say which
/// (the file name alone would send the user looking in the file).
///
/// A model built in code has no lines at all, so there only an override that addresses the
/// error's block (or section) and whose key the message quotes is named: it replaced the value
/// the code gave.
fn name_the_override(mut d: Diagnostic, overrides: &[String], has_lines: bool) -> Diagnostic {
    if d.line_column.is_some() || d.file.is_none() || overrides.is_empty() {
        return d;
    }
    let blamed = blamed_overrides(&d, overrides);
    let options: Vec<String> = match blamed {
        Blamed::Quoted(list) => list,
        Blamed::OfBlock(list) | Blamed::Any(list) if has_lines => list,
        _ => return d,
    }
    .iter()
    .map(|o| format!("--set '{o}'"))
    .collect();
    let from = match options.as_slice() {
        [one] => one.clone(),
        many => format!("one of {}", many.join(", ")),
    };
    d.message = format!("{from}: {}", d.message);
    d
}

/// The overrides an error without a line can be about, from the most to the least certain.
enum Blamed<'a> {
    /// Those addressing its block (or the `model`/`solver`/`output` sections when it names no
    /// block) whose key the message quotes.
    Quoted(Vec<&'a String>),
    /// Those addressing its block, none quoted.
    OfBlock(Vec<&'a String>),
    /// All of them, none addressing its block.
    Any(Vec<&'a String>),
}

/// Which overrides an error without a line can be about; see [`Blamed`].
fn blamed_overrides<'a>(d: &Diagnostic, overrides: &'a [String]) -> Blamed<'a> {
    let path_of = |o: &'a String| o.split_once('=').map_or(o.as_str(), |(p, _)| p.trim());
    let about_block = |o: &&'a String| {
        let first = path_of(o).split('.').next().unwrap_or_default();
        match &d.block {
            Some(block) => first == &**block,
            None => matches!(first, "model" | "solver" | "output"),
        }
    };
    let quoted = |o: &&'a String| {
        let key = path_of(o).rsplit('.').next().unwrap_or_default();
        d.message.contains(&format!("'{key}'"))
    };
    let of_block: Vec<&String> = overrides.iter().filter(about_block).collect();
    let narrowed: Vec<&String> = of_block.iter().copied().filter(quoted).collect();
    match (narrowed.is_empty(), of_block.is_empty()) {
        (false, _) => Blamed::Quoted(narrowed),
        (true, false) => Blamed::OfBlock(of_block),
        (true, true) => Blamed::Any(overrides.iter().collect()),
    }
}
