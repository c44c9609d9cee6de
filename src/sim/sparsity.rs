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
//!
//! **Inside the mechanism** ([`TreeCoupling`]) the block-level rule would make the mechanism's
//! rows dense among themselves (every body's acceleration reads every body's state through the
//! forces it receives). The articulated-body algorithm is per kinematic tree, though: a tree's
//! q̇ and v̇ read its own q and v and the wrenches applied to its bodies, and a force block's
//! wrenches read the kinematics of the bodies it is bound to. So when every block whose output
//! the mechanism reads back is a stateless force block fed by the mechanism alone (a contact, a
//! spring, a ContactGroup), the tree rows of tree A read the columns of tree B only when A = B,
//! when one block bound to the mechanism (a force, a rigid contact, whose constraint the
//! mechanism solves itself, a sensor: conservatively, every bound block that is not a joint) is
//! bound to bodies of both, or when a loop-closing (cut) joint joins them (all trees with a cut
//! joint are taken as one, conservatively). A block that can say
//! which of its bodies interact *now* ([`crate::block::BodyCoupling::coupled_bodies`]: the
//! ContactGroup's watched pairs, those within its margin) couples only those, and the pattern
//! then varies ([`StateDependencies::varies`]): implicit methods ask for it before every
//! Jacobian. Any other path from the mechanism's outputs back to its inputs (a controller)
//! keeps the conservative block-level pattern.

use crate::diagram::Diagram;
use crate::multibody::WORLD_BODY;
use crate::solver::SparsityPattern;

/// Per stateful block, the stateful blocks whose states its derivatives may read.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDependencies {
    /// The stateful blocks (indices into the diagram's blocks), in index order.
    pub blocks: Vec<usize>,
    /// For each entry of `blocks`, the positions in `blocks` of the blocks its derivatives read
    /// (its own among them), ascending.
    pub reads: Vec<Vec<usize>>,
    /// The mechanism's pattern tree by tree, when it can be refined (see the module
    /// documentation); `None`: the mechanism's states read one another densely.
    pub trees: Option<TreeCoupling>,
}

/// Which of the mechanism's kinematic trees read which (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeCoupling {
    /// The mechanism block's position in [`StateDependencies::blocks`].
    position: usize,
    /// Per tree, its states (indices into the state vector x).
    states: Vec<Vec<usize>>,
    /// Per body, its tree (`usize::MAX` for the World).
    tree_of_body: Vec<usize>,
    /// Tree pairs coupled at every instant (force blocks bound to fixed bodies, cut joints),
    /// each pair once, lower first.
    fixed: Vec<(usize, usize)>,
    /// Force blocks that say which of their bodies interact now.
    varying: Vec<usize>,
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
                for &(i, o) in &d.blocks[b].setup().feedthrough {
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
        let trees = TreeCoupling::of(d, &position, &sources, &outputs);
        StateDependencies {
            blocks,
            reads,
            trees,
        }
    }

    /// True when the pattern depends on the run's state (a force block reports the bodies
    /// that interact now): [`crate::solver::System::jacobian_sparsity_varies`].
    pub fn varies(&self) -> bool {
        self.trees.as_ref().is_some_and(|t| !t.varying.is_empty())
    }

    /// Writes the pattern as [`crate::solver::System::jacobian_sparsity`] takes it: an entry
    /// (i, j) when ẋᵢ may read xⱼ (an entry may be written twice). `work` is the run's work slots
    /// (all blocks'), from which a varying pattern is read.
    pub fn fill_pattern(&self, d: &Diagram, work: &[f64], pattern: &mut SparsityPattern) {
        let inner = self.trees.as_ref().map(|t| t.position);
        for (k, &b) in self.blocks.iter().enumerate() {
            for i in d.blocks[b].states.clone() {
                for &r in &self.reads[k] {
                    if inner == Some(k) && r == k {
                        continue; // the mechanism among itself: tree by tree, below
                    }
                    pattern.depends_on_range(i, d.blocks[self.blocks[r]].states.clone());
                }
            }
        }
        if let Some(trees) = &self.trees {
            trees.fill(d, work, pattern);
        }
    }
}

impl TreeCoupling {
    /// The trees of the diagram's mechanism and the force blocks that couple them, or `None`
    /// when some path from the mechanism's outputs back to its inputs is not a stateless force
    /// block fed by the mechanism alone. `position`, `sources` and `outputs` as in
    /// [`StateDependencies::of`].
    fn of(
        d: &Diagram,
        position: &[usize],
        sources: &[Vec<Vec<(usize, usize)>>],
        outputs: &[Vec<BlockSet>],
    ) -> Option<Self> {
        let scene = d.scene.as_ref()?;
        let (mb, m) = (scene.mechanism_block, &scene.mechanism);
        let k = position[mb];
        if k == usize::MAX {
            return None;
        }
        // Each body's tree: its ancestor just below the World, numbered in order of first body.
        let mut tree_of_body = vec![usize::MAX; m.num_bodies()];
        let mut root_tree = vec![usize::MAX; m.num_bodies()];
        let mut trees = 0;
        for b in (0..m.num_bodies()).filter(|&b| b != WORLD_BODY) {
            let mut root = b;
            while let Some(p) = m.parent(root).filter(|&p| p != WORLD_BODY) {
                root = p;
            }
            if root_tree[root] == usize::MAX {
                root_tree[root] = trees;
                trees += 1;
            }
            tree_of_body[b] = root_tree[root];
        }
        let start = d.blocks[mb].states.start;
        let mut states = vec![Vec::new(); trees];
        for j in 0..m.num_joints() {
            if let Some(tree) = m.joint_body(j).map(|b| tree_of_body[b]) {
                states[tree].extend(m.joint_q_range(j).map(|i| start + i));
                states[tree].extend(m.joint_v_range(j).map(|i| start + m.nq() + i));
            }
        }
        let mut fixed = Vec::new();
        let clique = |bodies: &mut dyn Iterator<Item = usize>, fixed: &mut Vec<_>| {
            let mut ts: Vec<usize> = bodies
                .map(|b| tree_of_body[b])
                .filter(|&t| t != usize::MAX)
                .collect();
            ts.sort_unstable();
            ts.dedup();
            for (a, &ta) in ts.iter().enumerate() {
                fixed.extend(ts[a + 1..].iter().map(|&tb| (ta, tb)));
            }
        };
        let cut_bodies = m.cut_joints().iter().flat_map(|c| [c.base.0, c.follower.0]);
        clique(&mut cut_bodies.collect::<Vec<_>>().into_iter(), &mut fixed);
        // Every source of the mechanism's inputs whose value reads the mechanism's states.
        let mut varying = Vec::new();
        let mut seen = vec![false; d.blocks.len()];
        for &(s, o) in sources[mb].iter().flatten() {
            let reads_mechanism = outputs[s][o].0[k / 64] & (1 << (k % 64)) != 0;
            if !reads_mechanism || std::mem::replace(&mut seen[s], true) {
                continue;
            }
            let fed_by_mechanism_alone = sources[s].iter().flatten().all(|&(f, _)| f == mb);
            let binding = d.blocks[s].binding.as_ref()?;
            if s == mb || position[s] != usize::MAX || !fed_by_mechanism_alone {
                return None;
            }
            let coupling = d.blocks[s].block.body_coupling();
            if coupling.is_some_and(|c| c.coupled_bodies(&[], &mut |_, _| {})) {
                varying.push(s);
            } else {
                // The bodies it pushes and the bodies whose outputs it reads (a joint's ω wired
                // into a torque on another tree couples the two); a port tied to no one body
                // leaves the pattern dense.
                let mut bodies: Vec<usize> = binding.ports.iter().map(|p| p.body).collect();
                for &(_, port) in sources[s].iter().flatten() {
                    let coupling = d.blocks[mb].block.body_coupling();
                    bodies.push(coupling.and_then(|c| c.port_body(false, port))?);
                }
                clique(&mut bodies.into_iter(), &mut fixed);
            }
        }
        // Every other block bound to bodies (a rigid contact, whose constraint the mechanism
        // solves itself; a sensor) is taken to couple them: conservative.
        for (b, blk) in d.blocks.iter().enumerate() {
            if let Some(binding) = blk.binding.as_ref() {
                if binding.joint.is_none() && !varying.contains(&b) {
                    clique(&mut binding.ports.iter().map(|p| p.body), &mut fixed);
                }
            }
        }
        fixed.sort_unstable();
        fixed.dedup();
        Some(TreeCoupling {
            position: k,
            states,
            tree_of_body,
            fixed,
            varying,
        })
    }

    /// Sets the mechanism's entries: each tree reads itself, and the trees coupled now.
    fn fill(&self, d: &Diagram, work: &[f64], pattern: &mut SparsityPattern) {
        let mut couple = |a: usize, b: usize| {
            for &i in &self.states[a] {
                for &j in &self.states[b] {
                    pattern.depends(i, j);
                }
            }
        };
        for t in 0..self.states.len() {
            couple(t, t);
        }
        for &(a, b) in &self.fixed {
            couple(a, b);
            couple(b, a);
        }
        for &g in &self.varying {
            let slots = &work[d.blocks[g].work.clone()];
            let Some(coupling) = d.blocks[g].block.body_coupling() else {
                continue;
            };
            coupling.coupled_bodies(slots, &mut |p, q| {
                let (a, b) = (self.tree_of_body[p], self.tree_of_body[q]);
                if a != usize::MAX && b != usize::MAX && a != b {
                    couple(a, b);
                    couple(b, a);
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern that `s` writes, as an n × n row-major table.
    fn table(d: &Diagram, s: &StateDependencies, work: &[f64]) -> Vec<bool> {
        let n = d.num_states;
        let mut pattern = SparsityPattern::new(n);
        s.fill_pattern(d, work, &mut pattern);
        let mut table = vec![false; n * n];
        for (i, j) in pattern.entries() {
            table[i * n + j] = true;
        }
        table
    }

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
        let pattern = table(&d, &s, &[]);
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

    /// Three free balls and a floor in a ContactGroup: each ball's states read only their own
    /// (its tree) plus those of the balls the group watches it with now, read from the group's
    /// work slots (pair code i·M + j for members i < j). With no pair watched the balls are
    /// decoupled; watching (ball0, ball1) couples those two both ways and leaves ball2 alone.
    /// A controller that feeds a joint from the mechanism's outputs keeps the dense pattern.
    #[test]
    fn a_contact_group_couples_the_trees_it_watches() {
        let mut text = String::from("connect = [\"world.W -- floor.R\", ");
        for k in 0..3 {
            text += &format!("\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\", ");
        }
        text +=
            "]\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n";
        for k in 0..3 {
            text += &format!(
                "[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{}, 0.0, 0.2]\n\
                 [blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n",
                0.3 * k as f64
            );
        }
        text += "[blocks.pile]\ntype = \"ContactGroup\"\nmembers = [\"ball*\", \"floor\"]\n\
                 normal = { method = \"linear_spring_damper\", stiffness = 1e4, damping = 10.0 }\n\
                 friction = { method = \"none\" }\n";
        let (d, s) = deps(&text);
        assert!(s.varies());
        let n = d.num_states;
        assert_eq!(n, 39);
        let ball = |k: usize| {
            let joint = d.block_index(&format!("free{k}")).unwrap();
            let binding = d.blocks[joint].binding.as_ref().unwrap();
            binding.joint.unwrap().0
        };
        let m = &d.scene.as_ref().unwrap().mechanism;
        let start = d.blocks[d.scene.as_ref().unwrap().mechanism_block]
            .states
            .start;
        let states = |k: usize| -> Vec<usize> {
            let (q, v) = (m.joint_q_range(ball(k)), m.joint_v_range(ball(k)));
            q.map(|i| start + i)
                .chain(v.map(|i| start + m.nq() + i))
                .collect()
        };
        let reads = |pattern: &[bool], a: usize, b: usize| {
            states(a)
                .iter()
                .all(|&i| states(b).iter().all(|&j| pattern[i * n + j]))
        };
        let none = |pattern: &[bool], a: usize, b: usize| {
            states(a)
                .iter()
                .all(|&i| states(b).iter().all(|&j| !pattern[i * n + j]))
        };
        let group = d.block_index("pile").unwrap();
        let mut work = vec![0.0; d.num_work];
        work[d.blocks[group].work.clone()].fill(-1.0);
        let pattern = table(&d, &s, &work);
        for a in 0..3 {
            assert!(reads(&pattern, a, a));
            for b in (0..3).filter(|&b| b != a) {
                assert!(none(&pattern, a, b), "{a} reads {b}");
            }
        }
        // Members in order: ball0, ball1, ball2, floor (M = 4): (0, 1) is code 1.
        work[d.blocks[group].work.start] = 1.0;
        let pattern = table(&d, &s, &work);
        assert!(reads(&pattern, 0, 1) && reads(&pattern, 1, 0));
        for a in 0..2 {
            assert!(none(&pattern, a, 2) && none(&pattern, 2, a));
        }
        // A controller from ball0's kinematics back to a force: the block-level pattern.
        let text = text.replacen(
            "connect = [",
            "connect = [\"world.W -- sensor.B\", \"ball0.R -- sensor.F\", \"sensor.p -> gain.in\", \"gain.out -> push.force\", \"push.R -- ball1.R\", ",
            1,
        ) + "[blocks.sensor]\ntype = \"TransformSensor\"\n[blocks.gain]\ntype = \"Gain\"\ngain = -1.0\n\
              [blocks.push]\ntype = \"ExternalForceTorque\"\n";
        let (_, s) = deps(&text);
        assert!(s.trees.is_none() && !s.varies());
    }

    /// A force block on one tree that reads another tree's output (ball0's angular velocity
    /// wired into a torque on ball1) couples the two trees' rows both ways. (The joint's `w`
    /// is the joint block's output, so the path is not the mechanism's alone and the pattern
    /// stays the block-level one; a force reading the mechanism's own ports directly adds the
    /// bodies of those ports to its clique.)
    #[test]
    fn a_force_reading_another_trees_output_couples_them() {
        let mut text =
            String::from("connect = [\"free0.w -> push.torque\", \"push.R -- ball1.R\", ");
        for k in 0..3 {
            text += &format!("\"world.W -- free{k}.B\", \"free{k}.F -- ball{k}.R\", ");
        }
        text += "]\n[blocks.world]\ntype = \"WorldFrame\"\n[blocks.push]\ntype = \"ExternalForceTorque\"\n";
        for k in 0..3 {
            text += &format!(
                "[blocks.free{k}]\ntype = \"SixDofJoint\"\nposition = [{}, 0.0, 0.2]\n\
                 [blocks.ball{k}]\ntype = \"Solid\"\ngeometry = {{ shape = \"sphere\", radius = 0.05 }}\nmass = 0.1\n",
                0.3 * k as f64
            );
        }
        let (d, s) = deps(&text);
        let n = d.num_states;
        let scene = d.scene.as_ref().unwrap();
        let (m, start) = (
            &scene.mechanism,
            d.blocks[scene.mechanism_block].states.start,
        );
        let states = |k: usize| -> Vec<usize> {
            let joint = d.block_index(&format!("free{k}")).unwrap();
            let j = d.blocks[joint].binding.as_ref().unwrap().joint.unwrap().0;
            let (q, v) = (m.joint_q_range(j), m.joint_v_range(j));
            q.map(|i| start + i)
                .chain(v.map(|i| start + m.nq() + i))
                .collect()
        };
        let pattern = table(&d, &s, &vec![0.0; d.num_work]);
        let reads = |a: usize, b: usize| {
            states(a)
                .iter()
                .any(|&i| states(b).iter().any(|&j| pattern[i * n + j]))
        };
        assert!(reads(1, 0) && reads(0, 1), "ball1's torque reads ball0's ω");
    }
}
