//! Which outputs a diagram reads: by a line, by the animation, or by name in `[output] log`.

use super::instance::Instance;
use super::thin_slice::ThinSlice;
use super::SignalLine;
use crate::model::ModelSpec;
use std::collections::HashSet;

/// A logged name without the element index after its port: `block.port[i]` → `block.port`.
/// The block's name may hold brackets itself (an array's element, `leg[0]/knee.q`): only an
/// index after the last '.' is removed.
fn without_element(name: &str) -> &str {
    let port_at = name.rfind('.').map_or(0, |k| k + 1);
    match name[port_at..].find('[') {
        Some(i) => &name[..port_at + i],
        None => name,
    }
}

/// Which outputs are read: by a line, by the animation (drawn ports, when the model animates),
/// or by name in `[output] log` ("block.port" or "block.port[i]"). Each block is told
/// ([`crate::block::Block::set_used_outputs`]); returns the flags.
pub(super) fn mark_used_outputs(
    spec: &ModelSpec,
    instances: &mut [Instance],
    lines: &[SignalLine],
    lines_from: &[Vec<usize>],
) -> Vec<ThinSlice<bool>> {
    let logged: HashSet<&str> = spec
        .output
        .log
        .iter()
        .map(|(name, _)| without_element(name))
        .collect();
    let mut used_outputs = Vec::with_capacity(instances.len());
    // One buffer for every block's marks (not one allocated per block).
    let mut wired: Vec<bool> = Vec::new();
    for (b, inst) in instances.iter_mut().enumerate() {
        let outputs = inst.block.outputs();
        // The ports the block's lines leave from, marked once (not searched per port: a
        // mechanism of 20,000 joints has as many ports and lines).
        wired.clear();
        wired.resize(outputs.len(), false);
        for &k in &lines_from[b] {
            if let Some(w) = wired.get_mut(lines[k].from_port) {
                *w = true;
            }
        }
        let used: ThinSlice<bool> = (0..outputs.len())
            .map(|o| {
                wired[o]
                    || ((spec.output.animation.path.is_some()
                        || spec.output.animation.view.is_some())
                        && outputs[o].drawn.is_some())
                    || (!logged.is_empty()
                        && logged.contains(format!("{}.{}", inst.name, outputs[o].name).as_str()))
            })
            .collect();
        inst.block.set_used_outputs(&used);
        used_outputs.push(used);
    }
    // An output wired only to inputs their blocks ignore (a joint's hidden drive input when its
    // reaction and actuator force are not read) is not used after all.
    let mut unread: Vec<(usize, usize)> = Vec::new();
    let mut wired: Vec<(bool, bool)> = Vec::new();
    for (b, from) in lines_from.iter().enumerate() {
        // Per port: (wired at all, wired to an input that is read).
        wired.clear();
        wired.resize(used_outputs[b].len(), (false, false));
        for &k in from {
            let l = &lines[k];
            if let Some(w) = wired.get_mut(l.from_port) {
                w.0 = true;
                w.1 |= instances[l.to].block.reads_input(l.to_port);
            }
        }
        for (o, &(any, read)) in wired.iter().enumerate() {
            if any && !read && used_outputs[b][o] {
                unread.push((b, o));
            }
        }
    }
    if !unread.is_empty() {
        for &(b, o) in &unread {
            used_outputs[b][o] = false;
        }
        let mut told: Vec<usize> = unread.iter().map(|(b, _)| *b).collect();
        told.dedup();
        for b in told {
            instances[b].block.set_used_outputs(&used_outputs[b]);
        }
    }
    used_outputs
}
