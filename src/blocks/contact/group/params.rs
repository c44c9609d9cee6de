//! Reading a ContactGroup's table: `members`, `exclude`, `contact`, `margin` (the laws are read
//! as SpatialContactForce reads them, `laws_params.rs`).

use crate::block::members::{EXCLUDE_KEY, MEMBERS_KEY};
use crate::block::{ExcludedPair, GeometryMembers, MemberPattern, Param, ParamDoc};
use crate::blocks::contact::rigid_params::{
    ContactKind, RigidFrictionMethod, RigidParams, RIGID_ONLY_KEYS,
};
use crate::contact::law_methods::FrictionMethod;
use crate::params::{ParamError, ParamValue, Params};

/// `contact`'s values.
const CONTACT_CHOICES: [&str; 2] = [ContactKind::Penalty.name(), ContactKind::Rigid.name()];

pub(super) const CONTACT: Param<&str> = crate::param!("contact", "", "penalty", "\"penalty\": the normal and friction laws above, as SpatialContactForce applies them | \"rigid\": every pair a RigidContact pair (base: the member first in members order), with RigidContact's restitution, rest_velocity, friction = { method = \"none\" | \"coulomb\", coefficient } and impacts (normal, zero_crossings and margin are penalty-only)"; one_of(CONTACT_CHOICES));
pub(super) const ZERO_CROSSINGS: Param<bool> = crate::param!("zero_crossings", "", true, "locate sign changes of the separation of every pair within `margin` (and of every pair with a plane or grid surface), and the instant another pair comes within margin/2, so that no contact onset is stepped over (the normal law's kinks are not located in a group; with onsets = \"stepped\" the watched pairs' onsets are stepped over, the approach and the looks kept)");
/// `onsets`: how a watched pair's contact onset meets the solver. Each name is written once, here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Onsets {
    /// `"located"` (the default): each watched pair's separation is a zero-crossing function, so
    /// a step ends at every onset.
    #[default]
    Located,
    /// `"stepped"`: the error control steps over onsets (no step ends at one); the approach
    /// function and the looks still keep every pair from being stepped through.
    Stepped,
}

impl Onsets {
    /// Both, in the order the documentation lists them.
    pub const ALL: [Onsets; 2] = [Onsets::Located, Onsets::Stepped];

    /// The name in a model file.
    pub const fn name(self) -> &'static str {
        match self {
            Onsets::Located => "located",
            Onsets::Stepped => "stepped",
        }
    }
}

/// `onsets`'s values.
const ONSETS_CHOICES: [&str; 2] = [Onsets::Located.name(), Onsets::Stepped.name()];

pub(super) const ONSETS: Param<&str> = crate::param!("onsets", "", "located", "with zero_crossings: \"located\": a step ends at each watched pair's contact onset (the error test stays honest across the force's kink) | \"stepped\": onsets are stepped over by the error control, while the approach of a pair and the looks still keep members from passing through one another (pairs with a grid surface or a moving plane stay located); for scenes wanted to the centimetre (piles), with a loose rel_tol: half the steps (docs/contact.md); not with [solver] islands = true (the run is then global)"; one_of(ONSETS_CHOICES));

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

/// The group's `members` and `exclude`, each entry with its index in its list.
pub(super) fn read_members(p: &Params) -> Result<GeometryMembers, ParamError> {
    let Some(value) = p.value(MEMBERS_KEY) else {
        return Err(p
            .table_error("a ContactGroup needs 'members'")
            .hint("write members = [\"ball*\", \"floor\"] (names of Solid and geometry blocks)"));
    };
    let example = "write e.g. members = [\"ball*\", \"floor\"]";
    let ParamValue::Array(items) = &value else {
        return Err(p
            .error(MEMBERS_KEY, "'members' must be an array of block names")
            .hint(example));
    };
    let mut patterns = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let Some(s) = item.as_str() else {
            return Err(p
                .item_error(
                    MEMBERS_KEY,
                    k,
                    "each member must be a block name (a string)",
                )
                .hint(example));
        };
        if s.is_empty() {
            return Err(p
                .item_error(MEMBERS_KEY, k, "a member name is empty")
                .hint(example));
        }
        patterns.push(MemberPattern {
            pattern: s.to_string(),
            item: k,
        });
    }
    if patterns.is_empty() {
        return Err(p
            .error(
                MEMBERS_KEY,
                "'members' is empty: a group needs two or more geometries",
            )
            .hint(example));
    }
    let mut excludes = Vec::new();
    let pair_hint = "write exclude = [[\"ball0\", \"ball1\"]]: each pair is two member names";
    if let Some(v) = p.value(EXCLUDE_KEY) {
        let ParamValue::Array(pairs) = &v else {
            return Err(p
                .error(EXCLUDE_KEY, "'exclude' must be an array of pairs")
                .hint(pair_hint));
        };
        for (k, pair) in pairs.iter().enumerate() {
            let names: Option<Vec<&str>> = match pair {
                ParamValue::Array(two) if two.len() == 2 => {
                    two.iter().map(|x| x.as_str()).collect()
                }
                _ => None,
            };
            let Some(names) = names else {
                return Err(p
                    .item_error(
                        EXCLUDE_KEY,
                        k,
                        "each excluded pair must be two member names",
                    )
                    .hint(pair_hint));
            };
            excludes.push(ExcludedPair {
                names: [names[0].to_string(), names[1].to_string()],
                item: k,
            });
        }
    }
    Ok(GeometryMembers { patterns, excludes })
}

/// The keys only penalty contact reads (besides `friction`, which both read, each its own way).
const PENALTY_ONLY_KEYS: [&str; 4] = ["normal", "zero_crossings", "onsets", "margin"];

/// `contact`: `None` for "penalty", RigidContact's parameters for "rigid". Each key of the other
/// kind of contact is refused by name, and so is a `friction` method of the other kind.
pub(super) fn read_contact(p: &Params) -> Result<Option<RigidParams>, ParamError> {
    let kind = p.choice_value(
        CONTACT.name(),
        &ContactKind::ALL.map(|k| (k.name(), k)),
        ContactKind::default(),
    )?;
    let rigid = kind == ContactKind::Rigid;
    let (written, theirs) = if rigid {
        (&PENALTY_ONLY_KEYS[..], ContactKind::Penalty.name())
    } else {
        (&RIGID_ONLY_KEYS[..], ContactKind::Rigid.name())
    };
    let ours = kind.name();
    let hint = if rigid {
        "with contact = \"rigid\" a group takes RigidContact's parameters: restitution, rest_velocity, impacts and friction = { method = \"coulomb\", coefficient = 0.5 }; or write contact = \"penalty\" for the penalty laws"
    } else {
        "with contact = \"penalty\" (the default) a group takes normal and friction laws as SpatialContactForce; write contact = \"rigid\" for RigidContact's restitution, rest_velocity and impacts"
    };
    if let Some(&key) = written.iter().find(|&&k| p.has(k)) {
        return Err(p
            .error(key, format!("'{key}' is a parameter of {theirs} contact, but this group's contact is \"{ours}\""))
            .hint(hint));
    }
    if let Some(t) = p.table("friction")? {
        if let Some(method) = t.string("method")? {
            let rigid_method = RigidFrictionMethod::ALL.iter().any(|m| m.name() == method);
            let penalty_method = FrictionMethod::ALL.iter().any(|m| m.name() == method);
            // "none" is both.
            if (rigid && !rigid_method && penalty_method)
                || (!rigid && !penalty_method && rigid_method)
            {
                return Err(t
                    .error("method", format!("friction method \"{method}\" is a law of {theirs} contact, but this group's contact is \"{ours}\""))
                    .hint(hint));
            }
        }
    }
    rigid.then(|| RigidParams::read(p)).transpose()
}

/// `margin` (m), when written: positive and finite.
pub(super) fn read_margin(p: &Params) -> Result<Option<f64>, ParamError> {
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

/// `onsets`, with `zero_crossings` as read: `"stepped"` keeps the approach function and the
/// looks, which `zero_crossings = false` turns off, so the two together are refused.
pub(super) fn read_onsets(p: &Params, zero_crossings: bool) -> Result<Onsets, ParamError> {
    let onsets = p.choice_value(
        ONSETS.name(),
        &Onsets::ALL.map(|k| (k.name(), k)),
        Onsets::default(),
    )?;
    if onsets == Onsets::Stepped && !zero_crossings {
        return Err(p
            .error(
                ONSETS.name(),
                "onsets = \"stepped\" needs zero_crossings = true",
            )
            .hint("its approach function and looks are what keep members from passing through one another; remove `zero_crossings = false`, or remove `onsets` to step over every crossing"));
    }
    Ok(onsets)
}
