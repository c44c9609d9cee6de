//! Graphviz DOT of a diagram: blocks as nodes, signal lines as solid arrows, physical connections
//! as dashed undirected edges.
//!
//! What the user wrote is shown, not how it is lowered: the mechanism block that the physical
//! connections compile to, and the hidden signal lines that wire it to the joints and contact
//! blocks (`joint_0 → state`, `rigid_0 → solution`, wrenches), are left out unless `all` is
//! asked for (`blockdyn graph --all`), where they are drawn dotted.

use super::Diagram;
use std::collections::HashSet;
use std::fmt::Write;

/// `s` as the inside of a DOT string: backslashes and quotes escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn quote(s: &str) -> String {
    format!("\"{}\"", escape(s))
}

/// The diagram as DOT text; `all` also draws the hidden wiring.
pub fn to_dot(d: &Diagram, all: bool) -> String {
    let declared: HashSet<&str> = d.spec.blocks.iter().map(|b| b.name.as_str()).collect();
    let shown = |b: usize| all || declared.contains(d.blocks[b].name.as_str());
    let mut s = String::new();
    let _ = writeln!(s, "digraph {} {{", quote(&d.spec.name));
    let _ = writeln!(
        s,
        "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];"
    );
    for b in (0..d.blocks.len())
        .filter(|&b| shown(b))
        .map(|b| &d.blocks[b])
    {
        // Name and type on two lines: DOT's own `\n` escape, between the escaped parts.
        let _ = writeln!(
            s,
            "  {} [label=\"{}\\n{}\"];",
            quote(&b.name),
            escape(&b.name),
            escape(b.type_name)
        );
    }
    for l in &d.lines {
        let (from, to) = (&d.blocks[l.from], &d.blocks[l.to]);
        let (out, inp) = (
            &from.block.outputs()[l.from_port],
            &to.block.inputs()[l.to_port],
        );
        let hidden = out.is_hidden() || inp.is_hidden();
        if !shown(l.from) || !shown(l.to) || (hidden && !all) {
            continue;
        }
        let style = if hidden { ", style=dotted" } else { "" };
        let label = match l.index {
            Some(i) => format!("{}[{i}] → {}", out.name, inp.name),
            None => format!("{} → {}", out.name, inp.name),
        };
        let _ = writeln!(
            s,
            "  {} -> {} [label={}{style}];",
            quote(&from.name),
            quote(&to.name),
            quote(&label)
        );
    }
    for (a, b) in &d.physical {
        let ba = a.split('.').next().unwrap_or(a);
        let bb = b.split('.').next().unwrap_or(b);
        let _ = writeln!(
            s,
            "  {} -> {} [dir=none, style=dashed, label={}];",
            quote(ba),
            quote(bb),
            quote(&format!("{a} -- {b}"))
        );
    }
    s.push_str("}\n");
    s
}
