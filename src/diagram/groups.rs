//! Blocks that gather geometries by name (a ContactGroup's `members`): their patterns are
//! expanded against the model's Solid and geometry blocks, and each member's `G` port is
//! connected to a port of the group named after it, as if the model had written
//! `member.G -- group.member`. Runs after the blocks are made and the model's connections
//! resolved, before the physical network is elaborated (which then binds the group like any
//! other contact block).

use super::instance::Instance;
use super::physical::{PhysicalEnd, PhysicalLine};
use crate::block::members::{EXCLUDE_KEY, MEMBERS_KEY};
use crate::block::{GeometryMembers, PhysicalRole};
use crate::geometry::Shape;
use crate::model::diagnostic::closest;
use crate::model::reader::span_in;
use crate::model::{Diagnostic, ModelSpec, PortRef, SourceFile, Span};
use crate::params::At;
use std::collections::{HashMap, HashSet};

/// Expands every group's members, gives the group its member ports, and appends the physical
/// lines that connect them (and their `a -- b` labels to `physical`). Every problem of every
/// group is reported at once, each at the pattern or pair that has it.
pub(super) fn expand(
    source: &SourceFile,
    spec: &ModelSpec,
    instances: &mut [Instance],
    lines: &mut Vec<PhysicalLine>,
    physical: &mut super::PhysicalConnections,
) -> Result<(), Diagnostic> {
    let groups: Vec<usize> = (0..instances.len())
        .filter(|&g| instances[g].block.geometry_members().is_some())
        .collect();
    if groups.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    for g in groups {
        let Some(members) = instances[g].block.geometry_members().cloned() else {
            continue;
        };
        let places = Places::of(spec, &instances[g]);
        let written = places.span(MEMBERS_KEY, At::Value);
        match members_of(source, instances, g, &members, &places) {
            Ok((members, member_blocks)) => {
                // The group's ports first: a line's ends are ports by index.
                if let Some(group) = instances[g].block.physical_mut() {
                    group.set_members(&members);
                }
                for (m, &block) in members.iter().zip(&member_blocks) {
                    let a = PortRef {
                        block: m.clone(),
                        port: "G".into(),
                        index: None,
                    };
                    let b = PortRef {
                        block: instances[g].name.clone(),
                        port: m.clone(),
                        index: None,
                    };
                    let port_of = |b: usize, name: &str| {
                        let ports = instances[b].block.physical_ports();
                        let p = ports.iter().position(|p| p.name == name)?;
                        Some(PhysicalEnd::new(b, p))
                    };
                    let (Some(end_a), Some(end_b)) = (port_of(block, "G"), port_of(g, m)) else {
                        let message =
                            format!("internal: group port {b} or member port {a} not declared");
                        problems.push(Diagnostic::at(source, &written, message));
                        continue;
                    };
                    // Listed only once both ports are found, so `physical` and `lines` agree.
                    physical.push(&a, &b);
                    lines.push(PhysicalLine {
                        a: end_a,
                        b: end_b,
                        span: written.clone(),
                    });
                }
            }
            Err(d) => problems.push(d),
        }
    }
    match Diagnostic::combine(problems) {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

/// Where a group's parameters were written: its model entry's table, whose `members` and
/// `exclude` entries the group's patterns and pairs name by index.
struct Places<'a> {
    entry: Option<&'a crate::model::BlockEntry>,
}

impl<'a> Places<'a> {
    fn of(spec: &'a ModelSpec, group: &Instance) -> Self {
        Places {
            entry: group.origin.and_then(|o| spec.blocks.get(o.entry)),
        }
    }

    /// The span of `at` of the group's parameter `key` (`None` for a group the model did not
    /// write).
    fn span(&self, key: &str, at: At) -> Span {
        let Some(entry) = self.entry else {
            return Span::NONE;
        };
        span_in(&entry.params, &entry.span, &[key.to_string()], at)
    }
}

/// The geometry a block exports at `G`, if it is a Solid or a geometry block.
fn geometry_of(inst: &Instance) -> Option<&Shape> {
    match inst.block.role()? {
        PhysicalRole::Solid { shape, .. } | PhysicalRole::Geometry { shape } => Some(shape),
        _ => None,
    }
}

/// The members of group `g` in `members` order (each pattern's matches in model order, a block
/// matched twice kept at its first place) and their blocks' indices, with the `exclude` pairs
/// checked against them.
fn members_of(
    source: &SourceFile,
    instances: &[Instance],
    g: usize,
    spec: &GeometryMembers,
    places: &Places,
) -> Result<(Vec<String>, Vec<usize>), Diagnostic> {
    let group = &instances[g].name;
    let at = |span: &Span, message: String| Diagnostic::at(source, span, message).block(group);
    let mut members: Vec<String> = Vec::new();
    let mut member_blocks: Vec<usize> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut problems = Vec::new();
    let all_names = || instances.iter().map(|i| i.name.as_str());
    for p in &spec.patterns {
        let mut matched = 0;
        for (k, inst) in instances.iter().enumerate() {
            if !p.matches(&inst.name) {
                continue;
            }
            let Some(shape) = geometry_of(inst) else {
                if !p.is_wildcard() {
                    problems.push(
                        at(
                            &places.span(MEMBERS_KEY, At::Item(p.item)),
                            format!(
                                "member \"{}\" is a {}, which has no geometry port G",
                                p.pattern, inst.type_name
                            ),
                        )
                        .hint("members are Solid and geometry blocks (Sphere, Brick, InfinitePlane, …)"),
                    );
                    matched += 1;
                }
                continue;
            };
            matched += 1;
            if matches!(shape, Shape::PointCloud(_)) {
                problems.push(
                    at(
                        &places.span(MEMBERS_KEY, At::Item(p.item)),
                        format!(
                            "member '{}' is a point cloud: point clouds are not yet supported in a ContactGroup",
                            inst.name
                        ),
                    )
                    .hint("connect the point cloud with its own SpatialContactForce blocks"),
                );
                continue;
            }
            if seen.insert(inst.name.as_str()) {
                members.push(inst.name.clone());
                member_blocks.push(k);
            }
        }
        if matched == 0 {
            let d = at(
                &places.span(MEMBERS_KEY, At::Item(p.item)),
                format!("member pattern \"{}\" matches no block", p.pattern),
            );
            problems.push(match closest(&p.pattern, all_names()) {
                Some(near) if !p.is_wildcard() => d.hint(format!("did you mean \"{near}\"?")),
                _ => d.hint("members are names of Solid and geometry blocks; * matches any run of characters"),
            });
        }
    }
    if problems.is_empty() && members.len() < 2 {
        problems.push(
            at(
                &places.span(MEMBERS_KEY, At::Value),
                format!(
                    "a ContactGroup needs at least two members; its patterns match {}",
                    members.len()
                ),
            )
            .hint("list two or more geometry blocks in members = [...]"),
        );
    }
    let index: HashMap<&str, usize> = members
        .iter()
        .enumerate()
        .map(|(k, m)| (m.as_str(), k))
        .collect();
    for pair in &spec.excludes {
        for name in &pair.names {
            if !index.contains_key(name.as_str()) {
                let d = at(
                    &places.span(EXCLUDE_KEY, At::Item(pair.item)),
                    format!("excluded pair names \"{name}\", which is not a member of the group"),
                );
                problems.push(match closest(name, members.iter().map(|m| m.as_str())) {
                    Some(near) => d.hint(format!("did you mean \"{near}\"?")),
                    None => d.hint("exclude lists pairs of members: [[\"a\", \"b\"], ...]"),
                });
            }
        }
        if pair.names[0] == pair.names[1] {
            problems.push(
                at(
                    &places.span(EXCLUDE_KEY, At::Item(pair.item)),
                    format!("excluded pair names \"{}\" twice", pair.names[0]),
                )
                .hint("a member never touches itself: write two different members"),
            );
        }
    }
    match Diagnostic::combine(problems) {
        Some(d) => Err(d),
        None => Ok((members, member_blocks)),
    }
}
