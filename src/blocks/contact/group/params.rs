//! Reading a ContactGroup's table: `members`, `exclude`, `contact`, `margin` (the laws are read
//! as SpatialContactForce reads them, `laws_params.rs`).

use crate::block::{ExcludedPair, GeometryMembers, MemberPattern, Param, ParamDoc};
use crate::model::{Diagnostic, TableReader, ValueKind};

/// `contact`'s values.
const CONTACT_CHOICES: [&str; 2] = ["penalty", "rigid"];

pub(super) const CONTACT: Param<&str> = crate::param!("contact", "", "penalty", "\"penalty\": the normal and friction laws above, as SpatialContactForce applies them | \"rigid\": RigidContact's rigid pairs (not yet supported in a group: refused with a message)");
pub(super) const ZERO_CROSSINGS: Param<bool> = crate::param!("zero_crossings", "", true, "locate sign changes of the separation of every pair within `margin` (and of every pair with a plane or grid surface), and the instant another pair comes within margin/2, so that no contact onset is stepped over (the normal law's kinks are not located in a group)");
pub(super) const MEMBERS_DOC: ParamDoc = ParamDoc {
    name: "members",
    unit: "",
    default: "required",
    doc: "names of Solid and geometry blocks whose geometry port G joins the group; * matches any run of characters (\"ball*\"); a block matched twice counts once; the order after expansion is member_wrench's column order (`blockdyn check` prints it)",
};
pub(super) const EXCLUDE_DOC: ParamDoc = ParamDoc {
    name: "exclude",
    unit: "",
    default: "[]",
    doc: "pairs of members never in contact ([[\"ball0\", \"ball1\"], …]); members on one body, members both fixed to the World, and members whose bodies a joint joins directly (any joint but a SixDofJoint) are left out too",
};
pub(super) const MARGIN_DOC: ParamDoc = ParamDoc {
    name: "margin",
    unit: "m",
    default: "auto",
    doc: "the broad phase's watch distance: pairs whose bounding boxes are within it get a zero-crossing function on their separation; auto: a quarter of the smallest bounded member's half size",
};

/// The group's `members` and `exclude`, with where each entry was written.
pub(super) fn read_members(p: &TableReader) -> Result<GeometryMembers, Diagnostic> {
    let Some(value) = p.value("members") else {
        return Err(p
            .table_error("a ContactGroup needs 'members'")
            .hint("write members = [\"ball*\", \"floor\"] (names of Solid and geometry blocks)"));
    };
    let example = "write e.g. members = [\"ball*\", \"floor\"]";
    let ValueKind::Array(items) = &value.kind else {
        return Err(p
            .error("members", "'members' must be an array of block names")
            .hint(example));
    };
    let mut patterns = Vec::with_capacity(items.len());
    for item in items {
        let Some(s) = item.as_str() else {
            return Err(Diagnostic::at(
                p.source(),
                &item.span,
                "each member must be a block name (a string)",
            )
            .hint(example));
        };
        if s.is_empty() {
            return Err(
                Diagnostic::at(p.source(), &item.span, "a member name is empty").hint(example),
            );
        }
        patterns.push(MemberPattern {
            pattern: s.to_string(),
            span: item.span.clone(),
        });
    }
    if patterns.is_empty() {
        return Err(p
            .error(
                "members",
                "'members' is empty: a group needs two or more geometries",
            )
            .hint(example));
    }
    let mut excludes = Vec::new();
    let pair_hint = "write exclude = [[\"ball0\", \"ball1\"]]: each pair is two member names";
    if let Some(v) = p.value("exclude") {
        let ValueKind::Array(pairs) = &v.kind else {
            return Err(p
                .error("exclude", "'exclude' must be an array of pairs")
                .hint(pair_hint));
        };
        for pair in pairs {
            let names: Option<Vec<&str>> = match &pair.kind {
                ValueKind::Array(two) if two.len() == 2 => two.iter().map(|x| x.as_str()).collect(),
                _ => None,
            };
            let Some(names) = names else {
                return Err(Diagnostic::at(
                    p.source(),
                    &pair.span,
                    "each excluded pair must be two member names",
                )
                .hint(pair_hint));
            };
            excludes.push(ExcludedPair {
                names: [names[0].to_string(), names[1].to_string()],
                span: pair.span.clone(),
            });
        }
    }
    Ok(GeometryMembers {
        patterns,
        excludes,
        span: value.span.clone(),
    })
}

/// `contact`: "penalty", or the refusal of "rigid" (not yet supported in a group).
pub(super) fn read_contact(p: &TableReader) -> Result<(), Diagnostic> {
    match CONTACT.choice(p, &CONTACT_CHOICES)? {
        "rigid" => Err(p
            .error("contact", "contact = \"rigid\" is not yet supported in a ContactGroup")
            .hint("use contact = \"penalty\", or RigidContact blocks for the pairs that must be rigid")),
        _ => Ok(()),
    }
}

/// `margin` (m), when written: positive and finite.
pub(super) fn read_margin(p: &TableReader) -> Result<Option<f64>, Diagnostic> {
    let Some(m) = p.f64("margin")? else {
        return Ok(None);
    };
    p.ensure(
        m > 0.0 && m.is_finite(),
        "margin",
        "'margin' must be a positive distance",
        "write e.g. margin = 0.01 (m), or leave it out for the automatic margin",
    )?;
    Ok(Some(m))
}
