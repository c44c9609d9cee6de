//! A bound group (either kind) none of whose pairs may touch adds no contact at all: the
//! warning that says so, why (how many pairs each rule of [`super::base::ContactGroup::allowed`] leaves
//! out), and what to change for the rule that leaves out the most.
//!
//! A free function over what it reads (each member's body and geometry kind, the excluded and
//! joined pairs, the group's kind), not a method of the group: this file stays below `mod.rs`
//! in the module graph (no cycle, `tests/module_graph.rs`).

use crate::blocks::contact::rigid_params::ContactKind;
use crate::geometry::ShapeKind;

/// Why no pair of a bound group can touch: how many of its pairs each rule leaves out (the first
/// rule that applies to a pair, in [`super::base::ContactGroup::allowed`]'s order).
#[derive(Default)]
struct LeftOut {
    /// Pairs of kinds without contact (two planes, two points, …).
    unsupported: usize,
    /// Pairs of members both fixed to the World.
    fixed: usize,
    /// Pairs of members on one moving body.
    one_body: usize,
    /// Pairs named in `exclude`.
    excluded: usize,
    /// Pairs whose bodies a joint joins.
    joined: usize,
}

impl LeftOut {
    /// Each rule's count, what it says of a pair, and the change that would let such pairs
    /// touch, in the order the warning lists them.
    fn rules(&self) -> [(usize, &'static str, &'static str); 5] {
        [
            (
                self.fixed,
                "both fixed to the World",
                "put members on bodies that move (a Solid on its own joint)",
            ),
            (
                self.one_body,
                "on one body",
                "put members on different bodies (a Solid on its own joint)",
            ),
            (
                self.joined,
                "on bodies a joint joins",
                "add members on bodies no joint joins (members joined by a joint never touch)",
            ),
            (
                self.excluded,
                "listed in exclude",
                "take pairs out of `exclude`",
            ),
            (
                self.unsupported,
                "of geometry kinds that never touch (e.g. two planes)",
                "add a member whose geometry touches the others (e.g. a Solid, for planes)",
            ),
        ]
    }
}

/// The warning for a bound group none of whose pairs may touch (see the module documentation);
/// its hint is the change for the rule that leaves out the most pairs (the first listed on a
/// tie). It starts with `members` so that it is located at that key. `None` when a pair may
/// touch (no rule leaves it out: the rules are [`super::base::ContactGroup::allowed`]'s).
///
/// `members[k]` is member k's body (0: the World) and geometry kind; `excluded` the pairs (i < j)
/// excluded by name and `joined` the body pairs (low, high) a joint joins, both sorted; `rigid`
/// whether the group is the rigid kind (for the wording only).
pub(super) fn no_pair_warning(
    members: &[(usize, ShapeKind)],
    excluded: &[(u32, u32)],
    joined: &[(usize, usize)],
    rigid: bool,
) -> Option<String> {
    let m = members.len() as u32;
    if m < 2 {
        // Not bound yet, or refused at setup (a group needs two members).
        return None;
    }
    let mut out = LeftOut::default();
    for i in 0..m {
        for j in i + 1..m {
            let ((a_body, a_kind), (b_body, b_kind)) = (members[i as usize], members[j as usize]);
            let bodies = (a_body.min(b_body), a_body.max(b_body));
            if !crate::geometry::pair_supported(a_kind, b_kind) {
                out.unsupported += 1;
            } else if a_body == b_body && a_body == 0 {
                out.fixed += 1;
            } else if a_body == b_body {
                out.one_body += 1;
            } else if excluded.binary_search(&(i, j)).is_ok() {
                out.excluded += 1;
            } else if joined.binary_search(&bodies).is_ok() {
                out.joined += 1;
            } else {
                // No rule leaves it out: the pair may touch.
                return None;
            }
        }
    }
    let pairs = (m as usize) * (m as usize).saturating_sub(1) / 2;
    let rules = out.rules();
    let reasons: Vec<String> = rules
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, why, _)| format!("{n} {why}"))
        .collect();
    // The first rule with the largest count (`max_by_key` would keep the last).
    let hint = rules
        .iter()
        .fold(None, |best: Option<&(usize, &str, &str)>, r| match best {
            Some(b) if b.0 >= r.0 => Some(b),
            _ => Some(r),
        })
        .map_or("", |r| r.2);
    let kind = ContactKind::of(rigid).name();
    Some(format!(
            "members give no pair that can touch, so this {kind} group adds no contact: of its {m} members' {pairs} pair{s}, {reasons}; {hint} or remove the group",
            s = if pairs == 1 { "" } else { "s" },
            reasons = reasons.join(", "),
        ))
}
