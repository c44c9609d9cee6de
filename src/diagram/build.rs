//! From a [`ModelSpec`] to a [`Diagram`]: instantiate blocks through the registry, resolve
//! connections, propagate shapes, lay out the buffers, and schedule.

use super::assemble::{assemble, Wired};
use super::compiled::Origin;
use super::instance::Instance;
use super::physical::{elaborate, PhysicalEnd, PhysicalLine};
use super::{Diagram, SignalLine};
use crate::block::{Block, PhysicalRole, PortDecl, PortKind};
use crate::library::Registry;
use crate::model::diagnostic::closest;
use crate::model::{ConnectionKind, Diagnostic, ModelSpec, PortRef, SourceFile, Span, TableReader};
use std::collections::{HashMap, HashSet};

/// Whether a build keeps its model whole or may empty what it has read of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Model {
    /// The model is kept beside the diagram (a [`super::Blueprint`]): the build only reads it.
    Kept,
    /// The model is dropped after the build (`load_model`): each block's entry keeps only its
    /// spans and its table's places once the block is made
    /// ([`crate::model::BlockEntry::keep_places`]; a group's, which `groups::expand` reads
    /// later, whole), and the connections are emptied once resolved, so that a large model's
    /// values are not alive at the build's peak.
    Dropped,
}

/// Builds the diagram of a model with the block types of `registry` (the standard library and a
/// program's own types; see [`crate::library`]). The diagram keeps nothing of `spec` but what a
/// run reads (its [`super::RunSpec`]); with [`Model::Kept`] the caller keeps `spec` whole in the
/// [`super::Blueprint`], with [`Model::Dropped`] the build empties its tables' values and its
/// connections as it goes (what is left is for the build's messages only). Problems that do not
/// depend on each other — each block's type and parameters, each connection's names and port
/// kinds — are all reported in one [`Diagnostic`] (see [`Diagnostic::more`]); a connection to a
/// block that failed is not checked.
pub(crate) fn build_diagram_owned(
    source: &SourceFile,
    spec: &mut ModelSpec,
    registry: &Registry,
    model: Model,
) -> Result<Diagram, Diagnostic> {
    // One more than the model's blocks: the physical elaboration adds the mechanism block, and a
    // full vector would double (at 20,000 joints, 120,000 instances of ~240 bytes: 29 MB unused).
    let mut instances = Vec::with_capacity(spec.blocks.len() + 1);
    let repeated = repeated_names(spec);
    let mut problems = Vec::new();
    let mut failed: HashSet<String> = HashSet::new();
    // Each table's digest (see `digest.rs`), taken before the table is emptied.
    let mut table_digests = Vec::with_capacity(spec.blocks.len());
    for (entry_index, &repeats) in repeated.iter().enumerate() {
        let entry = &spec.blocks[entry_index];
        table_digests.push(super::digest::digest(&entry.params));
        if repeats {
            problems.push(Diagnostic::at(
                source,
                &entry.name_span,
                format!("two blocks are named '{}'", entry.name),
            ));
            continue;
        }
        match instantiate(source, spec, entry, registry) {
            Ok(mut instance) => {
                if let Some(origin) = instance.origin.as_mut() {
                    origin.entry = entry_index;
                }
                let group = instance.block.geometry_members().is_some();
                // A frame block or joint without a warning of its own is located by a key only
                // by the scene's warnings (`warnings.rs`: a joint's `motion`, the configuration's
                // `gravity`): its other keys are dropped with its values.
                let quiet = (instance.block.role())
                    .is_some_and(|r| !matches!(r, PhysicalRole::Consumer))
                    && instance.block.warnings().is_empty();
                instances.push(instance);
                if model == Model::Dropped && !group {
                    let only: Option<&[&str]> = quiet.then_some(&["motion", "gravity"]);
                    spec.blocks[entry_index].keep_places(only);
                }
            }
            Err(d) => {
                failed.insert(entry.name.clone());
                problems.push(d);
            }
        }
    }
    // Block name → index, for every connection's lookup: the names borrowed from the blocks
    // (a copy of each was 120,000 short strings at 20,000 URDF joints, made and freed here).
    let names: HashMap<&str, usize> = (instances.iter().enumerate())
        .map(|(k, instance)| (instance.name.as_str(), k))
        .collect();
    let mut wiring = Wiring::default();
    let blocks = Blocks {
        instances: &instances,
        names: &names,
    };
    for c in &spec.connections {
        if failed.contains(c.from.block.as_str()) || failed.contains(c.to.block.as_str()) {
            continue;
        }
        if let Err(d) = wiring.connect(source, &blocks, c) {
            problems.push(d);
        }
    }
    if let Some(d) = Diagnostic::combine(problems) {
        return Err(d);
    }
    // What only the connections needed is freed before the blocks are elaborated and compiled
    // (the build's peak): the name index (borrowing every name), the lines' input index, and
    // (for a model the build may empty) the connections as parsed.
    drop(names);
    drop(failed);
    if model == Model::Dropped {
        spec.connections = Vec::new();
    }
    let spec: &ModelSpec = spec;
    let Wiring {
        mut lines,
        mut physical,
        mut physical_lines,
        mut line_spans,
        line_into,
    } = wiring;
    drop(line_into);
    super::groups::expand(
        source,
        spec,
        &mut instances,
        &mut physical_lines,
        &mut physical,
    )?;
    let scene = elaborate(
        source,
        &mut instances,
        physical_lines,
        &mut lines,
        &mut line_spans,
        registry.mechanism_lowering(),
    )?;
    // Decided now, while the build holds less than it will once the blocks are compiled (see
    // `mechanism_stands_still`).
    let stands_still = scene.as_ref().is_some_and(|scene| {
        super::warnings::mechanism_stands_still(instances.iter().map(|i| &*i.block), scene)
    });
    if scene.is_some() {
        put_stand_ins(&mut instances);
    }
    physical.shrink_to_fit();
    let wired = Wired {
        instances,
        lines,
        line_spans,
        physical,
    };
    let mut diagram = assemble(source, spec, wired)?;
    diagram.table_digests = table_digests;
    if let Some(scene) = &scene {
        let built = super::warnings::BuiltView {
            source,
            spec,
            blocks: &diagram.blocks,
            lines: &diagram.lines,
        };
        let found = super::warnings::scene_warnings(&built, scene, stands_still);
        diagram.warnings.extend(found);
    }
    diagram.scene = scene;
    // The recorded signals are part of the model: `[output] log` is checked now, not when the
    // run starts.
    diagram.run.output.recorded = super::recorded::resolve(&diagram, &spec.output.log, source)?;
    if let Some(scene) = &diagram.scene {
        diagram.run.output.drawn_frames =
            super::recorded::drawn_frames(scene, &spec.output.animation.frames);
    }
    Ok(diagram)
}

/// Whether each of the model's blocks repeats the name of a block before it (which is then not
/// made: "two blocks are named …").
fn repeated_names(spec: &ModelSpec) -> Vec<bool> {
    let mut seen: HashSet<&str> = HashSet::with_capacity(spec.blocks.len());
    (spec.blocks.iter())
        .map(|entry| !seen.insert(entry.name.as_str()))
        .collect()
}

/// Each block whose values the mechanism now holds, replaced by its stand-in if it has one
/// ([`Block::lowered`]: a RigidTransform's pose is the mechanism's once
/// lowered). Done before the blocks are compiled, where the build's heap peaks.
fn put_stand_ins(instances: &mut [Instance]) {
    for instance in instances {
        if let Some(stand_in) = instance.block.lowered() {
            instance.block = stand_in;
        }
    }
}

/// A block of the model, built by its type from its table, its parameters and period checked.
fn instantiate(
    source: &SourceFile,
    spec: &ModelSpec,
    entry: &crate::model::document::BlockEntry,
    registry: &Registry,
) -> Result<Instance, Diagnostic> {
    let Some(ty) = registry.find(&entry.type_name) else {
        let d = Diagnostic::at(
            source,
            &entry.type_span,
            format!("unknown block type \"{}\"", entry.type_name),
        )
        .block(&entry.name);
        return Err(
            match closest(
                &entry.type_name,
                registry
                    .all()
                    .map(|t| t.name)
                    .chain(registry.importers().map(|i| i.name)),
            ) {
                Some(near) => d.hint(format!(
                    "did you mean \"{near}\"? (`blockdyn blocks` lists the library)"
                )),
                None => d.hint("run `blockdyn blocks` for the list of block types"),
            },
        );
    };
    let reader = TableReader::new(source, Some(&entry.name), &entry.params, entry.span.clone());
    let mut block = (ty.build)(&reader.params()).map_err(|e| reader.locate(e))?;
    reader.finish()?;
    // The physical network finds a block through `physical` and binds it through
    // `physical_mut`: a block type answering one and not the other would be found and silently
    // left unbound (its force never reaching the mechanism).
    if block.physical().is_some() != block.physical_mut().is_some() {
        return Err(reader.table_error(format!(
            "internal: block type {} answers `Block::physical` and `Block::physical_mut` differently (both must be Some, or both None)",
            ty.name
        )));
    }
    check_period(&reader, &*block, spec)?;
    Ok(Instance {
        name: entry.name.clone(),
        type_name: ty.name,
        block,
        span: entry.name_span.clone(),
        origin: Some(Origin {
            build: ty.build,
            entry: 0,
            params: ty.params,
        }),
        binding: None,
    })
}

/// The connections resolved so far: signal lines (with their spans, and which input each
/// feeds) and physical connections.
#[derive(Default)]
struct Wiring {
    lines: Vec<SignalLine>,
    line_spans: Vec<Span>,
    /// (block, input port) → the line feeding it.
    line_into: HashMap<(usize, usize), usize>,
    physical: super::PhysicalConnections,
    physical_lines: Vec<PhysicalLine>,
}

impl Wiring {
    /// Resolves one connection of the model.
    fn connect(
        &mut self,
        source: &SourceFile,
        blocks: &Blocks<'_>,
        c: &crate::model::Connection,
    ) -> Result<(), Diagnostic> {
        let at = |msg: String| Diagnostic::at(source, &c.span, msg);
        match c.kind {
            ConnectionKind::Signal => {
                let (from, from_port) = find_port(source, blocks, &c.from, &c.span, Side::Output)?;
                let (to, to_port) = find_port(source, blocks, &c.to, &c.span, Side::Input)?;
                if let Some(&k) = self.line_into.get(&(to, to_port)) {
                    let other = match self.line_spans[k].range() {
                        Some(r) if source.has_lines() => {
                            format!(
                                "the other line is on line {}",
                                source.line_column(r.start).0
                            )
                        }
                        _ => "another line already feeds it".to_string(),
                    };
                    return Err(at(format!("input {} has two sources ({other})", c.to))
                        .block(&c.to.block)
                        .hint("an input takes one line; add the signals with a Sum block or remove one line"));
                }
                self.line_into.insert((to, to_port), self.lines.len());
                self.lines.push(SignalLine {
                    from,
                    from_port,
                    index: c.from.index,
                    to,
                    to_port,
                });
                self.line_spans.push(c.span.clone());
            }
            ConnectionKind::Physical => {
                let (a_end, a) = find_physical(source, blocks, &c.from, &c.span)?;
                let (b_end, b) = find_physical(source, blocks, &c.to, &c.span)?;
                if a != b {
                    return Err(at(format!(
                        "cannot connect {} port {} to {} port {}",
                        a.name(),
                        c.from,
                        b.name(),
                        c.to
                    ))
                    .hint("frame ports connect to frame ports, geometry ports to geometry ports"));
                }
                self.physical.push(&c.from, &c.to);
                self.physical_lines.push(PhysicalLine {
                    a: a_end,
                    b: b_end,
                    span: c.span.clone(),
                });
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

/// The instances and their index by name.
struct Blocks<'a> {
    instances: &'a [Instance],
    names: &'a HashMap<&'a str, usize>,
}

fn find_block<'a>(
    source: &SourceFile,
    blocks: &Blocks<'a>,
    r: &PortRef,
    span: &Span,
) -> Result<(usize, &'a Instance), Diagnostic> {
    let instances = blocks.instances;
    blocks
        .names
        .get(r.block.as_str())
        .map(|&b| (b, &instances[b]))
        .ok_or_else(|| {
            let d = Diagnostic::at(
                source,
                span,
                format!("there is no block '{}' (in '{r}')", r.block),
            );
            match closest(&r.block, instances.iter().map(|i| i.name.as_str())) {
                Some(near) => d.hint(format!("did you mean '{near}'?")),
                None => d.hint(format!("add a [blocks.{}] table, or fix the name", r.block)),
            }
        })
}

fn port_list(ports: &[PortDecl]) -> String {
    let names: Vec<&str> = ports
        .iter()
        .filter(|p| !p.is_hidden())
        .map(|p| p.name.as_str())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

fn find_port(
    source: &SourceFile,
    blocks: &Blocks<'_>,
    r: &PortRef,
    span: &Span,
    side: Side,
) -> Result<(usize, usize), Diagnostic> {
    let (b, inst) = find_block(source, blocks, r, span)?;
    let (ports, other, word, other_word) = match side {
        Side::Output => (inst.block.outputs(), inst.block.inputs(), "output", "input"),
        Side::Input => (inst.block.inputs(), inst.block.outputs(), "input", "output"),
    };
    if let Some(p) = ports
        .iter()
        .position(|p| p.name == r.port && !p.is_hidden())
    {
        return Ok((b, p));
    }
    let at = |m: String| Diagnostic::at(source, span, m).block(&r.block);
    if other.iter().any(|p| p.name == r.port) {
        return Err(at(format!(
            "'{}.{}' is an {other_word}, not an {word}",
            r.block, r.port
        ))
        .hint("signal lines go from an output to an input: \"source.out -> sink.in\""));
    }
    if let Some(p) = inst
        .block
        .physical_ports()
        .iter()
        .find(|p| p.name == r.port)
    {
        return Err(at(format!(
            "'{}.{}' is a {} port: connect it with '--', not '->'",
            r.block,
            r.port,
            p.kind.name()
        ))
        .hint(format!("write \"{} -- other.port\"", r)));
    }
    let all = ports
        .iter()
        .filter(|p| !p.is_hidden())
        .map(|p| p.name.as_str());
    // The diagnostic names the block already: say only what kind of block it is.
    let d = at(format!("a {} has no {word} '{}'", inst.type_name, r.port));
    Err(match closest(&r.port, all) {
        Some(near) => d.hint(format!("did you mean '{}.{near}'?", r.block)),
        None => d.hint(format!("its {word}s are: {}", port_list(ports))),
    })
}

fn find_physical(
    source: &SourceFile,
    blocks: &Blocks<'_>,
    r: &PortRef,
    span: &Span,
) -> Result<(PhysicalEnd, PortKind), Diagnostic> {
    let (b, inst) = find_block(source, blocks, r, span)?;
    let ports = inst.block.physical_ports();
    if let Some(p) = ports.iter().position(|p| p.name == r.port) {
        return Ok((PhysicalEnd::new(b, p), ports[p].kind));
    }
    let at = |m: String| Diagnostic::at(source, span, m).block(&r.block);
    if inst
        .block
        .inputs()
        .iter()
        .chain(inst.block.outputs())
        .any(|p| p.name == r.port)
    {
        return Err(at(format!(
            "'{r}' is a signal port: connect it with '->', not '--'"
        ))
        .hint("write \"source.out -> sink.in\""));
    }
    let ports = inst.block.physical_ports();
    let d = at(format!(
        "a {} has no frame or geometry port '{}'",
        inst.type_name, r.port
    ));
    Err(
        match closest(&r.port, ports.iter().map(|p| p.name.as_str())) {
            Some(near) => d.hint(format!("did you mean '{}.{near}'?", r.block)),
            None => d.hint(format!("its physical ports are: {}", port_list(ports))),
        },
    )
}

/// A periodic block's time events (see [`Block::period`]) must move t near the stop time and fit
/// the solver's step budget: refused here, at the parameter's line, rather than found at run
/// time by the event-flood guard (which has no line to point at). The solver checks again
/// against the stop time of the run (`--stop-time`).
fn check_period(
    reader: &TableReader,
    block: &dyn Block,
    spec: &ModelSpec,
) -> Result<(), Diagnostic> {
    let Some((key, period)) = block.period() else {
        return Ok(());
    };
    let stop_time = spec.stop_time;
    let resolution = f64::EPSILON * stop_time;
    reader.ensure(
        period > 16.0 * resolution,
        key,
        &format!("gives time events {period:e} s apart, below the resolution of t near the stop time ({resolution:.1e} s): time would not advance"),
        &format!("write {key} = {:.0e} or more (s)", 32.0 * resolution),
    )?;
    let events = stop_time / period;
    let budget = spec.solver.max_steps as f64;
    reader.ensure(
        events <= budget,
        key,
        &format!(
            "gives {events:.1e} time events over stop_time = {stop_time} s, more than [solver] max_steps = {}",
            spec.solver.max_steps
        ),
        &format!("write a longer {key}, or raise max_steps"),
    )
}
