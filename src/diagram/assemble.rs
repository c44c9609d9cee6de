//! From instantiated, wired blocks to a [`Diagram`]: every required input connected, shapes
//! propagated and checked along the lines, the signal buffer laid out, the used outputs marked,
//! each block set up (states, work slots, zero crossings), and the blocks scheduled.

use super::instance::Instance;
use super::layout::Layout;
use super::schedule::schedule;
use super::thin_slice::ThinSlice;
use super::units::UnitGraph;
use super::used_outputs::mark_used_outputs;
use super::warnings::{locate, At};
use super::{CompiledBlock, Diagram, SignalLine};
use crate::block::{BlockError, PortDecl, Setup, Shape, ShapeSpec, Slot, Units};
use crate::model::{Diagnostic, ModelSpec, SourceFile, Span};
use crate::solver::Direction;

/// The wired blocks handed to [`assemble`].
pub struct Wired {
    pub instances: Vec<Instance>,
    pub lines: Vec<SignalLine>,
    /// Where each line was written (for messages), in step with `lines`.
    pub line_spans: Vec<Span>,
    /// Physical connections as written, `(block.port, block.port)`.
    pub physical: super::PhysicalConnections,
}

/// Propagates shapes, checks them, lays out buffers, runs setup and schedules.
pub fn assemble(
    source: &SourceFile,
    spec: &ModelSpec,
    wired: Wired,
) -> Result<Diagram, Diagnostic> {
    let Wired {
        mut instances,
        lines,
        line_spans,
        physical,
    } = wired;
    let lines_from = lines_from(instances.len(), &lines);
    check_inputs_connected(source, &instances, &lines)?;
    let (in_shapes, out_shapes) = propagate_shapes(source, &instances, &lines, &lines_from)?;
    check_lines(
        source,
        &instances,
        &lines,
        &line_spans,
        &in_shapes,
        &out_shapes,
    )?;
    let layout = Layout::new(&in_shapes, &out_shapes, &lines);
    let used_outputs = mark_used_outputs(spec, &mut instances, &lines, &lines_from);

    let mut warnings = super::warnings::block_warnings(instances.iter().map(warned), source, spec);
    let graph = UnitGraph::new(
        instances.iter().map(|i| &*i.block).collect(),
        &in_shapes,
        &out_shapes,
        &lines,
    );
    let out_units = graph.propagate();
    warnings.extend(
        graph
            .warnings(&out_units)
            .into_iter()
            .map(|(b, m)| locate(source, spec, &warned(&instances[b]), At::Block, &m).to_string()),
    );
    drop(graph);

    // Setup: each block's states, work slots and zero crossings, in block order (the first
    // block to fail is the one reported). Kept as the compiled block keeps it (boxed, `None`
    // when it declares nothing): 8 bytes a block beside the compiled blocks, not a `Setup`'s 64
    // (7.7 MB at the build's peak for a 20,000-joint URDF chain's 120,005 blocks).
    let mut setups = Vec::with_capacity(instances.len());
    for (b, inst) in instances.iter_mut().enumerate() {
        let setup = inst
            .block
            .setup(&in_shapes[b], &out_shapes[b])
            .map_err(|e| {
                Diagnostic::at(source, &inst.span, e.to_string())
                    .block(&inst.name)
                    .caused_by(e)
            })?;
        setups.push(CompiledBlock::kept_setup(setup));
    }
    drop(lines_from);
    let parts = Parts {
        setups,
        input_slots: layout.input_slots,
        output_slots: layout.output_slots,
        in_shapes,
        out_shapes,
        out_units,
        used_outputs,
    };
    let Compiled {
        blocks: compiled,
        num_states: states,
        num_work: work,
        zero_crossings,
    } = compile(instances, parts);

    let order = schedule(&compiled, &lines).map_err(|cycle| {
        let names: Vec<&str> = cycle.iter().map(|&b| compiled[b].name.as_str()).collect();
        let first = cycle[0];
        Diagnostic::at(source, &compiled[first].span, format!("algebraic loop through blocks: {} → {}", names.join(" → "), names[0]))
            .block(&compiled[first].name)
            .hint("every block on the loop passes its input straight to its output; break the loop with an Integrator, UnitDelay or ZeroOrderHold")
    })?;

    Ok(Diagram {
        // Taken by the build as it made the blocks (before it may empty their tables).
        table_digests: Vec::new(),
        places: super::places::Places::locate(source, compiled.iter().map(|c| &c.span)),
        run: super::RunSpec::of(spec, &source.path),
        blocks: compiled,
        lines,
        physical,
        schedule: order,
        signal_len: layout.signal_len,
        num_states: states,
        num_work: work,
        zero_crossing_directions: zero_crossings,
        warnings,
        expansion_warnings: 0,
        input_files: Vec::new(),
        subsystems: Vec::new(),
        scene: None,
        build_id: 0,
        reading: None,
    })
}

/// Each block's parts made before it is compiled, in block order: its setup, its buffer slots,
/// its settled shapes and units, and which of its outputs are read.
///
/// Each per-port list is made as the [`ThinSlice`] the compiled block keeps: 8 bytes a block in
/// each of the six outer vectors, not a `Vec`'s 24 (at 20,000 URDF joints, 120,005 blocks: 11.5
/// MB less beside the compiled blocks while they are made, the build's peak), and no list is
/// copied again into its compiled block.
struct Parts {
    /// As [`CompiledBlock::kept_setup`] keeps them.
    setups: Vec<Option<Box<Setup>>>,
    input_slots: Vec<ThinSlice<Slot>>,
    output_slots: Vec<ThinSlice<Slot>>,
    in_shapes: PortShapes,
    out_shapes: PortShapes,
    out_units: Vec<ThinSlice<Units>>,
    used_outputs: Vec<ThinSlice<bool>>,
}

/// The compiled blocks, in block order, with the totals of their states and work slots and
/// every block's zero-crossing directions (block `b`'s are `blocks[b].zero_crossings`).
struct Compiled {
    blocks: Vec<CompiledBlock>,
    num_states: usize,
    num_work: usize,
    zero_crossings: Vec<Direction>,
}

/// Moves every instance and its parts into a [`CompiledBlock`]. Block `b`'s states are
/// `s_b .. s_b + n_b` with `s_b = Σ_{c<b} n_c` (likewise its work slots and zero crossings).
///
/// The instances are taken from the end and their vectors given back as they empty (halved
/// whenever half is unused). The compiled blocks' vector is reserved whole first, so the heap
/// the allocator counts still peaks with both (at 20,000 joints the instances are 120,000 ×
/// ~240 bytes, 29 MB, beside the compiled blocks' 58 MB); what the shrinking can save is
/// resident memory, where the allocator returns the freed tail to the system (glibc's
/// `mremap` for large blocks) and the reserved pages are touched only as they are written.
/// The heap saving measured on this branch came from moving shapes instead of cloning them,
/// the block tables' exact-size clone and the early drops in `build`.
fn compile(mut instances: Vec<Instance>, mut parts: Parts) -> Compiled {
    let declared = || parts.setups.iter().flatten();
    let num_states: usize = declared().map(|s| s.num_states).sum();
    let num_work: usize = declared().map(|s| s.num_work).sum();
    let zero_crossings: Vec<Direction> = declared()
        .flat_map(|s| s.zero_crossings.iter().copied())
        .collect();
    // The ends of block b's ranges, counted down from the totals as blocks are taken last first.
    let (mut states, mut work, mut zc) = (num_states, num_work, zero_crossings.len());
    let mut blocks = Vec::with_capacity(instances.len());
    while let Some(inst) = pop_shrinking(&mut instances) {
        let lost = "one part of each kind per instance";
        let setup = pop_shrinking(&mut parts.setups).expect(lost);
        let (s, w, z) = setup.as_deref().map_or((0, 0, 0), |d| {
            (d.num_states, d.num_work, d.zero_crossings.len())
        });
        blocks.push(CompiledBlock {
            name: inst.name,
            type_name: inst.type_name,
            block: inst.block,
            input_slots: pop_list(&mut parts.input_slots),
            output_slots: pop_list(&mut parts.output_slots),
            input_shapes: pop_list(&mut parts.in_shapes),
            output_shapes: pop_list(&mut parts.out_shapes),
            output_units: pop_list(&mut parts.out_units),
            states: states - s..states,
            work: work - w..work,
            zero_crossings: zc - z..zc,
            setup,
            span: inst.span,
            origin: inst.origin,
            binding: inst.binding,
            used_outputs: pop_list(&mut parts.used_outputs),
        });
        (states, work, zc) = (states - s, work - w, zc - z);
    }
    blocks.reverse();
    Compiled {
        blocks,
        num_states,
        num_work,
        zero_crossings,
    }
}

/// The last of `lists` ([`pop_shrinking`]), the list a [`CompiledBlock`] keeps.
fn pop_list<T>(lists: &mut Vec<ThinSlice<T>>) -> ThinSlice<T> {
    pop_shrinking(lists).expect("one part of each kind per instance")
}

/// `v.pop()`, and `v`'s buffer shrunk to its length once half of it is unused (from 64
/// elements up): popping all of `n` elements reallocates about log₂ n times.
fn pop_shrinking<T>(v: &mut Vec<T>) -> Option<T> {
    let last = v.pop();
    if v.capacity() >= 64 && v.len() <= v.capacity() / 2 {
        v.shrink_to_fit();
    }
    last
}

/// An instance as the build's warnings see it.
fn warned(i: &Instance) -> super::warnings::Warned<'_> {
    super::warnings::Warned {
        name: &i.name,
        block: &*i.block,
        span: &i.span,
        entry: i.origin.map(|o| o.entry),
    }
}

/// The lines leaving each block, by block index.
fn lines_from(n: usize, lines: &[SignalLine]) -> Vec<Vec<usize>> {
    let mut from: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, l) in lines.iter().enumerate() {
        from[l.from].push(k);
    }
    from
}

fn block_error(source: &SourceFile, instances: &[Instance], b: usize, m: String) -> Diagnostic {
    Diagnostic::at(source, &instances[b].span, m).block(&instances[b].name)
}

/// Block `b`'s own error, located at the block.
fn reported_by(source: &SourceFile, instances: &[Instance], b: usize, e: BlockError) -> Diagnostic {
    block_error(source, instances, b, e.to_string()).caused_by(e)
}

/// Every input that is not optional has a line.
fn check_inputs_connected(
    source: &SourceFile,
    instances: &[Instance],
    lines: &[SignalLine],
) -> Result<(), Diagnostic> {
    // Every block's inputs in one list, block b's from `first[b]` (not a list per block).
    let mut first = Vec::with_capacity(instances.len());
    let mut total = 0;
    for inst in instances {
        first.push(total);
        total += inst.block.inputs().len();
    }
    let mut connected = vec![false; total];
    for l in lines {
        connected[first[l.to] + l.to_port] = true;
    }
    for (b, inst) in instances.iter().enumerate() {
        for (i, p) in inst.block.inputs().iter().enumerate() {
            if !p.optional && !connected[first[b] + i] {
                return Err(block_error(
                    source,
                    instances,
                    b,
                    format!("input '{}.{}' is not connected", inst.name, p.name),
                )
                .hint(format!(
                    "add a line to connect = [...], e.g. \"source.out -> {}.{}\"",
                    inst.name, p.name
                )));
            }
        }
    }
    Ok(())
}

type PortShapes = Vec<ThinSlice<Shape>>;

/// Shape propagation to a fixed point, in rounds: each round carries the known output shapes
/// along the lines, then lets each block fill in its unknown shapes. Only blocks whose shapes
/// changed since they last ran are run again (a block's propagation depends on nothing else),
/// and only lines leaving an output that became known are carried, so the whole costs time
/// linear in the diagram's size. Shapes nothing determines are 1×1. Returns the input and
/// output shapes of every block.
fn propagate_shapes(
    source: &SourceFile,
    instances: &[Instance],
    lines: &[SignalLine],
    lines_from: &[Vec<usize>],
) -> Result<(PortShapes, PortShapes), Diagnostic> {
    let n = instances.len();
    let mut in_shapes: Vec<Vec<Option<Shape>>> = instances
        .iter()
        .map(|i| fixed_shapes(i.block.inputs()))
        .collect();
    let mut out_shapes: Vec<Vec<Option<Shape>>> = instances
        .iter()
        .map(|i| fixed_shapes(i.block.outputs()))
        .collect();
    let mut carry: Vec<usize> = (0..lines.len()).collect();
    let mut dirty = vec![true; n];
    let mut round_blocks: Vec<usize> = (0..n).collect();
    let mut next_blocks: Vec<usize> = Vec::new();
    for _round in 0..(2 * n + 4) {
        for &k in &carry {
            let l = &lines[k];
            let src = out_shapes[l.from][l.from_port];
            let want = match (src, l.index) {
                (Some(_), Some(_)) => Some(Shape::SCALAR),
                (s, None) => s,
                (None, Some(_)) => None,
            };
            if let (Some(w), None) = (want, in_shapes[l.to][l.to_port]) {
                in_shapes[l.to][l.to_port] = Some(w);
                if !dirty[l.to] {
                    dirty[l.to] = true;
                    round_blocks.push(l.to);
                }
            }
        }
        carry.clear();
        if round_blocks.is_empty() {
            break;
        }
        // Index order within a round, as a full pass over the blocks would go.
        round_blocks.sort_unstable();
        for &b in &round_blocks {
            dirty[b] = false;
        }
        for &b in &round_blocks {
            let (before_in, before_out) = (in_shapes[b].clone(), out_shapes[b].clone());
            instances[b]
                .block
                .propagate_shapes(&mut in_shapes[b], &mut out_shapes[b])
                .map_err(|e| {
                    reported_by(source, instances, b, e).hint(
                        "make the connected signals' shapes agree (`blockdyn check` prints them)",
                    )
                })?;
            if before_in != in_shapes[b] || before_out != out_shapes[b] {
                if !dirty[b] {
                    dirty[b] = true;
                    next_blocks.push(b);
                }
                for (o, (was, now)) in before_out.iter().zip(&out_shapes[b]).enumerate() {
                    if was != now {
                        carry.extend(
                            lines_from[b]
                                .iter()
                                .copied()
                                .filter(|&k| lines[k].from_port == o),
                        );
                    }
                }
            }
        }
        round_blocks.clear();
        std::mem::swap(&mut round_blocks, &mut next_blocks);
    }
    let settle = |shapes: Vec<Vec<Option<Shape>>>| -> PortShapes {
        shapes
            .into_iter()
            .map(|v| v.into_iter().map(|s| s.unwrap_or(Shape::SCALAR)).collect())
            .collect()
    };
    Ok((settle(in_shapes), settle(out_shapes)))
}

fn fixed_shapes(ports: &[PortDecl]) -> Vec<Option<Shape>> {
    ports
        .iter()
        .map(|p| match p.shape {
            ShapeSpec::Fixed(s) => Some(s),
            ShapeSpec::Inherited => None,
        })
        .collect()
}

/// Every line carries what its input expects, and every element index is in range.
fn check_lines(
    source: &SourceFile,
    instances: &[Instance],
    lines: &[SignalLine],
    line_spans: &[Span],
    in_shapes: &[ThinSlice<Shape>],
    out_shapes: &[ThinSlice<Shape>],
) -> Result<(), Diagnostic> {
    for (k, l) in lines.iter().enumerate() {
        let src = out_shapes[l.from][l.from_port];
        let dst = in_shapes[l.to][l.to_port];
        let from_name = format!(
            "{}.{}",
            instances[l.from].name,
            instances[l.from].block.outputs()[l.from_port].name
        );
        let to_name = format!(
            "{}.{}",
            instances[l.to].name,
            instances[l.to].block.inputs()[l.to_port].name
        );
        let carried = match l.index {
            Some(i) if i >= src.len() => {
                return Err(Diagnostic::at(
                    source,
                    &line_spans[k],
                    format!(
                        "{from_name}[{i}] is out of range: {from_name} is {src} ({} element{})",
                        src.len(),
                        if src.len() == 1 { "" } else { "s" }
                    ),
                )
                .block(&instances[l.from].name)
                .hint(format!(
                    "use an index from 0 to {}",
                    src.len().saturating_sub(1)
                )));
            }
            Some(_) => Shape::SCALAR,
            None => src,
        };
        if carried != dst {
            return Err(Diagnostic::at(
                source,
                &line_spans[k],
                format!("shape mismatch: {from_name} is {carried} but {to_name} expects {dst}"),
            )
            .block(&instances[l.to].name)
            .hint("select an element with block.port[i], or reshape with Mux/Demux/Selector"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::pop_shrinking;

    /// Popping everything gives the elements last first, and the buffer never holds more than
    /// twice its length (from 64 elements up): what lets the instances' memory go as the
    /// compiled blocks grow.
    #[test]
    fn pop_shrinking_returns_last_first_and_gives_memory_back() {
        let n = 1000;
        let mut v: Vec<usize> = (0..n).collect();
        let mut shrinks = 0;
        let mut capacity = v.capacity();
        for expected in (0..n).rev() {
            assert_eq!(pop_shrinking(&mut v), Some(expected));
            assert!(
                v.capacity() < 64 || v.capacity() <= 2 * v.len() + 1,
                "{} elements in a buffer of {}",
                v.len(),
                v.capacity()
            );
            if v.capacity() != capacity {
                shrinks += 1;
                capacity = v.capacity();
            }
        }
        assert_eq!(pop_shrinking(&mut v), None);
        // Halvings from 1000 down to below 64: 500, 250, 125, 62 → at most 4 (log₂ 1000/64 ≈ 4).
        assert!(shrinks <= 4, "{shrinks} reallocations");
    }
}
