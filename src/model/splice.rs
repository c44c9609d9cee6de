//! A subsystem's ports: which connections inside each Inport, Outport and FramePort block of a
//! subsystem file joins ([`ports_of`]), and the splicing of a connection outside to `INSTANCE.PORT`
//! into those connections ([`splice`]). See [`super::subsystem`].

use super::assign::{FRAMEPORT, INPORT, OUTPORT};
use super::connection::{Connection, ConnectionKind, PortRef};
use super::diagnostic::{closest, Diagnostic};
use super::source::{SourceFile, Span};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PortKind {
    In,
    Out,
    Frame,
}

impl PortKind {
    pub(super) fn of(type_name: &str) -> Option<PortKind> {
        match type_name {
            INPORT => Some(PortKind::In),
            OUTPORT => Some(PortKind::Out),
            FRAMEPORT => Some(PortKind::Frame),
            _ => None,
        }
    }

    /// The port's name inside the subsystem.
    pub(super) fn inner(self) -> &'static str {
        match self {
            PortKind::In => "out",
            PortKind::Out => "in",
            PortKind::Frame => "F",
        }
    }
}

/// A port of a subsystem instance: the port block's full name, and what it joins inside.
pub(super) struct Port {
    /// The name outside (`u` of `leg1.u`).
    pub(super) name: String,
    pub(super) kind: PortKind,
    /// The port block's full name (`leg1/u`).
    pub(super) block: String,
    /// The indices (in the instance's connections) of the connections to the port block.
    pub(super) inner: Vec<usize>,
    /// The other end of each of those connections.
    pub(super) ends: Vec<PortRef>,
    /// Where the port block is written.
    pub(super) span: Span,
}

/// The connection `c` of a file at `prefix`, with its ends named fully and each end at an
/// instance's port replaced by what the port joins inside (marking those connections
/// spliced).
pub(super) fn splice(
    source: &SourceFile,
    c: &Connection,
    prefix: &str,
    instances: &HashMap<String, Vec<Port>>,
    spliced: &mut [bool],
) -> Result<Vec<Connection>, Diagnostic> {
    let from = end(source, c, &c.from, prefix, instances, spliced, true)?;
    let to = end(source, c, &c.to, prefix, instances, spliced, false)?;
    let mut out = Vec::with_capacity(from.len() * to.len());
    for f in &from {
        for t in &to {
            out.push(Connection {
                from: f.clone(),
                to: t.clone(),
                ..c.clone()
            });
        }
    }
    Ok(out)
}

/// One end of `c`: itself, fully named, or the ends inside an instance's port.
fn end(
    source: &SourceFile,
    c: &Connection,
    end: &PortRef,
    prefix: &str,
    instances: &HashMap<String, Vec<Port>>,
    spliced: &mut [bool],
    source_side: bool,
) -> Result<Vec<PortRef>, Diagnostic> {
    let Some(ports) = instances.get(&end.block) else {
        let mut e = end.clone();
        e.block = format!("{prefix}{}", end.block);
        return Ok(vec![e]);
    };
    let err = |m: String| Diagnostic::at(source, &c.span, m).block(&end.block);
    let Some(port) = ports.iter().find(|p| p.name == end.port) else {
        let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
        let d = err(format!(
            "subsystem '{}' has no port '{}'",
            end.block, end.port
        ));
        return Err(match closest(&end.port, names.iter().copied()) {
            Some(near) => d.hint(format!("did you mean '{near}'?")),
            None if names.is_empty() => {
                d.hint("its file has no Inport, Outport or FramePort block")
            }
            None => d.hint(format!("its ports are: {}", names.join(", "))),
        });
    };
    let wanted = match (c.kind, source_side) {
        (ConnectionKind::Physical, _) => PortKind::Frame,
        (ConnectionKind::Signal, true) => PortKind::Out,
        (ConnectionKind::Signal, false) => PortKind::In,
    };
    if port.kind != wanted {
        let what = |k: PortKind| match k {
            PortKind::In => "an input (an Inport)",
            PortKind::Out => "an output (an Outport)",
            PortKind::Frame => "a frame port (a FramePort)",
        };
        return Err(err(format!(
            "{end} is {}, and this end needs {}",
            what(port.kind),
            what(wanted)
        ))
        .hint("signal lines go from an Outport to an Inport ('->'); frame ports join with '--'"));
    }
    if port.kind == PortKind::Out && port.inner.is_empty() {
        return Err(err(format!(
            "output {end}: nothing inside the subsystem feeds its Outport"
        )));
    }
    for &k in &port.inner {
        spliced[k] = true;
    }
    let mut ends = port.ends.clone();
    if let Some(i) = end.index {
        for e in &mut ends {
            if e.index.is_some() {
                return Err(err(format!(
                    "{end}: the Outport already selects an element inside"
                )));
            }
            e.index = Some(i);
        }
    }
    Ok(ends)
}

/// The ports of a subsystem file's expansion: each port block and the connections to it.
pub(super) fn ports_of(
    source: &SourceFile,
    prefix: &str,
    port_blocks: &[(String, PortKind, Span)],
    connections: &[Connection],
) -> Result<Vec<Port>, Diagnostic> {
    let mut ports = Vec::new();
    for (name, kind, span) in port_blocks {
        let block = format!("{prefix}{name}");
        let mut port = Port {
            name: name.clone(),
            kind: *kind,
            block: block.clone(),
            inner: Vec::new(),
            ends: Vec::new(),
            span: span.clone(),
        };
        for (k, c) in connections.iter().enumerate() {
            let (this, other) = match (c.from.block == block, c.to.block == block) {
                (true, _) => (&c.from, &c.to),
                (_, true) => (&c.to, &c.from),
                _ => continue,
            };
            let fed_by_port = port_blocks
                .iter()
                .any(|(n, k, _)| *k != PortKind::Frame && other.block == format!("{prefix}{n}"));
            let why = if this.port != kind.inner() {
                Some(format!(
                    "the {} '{name}' has the one port '{}' inside, not '{}'",
                    match kind {
                        PortKind::In => INPORT,
                        PortKind::Out => OUTPORT,
                        PortKind::Frame => FRAMEPORT,
                    },
                    kind.inner(),
                    this.port
                ))
            } else if fed_by_port && *kind == PortKind::Out {
                Some(format!("the Outport '{name}' is fed directly by an Inport"))
            } else if *kind == PortKind::In && this.index.is_some() {
                Some(format!(
                    "the Inport '{name}': select elements outside the subsystem"
                ))
            } else {
                None
            };
            if let Some(why) = why {
                return Err(Diagnostic::at(source, &c.span, why)
                    .hint("inside a subsystem an Inport is read as NAME.out, an Outport written as NAME.in, a FramePort joined as NAME.F"));
            }
            port.inner.push(k);
            port.ends.push(other.clone());
        }
        ports.push(port);
    }
    Ok(ports)
}

/// Physical connections joining `ends` to each other (the first to each of the others), for a
/// FramePort nothing outside connects: the frames it joined inside stay joined.
pub(super) fn join_all(
    ends: &[PortRef],
    connections: &[Connection],
    inner: &[usize],
) -> Vec<Connection> {
    let Some((first, rest)) = ends.split_first() else {
        return Vec::new();
    };
    rest.iter()
        .zip(&inner[1..])
        .map(|(e, &k)| Connection {
            kind: ConnectionKind::Physical,
            from: first.clone(),
            to: e.clone(),
            span: connections[k].span.clone(),
        })
        .collect()
}

/// What is left of the ports of `instances` (local names in `order`) once the connections outside
/// were spliced (`spliced[k]` for the instance's connections replaced): the connections to add
/// (a FramePort nothing outside joins keeps the frames it joins inside joined) and the port blocks
/// to remove (an Inport driven or an Outport read outside). An Inport nothing drives stays (a
/// source of 0), an Outport nothing reads stays (a sink). Marks every FramePort's connections
/// spliced.
pub(super) fn leftovers(
    order: &[String],
    instances: &HashMap<String, Vec<Port>>,
    spliced: &mut [bool],
    connections: &[Connection],
) -> (Vec<Connection>, Vec<String>) {
    let (mut made, mut gone) = (Vec::new(), Vec::new());
    for local in order {
        for p in &instances[local] {
            let used = p.inner.iter().any(|&k| spliced[k]);
            match p.kind {
                PortKind::Frame => {
                    for &k in &p.inner {
                        spliced[k] = true;
                    }
                    if !used {
                        made.extend(join_all(&p.ends, connections, &p.inner));
                    }
                }
                _ if used => gone.push(p.block.clone()),
                _ => {}
            }
        }
    }
    (made, gone)
}

/// The warning for each Inport of `instances` (local names in `order`) that nothing outside
/// drives (none of its connections `spliced`): it stays, a source of 0, which a run would not
/// question. Located at the Inport block inside the subsystem file (with the including line).
pub(super) fn undriven_inports(
    source: &SourceFile,
    order: &[String],
    instances: &HashMap<String, Vec<Port>>,
    spliced: &[bool],
) -> Vec<String> {
    let mut out = Vec::new();
    for local in order {
        for p in instances[local].iter().filter(|p| p.kind == PortKind::In) {
            if p.inner.iter().any(|&k| spliced[k]) {
                continue;
            }
            let instance = p
                .block
                .strip_suffix(&format!("/{}", p.name))
                .unwrap_or(&p.block);
            let d = Diagnostic::at(
                source,
                &p.span,
                format!(
                    "the input '{instance}.{}' is not connected: its Inport '{}' outputs 0",
                    p.name, p.name
                ),
            )
            .block(&p.block)
            .hint(format!(
                "connect a signal to it where the instance is written, e.g. \"SOURCE.out -> {instance}.{}\"",
                p.name
            ));
            out.push(d.to_string());
        }
    }
    out
}
