//! A model file: parsed with spans, `--set` overrides applied, then read into a [`ModelSpec`].

use super::animation::read_animation;
pub(crate) use super::assign::set_path;
use super::connection::{parse_connection, Connection};
use super::diagnostic::{closest, Diagnostic};
use super::overrides::Override;
use super::reader::TableReader;
use super::source::{SourceFile, Span};
use super::value::{from_de_table, Entry, Table, Value, ValueKind};
use crate::output::rows::{OutputRows, DEFAULT_MAX_OUTPUT_BYTES, MAX_REFINE};
use crate::output::AnimationSettings;
use crate::solver::SolverOptions;
use toml::de::DeTable;

/// A parsed model file, before it is read into a [`ModelSpec`].
#[derive(Clone, Debug)]
pub struct Document {
    /// The text and its name, for messages.
    pub source: SourceFile,
    /// The model tree: the TOML document with spans into the text (none for a model built in
    /// code).
    pub root: Table,
    /// The files read to make it: the model file ([`Document::load`]), then each URDF and mesh
    /// its Urdf blocks read (added by the expansion). Outputs never replace them.
    pub inputs: Vec<std::path::PathBuf>,
}

/// One block as written: `[blocks.NAME]` with `type = "..."` and its parameters.
#[derive(Clone, Debug)]
pub struct BlockEntry {
    /// The block's name (the key of `[blocks.NAME]`).
    pub name: String,
    /// Where the name was written.
    pub name_span: Span,
    /// Its `type`.
    pub type_name: String,
    /// Where the type was written.
    pub type_span: Span,
    /// All keys but `type`.
    pub params: Table,
    /// The span of the block's table.
    pub span: Span,
}

impl BlockEntry {
    /// Empties the entry but for what the build's messages read once its block is made (for a
    /// build that drops its model afterwards, `load_model`): its spans, and its table's keys,
    /// numbers and places ([`Table::keep_places`]). Its name and type (the block has its own
    /// copy of the name) are emptied. With `only`, the entries of other keys are dropped too
    /// (for a block whose messages can be located only at those keys). Allocates nothing.
    pub(crate) fn keep_places(&mut self, only: Option<&[&str]>) {
        drop(std::mem::take(&mut self.name));
        drop(std::mem::take(&mut self.type_name));
        if let Some(keys) = only {
            let entries = &mut self.params.entries;
            entries.retain(|e| keys.contains(&e.key.as_str()));
            if entries.is_empty() {
                // `retain` keeps the buffer: a chain's 100,000 frame blocks would keep theirs.
                drop(std::mem::take(entries));
            }
        }
        self.params.keep_places();
    }
}

/// `[output]` settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OutputSettings {
    /// The CSV to write, if any.
    pub csv: Option<String>,
    /// The plot (PNG) to write, if any.
    pub plot: Option<String>,
    /// Signals to record besides those wired to scopes, with where each was written.
    pub log: Vec<(String, Span)>,
    /// The animation: its path, size, frame rate and camera.
    pub animation: AnimationSettings,
    /// Which rows are recorded (`refine`, `sample_time`).
    pub rows: OutputRows,
    /// `max_bytes`: the output budget, bytes (`None`: [`DEFAULT_MAX_OUTPUT_BYTES`]). A run whose
    /// projected CSV is larger is refused before it starts.
    pub max_bytes: Option<f64>,
}

/// Everything a model says, read and checked at the level of the file (blocks are checked when built).
#[derive(Clone, Debug)]
pub struct ModelSpec {
    /// `[model] name`, else the file's stem.
    pub name: String,
    /// s.
    pub stop_time: f64,
    /// `[solver]`: the solver's own options, read and checked (the method an enum, not its
    /// name).
    pub solver: SolverOptions,
    /// `[output]`.
    pub output: OutputSettings,
    /// `connect = [...]`, in order.
    pub connections: Vec<Connection>,
    /// `[blocks.*]`, in order.
    pub blocks: Vec<BlockEntry>,
}

const TOP_KEYS: [&str; 6] = [
    "connect",
    "variables",
    "model",
    "solver",
    "output",
    "blocks",
];
impl Document {
    /// Parses TOML text read from `path`.
    pub fn parse(path: &str, text: &str) -> Result<Document, Diagnostic> {
        let source = SourceFile::new(path, text);
        let parsed = DeTable::parse(text).map_err(|e| {
            let span = e.span();
            let msg = e.message().trim();
            if msg.contains("recursion") && span.is_none() {
                // A dotted key (a `[a.b.c…]` header or `a.b.c… = 1`) of 80 parts or more: the
                // parser gives no place, so the deepest key of the file is it.
                // Only a key that long explains the error (one inside an inline table is not
                // scanned; the message below then stands).
                let deepest = super::source::deepest_dotted_key(text);
                if let Some((at, parts)) = deepest.filter(|(_, parts)| *parts >= 80) {
                    return Diagnostic::at(
                        &source,
                        &Span::new(at),
                        format!("invalid TOML: this key has {parts} dotted parts, more than the TOML parser reads (80)"),
                    )
                    .hint("a block is [blocks.NAME] and its parameters nest a level or two (e.g. [blocks.contact.normal]); remove the extra '.'-separated parts");
                }
            }
            if msg.contains("recursion") || msg.contains("recurse") {
                // The parser's own words ("cannot recurse further; max recursion depth met")
                // do not say what in the file is wrong.
                return Diagnostic::at(
                    &source,
                    &span.into(),
                    "invalid TOML: arrays or inline tables are nested too deeply here (the TOML parser stops at this depth)",
                )
                .hint("a parameter nests at most two levels, e.g. points = [[0, 0, 0], [1, 0, 0]]; look for an unbalanced '[' or '{'");
            }
            Diagnostic::at(&source, &span.into(), format!("invalid TOML: {msg}"))
                .hint("see docs/model-format.md for the model format")
        })?;
        let root = from_de_table(parsed.get_ref());
        Ok(Document {
            source,
            root,
            inputs: Vec::new(),
        })
    }

    /// Reads and parses a model file.
    pub fn load(path: &std::path::Path) -> Result<Document, Diagnostic> {
        use super::input_file::{read_regular, InputFileError, MAX_TEXT_FILE_BYTES};
        let bytes = read_regular(path, "model", MAX_TEXT_FILE_BYTES).map_err(|e| {
            let hint = match e {
                InputFileError::Io { .. } => "check the path; models end in .toml",
                _ => e.hint(),
            };
            Diagnostic::new(e.to_string()).hint(hint)
        })?;
        let label = path.display().to_string();
        let text =
            String::from_utf8(bytes).map_err(|e| not_utf8(&label, e.as_bytes(), e.utf8_error()))?;
        let mut document = Document::parse(&label, &text)?;
        document.inputs.push(path.to_path_buf());
        Ok(document)
    }

    /// Evaluates the `[variables]` and replaces each expression (`"= 2 * m"`) in the model's
    /// sections by its value (see [`super::variables`]). Values already numbers are kept, so
    /// this may run again after further overrides.
    pub fn resolve_variables(&mut self) -> Result<(), Diagnostic> {
        super::variables::resolve(&self.source, &mut self.root)
    }

    /// True when the override addresses a section, a variable or a block written in the file
    /// (not one a Urdf block expands to).
    pub fn addresses_written(&self, o: &Override) -> bool {
        let path = o.path();
        let first = path.split('.').next().unwrap_or_default();
        !path.contains('.')
            || matches!(first, "model" | "solver" | "output")
            || self
                .root
                .get("blocks")
                .and_then(|e| e.value.as_table())
                .is_some_and(|t| t.get(first).is_some())
    }

    /// Applies an override (the `--set` option): a bare name sets a `[variables]` entry;
    /// `model.*`, `solver.*`, `output.*` address those sections; anything else is
    /// `block.param[.sub...]`. Messages quote the override as the user gave it.
    pub fn apply_override(&mut self, o: &Override) -> Result<(), Diagnostic> {
        let path = o.path();
        let value = o.tree_value();
        if !path.contains('.') && !path.is_empty() {
            return self.set_variable(o, path, value);
        }
        let mut keys: Vec<&str> = o.keys();
        if keys.len() < 2 || keys.iter().any(|k| k.is_empty()) {
            return Err(
                Diagnostic::new(format!("--set '{o}': '{path}' is not a dotted path"))
                    .hint("write --set block.param=value or --set solver.rel_tol=1e-8"),
            );
        }
        if !matches!(keys[0], "model" | "solver" | "output") {
            let block = keys[0];
            let blocks = self.root.get("blocks").and_then(|e| e.value.as_table());
            let exists = blocks.is_some_and(|t| t.get(block).is_some());
            if !exists {
                let names: Vec<&str> = blocks.map(|t| t.keys().collect()).unwrap_or_default();
                let mut d = Diagnostic::new(format!("--set '{o}': there is no block '{block}'"));
                if let Some(near) = closest(block, names.iter().copied()) {
                    d = d.hint(format!("did you mean '{near}'?"));
                }
                return Err(d);
            }
            let table = self
                .root
                .get_mut("blocks")
                .and_then(|e| match &mut e.value.kind {
                    ValueKind::Table(t) => t.get_mut(block),
                    _ => None,
                })
                .and_then(|e| match &mut e.value.kind {
                    ValueKind::Table(t) => Some(t),
                    _ => None,
                });
            if let Some(table) = table {
                return super::assign::set_in_block(table, &keys[1..], value, o);
            }
            keys.insert(0, "blocks");
        }
        set_path(&mut self.root, &keys, value)
            .map_err(|why| Diagnostic::new(format!("--set '{o}': {why}")).hint("only numbers, strings, arrays and tables can be set, at the path they have in the model"))
    }

    /// `--set NAME=VALUE`: the variable NAME, which the model must define.
    fn set_variable(
        &mut self,
        assignment: &Override,
        name: &str,
        value: Value,
    ) -> Result<(), Diagnostic> {
        let variables = self
            .root
            .get(super::variables::VARIABLES)
            .and_then(|e| e.value.as_table());
        if variables.is_some_and(|t| t.get(name).is_some()) {
            return set_path(&mut self.root, &[super::variables::VARIABLES, name], value)
                .map_err(|why| Diagnostic::new(format!("--set '{assignment}': {why}")));
        }
        let names: Vec<&str> = variables.map(|t| t.keys().collect()).unwrap_or_default();
        let d = Diagnostic::new(format!(
            "--set '{assignment}': the model has no variable '{name}'"
        ));
        Err(match closest(name, names.iter().copied()) {
            Some(near) => d.hint(format!("did you mean '{near}'?")),
            None if names.is_empty() => d.hint("a bare name sets a [variables] entry; write --set block.param=value for a block's parameter"),
            None => d.hint(format!("the variables are: {}", names.join(", "))),
        })
    }

    /// Reads the document into a [`ModelSpec`], copying the blocks' tables.
    pub fn spec(&self) -> Result<ModelSpec, Diagnostic> {
        let mut spec = self.spec_without_blocks(None)?;
        if let Some(t) = self.blocks_table()? {
            spec.blocks.reserve_exact(t.entries.len());
            for entry in &t.entries {
                let (type_name, type_span, at) = self.block_type(entry)?;
                let ValueKind::Table(params) = &entry.value.kind else {
                    unreachable!("block_type refuses a block that is not a table")
                };
                // The table without its `type`, cloned to its exact size: a clone then
                // `retain` would keep the removed entry's slot per block.
                let kept = |e: &&Entry| e.key != "type";
                let mut entries = Vec::with_capacity(params.entries.iter().filter(kept).count());
                entries.extend(params.entries.iter().filter(kept).cloned());
                spec.blocks.push(BlockEntry {
                    name: entry.key.clone(),
                    name_span: entry.key_span.clone(),
                    type_name,
                    type_span,
                    params: Table { entries },
                    span: at,
                });
            }
        }
        Ok(spec)
    }

    /// Reads the document into a [`ModelSpec`] as [`Document::spec`] does, moving the blocks'
    /// tables out of [`Document::root`] instead of copying them (the model is read once: a
    /// 20,000-joint URDF's tables are then never held twice). `[blocks]` is left empty; the
    /// rest of the root is as it was.
    pub fn take_spec(&mut self) -> Result<ModelSpec, Diagnostic> {
        self.take_spec_with(None)
    }

    /// [`Document::take_spec`], with the connections `parsed` in place of `connect`'s when
    /// given: those the expansion made ([`super::subsystem::Expansion::connections`]), handed
    /// on when nothing could have changed them since (as in `model::resolve::expand_and_resolve`:
    /// variables and overrides of expanded blocks never address `connect`). They are then not
    /// written as text and parsed again (a 20,000-joint URDF chain has 120,000). `connect` is
    /// not read.
    pub fn take_spec_with(
        &mut self,
        parsed: Option<Vec<Connection>>,
    ) -> Result<ModelSpec, Diagnostic> {
        let mut spec = self.spec_without_blocks(parsed)?;
        if self.blocks_table()?.is_none() {
            return Ok(spec);
        }
        // Each block is checked before any is moved: an error names the first bad block, as
        // `spec` does, with the document whole.
        let mut described = Vec::new();
        if let Some(t) = self.blocks_table()? {
            described.reserve_exact(t.entries.len());
            for entry in &t.entries {
                described.push(self.block_type(entry)?);
            }
        }
        let Some(Entry {
            value:
                Value {
                    kind: ValueKind::Table(blocks),
                    ..
                },
            ..
        }) = self.root.get_mut("blocks")
        else {
            unreachable!("blocks_table found the [blocks] table")
        };
        let entries = std::mem::take(&mut blocks.entries);
        spec.blocks.reserve_exact(entries.len());
        for (entry, (type_name, type_span, at)) in entries.into_iter().zip(described) {
            let ValueKind::Table(mut params) = entry.value.kind else {
                unreachable!("block_type refuses a block that is not a table")
            };
            // The `type` entry removed and the vector shrunk in place to the entries left.
            params.entries.retain(|e| e.key != "type");
            params.entries.shrink_to_fit();
            spec.blocks.push(BlockEntry {
                name: entry.key,
                name_span: entry.key_span,
                type_name,
                type_span,
                params,
                span: at,
            });
        }
        Ok(spec)
    }

    /// The `[blocks]` table, if the model has one (an error if `blocks` is not a table).
    fn blocks_table(&self) -> Result<Option<&Table>, Diagnostic> {
        let top = TableReader::new(&self.source, None, &self.root, Span::new(0..0));
        Ok(section(&self.source, "blocks", top.value("blocks"))?.map(|(t, _)| t))
    }

    /// A block's `type` (its name and where it is written) and the span of its table, or why
    /// the entry `[blocks.NAME]` is not a block.
    fn block_type(&self, entry: &Entry) -> Result<(String, Span, Span), Diagnostic> {
        let src = &self.source;
        let Entry {
            key,
            key_span,
            value,
        } = entry;
        let ValueKind::Table(params) = &value.kind else {
            return Err(
                Diagnostic::at(src, key_span, format!("'blocks.{key}' must be a table"))
                    .hint(format!("write:\n[blocks.{key}]\ntype = \"Constant\"")),
            );
        };
        let ty = params.get("type").ok_or_else(|| {
            Diagnostic::at(src, key_span, format!("block '{key}' has no type"))
                .block(key)
                .hint("add type = \"...\" (run `blockdyn blocks` for the list)")
        })?;
        let type_name = ty.value.as_str().ok_or_else(|| {
            Diagnostic::at(src, &ty.value.span, "'type' must be a string").block(key)
        })?;
        Ok((
            type_name.to_string(),
            ty.value.span.clone(),
            value.span.clone(),
        ))
    }

    /// Everything [`Document::spec`] reads but the blocks (`blocks` left empty); the top level's
    /// keys, `[model]`, `[solver]`, `[output]` and `connect` checked in that order.
    /// `parsed`: `connect` parsed already (see [`Document::take_spec_with`]).
    fn spec_without_blocks(
        &self,
        parsed: Option<Vec<Connection>>,
    ) -> Result<ModelSpec, Diagnostic> {
        let src = &self.source;
        let top = TableReader::new(src, None, &self.root, Some(0..0));
        let connect = top.value("connect");
        let model_v = top.value("model");
        let solver_v = top.value("solver");
        let output_v = top.value("output");
        if let Some(e) = self
            .root
            .entries
            .iter()
            .find(|e| !TOP_KEYS.contains(&e.key.as_str()))
        {
            let mut d = Diagnostic::at(
                src,
                &e.key_span,
                format!("unknown top-level key '{}'", e.key),
            );
            d = match closest(&e.key, TOP_KEYS) {
                Some(near) => d.hint(format!("did you mean '{near}'?")),
                None => d.hint("the top level has: connect, [variables], [model], [solver], [output], [blocks.NAME]; a key meant for a block goes under its [blocks.NAME] table, and 'connect' must come before the first [table]"),
            };
            return Err(d);
        }

        // [model]
        let model_t = section(src, "model", model_v)?.ok_or_else(|| {
            Diagnostic::at(src, &Span::new(0..0), "the model has no [model] section")
                .hint("add:\n[model]\nstop_time = 10.0")
        })?;
        let model = TableReader::new(src, None, model_t.0, model_t.1.clone());
        let name = model
            .string("name")?
            .unwrap_or_else(|| stem(&src.path))
            .to_string();
        let stop_time = model.f64("stop_time")?.ok_or_else(|| {
            model
                .table_error("[model] has no stop_time")
                .hint("add stop_time = <seconds> under [model]")
        })?;
        model.ensure(
            stop_time > 0.0,
            "stop_time",
            &format!("must be positive (got {stop_time})"),
            "write the simulated duration in seconds, e.g. stop_time = 5.0",
        )?;
        model.finish()?;

        // [solver]
        let empty = Table::default();
        let (solver_t, solver_span) =
            section(src, "solver", solver_v)?.unwrap_or((&empty, Span::new(0..0)));
        let s = TableReader::new(src, None, solver_t, solver_span.clone());
        let solver = super::solver_section::read_solver(&s, stop_time)?;

        // [output]
        let mut output = OutputSettings::default();
        if let Some((t, span)) = section(src, "output", output_v)? {
            let o = TableReader::new(src, None, t, span.clone());
            output.csv = super::output_path::output_path(&o, "csv", "run.csv")?;
            output.plot = super::output_path::output_path(&o, "plot", "run.png")?;
            output.animation = read_animation(&o)?;
            output.rows = read_output_rows(&o)?;
            output.max_bytes = o.f64("max_bytes")?;
            if let Some(bytes) = output.max_bytes {
                o.ensure(
                    bytes > 0.0 && bytes.is_finite(),
                    "max_bytes",
                    &format!("must be a positive number of bytes (got {bytes})"),
                    &format!(
                        "write the output budget in bytes, e.g. max_bytes = 5e10 (the default is {DEFAULT_MAX_OUTPUT_BYTES:e})"
                    ),
                )?;
            }
            if let Some(v) = o.value("log") {
                let items = v.as_array().ok_or_else(|| {
                    o.error("log", "'log' must be an array of signal names")
                        .hint("write log = [\"joint.q\", \"contact.normal_force\"]")
                })?;
                for item in items {
                    let name = item.as_str().ok_or_else(|| {
                        Diagnostic::at(
                            src,
                            &item.span,
                            "entries of 'log' must be strings like \"block.port\"",
                        )
                    })?;
                    output.log.push((name.to_string(), item.span.clone()));
                }
            }
            o.finish()?;
        }

        let connections = match parsed {
            Some(parsed) => parsed,
            None => read_connections(src, connect)?,
        };

        Ok(ModelSpec {
            name,
            stop_time,
            solver,
            output,
            connections,
            blocks: Vec::new(),
        })
    }
}

/// The `connect` array `connect` (if written) parsed, in order.
fn read_connections(
    src: &SourceFile,
    connect: Option<&Value>,
) -> Result<Vec<Connection>, Diagnostic> {
    let mut connections = Vec::new();
    let Some(v) = connect else {
        return Ok(connections);
    };
    let items = v.as_array().ok_or_else(|| {
        Diagnostic::at(src, &v.span, "'connect' must be an array of strings").hint(
            "write connect = [\"a.out -> b.in\", \"world.W -- joint.B\"] before the first [table]",
        )
    })?;
    connections.reserve_exact(items.len());
    for item in items {
        let text = item.as_str().ok_or_else(|| {
            Diagnostic::at(src, &item.span, "entries of 'connect' must be strings")
                .hint("write \"block.port -> block.port\"")
        })?;
        let c = parse_connection(text, item.span.clone())
            .map_err(|e| Diagnostic::at(src, &item.span, e.message).hint(e.hint))?;
        connections.push(c);
    }
    Ok(connections)
}

fn section<'a>(
    src: &SourceFile,
    name: &str,
    v: Option<&'a Value>,
) -> Result<Option<(&'a Table, Span)>, Diagnostic> {
    match v {
        None => Ok(None),
        Some(v) => match &v.kind {
            ValueKind::Table(t) => Ok(Some((t, v.span.clone()))),
            _ => Err(
                Diagnostic::at(src, &v.span, format!("'{name}' must be a table"))
                    .hint(format!("write [{name}] on a line of its own")),
            ),
        },
    }
}

/// A model file that is not UTF-8, located at its first byte that is not part of a character.
fn not_utf8(label: &str, bytes: &[u8], e: std::str::Utf8Error) -> Diagnostic {
    let at = e.valid_up_to();
    let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let source = SourceFile::new(label, valid);
    let byte = bytes.get(at).copied().unwrap_or_default();
    Diagnostic::at(
        &source,
        &Span::new(at..at),
        format!("the model is not UTF-8 text: byte 0x{byte:02X} is not part of a UTF-8 character"),
    )
    .hint("TOML files are UTF-8: save the file as UTF-8 in your editor, or convert it, e.g. iconv -f latin1 -t utf-8 model.toml > model-utf8.toml")
}

fn stem(path: &str) -> &str {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("model")
}

/// `[output] refine` and `sample_time` (at most one of them).
fn read_output_rows(o: &TableReader<'_>) -> Result<OutputRows, Diagnostic> {
    let refine = o.usize("refine")?;
    let sample_time = o.f64("sample_time")?;
    match (refine, sample_time) {
        (Some(_), Some(_)) => Err(o
            .error(
                "sample_time",
                "'sample_time' and 'refine' exclude each other",
            )
            .hint(
                "keep one: refine = N adds rows between steps, sample_time = dt records at k·dt",
            )),
        (Some(n), None) => {
            o.ensure(
                (1..=MAX_REFINE).contains(&n),
                "refine",
                &format!("must be from 1 to {MAX_REFINE} (got {n})"),
                "write the number of rows per step, e.g. refine = 4 (1 = step ends only)",
            )?;
            Ok(OutputRows::Refine(n))
        }
        (None, Some(dt)) => {
            o.ensure(
                dt > 0.0,
                "sample_time",
                &format!("must be positive (got {dt})"),
                "write the time between rows in s, e.g. sample_time = 0.01",
            )?;
            Ok(OutputRows::SampleTime(dt))
        }
        (None, None) => Ok(OutputRows::Smooth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = r#"connect = ["a.out -> s.in1"]
[model]
stop_time = 2.0
[solver]
rel_tol = 1e-6
[blocks.a]
type = "Constant"
value = 3.0
[blocks.s]
type = "Scope"
"#;

    #[test]
    fn reads_sections_blocks_and_connections() {
        let spec = Document::parse("m.toml", MODEL).unwrap().spec().unwrap();
        assert_eq!(spec.stop_time, 2.0);
        assert_eq!(spec.solver.rel_tol, 1e-6);
        assert_eq!(spec.solver.method, crate::solver::Method::Auto);
        assert_eq!(spec.blocks.len(), 2);
        assert_eq!(spec.blocks[0].type_name, "Constant");
        assert_eq!(spec.connections.len(), 1);
        assert_eq!(spec.name, "m");
    }

    /// `keep_places` keeps every key's place, or with `only` the listed keys' alone; the kept
    /// entries keep their spans and numbers, strings are emptied, and an entry left with no key
    /// frees its table's buffer.
    #[test]
    fn keep_places_keeps_the_places_asked_for() {
        let text = "[model]\nstop_time = 1.0\n[blocks.j]\ntype = \"RevoluteJoint\"\nq0 = 0.5\nmotion = \"input\"\n\
                    [blocks.t]\ntype = \"RigidTransform\"\ntranslation = [0, 0, 1]\n";
        let mut spec = Document::parse("m.toml", text).unwrap().spec().unwrap();
        let span_of = |e: &BlockEntry, k: &str| e.params.get(k).map(|e| e.value.span.clone());
        let (q0, motion) = (
            span_of(&spec.blocks[0], "q0"),
            span_of(&spec.blocks[0], "motion"),
        );
        spec.blocks[0].keep_places(None);
        spec.blocks[1].keep_places(Some(&["motion", "gravity"]));
        let (joint, transform) = (&spec.blocks[0], &spec.blocks[1]);
        assert_eq!(joint.params.keys().collect::<Vec<_>>(), ["q0", "motion"]);
        assert_eq!(
            (span_of(joint, "q0"), span_of(joint, "motion")),
            (q0, motion)
        );
        assert_eq!(joint.params.get("q0").unwrap().value.as_f64(), Some(0.5));
        assert_eq!(joint.params.get("motion").unwrap().value.as_str(), Some(""));
        assert_eq!((joint.name.as_str(), joint.type_name.as_str()), ("", ""));
        assert!(transform.params.entries.is_empty());
        assert_eq!(transform.params.entries.capacity(), 0);
        assert!(transform.span.is_some());
    }

    #[test]
    fn overrides_reach_blocks_and_sections() {
        let mut d = Document::parse("m.toml", MODEL).unwrap();
        let set = |d: &mut Document, text: &str| d.apply_override(&text.parse().unwrap());
        set(&mut d, "a.value=5").unwrap();
        set(&mut d, "solver.method=bs23").unwrap();
        d.apply_override(&Override::new("model.stop_time", 1i64))
            .unwrap();
        let spec = d.spec().unwrap();
        assert_eq!(
            spec.blocks[0].params.get("value").unwrap().value.as_f64(),
            Some(5.0)
        );
        assert_eq!(spec.solver.method, crate::solver::Method::Bs23);
        assert_eq!(spec.stop_time, 1.0);
        let e = set(&mut d, "aa.value=5").unwrap_err();
        assert!(e.to_string().contains("no block 'aa'"), "{e}");
        let e = d.apply_override(&Override::new("a", 1.0)).unwrap_err();
        assert!(
            e.to_string()
                .contains("--set 'a=1.0': the model has no variable 'a'"),
            "{e}"
        );
    }

    #[test]
    fn bad_files_are_located() {
        let e = Document::parse("m.toml", "[model\nstop_time = 1").unwrap_err();
        assert!(e.to_string().starts_with("m.toml:1:"), "{e}");
        let e = Document::parse("m.toml", "[model]\nstop_time = -1\n")
            .unwrap()
            .spec()
            .unwrap_err();
        assert!(e.to_string().contains("m.toml:2:13"), "{e}");
        let e = Document::parse(
            "m.toml",
            "[model]\nstop_time = 1\n[solver]\nmethod = \"dopri\"\n",
        )
        .unwrap()
        .spec()
        .unwrap_err();
        assert!(e.to_string().contains("did you mean \"dopri5\""), "{e}");
        let e = Document::parse("m.toml", "[model]\nstop_time = 1\nstoptime = 2\n")
            .unwrap()
            .spec()
            .unwrap_err();
        assert!(
            e.to_string().contains("unknown parameter 'stoptime'"),
            "{e}"
        );
    }
}
