//! Graphviz DOT of a diagram: blocks as nodes, signal lines as solid arrows, physical connections
//! as dashed undirected edges.
//!
//! What the user wrote is shown, not how it is lowered: the mechanism block that the physical
//! connections compile to, and the hidden signal lines that wire it to the joints and contact
//! blocks (`joint_0 → state`, `rigid_0 → solution`, wrenches), are left out unless `all` is
//! asked for (`blockdyn graph --all`), where they are drawn dotted. Likewise a subsystem instance
//! written in the model file is one node (its blocks `INSTANCE/NAME` drawn as the instance, the
//! edges inside it left out), and `all` draws its blocks; so is a Urdf block (its root attachment
//! is named `INSTANCE` itself).

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
    // The blocks the model declared: every block but those the build adds (the mechanism),
    // which alone have no model entry.
    let declared: HashSet<&str> = d
        .blocks
        .iter()
        .filter(|b| b.origin.is_some())
        .map(|b| b.name.as_str())
        .collect();
    let shown = |b: usize| all || declared.contains(d.blocks[b].name.as_str());
    // The node a block is drawn as: its instance's, unless `all`.
    let node = |name: &'_ str| -> (String, Option<&'static str>) {
        let instance = (!all)
            .then(|| {
                d.subsystems.iter().find(|i| {
                    let i = i.name.as_str();
                    name.starts_with(i)
                        && (name.len() == i.len() || name[i.len()..].starts_with('/'))
                })
            })
            .flatten();
        match instance {
            Some(i) => (i.name.clone(), Some(i.type_name)),
            None => (name.to_string(), None),
        }
    };
    let mut s = String::new();
    let _ = writeln!(s, "digraph {} {{", quote(&d.run.name));
    let _ = writeln!(
        s,
        "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];"
    );
    let mut drawn: HashSet<String> = HashSet::new();
    for b in (0..d.blocks.len())
        .filter(|&b| shown(b))
        .map(|b| &d.blocks[b])
    {
        let (name, instance_type) = node(&b.name);
        if !drawn.insert(name.clone()) {
            continue;
        }
        // A collapsed instance is labelled with what it instantiates (`Subsystem`, `Urdf`).
        let type_name = instance_type.unwrap_or(b.type_name);
        // Name and type on two lines: DOT's own `\n` escape, between the escaped parts.
        let _ = writeln!(
            s,
            "  {} [label=\"{}\\n{}\"];",
            quote(&name),
            escape(&name),
            escape(type_name)
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
        let ((a, a_type), (b, b_type)) = (node(&from.name), node(&to.name));
        let (a_in, b_in) = (a_type.is_some(), b_type.is_some());
        if a_in && b_in && a == b {
            continue;
        }
        let style = if hidden { ", style=dotted" } else { "" };
        // A collapsed end names the block inside the instance.
        let end = |inside: bool, block: &str, port: &str| match inside {
            true => format!("{block}.{port}"),
            false => port.to_string(),
        };
        let index = l.index.map_or(String::new(), |i| format!("[{i}]"));
        let label = format!(
            "{}{index} → {}",
            end(a_in, &from.name, &out.name),
            end(b_in, &to.name, &inp.name)
        );
        let _ = writeln!(
            s,
            "  {} -> {} [label={}{style}];",
            quote(&a),
            quote(&b),
            quote(&label)
        );
    }
    for (a, b) in d.physical.iter() {
        let (ba, a_type) = node(a.split('.').next().unwrap_or(a));
        let (bb, b_type) = node(b.split('.').next().unwrap_or(b));
        if a_type.is_some() && b_type.is_some() && ba == bb {
            continue;
        }
        let _ = writeln!(
            s,
            "  {} -> {} [dir=none, style=dashed, label={}];",
            quote(&ba),
            quote(&bb),
            quote(&format!("{a} -- {b}"))
        );
    }
    s.push_str("}\n");
    s
}
