//! Which signals a run records, resolved when the diagram is built: every Scope's inputs, then
//! the `[output] log` names (checked here, with "did you mean", at the place each was written).
//! The recorder gets the result ([`RecordedSignals`]) and never sees a name. The frames an
//! animation draws (`[output] draw_frames`) are resolved here too ([`drawn_frames`]).

use super::physical::PhysicalScene;
use super::run_spec::{DrawnFrames, FrameChoice, RecordedSignals};
use super::Diagram;
use crate::model::diagnostic::closest;
use crate::model::{Diagnostic, PortRef, SourceFile, Span};
use crate::output::Column;
use crate::output::DrawFrames;

/// The recorded signals of `d`: its Scopes' inputs, then `log` (each name with where it was
/// written in `source`). An unknown block or output, a name that is not `block.port[i]` and an
/// element out of range are located errors.
pub(crate) fn resolve(
    d: &Diagram,
    log: &[(String, Span)],
    source: &SourceFile,
) -> Result<RecordedSignals, Diagnostic> {
    let mut r = RecordedSignals::default();
    scope_columns(d, &mut r);
    for (name, span) in log {
        logged_columns(d, name, span, source, &mut r)?;
    }
    Ok(r)
}

/// One panel per block that records its inputs (a Scope), a column per element of each input
/// that a line drives.
fn scope_columns(d: &Diagram, r: &mut RecordedSignals) {
    for (b, blk) in d.blocks.iter().enumerate() {
        if !blk.block.records_inputs() {
            continue;
        }
        let panel = r.panels.len();
        r.panels.push(blk.name.clone());
        for (i, _) in blk.block.inputs().iter().enumerate() {
            let Some(line) = d.lines.iter().find(|l| l.to == b && l.to_port == i) else {
                continue;
            };
            let src = &d.blocks[line.from];
            let port = &src.block.outputs()[line.from_port];
            let units = &src.output_units[line.from_port];
            let base = format!("{}.{}", src.name, port.name);
            let slot = src.output_slots[line.from_port];
            match line.index {
                Some(k) => {
                    r.columns.push(Column {
                        name: format!("{base}[{k}]"),
                        unit: units.of(k).map(str::to_string),
                        panel: Some(panel),
                    });
                    r.offsets.push(slot.offset as usize + k);
                }
                None => {
                    let shape = src.output_shapes[line.from_port];
                    for k in 0..shape.len() {
                        r.columns.push(Column {
                            name: shape.element_name(&base, k),
                            unit: units.of(k).map(str::to_string),
                            panel: Some(panel),
                        });
                        r.offsets.push(slot.offset as usize + k);
                    }
                }
            }
        }
    }
}

/// The columns of the logged signal `name` (written at `span`) not already recorded, without a
/// panel.
fn logged_columns(
    d: &Diagram,
    name: &str,
    span: &Span,
    source: &SourceFile,
    r: &mut RecordedSignals,
) -> Result<(), Diagnostic> {
    let (b, o, signal) = find_output(d, name, span, source)?;
    r.logged_blocks.push(b);
    let blk = &d.blocks[b];
    let port = &blk.block.outputs()[o];
    let shape = blk.output_shapes[o];
    let slot = blk.output_slots[o];
    let base = format!("{}.{}", blk.name, port.name);
    let elements: Vec<(String, usize)> = match signal.index {
        Some(k) if k >= shape.len() => {
            return Err(Diagnostic::at(
                source,
                span,
                format!("'{name}' is out of range: {base} is {shape}"),
            )
            .block(&signal.block))
        }
        Some(k) => vec![(format!("{base}[{k}]"), k)],
        None => (0..shape.len())
            .map(|k| (shape.element_name(&base, k), k))
            .collect(),
    };
    for (col, k) in elements {
        if r.columns.iter().any(|c: &Column| c.name == col) {
            continue;
        }
        r.columns.push(Column {
            name: col,
            unit: blk.output_units[o].of(k).map(str::to_string),
            panel: None,
        });
        r.offsets.push(slot.offset as usize + k);
    }
    Ok(())
}

/// The block and visible output a logged name (written at `span`) refers to, and the name
/// parsed; errors say what to write, with "did you mean" for a near name.
fn find_output(
    d: &Diagram,
    name: &str,
    span: &Span,
    source: &SourceFile,
) -> Result<(usize, usize, PortRef), Diagnostic> {
    let r = parse_log_name(name).ok_or_else(|| {
        Diagnostic::at(
            source,
            span,
            format!("'{name}' in [output] log is not a signal name"),
        )
        .hint("write \"block.port\" or \"block.port[i]\"")
    })?;
    let Some(b) = d.block_index(&r.block) else {
        let d2 = Diagnostic::at(
            source,
            span,
            format!(
                "[output] log names '{name}', but there is no block '{}'",
                r.block
            ),
        );
        return Err(
            match closest(&r.block, d.blocks.iter().map(|b| b.name.as_str())) {
                Some(near) => d2.hint(format!("did you mean '{near}'?")),
                None => d2,
            },
        );
    };
    let blk = &d.blocks[b];
    let Some(o) = blk
        .output_index(&r.port)
        .filter(|&o| !blk.block.outputs()[o].is_hidden())
    else {
        let outs: Vec<&str> = blk
            .block
            .outputs()
            .iter()
            .filter(|p| !p.is_hidden())
            .map(|p| p.name.as_str())
            .collect();
        let d2 = Diagnostic::at(
            source,
            span,
            format!(
                "[output] log names '{name}', but block '{}' has no output '{}'",
                r.block, r.port
            ),
        )
        .block(&r.block);
        return Err(match closest(&r.port, outs.iter().copied()) {
            Some(near) => d2.hint(format!("did you mean '{}.{near}'?", r.block)),
            None => d2.hint(format!("its outputs are: {}", outs.join(", "))),
        });
    };
    Ok((b, o, r))
}

fn parse_log_name(name: &str) -> Option<PortRef> {
    crate::model::connection::parse_signal_name(name.trim())
}
/// The frames of `scene` that `frames` (`[output] draw_frames`) asks for, by index into
/// [`PhysicalScene::frames`] (whose names are "block.port"), and a warning for each name that
/// is no frame of the model, with the frames it might have meant.
pub(crate) fn drawn_frames(scene: &PhysicalScene, frames: &DrawFrames) -> DrawnFrames {
    let names = match frames {
        DrawFrames::None => return DrawnFrames::default(),
        DrawFrames::All => {
            return DrawnFrames {
                frames: FrameChoice::All,
                unknown: Vec::new(),
            }
        }
        DrawFrames::Named(names) => names,
    };
    let known: Vec<&str> = scene.frames.iter().map(|(n, _)| n).collect();
    let index: std::collections::HashMap<&str, usize> =
        known.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut listed: Vec<usize> = names
        .iter()
        .filter_map(|n| index.get(n.as_str()).copied())
        .collect();
    listed.sort_unstable();
    listed.dedup();
    let unknown = names
        .iter()
        .filter(|n| !index.contains_key(n.as_str()))
        .map(|n| unknown_frame(n, &known))
        .collect();
    DrawnFrames {
        frames: FrameChoice::Listed(listed),
        unknown,
    }
}

/// The warning for `name` in `draw_frames`, no frame of the model (`known`: every frame's
/// "block.port"): the block's frames when the block has any, else an example.
fn unknown_frame(name: &str, known: &[&str]) -> String {
    let block = name.split('.').next().unwrap_or(name);
    let same_block: Vec<&str> = known
        .iter()
        .copied()
        .filter(|k| k.split('.').next() == Some(block))
        .collect();
    let hint = if same_block.is_empty() {
        format!(
            "frames are named block.port, e.g. '{}'",
            known.first().copied().unwrap_or("arm.F")
        )
    } else {
        format!("block '{block}' has {}", same_block.join(", "))
    };
    format!("[output] draw_frames names '{name}', which is no frame of the model ({hint}); it is not drawn")
}
