//! Building a model in code: blocks with their parameters, signal lines and physical
//! connections, then the same diagram a model file gives.
//!
//! ```no_run
//! use blockdyn::builder::blocks::{Gain, Integrator, Scope};
//! use blockdyn::builder::ModelBuilder;
//!
//! let mut m = ModelBuilder::new("decay", 1.0);
//! let x = m.add("x", Integrator::new(1.0));
//! let k = m.add("k", Gain::new(-2.0));
//! m.connect(x.port("out"), k.port("in"));
//! m.connect(k.port("out"), x.port("in"));
//! let scope = m.add("scope", Scope::new(1));
//! m.connect(x.port("out"), scope.port("in1"));
//! let diagram = m.build().expect("a valid model");
//! ```
//!
//! The builder and the TOML reader are two front ends to one model tree ([`Document`]: blocks
//! with their parameter tables, connections, settings), from which one build path makes the
//! diagram. The builder makes the tree directly (no text is written or parsed), so a built model
//! gets every check and message a file gets (unknown parameters, shapes, unconnected inputs,
//! algebraic loops, …), naming the model, the block and the parameter; it has no lines to point
//! to, so its messages give none. [`ModelBuilder::to_toml`] writes the model out as a file (which
//! reads back into the same tree). Block types are found in a [`Registry`] (the standard library
//! by default), so a program's own block types are built the same way ([`BlockSpec::of_type`]).

pub mod blocks;

use crate::block::Block;
use crate::library::Registry;
use crate::model::param_value::tree_table;
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, Document, SourceFile, Span};
use crate::params::{closest, write_key, write_string, ParamError, ParamMap, ParamSource, Params};
use crate::{Blueprint, Diagram};
use std::fmt::Write;

/// A parameter's value, as a model file writes it: the one parameter value type
/// ([`crate::params::ParamValue`]), re-exported with [`table`] for the builder's users.
pub use crate::params::{table, ParamValue};

/// A block to add: its type and parameters. Made by the typed constructors of [`blocks`] (which
/// convert into it), or by [`BlockSpec::of_type`] with [`BlockSpec::param`] for any registered
/// type.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockSpec {
    type_name: String,
    params: ParamMap,
}

/// A [`BlockSpec`] that [`BlockSpec::build`] cannot make into a block.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BlockSpecError {
    /// The registry has no block type of that name.
    #[error("unknown block type \"{type_name}\"{}", did_you_mean(*hint))]
    UnknownType {
        /// The type asked for.
        type_name: String,
        /// The nearest type name the registry has, when one is near.
        hint: Option<&'static str>,
    },
    /// The type is an importer (`Urdf`), which expands into blocks when a model is built: it is
    /// not one block to make.
    #[error("\"{type_name}\" is an importer, not a block type: it expands into blocks when the model is built\n  help: add it to a ModelBuilder (ModelBuilder::build expands it) instead of building it alone")]
    Importer {
        /// The importer's type name.
        type_name: &'static str,
    },
    /// The block type refused the parameters (the message a model file gets, without a place).
    #[error("{type_name}: {source}")]
    Params {
        /// The block type.
        type_name: &'static str,
        /// What its constructor said.
        source: ParamError,
    },
}

impl BlockSpec {
    /// A block of any registered type (`type = "..."`), parameters added with [`BlockSpec::param`].
    pub fn of_type(type_name: &str) -> BlockSpec {
        BlockSpec {
            type_name: type_name.to_string(),
            params: ParamMap::default(),
        }
    }

    /// Sets a parameter (the same key a model file writes).
    pub fn param(mut self, key: &str, value: impl Into<ParamValue>) -> BlockSpec {
        self.params.set(key, value.into());
        self
    }

    /// The block type's name (`type = "..."`).
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// The parameters set, typed.
    pub fn params(&self) -> &ParamMap {
        &self.params
    }

    /// The block itself, made by its type's constructor in `registry` from the typed parameters
    /// (no model tree and no text on the way): the constructor's checks, and a parameter its
    /// type does not read refused, with the messages a model file gets (without a place). A
    /// block in a model is made by [`ModelBuilder::build`], which also wires, checks and
    /// schedules it.
    pub fn build(&self, registry: &Registry) -> Result<Box<dyn Block>, BlockSpecError> {
        let Some(ty) = registry.find(&self.type_name) else {
            if let Some(importer) = registry.importers().find(|i| i.name == self.type_name) {
                return Err(BlockSpecError::Importer {
                    type_name: importer.name,
                });
            }
            return Err(BlockSpecError::UnknownType {
                type_name: self.type_name.clone(),
                hint: closest(&self.type_name, registry.all().map(|t| t.name)),
            });
        };
        let refused = |source| BlockSpecError::Params {
            type_name: ty.name,
            source,
        };
        let reader = self.params.reader();
        let block = (ty.build)(&Params::new(&reader)).map_err(refused)?;
        reader.finish().map_err(refused)?;
        Ok(block)
    }
}

/// A block added to a [`ModelBuilder`]: names its ports for connections, and its recorded
/// columns in a run's recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHandle {
    name: String,
}

/// A port of a block: `handle.port("out")`, or one element of a vector output,
/// `handle.port("p[2]")` (as a model file writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortRef(String);

impl BlockHandle {
    /// The block's name in the model.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// One of its ports.
    pub fn port(&self, port: &str) -> PortRef {
        PortRef(format!("{}.{port}", self.name))
    }
    /// The recorded column of its output `port` (an element: `"p[2]"`), if the run recorded it.
    pub fn column(&self, recording: &crate::output::Recording, port: &str) -> Option<Vec<f64>> {
        let j = recording.column_index(&format!("{}.{port}", self.name))?;
        Some(recording.column_values(j).collect())
    }
}

/// A model built in code; see the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelBuilder {
    name: String,
    stop_time: f64,
    solver: Vec<(String, ParamValue)>,
    output: Vec<(String, ParamValue)>,
    blocks: Vec<(String, BlockSpec)>,
    /// Connection strings as a model file writes them.
    connections: Vec<String>,
}

impl ModelBuilder {
    /// A model called `name` that runs from t = 0 to `stop_time` (s).
    pub fn new(name: &str, stop_time: f64) -> ModelBuilder {
        ModelBuilder {
            name: name.to_string(),
            stop_time,
            solver: Vec::new(),
            output: Vec::new(),
            blocks: Vec::new(),
            connections: Vec::new(),
        }
    }

    /// A `[solver]` setting, e.g. `("rel_tol", 1e-6.into())` or `("method", "trbdf2".into())`.
    pub fn solver(&mut self, key: &str, value: impl Into<ParamValue>) -> &mut Self {
        set(&mut self.solver, key, value.into());
        self
    }

    /// An `[output]` setting, e.g. `("log", …)` (a run from code writes no files unless asked).
    pub fn output(&mut self, key: &str, value: impl Into<ParamValue>) -> &mut Self {
        set(&mut self.output, key, value.into());
        self
    }

    /// Adds a block called `name`: a typed constructor of [`blocks`] (`Gain::new(2.0)`) or any
    /// [`BlockSpec`].
    pub fn add(&mut self, name: &str, block: impl Into<BlockSpec>) -> BlockHandle {
        self.blocks.push((name.to_string(), block.into()));
        BlockHandle {
            name: name.to_string(),
        }
    }

    /// A signal line from an output to an input.
    pub fn connect(&mut self, from: PortRef, to: PortRef) -> &mut Self {
        self.connections.push(format!("{} -> {}", from.0, to.0));
        self
    }

    /// A physical connection between two frames, or a geometry and a contact block's port.
    pub fn attach(&mut self, a: PortRef, b: PortRef) -> &mut Self {
        self.connections.push(format!("{} -- {}", a.0, b.0));
        self
    }

    /// The model as a model file writes it, to save it: the file reads back into the model
    /// [`ModelBuilder::document`] makes.
    pub fn to_toml(&self) -> String {
        let mut s = String::from("connect = [\n");
        for c in &self.connections {
            s.push_str("  ");
            write_string(c, &mut s);
            s.push_str(",\n");
        }
        s.push_str("]\n\n[model]\nname = ");
        write_string(&self.name, &mut s);
        s.push_str("\nstop_time = ");
        ParamValue::Float(self.stop_time).write_toml(&mut s);
        s.push('\n');
        for (section, entries) in [("solver", &self.solver), ("output", &self.output)] {
            if !entries.is_empty() {
                let _ = writeln!(s, "\n[{section}]");
                write_entries(entries, &mut s);
            }
        }
        for (name, block) in &self.blocks {
            s.push_str("\n[blocks.");
            write_key(name, &mut s);
            s.push_str("]\ntype = ");
            write_string(&block.type_name, &mut s);
            s.push('\n');
            write_entries(block.params.entries(), &mut s);
        }
        s
    }

    /// Builds the diagram with the standard library.
    pub fn build(&self) -> Result<Diagram, Diagnostic> {
        self.build_with(Registry::standard())
    }

    /// Builds the diagram with the block types of `registry`.
    pub fn build_with(&self, registry: &Registry) -> Result<Diagram, Diagnostic> {
        crate::build_model_with(self.document()?, &[], registry)
    }

    /// Builds the diagram with the block types of `registry`, keeping the model beside it: the
    /// [`Blueprint`] that parameter sets and vectors of this diagram read (as
    /// [`crate::build_model_parts`] does for `self.document()?`).
    pub fn build_parts(&self, registry: &Registry) -> Result<(Blueprint, Diagram), Diagnostic> {
        crate::build_model_parts(self.document()?, &[], registry)
    }

    /// The model tree the diagram is built from (for [`crate::build_model`] with overrides, and
    /// sweeps), labelled `NAME (built in code)` in messages. Fails only for a block given a
    /// parameter called `type` (its type is the [`BlockSpec`]'s).
    pub fn document(&self) -> Result<Document, Diagnostic> {
        let label = format!("{} (built in code)", self.name);
        let source = SourceFile::in_code(&label, self.to_toml());
        let mut root = Table::default();
        let connections = self
            .connections
            .iter()
            .map(|c| ParamValue::String(c.clone()))
            .collect();
        push(
            &mut root,
            "connect",
            Value::from(&ParamValue::Array(connections)),
        );
        let model = [
            ("name".to_string(), ParamValue::String(self.name.clone())),
            ("stop_time".to_string(), ParamValue::Float(self.stop_time)),
        ];
        push(&mut root, "model", table_value(&model));
        for (section, entries) in [("solver", &self.solver), ("output", &self.output)] {
            if !entries.is_empty() {
                push(&mut root, section, table_value(entries));
            }
        }
        let mut blocks = Table::default();
        for (name, block) in &self.blocks {
            if block.params.get("type").is_some() {
                return Err(Diagnostic::at(
                    &source,
                    &Span::NONE,
                    "a parameter cannot be called 'type': that key is the block's type",
                )
                .block(name)
                .hint(format!(
                    "give the type with BlockSpec::of_type(\"{}\") and leave 'type' out of the parameters",
                    block.type_name
                )));
            }
            let mut entry = Table::default();
            push(
                &mut entry,
                "type",
                Value::from(&ParamValue::String(block.type_name.clone())),
            );
            entry
                .entries
                .extend(tree_table(block.params.entries()).entries);
            push(
                &mut blocks,
                name,
                Value {
                    kind: ValueKind::Table(entry),
                    span: Span::NONE,
                },
            );
        }
        push(
            &mut root,
            "blocks",
            Value {
                kind: ValueKind::Table(blocks),
                span: Span::NONE,
            },
        );
        Ok(Document {
            source,
            root,
            inputs: Vec::new(),
        })
    }
}

/// ` (did you mean "NAME"?)` for a near type name, else nothing.
fn did_you_mean(near: Option<&str>) -> String {
    match near {
        Some(name) => format!(" (did you mean \"{name}\"?)"),
        None => String::new(),
    }
}

/// `key = value` appended to `table`, with no place in a file.
fn push(table: &mut Table, key: &str, value: Value) {
    table.entries.push(Entry {
        key: key.to_string(),
        key_span: Span::NONE,
        value,
    });
}

fn table_value(entries: &[(String, ParamValue)]) -> Value {
    Value {
        kind: ValueKind::Table(tree_table(entries)),
        span: Span::NONE,
    }
}

/// Sets `key` in `entries`: replaces its value where it is, or appends it.
fn set(entries: &mut Vec<(String, ParamValue)>, key: &str, value: ParamValue) {
    match entries.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => entries.push((key.to_string(), value)),
    }
}

fn write_entries(entries: &[(String, ParamValue)], s: &mut String) {
    for (key, value) in entries {
        write_key(key, s);
        s.push_str(" = ");
        value.write_toml(s);
        s.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mistake in a built model gets the loader's message, naming the block and parameter.
    #[test]
    fn a_built_models_mistakes_get_the_file_messages() {
        let mut m = ModelBuilder::new("bad", 1.0);
        let k = m.add(
            "k",
            BlockSpec::from(blocks::Gain::new(2.0)).param("gian", 3.0),
        );
        let c = m.add("c", blocks::Constant::new(1.0));
        m.connect(c.port("out"), k.port("in"));
        let e = m.build().unwrap_err().to_string();
        assert!(
            e.contains("unknown parameter 'gian'") && e.contains("block 'k'"),
            "{e}"
        );
        assert!(e.contains("bad (built in code)"), "{e}");
    }

    /// The typed path ([`BlockSpec::build`], no model tree) refuses what the model built from the
    /// same spec refuses, with the same message and hint: a string where a number goes, a
    /// misspelt key (with the nearest known one), a nested law's entry of the wrong kind. An
    /// unknown type names the nearest one.
    #[test]
    fn the_typed_path_says_what_the_model_says() {
        let registry = Registry::standard();
        let normal = table([
            ("method", "linear".into()),
            ("stiffness", "stiff".into()),
            ("damping", 1.0.into()),
        ]);
        let cases = [
            BlockSpec::of_type("Integrator").param("initial", "zero"),
            BlockSpec::from(blocks::Gain::new(2.0)).param("gian", 3.0),
            BlockSpec::of_type("SpatialContactForce").param("normal", normal),
        ];
        for spec in cases {
            let mut m = ModelBuilder::new("same", 1.0);
            m.add("b", spec.clone());
            let file = m.build().unwrap_err();
            let Err(BlockSpecError::Params { source, .. }) = spec.build(registry) else {
                panic!("{spec:?} builds on the typed path");
            };
            assert_eq!(file.message, source.message(), "{spec:?}");
            assert_eq!(file.hint.as_deref(), source.hint_text(), "{spec:?}");
        }
        let unknown = BlockSpec::of_type("Gian").build(registry).err();
        assert_eq!(
            unknown.map(|e| e.to_string()),
            Some("unknown block type \"Gian\" (did you mean \"Gain\"?)".to_string())
        );
        // An importer is not unknown: it is expanded by the model build, which says so.
        let urdf = BlockSpec::of_type("Urdf").build(registry).err();
        assert!(
            matches!(urdf, Some(BlockSpecError::Importer { type_name: "Urdf" })),
            "{urdf:?}"
        );
    }
}
