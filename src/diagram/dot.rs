//! Graphviz DOT of a diagram: blocks as nodes, signal lines as solid arrows, physical connections
//! as dashed undirected edges.

use super::Diagram;
use std::fmt::Write;

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The diagram as DOT text.
pub fn to_dot(d: &Diagram) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "digraph {} {{", quote(&d.spec.name));
    let _ = writeln!(
        s,
        "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];"
    );
    for b in &d.blocks {
        let _ = writeln!(
            s,
            "  {} [label={}];",
            quote(&b.name),
            quote(&format!("{}\\n{}", b.name, b.type_name))
        );
    }
    for l in &d.lines {
        let from = &d.blocks[l.from];
        let to = &d.blocks[l.to];
        let mut label = format!(
            "{} → {}",
            from.block.outputs()[l.from_port].name,
            to.block.inputs()[l.to_port].name
        );
        if let Some(i) = l.index {
            label = format!(
                "{}[{i}] → {}",
                from.block.outputs()[l.from_port].name,
                to.block.inputs()[l.to_port].name
            );
        }
        let _ = writeln!(
            s,
            "  {} -> {} [label={}];",
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
