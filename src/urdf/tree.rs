//! The kinematic tree of a URDF robot: one root link, every other link the child of exactly one
//! joint, no cycles, joints in an order where each joint's parent link is placed before it.

use super::position::error_at;
use super::read::Robot;
use crate::model::Diagnostic;
use std::collections::HashMap;

/// The robot's links and joints as a tree.
#[derive(Clone, Debug)]
pub struct KinematicTree {
    /// Index of the root link in [`Robot::links`].
    pub root: usize,
    /// Indices of [`Robot::joints`], each after the joint that places its parent link.
    pub joint_order: Vec<usize>,
    /// For each joint: (parent link, child link) indices.
    pub ends: Vec<(usize, usize)>,
}

impl KinematicTree {
    /// Checks the tree of `robot`: unknown links, a link with two parents, two roots, cycles.
    pub fn new(robot: &Robot) -> Result<KinematicTree, Diagnostic> {
        let src = &robot.source;
        // Keyed SipHash: the names come from the file (see `read_robot`).
        let index: HashMap<&str, usize> = robot
            .links
            .iter()
            .enumerate()
            .map(|(k, l)| (l.name.as_str(), k))
            .collect();
        let find = |name: &str, at: usize, joint: &str, role: &str| {
            index.get(name).copied().ok_or_else(|| {
                let mut d = error_at(
                    src,
                    at,
                    format!(
                        "joint '{joint}': its {role} link '{name}' is not a <link> of this robot"
                    ),
                );
                let names: Vec<&str> = robot.links.iter().map(|l| l.name.as_str()).collect();
                d = match crate::model::diagnostic::closest(name, names.iter().copied()) {
                    Some(near) => d.hint(format!("did you mean '{near}'?")),
                    None if names.len() <= 20 => {
                        d.hint(format!("the links are: {}", names.join(", ")))
                    }
                    None => d.hint(format!(
                        "the links are: {}, … ({} in all)",
                        names[..20].join(", "),
                        names.len()
                    )),
                };
                d
            })
        };
        let mut ends = Vec::with_capacity(robot.joints.len());
        let mut parent_joint: Vec<Option<usize>> = vec![None; robot.links.len()];
        for (j, joint) in robot.joints.iter().enumerate() {
            let p = find(&joint.parent, joint.parent_at, &joint.name, "parent")?;
            let c = find(&joint.child, joint.child_at, &joint.name, "child")?;
            if p == c {
                return Err(error_at(
                    src,
                    joint.child_at,
                    format!(
                        "joint '{}' joins link '{}' to itself",
                        joint.name, joint.child
                    ),
                )
                .hint("a joint's parent and child are two different links"));
            }
            if let Some(other) = parent_joint[c] {
                let first = &robot.joints[other];
                let (line, _) = src.line_column(first.at);
                return Err(error_at(
                    src,
                    joint.child_at,
                    format!(
                        "link '{}' is the child of two joints, '{}' (line {line}) and '{}': a URDF robot is a tree",
                        joint.child, first.name, joint.name
                    ),
                )
                .hint("give each link one parent joint; closed loops are written in the blockdyn model, by connecting frames"));
            }
            parent_joint[c] = Some(j);
            ends.push((p, c));
        }
        let roots: Vec<usize> = (0..robot.links.len())
            .filter(|&l| parent_joint[l].is_none())
            .collect();
        let root = match roots.as_slice() {
            [one] => *one,
            [] => {
                // Every link has a parent: following parents from any link goes round a cycle;
                // the joint met twice is on it.
                let mut seen = vec![false; robot.joints.len()];
                let mut j = parent_joint[0].unwrap_or(0);
                while !seen[j] {
                    seen[j] = true;
                    j = parent_joint[ends[j].0].unwrap_or(j);
                }
                return Err(error_at(
                    src,
                    robot.joints[j].at,
                    format!("the joints form a cycle: every link is a child, so no link is the root (joint '{}' is on the cycle)", robot.joints[j].name),
                )
                .hint("remove the joint that closes the cycle; one link (the base) must be no joint's child"));
            }
            [first, second, ..] => {
                let (a, b) = (&robot.links[*first], &robot.links[*second]);
                let (line, _) = src.line_column(a.at);
                return Err(error_at(
                    src,
                    b.at,
                    format!(
                        "two root links: '{}' (line {line}) and '{}' are each no joint's child, so the robot is not one tree",
                        a.name, b.name
                    ),
                )
                .hint(format!(
                    "add a joint with <parent link=\"{}\"/> and <child link=\"{}\"/> (type=\"fixed\" to weld them), or remove the unused link",
                    a.name, b.name
                )));
            }
        };
        // Breadth first from the root: joints reached in order; a joint not reached is on a
        // cycle cut off from the root.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); robot.links.len()];
        for (j, &(p, _)) in ends.iter().enumerate() {
            children[p].push(j);
        }
        let mut joint_order = Vec::with_capacity(robot.joints.len());
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(l) = queue.pop_front() {
            for &j in &children[l] {
                joint_order.push(j);
                queue.push_back(ends[j].1);
            }
        }
        if joint_order.len() < robot.joints.len() {
            let mut reached = vec![false; robot.joints.len()];
            for &j in &joint_order {
                reached[j] = true;
            }
            let j = reached.iter().position(|r| !r).unwrap_or(0);
            let joint = &robot.joints[j];
            return Err(error_at(
                src,
                joint.at,
                format!(
                    "joint '{}' is on a cycle of joints not connected to the root link '{}'",
                    joint.name, robot.links[root].name
                ),
            )
            .hint("a URDF robot is a tree: remove the joint that closes the cycle"));
        }
        Ok(KinematicTree {
            root,
            joint_order,
            ends,
        })
    }
}
