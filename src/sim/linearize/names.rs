//! Resolving the names of `--inputs` and `--outputs` to ports of the diagram, with located
//! errors and "did you mean".

use super::error::LinearizeError;
use crate::block::Slot;
use crate::diagram::Diagram;
use crate::model::Diagnostic;
use crate::params::closest;

/// What a linearization input perturbs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Target {
    /// Input port `port` of block `block`: the block sees its connected value plus δ.
    Input { block: usize, port: usize },
    /// Output `out` of a source block (one output `out`, no inputs, such as an Inport): every
    /// reader sees its value plus δ.
    Output { block: usize },
}

/// One named input or output port, resolved.
#[derive(Clone, Debug)]
pub(super) struct Port {
    pub target: Target,
    /// The port's slot in the diagram's signals (an input's: where it reads from).
    pub slot: Slot,
    /// One name per element: `block.port`, or `block.port[i]` when it has several.
    pub names: Vec<String>,
}

/// Which option a name came from (for messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// `--inputs`.
    Inputs,
    /// `--outputs`.
    Outputs,
}

impl Role {
    fn option(self) -> &'static str {
        match self {
            Role::Inputs => "--inputs",
            Role::Outputs => "--outputs",
        }
    }
}

fn element_names(base: &str, len: u32) -> Vec<String> {
    if len == 1 {
        vec![base.to_string()]
    } else {
        (0..len).map(|i| format!("{base}[{i}]")).collect()
    }
}

/// The block called `name`, or an error with "did you mean".
fn block_named(d: &Diagram, role: Role, full: &str, name: &str) -> Result<usize, LinearizeError> {
    d.block_index(name).ok_or_else(|| {
        let mut e = Diagnostic::new(format!(
            "{} '{full}': there is no block '{name}'",
            role.option()
        ));
        if let Some(near) = closest(name, d.blocks.iter().map(|b| b.name.as_str())) {
            e = e.hint(format!("did you mean '{near}'?"));
        }
        LinearizeError::Name(Box::new(e))
    })
}

/// Whether block `b` is a source that a bare name perturbs: no inputs, one output `out`.
fn is_source(d: &Diagram, b: usize) -> bool {
    let block = &d.blocks[b].block;
    block.inputs().is_empty() && block.outputs().len() == 1 && block.outputs()[0].name == "out"
}

/// Resolves one `--inputs` name: `BLOCK.PORT` (an input port) or `BLOCK` (a source block's
/// output `out`, such as an Inport).
pub(super) fn resolve_input(d: &Diagram, name: &str) -> Result<Port, LinearizeError> {
    let name = name.trim();
    let Some((block_name, port_name)) = name.rsplit_once('.') else {
        let b = block_named(d, Role::Inputs, name, name)?;
        if !is_source(d, b) {
            let blk = &d.blocks[b];
            let ports: Vec<String> = blk
                .block
                .inputs()
                .iter()
                .map(|p| format!("{name}.{}", p.name))
                .collect();
            return Err(LinearizeError::Name(Box::new(
                d.block_diagnostic(b, format!(
                    "--inputs '{name}': a block named alone must be a source with one output 'out' and no inputs (an Inport); '{name}' is a {}",
                    blk.type_name
                ))
                .block(name)
                .hint(format!("name one of its input ports: {}", list(&ports))),
            )));
        }
        let slot = d.blocks[b].output_slots[0];
        return Ok(Port {
            target: Target::Output { block: b },
            slot,
            names: element_names(name, slot.len),
        });
    };
    let b = block_named(d, Role::Inputs, name, block_name)?;
    let blk = &d.blocks[b];
    let port = blk
        .input_index(port_name)
        .ok_or_else(|| unknown_port(d, Role::Inputs, name, b, port_name))?;
    let slot = blk.input_slots[port];
    Ok(Port {
        target: Target::Input { block: b, port },
        slot,
        names: element_names(name, slot.len),
    })
}

/// Resolves one `--outputs` name: `BLOCK.PORT`, an output port.
pub(super) fn resolve_output(d: &Diagram, name: &str) -> Result<Port, LinearizeError> {
    let name = name.trim();
    let Some((block_name, port_name)) = name.rsplit_once('.') else {
        return Err(LinearizeError::Name(Box::new(
            Diagnostic::new(format!(
                "--outputs '{name}': name an output port as BLOCK.PORT"
            ))
            .hint(format!("e.g. '{name}.out'")),
        )));
    };
    let b = block_named(d, Role::Outputs, name, block_name)?;
    let blk = &d.blocks[b];
    let port = blk
        .output_index(port_name)
        .ok_or_else(|| unknown_port(d, Role::Outputs, name, b, port_name))?;
    if !blk.used_outputs[port] {
        return Err(LinearizeError::UnusedOutput {
            name: name.to_string(),
        });
    }
    let slot = blk.output_slots[port];
    Ok(Port {
        target: Target::Output { block: b },
        slot,
        names: element_names(name, slot.len),
    })
}

/// "block 'b' has no input 'p'", located at the block, with "did you mean" or the list.
fn unknown_port(d: &Diagram, role: Role, full: &str, b: usize, port: &str) -> LinearizeError {
    let blk = &d.blocks[b];
    let (kind, ports) = match role {
        Role::Inputs => ("input", blk.block.inputs()),
        Role::Outputs => ("output", blk.block.outputs()),
    };
    let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    let hint = match closest(port, names.iter().copied()) {
        Some(near) => format!("did you mean '{}.{near}'?", blk.name),
        None if names.is_empty() => format!("a {} has no {kind} ports", blk.type_name),
        None => format!("its {kind}s: {}", list(&names)),
    };
    LinearizeError::Name(Box::new(
        d.block_diagnostic(
            b,
            format!(
                "{} '{full}': block '{}' ({}) has no {kind} '{port}'",
                role.option(),
                blk.name,
                blk.type_name
            ),
        )
        .block(blk.name.as_str())
        .hint(hint),
    ))
}

fn list<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| n.as_ref())
        .collect::<Vec<_>>()
        .join(", ")
}
