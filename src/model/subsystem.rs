//! Subsystems: a block `type = "Subsystem"`, `file = "leg.toml"` is replaced, before the
//! diagram is built, by the blocks and connections of that file, named `INSTANCE/NAME`.
//!
//! The file (a path relative to the including file) has `[variables]`, `[blocks.*]` and
//! `connect`; each instance may set its variables (`variables = { length = 0.3 }`, evaluated
//! with the including file's variables). Its ports are its `Inport` blocks (an Inport `u` makes
//! the input `INSTANCE.u`), `Outport` blocks (`y` makes the output `INSTANCE.y`) and `FramePort`
//! blocks (`hip` makes the frame port `INSTANCE.hip`; inside, its frame is `hip.F`). A
//! connection to a port is spliced into the connections inside: the port blocks vanish, except an
//! Inport nothing drives from outside (it then outputs 0) and an Outport nothing reads (a sink).
//! Subsystems nest; `count = N` makes an array of them ([`super::arrays`]).
//!
//! Every value keeps its place: the file's text is added to the model's [`SourceFile`] once per
//! instance (`SourceFile::include`), so a message points at the line inside the subsystem file
//! and names each including instance and its line.

use super::arrays::{element_table, expand_connection, read_count};
use super::connection::{parse_connection, Connection};
use super::diagnostic::{closest, Diagnostic};
use super::document::Document;
use super::expander::{Expander, Flat};
use super::importer::{
    refuse_connections_to_skipped, refuse_duplicates, refuse_references_to_skipped, Importer,
};
use super::instance_file::{check_name, relocate_file, set_variables, shift_table};
use super::overrides::Override;
use super::source::{SourceFile, Span};
use super::splice::{leftovers, ports_of, splice, undriven_inports, Port, PortKind};
use super::value::{Entry, Table, Value, ValueKind};
use super::variables::{evaluate_file, substitute_with, Variables, VARIABLES};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::assign::SUBSYSTEM_KEYS;
pub use super::assign::{FRAMEPORT, INPORT, OUTPORT, SUBSYSTEM};
pub use super::expander::{ExpandedInstance, Expansion, MAX_BLOCKS};
/// The top-level keys of a subsystem file.
const FILE_KEYS: [&str; 3] = ["variables", "blocks", "connect"];
/// How deep subsystems may nest.
pub const MAX_DEPTH: usize = 32;

/// Where an expansion leaves the connections it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionsTo {
    /// Written into the document's `connect` as text (what a reader of the document sees), and
    /// handed back parsed too ([`Expansion::connections`]).
    Document,
    /// Only handed back parsed: the document's `connect` is left empty, for a reader that takes
    /// them with [`Document::take_spec_with`] (a 20,000-joint URDF chain's 120,000 are then
    /// never written as text).
    Caller,
}

/// Expands the subsystems and arrays of `document` in place (blocks and connections become the
/// flat ones, every expression of a block evaluated), applying each of `overrides` that names a
/// block made on the way (removed from the list). Does nothing to a model with neither.
pub fn expand_document(
    document: &mut Document,
    overrides: &mut Vec<&Override>,
    importers: &[&Importer],
) -> Result<Expansion, Diagnostic> {
    expand_document_to(document, overrides, importers, ConnectionsTo::Document)
}

/// [`expand_document`], leaving the connections made where `to` says.
pub fn expand_document_to(
    document: &mut Document,
    overrides: &mut Vec<&Override>,
    importers: &[&Importer],
    to: ConnectionsTo,
) -> Result<Expansion, Diagnostic> {
    let blocks = document.root.get("blocks").and_then(|e| e.value.as_table());
    let needed = blocks.is_some_and(|t| {
        t.entries.iter().any(|e| {
            e.value.as_table().is_some_and(|b| {
                b.get("count").is_some()
                    || b.get("type")
                        .and_then(|t| t.value.as_str())
                        .is_some_and(|t| {
                            matches!(t, SUBSYSTEM | FRAMEPORT | INPORT)
                                || importers.iter().any(|i| i.name == t)
                        })
            })
        })
    });
    if !needed {
        return Ok(Expansion::default());
    }
    let model_dir = Path::new(&document.source.path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let vars = evaluate_file(&document.source, &document.root)?;
    let root = document.root.clone();
    let mut cx = Expander {
        source: &mut document.source,
        model_dir,
        files: HashMap::new(),
        stack: Vec::new(),
        overrides,
        made: 0,
        expansion: Expansion::default(),
        importers,
        imported_made: Default::default(),
        skipped: Vec::new(),
        imported_connections: Vec::new(),
    };
    let level = Level {
        prefix: String::new(),
        dir: PathBuf::new(),
        top: true,
    };
    let mut flat = cx.expand_file(&root, &level, &vars)?;
    flat.connections.append(&mut cx.imported_connections);
    refuse_connections_to_skipped(cx.source, &flat.connections, &cx.skipped)?;
    refuse_references_to_skipped(cx.source, &root, cx.overrides, &cx.skipped)?;
    refuse_duplicates(cx.source, &flat.blocks, &cx.imported_made)?;
    let mut expansion = std::mem::take(&mut cx.expansion);
    expansion.instances = flat.instances.clone();
    expansion.skipped = std::mem::take(&mut cx.skipped);
    let connections: Vec<Value> = match to {
        ConnectionsTo::Document => flat
            .connections
            .iter()
            .map(|c| Value {
                kind: ValueKind::String(c.text()),
                span: c.span.clone(),
            })
            .collect(),
        ConnectionsTo::Caller => Vec::new(),
    };
    if let Some(ValueKind::Table(t)) = document.root.get_mut("blocks").map(|e| &mut e.value.kind) {
        t.entries = flat.blocks;
    }
    match document.root.get_mut("connect") {
        Some(e) => e.value.kind = ValueKind::Array(connections),
        None => document.root.entries.insert(
            0,
            Entry {
                key: "connect".into(),
                key_span: Span::NONE,
                value: Value {
                    kind: ValueKind::Array(connections),
                    span: Span::NONE,
                },
            },
        ),
    }
    document.inputs.extend(expansion.files.iter().cloned());
    expansion.connections = Some(flat.connections);
    Ok(expansion)
}

/// Where a file's blocks go: their names' prefix (`leg1/`), the file's directory relative to the
/// model's, and whether it is the model file itself.
struct Level {
    prefix: String,
    dir: PathBuf,
    top: bool,
}

/// What a file's blocks say about its connections: the arrays' counts, the instances' ports (by
/// local name, in `order`) and the file's own port blocks.
#[derive(Default)]
struct Wiring {
    counts: HashMap<String, usize>,
    instances: HashMap<String, Vec<Port>>,
    order: Vec<String>,
    port_blocks: Vec<(String, PortKind, Span)>,
}

impl Expander<'_, '_> {
    /// The blocks and connections of the file `root` at `level`, with its variables `vars`.
    fn expand_file(
        &mut self,
        root: &Table,
        level: &Level,
        vars: &Variables,
    ) -> Result<Flat, Diagnostic> {
        let mut flat = Flat::default();
        let empty = Table::default();
        let blocks = root
            .get("blocks")
            .and_then(|e| e.value.as_table())
            .unwrap_or(&empty);
        let mut w = Wiring::default();
        let expanded: Vec<&str> = blocks
            .entries
            .iter()
            .filter(|e| {
                e.value.as_table().is_some_and(|t| {
                    t.get("count").is_some()
                        || t.get("type").and_then(|t| t.value.as_str()) == Some(SUBSYSTEM)
                })
            })
            .map(|e| e.key.as_str())
            .collect();
        for entry in &blocks.entries {
            check_name(self.source, entry, &expanded)?;
        }
        for entry in &blocks.entries {
            self.entry(entry, level, vars, &mut flat, &mut w)?;
        }
        let written = self.connections(root, vars, &w.counts)?;
        let mut spliced = vec![false; flat.connections.len()];
        let mut made = Vec::new();
        for c in &written {
            made.extend(splice(
                self.source,
                c,
                &level.prefix,
                &w.instances,
                &mut spliced,
            )?);
        }
        let (joined, gone) = leftovers(&w.order, &w.instances, &mut spliced, &flat.connections);
        let undriven = undriven_inports(self.source, &w.order, &w.instances, &spliced);
        self.expansion.warnings.extend(undriven);
        made.extend(joined);
        let mut kept: Vec<Connection> = flat
            .connections
            .into_iter()
            .zip(&spliced)
            .filter(|(_, s)| !**s)
            .map(|(c, _)| c)
            .collect();
        kept.extend(made);
        flat.connections = kept;
        flat.blocks.retain(|b| !gone.contains(&b.key));
        if !level.top {
            flat.ports = ports_of(
                self.source,
                &level.prefix,
                &w.port_blocks,
                &flat.connections,
            )?;
        }
        Ok(flat)
    }

    /// One block table of a file at `level`: its elements (an array's), each a block or an
    /// instance's blocks, added to `flat`; what it says about the connections to `w`.
    fn entry(
        &mut self,
        entry: &Entry,
        level: &Level,
        vars: &Variables,
        flat: &mut Flat,
        w: &mut Wiring,
    ) -> Result<(), Diagnostic> {
        let Some(table) = entry.value.as_table() else {
            flat.blocks
                .push(self.renamed(entry, &level.prefix, &entry.key));
            return Ok(());
        };
        let type_name = table.get("type").and_then(|t| t.value.as_str());
        let kind = type_name.and_then(PortKind::of);
        if let Some(kind) = kind {
            if kind == PortKind::Frame && level.top {
                return Err(Diagnostic::at(
                    self.source,
                    &entry.key_span,
                    "a FramePort is a subsystem's frame port; the model file has none",
                )
                .block(&entry.key)
                .hint("connect the frames directly, or move this block into a subsystem file"));
            }
            if !level.top {
                w.port_blocks
                    .push((entry.key.clone(), kind, entry.key_span.clone()));
            } else if kind == PortKind::In {
                let d = Diagnostic::at(
                    self.source,
                    &entry.key_span,
                    format!("the Inport '{}' is an input of the model that nothing drives: it outputs 0", entry.key),
                )
                .block(&entry.key)
                .hint(format!("to drive it, write this file as a Subsystem of another model and connect \"SOURCE.out -> INSTANCE.{}\" there (blockdyn linearize --inputs {}.out perturbs it)", entry.key, entry.key));
                self.expansion.warnings.push(d.to_string());
            }
        }
        let elements = self.elements(entry, table, kind.is_some(), vars, w)?;
        for element in elements {
            let local = match element {
                Some(k) => format!("{}[{k}]", entry.key),
                None => entry.key.clone(),
            };
            let full = format!("{}{local}", level.prefix);
            let mut t = element_table(table);
            self.apply_overrides(&full, &mut t)?;
            let scope = match element {
                Some(k) => vars.with_index(k),
                None => vars.clone(),
            };
            if type_name == Some(SUBSYSTEM) {
                // Instances and their connections count too: nested arrays of empty subsystems
                // or a long `connect` list used many times would otherwise grow unbounded.
                self.count_block(&entry.key_span)?;
                let inner = self.instance(&t, &full, &entry.key_span, level, &scope)?;
                self.count_items(inner.connections.len(), &entry.key_span)?;
                flat.instances.push(ExpandedInstance {
                    name: full.clone(),
                    type_name: SUBSYSTEM,
                });
                let base = flat.connections.len();
                flat.blocks.extend(inner.blocks);
                flat.connections.extend(inner.connections);
                let ports = inner
                    .ports
                    .into_iter()
                    .map(|mut p| {
                        p.inner.iter_mut().for_each(|k| *k += base);
                        p
                    })
                    .collect();
                w.order.push(local.clone());
                w.instances.insert(local, ports);
                continue;
            }
            let mut value = Value {
                kind: ValueKind::Table(t),
                span: entry.value.span.clone(),
            };
            substitute_with(self.source, &scope, &mut value)?;
            let importers = self.importers;
            let importer = type_name.and_then(|t| importers.iter().find(|i| i.name == t));
            if let Some(&importer) = importer {
                if !level.top {
                    relocate_file(&mut value, &level.dir);
                }
                self.import(importer, &value, &full, &entry.key_span, &scope, flat)?;
                continue;
            }
            self.count_block(&entry.key_span)?;
            if kind != Some(PortKind::Frame) {
                flat.blocks.push(Entry {
                    key: full,
                    key_span: entry.key_span.clone(),
                    value,
                });
            }
        }
        Ok(())
    }

    /// The elements of the block table `table`: `[None]` for one block, `Some(k)` for each
    /// element of an array (whose count goes to `w`).
    fn elements(
        &self,
        entry: &Entry,
        table: &Table,
        is_port: bool,
        vars: &Variables,
        w: &mut Wiring,
    ) -> Result<Vec<Option<usize>>, Diagnostic> {
        let Some(c) = table.get("count") else {
            return Ok(vec![None]);
        };
        if is_port {
            return Err(Diagnostic::at(
                self.source,
                &c.key_span,
                "a port block cannot be an array",
            )
            .block(&entry.key)
            .hint("write one Inport, Outport or FramePort per port"));
        }
        let mut value = c.value.clone();
        substitute_with(self.source, vars, &mut value)?;
        let n = read_count(self.source, &entry.key, &value)?;
        w.counts.insert(entry.key.clone(), n);
        Ok((0..n).map(Some).collect())
    }

    /// A non-table entry kept as written (reading the document reports it), renamed.
    fn renamed(&self, entry: &Entry, prefix: &str, local: &str) -> Entry {
        Entry {
            key: format!("{prefix}{local}"),
            ..entry.clone()
        }
    }

    /// The connections written in `root`, parsed, with their array indices evaluated.
    fn connections(
        &self,
        root: &Table,
        vars: &Variables,
        counts: &HashMap<String, usize>,
    ) -> Result<Vec<Connection>, Diagnostic> {
        let Some(v) = root.get("connect").map(|e| &e.value) else {
            return Ok(Vec::new());
        };
        let items = v.as_array().ok_or_else(|| {
            Diagnostic::at(self.source, &v.span, "'connect' must be an array of strings")
                .hint("write connect = [\"a.out -> b.in\", \"world.W -- joint.B\"] before the first [table]")
        })?;
        let mut out = Vec::new();
        for item in items {
            let text = item.as_str().ok_or_else(|| {
                Diagnostic::at(
                    self.source,
                    &item.span,
                    "entries of 'connect' must be strings",
                )
                .hint("write \"block.port -> block.port\"")
            })?;
            let c = parse_connection(text, item.span.clone())
                .map_err(|e| Diagnostic::at(self.source, &item.span, e.message).hint(e.hint))?;
            out.extend(expand_connection(self.source, vars, counts, &c)?);
        }
        Ok(out)
    }

    /// Expands the Subsystem block `table` named `full`, written at `at`.
    fn instance(
        &mut self,
        table: &Table,
        full: &str,
        at: &Span,
        level: &Level,
        scope: &Variables,
    ) -> Result<Flat, Diagnostic> {
        let src = &*self.source;
        if let Some(e) = table
            .entries
            .iter()
            .find(|e| !SUBSYSTEM_KEYS.contains(&e.key.as_str()))
        {
            let d = Diagnostic::at(
                src,
                &e.key_span,
                format!("unknown parameter '{}' of a Subsystem", e.key),
            )
            .block(full);
            return Err(match closest(&e.key, SUBSYSTEM_KEYS) {
                Some(near) => d.hint(format!("did you mean '{near}'?")),
                None => d.hint("a Subsystem has file = \"leg.toml\", variables = { ... } and count = N; set the subsystem's variables under variables"),
            });
        }
        let file = table.get("file").ok_or_else(|| {
            Diagnostic::at(src, at, "a Subsystem needs its file")
                .block(full)
                .hint("add file = \"leg.toml\" (relative to this file)")
        })?;
        let name = file.value.as_str().ok_or_else(|| {
            Diagnostic::at(src, &file.value.span, "'file' must be a string (a path)").block(full)
        })?;
        let rel = level.dir.join(name);
        let (sub_source, mut root, canonical) = self.read(&rel, full, &file.value.span, at)?;
        let base = (self.source.include(sub_source, full, at.clone()))
            .map_err(|e| Diagnostic::of_inclusion(self.source, at, full, e))?;
        shift_table(&mut root, base);
        if let Some(e) = root
            .entries
            .iter()
            .find(|e| !FILE_KEYS.contains(&e.key.as_str()))
        {
            return Err(Diagnostic::at(self.source, &e.key_span, format!("a subsystem file has no '{}'", e.key))
                .hint("a subsystem file has [variables], [blocks.NAME] and connect; [model], [solver] and [output] belong to the model file"));
        }
        if let Some(given) = table.get(VARIABLES) {
            let mut given = given.value.clone();
            substitute_with(self.source, scope, &mut given)?;
            set_variables(self.source, &mut root, &given, full)?;
        }
        let vars = evaluate_file(self.source, &root)?;
        self.stack.push(canonical);
        let inner = Level {
            prefix: format!("{full}/"),
            dir: rel.parent().unwrap_or(Path::new("")).to_path_buf(),
            top: false,
        };
        let flat = self.expand_file(&root, &inner, &vars);
        self.stack.pop();
        flat
    }

    /// The subsystem file at `rel` (relative to the model's directory): its text and tree, and
    /// its canonical path; refused when it is being expanded already (a cycle) or nests too deep.
    /// `at` is where the file is named, `block_at` the instance's block.
    fn read(
        &mut self,
        rel: &Path,
        full: &str,
        at: &Span,
        block_at: &Span,
    ) -> Result<(Arc<SourceFile>, Table, PathBuf), Diagnostic> {
        use super::input_file::{read_regular, MAX_TEXT_FILE_BYTES};
        let path = self.model_dir.join(rel);
        let located = |m: String| Diagnostic::at(self.source, at, m).block(full);
        let canonical = std::fs::canonicalize(&path).map_err(|e| {
            located(format!(
                "cannot read the subsystem file '{}': {e}",
                path.display()
            ))
            .hint("the path is relative to the file that names it")
        })?;
        if let Some(k) = self.stack.iter().position(|p| *p == canonical) {
            let chain: Vec<String> = self.stack[k..]
                .iter()
                .chain(std::iter::once(&canonical))
                .map(|p| {
                    p.file_name().map_or_else(
                        || p.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    )
                })
                .collect();
            return Err(located(format!(
                "subsystem files include each other: {}",
                chain.join(" → ")
            ))
            .hint("a subsystem cannot contain itself; remove one of these Subsystem blocks"));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(located(format!(
                "subsystems nest more than {MAX_DEPTH} deep"
            )));
        }
        if let Some((s, t)) = self.files.get(&canonical) {
            return Ok((s.clone(), t.clone(), canonical));
        }
        let bytes = read_regular(&path, "subsystem file", MAX_TEXT_FILE_BYTES)
            .map_err(|e| located(e.to_string()).hint(e.hint()))?;
        let label = path.display().to_string();
        let text = String::from_utf8(bytes).map_err(|_| {
            located(format!("the subsystem file '{label}' is not UTF-8 text"))
                .hint("save the file as UTF-8")
        })?;
        let parsed = Document::parse(&label, &text).map_err(|d| {
            let l = self.source.locate(block_at.start().unwrap_or(0));
            let place = l
                .line_column
                .map_or(String::new(), |(a, b)| format!(" ({}:{a}:{b})", l.path));
            d.include_in(
                std::iter::once(format!("in subsystem '{full}'{place}")).chain(l.included_from),
            )
        })?;
        self.expansion.files.push(path);
        let source = Arc::new(parsed.source);
        self.files
            .insert(canonical.clone(), (source.clone(), parsed.root.clone()));
        Ok((source, parsed.root, canonical))
    }
}
