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
    let ports: Vec<BlockPorts<'_>> = blocks
        .iter()
        .map(|b| BlockPorts {
            outputs: b.output_slots.len(),
            feedthrough: &b.setup().feedthrough,
        })
        .collect();
    evaluation_order(&PortGraph::new(&ports, lines))
}

/// The blocks an evaluation of zero-crossing functions must evaluate: for each target
/// `(b, itself)`, every block whose output feeds one of b's inputs, directly or through
/// feedthrough pairs of the blocks between (a block's output that no feedthrough pair ties to an
/// input, a mechanism's kinematics, ends the walk there), and b itself when `itself` (its
/// functions read its outputs). Indexed by block. Linear in the lines and feedthrough pairs.
pub(crate) fn feeding_blocks(
    blocks: &[CompiledBlock],
    lines: &[SignalLine],
    targets: &[(usize, bool)],
) -> Vec<bool> {
    let n = blocks.len();
    // Input `i` of block `b` is input node `input_first[b] + i`, output `o` output node
    // `output_first[b] + o`.
    let offsets = |len: &dyn Fn(&CompiledBlock) -> usize| {
        let mut first = Vec::with_capacity(n + 1);
        first.push(0usize);
        for b in blocks {
            first.push(first[first.len() - 1] + len(b));
        }
        first
    };
    let input_first = offsets(&|b| b.input_slots.len());
    let output_first = offsets(&|b| b.output_slots.len());
    // The lines into each input node (compressed rows).
    let inputs = input_first[n];
    let mut line_first = vec![0usize; inputs + 1];
    for l in lines {
        line_first[input_first[l.to] + l.to_port + 1] += 1;
    }
    for k in 0..inputs {
        line_first[k + 1] += line_first[k];
    }
    let mut next = line_first.clone();
    let mut into = vec![0usize; lines.len()];
    for (k, l) in lines.iter().enumerate() {
        let node = input_first[l.to] + l.to_port;
        into[next[node]] = k;
        next[node] += 1;
    }
    let mut seen = vec![false; output_first[n]];
    let mut needed = vec![false; n];
    // The input nodes whose sources must be evaluated.
    let mut pending: Vec<usize> = Vec::new();
    for &(b, itself) in targets {
        needed[b] |= itself;
        pending.extend(input_first[b]..input_first[b + 1]);
    }
    while let Some(input) = pending.pop() {
        for &k in &into[line_first[input]..line_first[input + 1]] {
            let l = &lines[k];
            let node = output_first[l.from] + l.from_port;
            if seen[node] {
                continue;
            }
            seen[node] = true;
            needed[l.from] = true;
            let feeds = blocks[l.from].setup().feedthrough.iter();
            pending.extend(
                feeds
                    .filter(|&&(_, o)| o == l.from_port)
                    .map(|&(i, _)| input_first[l.from] + i),
            );
        }
    }
    needed
}

/// What the schedule needs of one block: its number of outputs and its declared
/// `(input, output)` feedthrough pairs.
struct BlockPorts<'a> {
    outputs: usize,
    feedthrough: &'a [(usize, usize)],
}

/// Each block's feedthrough pairs grouped by input (compressed rows): input `i` of block `b`
/// is row `row[b] + i`, whose outputs are `outputs[first[r]..first[r + 1]]`, in the order the
/// block declared them. Built once, so that a line costs the outputs its input feeds rather than
/// a scan of its block's whole table: a contact group of M members declares 3M pairs and
/// receives M lines, which the scan made M² (17 % of the instructions of an 8,000-member
/// group's build).
struct Feeds {
    row: Vec<usize>,
    first: Vec<usize>,
    outputs: Vec<usize>,
}

impl Feeds {
    fn of(blocks: &[BlockPorts<'_>]) -> Self {
        let mut row = Vec::with_capacity(blocks.len() + 1);
        let mut count: Vec<usize> = Vec::new();
        for b in blocks {
            let base = count.len();
            row.push(base);
            let inputs = b.feedthrough.iter().map(|&(i, _)| i + 1).max().unwrap_or(0);
            count.resize(base + inputs, 0);
            for &(i, _) in b.feedthrough {
                count[base + i] += 1;
            }
        }
        row.push(count.len());
        let mut first = Vec::with_capacity(count.len() + 1);
        let mut total = 0;
        first.push(0);
        for c in count {
            total += c;
            first.push(total);
        }
        let mut next = first.clone();
        let mut outputs = vec![0; total];
        for (b, ports) in blocks.iter().enumerate() {
            for &(i, o) in ports.feedthrough {
                let r = row[b] + i;
                outputs[next[r]] = o;
                next[r] += 1;
            }
        }
        Feeds {
            row,
            first,
            outputs,
        }
    }

    /// The outputs of block `b` that its input `input` feeds directly, in declaration order.
    fn of_input(&self, b: usize, input: usize) -> &[usize] {
        let (base, end) = (self.row[b], self.row[b + 1]);
        if input >= end - base {
            return &[];
        }
        let r = base + input;
        &self.outputs[self.first[r]..self.first[r + 1]]
    }
}

/// The dependency graph of output ports.
struct PortGraph {
    graph: DiGraph<(usize, usize), ()>,
    /// The number of blocks (a block without outputs has no node).
    blocks: usize,
}

impl PortGraph {
    fn new(blocks: &[BlockPorts<'_>], lines: &[SignalLine]) -> Self {
        let mut graph: DiGraph<(usize, usize), ()> = DiGraph::new();
        let mut node_of: Vec<Vec<NodeIndex>> = Vec::with_capacity(blocks.len());
        for (b, blk) in blocks.iter().enumerate() {
            node_of.push((0..blk.outputs).map(|o| graph.add_node((b, o))).collect());
        }
        let feeds = Feeds::of(blocks);
        // Edges, each once, in line order (a hash set rather than a search of the source's
        // edges: a block's fan-out may be large).
        let mut seen: HashSet<(NodeIndex, NodeIndex)> = HashSet::new();
        for l in lines {
            for &o in feeds.of_input(l.to, l.to_port) {
                let (from, to) = (node_of[l.from][l.from_port], node_of[l.to][o]);
                if seen.insert((from, to)) {
                    graph.add_edge(from, to, ());
                }
            }
        }
        PortGraph {
            graph,
            blocks: blocks.len(),
        }
    }
}

/// The block evaluation order of `ports`' graph, or the blocks of an algebraic loop.
fn evaluation_order(ports: &PortGraph) -> Result<Vec<usize>, Vec<usize>> {
    let graph = &ports.graph;
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
    let mut pending: Vec<VecDeque<NodeIndex>> = vec![VecDeque::new(); ports.blocks];
    for &n in &ready {
        pending[graph[n].0].push_back(n);
    }
    let mut taken = vec![false; graph.node_count()];
    let mut order: Vec<usize> = Vec::with_capacity(ports.blocks);
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
    for scc in tarjan_scc(graph) {
        let cyclic = scc.len() > 1 || graph.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        let path = cycle_in(graph, &scc);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A mechanism (block 0: M kinematics outputs, M wrench inputs, no feedthrough) and a
    /// contact group of M members (block 1: member k's kinematics feed its two summary outputs
    /// and its own wrench output 2 + k, as `ContactGroup::setup` declares), wired both ways.
    fn group_of(m: usize) -> (Vec<(usize, usize)>, Vec<SignalLine>) {
        let feedthrough = (0..m).flat_map(|k| [(k, 0), (k, 1), (k, 2 + k)]).collect();
        let line = |from, from_port, to, to_port| SignalLine {
            from,
            from_port,
            index: None,
            to,
            to_port,
        };
        let lines = (0..m)
            .flat_map(|k| [line(0, k, 1, k), line(1, 2 + k, 0, k)])
            .collect();
        (feedthrough, lines)
    }

    /// The group's feedthrough pairs read to build its graph: each declared pair once to index
    /// it, then the pairs of each line's input (what `PortGraph::new` reads); with its edges
    /// and its schedule.
    fn group_graph(m: usize) -> (usize, usize, Result<Vec<usize>, Vec<usize>>) {
        let (feedthrough, lines) = group_of(m);
        let ports = [
            BlockPorts {
                outputs: m,
                feedthrough: &[],
            },
            BlockPorts {
                outputs: 2 + m,
                feedthrough: &feedthrough,
            },
        ];
        let feeds = Feeds::of(&ports);
        let read = feeds.outputs.len()
            + lines
                .iter()
                .map(|l| feeds.of_input(l.to, l.to_port).len())
                .sum::<usize>();
        let graph = PortGraph::new(&ports, &lines);
        (read, graph.graph.edge_count(), evaluation_order(&graph))
    }

    /// The pairs read per member are the same at 1,000 and 4,000 members: 3 to index the
    /// group's 3 pairs, 3 for the member's line into the group (a scan of the group's table per
    /// line read 3M per member: 12,000 at 4,000 members). Exact: the count is deterministic.
    #[test]
    fn a_group_costs_the_same_per_member_at_any_size() {
        for m in [1_000, 4_000] {
            let (read, edges, order) = group_graph(m);
            assert_eq!(read, 6 * m, "pairs read at {m} members");
            assert_eq!(edges, 3 * m, "one edge per declared pair");
            assert_eq!(order, Ok(vec![0, 1]), "the mechanism, then the group");
        }
    }

    /// A line from a block's output back to an input that feeds that output is an algebraic
    /// loop, reported by its block.
    #[test]
    fn a_self_loop_through_feedthrough_is_reported() {
        let ports = [BlockPorts {
            outputs: 1,
            feedthrough: &[(0, 0)],
        }];
        let lines = [SignalLine {
            from: 0,
            from_port: 0,
            index: None,
            to: 0,
            to_port: 0,
        }];
        assert_eq!(
            evaluation_order(&PortGraph::new(&ports, &lines)),
            Err(vec![0])
        );
    }
}
