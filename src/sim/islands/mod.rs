//! Integrating independent islands of bodies separately (issue 30, part 3).
//!
//! Bodies are nodes of a union–find; edges are (1) the joints of the mechanism's trees (a body
//! and its parent, the World excepted), (2) the signal paths by which a block turns the
//! kinematics of some bodies into forces or actuation of others (a controller, a pair contact
//! block, a spring), found once from the diagram's lines, and (3) every contact group's pairs
//! within its look-ahead reach at its last look
//! ([`crate::block::BodyCoupling::island_pairs`]). Bodies fixed to the World join nothing. Each class is an island; its states are the states of its
//! bodies' joints.
//!
//! Between two synchronisations the islands' equations are exactly decoupled: a pair across
//! islands is not within the group's reach, so (by the look-ahead's bound, `watch.rs`) its
//! bounding boxes stay more than margin/2 apart until the group's next look, and its force is
//! zero. Each island is integrated by its own [`Solver`](crate::solver::Solver) (see `coordinator.rs`),
//! over its states only (`system.rs`), and each of its evaluations is restricted to the island
//! (`Engine::restrict_to_island`): the mechanism runs ABA over the island's trees only (a
//! tree's bodies are all in one island and a root's parent is the World, so the trees'
//! passes decouple), a contact group updates, sweeps and narrow-phases the pairs with a member
//! on the island's bodies only, and the engine calls only the blocks the island needs (a
//! static map, `Partition::block_islands`). Every other output keeps its value.
//!
//! A body moved by other forces (an actuator, a spring, an external force) can come within a
//! group's margin of another island's body inside a stretch: the island's event that watches
//! that pair ends the stretch for every island there (a cut, `stretch.rs`), and the
//! synchronisation merges them before they touch.
//!
//! Where the scheme is sound is checked once, before the run; elsewhere the run integrates
//! globally and [`NoIslands`] says why.

mod coordinator;
mod crossings;
mod run;
mod stretch;
mod sync;
mod system;

pub use coordinator::Islands;

use super::Engine;
use crate::block::IslandPart;
use crate::diagram::Diagram;

/// What a run with islands did: the counts the global [`crate::solver::SolverStats`] cannot
/// say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IslandStats {
    /// Synchronisations: the instants every island was brought to (the groups' looks, other
    /// time events, output rows, the stop time).
    pub syncs: usize,
    /// Islands at the start.
    pub initial_islands: usize,
    /// Islands at the end.
    pub final_islands: usize,
    /// The most islands at once.
    pub max_islands: usize,
    /// The fewest islands at once (1 once every moving body joined one island).
    pub min_islands: usize,
    /// How often the partition changed (islands merged or split).
    pub repartitions: usize,
    /// Accepted steps per island, summed over the run by the island's lowest body (its
    /// mechanism body index) and listed by it, ascending: an island that merged into another
    /// keeps the steps it took before.
    pub steps_per_island: Vec<(usize, usize)>,
    /// The island solvers' function evaluations in full-evaluation equivalents: each weighted
    /// by its island's share of the moving bodies (an island of k of the N bodies in any
    /// island counts k/N per evaluation), the measure of a restricted evaluation's cost
    /// (the mechanism's ABA, the group's member updates and narrow phase, the blocks called
    /// grow with the island's bodies; the group's sweep and the engine's walk of the schedule
    /// do not, so it is a lower bound on the cost).
    pub evaluation_equivalents: f64,
    /// The diagram's zero-crossing functions (of all blocks).
    pub crossings: usize,
    /// The functions every island's solver sees (a contact group's approach function, those no
    /// block attributes to bodies); the others are each seen by the island of their bodies only.
    pub shared_crossings: usize,
    /// The most functions one island's solver saw (its shared ones and room for the most of its
    /// own its bodies can hold).
    pub max_island_crossings: usize,
    /// Functions found on two islands' bodies (a watched pair across islands, seen by no island's
    /// solver), summed over the refreshes of the map (after every event and synchronisation):
    /// 0 unless a cross-island pair came within the margin, which the look-ahead allows only
    /// further than margin/2 apart for bodies moved by gravity and contact.
    pub cross_island_crossings: usize,
    /// Stretches (from one synchronisation to the next) in which two islands' bodies were found
    /// in contact only after a time event at the synchronisation that ends the stretch had been
    /// handled (the groups settled after it, with every body where it is), so that the stretch
    /// could not be run again merged (see `merged_reruns`, which resolves a contact found by a
    /// kept island run at an accepted point or by a synchronisation without a time event). A
    /// body reached another island's body inside a stretch without a cut first (a pass from
    /// beyond margin/2 to contact within one step, or a cut late because the island that ran
    /// first was seen where its run ended: docs/solver.md "Islands", what remains); each island
    /// felt that contact late or with the other body where its last evaluation left it, and the
    /// results may differ from the global integration by more than the tolerances. 0 otherwise.
    pub cross_island_contacts: usize,
    /// Stretches ended before their synchronisation because an island's event left a watched
    /// pair across two islands (a body came within a group's margin of another island's): every
    /// island was brought to that time and the islands merged there.
    pub cuts: usize,
    /// Island runs done again over a stretch because another island cut it short after they
    /// had passed the cut (each from the stretch's start, with a fresh solver).
    pub reruns: usize,
    /// Stretches thrown away and integrated again from their start with every island merged
    /// into one, because two islands' bodies were found in contact at their end (by a kept
    /// island run's evaluation, or by the synchronisation with every body where it is): the
    /// contact a cut did not catch in time, integrated as the global run does.
    pub merged_reruns: usize,
    /// The earliest time (s) at which two islands' bodies were found in contact and left so
    /// (see `cross_island_contacts`): the synchronisation's time.
    pub first_cross_island_contact: Option<f64>,
}

/// The block map's marks (`sim/island_map.rs`, below the islands and the engine).
pub(crate) use super::island_map::{EVERY_ISLAND, NO_ISLAND};

/// Why a run cannot use islands (it integrates globally then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoIslands {
    /// The model has no mechanism.
    NoMechanism,
    /// The mechanism couples its trees (loop closures, rigid constraints, motion inputs).
    CoupledMechanism,
    /// A block other than the mechanism has states.
    OtherStates,
    /// A block other than the mechanism and the contact groups has zero crossings.
    OtherCrossings,
    /// A contact group without zero crossings (no look-ahead bounds its coupling), or with
    /// stepped onsets (its watched pairs have no crossing functions, so a contact between
    /// islands would not be seen).
    UnboundedGroup,
    /// A signal path couples bodies in a way the partition cannot attribute (a group's user
    /// output, or a mechanism port not tied to one body, feeding the mechanism back).
    UnattributedCoupling,
    /// The run stops at a crossing or resumes from a checkpoint (which holds one solver).
    Checkpoints,
    /// Every moving body is in one island at the start.
    OneIsland,
}

impl std::fmt::Display for NoIslands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoIslands::NoMechanism => "the model has no mechanism",
            NoIslands::CoupledMechanism => {
                "the mechanism couples its trees (loop closures, rigid constraints or motion inputs)"
            }
            NoIslands::OtherStates => "a block other than the mechanism has states",
            NoIslands::OtherCrossings => {
                "a block other than the mechanism and the contact groups has zero crossings"
            }
            NoIslands::UnboundedGroup => {
                "a contact group has zero_crossings = false or onsets = \"stepped\""
            }
            NoIslands::UnattributedCoupling => {
                "a signal path feeds the mechanism from a contact group's outputs or from a port not tied to one body"
            }
            NoIslands::Checkpoints => "the run stops at a crossing or resumes from a checkpoint",
            NoIslands::OneIsland => "every moving body is in one island at the start",
        })
    }
}

/// The partition of the mechanism's states into islands, kept up to date at synchronisations.
pub(crate) struct Partition {
    /// The contact groups' block indices.
    groups: Vec<usize>,
    /// The mechanism body of each state (≥ 1).
    state_body: Vec<u32>,
    /// Per body, its representative under the static edges (tree joints and signal paths).
    static_rep: Vec<u32>,
    /// Per body, its union–find parent (working buffer).
    parent: Vec<u32>,
    /// Per body, its island's number (working buffer).
    label: Vec<u32>,
    /// The island of each state, numbered by first appearance in state order.
    island_of_state: Vec<u32>,
    /// The previous partition's, to tell whether it changed.
    previous: Vec<u32>,
    /// Number of islands.
    islands: usize,
    /// Per body, its island (after [`Partition::update`]; `u32::MAX` for a body in none: fixed
    /// to the World with its whole class).
    body_island: Vec<u32>,
    /// Per block, which island's evaluations call it: [`EVERY_ISLAND`], [`NO_ISLAND`], or a
    /// body of the only class it reads and drives (called by that body's island).
    block_islands: Vec<u32>,
    /// Whether [`Partition::update`] joins every moving body into one island (a stretch run
    /// again after two islands' bodies were found in contact).
    join_all: bool,
}

impl Partition {
    /// The partition's static part from the diagram (which bodies the trees and the signal
    /// paths join), or why islands do not apply to it.
    pub(crate) fn new(d: &Diagram, engine: &Engine<'_>) -> Result<Self, NoIslands> {
        let scene = d.scene.as_ref().ok_or(NoIslands::NoMechanism)?;
        let mech = scene.mechanism_block;
        let m = &*scene.mechanism;
        let parts: Vec<IslandPart> = (0..d.blocks.len())
            .map(|b| engine.block_with_scratch(b).0.island_part())
            .collect();
        if parts[mech] != IslandPart::Mechanism {
            return Err(NoIslands::CoupledMechanism);
        }
        let mut groups = Vec::new();
        for (b, blk) in d.blocks.iter().enumerate() {
            let is_group = blk.block.geometry_members().is_some();
            if is_group && parts[b] != IslandPart::ContactGroup {
                return Err(NoIslands::UnboundedGroup);
            }
            if b != mech && !blk.states.is_empty() {
                return Err(NoIslands::OtherStates);
            }
            if b != mech && parts[b] != IslandPart::ContactGroup && !blk.zero_crossings.is_empty() {
                return Err(NoIslands::OtherCrossings);
            }
            if parts[b] == IslandPart::ContactGroup {
                groups.push(b);
            }
        }
        let bodies = m.num_bodies();
        // Static edges: tree joints, then signal paths into the mechanism.
        let mut parent: Vec<u32> = (0..(bodies + d.blocks.len()) as u32).collect();
        for b in 1..bodies {
            if let Some(p) = m.parent(b).filter(|&p| p != 0) {
                union(&mut parent, b as u32, p as u32);
            }
        }
        coupling_paths(d, engine, mech, &parts, bodies, &mut parent)?;
        let block_islands = block_islands(d, mech, &parts, bodies, &mut parent);
        let static_rep: Vec<u32> = (0..bodies as u32).map(|b| find(&mut parent, b)).collect();
        // A body class whose root is a block node: represent it by its lowest body.
        let mut lowest = vec![u32::MAX; parent.len()];
        for (b, &r) in static_rep.iter().enumerate().skip(1) {
            lowest[r as usize] = lowest[r as usize].min(b as u32);
        }
        let static_rep: Vec<u32> = static_rep
            .iter()
            .enumerate()
            .map(|(b, &r)| if b == 0 { 0 } else { lowest[r as usize] })
            .collect();
        let base = d.blocks[mech].states.start;
        let (nq, nv) = (m.nq(), m.nv());
        let mut state_body = vec![0u32; d.num_states];
        for k in 0..nq + nv {
            let (velocity, index) = if k < nq { (false, k) } else { (true, k - nq) };
            let body = m
                .coordinate_joint(index, velocity)
                .and_then(|(j, _)| m.joint_body(j))
                .ok_or(NoIslands::CoupledMechanism)?;
            state_body[base + k] = body as u32;
        }
        Ok(Partition {
            groups,
            state_body,
            parent: static_rep.clone(),
            static_rep,
            label: vec![u32::MAX; bodies],
            island_of_state: vec![0; d.num_states],
            previous: vec![u32::MAX; d.num_states],
            islands: 0,
            body_island: vec![u32::MAX; bodies],
            block_islands,
            join_all: false,
        })
    }

    /// Works the islands out again from the groups' pairs as their last `settle` left them;
    /// returns whether the partition changed. Allocates nothing.
    pub(crate) fn update(&mut self, engine: &Engine<'_>) -> bool {
        self.parent.copy_from_slice(&self.static_rep);
        for &g in &self.groups {
            let (block, scratch) = engine.block_with_scratch(g);
            let parent = &mut self.parent;
            if let Some(coupling) = block.body_coupling() {
                coupling.island_pairs(scratch, &mut |a, b| union(parent, a as u32, b as u32));
            }
        }
        if self.join_all {
            // Every body with states (those welded to the World stay in none).
            for k in 1..self.state_body.len() {
                union(&mut self.parent, self.state_body[0], self.state_body[k]);
            }
        }
        self.previous.copy_from_slice(&self.island_of_state);
        self.label.fill(u32::MAX);
        let mut islands = 0u32;
        for (k, &body) in self.state_body.iter().enumerate() {
            let root = find(&mut self.parent, body) as usize;
            if self.label[root] == u32::MAX {
                self.label[root] = islands;
                islands += 1;
            }
            self.island_of_state[k] = self.label[root];
        }
        self.islands = islands as usize;
        for body in 1..self.body_island.len() {
            let root = find(&mut self.parent, body as u32) as usize;
            self.body_island[body] = self.label[root];
        }
        self.previous != self.island_of_state
    }

    /// Makes the next [`Partition::update`]s join every moving body into one island (`true`), or
    /// work the islands out from the diagram and the groups again (`false`).
    pub(crate) fn join_all(&mut self, all: bool) {
        self.join_all = all;
    }

    /// Whether [`Partition::update`] joins every moving body into one island.
    pub(crate) fn joins_all(&self) -> bool {
        self.join_all
    }

    /// Number of islands (after [`Partition::update`]).
    pub(crate) fn islands(&self) -> usize {
        self.islands
    }

    /// Per block, which island's evaluations call it: [`EVERY_ISLAND`], [`NO_ISLAND`] or a
    /// body of the class it belongs to.
    pub(crate) fn block_islands(&self) -> &[u32] {
        &self.block_islands
    }

    /// The bodies in some island (moving, or welded to a moving body).
    pub(crate) fn moving_bodies(&self) -> usize {
        self.body_island.iter().filter(|&&k| k != u32::MAX).count()
    }

    /// The mechanism's number of bodies (the World included).
    pub(crate) fn bodies(&self) -> usize {
        self.body_island.len()
    }

    /// The bodies of island `i` (indexed by body): every body of its classes, those without
    /// states (welded to a moving body) included.
    pub(crate) fn island_bodies(&self, i: usize) -> Vec<bool> {
        self.body_island.iter().map(|&k| k == i as u32).collect()
    }

    /// The states of island `i`, ascending, and its lowest body.
    pub(crate) fn island_states(&self, i: usize) -> (Vec<usize>, usize) {
        let states: Vec<usize> = (0..self.island_of_state.len())
            .filter(|&k| self.island_of_state[k] == i as u32)
            .collect();
        let lowest = states
            .iter()
            .map(|&k| self.state_body[k] as usize)
            .min()
            .unwrap_or(0);
        (states, lowest)
    }
}

/// The signal paths by which blocks turn mechanism outputs into mechanism inputs, as edges of
/// the union–find over nodes `bodies + block`: the blocks that reach a mechanism input (other
/// than through a contact group's own wrench lines, which the group's look-ahead bounds) are
/// found backwards from the mechanism, and each such block joins every body it reads and every
/// body it drives (conservatively: every input of such a block couples to every output).
fn coupling_paths(
    d: &Diagram,
    engine: &Engine<'_>,
    mech: usize,
    parts: &[IslandPart],
    bodies: usize,
    parent: &mut [u32],
) -> Result<(), NoIslands> {
    let mechanism = engine.block_with_scratch(mech).0;
    let mut feeds = vec![false; d.blocks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for l in d.lines.iter().filter(|l| l.to == mech) {
        if parts[l.from] == IslandPart::ContactGroup || l.from == mech || feeds[l.from] {
            continue;
        }
        feeds[l.from] = true;
        stack.push(l.from);
    }
    while let Some(b) = stack.pop() {
        for l in d.lines.iter().filter(|l| l.to == b) {
            if parts[l.from] == IslandPart::ContactGroup {
                return Err(NoIslands::UnattributedCoupling);
            }
            if l.from != mech && !feeds[l.from] {
                feeds[l.from] = true;
                stack.push(l.from);
            }
        }
    }
    let node = |b: usize, port: usize, input: bool| -> Result<Option<u32>, NoIslands> {
        if b != mech {
            return Ok(Some((bodies + b) as u32));
        }
        match mechanism
            .body_coupling()
            .and_then(|c| c.port_body(input, port))
        {
            Some(0) => Ok(None), // the World: joins nothing
            Some(body) => Ok(Some(body as u32)),
            None => Err(NoIslands::UnattributedCoupling),
        }
    };
    for l in &d.lines {
        let into_path = (l.to == mech && parts[l.from] != IslandPart::ContactGroup) || feeds[l.to];
        if !into_path || (l.from == mech && l.to == mech) {
            continue;
        }
        if let (Some(a), Some(b)) = (
            node(l.from, l.from_port, false)?,
            node(l.to, l.to_port, true)?,
        ) {
            union(parent, a, b);
        }
    }
    Ok(())
}

/// Which island's evaluations call each block (the engine's restricted evaluations): a block
/// whose outputs reach neither the mechanism nor a contact group (backwards over the lines) is
/// needed by none ([`NO_ISLAND`]); the mechanism, the groups, a block feeding a group and a
/// block joined to no body by the signal paths by every island ([`EVERY_ISLAND`]); a block
/// joined to bodies by the signal paths (`coupling_paths`: it reads or drives only bodies of
/// that class) by the island of that class, named by its root body.
fn block_islands(
    d: &Diagram,
    mech: usize,
    parts: &[IslandPart],
    bodies: usize,
    parent: &mut [u32],
) -> Vec<u32> {
    let n = d.blocks.len();
    let central = |b: usize| b == mech || parts[b] == IslandPart::ContactGroup;
    let mut needed: Vec<bool> = (0..n).map(central).collect();
    let mut stack: Vec<usize> = (0..n).filter(|&b| needed[b]).collect();
    while let Some(b) = stack.pop() {
        for l in d.lines.iter().filter(|l| l.to == b) {
            if !needed[l.from] {
                needed[l.from] = true;
                stack.push(l.from);
            }
        }
    }
    let feeds_group = |b: usize| {
        d.lines
            .iter()
            .any(|l| l.from == b && parts[l.to] == IslandPart::ContactGroup)
    };
    (0..n)
        .map(|b| {
            if !needed[b] {
                return NO_ISLAND;
            }
            if central(b) || feeds_group(b) {
                return EVERY_ISLAND;
            }
            // The union keeps the lower root: a class with a body has a body as its root.
            let root = find(parent, (bodies + b) as u32);
            if root != 0 && (root as usize) < bodies {
                root
            } else {
                EVERY_ISLAND
            }
        })
        .collect()
}

/// The root of `x`, halving the path on the way.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let grand = parent[parent[x as usize] as usize];
        parent[x as usize] = grand;
        x = grand;
    }
    x
}

/// Joins the classes of `a` and `b` (the lower root becomes the root).
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

#[cfg(test)]
mod tests;
