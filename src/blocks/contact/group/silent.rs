//! A bound group (either kind) none of whose pairs may touch adds no contact at all: the
//! warning that says so, why (how many pairs each rule of [`ContactGroup::allowed`] leaves out),
//! and what to change for the rule that leaves out the most.

use super::ContactGroup;

/// Why no pair of a bound group can touch: how many of its pairs each rule leaves out (the first
/// rule that applies to a pair, in [`ContactGroup::allowed`]'s order).
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

impl ContactGroup {
    /// The warning for a bound group none of whose pairs may touch (see the module
    /// documentation); its hint is the change for the rule that leaves out the most pairs (the
    /// first listed on a tie). It starts with `members` so that it is located at that key.
    /// `None` when a pair may touch.
    pub(super) fn no_pair_warning(&self) -> Option<String> {
        let m = self.m() as u32;
        if m < 2 {
            // Not bound yet, or refused at setup (a group needs two members).
            return None;
        }
        let mut out = LeftOut::default();
        for i in 0..m {
            for j in i + 1..m {
                if self.allowed(i, j) {
                    return None;
                }
                let (a, b) = (&self.members[i as usize], &self.members[j as usize]);
                let bodies = (a.body.min(b.body), a.body.max(b.body));
                if !crate::geometry::pair_supported(a.kind, b.kind) {
                    out.unsupported += 1;
                } else if a.body == b.body && a.body == 0 {
                    out.fixed += 1;
                } else if a.body == b.body {
                    out.one_body += 1;
                } else if self.excluded.binary_search(&(i, j)).is_ok() {
                    out.excluded += 1;
                } else if self.joined.binary_search(&bodies).is_ok() {
                    out.joined += 1;
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
        let kind = if self.rigid.is_some() {
            "rigid"
        } else {
            "penalty"
        };
        Some(format!(
            "members give no pair that can touch, so this {kind} group adds no contact: of its {m} members' {pairs} pair{s}, {reasons}; {hint} or remove the group",
            s = if pairs == 1 { "" } else { "s" },
            reasons = reasons.join(", "),
        ))
    }
}
