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
use std::collections::VecDeque;

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
    for l in lines {
        for &(i, o) in &blocks[l.to].setup.feedthrough {
            if i == l.to_port {
                graph.update_edge(node_of[l.from][l.from_port], node_of[l.to][o], ());
            }
        }
    }
    // Kahn's algorithm; once a block's port is taken, its other ready ports are taken right after,
    // so that a block is evaluated once whenever the dependencies allow it.
    let mut indegree: Vec<usize> = graph
        .node_indices()
        .map(|n| graph.neighbors_directed(n, Dir::Incoming).count())
        .collect();
    let mut ready: VecDeque<NodeIndex> = graph
        .node_indices()
        .filter(|n| indegree[n.index()] == 0)
        .collect();
    let mut order: Vec<usize> = Vec::with_capacity(blocks.len());
    let mut done = 0usize;
    while let Some(node) = ready.pop_front() {
        let (b, _) = graph[node];
        if order.last() != Some(&b) {
            order.push(b);
        }
        done += 1;
        let mut newly = Vec::new();
        for next in graph.neighbors_directed(node, Dir::Outgoing) {
            indegree[next.index()] -= 1;
            if indegree[next.index()] == 0 {
                newly.push(next);
            }
        }
        // Same-block ports first.
        let (same, other): (Vec<_>, Vec<_>) = newly.into_iter().partition(|n| graph[*n].0 == b);
        let mut front: Vec<NodeIndex> =
            ready.iter().copied().filter(|n| graph[*n].0 == b).collect();
        ready.retain(|n| graph[*n].0 != b);
        front.extend(same);
        for n in front.into_iter().rev() {
            ready.push_front(n);
        }
        ready.extend(other);
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

/// A cycle through the strongly connected component `scc`, as a node path.
fn cycle_in(graph: &DiGraph<(usize, usize), ()>, scc: &[NodeIndex]) -> Vec<NodeIndex> {
    let start = scc[0];
    let mut path = vec![start];
    let mut visited = vec![false; graph.node_count()];
    visited[start.index()] = true;
    let mut current = start;
    loop {
        let next = graph
            .neighbors_directed(current, Dir::Outgoing)
            .filter(|n| scc.contains(n))
            .find(|n| *n == start || !visited[n.index()]);
        match next {
            Some(n) if n == start => return path,
            Some(n) => {
                visited[n.index()] = true;
                path.push(n);
                current = n;
            }
            None => return path,
        }
    }
}
