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
    // `pending[b]`: block b's ready nodes in queue order (a node taken meanwhile is skipped when
    // met). Once a node of block b is taken, the rest of `pending[b]` is taken right after it, in
    // order, each node once: linear in the ports even for a block with thousands of them (a
    // 20,000-joint mechanism), where pushing the block's ready ports back to the queue's front
    // after every port was quadratic in time and memory.
    let mut ready: VecDeque<NodeIndex> = graph
        .node_indices()
        .filter(|n| indegree[n.index()] == 0)
        .collect();
    let mut pending: Vec<VecDeque<NodeIndex>> = vec![VecDeque::new(); blocks.len()];
    for &n in &ready {
        pending[graph[n].0].push_back(n);
    }
    let mut taken = vec![false; graph.node_count()];
    let mut order: Vec<usize> = Vec::with_capacity(blocks.len());
    // A node that became ready through an edge from its own block (a block wired back to its own
    // input) needs a fresh evaluation of the block: it must not be merged into the current one.
    let mut fresh = vec![false; graph.node_count()];
    let mut done = 0usize;
    while let Some(first) = ready.pop_front() {
        if taken[first.index()] {
            continue;
        }
        let b = graph[first].0;
        let mut next = Some(first);
        while let Some(node) = next {
            taken[node.index()] = true;
            if order.last() != Some(&b) || fresh[node.index()] {
                order.push(b);
            }
            done += 1;
            for succ in graph.neighbors_directed(node, Dir::Outgoing) {
                indegree[succ.index()] -= 1;
                if indegree[succ.index()] == 0 {
                    let c = graph[succ].0;
                    fresh[succ.index()] |= c == b;
                    pending[c].push_back(succ);
                    ready.push_back(succ);
                }
            }
            // The block's other ready ports are evaluated by this same call (a port made ready
            // by this very port, through a self-wire, is marked fresh: its own call).
            next = std::iter::from_fn(|| pending[b].pop_front()).find(|n| !taken[n.index()]);
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
