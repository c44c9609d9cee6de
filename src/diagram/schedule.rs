//! The evaluation schedule: a topological order of output ports by direct-feedthrough dependency.
//!
//! The dependency graph has one node per (block, output port) and an edge P → Q when output P
//! feeds an input of Q's block that feeds Q directly (a declared feedthrough pair). Ordering ports,
//! not blocks, is what lets a block sit on a feedback loop through one of its ports that has no
//! feedthrough (a joint's sensed position feeding a controller that drives the same joint's torque).
//! The schedule lists block evaluations; a block whose ports must be interleaved with other blocks'
//! appears more than once (blocks are pure functions of time, state and inputs, so a repeated
//! evaluation only recomputes the same values). A cycle is an algebraic loop.

use super::{CompiledBlock, SignalLine};
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction as Dir;
use std::collections::{HashSet, VecDeque};

/// The block evaluation order, or the blocks of an algebraic loop in loop order.
pub fn schedule(blocks: &[CompiledBlock], lines: &[SignalLine]) -> Result<Vec<usize>, Vec<usize>> {
    let mut graph: DiGraph<(usize, usize), ()> = DiGraph::new();
    let mut node_of: Vec<Vec<NodeIndex>> = Vec::with_capacity(blocks.len());
    for (b, blk) in blocks.iter().enumerate() {
        node_of.push(
            (0..blk.output_slots.len())
                .map(|o| graph.add_node((b, o)))
                .collect(),
        );
    }
    // Edges, each once, in line order (a hash set rather than a search of the source's edges:
    // a block's fan-out may be large).
    let mut seen: HashSet<(NodeIndex, NodeIndex)> = HashSet::new();
    for l in lines {
        for &(i, o) in &blocks[l.to].setup.feedthrough {
            if i == l.to_port {
                let (from, to) = (node_of[l.from][l.from_port], node_of[l.to][o]);
                if seen.insert((from, to)) {
                    graph.add_edge(from, to, ());
                }
            }
        }
    }
    // Kahn's algorithm; once a block's port is taken, its other ready ports are taken right after,
    // so that a block is evaluated once whenever the dependencies allow it.
    let mut indegree: Vec<usize> = graph
        .node_indices()
        .map(|n| graph.neighbors_directed(n, Dir::Incoming).count())
        .collect();
    // The queue may hold a node twice (moved to the front while still further back); `taken`
    // skips the second. `pending[b]`: block b's nodes in the queue and not taken, in queue order.
    let mut ready: VecDeque<NodeIndex> = graph
        .node_indices()
        .filter(|n| indegree[n.index()] == 0)
        .collect();
    let mut pending: Vec<Vec<NodeIndex>> = vec![Vec::new(); blocks.len()];
    for &n in &ready {
        pending[graph[n].0].push(n);
    }
    let mut taken = vec![false; graph.node_count()];
    let mut order: Vec<usize> = Vec::with_capacity(blocks.len());
    // A node that became ready through an edge from its own block (a block wired back to its own
    // input) needs a fresh evaluation of the block: it must not be merged into the current one.
    let mut fresh = vec![false; graph.node_count()];
    let mut done = 0usize;
    let mut newly = Vec::new();
    while let Some(node) = ready.pop_front() {
        if std::mem::replace(&mut taken[node.index()], true) {
            continue;
        }
        let (b, _) = graph[node];
        pending[b].retain(|&n| n != node);
        if order.last() != Some(&b) || fresh[node.index()] {
            order.push(b);
        }
        done += 1;
        newly.clear();
        for next in graph.neighbors_directed(node, Dir::Outgoing) {
            indegree[next.index()] -= 1;
            if indegree[next.index()] == 0 {
                newly.push(next);
            }
        }
        // Ports of this block that were already ready are evaluated by this same call: take them
        // next. Ports made ready by this very port (a self-wire) wait for their own call.
        for &n in pending[b].iter().rev() {
            ready.push_front(n);
        }
        for &n in &newly {
            if graph[n].0 == b {
                fresh[n.index()] = true;
            }
            pending[graph[n].0].push(n);
            ready.push_back(n);
        }
    }
    if done == graph.node_count() {
        return Ok(order);
    }
    // Report one cycle among the nodes left.
    for scc in tarjan_scc(&graph) {
        let cyclic = scc.len() > 1 || graph.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        let path = cycle_in(&graph, &scc);
        let mut names: Vec<usize> = Vec::new();
        for n in path {
            let b = graph[n].0;
            if names.last() != Some(&b) {
                names.push(b);
            }
        }
        if names.len() > 1 && names.first() == names.last() {
            names.pop();
        }
        return Err(names);
    }
    Err(vec![0])
}

/// A cycle through the strongly connected component `scc`, as a node path starting at `scc[0]`:
/// a breadth-first search inside the component from the start's successors back to the start.
fn cycle_in(graph: &DiGraph<(usize, usize), ()>, scc: &[NodeIndex]) -> Vec<NodeIndex> {
    let start = scc[0];
    let mut inside = vec![false; graph.node_count()];
    for n in scc {
        inside[n.index()] = true;
    }
    let mut parent: Vec<Option<NodeIndex>> = vec![None; graph.node_count()];
    let mut queue: VecDeque<NodeIndex> = VecDeque::new();
    let mut seen = vec![false; graph.node_count()];
    queue.push_back(start);
    seen[start.index()] = true;
    while let Some(node) = queue.pop_front() {
        for next in graph.neighbors_directed(node, Dir::Outgoing) {
            if !inside[next.index()] {
                continue;
            }
            if next == start {
                // Walk the parents back from `node` to the start.
                let mut path = vec![node];
                let mut current = node;
                while let Some(p) = parent[current.index()] {
                    path.push(p);
                    current = p;
                }
                path.reverse();
                return path;
            }
            if !seen[next.index()] {
                seen[next.index()] = true;
                parent[next.index()] = Some(node);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}
