//! Which states each derivative may read, from the diagram's wiring: the sparsity pattern of
//! `∂f/∂x` that implicit methods use to group the columns of their difference Jacobian
//! (see [`crate::solver::System::jacobian_sparsity`]).
//!
//! Conventions, chosen so that the pattern never misses a true dependency:
//! - the states of one block form one group: a block's derivatives may read all of its own
//!   states (the pattern is dense within a block);
//! - a block's output may read all of the block's own states, and the inputs that feed it
//!   directly (its declared feedthrough pairs, the same ones the schedule orders by);
//! - a block's derivatives may read all of its inputs.
//!
//! Dependencies travel along signal lines, the hidden lines that the physical wiring lowers to
//! included (a contact force reads the mechanism's body kinematics, and the mechanism reads the
//! force). What the pattern can then leave out is whatever no path of lines connects: separate
//! mechanisms, controllers, and the blocks of a chain of filters, which read only upstream.

use crate::diagram::Diagram;

/// Per stateful block, the stateful blocks whose states its derivatives may read.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDependencies {
    /// The stateful blocks (indices into the diagram's blocks), in index order.
    pub blocks: Vec<usize>,
    /// For each entry of `blocks`, the positions in `blocks` of the blocks its derivatives read
    /// (its own among them), ascending.
    pub reads: Vec<Vec<usize>>,
}

/// A set of stateful blocks (by position in [`StateDependencies::blocks`]) as bits.
#[derive(Clone)]
struct BlockSet(Vec<u64>);

impl BlockSet {
    fn empty(len: usize) -> Self {
        BlockSet(vec![0; len.div_ceil(64)])
    }
    fn insert(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }
    /// Adds `other`'s members; returns whether any was new.
    fn union_with(&mut self, other: &BlockSet) -> bool {
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let before = *a;
            *a |= b;
            grew |= *a != before;
        }
        grew
    }
    fn members(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (w, bits) in self.0.iter().enumerate() {
            let mut bits = *bits;
            while bits != 0 {
                out.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        out
    }
}

impl StateDependencies {
    /// Works the dependencies out from the diagram's lines and feedthrough pairs: the states
    /// each output may read, settled by passes in schedule order (two passes for a diagram
    /// without feedback; a loop through stateful blocks takes one more pass per block on it, at
    /// most one per stateful block in all), then each derivative's.
    pub fn of(d: &Diagram) -> Self {
        let blocks: Vec<usize> = (0..d.blocks.len())
            .filter(|&b| !d.blocks[b].states.is_empty())
            .collect();
        let mut position = vec![usize::MAX; d.blocks.len()];
        for (k, &b) in blocks.iter().enumerate() {
            position[b] = k;
        }
        let groups = blocks.len();
        // The sources of each input: (block, output) per line, by the input they feed.
        let mut sources: Vec<Vec<Vec<(usize, usize)>>> = d
            .blocks
            .iter()
            .map(|b| vec![Vec::new(); b.input_slots.len()])
            .collect();
        for l in &d.lines {
            sources[l.to][l.to_port].push((l.from, l.from_port));
        }
        // Each block's own states as a set, then each output's dependencies.
        let own: Vec<BlockSet> = (0..d.blocks.len())
            .map(|b| {
                let mut s = BlockSet::empty(groups);
                if position[b] != usize::MAX {
                    s.insert(position[b]);
                }
                s
            })
            .collect();
        let mut outputs: Vec<Vec<BlockSet>> = d
            .blocks
            .iter()
            .enumerate()
            .map(|(b, blk)| vec![own[b].clone(); blk.output_slots.len()])
            .collect();
        // The source's set is copied into `read` first: it may be another output of the same
        // block, which `outputs[b][o]` borrows mutably.
        let mut read = BlockSet::empty(groups);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &d.schedule {
                for &(i, o) in &d.blocks[b].setup.feedthrough {
                    for &(from, port) in &sources[b][i] {
                        if from == b && port == o {
                            continue; // reads itself: adds nothing
                        }
                        read.0.copy_from_slice(&outputs[from][port].0);
                        changed |= outputs[b][o].union_with(&read);
                    }
                }
            }
        }
        let reads = blocks
            .iter()
            .map(|&b| {
                let mut set = own[b].clone();
                for input in &sources[b] {
                    for &(from, port) in input {
                        set.union_with(&outputs[from][port]);
                    }
                }
                set.members()
            })
            .collect();
        StateDependencies { blocks, reads }
    }

    /// Writes the pattern as [`crate::solver::System::jacobian_sparsity`] takes it: `n × n`,
    /// row-major, `pattern[i·n + j]` set when ẋᵢ may read xⱼ.
    pub fn fill_pattern(&self, d: &Diagram, pattern: &mut [bool]) {
        let n = d.num_states;
        for (k, &b) in self.blocks.iter().enumerate() {
            for i in d.blocks[b].states.clone() {
                for &r in &self.reads[k] {
                    let columns = d.blocks[self.blocks[r]].states.clone();
                    pattern[i * n + columns.start..i * n + columns.end].fill(true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deps(text: &str) -> (Diagram, StateDependencies) {
        let text = format!("{text}[model]\nstop_time = 1.0\n");
        let d = crate::load_model_str("sparsity.toml", &text, &[]).expect("model");
        let s = StateDependencies::of(&d);
        (d, s)
    }

    fn names(d: &Diagram, s: &StateDependencies, block: &str) -> Vec<String> {
        let b = d.block_index(block).expect(block);
        let k = s.blocks.iter().position(|&x| x == b).expect("stateful");
        s.reads[k]
            .iter()
            .map(|&r| d.blocks[s.blocks[r]].name.clone())
            .collect()
    }

    /// A chain of first-order lags reads only upstream: x1 reads x1; x2 reads x1 and x2; x3 reads
    /// x2 and x3 (through the Sum, which feeds through, but not through x2's own integrator,
    /// whose output is its state).
    #[test]
    fn a_chain_of_lags_reads_only_its_upstream_neighbour() {
        let text = r#"
connect = [
  "x1.out -> s2.in1", "x2.out -> s2.in2", "s2.out -> x2.in",
  "x2.out -> s3.in1", "x3.out -> s3.in2", "s3.out -> x3.in",
  "x1.out -> k1.in", "k1.out -> x1.in",
]
[blocks.x1]
type = "Integrator"
initial = 1.0
[blocks.k1]
type = "Gain"
gain = -1.0
[blocks.x2]
type = "Integrator"
[blocks.s2]
type = "Sum"
signs = "+-"
[blocks.x3]
type = "Integrator"
[blocks.s3]
type = "Sum"
signs = "+-"
"#;
        let (d, s) = deps(text);
        assert_eq!(names(&d, &s, "x1"), ["x1"]);
        assert_eq!(names(&d, &s, "x2"), ["x1", "x2"]);
        assert_eq!(names(&d, &s, "x3"), ["x2", "x3"]);
        let mut pattern = vec![false; 9];
        s.fill_pattern(&d, &mut pattern);
        let (i1, i2, i3) = (
            d.blocks[d.block_index("x1").unwrap()].states.start,
            d.blocks[d.block_index("x2").unwrap()].states.start,
            d.blocks[d.block_index("x3").unwrap()].states.start,
        );
        let set: Vec<(usize, usize)> = (0..9)
            .filter(|k| pattern[*k])
            .map(|k| (k / 3, k % 3))
            .collect();
        let mut expected = vec![(i1, i1), (i2, i1), (i2, i2), (i3, i2), (i3, i3)];
        expected.sort();
        assert_eq!(set, expected);
    }

    /// The physical wiring's hidden lines carry the dependency: an integrator of a contact force
    /// reads the mechanism's states (through the contact block, which reads the body's
    /// kinematics), and the mechanism reads only itself when nothing drives it back.
    #[test]
    fn hidden_physical_lines_carry_the_dependency() {
        let text = r#"
connect = [
  "world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R",
  "floor.G -- contact.B", "ball.G -- contact.F",
  "contact.normal_force -> impulse.in",
]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.0999]
[blocks.contact]
type = "SpatialContactForce"
normal = { method = "linear_spring_damper", stiffness = 1e5, damping = 100.0 }
friction = { method = "none" }
[blocks.impulse]
type = "Integrator"
"#;
        let (d, s) = deps(text);
        let mechanism = d.blocks.iter().find(|b| b.states.len() == 13).unwrap();
        let mechanism = mechanism.name.clone();
        let mut impulse = names(&d, &s, "impulse");
        impulse.sort();
        let mut expected = vec![mechanism.clone(), "impulse".to_string()];
        expected.sort();
        assert_eq!(impulse, expected);
        assert_eq!(names(&d, &s, &mechanism), [mechanism]);
    }
}
