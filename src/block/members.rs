//! Blocks that gather geometries by name rather than by `--` lines (a ContactGroup): the
//! patterns they were written with, which the diagram builder expands against the model's
//! geometry blocks (see `diagram::groups`). Each entry keeps its index in the list it was
//! written in, so that the builder locates a problem with it as it locates a parameter's
//! (`crate::params::At::Item` of `members` or `exclude`).

/// One entry of a `members` list: a block name in which `*` matches any run of characters.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberPattern {
    /// The pattern as written (`"ball*"`, `"floor"`).
    pub pattern: String,
    /// Its index in `members` (for located errors).
    pub item: usize,
}

impl MemberPattern {
    /// True when the pattern has a wildcard (it may match any number of blocks, including none
    /// that lack a geometry port).
    pub fn is_wildcard(&self) -> bool {
        self.pattern.contains('*')
    }

    /// Whether `name` matches: `*` matches any run of characters (also none), every other
    /// character itself.
    pub fn matches(&self, name: &str) -> bool {
        glob_matches(self.pattern.as_bytes(), name.as_bytes())
    }
}

/// `*`-only glob matching, iterative with one backtrack point (linear in practice).
fn glob_matches(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, n));
            p += 1;
        } else if p < pattern.len() && pattern[p] == name[n] {
            p += 1;
            n += 1;
        } else if let Some((sp, sn)) = star {
            p = sp + 1;
            n = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// A pair of members written in `exclude`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExcludedPair {
    /// The two member names.
    pub names: [String; 2],
    /// Its index in `exclude` (for located errors).
    pub item: usize,
}

/// What a block that gathers geometries asks of the builder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeometryMembers {
    /// The `members` entries in the order written.
    pub patterns: Vec<MemberPattern>,
    /// The `exclude` pairs.
    pub excludes: Vec<ExcludedPair>,
}

/// The key a block that gathers geometries lists its members under.
pub const MEMBERS_KEY: &str = "members";
/// The key a block that gathers geometries lists its excluded pairs under.
pub const EXCLUDE_KEY: &str = "exclude";

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, n: &str) -> bool {
        MemberPattern {
            pattern: p.into(),
            item: 0,
        }
        .matches(n)
    }

    #[test]
    fn star_matches_any_run() {
        assert!(m("ball*", "ball"));
        assert!(m("ball*", "ball12"));
        assert!(!m("ball*", "aball1"));
        assert!(m("*_wall", "left_wall"));
        assert!(m("w*_*", "wall_x"));
        assert!(!m("w*_*", "wallx"));
        assert!(m("floor", "floor"));
        assert!(!m("floor", "floor2"));
        assert!(m("*", ""));
        assert!(m("a*b*c", "aXXbYYc"));
        assert!(!m("a*b*c", "aXXbYY"));
    }
}
